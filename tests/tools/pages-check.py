#!/usr/bin/env python3
# pages-check.py KMA TRACE EXPECT: kma-analyze --pages -f json on TRACE against the
# hand-worked numbers of EXPECT (tests/pages/*.expect): the summary members, then every
# "row GROUP KEY pages allocs freed_pages frees implicit_frees live_pages" line against the
# row of -g GROUP (bytes checked as pages * page_size). Prints what differs; exit 1 then.
import json, subprocess, sys

kma, trace, expect = sys.argv[1:4]
extra = sys.argv[4:]
bad = []
summary, rows = {}, {}
for line in open(expect):
    w = line.split()
    if not w or w[0].startswith('#'):
        continue
    if w[0] == 'summary':
        summary = dict(kv.split('=') for kv in w[1:])
    elif w[0] == 'row':
        # the key is everything between the grouping and the six numbers (a comm may have blanks)
        rows.setdefault(w[1], {})[' '.join(w[2:-6])] = [int(x) for x in w[-6:]]

def run(group):
    out = subprocess.run([kma, '--no-db', '--pages', '-f', 'json', '-g', group, trace] + extra,
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit('kma-analyze -g %s failed: %s' % (group, out.stderr.strip()))
    return json.loads(out.stdout)

doc = run('order')
for k, v in summary.items():
    if str(doc.get(k)) != v:
        bad.append('summary %s: got %s, want %s' % (k, doc.get(k), v))
for g, want in rows.items():
    d = doc if g == 'order' else run(g)
    got = {str(r[g]): r for r in d['rows']}
    if set(got) != set(want):
        bad.append('-g %s keys: got %s, want %s' % (g, sorted(got), sorted(want)))
    for key, nums in want.items():
        r = got.get(key)
        if not r:
            continue
        have = [r['pages'], r['allocs'], r['freed_pages'], r['frees'], r['implicit_frees'],
                r['live_pages']]
        if have != nums:
            bad.append('-g %s %s: got %s, want %s' % (g, key, have, nums))
        if r['bytes'] != r['pages'] * d['page_size'] or \
           r['live_bytes'] != r['live_pages'] * d['page_size']:
            bad.append('-g %s %s: bytes are not pages * page_size' % (g, key))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
