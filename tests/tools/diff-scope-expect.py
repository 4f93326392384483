#!/usr/bin/env python3
"""Independent expectation for kma-diff's filters and generations, from
trace-cmd's own text output only (`trace-cmd report -i FILE`; never kma):

  diff-scope-expect.py [-g caller|function] [--comm GLOB] [--pid N[,N...]]
                       [--caller ERE] [--generation G | --base-generation G
                       --new-generation G]
                       BASE.dat NEW.dat

prints what `kma-diff -f csv` must print with the same options, rows sorted by
key (LC_ALL=C), without the header, then one line
"SUMMARY,base_total,new_total,delta_total,...,delta_frees": the sums of the
kept allocations (frees: the traced frees of those allocations).

Rules: an allocation (kmalloc, kmalloc_node, kmem_cache_alloc[_node], ptr not
0) is kept when its task's comm matches one --comm glob, its pid one --pid,
its call site (sym+0xoff as trace-cmd prints it) one --caller ERE, and it was
made in the generation asked (generation 0 runs to the first "kma:" marker,
each marker starts the next; a label names the first marker with it). Its
bytes count in total, bytes_alloc - bytes_req (at least 0) in slack; it is
net while no free of its pointer followed (a new allocation at its pointer
closes it, as no free); a free of its pointer is one of its frees.
"""
import argparse
import fnmatch
import functools
import re
import subprocess
import sys

ALLOC = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
FREE = {"kfree", "kmem_cache_free"}
EVENT_RE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+(\w+):\s*(.*)$")
METRICS = ("total", "slack", "net", "allocs", "frees")


def ptr_of(s):
    return 0 if s in ("(nil)", "0") else int(s, 16)


@functools.lru_cache(maxsize=None)
def report(trace):
    """One trace-cmd report per file, when BASE and NEW are one."""
    return subprocess.run(["trace-cmd", "report", "-i", trace], check=True,
                          capture_output=True, text=True).stdout


def side(trace, a, gen):
    text = report(trace)
    labels = ["start"]
    live, rows = {}, {}
    for line in text.splitlines():
        m = EVENT_RE.match(line)
        if not m:
            continue
        comm, pid, event, rest = m.group(1).strip(), int(m.group(2)), m.group(5), m.group(6)
        if event == "print":
            buf = rest.split("tracing_mark_write:", 1)[-1].strip()
            if buf.startswith("kma:"):
                labels.append(buf[4:].strip())
            continue
        if event not in ALLOC and event not in FREE:
            continue
        f = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
        ptr = ptr_of(f["ptr"])
        if event in FREE:
            hit = live.pop(ptr, None)
            if hit is not None:
                hit[0]["frees"] += 1
            continue
        if not ptr:
            continue
        live.pop(ptr, None)     # closed by this allocation: no free, no longer net
        site = f["call_site"]
        if gen is not None and len(labels) - 1 != gen_number(gen, labels):
            continue
        if a.comm and not any(fnmatch.fnmatchcase(comm, p) for p in a.comm):
            continue
        if a.pid and pid not in a.pid:
            continue
        if a.caller and not any(re.search(p, site) for p in a.caller):
            continue
        key = site.split("+", 1)[0] if a.group == "function" else site
        r = rows.setdefault(key, dict.fromkeys(METRICS, 0))
        req, alloc = int(f["bytes_req"]), int(f["bytes_alloc"])
        r["total"] += alloc
        r["slack"] += max(alloc - req, 0)
        r["allocs"] += 1
        live[ptr] = (r, alloc)
    for r, alloc in live.values():
        r["net"] += alloc
    return rows


def gen_number(gen, labels):
    """A number, or the first marker with that label (labels so far: its
    generation has begun when an allocation in it is seen)."""
    if gen.isdigit():
        return int(gen)
    return labels.index(gen, 1) if gen in labels[1:] else -1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-g", dest="group", default="caller", choices=("caller", "function"))
    p.add_argument("--comm", action="append")
    p.add_argument("--pid", type=lambda s: [int(x) for x in s.split(",")])
    p.add_argument("--caller", action="append")
    p.add_argument("--base-generation")
    p.add_argument("--new-generation")
    p.add_argument("--generation")
    p.add_argument("base")
    p.add_argument("new")
    a = p.parse_args()
    sides = []
    if a.generation:
        a.base_generation = a.new_generation = a.generation
    for trace, gen in ((a.base, a.base_generation), (a.new, a.new_generation)):
        sides.append(side(trace, a, gen))
    print_rows(sides)


def print_rows(sides):
    keys = sorted(set(sides[0]) | set(sides[1]), key=lambda k: k.encode())
    tot = [dict.fromkeys(METRICS, 0), dict.fromkeys(METRICS, 0)]
    for k in keys:
        cells = [k]
        for m in METRICS:
            v = [s[k][m] if k in s else None for s in sides]
            cells += ["" if x is None else str(x) for x in v]
            cells.append(str((v[1] or 0) - (v[0] or 0)))
        print(",".join(cells))
        for i in (0, 1):
            if k in sides[i]:
                for m in METRICS:
                    tot[i][m] += sides[i][k][m]
    cells = ["SUMMARY"]
    for m in METRICS:
        cells += [str(tot[0][m]), str(tot[1][m]), str(tot[1][m] - tot[0][m])]
    print(",".join(cells))


if __name__ == "__main__":
    sys.exit(main())
