#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kma-analyze --pages side by side with perf kmem stat --page, on the same events.

Usage: perf-kmem-check.py [--direct] PERF_DATA KMA_ANALYZE MKTRACE TMPDIR

--direct: kma-analyze --pages reads PERF_DATA itself (MKTRACE is not used); the
figures expected are the same.

perf kmem --page record writes perf.data, not trace.dat, so the page events go
from `perf script` into a mktrace description (tests/tools/mktrace) as they are:
each event's CPU, time in ns, thread, comm, pfn, order and migrate type (the gfp
flags become GFP_KERNEL: mktrace knows only a few names, and none of the figures
compared depends on them). kma-analyze --pages reads that trace into report.db.
The expected figures are perf kmem --page stat's own, on the perf.data:

  Total allocation requests   page_trace.alloc_events (failed ones included)
  Total free requests         page_trace.free_events (mm_page_free)
  Total alloc+freed requests  allocations closed by an mm_page_free
  Total alloc-only requests   the allocation requests less those
  Total free-only requests    page_trace.unknown_frees, unknown_pages
  Total allocation failures   page_trace.failed_allocs
  Order x migrate type table  successful allocations per page_order, migratetype

with their KB where perf prints them. kma-analyze --pages also reads the
perf.data itself (its perf.data reader): the same figures must come out, and
its allocations (alloc and free time, pfn, order, migrate type, pid, how each
was freed) must be the converted trace's, row for row, and each one's comm the
one perf script prints on its mm_page_alloc (the thread's name at that time:
the converted trace has one name per thread). Prints one
line per figure; exit 1 when one differs, 2 on a setup error. KMA_PERF_CHECK_DROP=1 leaves the first
mm_page_free out of kma's trace, so that t-perf-kmem.sh sees the check fail.
"""
import os
import re
import sqlite3
import subprocess
import sys

EV = re.compile(r'^\s*(.*?)\s+(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+kmem:(mm_page_alloc|mm_page_free):'
                r'\s+(.*)$')


def fields(text):
    return dict(kv.split('=', 1) for kv in text.split() if '=' in kv)


alloc_comm = {}	# (time, tid) of each mm_page_alloc: perf script's comm


def to_seq(perf_data, out):
    """perf script's page events as a mktrace description; the number of events."""
    res = subprocess.run(['perf', 'script', '-i', perf_data, '--ns', '-F',
                          'comm,tid,cpu,time,event,trace'],
                         capture_output=True, text=True, check=True)
    events, comms, cpus = [], {}, 1
    alloc_comm.clear()
    drop = os.environ.get('KMA_PERF_CHECK_DROP') == '1'
    for line in res.stdout.splitlines():
        m = EV.match(line)
        if not m:
            continue
        comm, tid, cpu, sec, frac, name, rest = m.groups()
        if name == 'mm_page_free' and drop:
            drop = False	# the test of this script: a trace one free short
            continue
        f = fields(rest)
        ts = int(sec) * 10**9 + int(frac.ljust(9, '0')[:9])
        pfn = int(f['pfn'], 16) if f['pfn'].startswith('0x') else int(f['pfn'])
        pfn = '-1' if pfn >= 1 << 63 or pfn < 0 else '%#x' % pfn
        if name == 'mm_page_alloc':
            args = 'pfn=%s order=%s gfp_flags=GFP_KERNEL migratetype=%s' % (
                pfn, f['order'], f['migratetype'])
        else:
            args = 'pfn=%s order=%s' % (pfn, f['order'])
        comms.setdefault(int(tid), comm.replace(' ', '_'))
        if name == 'mm_page_alloc':
            alloc_comm[(ts, int(tid))] = comm
        cpus = max(cpus, int(cpu) + 1)
        events.append('event %d %d %s %s %s' % (int(cpu), ts, tid, name, args))
    with open(out, 'w') as o:
        o.write('cpus %d\n' % cpus)
        o.write('kallsyms ffffffff81000000 T _stext\nkallsyms ffffffff81400000 T _etext\n')
        for tid, comm in sorted(comms.items()):
            o.write('cmdline %d %s\n' % (tid, comm))
        o.write('\n'.join(events) + '\n')
    return len(events)


def perf_stat(perf_data):
    """perf kmem --page stat's summary: {name: (count, KB)} and {(order, migrate): n}."""
    res = subprocess.run(['perf', 'kmem', '--page', '-i', perf_data, 'stat'],
                         capture_output=True, text=True, check=True)
    tot, table = {}, {}
    for line in res.stdout.splitlines():
        m = re.match(r'^(Total [\w+ -]+?)\s*:\s*([\d,]+)\s+\[\s*([\d,]+) KB \]', line)
        if m:
            tot[m.group(1)] = (int(m.group(2).replace(',', '')),
                               int(m.group(3).replace(',', '')))
            continue
        m = re.match(r'^\s*(\d+)((?:\s+(?:[\d,]+|\.))+)\s*$', line)
        if m:
            for mt, v in enumerate(m.group(2).split()):
                if v != '.':
                    table[(int(m.group(1)), mt)] = int(v.replace(',', ''))
    return tot, table


def kma_figures(db):
    c = sqlite3.connect(db)
    t = c.execute('SELECT page_size, alloc_events, free_events, failed_allocs, unknown_frees, '
                  'unknown_pages FROM page_trace').fetchone()
    ps, alloc_ev, free_ev, failed, unk, unk_pages = t
    kb = lambda pages: pages * ps // 1024
    ok_n, ok_pages = c.execute('SELECT COUNT(*), COALESCE(SUM(pages), 0) FROM page_allocations '
                               "WHERE free_kind = 'mm_page_free'").fetchone()
    all_pages = c.execute('SELECT COALESCE(SUM(pages), 0) FROM page_allocations').fetchone()[0]
    if failed:	# perf counts a failed request's pages too; kma keeps no order for them
        all_kb = None
    else:
        all_kb = kb(all_pages)
    tot = {
        'Total allocation requests': (alloc_ev, all_kb),
        'Total free requests': (free_ev, kb(ok_pages + unk_pages)),
        'Total alloc+freed requests': (ok_n, kb(ok_pages)),
        'Total alloc-only requests': (alloc_ev - ok_n, None if failed else kb(all_pages - ok_pages)),
        'Total free-only requests': (unk, kb(unk_pages)),
        'Total allocation failures': (failed, None),
    }
    table = {(o, m): n for o, m, n in c.execute(
        'SELECT page_order, migratetype, COUNT(*) FROM page_allocations '
        'GROUP BY page_order, migratetype')}
    return tot, table


def rows(db):
    """Every page allocation kma made of the events, in a comparable form."""
    c = sqlite3.connect(db)
    return sorted(c.execute('SELECT alloc_ts, free_ts, pfn, page_order, migratetype, pid, '
                            'free_kind FROM page_allocations'), key=repr)


def comm_errors(db):
    """Allocations whose comm is not perf script's for their mm_page_alloc."""
    c = sqlite3.connect(db)
    return sum(alloc_comm.get((ts, pid)) != comm for ts, pid, comm in
               c.execute('SELECT alloc_ts, pid, comm FROM page_allocations'))


def compare(want, want_table, got, got_table, who):
    bad = 0
    for name, (cnt, kb) in want.items():
        g = got.get(name)
        same = g is not None and g[0] == cnt and (g[1] is None or g[1] == kb)
        bad += not same
        print('%-28s perf %d [%d KB]  %s %s  %s' % (name, cnt, kb, who, g,
                                                   'ok' if same else 'DIFFERS'))
    for key in sorted(set(want_table) | set(got_table)):
        w, g = want_table.get(key, 0), got_table.get(key, 0)
        bad += w != g
        # by number: perf heads its columns Unmovable, Reclaimable, Movable, where the
        # kernel's enum migratetype has 1 Movable and 2 Reclaimable
        print('order %d migratetype %d  perf %d  %s %d  %s' % (key[0], key[1], w, who, g,
                                                              'ok' if w == g else 'DIFFERS'))
    return bad


def main():
    args = sys.argv[1:]
    direct = args[:1] == ['--direct']
    args = args[1:] if direct else args
    if len(args) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    perf_data, kma, mktrace, tmp = args
    seq, dat, db = tmp + '/perf.seq', tmp + '/perf.dat', tmp + '/perf.db'
    n = to_seq(perf_data, seq)
    if direct:
        dat = perf_data
        if os.environ.get('KMA_PERF_CHECK_DROP') == '1':
            sys.exit('perf-kmem-check.py: KMA_PERF_CHECK_DROP needs the converted trace')
    else:
        subprocess.run([mktrace, '-g', '6.18', '-o', dat, seq], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run([kma, '-q', '--pages', '-o', db, dat], check=True)
    want, want_table = perf_stat(perf_data)
    got, got_table = kma_figures(db)
    print('%d page events from perf script' % n)
    bad = compare(want, want_table, got, got_table, 'kma (converted)')
    if len(want) != 6:
        print('perf kmem stat: %d summary lines read, want 6' % len(want))
        bad += 1
    # the same figures from the perf.data itself
    direct = tmp + '/perf-direct.db'
    subprocess.run([kma, '-q', '--pages', '-o', direct, perf_data], check=True)
    got_d, got_table_d = kma_figures(direct)
    bad += compare(want, want_table, got_d, got_table_d, 'kma (perf.data)')
    conv, dire = rows(db), rows(direct)
    same = conv == dire
    bad += not same
    print('allocations: converted trace %d, perf.data %d, %s' % (
        len(conv), len(dire), 'the same rows' if same else 'DIFFER'))
    wrong = comm_errors(direct)
    bad += wrong != 0
    print('comms of the perf.data allocations unlike perf script\'s: %d' % wrong)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
