#!/usr/bin/env python3
# pages-leaks-from-db.py DB GROUP CSV: the numbers of kma-analyze --pages --leaks -g GROUP
# (GROUP comm or order), worked out again from a --pages report.db's page_allocations view,
# generations and trace tables, against the tool's -f csv output in CSV: per row with pages
# live at the end, the live pages and allocations, the min/median/max age at the trace's
# last timestamp (median of an even count: the lower middle plus half the gap, rounded
# down), the generations at whose end its live pages were higher than at the previous end
# and the longest run of them. Rows by live pages, then by key. Prints what differs; exit 1.
import csv, sqlite3, sys

db, group, kcsv = sys.argv[1:4]
con = sqlite3.connect(db)
last_ts = con.execute('SELECT last_ts FROM trace').fetchone()[0]
marks = [ts for (ts,) in con.execute('SELECT ts FROM generations ORDER BY id')][1:]
col = {'comm': 'comm', 'order': 'page_order'}[group]
rows = {}
for key, ats, fts, pages, gen in con.execute(
        'SELECT %s, alloc_ts, free_ts, pages, generation FROM page_allocations' % col):
    rows.setdefault(str(key), []).append((ats, fts, pages, gen))
ngens = len(marks) + 1
want = []
for key, allocs in rows.items():
    live = [a for a in allocs if a[1] is None]
    if not live:
        continue
    grew = run = best = prev = 0
    for k in range(ngens):
        end = marks[k] if k < len(marks) else None
        held = sum(p for (ats, fts, p, g) in allocs if g <= k and
                   (fts is None or (end is not None and fts > end)))
        if held > prev:
            grew += 1
            run += 1
            best = max(best, run)
        else:
            run = 0
        prev = held
    ages = sorted(last_ts - a[0] for a in live)
    n = len(ages)
    med = ages[n // 2] if n % 2 else ages[n // 2 - 1] + (ages[n // 2] - ages[n // 2 - 1]) // 2
    want.append([sum(a[2] for a in live), len(live), ages[0], med, ages[-1], grew, best, key])
want.sort(key=lambda r: (-r[0], int(r[7]) if group == 'order' else r[7].encode()))
got = []
for r in csv.DictReader(open(kcsv)):
    got.append([int(r['live_pages']), int(r['live']), int(r['age_min_ns']),
                int(r['age_med_ns']), int(r['age_max_ns']), int(r['grew']), int(r['run']),
                r[group]])
bad = []
if len(got) != len(want):
    bad.append('%d rows, want %d' % (len(got), len(want)))
for g, w in zip(got, want):
    if g != w:
        bad.append('got %s, want %s' % (g, w))
print('\n'.join(bad[:20]))
sys.exit(1 if bad else 0)
