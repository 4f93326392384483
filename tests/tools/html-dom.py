#!/usr/bin/env python3
# What tests/t-html.sh checks in a page as Chromium left it (--dump-dom): prints
#   marker VALUE        the body's data-kma (the page's script ran to its end: ok)
#   errors N            #kma-errors elements / data-kma-error attributes (0 expected)
#   canvas N            canvas elements (the charts)
#   scripts N SRC       script elements, and how many have a src attribute
#   elements TAG...     tags from the trace that became elements (none expected)
#   row<TAB>CELLS       each row of the caller table, cells tab-separated (a stack's
#                       name cell: its data-name, the folded stack)
#   gen LABEL           each generation label of the generations table
#   genlive N TEXT      generation N's still-live callers, as the table shows them
#   left<TAB>CELLS      each row of the module leftovers table
#   leak<TAB>CELLS      each row of the leak suspects table
#   frame NAME          each flame graph frame
#   fpos<TAB>L<TAB>W<TAB>T<TAB>ANC<TAB>PATH  each frame's left and width (%), top (px),
#                       1 for an ancestor of the zoomed frame, its path (data-path)
#   state S             the view the page shows, as its hash would say it (data-kma-state)
#   hash H              location.hash after the page wrote it (data-kma-hash), if it did
#   sorted COL DIR      the caller table's sorted column (aria-sort)
#   count TEXT          the caller table's "N of M rows"
#   empty TEXT          the empty-state line, when shown
#   sum KEY VALUE       the summary table
import sys
from html.parser import HTMLParser

KNOWN = {'html', 'head', 'meta', 'title', 'style', 'body', 'script', 'div', 'p', 'h1', 'h2',
         'section', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'canvas', 'select', 'option',
         'input', 'span', 'pre', 'button'}


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.marker, self.errors, self.canvas, self.scripts, self.srcs = '', 0, 0, 0, 0
        self.odd, self.rows, self.gens, self.frames, self.sums = set(), [], [], [], []
        self.genlive, self.left, self.leaks = [], [], []
        self.stack, self.cell, self.row, self.table, self.col = [], None, None, None, 0
        self.state, self.hash, self.sorted, self.fpos, self.texts = None, None, [], [], {}
        self.text_id = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in KNOWN:
            self.odd.add(tag)
        if tag == 'body':
            self.marker = a.get('data-kma', '')
            self.state = a.get('data-kma-state')
            self.hash = a.get('data-kma-hash')
        if tag == 'th' and self.table == 'kma-callers' and a.get('aria-sort', 'none') != 'none':
            self.sorted.append((a.get('data-col'), a.get('aria-sort')))
        if a.get('id') in ('kma-count', 'kma-empty') and 'hidden' not in a:
            self.text_id = a.get('id')
            self.texts[self.text_id] = ''
            self.errors += 'data-kma-error' in a
        if a.get('id') == 'kma-errors':
            self.errors += 1
        if tag == 'canvas':
            self.canvas += 1
        if tag == 'script':
            self.scripts += 1
            self.srcs += 'src' in a
        if tag == 'table':
            self.table = a.get('id')
        if tag == 'tr':
            self.row, self.col = [], 0
        if tag == 'td' and self.row is not None:
            self.cell = ''
            # a stack's cell shows its frames leaf first, folded: its name is data-name
            self.cellname = a.get('data-name')
            self.cellid = a.get('id')
            self.hidden = 'display: none' in (a.get('style') or '')
        if tag == 'div' and 'kma-frame' in (a.get('class') or '').split():
            self.cell = ''
            self.frame = True
            st = dict(map(str.strip, x.split(':', 1)) for x in (a.get('style') or '').split(';') if ':' in x)
            num = lambda k: st.get(k, '').strip().rstrip('%px')
            self.fpos.append((num('left'), num('width'), num('top'),
                              int('kma-anc' in a['class'].split()), a.get('data-path', '')))
        else:
            self.frame = getattr(self, 'frame', False) and tag != 'div'

    def handle_data(self, d):
        if self.text_id:
            self.texts[self.text_id] += d
        if self.cell is not None:
            self.cell += d

    def handle_endtag(self, tag):
        if tag in ('span', 'p'):
            self.text_id = None
        if tag == 'td' and self.cell is not None:
            if self.cellname is not None:
                self.cell = self.cellname
            if self.cellid and self.cellid.startswith('sum-'):
                self.sums.append((self.cellid[4:], self.cell))
            if not self.hidden:
                self.row.append(self.cell)
            if self.table == 'kma-gen-table' and self.col == 1:
                self.gens.append(self.cell)
            if self.table == 'kma-gen-table' and self.col == 8:
                self.genlive.append((len(self.gens) - 1, self.cell))
            self.col += 1
            self.cell = None
        elif tag == 'tr' and self.row is not None:
            if self.table == 'kma-callers' and self.row:
                self.rows.append(self.row)
            if self.table == 'kma-leftover-table' and self.row:
                self.left.append(self.row)
            if self.table == 'kma-leak-table' and self.row:
                self.leaks.append(self.row)
            self.row = None
        elif tag == 'div' and self.frame and self.cell is not None:
            self.frames.append(self.cell)
            self.cell, self.frame = None, False
        elif tag == 'table':
            self.table = None


p = Dom()
p.feed(open(sys.argv[1], encoding='utf-8').read())
print('marker', p.marker)
print('errors', p.errors)
print('canvas', p.canvas)
print('scripts', p.scripts, p.srcs)
print('elements', ' '.join(sorted(p.odd)))
for r in p.rows:
    print('row\t' + '\t'.join(r))
for g in p.gens:
    print('gen', g)
for r in p.left:
    print('left\t' + '\t'.join(r))
for r in p.leaks:
    print('leak\t' + '\t'.join(r))
for g, t in p.genlive:
    print('genlive %d %s' % (g, t))
for f in p.frames:
    print('frame', f)
for k, v in p.sums:
    print('sum', k, v)
for f in p.fpos:
    print('fpos\t%s\t%s\t%s\t%d\t%s' % f)
if p.state is not None:
    print('state', p.state)
if p.hash is not None:
    print('hash', p.hash)
for c, d in p.sorted:
    print('sorted', c, d)
for k in ('kma-count', 'kma-empty'):
    if k in p.texts:
        print(k[4:], p.texts[k])
