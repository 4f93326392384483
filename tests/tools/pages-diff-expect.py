#!/usr/bin/env python3
# pages-diff-expect.py BASE.rows NEW.rows GROUP PAGE_SIZE < kma-diff.csv: the rows of
# `kma-diff --kind page -g GROUP -f csv` against the page rows of each run computed
# without kma, "row GROUP KEY pages allocs freed_pages frees implicit_frees live_pages"
# lines (tests/tools/pages-from-report.py over trace-cmd report). A run's numbers of a key
# are total = pages * PAGE_SIZE, net = live_pages * PAGE_SIZE, allocs and frees (traced
# and implicit, as pages-from-report.py counts them); a key a run lacks is empty on its
# side. Prints what differs; exit 1 then, and when there is no row at all.
import csv, sys

base_rows, new_rows, group, psz = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])


def load(path):
    out = {}
    for line in open(path):
        w = line.split()
        if len(w) >= 9 and w[0] == 'row' and w[1] == group:
            pages, allocs, _, frees, _, live = (int(x) for x in w[-6:])
            out[' '.join(w[2:-6])] = (pages * psz, live * psz, allocs, frees)
    return out


want = [load(base_rows), load(new_rows)]
got = [{}, {}]
for r in csv.DictReader(sys.stdin):
    for i, side in enumerate(('base', 'new')):
        if r[side + '_total'] != '':
            got[i][r['key']] = tuple(int(r[side + '_' + m]) for m in
                                     ('total', 'net', 'allocs', 'frees'))
bad = []
for i, side in enumerate(('base', 'new')):
    for k in sorted(set(want[i]) | set(got[i])):
        if want[i].get(k) != got[i].get(k):
            bad.append('%s %s: got %s, want %s' % (side, k, got[i].get(k), want[i].get(k)))
if not want[0] or not want[1]:
    bad.append('no %s rows to compare' % group)
print('\n'.join(bad[:20]))
sys.exit(1 if bad else 0)
