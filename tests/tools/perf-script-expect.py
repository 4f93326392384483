#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent expectation for kma-analyze on a perf.data, from perf's own text:

  perf script -i FILE --ns --show-lost-events -F comm,tid,cpu,time,event,trace[,ip,sym]
              [--kallsyms FILE]       the slab events in perf's (time) order, their
                                      callchains with -g, and PERF_RECORD_LOST lines
  perf report -i FILE --stats         the LOST_SAMPLES counts

usage: perf-script-expect.py [--kallsyms FILE] PERF_DATA          -> one JSON document
       perf-script-expect.py [--kallsyms FILE] --seq OUT PERF_DATA -> a mktrace description

The figures are kma's (docs/kma-analyze.1, tests/tools/kma-expect.py for trace.dat):
per caller, keyed by call_site as perf script prints it (symbol+0xoff), the total
(bytes_alloc), slack (bytes_alloc - bytes_req), net (bytes of allocations live at
the end), allocs, frees (of its allocations) and implicit frees (an allocation at a
live pointer closes the old one); the summary adds unknown frees (a pointer not
live), null frees (ptr <= 0x10), failed allocations (ptr 0: not counted in rows) and
callers. Lost events: the sum of the PERF_RECORD_LOST counts (the ring buffer's
overflows). perf 6.x also writes, at the end, PERF_RECORD_LOST_SAMPLES with each
event's read_format LOST count: the same samples counted again (the two sums agree
on the fixtures), so they are reported apart as lost_samples, never added.

With callchains (-g), the folded sums: per stack, the same five figures, keyed by
the folded name kma gives (-f folded): the kernel part of the chain (addresses in
the upper half), innermost first, with the innermost frames up to and including a
tracing frame (trace_event_raw_event_*, ftrace_raw_event_*, perf_trace_*) dropped,
as sites/kma-stacks.c does for trace.dat stacks; perf's chains have no such frame:
they start at the allocator's own IP (e.g. __kmalloc_cache_noprof+0x215), which is
where a trace.dat stack starts once its tracing frame is dropped. Frames are named
by function (perf script's sym; "[unknown]" as kma's 0x<hex>), outermost first, ';'
between; no kernel frame left: "[no stack]".

--seq writes the same slab events (and the chains' kernel parts as kernel_stack
records, the lost counts as missed events on their CPU) as a tests/tools/mktrace
description, call sites as addresses looked up in --kallsyms: kma reads that
trace.dat with --kallsyms FILE and must give the figures above.

This file never imports or runs kma.
"""
import json
import re
import subprocess
import sys

ALLOC = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
FREE = {"kfree", "kmem_cache_free"}
ZERO_SIZE_PTR = 0x10
KEYS = ("total", "slack", "net", "allocs", "frees", "implicit_frees")
SUMMARY = ("total", "slack", "net", "allocs", "frees", "unknown_frees", "null_frees",
           "implicit_frees", "failed_allocs", "callers", "lost_events")
TRACING = ("trace_event_raw_event_", "ftrace_raw_event_", "perf_trace_")
KERNEL_MIN = 0xffff800000000000

HEAD = re.compile(r"^\s*(.*?)\s+(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+kmem:(\w+):\s*(.*)$")
LOST = re.compile(r"^\s*.*?\s+-?\d+\s+\[(\d+)\]\s+\d+\.\d+:\s+PERF_RECORD_LOST lost (\d+)")
FRAME = re.compile(r"^\s+([0-9a-f]+)\s+(.*?)\s*$")


def has_callchain(perf_data):
    out = subprocess.run(["perf", "evlist", "-v", "-i", perf_data], capture_output=True,
                         text=True, check=True).stdout
    return "CALLCHAIN" in out


_SCRIPT = {}


def script(perf_data, kallsyms, chains):
    """perf script's text, run once per file for compute() and write_seq() alike."""
    key = (perf_data, kallsyms, chains)
    if key not in _SCRIPT:
        _SCRIPT[key] = run_script(perf_data, kallsyms, chains)
    return _SCRIPT[key]


def run_script(perf_data, kallsyms, chains):
    fields = "comm,tid,cpu,time,event,trace" + (",ip,sym" if chains else "")
    cmd = ["perf", "script", "-i", perf_data, "--ns", "--show-lost-events", "-F", fields]
    if kallsyms:
        cmd += ["--kallsyms", kallsyms]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def records(text):
    """Yields ("lost", cpu, n) and ("ev", dict) in perf script's order."""
    ev = None
    for line in text.splitlines():
        m = HEAD.match(line)
        if m:
            if ev:
                yield ("ev", ev)
            comm, tid, cpu, sec, frac, name, rest = m.groups()
            ev = {"comm": comm, "tid": int(tid), "cpu": int(cpu),
                  "ts": int(sec) * 10**9 + int(frac.ljust(9, "0")[:9]), "name": name,
                  "f": dict(kv.split("=", 1) for kv in rest.split() if "=" in kv),
                  "frames": []}
            continue
        m = FRAME.match(line)
        if m and ev:
            ev["frames"].append((int(m.group(1), 16), m.group(2)))
            continue
        m = LOST.match(line)
        if m:
            if ev:
                yield ("ev", ev)
                ev = None
            yield ("lost", int(m.group(1)), int(m.group(2)))
            continue
        if not line.strip() and ev:
            yield ("ev", ev)
            ev = None
    if ev:
        yield ("ev", ev)


def parse_ptr(s):
    if s in ("(nil)", "0"):
        return 0
    return int(s, 16) if s.lower().startswith("0x") else int(s)


def kernel_frames(frames):
    """The chain's kernel part, innermost first, tracing frames dropped (kma-stacks)."""
    k = [(a, s) for a, s in frames if a >= KERNEL_MIN]
    for i, (_, sym) in enumerate(k):
        if sym.startswith(TRACING):
            return k[i + 1:]
    return k


def folded(frames):
    k = kernel_frames(frames)
    if not k:
        return "[no stack]"
    return ";".join("%#x" % a if s == "[unknown]" else s for a, s in reversed(k))


def lost_samples(perf_data):
    """perf report --stats: the LOST_SAMPLES count of the whole file."""
    out = subprocess.run(["perf", "report", "-i", perf_data, "--stats"], capture_output=True,
                         text=True, check=True).stdout
    m = re.search(r"^\s*LOST_SAMPLES events:\s+(\d+)\s+\(", out, re.M)
    per_event = sum(int(n) for n in re.findall(r"^\s*LOST_SAMPLES events:\s+(\d+)\s*$",
                                               out, re.M))
    return (int(m.group(1)) if m else 0), per_event


def row(table, key):
    return table.setdefault(key, dict.fromkeys(KEYS, 0))


def compute(perf_data, kallsyms=None):
    chains = has_callchain(perf_data)
    s = dict.fromkeys(SUMMARY, 0)
    callers, stacks, live = {}, {}, {}
    lost_records = 0
    for rec in records(script(perf_data, kallsyms, chains)):
        if rec[0] == "lost":
            s["lost_events"] += rec[2]
            lost_records += 1
            continue
        ev = rec[1]
        name, f = ev["name"], ev["f"]
        if name not in ALLOC and name not in FREE:
            continue
        ptr = parse_ptr(f["ptr"])
        if name in ALLOC:
            if ptr == 0:
                s["failed_allocs"] += 1
                continue
            if ptr in live:
                old = live.pop(ptr)
                for t, k in ((callers, old[0]), (stacks, old[1])):
                    row(t, k)["implicit_frees"] += 1
                s["implicit_frees"] += 1
            req, alloc = int(f["bytes_req"]), int(f["bytes_alloc"])
            key = (f["call_site"], folded(ev["frames"]) if chains else None)
            for t, k in ((callers, key[0]), (stacks, key[1])):
                r = row(t, k)
                r["total"] += alloc
                r["slack"] += alloc - req
                r["allocs"] += 1
            s["total"] += alloc
            s["slack"] += alloc - req
            s["allocs"] += 1
            live[ptr] = (key[0], key[1], alloc)
        else:
            s["frees"] += 1
            if ptr <= ZERO_SIZE_PTR:
                s["null_frees"] += 1
            elif ptr in live:
                c, st, _ = live.pop(ptr)
                row(callers, c)["frees"] += 1
                row(stacks, st)["frees"] += 1
            else:
                s["unknown_frees"] += 1
    for c, st, alloc in live.values():
        row(callers, c)["net"] += alloc
        row(stacks, st)["net"] += alloc
        s["net"] += alloc
    s["callers"] = len(callers)
    total_ls, per_event_ls = lost_samples(perf_data)
    return {"summary": s, "callers": callers, "folded": stacks if chains else None,
            "lost_records": lost_records, "lost_samples_records": total_ls,
            "lost_samples": per_event_ls}


def symbol_table(kallsyms):
    """name -> [(addr, end)] of kallsyms' vmlinux text symbols, for name+off -> address."""
    rows = []
    for line in open(kallsyms, encoding="latin-1"):
        p = line.split()
        if len(p) >= 3 and p[1] not in "aA":
            rows.append((int(p[0], 16), p[2], p[1] in "tTwW" and len(p) == 3))
    rows.sort(key=lambda r: r[0])
    syms = {}
    for i, (a, name, text) in enumerate(rows):
        if text:
            nxt = next((b for b, _, _ in rows[i + 1:i + 64] if b > a), a + (1 << 16))
            syms.setdefault(name, []).append((a, nxt))
    return syms


def address(syms, site):
    """call_site as printed -> an address kma names back to the same text."""
    if site.startswith("0x"):
        return int(site, 16)
    name, _, off = site.rpartition("+")
    off = int(off, 16)
    for a, end in syms.get(name, []):
        if a + off < end:
            return a + off
    sys.exit("perf-script-expect.py: %s: not in the kallsyms given" % site)


def write_seq(perf_data, kallsyms, out):
    """The slab events as a mktrace description (see the docstring)."""
    syms = symbol_table(kallsyms)
    chains = has_callchain(perf_data)
    lines, comms, cpus, missed = [], {}, 1, {}
    for rec in records(script(perf_data, kallsyms, chains)):
        if rec[0] == "lost":    # one count per ring-buffer page: summed until the next
            missed[rec[1]] = missed.get(rec[1], 0) + rec[2]
            cpus = max(cpus, rec[1] + 1)
            continue
        ev = rec[1]
        name, f = ev["name"], ev["f"]
        if name not in ALLOC and name not in FREE:
            continue
        if missed.get(ev["cpu"]):
            lines.append("missed %d %d" % (ev["cpu"], missed.pop(ev["cpu"])))
        args = "call_site=%#x ptr=%#x" % (address(syms, f["call_site"]), parse_ptr(f["ptr"]))
        if name in ALLOC:
            args += " bytes_req=%s bytes_alloc=%s gfp_flags=GFP_KERNEL" % (
                f["bytes_req"], f["bytes_alloc"])
        comms.setdefault(ev["tid"], ev["comm"].replace(" ", "_") or "<...>")
        cpus = max(cpus, ev["cpu"] + 1)
        lines.append("event %d %d %d %s %s" % (ev["cpu"], ev["ts"], ev["tid"], name, args))
        k = [a for a, _ in kernel_frames(ev["frames"])]
        if len(k) > 64:
            sys.exit("perf-script-expect.py: a chain of %d kernel frames: mktrace takes 64"
                     % len(k))
        if k:
            lines.append("stack %d %d %d %s" % (ev["cpu"], ev["ts"], ev["tid"],
                                                 " ".join("%#x" % a for a in k)))
    if any(missed.values()):
        sys.exit("perf-script-expect.py: lost events after a CPU's last event: mktrace "
                 "has no page to flag")
    with open(out, "w") as o:
        o.write("cpus %d\n" % cpus)
        o.write("kallsyms ffffffff81000000 T _stext\nkallsyms ffffffff81400000 T _etext\n")
        for tid, comm in sorted(comms.items()):
            o.write("cmdline %d %s\n" % (tid, comm))
        o.write("\n".join(lines) + "\n")


def main(argv):
    kallsyms = seq = None
    while len(argv) > 1 and argv[0] in ("--kallsyms", "--seq"):
        if argv[0] == "--kallsyms":
            kallsyms = argv[1]
        else:
            seq = argv[1]
        argv = argv[2:]
    if len(argv) != 1 or (seq and not kallsyms):
        sys.exit("usage: perf-script-expect.py [--kallsyms FILE] [--seq OUT] PERF_DATA")
    if seq:
        write_seq(argv[0], kallsyms, seq)
        return
    json.dump(compute(argv[0], kallsyms), sys.stdout, sort_keys=True, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
