# Fixed cost: what a run spends on the trace's kallsyms, in instructions
# (cachegrind: exact counts, whatever the load of the machine). A real
# trace carries the whole /proc/kallsyms (121k lines, 5 MB); its parse by
# libtraceevent when libtracecmd opens the file (sscanf, malloc and strdup
# per line, unused by kma, which names call sites from its own table) and
# kma's own table cost about 6,000 instructions per line (470 now). The budget:
# 2,000 per line, the difference between two traces that differ only in
# 120,000 kallsyms lines.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
FILL=120000
# $1: filler lines (text symbols below the call sites, as vmlinux has them)
fixed_seq() {
	awk -v n="$1" 'BEGIN {
		print "cpus 1"
		print "kallsyms ffffffff81000000 T _stext"
		for (i = 0; i < n; i++)
			printf "kallsyms ffffffff81%06x t filler_fn_%d\n", 0x100000 + i * 16, i
		print "kallsyms ffffffff82000000 t alloc_a"
		print "kallsyms ffffffff82000100 t free_a"
		print "kallsyms ffffffff82000200 T _etext"
		print "cmdline 100 bash"
		for (i = 0; i < 50; i++) {
			printf "event 0 %d 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff8880%08x bytes_req=24 bytes_alloc=32\n", 1000 + i * 10, 0x1000 + i * 64
			if (i % 2)
				printf "event 0 %d 100 kfree call_site=free_a+0x8 ptr=0xffff8880%08x\n", 1005 + i * 10, 0x1000 + i * 64
		}
	}'
}
# The instructions of a run, or nothing. The header probe's child counts from
# the fork on top of its parent's count so far and ends first (the parent
# waits for it): the last count is the parent's, the run's own.
irefs() {
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
		"$KMA" --no-db "$1" 2>&1 > /dev/null |
		awk '/I +refs:/ { gsub(/,/, "", $NF); n = $NF } END { if (n != "") print n }'
}
if ! command -v valgrind > /dev/null 2>&1; then
	skip "fixed cost: kallsyms instructions per line" "no valgrind"
elif ! { fixed_seq 0 > "$TMP/small.seq" && fixed_seq "$FILL" > "$TMP/big.seq" &&
	 "$MKTRACE" -o "$TMP/small.dat" "$TMP/small.seq" > "$TMP/mk.txt" 2>&1 &&
	 "$MKTRACE" -o "$TMP/big.dat" "$TMP/big.seq" >> "$TMP/mk.txt" 2>&1; }; then
	fail "fixed cost: mktrace" "$(cat "$TMP/mk.txt")"
else
	# the same report from both: the filler names no call site
	"$KMA" --no-db "$TMP/small.dat" > "$TMP/small.txt" 2>&1
	"$KMA" --no-db "$TMP/big.dat" > "$TMP/big.txt" 2>&1
	check "fixed cost: the $FILL filler symbols change no line of the report" \
		cmp "$TMP/small.txt" "$TMP/big.txt"
	check "fixed cost: the report names alloc_a+0x10" grep -q "alloc_a+0x10" "$TMP/big.txt"
	# valgrind cannot run an ASan binary, and the sanitizers' counts are others
	[ "$LABEL" = asan+ubsan ] || { small=$(irefs "$TMP/small.dat"); big=$(irefs "$TMP/big.dat"); }
	if [ "$LABEL" = asan+ubsan ]; then
		skip "fixed cost: kallsyms instructions per line" "sanitizer build"
	elif [ -z "$small" ] || [ -z "$big" ]; then
		fail "fixed cost: kallsyms instructions per line" "no cachegrind count"
	else
		per=$(( (big - small) / FILL ))
		check "fixed cost: $per instructions per kallsyms line (budget 2,000)" \
			test "$per" -le 2000
	fi
fi
