#!/usr/bin/env python3
# The timeline tables of a report.db against the same series computed here,
# independently, from the allocations view: each allocation counts in the bin of its
# alloc_ts, its free in the bin of its free_ts, and is live at the end of a bin when made
# before the bin's end and not freed before it. Prints the first difference; exit 1 on any.
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
bins = db.execute("SELECT bin, ts, width_ns, allocs, alloc_bytes, frees, free_bytes,"
                  " live_bytes FROM timeline ORDER BY bin").fetchall()
rows = db.execute("SELECT alloc_ts, free_ts, bytes_alloc, caller_id FROM allocations").fetchall()
err = []
if not rows:
    if bins and any(b[3] for b in bins):
        err.append("allocations in the timeline of a trace without any")
else:
    if not bins:
        sys.exit("no timeline rows")
    n, start, width = len(bins), bins[0][1], bins[0][2]
    if n > 2048:
        err.append("%d bins" % n)
    w = width // 1000
    if width % 1000 or w & (w - 1):
        err.append("width %d is not 1 us times a power of two" % width)
    if min(r[0] for r in rows) < start:
        err.append("an allocation before the first bin")
    mine = [[0, 0, 0, 0] for _ in range(n)]
    delta = [0] * (n + 1)
    per = {}
    for a, f, nb, cid in rows:
        i = (a - start) // width
        mine[i][0] += 1
        mine[i][1] += nb
        d = per.setdefault(cid, [0] * (n + 1))
        delta[i] += nb
        d[i] += nb
        if f is not None:
            j = (f - start) // width
            if j >= n:
                err.append("a free after the last bin")
                continue
            mine[j][2] += 1
            mine[j][3] += nb
            delta[j] -= nb
            d[j] -= nb
    live = 0
    for b in bins:
        i = b[0]
        live += delta[i]
        want = (i, start + i * width, width, *mine[i], live)
        if tuple(b) != want:
            err.append("bin %d: stored %s, computed %s" % (i, b, want))
            break
    # the top callers: by net, then total, then id; their running sums, then the rest
    top = [r[0] for r in db.execute("SELECT id FROM callers WHERE total > 0"
                                     " ORDER BY net DESC, total DESC, id LIMIT 8")]
    stored = {}
    for bn, rank, cid, v in db.execute("SELECT bin, rank, caller_id, live_bytes"
                                       " FROM timeline_callers"):
        stored[(bn, rank)] = (cid, v)
    if len(stored) != n * (len(top) + 1):
        err.append("%d timeline_callers rows for %d bins and %d top callers" %
                   (len(stored), n, len(top)))
    sums = [0] * len(top)
    live = 0
    for i in range(n):
        live += delta[i]
        rest = live
        for k, cid in enumerate(top):
            sums[k] += per[cid][i]
            rest -= sums[k]
            if stored.get((i, k)) != (cid, sums[k]):
                err.append("bin %d rank %d: stored %s, computed %s" %
                           (i, k, stored.get((i, k)), (cid, sums[k])))
                break
        if stored.get((i, len(top))) != (None, rest):
            err.append("bin %d other: stored %s, computed %s" %
                       (i, stored.get((i, len(top))), rest))
        if err:
            break
for e in err[:5]:
    print(e)
sys.exit(1 if err else 0)
