#!/usr/bin/env python3
# pages-from-report.py: the page allocator numbers of a trace, computed independently
# of kma from `trace-cmd report -R` output on stdin, as tests/pages/*.expect lines
# (see tests/tools/pages-check.py): a summary line and rows per order, comm and pid.
#
# The rules, from kma-analyze(1) "Page allocations", written again here from the text
# (not from kma's code): mm_page_alloc with pfn -1 failed; an allocation at a live pfn
# closes the old one (implicit free); mm_page_free of a live pfn closes it (2^order of
# the allocation back), of any other pfn is an unknown free (2^order of the free);
# mm_page_free_batched, _zone_locked and _pcpu_drain change nothing.
#
# Filters, as kma-analyze(1) describes them for --pages (the timestamps need
# `trace-cmd report -t`, in ns): --comm NAME, --pid N, --since NS, --until NS (absolute)
# count only the allocations of that task, pid or time [since, until); the others are
# still paired, so their frees are neither counted nor unknown, and an allocation of any
# kind at a counted live pfn closes it. Unknown frees are the whole trace's.
# --generation K counts only the allocations made in generation K: 0 before the first
# "kma:" marker (a print / tracing_mark_write event), K after the K-th; a K that is not a
# number is a label, the first generation whose marker says "kma: K".
import re, sys

flt = dict(zip(sys.argv[1::2], sys.argv[2::2]))

LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\S+):\s+(mm_page_alloc|mm_page_free|mm_page_free_batched):\s+(.*)$')
FAILED = {'-1', 'ffffffffffffffff', '18446744073709551615', 'ffffffff', '4294967295'}

live = {}        # pfn -> (order, comm, pid)
out = set()      # pfns of live allocations the filter leaves out
freed = set()    # pfns whose last event was an mm_page_free (kma-analyze(1): batched frees)
batched = [0, 0]  # mm_page_free_batched records, of those after an mm_page_free of the pfn
tot = dict(allocs=0, failed=0, frees=0, implicit_frees=0, unknown_frees=0, pages_alloc=0,
           pages_freed=0, pages_live=0, peak_pages=0)
unknown_pages = 0
rows = {'order': {}, 'comm': {}, 'pid': {}}


def row(group, key):
    return rows[group].setdefault(str(key), [0, 0, 0, 0, 0, 0])


def close(a, implicit):
    order, comm, pid = a
    pages = 1 << order
    tot['frees'] += 1
    tot['implicit_frees'] += implicit
    tot['pages_freed'] += pages
    tot['pages_live'] -= pages
    for g, k in (('order', order), ('comm', comm), ('pid', pid)):
        r = row(g, k)
        r[2] += pages
        r[3] += 1
        r[4] += implicit
        r[5] -= pages


MARK = re.compile(r'\s(?:print|tracing_mark_write):\s+(?:ip=\S+\s+buf=)?kma:(.*)$')
gen, want_gen = 0, flt.get('--generation')
if want_gen is not None and re.fullmatch(r'\d+', want_gen):
    want_gen = int(want_gen)

for line in sys.stdin:
    mk = MARK.search(line)
    if mk:
        gen += 1
        if mk.group(1).strip() == want_gen:
            want_gen = gen
        continue
    m = LINE.match(line)
    if not m:
        continue
    comm, pid, ev, rest = m.group(1).strip(), int(m.group(2)), m.group(5), m.group(6)
    sec, _, frac = m.group(4).partition('.')
    ts = int(sec) * 10**9 + int(frac.ljust(9, '0')[:9])
    sel = (flt.get('--comm', comm) == comm and int(flt.get('--pid', pid)) == pid and
           int(flt.get('--since', 0)) <= ts and ts < int(flt.get('--until', 1 << 64)) and
           (want_gen is None or want_gen == gen))
    f = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
    key = f.get('pfn', f.get('page'))
    if ev == 'mm_page_free_batched':
        batched[0] += 1
        batched[1] += key in freed
        continue
    order = int(f['order'])
    if ev == 'mm_page_free':
        freed.add(key)
    else:
        freed.discard(key)
    if ev == 'mm_page_alloc':
        if key in FAILED or (('page' in f) and int(key, 16) == 0):
            tot['failed'] += sel
            continue
        if key in live:
            close(live.pop(key), 1)
        out.discard(key)
        if not sel:
            out.add(key)
            continue
        pages = 1 << order
        live[key] = (order, comm, pid)
        tot['allocs'] += 1
        tot['pages_alloc'] += pages
        tot['pages_live'] += pages
        tot['peak_pages'] = max(tot['peak_pages'], tot['pages_live'])
        for g, k in (('order', order), ('comm', comm), ('pid', pid)):
            r = row(g, k)
            r[0] += pages
            r[1] += 1
            r[5] += pages
    elif key in live:
        close(live.pop(key), 0)
    elif key in out:
        out.discard(key)
    else:
        tot['unknown_frees'] += 1
        unknown_pages += 1 << order

tot['unknown_pages'] = unknown_pages
print('summary ' + ' '.join('%s=%d' % kv for kv in tot.items()))
print('# batched %d after_free %d' % tuple(batched))
for g, rs in rows.items():
    for k, r in rs.items():
        print('row %s %s %s' % (g, k, ' '.join(map(str, r))))
