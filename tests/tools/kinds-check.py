#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kinds-check.py - the percpu and vmalloc allocators' numbers of a trace,
worked out from `trace-cmd report` text alone (never from kma's output), for
the tests to hold kma against.

    trace-cmd report -i trace.dat | kinds-check.py [--buffer NAME] [--rows]

--buffer NAME keeps the lines of that tracing instance ("NAME:" before the
task, as trace-cmd report prints every buffer of a file with instances).
--rows adds the rows of kma-analyze's caller tables (-g caller and -g
function) after the rest.

Output, one line each:

    count KEY N      the kma-analyze --count keys: percpu_alloc, percpu_free,
                     percpu_bytes, vmap_alloc, vmap_failed, vmap_free,
                     vmap_bytes (each kind's only when it has records)
    summary KIND allocs=N frees=N unknown_frees=N implicit_frees=N failed=N bytes=N net=N peak=N
    caller KIND NAME total=N net=N allocs=N frees=N
    row KIND KEY total=N net=N allocs=N frees=N implicit=N       (--rows)
    function KIND FUNC total=N net=N allocs=N frees=N implicit=N (--rows)

A row's KEY is a percpu call_site as printed (symbol+0xoff), a vmalloc
caller frame's address (0x hex, 0x0 without a stack); FUNC is the function
of either (the call_site without its +0xoff). implicit counts the
allocations of the row that a later allocation at the same key freed.

--bins KIND:START:WIDTH:N (with `trace-cmd report -t`, whose times are in ns; given
more than once for more kinds) adds, after the rest:

    bins KIND V0 V1 ... V(N-1)   the kind's live bytes at the end of each bin
                                 [START + i*WIDTH, START + (i+1)*WIDTH)

The rules:
- percpu (percpu_alloc_percpu / percpu_free_percpu, paired by ptr): the
  bytes of an allocation are bytes_alloc (all possible CPUs' copies, with the
  memcg pointers: pcpu_obj_full_size() in mm/percpu-internal.h), or size (one
  CPU's) where the layout has no bytes_alloc (before 5.19); its caller is
  call_site as the report prints it (%pS: symbol+0xoff), "[none]" where the
  layout has none.
- vmalloc (alloc_vmap_area / free_vmap_area_noflush, paired by the area's
  start): the bytes are size (the reserved address range, guard page
  included); failed=1 is a failed allocation (counted apart, no bytes). Its
  caller comes from the kernel_stack record that follows the event on its
  CPU (the next record of that CPU, as kma pairs them): the frames after the
  tracing frames (up to and including the first trace_event_raw_event_*,
  ftrace_raw_event_* or perf_trace_*), then the first frame whose function,
  leading underscores dropped, starts with none of VMALLOC_INTERNALS; the
  outermost frame when all do; "[no stack]" without a stack.
- A free of a key that is not live is an unknown free (no bytes). An
  allocation at a key that is still live frees the older one implicitly
  (counted as implicit_frees, not as a free of its caller).
- net: the bytes of the allocations still live at the end; peak: the largest
  sum of live bytes after any event, in the report's (time) order.
"""
import argparse
import re
import sys

# Linux 6.18: mm/vmalloc.c, mm/execmem.c and the kvmalloc family (mm/slub.c).
VMALLOC_INTERNALS = (
    "alloc_vmap_area", "get_vm_area", "vmalloc", "vzalloc", "vmap", "vm_map_ram",
    "new_vmap_block", "vb_alloc", "kvmalloc", "kvzalloc", "kvcalloc", "kvrealloc",
    "execmem_",
)
TRACING = ("trace_event_raw_event_", "ftrace_raw_event_", "perf_trace_")
LINE = re.compile(r"^\s*(.*?)-(-?\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\w+):\s*(.*)$")
FRAME = re.compile(r"^=> (\S*)\s*\(([0-9a-f]+)\)")


def fields(text):
    out = {}
    for m in re.finditer(r"(\w+)[=:] ?(\S+)", text):
        out.setdefault(m.group(1), m.group(2))
    return out


def num(s):
    return int(s, 0)


def vmap_frame(frames):
    """The caller frame (function, address) of a vmap area's stack."""
    if not frames:
        return ("[no stack]", "0x0")
    for i, (fn, _) in enumerate(frames):
        if fn.startswith(TRACING):
            frames = frames[i + 1:]
            break
    if not frames:
        return ("[no stack]", "0x0")
    for fn, addr in frames:
        if not fn.lstrip("_").startswith(VMALLOC_INTERNALS):
            return (fn, addr)
    return frames[-1]


def vmap_caller(frames):
    return vmap_frame(frames)[0]


class Kind:
    def __init__(self):
        self.live = {}          # key -> (bytes, caller)
        self.allocs = self.frees = self.unknown = self.implicit = self.failed = 0
        self.bytes = self.net = self.peak = 0
        # per grouping ("caller", "row", "function"): name -> [total, net, allocs,
        # frees, implicit]
        self.groups = {"caller": {}, "row": {}, "function": {}}
        self.callers = self.groups["caller"]

    def rows(self, names):
        return [self.groups[g].setdefault(n, [0, 0, 0, 0, 0]) for g, n in names.items()]

    def alloc(self, key, size, names):
        """names: the allocation's name in each grouping."""
        if key in self.live:
            old, on = self.live.pop(key)
            self.implicit += 1
            self.net -= old
            for c in self.rows(on):
                c[1] -= old
                c[4] += 1
        self.live[key] = (size, names)
        self.allocs += 1
        self.bytes += size
        self.net += size
        for c in self.rows(names):
            c[0] += size
            c[1] += size
            c[2] += 1
        self.peak = max(self.peak, self.net)

    def free(self, key):
        if key not in self.live:
            self.unknown += 1
            return
        size, names = self.live.pop(key)
        self.frees += 1
        self.net -= size
        for c in self.rows(names):
            c[1] -= size
            c[3] += 1


def ns(stamp):
    """A report timestamp "S.FFFFFFFFF" in ns (trace-cmd report -t has 9 digits)."""
    sec, frac = stamp.split(".")
    return int(sec) * 10**9 + int((frac + "000000000")[:9])


def print_bins(specs, history):
    """--bins: each kind's net after its last event before each bin's end."""
    for spec in specs:
        name, start, width, n = spec.split(":")
        start, width, n = int(start), int(width), int(n)
        hist, j, net, out = history.get(name, []), 0, 0, []
        for i in range(n):
            end = start + (i + 1) * width
            while j < len(hist) and hist[j][0] < end:
                net = hist[j][1]
                j += 1
            out.append(str(net))
        print("bins %s %s" % (name, " ".join(out)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--buffer")
    ap.add_argument("--rows", action="store_true")
    ap.add_argument("--bins", action="append", default=[])
    args = ap.parse_args()
    history = {"percpu": [], "vmalloc": []}   # (ts, net) after each event, for --bins
    prefix = args.buffer + ":" if args.buffer else None
    kinds = {"percpu": Kind(), "vmalloc": Kind()}
    count = {}
    pending = {}     # cpu -> vmap alloc waiting for the CPU's next record
    stack_of = None  # the vmap alloc whose stack lines are being read
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        if line.startswith("=>"):
            m = FRAME.match(line)
            if stack_of is not None and m:
                addr = "0x" + m.group(2).lstrip("0")
                stack_of["frames"].append((m.group(1) or addr, addr))
            continue
        if prefix:
            if not line.startswith(prefix):
                continue
            line = line[len(prefix):]
        m = LINE.match(line)
        if not m:
            continue
        cpu, ev, rest = int(m.group(3)), m.group(5), m.group(6)
        ts = ns(m.group(4))
        stack_of = None
        prev = pending.pop(cpu, None)
        if ev == "kernel_stack":
            if prev is not None:
                stack_of = prev
            continue
        f = fields(rest)
        if ev == "percpu_alloc_percpu":
            size = num(f["bytes_alloc"] if "bytes_alloc" in f else f["size"])
            count["percpu_alloc"] = count.get("percpu_alloc", 0) + 1
            count["percpu_bytes"] = count.get("percpu_bytes", 0) + size
            site = f.get("call_site", "[none]")
            kinds["percpu"].alloc(num(f["ptr"]), size, {
                "caller": site, "row": site, "function": site.split("+")[0]})
            history["percpu"].append((ts, kinds["percpu"].net))
        elif ev == "percpu_free_percpu":
            count["percpu_free"] = count.get("percpu_free", 0) + 1
            kinds["percpu"].free(num(f["ptr"]))
            history["percpu"].append((ts, kinds["percpu"].net))
        elif ev == "alloc_vmap_area":
            count["vmap_alloc"] = count.get("vmap_alloc", 0) + 1
            if num(f["failed"]):
                count["vmap_failed"] = count.get("vmap_failed", 0) + 1
                kinds["vmalloc"].failed += 1
                continue
            count["vmap_bytes"] = count.get("vmap_bytes", 0) + num(f["size"])
            rec = {"key": num(f["va_start"]), "size": num(f["size"]), "frames": [], "ts": ts}
            pending[cpu] = rec
            vm_events.append(rec)
        elif ev == "free_vmap_area_noflush":
            count["vmap_free"] = count.get("vmap_free", 0) + 1
            vm_events.append({"free": num(f["va_start"]), "ts": ts})
    # the vmalloc events in order, each allocation with the stack that followed it
    vm = kinds["vmalloc"]
    for rec in vm_events:
        if "free" in rec:
            vm.free(rec["free"])
        else:
            fn, addr = vmap_frame(rec["frames"])
            vm.alloc(rec["key"], rec["size"], {"caller": fn, "row": addr, "function": fn})
        history["vmalloc"].append((rec["ts"], vm.net))
    if count.get("percpu_alloc", 0) + count.get("percpu_free", 0):
        for k in ("percpu_alloc", "percpu_free", "percpu_bytes"):
            print("count %s %d" % (k, count.get(k, 0)))
    if count.get("vmap_alloc", 0) + count.get("vmap_free", 0):
        for k in ("vmap_alloc", "vmap_failed", "vmap_free", "vmap_bytes"):
            print("count %s %d" % (k, count.get(k, 0)))
    for name, k in kinds.items():
        if not (k.allocs or k.frees or k.unknown or k.failed):
            continue
        print("summary %s allocs=%d frees=%d unknown_frees=%d implicit_frees=%d failed=%d "
              "bytes=%d net=%d peak=%d" % (name, k.allocs, k.frees, k.unknown, k.implicit,
                                           k.failed, k.bytes, k.net, k.peak))
        for c in sorted(k.callers, key=lambda n: (-k.callers[n][0], n)):
            t, n, a, fr, _ = k.callers[c]
            print("caller %s %s total=%d net=%d allocs=%d frees=%d" % (name, c, t, n, a, fr))
    for name, k in kinds.items():
        for g in ("row", "function") if args.rows else ():
            for c in sorted(k.groups[g]):
                print("%s %s %s total=%d net=%d allocs=%d frees=%d implicit=%d"
                      % ((g, name, c) + tuple(k.groups[g][c])))
    print_bins(args.bins, history)


vm_events = []
if __name__ == "__main__":
    main()
