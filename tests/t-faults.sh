# Page faults of the big tables (kma-huge.c). The pointer map, the live set's
# slab and the matcher's arrays are megabytes written at random; on 4 KB pages
# each page costs a fault at its first write (in a virtual machine a fault
# costs microseconds) and the map's random lookups miss the TLB. Advised for
# transparent huge pages, aligned, they fault once per 2 MB. The check: a run
# with 300,000 allocations live at the end faults at most a third as often as
# its peak resident size has 4 KB pages (about 14,600 faults for 48 MB on 4 KB
# pages, 4,200 for 72 MB with huge pages: the kernel's count, no timing).
# GNU time reports the count: a wrapper that forks (Python's subprocess)
# adds the copy-on-write faults of its own fork to the child's.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
THP=/sys/kernel/mm/transparent_hugepage/enabled
live_seq() {
	awk 'BEGIN {
		print "cpus 2"
		print "kallsyms ffffffff81000000 T _stext"
		print "kallsyms ffffffff82000000 t alloc_a"
		print "kallsyms ffffffff82000200 T _etext"
		print "cmdline 100 bash"
		for (i = 0; i < 300000; i++)
			printf "event %d %d 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff8880%08x bytes_req=24 bytes_alloc=32\n", i % 2, 1000 + i * 10, 0x1000 + i * 64
	}'
}
if [ "$LABEL" = asan+ubsan ]; then
	# the sanitizers' allocator and shadow memory fault on their own
	skip "faults: per 4 KB of the resident set" "sanitizer build"
elif [ ! -x /usr/bin/time ]; then
	skip "faults: per 4 KB of the resident set" "no /usr/bin/time (package time)"
elif ! grep -q '\[always\]\|\[madvise\]' "$THP" 2>/dev/null; then
	skip "faults: per 4 KB of the resident set" \
		"transparent huge pages are off here ($(cat "$THP" 2>/dev/null || echo "no $THP"))"
elif ! { live_seq > "$TMP/live.seq" &&
	 "$MKTRACE" -o "$TMP/live.dat" "$TMP/live.seq" > "$TMP/mk.txt" 2>&1; }; then
	fail "faults: mktrace" "$(cat "$TMP/mk.txt")"
else
	/usr/bin/time -f "%x %R %M" -o "$TMP/time.txt" "$KMA" --no-db "$TMP/live.dat" > "$TMP/out.txt" 2>&1
	read -r rc flt rss < "$TMP/time.txt"
	check "faults: the run counted 300000 allocations, all live" \
		grep -qx "net bytes allocated: 9600000" "$TMP/out.txt"
	check "faults: exit 0" test "$rc" = 0
	check "faults: $flt faults for a peak of $rss KB (budget $((rss / 4 / 3)))" \
		test "$flt" -gt 0 -a "$flt" -le $((rss / 4 / 3))
fi
