#!/usr/bin/env python3
# Checks of an --html page's geometry for tests/t-html-layout.sh, from the JSON
# that tests/html/probe.js left in the page's data-probe attribute (Chromium's
# --dump-dom of a copy made by `inject`). Expected values come from -f csv and the
# text report, never from the page. Each check exits 1 with a line saying why.
#   layout.py inject PAGE OUT            OUT: PAGE with probe.js run before its scripts
#   layout.py page DOM                   the page is no wider than the window
#   layout.py stacks DOM ROWS            -g stack rows (view-expect.py rows, in the
#                                        page's order): leaf frame first and in view,
#                                        the numbers = ROWS and in view without scrolling
#   layout.py unfolded DOM STACK         STACK's cell lists its frames leaf first, one a
#                                        line, its numbers still in view
#   layout.py axis DOM CANVAS MAX        the canvas's y ticks: 0 up to at least MAX bytes
#                                        at a round step, in the binary unit of MAX
#   layout.py labels DOM CANVAS LABEL... each LABEL drawn once, inside the canvas, no
#                                        two overlapping
import html
import json
import os
import re
import sys
from decimal import Decimal

UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB']


def die(msg):
    print(msg)
    sys.exit(1)


def probe(dom):
    m = re.search(r'<html[^>]* data-probe="([^"]*)"', open(dom, encoding='utf-8').read())
    if not m:
        die('no data-probe in ' + dom)
    return json.loads(html.unescape(m.group(1)))


def in_view(p, cell, what):
    """cell's box within the window and the caller table's visible box"""
    b, c = p['callers']['box'], cell['box']
    right = min(p['view'][0], b[0] + p['callers']['client'][0])
    if c[0] < b[0] - 0.5 or c[2] > right + 0.5:
        die('%s: %r at x %.1f-%.1f, outside the visible %.1f-%.1f' %
            (what, cell['text'], c[0], c[2], b[0], right))


def num_cells(row):
    return [c for c in row if 'num' in c['cls'].split()]


def find_row(p, frames):
    for r in p['callers']['rows']:
        if ('\n' + r[0]['text'] + '\n').find('\n' + '\n'.join(reversed(frames)) + '\n') >= 0:
            return r
    die('no row shows the frames of %s leaf first, one a line' % ';'.join(frames))


def main(a):
    if a[0] == 'inject':
        s = open(a[1], encoding='utf-8').read()
        js = open(os.path.join(os.path.dirname(__file__), 'probe.js'), encoding='utf-8').read()
        if '</head>' not in s:
            die('no </head> in ' + a[1])
        open(a[2], 'w', encoding='utf-8').write(s.replace('</head>',
                                                         '<script>' + js + '</script></head>', 1))
        return
    p = probe(a[1])
    if a[0] == 'page':
        if p['view'][1] > p['view'][0]:
            die('the page is %d px wide in a %d px window' % (p['view'][1], p['view'][0]))
    elif a[0] == 'stacks':
        want = [l.rstrip('\n').split('\t') for l in open(a[2])]
        rows = p['callers']['rows']
        if len(rows) != len(want) or not rows:
            die('%d rows, %d expected' % (len(rows), len(want)))
        for r, w in zip(rows, want):
            # row NAME total slack slack_pct net allocs frees implicit_frees; the page
            # adds live
            w = w[1:] + [str(int(w[6]) - int(w[7]) - int(w[8]))]
            w.insert(1, '')
            frames = w[0].split(';')
            # the first words of the cell's first visible text are the leaf frame
            words = r[0]['name']['words']
            n = next((i + 1 for i in range(len(words))
                      if ' '.join(x[0] for x in words[:i + 1]) == frames[-1]), 0)
            if not n:
                die('%s: the cell starts with %r, not the leaf' % (w[0], words[:2]))
            if words[n - 1][1] > r[0]['name']['clip'] + 0.5:
                die('%s: the leaf is cut off' % w[0])
            in_view(p, {'text': frames[-1], 'box': [r[0]['box'][0], 0, words[n - 1][1], 0]},
                    w[0] + ' leaf')
            nums = num_cells(r)
            if [c['text'] for c in nums] != w[2:]:
                die('%s: numbers %r, expected %r' % (w[0], [c['text'] for c in nums], w[2:]))
            for c in nums:
                in_view(p, c, w[0] + ' ' + c['cls'])
    elif a[0] == 'unfolded':
        r = find_row(p, a[2].split(';'))
        for c in num_cells(r):
            in_view(p, c, 'unfolded ' + c['cls'])
    elif a[0] == 'axis':
        t = p['texts'][a[2]]['texts']
        mx = int(a[3])
        ticks = []
        for x in t:
            m = re.fullmatch(r'(\d+(?:\.\d+)?) (%s)' % '|'.join(UNITS), x[0])
            if m:
                ticks.append((x[2], Decimal(m.group(1)), m.group(2)))
            elif re.fullmatch(r'\d{1,3}(,\d{3})+|\d{4,}', x[0]):
                die('%s: a tick in raw bytes: %s' % (a[2], x[0]))
        k = 0
        while k < len(UNITS) - 1 and mx >= 1024 ** (k + 1):
            k += 1
        ticks.sort(key=lambda x: -x[0])     # bottom up
        if len(ticks) < 3 or {x[2] for x in ticks} != {UNITS[k]}:
            die('%s: ticks %r, expected %s' % (a[2], [x[1:] for x in ticks], UNITS[k]))
        v = [x[1] for x in ticks]
        step = v[1] - v[0]
        if v[0] != 0 or any(v[i + 1] - v[i] != step for i in range(len(v) - 1)):
            die('%s: ticks %r are not 0 and even steps' % (a[2], v))
        e = step.normalize().as_tuple()
        if e.digits not in ((1,), (2,), (5,)):
            die('%s: step %s is not 1, 2 or 5 times a power of ten' % (a[2], step))
        u = 1024 ** k
        if not (v[-1] * u >= mx > (v[-1] - step) * u):
            die('%s: top tick %s %s, maximum %d bytes' % (a[2], v[-1], UNITS[k], mx))
    elif a[0] == 'labels':
        c = p['texts'][a[2]]
        w, h = c['size']
        boxes = []
        for lab in a[3:]:
            got = [x for x in c['texts'] if x[0] == lab]
            if len(got) != 1:
                die('%s: label %r drawn %d times' % (a[2], lab, len(got)))
            x0, y0, x1, y1 = got[0][1:]
            if x0 < -0.5 or y0 < -0.5 or x1 > w + 0.5 or y1 > h + 0.5:
                die('%s: label %r at %.1f,%.1f-%.1f,%.1f, outside %dx%d' %
                    (a[2], lab, x0, y0, x1, y1, w, h))
            for b in boxes:
                if x0 < b[3] and b[1] < x1 and y0 < b[4] and b[2] < y1:
                    die('%s: labels %r and %r overlap' % (a[2], lab, b[0]))
            boxes.append(got[0])
    else:
        die('unknown check ' + a[0])


main(sys.argv[1:])
