#!/usr/bin/env python3
# pages-leaks-check.py KMA TRACE EXPECT [ARGS...]: kma-analyze --pages --leaks -f json -g GROUP
# on TRACE against the hand-worked "leak GROUP KEY live_pages live age_min age_med age_max
# grew run suspect confidence class" lines of EXPECT (tests/pages/*.expect; ages in ns), and
# "why KEY TEXT" lines: TEXT is one of the row's reasons. The rows of each grouping named
# must be exactly those. Prints what differs; exit 1 then.
import json, subprocess, sys

kma, trace, expect = sys.argv[1:4]
extra = sys.argv[4:]
want, why = {}, []
for line in open(expect):
    w = line.split()
    if not w or w[0].startswith('#'):
        continue
    if w[0] == 'leak':
        want.setdefault(w[1], {})[' '.join(w[2:-10])] = w[-10:]
    elif w[0] == 'why':
        why.append((w[1], ' '.join(w[2:])))

bad = []
got_all = {}
for g, rows in want.items():
    out = subprocess.run([kma, '--no-db', '--pages', '--leaks', '-f', 'json', '-g', g, trace]
                         + extra, capture_output=True, text=True)
    if out.returncode:
        sys.exit('kma-analyze --leaks -g %s failed: %s' % (g, out.stderr.strip()))
    doc = json.loads(out.stdout)
    got = {str(r[g]): r for r in doc['rows']}
    got_all.update(got)
    if list(got) != list(rows):
        bad.append('-g %s rows in order: got %s, want %s' % (g, list(got), list(rows)))
    for key, nums in rows.items():
        r = got.get(key)
        if not r:
            continue
        have = [str(r[k]) for k in ('live_pages', 'live', 'age_min_ns', 'age_med_ns',
                                    'age_max_ns', 'grew', 'run', 'suspect', 'confidence')]
        have.append(r['class'])
        if have != nums:
            bad.append('-g %s %s: got %s, want %s' % (g, key, have, nums))
        if r['live_bytes'] != r['live_pages'] * doc['page_size']:
            bad.append('-g %s %s: live_bytes is not live_pages * page_size' % (g, key))
for key, text in why:
    r = got_all.get(key)
    if not r or text not in (r['why'] or '').split('; '):
        bad.append('%s: no reason "%s" in "%s"' % (key, text, r and r['why']))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
