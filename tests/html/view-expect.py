#!/usr/bin/env python3
# The --html page's views, computed apart from the page (for tests/t-html.sh).
#
#   view-expect.py rows CSV SORT DIR FILTER
#       the caller table's rows as the page must order and filter them, from
#       `kma-analyze -g G -f csv` (CSV): rows whose name contains FILTER, case
#       ignored; ordered by column SORT (a csv column; "name" is the first one,
#       "live" is allocs - frees - implicit_frees) in DIR (asc/desc), ties by name
#       then address, both ascending. Printed as html-dom.py prints rows, without
#       the live column (the page's last); slack_pct computed here from total and slack
#       (100 * slack / total to 3 decimals, halves up; "-" without bytes, lowest).
#   view-expect.py flame CSV WEIGHT ZOOM DOMTXT
#       checks the icicle graph of html-dom.py's output DOMTXT zoomed on the frame
#       path ZOOM ("" = none) with WEIGHT (total, net or allocs), against the tree
#       built here from `kma-analyze -g stack -f csv` (CSV): ZOOM's ancestors ("all"
#       first) full width in the rows above it, ZOOM full width, and exactly its
#       descendants of at least 0.1% of it, at their left and width (names in
#       order, as percentages of ZOOM's weight); nothing else. Exit 1 saying what
#       differs.
import csv
import sys
from fractions import Fraction


def pct(total, slack):
    if not total:
        return '-'
    return '%d.%03d' % divmod(int(Fraction(100000 * slack, total) + Fraction(1, 2)), 1000)


def read(path):
    with open(path, newline='') as f:
        r = list(csv.reader(f))
    return r[0], r[1:]


def rows(path, sort, direction, filt):
    head, body = read(path)
    col = {h: i for i, h in enumerate(head)}
    col['name'] = 0
    f = filt.lower()
    body = [r for r in body if f in r[0].lower()]
    p = col['slack_pct']
    for r in body:
        r[p] = pct(int(r[col['total']]), int(r[col['slack']]))

    def value(r):
        if sort == 'live':
            return int(r[col['allocs']]) - int(r[col['frees']]) - int(r[col['implicit_frees']])
        if sort == 'name':
            return r[0]
        if sort == 'address':
            return int(r[col['address']], 16)
        if sort == 'slack_pct':
            return Fraction(r[p]) if r[p] != '-' else -1
        return int(r[col[sort]])
    addr = col.get('address')
    # tie order first; Python's sort is stable, with reverse=True too
    body.sort(key=lambda r: (r[0], int(r[addr], 16) if addr is not None else 0))
    body.sort(key=value, reverse=direction == 'desc')
    for r in body:
        print('row\t' + '\t'.join(r))


def close(a, b):
    # the DOM keeps 6 significant digits of a percentage
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b)) + 1e-9


def flame(path, weight, zoom, domtxt):
    head, body = read(path)
    w = head.index(weight)
    root = {'v': 0, 'kids': {}}
    for r in body:
        v = int(r[w])
        if not v:
            continue
        root['v'] += v
        n = root
        for f in r[0].split(';'):
            n = n['kids'].setdefault(f, {'v': 0, 'kids': {}})
            n['v'] += v
    top, chain = root, ['']
    for f in zoom.split(';') if zoom else []:
        top = top['kids'][f]
        chain.append(chain[-1] + ';' + f if chain[-1] else f)
    want = []
    for d, p in enumerate(chain[:-1]):
        want.append((0.0, 100.0, 18 * d, 1, p))
    total = top['v']

    def walk(n, p, x, d):
        pct = 100.0 * n['v'] / total
        if pct < 0.1:
            return
        want.append((x, pct, 18 * d, 0, p))
        for k in sorted(n['kids']):
            walk(n['kids'][k], p + ';' + k if p else k, x, d + 1)
            x += 100.0 * n['kids'][k]['v'] / total
    walk(top, chain[-1], 0.0, len(chain) - 1)
    got = []
    for line in open(domtxt):
        if line.startswith('fpos\t'):
            x, wd, t, anc, p = line.rstrip('\n').split('\t')[1:]
            got.append((float(x), float(wd), int(t), int(anc), p))
    if len(got) != len(want):
        sys.exit('%d frames drawn, %d expected' % (len(got), len(want)))
    for g, e in zip(got, want):
        if g[2:] != e[2:] or not close(g[0], e[0]) or not close(g[1], e[1]):
            sys.exit('frame %r drawn, %r expected' % (g, e))


if sys.argv[1] == 'rows':
    rows(*sys.argv[2:6])
elif sys.argv[1] == 'flame':
    flame(*sys.argv[2:6])
else:
    sys.exit('usage: view-expect.py rows|flame ...')
