#!/usr/bin/env python3
"""Independent expectation for kma: compute what kma-analyze must report for
a trace.dat, using ONLY trace-cmd's own text output:

  trace-cmd report -R -i FILE      events (raw field values) in report order,
                                   plus the "CPU:N [.. EVENTS DROPPED]" lines
  trace-cmd report --stat -i FILE  per-CPU ring-buffer statistics

usage: kma-expect.py [--kmalloc-only] [--buffer NAME] TRACE.dat   -> one JSON document

--buffer NAME: the events of instance buffer NAME (trace-cmd record -B), which
trace-cmd report prints with a "NAME:" prefix; default "top", the lines
without one. Markers: the buffer's own "kma:" markers, or for an instance
that has none, the top-level buffer's.

This file never imports or runs kma.  kma-check-db.py imports it (expect()).
"""
import hashlib
import json
import os
import pickle
import re
import subprocess
import sys

ALLOC_EVENTS = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
FREE_EVENTS = {"kfree", "kmem_cache_free"}
KMALLOC_ONLY = {"kmalloc", "kmalloc_node", "kfree"}
ZERO_SIZE_PTR = 0x10
MARKER_PREFIX = "kma:"      # kma-analyze's default --marker-prefix

SUMMARY_KEYS = ("total", "slack", "net", "allocs", "frees", "unknown_frees",
                "null_frees", "implicit_frees", "failed_allocs", "callers",
                "lost_events")
CALLER_KEYS = ("total", "slack", "net", "allocs", "frees", "implicit_frees")

# "   comm-pid  [001]   531.605470: kmalloc:    call_site=... ptr=..."
# The comm may contain spaces, so anchor on "[CPU] TIMESTAMP: EVENT:".
EVENT_RE = re.compile(r"\[(\d+)\]\s+(\d+\.\d+):\s+(\w+):\s*(.*)$")
# "CPU:1 [12345 EVENTS DROPPED]" or "CPU:1 [EVENTS DROPPED]" (count unknown)
DROPPED_RE = re.compile(r"^(?:\S+:\s+)?CPU:(\d+) \[(?:(\d+) )?EVENTS DROPPED\]")
CPUS_RE = re.compile(r"^cpus=(\d+)")


def trace_cmd(*args):
    return subprocess.run(["trace-cmd", "report", *args], check=True,
                          capture_output=True, text=True).stdout


def parse_ptr(s):
    """ptr prints as 0xffff..., (nil) for NULL; accept decimal too."""
    if s in ("(nil)", "0"):
        return 0
    return int(s, 16) if s.lower().startswith("0x") else int(s)


def buffer_names(text):
    """--stat: the instances' statistics follow a "Buffer: NAME" line."""
    return [m.group(1) for m in re.finditer(r"^Buffer: (\S+)\s*$", text, re.M)]


def parse_stats(text, buffer="top"):
    """--stat: blocks "CPU: N" followed by "key: value" lines; the top-level
    buffer's come first, each instance's after its "Buffer: NAME" line."""
    stats, cur, current = {}, None, "top"
    for line in text.splitlines():
        m = re.match(r"^Buffer: (\S+)\s*$", line)
        if m:
            current, cur = m.group(1), None
            continue
        if current != buffer:
            continue
        m = re.match(r"^CPU: (\d+)\s*$", line)
        if m:
            cpu = int(m.group(1))
            # keep the first block per CPU
            cur = stats.setdefault(cpu, {}) if cpu not in stats else None
            continue
        if cur is None:
            continue
        m = re.match(r"^(overrun|commit overrun|dropped events|entries): (\d+)\s*$", line)
        if m:
            cur[m.group(1)] = int(m.group(2))
        elif not line.strip():
            cur = None
    return stats


def split_buffer(line, instances):
    """(buffer, rest of the line): instance lines start with "NAME:"."""
    first = line.split(None, 1)
    if first and first[0].endswith(":") and first[0][:-1] in instances:
        return first[0][:-1], first[1] if len(first) > 1 else ""
    return "top", line


def is_kma_marker(line):
    m = EVENT_RE.search(line)
    if not m or m.group(3) != "print":
        return False
    buf = m.group(4).split("buf=", 1)
    return len(buf) == 2 and buf[1].startswith(MARKER_PREFIX)


def select_lines(report, instances, buffer):
    """The lines of @buffer in report (time) order, with the top-level
    buffer's kma markers when @buffer is an instance without any."""
    lines, carry = [], None
    for line in report.splitlines():
        b, rest = split_buffer(line, instances)
        if carry and b == "top":
            b = carry       # "NAME: CPU:1 [.. DROPPED]" then the event, unprefixed
        carry = b if b != "top" and DROPPED_RE.match(rest) else None
        lines.append((b, rest))
    own = any(b == buffer and is_kma_marker(rest) for b, rest in lines)
    return [rest for b, rest in lines
            if b == buffer or (not own and b == "top" and is_kma_marker(rest))]


def expect(trace, kmalloc_only=False, buffer="top"):
    """The expectation, computed once per input: with KMA_CHECK_CACHE=DIR (make check
    sets it for all its passes) a trace already seen, byte for byte, by this very
    script with the same options is not read again."""
    cache = os.environ.get("KMA_CHECK_CACHE")
    if not cache:
        return compute(trace, kmalloc_only, buffer)
    h = hashlib.sha256()
    with open(__file__, "rb") as f:
        h.update(f.read())
    h.update(f"{kmalloc_only}|{buffer}|".encode())
    with open(trace, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    path = os.path.join(cache, "expect-" + h.hexdigest())
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError):
        pass
    exp = compute(trace, kmalloc_only, buffer)
    os.makedirs(cache, exist_ok=True)
    tmp = f"{path}.{os.getpid()}"
    with open(tmp, "wb") as f:
        pickle.dump(exp, f)
    os.replace(tmp, path)
    return exp


def compute(trace, kmalloc_only=False, buffer="top"):
    report = trace_cmd("-R", "-i", trace)
    stat_text = trace_cmd("--stat", "-i", trace)
    stats = parse_stats(stat_text, buffer)
    instances = set(buffer_names(stat_text))
    lines = select_lines(report, instances, buffer)

    ncpus = 0
    page_missed, missed_unknown = {}, {}
    live = {}        # ptr -> (caller, bytes_alloc, generation) of allocations still live
    # generation 0 ("start") runs to the first "kma:" marker; each marker starts one
    gens = [{"label": "start", "allocs": 0, "bytes": 0, "live": 0, "live_bytes": 0,
             "frees": 0}]
    callers = {}     # caller -> dict of CALLER_KEYS
    s = dict.fromkeys(SUMMARY_KEYS, 0)

    for line in lines:
        m = CPUS_RE.match(line)
        if m:
            ncpus = int(m.group(1))
            continue
        m = DROPPED_RE.match(line)
        if m:
            cpu = int(m.group(1))
            if m.group(2) is None:
                missed_unknown[cpu] = missed_unknown.get(cpu, 0) + 1
            else:
                page_missed[cpu] = page_missed.get(cpu, 0) + int(m.group(2))
            continue
        m = EVENT_RE.search(line)
        if not m:
            continue
        event = m.group(3)
        if event == "print":
            # -R prints markers as "print: ip=tracing_mark_write buf=kma: LABEL"
            buf = m.group(4).split("buf=", 1)
            if len(buf) == 2 and buf[1].startswith(MARKER_PREFIX):
                gens.append({"label": buf[1][len(MARKER_PREFIX):].strip(), "allocs": 0,
                             "bytes": 0, "live": 0, "live_bytes": 0, "frees": 0})
            continue
        if event not in ALLOC_EVENTS and event not in FREE_EVENTS:
            continue            # anything else
        if kmalloc_only and event not in KMALLOC_ONLY:
            continue            # ignored entirely
        f = dict(kv.split("=", 1) for kv in m.group(4).split() if "=" in kv)
        ptr = parse_ptr(f["ptr"])

        if event in ALLOC_EVENTS:
            if ptr == 0:                    # failed allocation
                s["failed_allocs"] += 1
                continue
            if ptr in live:                 # earlier allocation never freed
                old_caller, old_bytes, _ = live.pop(ptr)
                callers[old_caller]["implicit_frees"] += 1
                s["implicit_frees"] += 1
            caller = f["call_site"]
            req, alloc = int(f["bytes_req"]), int(f["bytes_alloc"])
            c = callers.setdefault(caller, dict.fromkeys(CALLER_KEYS, 0))
            c["total"] += alloc
            c["slack"] += alloc - req
            c["allocs"] += 1
            s["total"] += alloc
            s["slack"] += alloc - req
            s["allocs"] += 1
            live[ptr] = (caller, alloc, len(gens) - 1)
            gens[-1]["allocs"] += 1
            gens[-1]["bytes"] += alloc
        else:
            s["frees"] += 1                 # every free event considered
            gens[-1]["frees"] += 1
            if ptr <= ZERO_SIZE_PTR:
                s["null_frees"] += 1
            elif ptr in live:               # matched: credit the allocator
                caller, _, _ = live.pop(ptr)
                callers[caller]["frees"] += 1
            else:
                s["unknown_frees"] += 1

    # net = bytes of allocations still live at the end of the trace
    live_by_gen_caller = {}
    for caller, alloc, gen in live.values():
        callers[caller]["net"] += alloc
        s["net"] += alloc
        gens[gen]["live"] += 1
        gens[gen]["live_bytes"] += alloc
        key = f"{gen} {caller}"
        live_by_gen_caller[key] = live_by_gen_caller.get(key, 0) + 1
    s["callers"] = len(callers)

    lost_per_cpu = {}
    for cpu in range(max(ncpus, max(list(stats) + [-1]) + 1)):
        st = stats.get(cpu, {})
        row = {
            "page_missed": page_missed.get(cpu, 0),
            "missed_unknown": missed_unknown.get(cpu, 0),
            "overrun": st.get("overrun", 0),
            "commit_overrun": st.get("commit overrun", 0),
            "dropped": st.get("dropped events", 0),
        }
        # page flags and overrun describe the same overwritten events
        row["lost"] = (max(row["page_missed"], row["overrun"])
                       + row["commit_overrun"] + row["dropped"])
        lost_per_cpu[str(cpu)] = row
        s["lost_events"] += row["lost"]

    return {"summary": s, "callers": callers, "lost_per_cpu": lost_per_cpu,
            "allocations": s["allocs"], "generations": gens,
            "live_by_generation_caller": live_by_gen_caller}


def main(argv):
    args = [a for a in argv if a != "--kmalloc-only"]
    buffer = "top"
    if len(args) == 3 and args[0] == "--buffer":
        buffer, args = args[1], args[2:]
    if len(args) != 1:
        sys.exit("usage: kma-expect.py [--kmalloc-only] [--buffer NAME] TRACE.dat")
    json.dump(expect(args[0], "--kmalloc-only" in argv, buffer), sys.stdout,
              sort_keys=True, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
