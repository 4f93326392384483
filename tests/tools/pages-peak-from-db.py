#!/usr/bin/env python3
# pages-peak-from-db.py DB GROUP JSON: kma-analyze --pages --peak -g GROUP -f json (in JSON)
# worked out again from a --pages report.db's page_allocations view: live pages over time
# (at one timestamp a free before an allocation, as an implicit free closes the old
# allocation first), the first time the most pages were live, and the pages each GROUP
# (comm or order) held then: allocated at or before it and not freed by then. Rows by
# pages, then key. Prints what differs; exit 1 then.
import json, sqlite3, sys

db, group, kjson = sys.argv[1:4]
con = sqlite3.connect(db)
col = {'comm': 'comm', 'order': 'page_order'}[group]
allocs = list(con.execute('SELECT %s, alloc_ts, free_ts, pages FROM page_allocations' % col))
ev = [(a[1], 1, a[3]) for a in allocs] + [(a[2], 0, -a[3]) for a in allocs if a[2] is not None]
ev.sort(key=lambda e: (e[0], e[1]))
live = peak = peak_ts = 0
for ts, is_alloc, d in ev:
    live += d
    if live > peak:
        peak, peak_ts = live, ts
held = {}
for key, ats, fts, pages in allocs:
    if ats <= peak_ts and (fts is None or fts > peak_ts):
        held[str(key)] = held.get(str(key), 0) + pages
want = sorted(([p, k] for k, p in held.items()),
              key=lambda r: (-r[0], int(r[1]) if group == 'order' else r[1].encode()))
doc = json.load(open(kjson))
got = [[r['pages'], str(r[group])] for r in doc['rows']]
bad = []
if (doc['peak_pages'], doc['peak_ts']) != (peak, peak_ts):
    bad.append('peak %s at %s, want %s at %s' % (doc['peak_pages'], doc['peak_ts'], peak, peak_ts))
if got != want:
    bad.append('rows: got %s, want %s' % (got[:10], want[:10]))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
