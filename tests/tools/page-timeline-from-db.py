#!/usr/bin/env python3
# report.db's page_timeline, page_timeline_tasks and page_timeline_functions
# against the same series computed here, independently, from the page_allocations view
# (functions: only when some allocation has a stack; '[no stack]' for those without one,
# and an empty table without stacks): the bin width is the
# smallest 1 us * 2^k that fits [first page event, trace.last_ts] in 2048 bins; each
# allocation counts its pages in the bin of its alloc_ts, its free in the bin of its
# free_ts; the top tasks are the comms with the most live pages at the end (then pages
# allocated, then first allocation); a bin's live_max where events share a timestamp only
# within what either order of them gives. Usage: page-timeline-from-db.py DB [FIRST_PAGE_TS]
# (FIRST_PAGE_TS from `trace-cmd report`; without it, bin 0 may start at any ts at or
# before the first allocation). Prints the first differences; exit 1 on any.
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
bins = db.execute("SELECT bin, ts, width_ns, allocs, alloc_pages, frees, free_pages,"
                  " live_pages, live_max, live_bytes FROM page_timeline ORDER BY bin").fetchall()
rows = db.execute("SELECT alloc_ts, free_ts, pages, comm, id, COALESCE(function, '[no stack]'),"
                  " stack IS NOT NULL FROM page_allocations").fetchall()
page_size = db.execute("SELECT page_size FROM page_trace").fetchone()
last_ts = db.execute("SELECT last_ts FROM trace").fetchone()[0]
err = []
if not bins:
    if rows:
        err.append("no page_timeline rows for %d page allocations" % len(rows))
else:
    page_size = page_size[0]
    start = int(sys.argv[2]) if len(sys.argv) > 2 else bins[0][1]
    if rows and min(r[0] for r in rows) < start:
        err.append("an allocation before the first bin")
    width = 1000
    while (last_ts - start) // width >= 2048:
        width *= 2
    n = (last_ts - start) // width + 1
    if (len(bins), bins[0][1], bins[0][2]) != (n, start, width):
        err.append("stored %d bins from %d of %d ns, computed %d from %d of %d" %
                   (len(bins), bins[0][1], bins[0][2], n, start, width))
    mine = [[0, 0, 0, 0] for _ in range(n)]
    delta = [0] * n
    # events in time order (a free before an allocation at the same ts) for live_max
    evs = []
    for a, f, pages, comm, rid, fn, stacked in rows:
        i = (a - start) // width
        mine[i][0] += 1
        mine[i][1] += pages
        delta[i] += pages
        evs.append((a, 1, pages))
        if f is not None:
            j = (f - start) // width
            mine[j][2] += 1
            mine[j][3] += pages
            delta[j] -= pages
            evs.append((f, 0, -pages))
    # highest live pages within each bin: at its start, and after each event in it. Events
    # at one ts (two CPUs) may be in either order in the trace: the highest is computed
    # with frees first (lo) and with allocations first (hi); without such ties lo == hi.
    def highest(order):
        hi, live, k = [0] * n, 0, 0
        e = sorted(evs, key=lambda x: (x[0], x[1] if order else -x[1]))
        for i in range(n):
            hi[i] = live
            end = start + (i + 1) * width
            while k < len(e) and e[k][0] < end:
                live += e[k][2]
                hi[i] = max(hi[i], live)
                k += 1
        return hi
    lo_max, hi_max = highest(1), highest(0)
    live = 0
    for b in bins[:n]:
        i = b[0]
        live += delta[i]
        got_max = b[8]
        if lo_max[i] <= got_max <= hi_max[i]:
            got_max = lo_max[i]
        want = (i, start + i * width, width, *mine[i], live, lo_max[i], live * page_size)
        if (*b[:8], got_max, b[9]) != want:
            err.append("bin %d: stored %s, computed %s" % (i, b, want))
            break
    # the top series and the others, at the end of each bin: by task, and by function
    def series(table, col, key):
        per, first, total = {}, {}, {}
        for r in rows:
            a, f, pages, rid, k = r[0], r[1], r[2], r[4], key(r)
            d = per.setdefault(k, [0] * n)
            d[(a - start) // width] += pages
            if f is not None:
                d[(f - start) // width] -= pages
            first[k] = min(first.get(k, (a, rid)), (a, rid))
            total[k] = total.get(k, 0) + pages
        end_live = {c: sum(v) for c, v in per.items()}
        top = sorted(per, key=lambda c: (-end_live[c], -total[c], first[c]))[:8]
        stored = {}
        for bn, rank, name, v in db.execute("SELECT bin, rank, %s, live_pages FROM %s"
                                            % (col, table)):
            stored[(bn, rank)] = (name, v)
        if len(stored) != n * (len(top) + 1):
            err.append("%d %s rows for %d bins and %d top series" %
                       (len(stored), table, n, len(top)))
        sums = [0] * len(top)
        live = 0
        for i in range(n):
            live += delta[i]
            rest = live
            for r, name in enumerate(top):
                sums[r] += per[name][i]
                rest -= sums[r]
                if stored.get((i, r)) != (name, sums[r]):
                    err.append("%s bin %d rank %d: stored %s, computed %s" %
                               (table, i, r, stored.get((i, r)), (name, sums[r])))
                    break
            if stored.get((i, len(top))) != ("[other]", rest):
                err.append("%s bin %d other: stored %s, computed %s" %
                           (table, i, stored.get((i, len(top))), rest))
            if err:
                break
    series("page_timeline_tasks", "comm", lambda r: r[3])
    if any(r[6] for r in rows):
        series("page_timeline_functions", "function", lambda r: r[5])
    elif db.execute("SELECT COUNT(*) FROM page_timeline_functions").fetchone()[0]:
        err.append("page_timeline_functions rows for a trace without stacks")
for e in err[:5]:
    print(e)
sys.exit(1 if err else 0)
