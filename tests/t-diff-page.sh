# kma-diff --kind page (kma-diff(1)): the page allocator's rows of two runs.
# - hand-worked: tests/pages/basic.seq (BASE) against tests/diff-page/new.seq (NEW), the rows
#   of tests/diff-page/expect.txt for every grouping of kma-analyze --pages and the filters,
#   with trace, report.db and mixed operands; the sums and durations; --fail-if --key;
# - the recorded fixtures exp-noleak.dat against exp-leak.dat by order, comm, pid and
#   generation against tests/tools/pages-from-report.py over trace-cmd report;
# - what cannot be: a report.db without page rows, -g stack without page stacks, the
#   groupings and options of other kinds (usage errors, one line each).
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
DIFF=$TOP/$B/analyzer/kma-diff
EXP=$TOP/tests/diff-page
BASE=$TMP/base.dat NEW=$TMP/new.dat

# rows_of OPTS: the hand-worked rows of the block "= OPTS" of expect.txt
rows_of() {
	awk -v o="$1" '/^= /{ on = substr($0, 3) == o; next } /^#/ { next } on && NF' \
		"$EXP/expect.txt"
}

if "$MKTRACE" -o "$BASE" "$TOP/tests/pages/basic.seq" > "$TMP/mk.txt" 2>&1 &&
   "$MKTRACE" -o "$NEW" "$EXP/new.seq" >> "$TMP/mk.txt" 2>&1; then
	"$KMA" -q --pages -o "$TMP/base.db" "$BASE" 2> /dev/null
	"$KMA" -q --pages -o "$TMP/new.db" "$NEW" 2> /dev/null
	sed -n 's/^= //p' "$EXP/expect.txt" > "$TMP/blocks.txt"
	check "page diff: expect.txt has every grouping's block" test "$(grep -c '^-g ' "$TMP/blocks.txt")" = 8
	while read -r opts; do
		rows_of "$opts" > "$TMP/want.txt"
		ops_list="$BASE $NEW|$TMP/base.db $TMP/new.db"
		# a report.db and a trace: a block of the default grouping and a filtered one
		case $opts in -g\ function|--comm\ *) ops_list="$ops_list|$TMP/base.db $NEW" ;; esac
		IFS='|' read -ra opss <<< "$ops_list"
		for ops in "${opss[@]}"; do
			# shellcheck disable=SC2086
			check "page diff: --kind page $opts (${ops##*/}) = by hand" sh -c "
				test -s '$TMP/want.txt' &&
				'$DIFF' --kind page $opts -f csv $ops > '$TMP/got.csv' &&
				sed -n 1p '$TMP/got.csv' | grep -q '^key,base_total,' &&
				tail -n +2 '$TMP/got.csv' | diff '$TMP/want.txt' -"
		done
	done < "$TMP/blocks.txt"
	# the default grouping is the caller, which for pages is the function
	check "page diff: no -g and -g caller are -g function" sh -c "
		'$DIFF' --kind page '$BASE' '$NEW' > '$TMP/a.txt' &&
		'$DIFF' --kind page -g caller '$BASE' '$NEW' > '$TMP/b.txt' &&
		cmp '$TMP/a.txt' '$TMP/b.txt' &&
		grep -qx 'function keys: 2 in base, 3 in new: 1 new, 0 gone, 2 changed, 0 unchanged' \
			'$TMP/a.txt' && grep -q ' function\$' '$TMP/a.txt'"
	rows_of "-g order" > "$TMP/order.txt"
	check "page diff: -g given before --kind page" sh -c "test -s '$TMP/order.txt' &&
		'$DIFF' -g order --kind page -f csv '$BASE' '$NEW' | tail -n +2 |
		diff '$TMP/order.txt' -"
	# sums (expect.txt's header): BASE 9 pages, 3 live, 5 allocs, 3 frees; NEW 16 pages,
	# 13 live, 5 allocs, 2 frees; the traces last 9500 - 1000 and 8000 - 1000 ns
	for ops in "$BASE $NEW" "$TMP/base.db $TMP/new.db"; do
		# shellcheck disable=SC2086
		check "page diff: the sums and durations (${ops##*/})" sh -c "
			'$DIFF' --kind page -f json $ops | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d[\"summary\"]
got = [s[k + \"_\" + m] for k in (\"base\", \"new\") for m in (\"total\", \"net\", \"allocs\", \"frees\")]
assert got == [36864, 12288, 5, 3, 65536, 53248, 5, 2], got
assert (d[\"base\"][\"duration_ns\"], d[\"new\"][\"duration_ns\"]) == (8500, 7000), d
assert d[\"key\"] == \"function\", d[\"key\"]
'"
		# generation 'second': from its marker (4500, 3500 ns) to the last event
		# shellcheck disable=SC2086
		check "page diff: --generation second's length and label (${ops##*/})" sh -c "
			'$DIFF' --kind page --generation second -f json $ops | python3 -c '
import json, sys
d = json.load(sys.stdin)
got = [(d[s][\"duration_ns\"], d[s][\"generation\"], d[s][\"generation_label\"]) for s in (\"base\", \"new\")]
assert got == [(5000, 1, \"second\"), (4500, 1, \"second\")], got
'"
	done
	# a gate on a page row: trace-cmd's net grew by 32768 (n5)
	"$DIFF" --kind page -g comm --fail-if 'net>+32767' --key trace-cmd -q "$BASE" "$NEW" \
		2> "$TMP/err.txt"
	rc=$?
	check "page diff: --fail-if on --key trace-cmd holds: exit 3" sh -c "test $rc = 3 &&
		grep -qx \"kma-diff: --fail-if 'net>+32767' holds for trace-cmd: net changed by +32768\" '$TMP/err.txt'"
	"$DIFF" --kind page -g comm --fail-if 'net>+32768' --key trace-cmd -q "$BASE" "$NEW"
	check "page diff: --fail-if on --key trace-cmd does not hold: exit 0" test $? = 0
	"$DIFF" --kind page -g order --fail-if 'net>0' --key bash "$BASE" "$NEW" > /dev/null 2> "$TMP/err.txt"
	rc=$?
	check "page diff: --key names a key of the grouping" sh -c "test $rc = 1 &&
		grep -q \"^kma-diff: --key 'bash': no order of that name in \" '$TMP/err.txt'"

	# what cannot be compared: one line naming the file, exit 1
	"$KMA" -q -o "$TMP/noprg.db" "$BASE" 2> /dev/null
	"$DIFF" --kind page "$TMP/noprg.db" "$TMP/new.db" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	check "page diff: a report.db written without --pages: exit 1, one line naming it" sh -c "
		test $rc = 1 && test ! -s '$TMP/out.txt' && test \$(wc -l < '$TMP/err.txt') = 1 &&
		grep -q '^kma-diff: $TMP/noprg.db: no page allocator rows (written without --pages' '$TMP/err.txt'"
	"$DIFF" --kind page "$TMP/base.db" "$TOP/tests/fixtures/kinds-bpf.dat" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	check "page diff: a trace without page events: exit 1, kma-analyze's line names it" sh -c "
		test $rc = 1 && test ! -s '$TMP/out.txt' &&
		grep -q '^kma-analyze: $TOP/tests/fixtures/kinds-bpf.dat: no page allocator events' '$TMP/err.txt'"
	# damaged report.db files: a byte count past 2^63 - 1 (4 pages of 2^61 bytes), an order
	# past 62; refused, never a wrong number
	cp "$TMP/base.db" "$TMP/big.db"
	cp "$TMP/base.db" "$TMP/ord.db"
	python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute('UPDATE page_trace SET page_size = 1 << 61'); c.commit()
c = sqlite3.connect(sys.argv[2]); c.execute('UPDATE page_shapes SET page_order = 63 WHERE id = 1'); c.commit()
" "$TMP/big.db" "$TMP/ord.db"
	for f in big ord; do
		"$DIFF" --kind page "$TMP/$f.db" "$TMP/new.db" > "$TMP/out.txt" 2> "$TMP/err.txt"
		rc=$?
		check "page diff: a damaged report.db ($f): exit 1, one line naming it" sh -c "
			test $rc = 1 && test ! -s '$TMP/out.txt' && test \$(wc -l < '$TMP/err.txt') = 1 &&
			grep -q '^kma-diff: $TMP/$f.db: .*(damaged, or not written by kma-analyze)\$' '$TMP/err.txt'"
	done
	"$MKTRACE" -o "$TMP/gens.dat" "$TOP/tests/pages/gens.seq" > "$TMP/mk.txt" 2>&1
	"$DIFF" --kind page -g stack "$BASE" "$TMP/gens.dat" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	check "page diff: -g stack of a run without page stacks: exit 1, one line naming it" sh -c "
		test $rc = 1 && test ! -s '$TMP/out.txt' && test \$(wc -l < '$TMP/err.txt') = 1 &&
		grep -q '^kma-diff: $TMP/gens.dat: no call stacks on its page allocations' '$TMP/err.txt'"
	for opts in "-g module" "-g file" "-g cache" "-g accounted" "-g bogus" \
		    "--cache kmalloc-64" "--rate"; do
		# shellcheck disable=SC2086
		"$DIFF" --kind page $opts "$BASE" "$NEW" > "$TMP/out.txt" 2> "$TMP/err.txt"
		rc=$?
		check "page diff: --kind page $opts is a usage error" sh -c "
			test $rc = 2 && test ! -s '$TMP/out.txt' &&
			test \$(grep -vc '^Try ' '$TMP/err.txt') = 1"
	done
	# -o keeps the report.db each trace operand was analyzed into (with --pages): the
	# same rows as kma-analyze --pages writes, and the same diff when read back
	"$DIFF" --kind page -f csv -o "$TMP/keep-b.db" -o "$TMP/keep-n.db" "$BASE" "$NEW" \
		> "$TMP/kept.csv" 2> /dev/null
	"$DIFF" --kind page -f csv "$TMP/keep-b.db" "$TMP/keep-n.db" > "$TMP/read.csv" 2> /dev/null
	check "page diff: -o keeps both report.dbs, read back to the same rows" sh -c "
		test -s '$TMP/kept.csv' && cmp '$TMP/kept.csv' '$TMP/read.csv' &&
		test \"\$(sqlite3 '$TMP/keep-n.db' 'SELECT pfn, alloc_ts FROM page_alloc_rows ORDER BY 1, 2')\" = \
		     \"\$(sqlite3 '$TMP/new.db' 'SELECT pfn, alloc_ts FROM page_alloc_rows ORDER BY 1, 2')\" &&
		test \"\$(sqlite3 '$TMP/keep-b.db' 'SELECT COUNT(*) FROM page_alloc_rows')\" -gt 0"
	"$DIFF" --kind page -g module "$BASE" "$NEW" 2> "$TMP/err.txt"
	check "page diff: -g module says why" grep -qx "kma-diff: --kind page cannot group by 'module': a page's caller is a function of its stack, no call site with a module or file" "$TMP/err.txt"
	"$DIFF" --kind page -g cache "$BASE" "$NEW" 2> "$TMP/err.txt"
	check "page diff: -g cache says why" grep -qx "kma-diff: --kind page cannot group by 'cache': the slab allocator's only" "$TMP/err.txt"
else
	fail "page diff: mktrace" "$(cat "$TMP/mk.txt")"
fi

# The recorded fixtures (tests/fixtures/README.md: one experiment without a leak, one
# with): every row of -g order, comm and pid, whole and in generation 2 (after the marker
# 'kma: iteration 2'), against tests/tools/pages-from-report.py over trace-cmd report.
# Both were recorded on x86-64: PAGE_SIZE 4096.
A=$TOP/tests/fixtures/exp-noleak.dat Z=$TOP/tests/fixtures/exp-leak.dat
PFR=$TOP/tests/tools/pages-from-report.py
# expected_rows TRACE [FILTER...]: pages-from-report.py's rows of TRACE
expected_rows() {
	local t=$1
	shift
	trace-cmd report -R "$t" 2> /dev/null | grep -E 'mm_page_|kma:' | python3 "$PFR" "$@"
}
if [ -f "$A" ] && [ -f "$Z" ] && command -v trace-cmd > /dev/null; then
	"$KMA" -q --pages -o "$TMP/a.db" "$A" 2> /dev/null
	"$KMA" -q --pages -o "$TMP/z.db" "$Z" 2> /dev/null
	for gen in "" 2; do
		memo "$TMP/a.rows" "pages-diff-rows $A $PFR $gen" expected_rows "$A" ${gen:+--generation $gen}
		memo "$TMP/z.rows" "pages-diff-rows $Z $PFR $gen" expected_rows "$Z" ${gen:+--generation $gen}
		for g in order comm pid; do
			check "page diff: exp-noleak.dat against exp-leak.dat -g $g${gen:+ --generation $gen} = pages-from-report.py" \
				sh -c "'$DIFF' --kind page -g $g ${gen:+--generation $gen} -f csv '$TMP/a.db' '$TMP/z.db' |
				python3 '$TOP/tests/tools/pages-diff-expect.py' '$TMP/a.rows' '$TMP/z.rows' $g 4096"
		done
	done
	check "page diff: exp-noleak.dat against exp-leak.dat -g comm: traces = report.db" sh -c "
		'$DIFF' --kind page -g comm -f csv '$A' '$Z' > '$TMP/a.csv' &&
		'$DIFF' --kind page -g comm -f csv '$TMP/a.db' '$TMP/z.db' > '$TMP/b.csv' &&
		test \$(wc -l < '$TMP/a.csv') -gt 5 && cmp '$TMP/a.csv' '$TMP/b.csv'"
else
	skip "page diff: the exp fixtures" "no tests/fixtures/exp-*.dat or no trace-cmd"
fi
