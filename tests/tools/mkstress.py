#!/usr/bin/env python3
"""mkstress.py SEED EVENTS CPUS: a random mktrace description (tests/tools/mktrace.c) that
stresses the merge of many CPUs: timestamps shared across CPUs (ties: the lower CPU
first), frees on other CPUs, time extends (gaps of 2^27 ns and more), forced page
breaks, pages with missed events (known count and flag only), markers starting
generations. Deterministic for a seed. Writes the description to stdout.
"""
import random
import sys

seed, events, cpus = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(seed)
out = [f'cpus {cpus}',
       'kallsyms ffffffff81000000 T _stext']
funcs = [f'site_{i}' for i in range(12)]
for i, f in enumerate(funcs):
    out.append(f'kallsyms {0xffffffff81100000 + i * 0x100:x} t {f}')
out.append('kallsyms ffffffff81400000 T _etext')
for pid in range(100, 108):
    out.append(f'cmdline {pid} task{pid}')
caches = ['kmalloc-64', 'dentry', 'anon_vma', 'filp']
live = []                     # (ptr, kind)
ts, gen, next_ptr = 1_000_000, 0, 0
for n in range(events):
    r = rnd.random()
    if r < 0.35:
        pass                  # same time as the previous event: a tie across CPUs
    elif r < 0.999:
        ts += rnd.randint(1, 3000)
    else:
        ts += (1 << 27) + rnd.randint(0, 1 << 28)   # a time extend on every CPU
    cpu = rnd.randrange(cpus)
    pid = 100 + rnd.randrange(8)
    r = rnd.random()
    if r < 0.0005:
        gen += 1
        out.append(f'marker {cpu} {ts} {pid} kma: gen{gen}')
        continue
    if r < 0.001:
        out.append(f'missed {cpu} {rnd.choice([-1, rnd.randint(1, 500)])}')
    elif r < 0.002:
        out.append(f'page {cpu}')
    site = rnd.choice(funcs)
    if live and rnd.random() < 0.47:
        ptr, kind = live.pop(rnd.randrange(len(live)))
        if kind == 'cache':
            out.append(f'event {cpu} {ts} {pid} kmem_cache_free call_site={site}+0x8 '
                       f'ptr=0x{ptr:x} name=dentry')
        else:
            out.append(f'event {cpu} {ts} {pid} kfree call_site={site}+0x8 ptr=0x{ptr:x}')
        continue
    if rnd.random() < 0.02:
        # an unknown free (a pointer never allocated), or a reused live pointer
        ptr = 0xffff888200000000 + rnd.randrange(1 << 20) * 64
        out.append(f'event {cpu} {ts} {pid} kfree call_site={site}+0x8 ptr=0x{ptr:x}')
        continue
    req = rnd.randint(1, 4096)
    alloc = 8
    while alloc < req:
        alloc *= 2
    next_ptr += 1
    ptr = 0xffff888100000000 + next_ptr * 64
    if rnd.random() < 0.3:
        out.append(f'event {cpu} {ts} {pid} kmem_cache_alloc call_site={site}+0x10 '
                   f'ptr=0x{ptr:x} bytes_req={req} bytes_alloc={alloc} '
                   f'name={rnd.choice(caches)}')
        live.append((ptr, 'cache'))
    else:
        out.append(f'event {cpu} {ts} {pid} kmalloc call_site={site}+0x10 ptr=0x{ptr:x} '
                   f'bytes_req={req} bytes_alloc={alloc}')
        live.append((ptr, 'kmalloc'))
print('\n'.join(out))
