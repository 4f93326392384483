#!/usr/bin/env python3
# pages-lifetimes-from-db.py DB GROUP JSON: kma-analyze --pages --lifetimes -g GROUP -f json
# (in JSON) worked out again from a --pages report.db's page_allocations view: per GROUP
# (comm or order) the lifetimes free_ts - alloc_ts of the allocations an mm_page_free ended
# (implicit frees and live pages aside); frees, min, median and p99 by nearest rank (the
# ceil(p * n)-th smallest), max. Rows by frees, then key. Prints what differs; exit 1 then.
import json, sqlite3, sys

db, group, kjson = sys.argv[1:4]
con = sqlite3.connect(db)
col = {'comm': 'comm', 'order': 'page_order'}[group]
life = {}
for key, ats, fts in con.execute("SELECT %s, alloc_ts, free_ts FROM page_allocations "
                                 "WHERE free_kind = 'mm_page_free'" % col):
    life.setdefault(str(key), []).append(fts - ats)

def rank(v, p):
    r = (len(v) * p + 99) // 100
    return v[r - 1 if r else 0]

want = []
for key, v in life.items():
    v.sort()
    want.append([len(v), v[0], rank(v, 50), rank(v, 99), v[-1], key])
want.sort(key=lambda r: (-r[0], int(r[5]) if group == 'order' else r[5].encode()))
doc = json.load(open(kjson))
got = [[r['frees'], r['min_ns'], r['median_ns'], r['p99_ns'], r['max_ns'], str(r[group])]
       for r in doc['rows']]
bad = [] if got == want else ['got %s\nwant %s' % (got[:8], want[:8])]
print('\n'.join(bad))
sys.exit(1 if bad else 0)
