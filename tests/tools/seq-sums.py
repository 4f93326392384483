#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
seq-sums.py SEQ [--pages] - the sums of a tests/tools/mktrace description worked
out from its own lines, with Python's unbounded integers, for tests/t-sums.sh.
It knows nothing of kma: allocations pair with frees by pointer (ptr 0 is a
failed allocation, in no sum; a free of a pointer not live is unknown), a
"kma:" marker starts a generation, events are taken in (ts, cpu) order.

Slab lines (the default):
  summary total slack net allocs frees failed peak
  caller NAME total slack net allocs frees life_avg   (life_avg: integer mean, or -)
  comm NAME total slack net allocs frees
  gen N allocs bytes live live_bytes frees
With --pages (PAGE_SIZE 4096, as mktrace writes):
  pages alloc_pages alloc_bytes allocs freed_pages frees live_pages live_bytes
        unknown_pages failed peak_pages
  order N pages bytes allocs live_pages live_bytes
"""
import sys

PAGE = 4096


def events(path):
    comms, out, n = {}, [], 0
    for line in open(path):
        w = line.split()
        if not w or w[0].startswith('#'):
            continue
        if w[0] == 'cmdline':
            comms[int(w[1])] = w[2]
        elif w[0] in ('event', 'marker'):
            f = dict(x.split('=', 1) for x in w[5:] if '=' in x) if w[0] == 'event' else {}
            name = w[4] if w[0] == 'event' else 'marker'
            text = ' '.join(w[4:]) if w[0] == 'marker' else ''
            out.append((int(w[2]), int(w[1]), n, name, int(w[3]), f, text))
            n += 1
    out.sort(key=lambda e: (e[0], e[1], e[2]))
    return comms, out


def num(s):
    return int(s, 0)


def row():
    return [0, 0, 0, 0, 0]	# total slack net allocs frees


def slab(path):
    comms, evs = events(path)
    live, callers, bycomm, gens, lives = {}, {}, {}, [[0, 0, 0, 0, 0]], {}
    s = {'total': 0, 'slack': 0, 'net': 0, 'allocs': 0, 'frees': 0, 'failed': 0, 'peak': 0}
    for ts, cpu, _, name, pid, f, text in evs:
        if name == 'marker':
            if text.startswith('kma:'):
                gens.append([0, 0, 0, 0, 0])
            continue
        if name in ('kmalloc', 'kmalloc_node', 'kmem_cache_alloc', 'kmem_cache_alloc_node'):
            ptr, req, a = num(f['ptr']), num(f['bytes_req']), num(f['bytes_alloc'])
            if ptr == 0:
                s['failed'] += 1
                continue
            if ptr in live:
                sys.exit('seq-sums.py: an allocation at a live pointer: not modelled')
            site, comm = f['call_site'], comms.get(pid, '<...>')
            slack = max(a - req, 0)
            for r in (callers.setdefault(site, row()), bycomm.setdefault(comm, row())):
                r[0] += a
                r[1] += slack
                r[2] += a
                r[3] += 1
            g = gens[-1]
            g[0] += 1
            g[1] += a
            live[ptr] = (site, comm, a, ts, len(gens) - 1)
            s['total'] += a
            s['slack'] += slack
            s['net'] += a
            s['allocs'] += 1
            s['peak'] = max(s['peak'], s['net'])
        elif name in ('kfree', 'kmem_cache_free'):
            ptr = num(f['ptr'])
            if ptr not in live:
                continue
            site, comm, a, ats, gen = live.pop(ptr)
            for r in (callers[site], bycomm[comm]):
                r[2] -= a
                r[4] += 1
            lives.setdefault(site, []).append(ts - ats)
            gens[-1][4] += 1
            s['net'] -= a
            s['frees'] += 1
    for site, comm, a, ts, gen in live.values():
        gens[gen][2] += 1
        gens[gen][3] += a
    print('summary %(total)d %(slack)d %(net)d %(allocs)d %(frees)d %(failed)d %(peak)d' % s)
    for site, r in sorted(callers.items()):
        l = lives.get(site)
        print('caller %s %d %d %d %d %d %s' % (site, *r, sum(l) // len(l) if l else '-'))
    for comm, r in sorted(bycomm.items()):
        print('comm %s %d %d %d %d %d' % (comm, *r))
    for i, g in enumerate(gens):
        print('gen %d %d %d %d %d %d' % (i, *g))


def pages(path):
    _, evs = events(path)
    live, orders = {}, {}
    t = dict(ap=0, allocs=0, fp=0, frees=0, lp=0, up=0, failed=0, peak=0)
    for ts, cpu, _, name, pid, f, text in evs:
        if name == 'mm_page_alloc':
            pfn, order = num(f['pfn']), int(f['order'])
            if pfn == -1:
                t['failed'] += 1
                continue
            if pfn in live:
                sys.exit('seq-sums.py: a page allocation at a live pfn: not modelled')
            live[pfn] = order
            o = orders.setdefault(order, [0, 0, 0])
            o[0] += 1 << order
            o[1] += 1
            o[2] += 1 << order
            t['ap'] += 1 << order
            t['allocs'] += 1
            t['lp'] += 1 << order
            t['peak'] = max(t['peak'], t['lp'])
        elif name == 'mm_page_free':
            pfn, order = num(f['pfn']), int(f['order'])
            if pfn not in live:
                t['up'] += 1 << order
                continue
            order = live.pop(pfn)
            orders[order][2] -= 1 << order
            t['fp'] += 1 << order
            t['frees'] += 1
            t['lp'] -= 1 << order
    print('pages %d %d %d %d %d %d %d %d %d %d' % (t['ap'], t['ap'] * PAGE, t['allocs'], t['fp'],
          t['frees'], t['lp'], t['lp'] * PAGE, t['up'], t['failed'], t['peak']))
    for order, o in sorted(orders.items()):
        print('order %d %d %d %d %d %d' % (order, o[0], o[0] * PAGE, o[1], o[2], o[2] * PAGE))


if __name__ == '__main__':
    (pages if '--pages' in sys.argv[2:] else slab)(sys.argv[1])
