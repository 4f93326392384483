#!/usr/bin/env python3
"""Independent per-stack accounting of a trace.dat recorded with kernel
stacks (kma-record --stacks, trace-cmd record -T), computed ONLY from
`trace-cmd report FILE` text.  It never imports or runs kma.

usage: stacks-from-report.py [--report TEXT] TRACE.dat [--weight W]... [--csv] [--summary]
       stacks-from-report.py [--report TEXT] TRACE.dat --outdir DIR

  --weight bytes|net|slack|allocs   folded lines "FOLDED WEIGHT" (lines with
                                    weight 0 left out, sorted by the folded
                                    string in strcmp order); repeatable: the
                                    blocks are printed in the order asked
  --csv       one row per folded stack, sorted by stack:
              stack,total,slack,net,allocs,frees,implicit_frees
  --summary   key=value lines: total slack net allocs frees unknown_frees
              null_frees implicit_frees failed_allocs stacked nostack_allocs
              nostack_total kmem_events with_stack (kmem events, allocations
              or frees, whose trimmed stack is not empty) stacks (kernel_stack
              records paired) ignored_stacks frames
  --outdir DIR   write all of them at once (one parse): DIR/folded-W.txt for
              each weight, DIR/stacks.csv and DIR/summary.txt
  --report TEXT   read this saved `trace-cmd report` output instead of
              running trace-cmd (TRACE.dat is then not opened)

The rules are those of kma's call stacks (STACKS-SPEC):
- A kmem event gets the kernel_stack record that comes next ON THE SAME CPU,
  if there is one and no "[EVENTS DROPPED]" mark of that CPU lies between
  them (the stack would be the first record of a page that lost events).
  Anything else next on that CPU: no stack.  A kernel_stack that does not
  directly follow a kmem event on its CPU is ignored.
- trace-cmd prints the frames innermost first as "=> func (addr)", or
  "=> addr" when no symbol covers addr (named "0x<addr>" here).  It stops at
  an all-ones entry itself; a 0 entry ends the stack here.
- The innermost frames up to and including the innermost one named
  trace_event_raw_event_*, ftrace_raw_event_* or perf_trace_* are dropped.
  Nothing left: no stack.  The folded string is the names outermost first
  joined by ';'; allocations without a stack are counted as "[no stack]".
- Allocations and frees pair by ptr in report order: an allocation at a live
  ptr frees the old one implicitly; ptr 0 is a failed allocation (in no
  total); a free of ptr <= 0x10 is a null free; of a ptr not live, an
  unknown free.  net = bytes_alloc of the allocations still live at the end.
"""
import re
import subprocess
import sys

ALLOC_EVENTS = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
FREE_EVENTS = {"kfree", "kmem_cache_free"}
TRACING_PREFIXES = ("trace_event_raw_event_", "ftrace_raw_event_", "perf_trace_")
ZERO_SIZE_PTR = 0x10
NO_STACK = "[no stack]"
WEIGHTS = {"bytes": "total", "net": "net", "slack": "slack", "allocs": "allocs"}
COLUMNS = ("total", "slack", "net", "allocs", "frees", "implicit_frees")

# "   comm-pid  [001]   531.605470: kmalloc:    (site) call_site=... ptr=..."
# The comm may contain spaces, so anchor on "[CPU] TIMESTAMP: EVENT:".
EVENT_RE = re.compile(r"\[(\d+)\]\s+(\d+\.\d+):\s+(\w+):\s*(.*)$")
DROPPED_RE = re.compile(r"^CPU:(\d+) \[(?:\d+ )?EVENTS DROPPED\]")
FRAME_RE = re.compile(r"^=> (?:(\S+) \(([0-9a-f]+)\)|([0-9a-f]+))\s*$")


def parse_ptr(s):
    if s in ("(nil)", "0"):
        return 0
    return int(s, 16) if s.lower().startswith("0x") else int(s)


class Event:
    __slots__ = ("name", "fields", "frames", "has_stack_record")

    def __init__(self, name, fields):
        self.name, self.fields = name, fields
        self.frames = None          # [(function, address)] innermost first
        self.has_stack_record = False


def read_events(lines):
    """kmem events in report order, each with the frames of its stack."""
    events = []
    pending = {}        # cpu -> kmem event whose next record on that CPU is still to come
    frames = None       # frame list being filled (the last kernel_stack's), or None
    stats = {"stacks": 0, "ignored_stacks": 0, "frames": 0}
    for line in lines:
        if line.startswith("=>"):
            if frames is None:
                continue
            m = FRAME_RE.match(line)
            if not m:
                raise SystemExit("stacks-from-report: cannot parse frame line: %r" % line)
            addr = int(m.group(2) or m.group(3), 16)
            if addr == 0:           # end of the stack (trace-cmd prints it; kma stops)
                frames = None
                continue
            name = m.group(1) if m.group(1) else "0x%x" % addr
            frames.append((name, addr))
            stats["frames"] += 1
            continue
        frames = None
        m = DROPPED_RE.match(line.strip())
        if m:
            # the next record of this CPU starts a page that lost events
            pending.pop(int(m.group(1)), None)
            continue
        m = EVENT_RE.search(line)
        if not m:
            continue
        cpu, name = int(m.group(1)), m.group(3)
        ev = pending.pop(cpu, None)
        if name == "kernel_stack":
            if ev is None:
                stats["ignored_stacks"] += 1
                continue
            stats["stacks"] += 1
            ev.has_stack_record = True
            ev.frames = frames = []
            continue
        if name in ALLOC_EVENTS or name in FREE_EVENTS:
            f = {}
            for kv in m.group(4).split():
                if "=" in kv:   # the first of each key: a plugin may append more
                    k, v = kv.split("=", 1)
                    f.setdefault(k, v)
            ev = Event(name, f)
            events.append(ev)
            pending[cpu] = ev
    return events, stats


def folded(frames):
    """The folded string of a stack, or NO_STACK."""
    if not frames:
        return NO_STACK
    cut = 0
    for i, (name, _addr) in enumerate(frames):
        if name.startswith(TRACING_PREFIXES):
            cut = i + 1
            break
    kept = frames[cut:]
    if not kept:
        return NO_STACK
    return ";".join(name for name, _addr in reversed(kept))


def account(events):
    stacks = {}     # folded -> dict of COLUMNS
    live = {}       # ptr -> (folded, bytes_alloc)
    s = dict.fromkeys(("total", "slack", "net", "allocs", "frees", "unknown_frees",
                       "null_frees", "implicit_frees", "failed_allocs", "stacked",
                       "nostack_allocs", "nostack_total", "kmem_events",
                       "with_stack"), 0)
    for ev in events:
        s["kmem_events"] += 1
        if folded(ev.frames) != NO_STACK:
            s["with_stack"] += 1
        ptr = parse_ptr(ev.fields["ptr"])
        if ev.name in ALLOC_EVENTS:
            if ptr == 0:
                s["failed_allocs"] += 1
                continue
            if ptr in live:
                old, _ = live.pop(ptr)
                stacks[old]["implicit_frees"] += 1
                s["implicit_frees"] += 1
            key = folded(ev.frames)
            req, alloc = int(ev.fields["bytes_req"]), int(ev.fields["bytes_alloc"])
            row = stacks.setdefault(key, dict.fromkeys(COLUMNS, 0))
            row["total"] += alloc
            row["slack"] += alloc - req
            row["allocs"] += 1
            s["total"] += alloc
            s["slack"] += alloc - req
            s["allocs"] += 1
            if key == NO_STACK:
                s["nostack_allocs"] += 1
                s["nostack_total"] += alloc
            else:
                s["stacked"] += 1
            live[ptr] = (key, alloc)
        else:
            s["frees"] += 1
            if ptr <= ZERO_SIZE_PTR:
                s["null_frees"] += 1
            elif ptr in live:
                key, _ = live.pop(ptr)
                stacks[key]["frees"] += 1
            else:
                s["unknown_frees"] += 1
    for key, alloc in live.values():
        stacks[key]["net"] += alloc
        s["net"] += alloc
    return stacks, s


def by_folded(stacks):
    return sorted(stacks, key=lambda k: k.encode())


def main(argv):
    weights, csv, summary, report, trace, outdir = [], False, False, None, None, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--weight" and i + 1 < len(argv) and argv[i + 1] in WEIGHTS:
            weights.append(argv[i + 1])
            i += 1
        elif a == "--csv":
            csv = True
        elif a == "--summary":
            summary = True
        elif a == "--outdir" and i + 1 < len(argv):
            outdir = argv[i + 1]
            i += 1
        elif a == "--report" and i + 1 < len(argv):
            report = argv[i + 1]
            i += 1
        elif not a.startswith("-") and trace is None:
            trace = a
        else:
            sys.exit(__doc__)
        i += 1
    if trace is None and report is None:
        sys.exit(__doc__)
    if report is not None:
        with open(report) as fp:
            text = fp.read()
    else:
        text = subprocess.run(["trace-cmd", "report", trace], check=True,
                              capture_output=True, text=True).stdout
    events, stats = read_events(text.splitlines())
    stacks, s = account(events)
    s.update(stats)
    if outdir is not None:
        for w in WEIGHTS:
            write(outdir + "/folded-%s.txt" % w, folded_lines(stacks, w))
        write(outdir + "/stacks.csv", csv_lines(stacks))
        write(outdir + "/summary.txt", ["%s=%d" % kv for kv in s.items()])
        return
    out = []
    for w in weights:
        out += folded_lines(stacks, w)
    if csv:
        out += csv_lines(stacks)
    if summary:
        out += ["%s=%d" % kv for kv in s.items()]
    sys.stdout.write("".join(line + "\n" for line in out))


def folded_lines(stacks, weight):
    col = WEIGHTS[weight]
    return ["%s %d" % (k, stacks[k][col]) for k in by_folded(stacks) if stacks[k][col]]


def csv_lines(stacks):
    return (["stack," + ",".join(COLUMNS)] +
            [k + "," + ",".join(str(stacks[k][c]) for c in COLUMNS) for k in by_folded(stacks)])


def write(path, lines):
    with open(path, "w") as fp:
        fp.write("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    main(sys.argv[1:])
