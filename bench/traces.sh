# traces.sh - the generated traces of the benchmarks (sourced by bench/run.sh
# and bench/rss.sh): periodic blocks written by tests/tools/mktrace ($MKTRACE)
# from a description in $tmp, and their repetition into bigger traces with the
# same allocations live at any time.

# gen_block N OUT: the .seq of one periodic block of N events (N/2 allocations,
# N/2 frees; allocation i takes slot i mod 2L and frees slot i-L, L = N/20),
# written into OUT by mktrace.
gen_block() {
	python3 - "$1" >"$tmp/block.seq" <<'PY'
import sys
n = int(sys.argv[1]) // 2
live = n // 10
NS, NF, NP = 200, 40, 20
caches = [("filp", 256), ("dentry", 192), ("inode_cache", 600), ("vm_area_struct", 176),
          ("task_struct", 9984), ("cred_jar", 192), ("pid", 128), ("anon_vma", 104)]
w = sys.stdout.write
w("cpus 2\nkallsyms ffffffff81000000 T _stext\n")
for k in range(NS):
    w("kallsyms %x t alloc_site_%d\n" % (0xffffffff81100000 + k * 0x100, k))
for k in range(NF):
    w("kallsyms %x t free_site_%d\n" % (0xffffffff81200000 + k * 0x100, k))
w("kallsyms ffffffff81400000 T _etext\n")
for p in range(NP):
    w("cmdline %d task%d\n" % (1000 + p, p))
base, step, ts, out = 0xffff888100000000, 23, 1000, []
for i in range(n):
    for free in (0, 1):
        # what allocation j is depends on j mod n only: the block repeats
        j = i - live if free else i
        h = ((j % n) * 2654435761) & 0xffffffff
        head = "event %d %d %d " % ((ts // 4000) % 2, ts, 1000 + (ts // 9000) % NP)
        ptr = "ptr=%#x" % (base + (j % (2 * live)) * 0x40)
        if h % 4 == 0:
            name, size = caches[(h >> 8) % len(caches)]
            if free:
                out.append("%skmem_cache_free call_site=free_site_%d+0x10 %s name=%s\n"
                           % (head, (h >> 12) % NF, ptr, name))
            else:
                out.append("%skmem_cache_alloc call_site=alloc_site_%d+0x24 %s "
                           "bytes_req=%d bytes_alloc=%d name=%s\n"
                           % (head, (h >> 16) % NS, ptr, size, size, name))
        elif free:
            out.append("%skfree call_site=free_site_%d+0x8 %s\n" % (head, (h >> 12) % NF, ptr))
        else:
            req = 8 + (h >> 8) % 500
            out.append("%skmalloc call_site=alloc_site_%d+0x18 %s bytes_req=%d bytes_alloc=%d\n"
                       % (head, (h >> 16) % NS, ptr, req, 1 << (req - 1).bit_length()))
        ts += step
    if len(out) >= 65536:
        w("".join(out))
        out = []
w("".join(out))
PY
	"$MKTRACE" -o "$2" "$tmp/block.seq"
}

# gen_page_block N OUT: the same for the page allocator: N events (N/2
# mm_page_alloc of order 0 and N/2 mm_page_free; allocation i takes pfn slot
# i mod 2L and frees slot i-L, L = N/20), 2 CPUs, 20 tasks.
gen_page_block() {
	python3 - "$1" >"$tmp/block.seq" <<'PY'
import sys
n = int(sys.argv[1]) // 2
live = n // 10
NP = 20
w = sys.stdout.write
w("cpus 2\nkallsyms ffffffff81000000 T _stext\nkallsyms ffffffff81400000 T _etext\n")
for p in range(NP):
    w("cmdline %d task%d\n" % (1000 + p, p))
ts, out = 1000, []
for i in range(n):
    for free in (0, 1):
        j = i - live if free else i
        head = "event %d %d %d " % ((ts // 4000) % 2, ts, 1000 + (ts // 9000) % NP)
        pfn = 0x10000 + j % (2 * live)
        if free:
            out.append("%smm_page_free pfn=%#x order=0\n" % (head, pfn))
        else:
            out.append("%smm_page_alloc pfn=%#x order=0 gfp_flags=GFP_KERNEL migratetype=%d\n"
                       % (head, pfn, j % 3))
        ts += 23
    if len(out) >= 65536:
        w("".join(out))
        out = []
w("".join(out))
PY
	"$MKTRACE" -o "$2" "$tmp/block.seq"
}

# repeat_block IN OUT COPIES SHIFT_NS: each CPU's pages COPIES times, copy k
# with its page timestamps moved by k * SHIFT_NS (records hold only deltas).
repeat_block() {
	python3 - "$@" <<'PY'
import sys, struct
src, dst, copies, shift = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = open(src, "rb").read()
page = struct.unpack_from("<I", data, 14)[0]	# after magic, "6\0", endian, long size
fly = data.index(b"flyrecord\0") + 10
cpus = struct.unpack_from("<I", data, data.rindex(b"options  \0", 0, fly) - 4)[0]
table = [struct.unpack_from("<QQ", data, fly + 16 * c) for c in range(cpus)]
head = bytearray(data[:table[0][0]])
off = len(head)
for c, (o, size) in enumerate(table):
    struct.pack_into("<QQ", head, fly + 16 * c, off, size * copies)
    off += size * copies
with open(dst, "wb") as f:
    f.write(head)
    for o, size in table:
        pages = bytearray(data[o:o + size])
        q = memoryview(pages).cast("Q")
        idx = range(0, len(q), page // 8)
        ts0 = [q[p] for p in idx]
        for k in range(copies):
            for p, t in zip(idx, ts0):
                q[p] = t + k * shift
            f.write(pages)
PY
}

