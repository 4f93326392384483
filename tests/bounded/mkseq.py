#!/usr/bin/env python3
"""mkseq.py N SEED OUT.seq EXPECT.json - a mktrace description for t-bounded.sh
and, worked out here from the same events, what kma must print of them.

N allocations by 12 call sites (alloc_0 .. alloc_11): alloc_10 makes 100 and
alloc_11 makes 300 with 44 never freed (256 traced frees: the most a row may
have and stay exact); the rest go to alloc_0 .. alloc_9, one in 12 never freed.
Allocation times are drawn from a range with repeats (equal times at other
pointers: the --list order's tie on the pointer); lifetimes are log-uniform
from 1 ns to 5 s, so the buckets of every decade are used. Every pointer is
used once, so an allocation's free is the one free of its pointer.

EXPECT holds, per caller: the traced frees' count, min, nearest-rank median
and p99, max; the list rows (time, ptr) sorted by (time, ptr); the live ones.
"""
import json
import random
import sys

n, seed, out, expect = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rnd = random.Random(seed)
SITES = 12
span = n * 50				# ~50 ns apart on average: times repeat
allocs = []				# (ts, ptr, site, life or None)
counts = [100, 300]
rest = n - sum(counts)
plan = [10] * 100 + [11] * 300 + [k % 10 for k in range(rest)]
rnd.shuffle(plan)
kept_11 = 0
for i, site in enumerate(plan):
    ts = 1_000_000 + rnd.randrange(span)
    ptr = 0xffff888100000000 + i * 64
    if site == 11:
        life = None if kept_11 < 44 else int(10 ** rnd.uniform(0, 9.7))
        kept_11 += 1
    elif site < 10 and rnd.randrange(12) == 0:
        life = None
    else:
        life = max(1, int(10 ** rnd.uniform(0, 9.7)))
    allocs.append((ts, ptr, site, life))

events = []				# (ts, order, text)
for k, (ts, ptr, site, life) in enumerate(allocs):
    if site % 3 == 0:
        ev = "kmem_cache_alloc call_site=alloc_%d+0x10 ptr=%#x bytes_req=192 bytes_alloc=192 name=filp" % (site, ptr)
        fr = "kmem_cache_free call_site=free_x+0x8 ptr=%#x name=filp" % ptr
    else:
        req = 8 + (k * 37) % 500
        ev = "kmalloc call_site=alloc_%d+0x10 ptr=%#x bytes_req=%d bytes_alloc=%d" % (
            site, ptr, req, 1 << (req - 1).bit_length())
        fr = "kfree call_site=free_x+0x8 ptr=%#x" % ptr
    events.append((ts, 0, k, ev))
    if life is not None:
        events.append((ts + life, 1, k, fr))
events.sort()
with open(out, "w") as f:
    f.write("cpus 1\nkallsyms ffffffff81000000 T _stext\n")
    for s in range(SITES):
        f.write("kallsyms %x t alloc_%d\n" % (0xffffffff81100000 + s * 0x100, s))
    f.write("kallsyms ffffffff81300000 t free_x\nkallsyms ffffffff81400000 T _etext\n")
    f.write("cmdline 100 bash\n")
    for ts, _, _, text in events:
        f.write("event 0 %d 100 %s\n" % (ts, text))

def pct(v, p):
    rank = (len(v) * p + 99) // 100
    return v[max(rank, 1) - 1]

rows = {}
for ts, ptr, site, life in allocs:
    if life is not None:
        rows.setdefault("alloc_%d+0x10" % site, []).append(life)
lifetimes = {c: {"frees": len(v), "min": min(v), "median": pct(sorted(v), 50),
                 "p99": pct(sorted(v), 99), "max": max(v)} for c, v in rows.items()}
json.dump({"lifetimes": lifetimes,
           "list": sorted([ts, ptr] for ts, ptr, _, _ in allocs),
           "live": sorted([ts, ptr] for ts, ptr, _, life in allocs if life is None),
           "allocs": len(allocs)}, open(expect, "w"))
