#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent --cross-cpu numbers from `trace-cmd report` text (tests/t-cross.sh).

usage: trace-cmd report -i T.dat | cross-from-report.py [MAP] > rows.csv

Pairs allocations and frees by pointer from the printed events alone: an allocation
at a live pointer replaces it (an implicit free, no traced free), a free of a pointer
not live or <= 0x10 counts nowhere. MAP is the CPU -> node map as --cpu-nodes takes it
("0-1=0,2-3=1"); without it, a "kma-topology:" print line gives it. Prints, per call
site with allocations, allocs,frees,cross_frees,node_allocs,cross_node,caller (sorted by
caller; cross_node empty without a map).
"""
import re
import sys

ALLOC = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
FREE = {"kfree", "kmem_cache_free"}
LINE = re.compile(r"\[(\d+)\]\s+[\d.]+: (\w+):\s+(.*)$")


def parse_map(text, marker):
    m = {}
    items = text.split(";") if marker else text.split(",")
    for it in items:
        it = it.strip()
        if not it:
            continue
        if marker:
            mm = re.fullmatch(r"cpu ([\d,-]+) node (\d+)", it)
            cpus, node = mm.group(1).split(","), int(mm.group(2))
        else:
            r, node = it.split("=")
            cpus, node = [r], int(node)
        for c in cpus:
            lo, _, hi = c.partition("-")
            for cpu in range(int(lo), int(hi or lo) + 1):
                m[cpu] = node
    return m


def ptr_of(text):
    return 0 if text == "(nil)" else int(text, 16)


def main():
    node_of = parse_map(sys.argv[1], False) if len(sys.argv) > 1 else None
    live, rows = {}, {}
    for line in sys.stdin:
        mo = LINE.search(line)
        if not mo:
            continue
        cpu, ev, rest = int(mo.group(1)), mo.group(2), mo.group(3)
        if ev == "print" and "kma-topology:" in rest and node_of is None:
            node_of = parse_map(rest.split("kma-topology:", 1)[1], True)
            continue
        f = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
        if ev in ALLOC:
            ptr = ptr_of(f["ptr"])
            if ptr == 0:
                continue        # failed: in no row
            site = f["call_site"]
            r = rows.setdefault(site, [0, 0, 0, 0, []])
            r[0] += 1
            node = int(f.get("node", "-1"))
            if node >= 0:
                r[3] += 1
                r[4].append((cpu, node))
            live[ptr] = (site, cpu)
        elif ev in FREE:
            ptr = ptr_of(f["ptr"])
            if ptr <= 0x10 or ptr not in live:
                continue
            site, acpu = live.pop(ptr)
            rows[site][1] += 1
            rows[site][2] += acpu != cpu
    print("allocs,frees,cross_frees,node_allocs,cross_node,caller")
    for site in sorted(rows):
        a, fr, x, n, reqs = rows[site]
        cn = "" if node_of is None else sum(
            1 for c, nd in reqs if c in node_of and node_of[c] != nd)
        print("%d,%d,%d,%d,%s,%s" % (a, fr, x, n, cn, site))


main()
