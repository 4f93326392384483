#!/usr/bin/env python3
"""Checks kma-analyze --advice -f csv against report.db's allocations (not against kma's
advice code). Per caller, its kmalloc sizes (bytes_req, bytes_alloc) with their
allocations and those live at the peak (trace.peak_ts). A range of request sizes served
by one dedicated cache of the largest request aligned to 8 saves, per allocation,
bytes_alloc - that size. For every caller the best partition of its sizes (by request)
into ranges that save something, the most bytes at the peak first, then over the trace,
is found by brute force over every partition (callers of up to 14 sizes), independently
of the dynamic programme kma uses. Then:
  - each row's numbers are those of the caller's sizes with a request in the row's range;
  - a caller's rows do not overlap and add up to its optimum (ties between equal optima
    may be broken either way, so the ranges themselves are not compared);
  - callers with an optimum above (0, 0) have rows, the others none;
  - rows are ranked by saved_at_peak, then saved (both descending).

    advice-from-db.py REPORT.DB ADVICE.CSV   (exit 0 and "ok", or the first mismatch)
"""
import csv
import sqlite3
import sys
from itertools import product

db = sqlite3.connect(sys.argv[1])
peak = db.execute("SELECT peak_ts FROM trace").fetchone()[0]
sizes = {}
for caller, req, alloc, ats, fts in db.execute(
        "SELECT caller, bytes_req, bytes_alloc, alloc_ts, free_ts FROM allocations "
        "WHERE alloc_event IN ('kmalloc', 'kmalloc_node') AND bytes_req < 8388608 "
        "AND bytes_alloc < 8388608"):
    s = sizes.setdefault(caller, {}).setdefault((req, alloc), [0, 0])
    s[0] += 1
    s[1] += ats <= peak and (fts is None or fts > peak)


def gain(rng):
    obj = (rng[-1][0][0] + 7) // 8 * 8
    return (sum((a - obj) * n[1] for (r, a), n in rng),
            sum((a - obj) * n[0] for (r, a), n in rng))


want = {}
for caller, sz in sizes.items():
    items = sorted(sz.items())
    if len(items) > 14:
        sys.exit("%s: %d sizes, too many to brute-force" % (caller, len(items)))
    best = (0, 0)
    # each gap between neighbours cuts or not; each resulting block is a range or stays
    for cuts in product((0, 1), repeat=len(items) - 1):
        blocks, cur = [], [items[0]]
        for it, cut in zip(items[1:], cuts):
            if cut:
                blocks.append(cur)
                cur = []
            cur.append(it)
        blocks.append(cur)
        gains = [g for g in map(gain, blocks) if g > (0, 0)]
        tot = (sum(g[0] for g in gains), sum(g[1] for g in gains))
        best = max(best, tot)
    if best > (0, 0):
        want[caller] = best

got = list(csv.DictReader(open(sys.argv[2])))
per = {}
order = []
for r in got:
    c = r["caller"]
    lo, hi = int(r["req_min"]), int(r["req_max"])
    items = sorted(it for it in sizes.get(c, {}).items() if lo <= it[0][0] <= hi)
    if not items:
        sys.exit("%s %d-%d: no such sizes" % (c, lo, hi))
    g = gain(items)
    exp = {"dedicated": (hi + 7) // 8 * 8, "allocs": sum(n[0] for _, n in items),
           "live_at_peak": sum(n[1] for _, n in items), "saved_at_peak": g[0], "saved": g[1],
           "sizes": len(items)}
    for k, v in exp.items():
        if int(r[k]) != v:
            sys.exit("%s %d-%d: %s %s, want %d" % (c, lo, hi, k, r[k], v))
    for plo, phi in per.get(c, []):
        if lo <= phi and plo <= hi:
            sys.exit("%s: ranges %d-%d and %d-%d overlap" % (c, plo, phi, lo, hi))
    per.setdefault(c, []).append((lo, hi))
    want_sum = want.get(c)
    order.append((g[0], g[1]))
sums = {}
for r in got:
    s_ = sums.setdefault(r["caller"], [0, 0])
    s_[0] += int(r["saved_at_peak"])
    s_[1] += int(r["saved"])
for c, best in want.items():
    if tuple(sums.get(c, (0, 0))) != best:
        sys.exit("%s: rows save %s, the best partition %s" % (c, sums.get(c), best))
for c in sums:
    if c not in want:
        sys.exit("%s: rows, but no range saves anything" % c)
if order != sorted(order, reverse=True):
    sys.exit("rows not ranked by saved_at_peak, then saved")
print("ok %d rows, %d callers" % (len(got), len(want)))
