#!/usr/bin/env python3
"""Check report.db's alloc_rows row by row against `trace-cmd report -t` alone.

usage: trace-cmd report -t -i TRACE.dat | alloc-rows-check.py REPORT.db

The expectation pairs each allocation with the next free of its pointer, in the
report's order: a kfree or kmem_cache_free ends it (free kind 0 or 1, life =
free ts - alloc ts, the free's CPU), another allocation at the same pointer
ends it implicitly (kind 2), else it is live (NULLs). Failed allocations and
frees of (nil) make no row. Compared as multisets of (ptr as signed 64 bits,
alloc ts, alloc CPU, life, free CPU, free kind); the ids must be 1..N. Exits 1
and prints the first differences on a mismatch.
"""
import re, sys, sqlite3
EV = re.compile(r"\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node|kfree|kmem_cache_free):.*\bptr=(\S+)")
def s64(x):
    return x - (1 << 64) if x >= 1 << 63 else x
live = {}
rows = []
for line in sys.stdin:
    m = EV.search(line)
    if not m:
        continue
    cpu, ts = int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3))
    name, ptr = m.group(4), m.group(5)
    if ptr == "(nil)":
        continue
    p = int(ptr, 16)
    if name.startswith("k") and name in ("kfree", "kmem_cache_free"):
        a = live.pop(p, None)
        if a is not None:
            rows.append((s64(p), a[0], a[1], ts - a[0], cpu, 0 if name == "kfree" else 1))
        continue
    a = live.pop(p, None)
    if a is not None:
        rows.append((s64(p), a[0], a[1], None, None, 2))
    live[p] = (ts, cpu)
for p, a in live.items():
    rows.append((s64(p), a[0], a[1], None, None, None))
db = sqlite3.connect(sys.argv[1])
got = []
ids = []
for r in db.execute("SELECT id, ptr, alloc_ts, alloc_cpu, life, COALESCE(free_cpu, alloc_cpu),"
                    " free_kind FROM alloc_rows ORDER BY id"):
    ids.append(r[0])
    life, fcpu = r[4], r[5]
    if r[6] is None or r[6] == 2:
        life, fcpu = None, None
    got.append((r[1], r[2], r[3], life, fcpu, r[6]))
bad = 0
if ids != list(range(1, len(ids) + 1)):
    print("ids are not 1..%d" % len(ids)); bad = 1
if sorted(got, key=repr) != sorted(rows, key=repr):
    g, w = set(got), set(rows)
    print("rows: %d, want %d; extra %s; missing %s" % (len(got), len(rows), sorted(g - w, key=repr)[:3], sorted(w - g, key=repr)[:3]))
    bad = 1
print("rows %d" % len(got))
sys.exit(bad)
