# kmalloc cache families from the gfp flags: kmalloc-cg-N (__GFP_ACCOUNT), kmalloc-rcl-N
# (__GFP_RECLAIMABLE), dma-kmalloc-N (__GFP_DMA), with the bits read from the trace's own
# show_gfp_flags() table. tests/kcache/kcache.seq is rendered with three bit layouts (new,
# 4.4's old one, a shuffled one no kernel has) and with no table; the caches below are
# worked out by hand from the sequence's comments, for each kernel rule; -g cache, --cache
# and report.db (allocation_caches, cache_stats) must all give them. Then the real
# fixtures against tests/tools/kcache-from-report.py over `trace-cmd report`.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
SEQ=$TOP/tests/kcache/kcache.seq

# "cache total allocs frees net", by hand. Events: 1 cg_a 64 ACCOUNT (freed by 11),
# 2 rcl_b 128 RECLAIMABLE, 3 dma_c 32 DMA, 4 prec_d 64 ACCOUNT|RECLAIMABLE,
# 5 prec_e 64 ACCOUNT|RECLAIMABLE|DMA, 6 plain_f 64, 7 big_g 2048 ACCOUNT,
# 8 large_h 16384 ACCOUNT, 9 foo_cache 192, 10 atomic_j 8, 12 cg_a 64 ACCOUNT (live).
# 5.14 on: DMA, then RECLAIMABLE, then ACCOUNT
want_514='dma-kmalloc-32 32 1 0 32
dma-kmalloc-64 64 1 0 64
foo_cache 192 1 0 192
kmalloc-64 64 1 0 64
kmalloc-8 8 1 0 8
kmalloc-cg-2k 2048 1 0 2048
kmalloc-cg-64 128 2 1 64
kmalloc-large 16384 1 0 16384
kmalloc-rcl-128 128 1 0 128
kmalloc-rcl-64 64 1 0 64'
# 4.20 - 5.13: no cg caches: 1, 12 and 6 in kmalloc-64 (192, 3 allocs, 1 freed,
# net 128), 7 in kmalloc-2k
want_420='dma-kmalloc-32 32 1 0 32
dma-kmalloc-64 64 1 0 64
foo_cache 192 1 0 192
kmalloc-2k 2048 1 0 2048
kmalloc-64 192 3 1 128
kmalloc-8 8 1 0 8
kmalloc-large 16384 1 0 16384
kmalloc-rcl-128 128 1 0 128
kmalloc-rcl-64 64 1 0 64'
# before 4.20: DMA only: 4 joins kmalloc-64 (256, 4, 1, 192), 2 is kmalloc-128
want_419='dma-kmalloc-32 32 1 0 32
dma-kmalloc-64 64 1 0 64
foo_cache 192 1 0 192
kmalloc-128 128 1 0 128
kmalloc-2k 2048 1 0 2048
kmalloc-64 256 4 1 192
kmalloc-8 8 1 0 8
kmalloc-large 16384 1 0 16384'
# no table: size only: 1, 4, 5, 6, 12 in kmalloc-64 (320, 5, 1, 256)
want_none='foo_cache 192 1 0 192
kmalloc-128 128 1 0 128
kmalloc-2k 2048 1 0 2048
kmalloc-32 32 1 0 32
kmalloc-64 320 5 1 256
kmalloc-8 8 1 0 8
kmalloc-large 16384 1 0 16384'

# text_rows DAT [OPTS]: the -g cache table as "cache total allocs frees net"
text_rows() {
	local f=$1
	shift
	"$KMA" --no-db -g cache "$@" "$f" 2> /dev/null | sed -n '/alloc\/free/,$p' | tail -n +2 |
		awk '{split($5, a, "/"); print $6, $1, a[1], a[2], $4}' | LC_ALL=C sort
}
db_rows() {	# DB: allocation_caches over the allocations
	sqlite3 -separator ' ' "$1" "SELECT c.cache, SUM(a.bytes_alloc), COUNT(*),
		SUM(a.free_ts IS NOT NULL), SUM(CASE WHEN a.free_ts IS NULL THEN a.bytes_alloc
		ELSE 0 END) FROM allocation_caches AS c JOIN allocations AS a USING (id)
		GROUP BY c.cache" | LC_ALL=C sort
}
stats_rows() {
	sqlite3 -separator ' ' "$1" "SELECT cache, total, allocs, frees, net FROM cache_stats" |
		LC_ALL=C sort
}
# filter_rows DAT WANT: for each expected cache, --cache NAME must count that row alone
filter_rows() {
	echo "$2" | while read -r c t n fr net; do
		"$KMA" --no-db --cache "$c" "$1" 2> /dev/null | awk -F': ' -v c="$c" '
			/^total bytes allocated: /	{ t = $2 }
			/^number of allocs: /		{ a = $2 }
			/^number of frees: /		{ f = $2 }
			/^net bytes allocated: /	{ n = $2 }
			END { print c, t, a, f, n }'
	done
}

# render NAME LAYOUT RELEASE WANT
render() {
	local name=$1 layout=$2 rel=$3 want=$4 seq=$TMP/$1.seq dat=$TMP/$1.dat
	{ [ -z "$rel" ] || echo "uname Linux kcache $rel x86_64"; cat "$SEQ"; } > "$seq"
	if ! "$MKTRACE" -G "$layout" -o "$dat" "$seq" > "$TMP/mk.txt" 2>&1; then
		fail "$name: mktrace" "$(cat "$TMP/mk.txt")"
		return
	fi
	"$KMA" -q -o "$TMP/$name.db" "$dat" 2> "$TMP/$name.err"
	check "$name: -g cache" test "$(text_rows "$dat")" = "$want"
	check "$name: report.db allocation_caches" test "$(db_rows "$TMP/$name.db")" = "$want"
	check "$name: report.db cache_stats" test "$(stats_rows "$TMP/$name.db")" = "$want"
	check "$name: --cache NAME selects exactly that cache" test \
		"$(filter_rows "$dat" "$want")" = "$want"
}
for layout in new old shuffled; do
	render "$layout-6.18" "$layout" "" "$want_514"
	check "$layout-6.18: no warning" test ! -s "$TMP/$layout-6.18.err"
	render "$layout-5.13" "$layout" 5.13.0 "$want_420"
	render "$layout-4.19" "$layout" 4.19.0 "$want_419"
done
check "the bits come from the trace's table (new)" test \
	"$(sqlite3 "$TMP/new-6.18.db" "SELECT kmalloc_flags IS '__GFP_DMA=0x1 __GFP_RECLAIMABLE=0x10 __GFP_ACCOUNT=0x400000' AND kmalloc_warning IS NULL FROM trace")" = 1
check "the bits come from the trace's table (old: __GFP_ACCOUNT 0x100000)" test \
	"$(sqlite3 "$TMP/old-6.18.db" "SELECT kmalloc_flags FROM trace")" = \
	"__GFP_DMA=0x1 __GFP_RECLAIMABLE=0x10 __GFP_ACCOUNT=0x100000"
check "the bits come from the trace's table (shuffled)" test \
	"$(sqlite3 "$TMP/shuffled-6.18.db" "SELECT kmalloc_flags FROM trace")" = \
	"__GFP_DMA=0x4000 __GFP_RECLAIMABLE=0x1 __GFP_ACCOUNT=0x10"
check "4.19: only __GFP_DMA is looked at" test \
	"$(sqlite3 "$TMP/new-4.19.db" "SELECT kmalloc_flags FROM trace")" = "__GFP_DMA=0x1"

# sizing_advice names the cache as allocation_caches does: cg_a's 40 bytes in kmalloc-cg-64,
# rcl_b's 100 in kmalloc-rcl-128, dma_c's 20 in dma-kmalloc-32 (layout old, 5.14 rule)
check "sizing_advice.kmalloc_cache by family" test \
	"$(sqlite3 -separator ' ' "$TMP/old-6.18.db" "SELECT caller, kmalloc_cache FROM sizing_advice
		WHERE caller IN ('cg_a+0x10', 'rcl_b+0x10', 'dma_c+0x10') ORDER BY caller" | xargs)" = \
	"cg_a+0x10 kmalloc-cg-64 dma_c+0x10 dma-kmalloc-32 rcl_b+0x10 kmalloc-rcl-128"

# --list names each kmalloc's cache as -g cache does (events 1-10 and 12 in time order,
# the 5.14 rule, shuffled bits)
check "--list: the cache column by family" test \
	"$("$KMA" --no-db --list -f csv "$TMP/shuffled-6.18.dat" 2> /dev/null |
		awk -F, 'NR > 1 { print $6 }' | xargs)" = \
	"kmalloc-cg-64 kmalloc-rcl-128 dma-kmalloc-32 kmalloc-rcl-64 dma-kmalloc-64 kmalloc-64 kmalloc-cg-2k kmalloc-large foo_cache kmalloc-8 kmalloc-cg-64"

# Globs and exclusions over the derived names (5.14 rule): kmalloc-cg-* = 128 + 2048
check "--cache 'kmalloc-cg-*'" test \
	"$(filter_rows "$TMP/shuffled-6.18.dat" "kmalloc-cg-* 0 0 0 0")" = "kmalloc-cg-* 2176 3 1 2112"
# everything but the cg caches: large 16384, foo 192, rcl-128 128, 64 * 3 (dma-64, rcl-64,
# kmalloc-64), dma-32 32, kmalloc-8 8 = 16936 in 8 allocations, none freed
check "--cache '!kmalloc-cg-*'" test \
	"$(filter_rows "$TMP/old-6.18.dat" "!kmalloc-cg-* 0 0 0 0")" = "!kmalloc-cg-* 16936 8 0 16936"

# No table: size only, and one warning on stderr and in the trace table
render none none "" "$want_none"
check "no table: one warning on stderr" test \
	"$(grep -c "warning: .*no __print_flags() table of gfp_flags.*kmalloc-N" "$TMP/none.err")" = 1
check "no table: trace.kmalloc_warning set, kmalloc_flags NULL" test \
	"$(sqlite3 "$TMP/none.db" "SELECT kmalloc_warning IS NOT NULL AND kmalloc_flags IS NULL FROM trace")" = 1

# 6.0's kmalloc has an accounted field: accounted=false with __GFP_ACCOUNT is a kernel
# without memcg, whose accounted kmallocs stay in kmalloc-N
{ sed -n '/^cpus/,/^cmdline/p' "$SEQ"
  echo "event 0 1000 100 kmalloc call_site=cg_a+0x10 ptr=0xffff888100001000 bytes_req=40 bytes_alloc=64 gfp_flags=GFP_KERNEL_ACCOUNT accounted=0"
  echo "event 0 2000 100 kmalloc call_site=cg_a+0x10 ptr=0xffff888100002000 bytes_req=40 bytes_alloc=64 gfp_flags=GFP_KERNEL_ACCOUNT"
} > "$TMP/acc.seq"
if "$MKTRACE" -g 6.0 -o "$TMP/acc.dat" "$TMP/acc.seq" > "$TMP/mk.txt" 2>&1; then
	check "6.0: accounted=false keeps kmalloc-64, accounted=true is kmalloc-cg-64" test \
		"$(text_rows "$TMP/acc.dat" | awk '{print $1, $3}' | xargs)" = "kmalloc-64 1 kmalloc-cg-64 1"
else
	fail "6.0 accounted: mktrace" "$(cat "$TMP/mk.txt")"
fi

# The real fixtures (recorded on 6.18): allocations and bytes per cache, kma's -g cache
# and cache_stats against the script over trace-cmd report
for f in basic basic-v6 markers lost lost-mid stacks; do
	F=$TOP/tests/fixtures/$f.dat
	rel=$(trace-cmd report --uname "$F" 2>/dev/null | awk '/^Linux /{print $3}')
	want=$(trace-cmd report "$F" 2>/dev/null | python3 "$TOP/tests/tools/kcache-from-report.py" "$rel" | LC_ALL=C sort)
	"$KMA" -q -o "$TMP/$f.db" "$F" 2> /dev/null
	check "$f.dat: cache_stats = trace-cmd report" test \
		"$(sqlite3 -separator ' ' "$TMP/$f.db" "SELECT cache, allocs, total FROM cache_stats" | LC_ALL=C sort)" = "$want"
	check "$f.dat: -g cache = trace-cmd report" test \
		"$(text_rows "$F" | awk '{print $1, $3, $2}')" = "$want"
	check "$f.dat: has kmalloc-cg caches" sh -c "echo '$want' | grep -q '^kmalloc-cg-'"
	check "$f.dat: sizing_advice names allocation_caches' caches" test "$(sqlite3 "$TMP/$f.db" \
		"SELECT COUNT(*) FROM sizing_advice AS s WHERE NOT EXISTS (SELECT 1 FROM allocations
		 AS a JOIN allocation_caches AS c USING (id) WHERE a.caller = s.caller AND
		 a.bytes_req = s.bytes_req AND a.bytes_alloc = s.bytes_alloc AND
		 c.cache = s.kmalloc_cache)")" = 0
done

# The size classes at their edges, written once in C: report.db's kmalloc_caches (which
# the views allocation_caches, cache_stats and sizing_advice read) names each (family,
# size) as -g cache does. By hand: 96 -> kmalloc-96; 1536 -> 1536 / 1024 = 1 ->
# kmalloc-1k; 1024 ACCOUNT -> kmalloc-cg-1k; 8192 RECLAIMABLE -> kmalloc-rcl-8k (8192 is
# the last slab size); 8193 ACCOUNT -> kmalloc-large (over 8192, whatever the flags).
{ sed -n '/^cpus/,/^cmdline/p' "$SEQ"
  echo "event 0 1000 100 kmalloc call_site=plain_f+0x10 ptr=0xffff888100001000 bytes_req=90 bytes_alloc=96 gfp_flags=GFP_KERNEL"
  echo "event 0 2000 100 kmalloc call_site=plain_f+0x10 ptr=0xffff888100002000 bytes_req=1500 bytes_alloc=1536 gfp_flags=GFP_KERNEL"
  echo "event 0 3000 100 kmalloc call_site=cg_a+0x10 ptr=0xffff888100003000 bytes_req=1000 bytes_alloc=1024 gfp_flags=GFP_KERNEL_ACCOUNT"
  echo "event 0 4000 100 kmalloc call_site=rcl_b+0x10 ptr=0xffff888100004000 bytes_req=8000 bytes_alloc=8192 gfp_flags=GFP_KERNEL|__GFP_RECLAIMABLE"
  echo "event 0 5000 100 kmalloc call_site=big_g+0x10 ptr=0xffff888100005000 bytes_req=8193 bytes_alloc=8193 gfp_flags=GFP_KERNEL_ACCOUNT"
} > "$TMP/edges.seq"
want_edges='0 96 kmalloc-96
0 1536 kmalloc-1k
1 1024 kmalloc-cg-1k
1 8193 kmalloc-large
2 8192 kmalloc-rcl-8k'
if "$MKTRACE" -o "$TMP/edges.dat" "$TMP/edges.seq" > "$TMP/mk.txt" 2>&1 &&
   "$KMA" -q -o "$TMP/edges.db" "$TMP/edges.dat" 2> "$TMP/edges.err"; then
	check "size-class edges: report.db kmalloc_caches, by hand" test \
		"$(sqlite3 -separator ' ' "$TMP/edges.db" "SELECT kmalloc_type, bytes_alloc, name
			FROM kmalloc_caches ORDER BY 1, 2")" = "$want_edges"
	check "size-class edges: allocation_caches, by hand" test \
		"$(sqlite3 "$TMP/edges.db" "SELECT c.cache FROM allocation_caches AS c JOIN allocations
			AS a USING (id) ORDER BY a.alloc_ts" | xargs)" = \
		"kmalloc-96 kmalloc-1k kmalloc-cg-1k kmalloc-rcl-8k kmalloc-large"
	check "size-class edges: cache_stats and -g cache name the same caches" test \
		"$(stats_rows "$TMP/edges.db" | awk '{print $1}' | xargs)" = \
		"$(text_rows "$TMP/edges.dat" | awk '{print $1}' | xargs)"
	check "size-class edges: -g cache, by hand" test \
		"$(text_rows "$TMP/edges.dat" | awk '{print $1}' | xargs)" = \
		"kmalloc-1k kmalloc-96 kmalloc-cg-1k kmalloc-large kmalloc-rcl-8k"
else
	fail "size-class edges: mktrace or kma-analyze" "$(cat "$TMP/mk.txt" "$TMP/edges.err" 2>/dev/null)"
fi
# the SQL outside comments: no size class, no kmalloc-large
check "the size-class rule is not copied into schema/kma.sql" sh -c \
	"sed 's/--.*//' '$TOP/schema/kma.sql' | (! grep -n 'kmalloc-large\\|8192')"
