# The percpu and vmalloc allocators as kma reads them, before any matching: for the
# hand-built sequences of tests/kinds (every percpu layout, word size and byte order)
# and the fixtures recorded on this kernel (tests/fixtures/kinds-*.dat), against
# tests/tools/kinds-check.py over trace-cmd report:
# - kma-analyze --count's percpu and vmalloc lines (records per event, failed vmap
#   reservations, bytes);
# - the callers kma's reader and stack layer give each successful allocation (a
#   percpu call_site, a vmap area's first frame outside the vmalloc allocator), with
#   their bytes and allocations (tests/kinds/kma-kinds-callers);
# - for the sequences, the checker's whole output against the numbers worked out by
#   hand in tests/kinds/NAME.expect (NAME.old.expect: the percpu layout before 5.19);
# - slab-only traces print no percpu or vmalloc lines.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
CHECK="python3 $TOP/tests/tools/kinds-check.py"
CALLERS=$TOP/$B/tests/kinds/kma-kinds-callers

# kinds_vs_checker NAME DAT REPORT [BUFFER]: --count and the callers of DAT against
# the checker's output REPORT.
kinds_vs_checker() {
	local name=$1 dat=$2 want=$3 buf=${4:-} b=()

	[ -n "$buf" ] && b=(-B "$buf")
	if "$KMA" --count "${b[@]}" "$dat" > "$TMP/count.txt" 2> "$TMP/count.err"; then
		grep -E '^(percpu|vmap)_' "$TMP/count.txt" | grep -v '^percpu_missing ' > "$TMP/got.txt"
		sed -n 's/^count //p' "$want" > "$TMP/want.txt"
		check "kinds $name: --count's percpu and vmalloc lines = the checker's" \
			cmp "$TMP/want.txt" "$TMP/got.txt"
	else
		fail "kinds $name: --count" "$(cat "$TMP/count.err")"
	fi
	if [ ! -x "$CALLERS" ]; then
		fail "kinds $name: callers" "$CALLERS is not built (make unit)"
	elif "$CALLERS" "${b[@]}" "$dat" > "$TMP/got.txt" 2> "$TMP/callers.err"; then
		# a name may hold a space ([no stack]): net= and frees= dropped by position from the end
		sed -n 's/^\(caller .*\) \(total=[0-9]*\) net=-*[0-9]* \(allocs=[0-9]*\) frees=[0-9]*$/\1 \2 \3/p' \
			"$want" | LC_ALL=C sort > "$TMP/want.txt"
		LC_ALL=C sort "$TMP/got.txt" > "$TMP/got-sorted.txt"
		check "kinds $name: callers, bytes and allocations = the checker's" \
			cmp "$TMP/want.txt" "$TMP/got-sorted.txt"
	else
		fail "kinds $name: callers" "$(cat "$TMP/callers.err")"
	fi
}

# generation:word size:byte order; 5.10 has the percpu layout before 5.19
KIND_VARIANTS="6.18:8:little 5.10:8:little 6.18:4:little 6.18:8:big 5.10:4:big 5.19:8:little"
if [ "$SWEEP" = short ]; then
	drop "kinds: the variants 5.10:8 6.18:4 6.18:8:big" \
		"format sweep, run in the plain pass; here 6.18:8, 5.10:4:big, 5.19:8"
	KIND_VARIANTS="6.18:8:little 5.10:4:big 5.19:8:little"
fi
for seq in "$TOP"/tests/kinds/*.seq; do
	name=$(basename "$seq" .seq)
	for v in $KIND_VARIANTS; do
		IFS=: read -r gen long endian <<< "$v"
		exp=${seq%.seq}.expect
		[ "$gen" = 5.10 ] && exp=${seq%.seq}.old.expect
		dat=$TMP/$name-$(echo "$v" | tr ':' '-').dat
		if ! "$MKTRACE" -g "$gen" -l "$long" -E "$endian" -o "$dat" "$seq" \
			> "$TMP/mk.txt" 2>&1; then
			fail "kinds $name $v: mktrace" "$(cat "$TMP/mk.txt")"
			continue
		fi
		trace-cmd report -i "$dat" 2> /dev/null | $CHECK > "$TMP/$name.check"
		grep -v '^#' "$exp" > "$TMP/exp.txt"
		check "kinds $name $v: the checker = the numbers worked by hand" \
			cmp "$TMP/exp.txt" "$TMP/$name.check"
		kinds_vs_checker "$name $v" "$dat" "$TMP/$name.check"
		if [ "$gen" = 5.10 ]; then
			check "kinds $name $v: --count names the fields the old layout lacks" \
				grep -qx 'percpu_missing call_site,bytes_alloc,gfp_flags' "$TMP/count.txt"
		else
			check "kinds $name $v: --count has no percpu_missing" \
				sh -c "! grep -q '^percpu_missing' '$TMP/count.txt'"
		fi
	done
done

# The recorded fixtures: their events are in the instance "kmank", and nothing was lost
# (the checker knows nothing of lost events).
for f in "$TOP"/tests/fixtures/kinds-*.dat; do
	name=$(basename "$f" .dat)
	memo "$TMP/$name.check" "kinds-check $f $TOP/tests/tools/kinds-check.py" \
		sh -c "trace-cmd report -i '$f' 2> /dev/null | $CHECK --buffer kmank"
	check "kinds $name: no lost events, both kinds present" sh -c "
		'$KMA' --count '$f' | grep -qx 'lost 0' &&
		grep -q '^summary percpu ' '$TMP/$name.check' &&
		grep -q '^summary vmalloc ' '$TMP/$name.check'"
	kinds_vs_checker "$name" "$f" "$TMP/$name.check"
	# the report's "Kernel memory by allocator": allocations, bytes, net and peak per kind
	check "kinds $name: kernel memory by allocator = the checker's summary" sh -c "
		'$KMA' --no-db '$f' 2> /dev/null | awk '
			/^Kernel memory by allocator/ { on = 1; getline; next }
			on && NF == 5 { print \"summary\", \$1, \"allocs=\" \$2, \"bytes=\" \$3,
					\"net=\" \$4, \"peak=\" \$5; next }
			on { exit }' > '$TMP/$name.kinds' &&
		[ -s '$TMP/$name.kinds' ] &&
		grep '^summary' '$TMP/$name.check' |
		sed -E 's/ frees=[0-9]+ unknown_frees=[0-9]+ implicit_frees=[0-9]+ failed=[0-9]+//' |
		diff - '$TMP/$name.kinds'"
	kinds_vs_checker "$name -B kmank" "$f" "$TMP/$name.check" kmank
done
# the vmap callers of the fixtures: fork's thread stacks (copy_process) and, in
# kinds-bpf.dat, the BPF array maps (__bpf_map_area_alloc), none inside vmalloc
check "kinds: the fixtures' vmap callers are outside the vmalloc allocator" sh -c "
	'$CALLERS' '$TOP/tests/fixtures/kinds-bpf.dat' > '$TMP/bpf-callers.txt' &&
	grep -q '^caller vmalloc copy_process ' '$TMP/bpf-callers.txt' &&
	grep -q '^caller vmalloc __bpf_map_area_alloc ' '$TMP/bpf-callers.txt' &&
	! grep -Eq '^caller vmalloc _*(alloc_vmap_area|get_vm_area|vmalloc|vzalloc|vmap)' \
		'$TMP/bpf-callers.txt'"

# a trace without percpu or vmalloc records: --count as it always was
check "kinds: a slab-only trace's --count has no percpu or vmalloc line" sh -c "
	'$KMA' --count '$TOP/tests/fixtures/basic.dat' > '$TMP/basic-count.txt' &&
	! grep -Eq '^(percpu|vmap)_' '$TMP/basic-count.txt'"

# Sizes past the address space (docs/supported-traces.md): a vmap area of 2^57 bytes is
# refused naming the event; a failed one of that size passes (no bytes are counted)
{
	printf 'cpus 1\nkallsyms ffffffff81000000 T _stext\nkallsyms ffffffff81400000 T _etext\n'
	printf 'cmdline 100 bash\n'
	printf 'event 0 1000 100 alloc_vmap_area addr=-12 size=0x200000000000000 failed=1\n'
	printf 'event 0 1500 100 percpu_alloc_percpu call_site=0 size=8 bytes_alloc=16 ptr=0x10\n'
} > "$TMP/big.seq"
cp "$TMP/big.seq" "$TMP/big-ok.seq"
echo 'event 0 2000 100 alloc_vmap_area addr=0xffffc90000100000 size=0x200000000000000' >> "$TMP/big.seq"
if "$MKTRACE" -o "$TMP/big.dat" "$TMP/big.seq" > "$TMP/mk.txt" 2>&1 &&
   "$MKTRACE" -o "$TMP/big-ok.dat" "$TMP/big-ok.seq" >> "$TMP/mk.txt" 2>&1; then
	"$KMA" --count "$TMP/big.dat" > /dev/null 2> "$TMP/big.err"
	rc=$?
	check "kinds: a 2^57-byte vmap area is refused, exit 1, one line naming it" sh -c "
		test $rc = 1 && test \$(wc -l < '$TMP/big.err') = 1 &&
		grep -qx 'kma-analyze: $TMP/big.dat: cpu 0, ts 2000 ns: alloc_vmap_area bytes_alloc 144115188075855872 is more than one allocation of a 64-bit kernel can be (2^56 bytes)' '$TMP/big.err'"
	check "kinds: a failed 2^57-byte vmap area passes, no bytes" sh -c "
		'$KMA' --count '$TMP/big-ok.dat' > '$TMP/big-ok.txt' &&
		grep -qx 'vmap_failed 1' '$TMP/big-ok.txt' && grep -qx 'vmap_bytes 0' '$TMP/big-ok.txt' &&
		grep -qx 'percpu_bytes 16' '$TMP/big-ok.txt'"
else
	fail "kinds: mktrace of the big vmap areas" "$(cat "$TMP/mk.txt")"
fi
