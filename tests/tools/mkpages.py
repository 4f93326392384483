#!/usr/bin/env python3
# mkpages.py N SEED: a random mktrace description of N page allocator events on two CPUs
# (allocations of order 0..3 at random pfns, so some land on a live one; frees of live
# pages, of pages never allocated, batched frees after frees, failed allocations, a
# kernel stack on every third allocation), for t-pages.sh to check kma-analyze --pages
# against pages-from-report.py over trace-cmd report.
import random, sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
random.seed(seed)
print("cpus 2")
for a, t, s in (("ffffffff81000000", "T", "_stext"),
                ("ffffffff81180000", "t", "trace_event_raw_event_mm_page_alloc"),
                ("ffffffff81200000", "T", "__alloc_pages_noprof"),
                ("ffffffff81300000", "t", "pipe_write"),
                ("ffffffff81300400", "t", "do_anonymous_page"),
                ("ffffffff81400000", "T", "_etext")):
    print("kallsyms %s %s %s" % (a, t, s))
print("cmdline 100 bash\ncmdline 200 cat")
live, ts = [], [1000, 1000]
for i in range(n):
    cpu = i % 2
    pid = 100 + 100 * (random.random() < 0.3)
    ts[cpu] += 100
    r = random.random()
    if live and r < 0.40:
        pfn, o = live.pop(random.randrange(len(live)))
        print("event %d %d %d mm_page_free pfn=%d order=%d" % (cpu, ts[cpu], pid, pfn, o))
        if random.random() < 0.5:
            print("event %d %d %d mm_page_free_batched pfn=%d" % (cpu, ts[cpu], pid, pfn))
    elif r < 0.45:
        print("event %d %d %d mm_page_free pfn=%d order=%d" %
              (cpu, ts[cpu], pid, random.randrange(1 << 12), random.randrange(3)))
    elif r < 0.47:
        print("event %d %d %d mm_page_alloc pfn=-1 order=%d" % (cpu, ts[cpu], pid, random.randrange(4)))
    else:
        pfn, o = random.randrange(1 << 12), random.choice([0, 0, 0, 1, 2, 3])
        live.append((pfn, o))
        print("event %d %d %d mm_page_alloc pfn=%d order=%d migratetype=%d" %
              (cpu, ts[cpu], pid, pfn, o, o % 3))
        if i % 3 == 0:
            print("stack %d %d %d trace_event_raw_event_mm_page_alloc+0x10 __alloc_pages_noprof+0x20 %s+0x30"
                  % (cpu, ts[cpu], pid, random.choice(["pipe_write", "do_anonymous_page"])))
