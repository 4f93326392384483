# A mktrace sequence (tests/tools/mktrace) of more allocation rows than kma-push counts
# with one thread: 260000 allocations at 37 call sites from 12 tasks, 300 distinct
# stacks on six allocations of seven. Allocation i takes pointer slot i mod 2000 and
# frees slot i - 1000, except every 13th, which the next allocation at its pointer
# closes (an implicit free); the last 1000 stay live.
import sys

n, live = 260000, 1000
w = sys.stdout.write
w("cpus 2\nkallsyms ffffffff81000000 T _stext\n")
for k in range(40):
    w("kallsyms %x t site_%d\n" % (0xffffffff81100000 + k * 0x100, k))
for k in range(64):
    w("kallsyms %x t fn_%d\n" % (0xffffffff81300000 + k * 0x100, k))
w("kallsyms ffffffff81400000 T _etext\n")
for p in range(12):
    w("cmdline %d task%d\n" % (2000 + p, p))
caches = [("filp", 256), ("dentry", 192), ("inode_cache", 600), ("vm_area_struct", 176)]
ts, out = 1000, []
for i in range(n):
    for free in (0, 1):
        j = i - live if free else i
        if free and (j < 0 or j % 13 == 0):
            continue
        where = "%d %d %d" % (ts // 5000 % 2, ts, 2000 + (ts // 7000) % 12)
        ptr = "ptr=%#x" % (0xffff888100000000 + (j % (2 * live)) * 0x40)
        if free:
            out.append("event %s kfree call_site=site_%d+0x8 %s\n" % (where, j % 40, ptr))
        elif j % 5 == 0:
            name, size = caches[j % 4]
            out.append("event %s kmem_cache_alloc call_site=site_%d+0x24 %s bytes_req=%d "
                       "bytes_alloc=%d name=%s\n" % (where, j % 37, ptr, size, size, name))
        else:
            req = 8 + j % 300
            out.append("event %s kmalloc call_site=site_%d+0x18 %s bytes_req=%d "
                       "bytes_alloc=%d\n" % (where, j % 37, ptr, req, 1 << (req - 1).bit_length()))
        if not free and j % 7:
            s = j % 300
            out.append("stack %s %s\n" % (where, " ".join(
                "fn_%d+0x10" % ((s * 7 + d * 3) % 64) for d in range(1 + s % 5))))
        ts += 31
w("".join(out))
