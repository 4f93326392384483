# The caller tables of every allocator kind (kma-analyze(1), "Kernel memory by allocator"):
# - tests/kinds-report/report.seq (slab, percpu and vmalloc; two tasks; a generation
#   marker) against the tables worked out by hand beside it: every kind's table in
#   CSV, -g comm across kinds, --kind with --comm, --generation, --outstanding,
#   --caller, -s/-n; the text sections and the one text table with a kind column;
# - the recorded fixtures (tests/fixtures/kinds-*.dat): every percpu and vmalloc row,
#   by caller and by function, against tests/tools/kinds-check.py --rows over
#   trace-cmd report; a percpu- and vmalloc-only trace prints no slab table;
# - --kind's usage errors, and a kind the trace lacks;
# - slab alone as before: --kind slab prints what no --kind prints;
# - kma-diff --kind: hand-worked (report.seq against new.seq, trace and report.db
#   operands) and the fixtures by function (both operand types)
#   against a join of the checker's rows.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
CHECK="python3 $TOP/tests/tools/kinds-check.py"
EXP=$TOP/tests/kinds-report
DAT=$TMP/report.dat

# same NAME WANT CMD...: CMD's stdout is the file WANT, byte for byte
same() {
	local name=$1 want=$2
	shift 2
	if "$@" > "$TMP/got.txt" 2> "$TMP/err.txt"; then
		check "$name" diff "$want" "$TMP/got.txt"
	else
		fail "$name" "exit $?: $(head -3 "$TMP/err.txt")"
	fi
}

if "$MKTRACE" -o "$DAT" "$EXP/report.seq" > "$TMP/mk.txt" 2>&1; then
	same "kinds report: every kind's rows, -f csv" "$EXP/default.csv" \
		"$KMA" --no-db -f csv "$DAT"
	same "kinds report: --kind all is the default" "$EXP/default.csv" \
		"$KMA" --no-db -f csv --kind all "$DAT"
	same "kinds report: -g comm across the kinds, a kind column" "$EXP/comm.csv" \
		"$KMA" --no-db -f csv -g comm "$DAT"
	same "kinds report: --kind percpu --comm kworker/1:0" "$EXP/percpu-kworker.csv" \
		"$KMA" --no-db -f csv --kind percpu --comm kworker/1:0 "$DAT"
	same "kinds report: --kind percpu --outstanding" "$EXP/percpu-outstanding.csv" \
		"$KMA" --no-db -f csv --kind percpu --outstanding "$DAT"
	same "kinds report: --kind vmalloc --generation g1" "$EXP/vmalloc-g1.csv" \
		"$KMA" --no-db -f csv --kind vmalloc --generation g1 "$DAT"
	same "kinds report: --caller on a vmap area's caller frame" "$EXP/caller-bpf.csv" \
		"$KMA" --no-db -f csv --caller '^bpf_map_area_alloc' "$DAT"
	same "kinds report: -s net -n 2 across the kinds" "$EXP/net2.csv" \
		"$KMA" --no-db -f csv -s net -n 2 "$DAT"
	# JSON: the same rows, a kind member, the kinds' sums in the summary
	check "kinds report: -f json's rows and summary" sh -c "
		'$KMA' --no-db -f json --kind percpu,vmalloc '$DAT' | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d[\"summary\"]
# percpu 224 + vmalloc 28672 bytes; 3 + 3 allocations; 2 + 1 frees (1 unknown)
assert (s[\"total\"], s[\"net\"], s[\"allocs\"], s[\"frees\"], s[\"unknown_frees\"],
        s[\"failed_allocs\"], s[\"callers\"]) == (28896, 12416, 6, 3, 1, 1, 4), s
rows = [(r[\"kind\"], r[\"caller\"], r[\"total\"]) for r in d[\"rows\"]]
assert rows == [(\"vmalloc\", \"bpf_map_area_alloc+0x60\", 20480),
                (\"vmalloc\", \"__ioremap_caller+0x80\", 8192),
                (\"percpu\", \"mem_cgroup_css_alloc+0x20\", 192),
                (\"percpu\", \"alloc_netdev_mqs+0x40\", 32)], rows
assert \"slack\" not in d[\"rows\"][0], d[\"rows\"][0]
'"
	# text: each kind its section, headed by the kind, slack only where it has one
	"$KMA" --no-db "$DAT" > "$TMP/text.txt" 2>&1
	check "kinds report: text, one section per kind in order, headed by it" sh -c "
		grep -E '^[a-z]+ allocations by ' '$TMP/text.txt' | tr '\n' ' ' |
		grep -qx 'slab allocations by caller percpu allocations by caller vmalloc allocations by caller '"
	cat > "$TMP/want.txt" <<-'EOF'
	percpu allocations by caller
	total bytes allocated: 224
	net bytes allocated: 128
	number of allocs: 3
	number of frees: 2
	number of callers: 2
	number of unknown frees: 1
	number of null frees: 0
	number of implicit frees: 0
	number of failed allocs: 0
	number of lost events: 0

	Sorted by total.
	total net alloc/free  caller
	  192  96        2/1  mem_cgroup_css_alloc+0x20
	   32  32        1/0  alloc_netdev_mqs+0x40

	vmalloc allocations by caller
	total bytes allocated: 28672
	net bytes allocated: 12288
	number of allocs: 3
	number of frees: 1
	number of callers: 2
	number of unknown frees: 0
	number of null frees: 0
	number of implicit frees: 0
	number of failed allocs: 1
	number of lost events: 0

	Sorted by total.
	total  net alloc/free  caller
	20480 4096        2/1  bpf_map_area_alloc+0x60
	 8192 8192        1/0  __ioremap_caller+0x80
	EOF
	check "kinds report: text, the percpu and vmalloc sections worked by hand" sh -c "
		sed -n '/^percpu allocations by caller\$/,\$p' '$TMP/text.txt' | diff '$TMP/want.txt' -"
	check "kinds report: text, the slab section is slab's table" sh -c "
		sed -n '/^slab allocations by caller\$/,/^\$/p' '$TMP/text.txt' | grep -qx 'slack bytes allocated: 24' &&
		sed -n '/^slab allocations by caller\$/,/^percpu/p' '$TMP/text.txt' |
		grep -Eqx ' *64 +24 +37.500 +0 +1/1 +alloc_a\\+0x10'"
	cat > "$TMP/want.txt" <<-'EOF'
	Sorted by total.
	total slack slack%  net alloc/free  kind     comm
	20480     -      - 4096        2/1  vmalloc  bash
	 8192     -      - 8192        1/0  vmalloc  kworker/1:0
	  128     -      -  128        2/0  percpu   kworker/1:0
	   96     -      -    0        1/1  percpu   bash
	   64    24 37.500    0        1/1  slab     bash
	EOF
	check "kinds report: text -g comm, one table with a kind column" sh -c "
		'$KMA' --no-db -g comm '$DAT' | sed -n '/^Sorted by/,\$p' | diff '$TMP/want.txt' -"
	check "kinds report: text --kind percpu -g function, its section under its heading" sh -c "
		'$KMA' --no-db --kind percpu -g function '$DAT' > '$TMP/pf.txt' &&
		grep -qx 'percpu allocations by function' '$TMP/pf.txt' &&
		grep -qx 'number of function groups: 2' '$TMP/pf.txt' &&
		grep -Eqx ' +192 +96 +2/1 +mem_cgroup_css_alloc' '$TMP/pf.txt' &&
		! grep -q vmalloc '$TMP/pf.txt'"
	# a kind the trace lacks: one line, the rest printed
	"$KMA" --no-db --kind slab,percpu -f csv "$TOP/tests/fixtures/basic.dat" \
		> "$TMP/lack.csv" 2> "$TMP/lack.err"
	rc=$?
	check "kinds report: --kind slab,percpu on a slab-only trace: one line, slab's rows" sh -c "
		test $rc = 0 && test \$(wc -l < '$TMP/lack.err') = 1 &&
		grep -qx 'kma-analyze: $TOP/tests/fixtures/basic.dat: no percpu allocations or frees in this trace' '$TMP/lack.err' &&
		'$KMA' --no-db -f csv '$TOP/tests/fixtures/basic.dat' | cmp - '$TMP/lack.csv'"
	"$KMA" --no-db --kind vmalloc "$TOP/tests/fixtures/basic.dat" > "$TMP/none.txt" 2> "$TMP/none.err"
	rc=$?
	check "kinds report: --kind vmalloc on a slab-only trace: exit 1, one line" sh -c "
		test $rc = 1 && test ! -s '$TMP/none.txt' && test \$(wc -l < '$TMP/none.err') = 1 &&
		grep -q 'no vmalloc allocations or frees in this trace' '$TMP/none.err'"
else
	fail "kinds report: mktrace" "$(cat "$TMP/mk.txt")"
fi

# --kind's usage errors: exit 2, nothing on stdout, the one line and the hint
for bad in "foo" "percpu," ",slab" "" "page,percpu" "slab:percpu"; do
	"$KMA" --no-db --kind "$bad" "$TOP/tests/fixtures/basic.dat" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	check "kinds report: --kind '$bad' is a usage error" sh -c "
		test $rc = 2 && test ! -s '$TMP/out.txt' && test \$(grep -vc '^Try ' '$TMP/err.txt') = 1"
done
for opts in "--leaks" "--cache kmalloc-64" "-f folded" "--kmalloc-only" "--pages"; do
	# shellcheck disable=SC2086
	"$KMA" --no-db --kind percpu $opts "$TOP/tests/fixtures/basic.dat" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	check "kinds report: --kind percpu $opts is a usage error naming both" sh -c "
		test $rc = 2 && test ! -s '$TMP/out.txt' && grep -q -- '${opts%% *}' '$TMP/err.txt' &&
		grep -q -- '--kind' '$TMP/err.txt'"
done

# slab and pages alone: as without --kind
for f in basic pages; do
	check "kinds report: --kind slab on $f.dat = no --kind" sh -c "
		'$KMA' --no-db '$TOP/tests/fixtures/$f.dat' > '$TMP/a.txt' 2>&1 &&
		'$KMA' --no-db --kind slab '$TOP/tests/fixtures/$f.dat' > '$TMP/b.txt' 2>&1 &&
		cmp '$TMP/a.txt' '$TMP/b.txt'"
done
check "kinds report: --kind page = --pages" sh -c "
	'$KMA' --no-db --pages '$TOP/tests/fixtures/pages.dat' > '$TMP/a.txt' 2>&1 &&
	'$KMA' --no-db --kind page '$TOP/tests/fixtures/pages.dat' > '$TMP/b.txt' 2>&1 &&
	cmp '$TMP/a.txt' '$TMP/b.txt'"

# The recorded fixtures: every row of both kinds against the checker
for f in "$TOP"/tests/fixtures/kinds-*.dat; do
	name=$(basename "$f" .dat)
	memo "$TMP/$name.rows" "kinds-check-rows $f $TOP/tests/tools/kinds-check.py" \
		sh -c "trace-cmd report -i '$f' 2> /dev/null | $CHECK --buffer kmank --rows"
	# by caller: a percpu row by its call site's name, a vmalloc row by its frame's address
	check "kinds report $name: every percpu and vmalloc row by caller = the checker's" sh -c "
		'$KMA' --no-db -f csv '$f' 2> /dev/null | awk -F, '
			NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
			{ k = \$c[\"kind\"]; key = k == \"vmalloc\" ? \$c[\"address\"] : \$c[\"caller\"]
			  print \"row\", k, key, \"total=\" \$c[\"total\"], \"net=\" \$c[\"net\"],
				\"allocs=\" \$c[\"allocs\"], \"frees=\" \$c[\"frees\"],
				\"implicit=\" \$c[\"implicit_frees\"] }' | LC_ALL=C sort > '$TMP/got.txt' &&
		test -s '$TMP/got.txt' && grep '^row ' '$TMP/$name.rows' | LC_ALL=C sort | diff - '$TMP/got.txt'"
	check "kinds report $name: every row by function (-g function) = the checker's" sh -c "
		'$KMA' --no-db -f csv -g function '$f' 2> /dev/null | awk -F, '
			NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
			{ print \"function\", \$c[\"kind\"], \$c[\"function\"], \"total=\" \$c[\"total\"],
				\"net=\" \$c[\"net\"], \"allocs=\" \$c[\"allocs\"], \"frees=\" \$c[\"frees\"],
				\"implicit=\" \$c[\"implicit_frees\"] }' | LC_ALL=C sort > '$TMP/got.txt' &&
		test -s '$TMP/got.txt' && grep '^function ' '$TMP/$name.rows' | LC_ALL=C sort | diff - '$TMP/got.txt'"
	"$KMA" --no-db "$f" > "$TMP/$name.txt" 2> /dev/null
	check "kinds report $name: no slab table, a percpu and a vmalloc one" sh -c "
		! grep -q '^slab allocations' '$TMP/$name.txt' &&
		! grep -q '^slack bytes allocated' '$TMP/$name.txt' &&
		test \$(grep -c '^Sorted by total' '$TMP/$name.txt') = 2 &&
		grep -qx 'percpu allocations by caller' '$TMP/$name.txt' &&
		grep -qx 'vmalloc allocations by caller' '$TMP/$name.txt'"
	# each text section's summary against the checker's
	check "kinds report $name: each text section's allocs, frees and bytes = the checker's" sh -c "
		awk '/^(percpu|vmalloc) allocations by caller\$/ { k = \$1 }
			k && /^total bytes allocated:/ { b = \$4 }
			k && /^net bytes allocated:/ { n = \$4 }
			k && /^number of allocs:/ { a = \$4 }
			k && /^number of frees:/ { fr = \$4 }
			k && /^number of unknown frees:/ { u = \$5 }
			k && /^number of failed allocs:/ {
				print \"summary\", k, \"allocs=\" a, \"frees=\" fr - u, \"unknown_frees=\" u,
					\"failed=\" \$5, \"bytes=\" b, \"net=\" n; k = \"\" }' \
			'$TMP/$name.txt' > '$TMP/got.txt' &&
		grep '^summary' '$TMP/$name.rows' |
		sed -E 's/ implicit_frees=[0-9]+//; s/ peak=[0-9]+//' | diff - '$TMP/got.txt'"
done

# kma-diff --kind: the kind's rows of two traces. report.seq against new.seq (the percpu
# allocation at 4000 ns gone, one more by alloc_netdev_mqs+0x40 at 8000 ns), by hand:
#   mem_cgroup_css_alloc+0x20  base 192 bytes, net 96, 2 allocs, 1 free; new 96, 0, 1, 1
#   alloc_netdev_mqs+0x40      base 32, net 32, 1 alloc;              new 64, 64, 2, 0
# sums base 224/128/3/1, new 160/64/3/1 (frees: traced); durations 6500 and 7000 ns
DIFF=$TOP/$B/analyzer/kma-diff
NEW=$TMP/report-new.dat
if [ -f "$DAT" ] && "$MKTRACE" -o "$NEW" "$EXP/new.seq" > "$TMP/mk.txt" 2>&1; then
	same "kinds diff: --kind percpu, every row" "$EXP/diff-percpu.csv" \
		"$DIFF" --kind percpu -f csv "$DAT" "$NEW"
	same "kinds diff: --kind percpu --comm kworker/1:0" "$EXP/diff-percpu-kworker.csv" \
		"$DIFF" --kind percpu --comm kworker/1:0 -f csv "$DAT" "$NEW"
	check "kinds diff: --kind percpu's summary and durations" sh -c "
		'$DIFF' --kind percpu -f json '$DAT' '$NEW' | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d[\"summary\"]
got = [s[k + \"_\" + m] for k in (\"base\", \"new\") for m in (\"total\", \"net\", \"allocs\", \"frees\")]
assert got == [224, 128, 3, 1, 160, 64, 3, 1], got
assert (d[\"base\"][\"duration_ns\"], d[\"new\"][\"duration_ns\"]) == (6500, 7000), d
'"
	# vmalloc: nothing changed between the two
	# no delta: ties in key order
	printf '%s\n' '__ioremap_caller+0x80,8192,8192,0,0,0,0,8192,8192,0,1,1,0,0,0,0' \
		'bpf_map_area_alloc+0x60,20480,20480,0,0,0,0,4096,4096,0,2,2,0,1,1,0' > "$TMP/want.txt"
	check "kinds diff: --kind vmalloc, both rows unchanged" sh -c "
		'$DIFF' --kind vmalloc -f csv -s total '$DAT' '$NEW' | grep -v '^key,' |
		diff '$TMP/want.txt' -"
	# report.db operands (schema 7 keeps the kinds' allocation rows): the same files
	"$KMA" -q -o "$TMP/report.db" "$DAT" 2> /dev/null
	"$KMA" -q -o "$TMP/report-new.db" "$NEW" 2> /dev/null
	same "kinds diff: --kind percpu of two report.db, every row" "$EXP/diff-percpu.csv" \
		"$DIFF" --kind percpu -f csv "$TMP/report.db" "$TMP/report-new.db"
	same "kinds diff: --kind percpu of a report.db and a trace" "$EXP/diff-percpu.csv" \
		"$DIFF" --kind percpu -f csv "$TMP/report.db" "$NEW"
	same "kinds diff: --kind percpu --comm kworker/1:0 of two report.db" \
		"$EXP/diff-percpu-kworker.csv" \
		"$DIFF" --kind percpu --comm kworker/1:0 -f csv "$TMP/report.db" "$TMP/report-new.db"
	check "kinds diff: --kind vmalloc of two report.db, both rows unchanged" sh -c "
		'$DIFF' --kind vmalloc -f csv -s total '$TMP/report.db' '$TMP/report-new.db' |
		grep -v '^key,' | diff '$TMP/want.txt' -"
	check "kinds diff: --kind percpu's summary of two report.db" sh -c "
		'$DIFF' --kind percpu -f json '$TMP/report.db' '$TMP/report-new.db' | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d[\"summary\"]
got = [s[k + \"_\" + m] for k in (\"base\", \"new\") for m in (\"total\", \"net\", \"allocs\", \"frees\")]
assert got == [224, 128, 3, 1, 160, 64, 3, 1], got
assert (d[\"base\"][\"duration_ns\"], d[\"new\"][\"duration_ns\"]) == (6500, 7000), d
'"
	# generation g1 (from the marker at 3000 ns): base keeps the percpu allocation at
	# 4000 ns by mem_cgroup_css_alloc+0x20 (96 bytes, live); new keeps
	# alloc_netdev_mqs+0x40's at 8000 ns (32 bytes, live)
	printf '%s\n' 'mem_cgroup_css_alloc+0x20,96,,-96,0,,0,96,,-96,1,,-1,0,,0' \
		'alloc_netdev_mqs+0x40,,32,32,,0,0,,32,32,,1,1,,0,0' > "$TMP/want-g1.txt"
	for ops in "$DAT $NEW" "$TMP/report.db $TMP/report-new.db"; do
		# shellcheck disable=SC2086
		check "kinds diff: --kind percpu --generation g1 of ${ops##*/}" sh -c "
			'$DIFF' --kind percpu --generation g1 -f csv $ops | grep -v '^key,' |
			diff '$TMP/want-g1.txt' -"
	done
	# a generation's length: from its marker (3000 ns) to the trace's last event (7500
	# and 8000 ns), as for slab rows
	for ops in "$DAT $NEW" "$TMP/report.db $TMP/report-new.db"; do
		# shellcheck disable=SC2086
		check "kinds diff: --kind vmalloc --generation g1 of ${ops##*/}: the generation's length" sh -c "
			'$DIFF' --kind vmalloc --generation g1 -f json $ops | python3 -c '
import json, sys
d = json.load(sys.stdin)
got = [(d[s][\"duration_ns\"], d[s][\"generation\"], d[s][\"generation_label\"]) for s in (\"base\", \"new\")]
assert got == [(4500, 1, \"g1\"), (5000, 1, \"g1\")], got
'"
	done
	# every grouping and filter: a report.db's rows are its trace's
	for opts in "-g function" "-g stack" "--generation g1 -g stack" "--caller ^[bm]" \
		    "--pid 200 -g function" "--exclude-self" "-g module" "--comm bash -g module"; do
		for k in percpu vmalloc; do
			# shellcheck disable=SC2086
			check "kinds diff: --kind $k $opts, report.db = trace" sh -c "
				'$DIFF' --kind $k $opts -f csv '$DAT' '$NEW' > '$TMP/a.csv' &&
				'$DIFF' --kind $k $opts -f csv '$TMP/report.db' '$TMP/report-new.db' \
					> '$TMP/b.csv' && test \$(wc -l < '$TMP/a.csv') -gt 1 &&
				cmp '$TMP/a.csv' '$TMP/b.csv'"
		done
	done
	# a report.db older than schema 7 has no kind rows: one line naming it, exit 1
	cp "$TMP/report.db" "$TMP/old.db"
	python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 6'); c.commit()" "$TMP/old.db"
	"$DIFF" --kind percpu "$TMP/old.db" "$NEW" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	check "kinds diff: --kind percpu of a schema 6 report.db: exit 1, one line naming it" sh -c "
		test $rc = 1 && test ! -s '$TMP/out.txt' && test \$(wc -l < '$TMP/err.txt') = 1 &&
		grep -q '^kma-diff: $TMP/old.db: report.db schema version 6, kma-diff --kind percpu reads versions 7 to ' '$TMP/err.txt'"
	# a report.db without the kind: the one line kma-analyze --kind says
	"$KMA" -q -o "$TMP/basic.db" "$TOP/tests/fixtures/basic.dat" 2> /dev/null
	"$DIFF" --kind vmalloc "$TMP/basic.db" "$TMP/report.db" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	check "kinds diff: --kind vmalloc of a slab-only report.db: exit 1, one line" sh -c "
		test $rc = 1 && test ! -s '$TMP/out.txt' && test \$(wc -l < '$TMP/err.txt') = 1 &&
		grep -qx 'kma-diff: $TMP/basic.db: no vmalloc allocations or frees in the trace' '$TMP/err.txt'"
	check "kinds diff: --kind slab = no --kind" sh -c "
		'$DIFF' -f csv '$DAT' '$NEW' > '$TMP/a.csv' &&
		'$DIFF' --kind slab -f csv '$DAT' '$NEW' > '$TMP/b.csv' && cmp '$TMP/a.csv' '$TMP/b.csv'"
	for opts in "--kind foo" "--kind percpu -g cache" "--kind vmalloc --rate" \
		    "--kind percpu --cache kmalloc-64"; do
		# shellcheck disable=SC2086
		"$DIFF" $opts "$DAT" "$NEW" > "$TMP/out.txt" 2> "$TMP/err.txt"
		rc=$?
		check "kinds diff: $opts is a usage error" sh -c "
			test $rc = 2 && test ! -s '$TMP/out.txt' && test \$(grep -vc '^Try ' '$TMP/err.txt') = 1"
	done
	# -o keeps the report.db the trace operand was analyzed into: its percpu rows are
	# kma-analyze's, and reading it back gives the same diff
	"$DIFF" --kind percpu -f csv -o "$TMP/keep.db" "$DAT" "$NEW" > "$TMP/kept.csv" 2> /dev/null
	"$DIFF" --kind percpu -f csv "$TMP/keep.db" "$NEW" > "$TMP/read.csv" 2> /dev/null
	"$KMA" -q -o "$TMP/direct.db" "$DAT" 2> /dev/null
	q="SELECT kind, alloc_ts, ptr, bytes_alloc, caller FROM allocations WHERE kind = 'percpu' ORDER BY 2, 3"
	check "kinds diff: --kind percpu -o keeps the report.db, read back to the same rows" sh -c "
		test -s '$TMP/kept.csv' && cmp '$TMP/kept.csv' '$TMP/read.csv' &&
		test -n \"\$(sqlite3 '$TMP/keep.db' \"$q\")\" &&
		test \"\$(sqlite3 '$TMP/keep.db' \"$q\")\" = \"\$(sqlite3 '$TMP/direct.db' \"$q\")\""
else
	fail "kinds diff: mktrace" "$(cat "$TMP/mk.txt")"
fi

# kma-diff --kind on the recorded fixtures: kinds-bpf.dat against kinds-netns.dat by
# function, against a join of the checker's function rows of the two
A=$TOP/tests/fixtures/kinds-bpf.dat Z=$TOP/tests/fixtures/kinds-netns.dat
if [ -s "$TMP/kinds-bpf.rows" ] && [ -s "$TMP/kinds-netns.rows" ]; then
	"$KMA" -q -o "$TMP/kinds-bpf.db" "$A" 2> /dev/null
	"$KMA" -q -o "$TMP/kinds-netns.db" "$Z" 2> /dev/null
	for kind in percpu vmalloc; do
	for ops in "$A $Z" "$TMP/kinds-bpf.db $TMP/kinds-netns.db"; do
		# shellcheck disable=SC2086
		check "kinds diff: --kind $kind -g function of two fixtures (${ops##*.}) = the checker's join" sh -c "
			'$DIFF' --kind $kind -g function -f csv $ops 2> /dev/null | awk -F, '
				NR > 1 { print \$1, \$2 + 0, \$3 + 0, \$8 + 0, \$9 + 0, \$11 + 0, \$12 + 0,
						\$14 + 0, \$15 + 0 }' | LC_ALL=C sort > '$TMP/got.txt' &&
			test -s '$TMP/got.txt' && awk '
				FNR == 1 { side++ }
				\$1 == \"function\" && \$2 == \"$kind\" {
					split(\$0, f, \" \"); k = \$3
					for (i = 4; i <= NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] }
					keys[k] = 1
					t[k, side] = v[\"total\"]; n[k, side] = v[\"net\"]
					a[k, side] = v[\"allocs\"]; fr[k, side] = v[\"frees\"] }
				END { for (k in keys) print k, t[k, 1] + 0, t[k, 2] + 0, n[k, 1] + 0,
					n[k, 2] + 0, a[k, 1] + 0, a[k, 2] + 0, fr[k, 1] + 0, fr[k, 2] + 0 }' \
				'$TMP/kinds-bpf.rows' '$TMP/kinds-netns.rows' | LC_ALL=C sort |
			diff - '$TMP/got.txt'"
	done
	done
else
	fail "kinds diff: the fixtures' checker rows" "missing"
fi
