# The percpu and vmalloc allocators in report.db (schema version 7): kind_alloc_rows
# through the view allocations (with its column kind), kind_callers, kind_totals and the
# views kind_stats and kind_caller_stats, held against numbers worked out apart from kma:
# - tests/kindstore/gens.seq: every column of the view allocations of each row (times,
#   CPUs, tasks, generations from markers before and after a kind's first event, how it
#   ended, stacks) and kind_stats, as worked out by hand in gens.rows and gens.stats;
# - tests/kinds/*.seq in the supported layouts: kind_stats and each caller's bytes, net,
#   allocations and frees, from kind_callers and again from the rows of the view
#   allocations, against the hand-worked NAME.expect (NAME.old.expect before 5.19);
# - the recorded fixtures tests/fixtures/kinds-*.dat: the same against
#   tests/tools/kinds-check.py over trace-cmd report; kind_stats = the text report's
#   "Kernel memory by allocator" of the same run; the manual's kind queries;
# - a slab-only trace: allocations holds its slab rows only, kind_stats one row;
#   --pages: the page allocations in allocations as in page_allocations.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
KS=$TOP/tests/kindstore
CHECK="python3 $TOP/tests/tools/kinds-check.py"

# kind_stats as kinds-check.py's summary lines (its unknown frees are kma's unknown and
# null frees), then the callers: vmalloc's by function, as the checker names them (kma's
# caller is the frame's return address, symbol+offset)
STATS_SQL="SELECT 'summary ' || kind || ' allocs=' || allocs || ' frees=' || frees ||
	' unknown_frees=' || (unknown_frees + null_frees) || ' implicit_frees=' ||
	implicit_frees || ' failed=' || failed_allocs || ' bytes=' || total || ' net=' || net ||
	' peak=' || peak FROM kind_stats WHERE kind IN ('percpu', 'vmalloc')"
FN="CASE WHEN kind = 'vmalloc' AND instr(caller, '+') > 0
	THEN substr(caller, 1, instr(caller, '+') - 1) ELSE caller END"
CALLERS_SQL="WITH c AS (SELECT kind, $FN AS name, total, net, allocs, frees
		FROM kind_caller_stats WHERE kind IN ('percpu', 'vmalloc'))
	SELECT 'caller ' || kind || ' ' || name || ' total=' || SUM(total) || ' net=' ||
	SUM(net) || ' allocs=' || SUM(allocs) || ' frees=' || SUM(frees) FROM c GROUP BY kind, name"
ROWS_SQL="WITH a AS (SELECT kind, $FN AS name, bytes_alloc, free_ts, free_kind
		FROM allocations WHERE kind IN ('percpu', 'vmalloc'))
	SELECT 'caller ' || kind || ' ' || name || ' total=' || SUM(bytes_alloc) || ' net=' ||
	SUM(CASE WHEN free_ts IS NULL THEN bytes_alloc ELSE 0 END) || ' allocs=' || COUNT(*) ||
	' frees=' || SUM(free_kind IS NOT NULL AND free_kind <> 'implicit') FROM a GROUP BY kind, name"

# db_vs NAME DB WANT [OLD]: DB's kinds against the checker's lines in WANT (OLD: the percpu
# layout before 5.19, whose allocations have no call_site: "[none]" to the checker, and
# kma's caller from the stack, "[no stack]" without one)
db_vs() {
	local name=$1 db=$2 want=$3 old=${4:-} q

	grep '^summary ' "$want" > "$TMP/want-sum.txt"
	grep '^caller ' "$want" | LC_ALL=C sort > "$TMP/want-callers.txt"
	check "kinds store $name: kind_stats = the checker's summary" sh -c "
		sqlite3 '$db' \"$STATS_SQL\" | diff '$TMP/want-sum.txt' -"
	for q in callers rows; do
		if [ $q = callers ]; then
			sqlite3 "$db" "$CALLERS_SQL"
		else
			sqlite3 "$db" "$ROWS_SQL"
		fi | if [ -n "$old" ]; then
			sed 's/^caller percpu \[no stack\] /caller percpu [none] /'
		else
			cat
		fi | LC_ALL=C sort > "$TMP/got-$q.txt"
	done
	check "kinds store $name: kind_caller_stats = the checker's callers" \
		diff "$TMP/want-callers.txt" "$TMP/got-callers.txt"
	check "kinds store $name: the view allocations' rows add up to the checker's callers" \
		diff "$TMP/want-callers.txt" "$TMP/got-rows.txt"
}

# The hand-worked rows of gens.seq, in the layouts with 64-bit pointers
GENS_COLS="kind, ptr, caller, alloc_event, bytes_req, bytes_alloc, alloc_ts, alloc_cpu, pid,
	comm, generation, free_ts, free_cpu, free_pid, free_kind, stack_id IS NOT NULL"
for v in 6.18:little 6.18:big 5.19:little; do
	IFS=: read -r gen endian <<< "$v"
	[ "$SWEEP" = short ] && [ "$v" = 6.18:big ] &&
		{ drop "kinds store gens $v" "format sweep, run in the plain pass"; continue; }
	if ! "$MKTRACE" -g "$gen" -E "$endian" -o "$TMP/gens.dat" "$KS/gens.seq" \
		> "$TMP/mk.txt" 2>&1; then
		fail "kinds store gens $v: mktrace" "$(cat "$TMP/mk.txt")"
		continue
	fi
	if ! "$KMA" -o "$TMP/gens.db" "$TMP/gens.dat" > "$TMP/gens.txt" 2> "$TMP/gens.err"; then
		fail "kinds store gens $v: kma-analyze" "$(cat "$TMP/gens.err")"
		continue
	fi
	check "kinds store gens $v: every column of the view allocations = gens.rows" bash -c "
		sqlite3 -separator ' ' -nullvalue - '$TMP/gens.db' \
			'SELECT $GENS_COLS FROM allocations ORDER BY alloc_ts' |
		diff - <(grep -v '^#' '$KS/gens.rows')"
	check "kinds store gens $v: kind_stats = gens.stats" bash -c "
		sqlite3 -separator ' ' -nullvalue - '$TMP/gens.db' 'SELECT * FROM kind_stats' |
		diff - <(grep -v '^#' '$KS/gens.stats')"
	check "kinds store gens $v: ids are unique across kinds, the slab rows' as alloc_rows'" \
		test "$(sqlite3 "$TMP/gens.db" "SELECT COUNT(DISTINCT id), COUNT(*),
			(SELECT group_concat(id) FROM allocations WHERE kind = 'slab')
			FROM allocations")" = "5|5|1"
	check "kinds store gens $v: the stacks the vmap rows name exist" test "$(sqlite3 \
		"$TMP/gens.db" "SELECT s.folded FROM allocations AS a JOIN stacks AS s
			ON s.id = a.stack_id WHERE a.kind = 'vmalloc'" | grep -c bpf_map_area_alloc)" = 1
done

# tests/kinds/*.seq: the kinds' numbers against the hand-worked expect files
KIND_VARIANTS="6.18:8:little 5.10:8:little 6.18:4:little 6.18:8:big 5.10:4:big 5.19:8:little"
if [ "$SWEEP" = short ]; then
	drop "kinds store: the variants 5.10:8 6.18:4 6.18:8:big" \
		"format sweep, run in the plain pass; here 6.18:8, 5.10:4:big, 5.19:8"
	KIND_VARIANTS="6.18:8:little 5.10:4:big 5.19:8:little"
fi
for seq in "$TOP"/tests/kinds/*.seq; do
	name=$(basename "$seq" .seq)
	for v in $KIND_VARIANTS; do
		IFS=: read -r gen long endian <<< "$v"
		exp=${seq%.seq}.expect old=
		[ "$gen" = 5.10 ] && exp=${seq%.seq}.old.expect old=1
		dat=$TMP/$name.dat
		if ! "$MKTRACE" -g "$gen" -l "$long" -E "$endian" -o "$dat" "$seq" \
			> "$TMP/mk.txt" 2>&1; then
			fail "kinds store $name $v: mktrace" "$(cat "$TMP/mk.txt")"
			continue
		fi
		if "$KMA" -q -o "$TMP/$name.db" "$dat" 2> "$TMP/err.txt"; then
			db_vs "$name $v" "$TMP/$name.db" "$exp" $old
		else
			fail "kinds store $name $v: kma-analyze" "$(cat "$TMP/err.txt")"
		fi
	done
done

# The fixtures recorded on this kernel (their events in the instance "kmank")
for f in "$TOP"/tests/fixtures/kinds-*.dat; do
	name=$(basename "$f" .dat)
	memo "$TMP/$name.check" "kinds-check $f $TOP/tests/tools/kinds-check.py" \
		sh -c "trace-cmd report -i '$f' 2> /dev/null | $CHECK --buffer kmank"
	if ! "$KMA" -o "$TMP/$name.db" "$f" > "$TMP/$name.txt" 2> "$TMP/err.txt"; then
		fail "kinds store $name: kma-analyze" "$(cat "$TMP/err.txt")"
		continue
	fi
	check "kinds store $name: the checker found both kinds" sh -c "
		grep -q '^summary percpu ' '$TMP/$name.check' &&
		grep -q '^summary vmalloc ' '$TMP/$name.check'"
	db_vs "$name" "$TMP/$name.db" "$TMP/$name.check"
	check "kinds store $name: kind_stats = the report's kernel memory by allocator" bash -c "
		awk '/^Kernel memory by allocator/ { on = 1; getline; next }
			on && NF == 5 { print; next } on { exit }' '$TMP/$name.txt' > '$TMP/k.txt' &&
		[ -s '$TMP/k.txt' ] &&
		sqlite3 -separator ' ' '$TMP/$name.db' \
			'SELECT kind, allocs, total, net, peak FROM kind_stats WHERE allocs > 0' |
		diff - <(awk '{ print \$1, \$2, \$3, \$4, \$5 }' '$TMP/k.txt')"
	check "kinds store $name: the manual's queries run, the kind queries have rows" \
		bash "$TOP/tests/test-doc-queries.sh" \
		-r kinds-summary,kinds-callers,kinds-live "$TMP/$name.db"
done

# A slab-only trace: its rows only, as kind slab; one row of kind_stats, the summary's
if "$KMA" -q -o "$TMP/basic.db" "$TOP/tests/fixtures/basic.dat" 2> "$TMP/err.txt"; then
	check "kinds store: a slab-only trace's allocations are alloc_rows, kind slab" test \
		"$(sqlite3 "$TMP/basic.db" "SELECT COUNT(*), SUM(kind = 'slab'),
			(SELECT COUNT(*) FROM alloc_rows) FROM allocations" | awk -F'|' \
			'$1 == $2 && $2 == $3 && $1 > 0 { print "ok" }')" = ok
	check "kinds store: a slab-only trace's kind_stats is its summary" test \
		"$(sqlite3 "$TMP/basic.db" "SELECT kind, allocs, total, net, peak, frees,
			implicit_frees, unknown_frees, null_frees, failed_allocs FROM kind_stats")" = \
		"$(sqlite3 "$TMP/basic.db" "SELECT 'slab', s.allocs, s.total, s.net, t.peak_bytes,
			t.matched_frees, s.implicit_frees, s.unknown_frees, s.null_frees,
			s.failed_allocs FROM summary AS s CROSS JOIN trace AS t")"
else
	fail "kinds store: basic.dat" "$(cat "$TMP/err.txt")"
fi

# --pages: the page allocations in allocations, as page_allocations has them
if "$KMA" -q --pages -o "$TMP/pages.db" "$TOP/tests/fixtures/pages.dat" 2> "$TMP/err.txt"; then
	check "kinds store: --pages puts page_allocations in allocations, kind page" test \
		"$(sqlite3 "$TMP/pages.db" "SELECT COUNT(*), SUM(bytes_alloc), SUM(free_ts IS NULL),
			group_concat(DISTINCT free_kind) FROM allocations WHERE kind = 'page'")" = \
		"$(sqlite3 "$TMP/pages.db" "SELECT COUNT(*), SUM(bytes), SUM(free_ts IS NULL),
			group_concat(DISTINCT free_kind) FROM page_allocations")"
	check "kinds store: --pages kind_stats' page row = page_trace and page_allocations" test \
		"$(sqlite3 "$TMP/pages.db" "SELECT allocs, total, net, peak, failed_allocs
			FROM kind_stats WHERE kind = 'page'")" = \
		"$(sqlite3 "$TMP/pages.db" "SELECT COUNT(*), SUM(bytes),
			SUM(CASE WHEN free_ts IS NULL THEN bytes ELSE 0 END),
			(SELECT peak_pages * page_size FROM page_trace),
			(SELECT failed_allocs FROM page_trace) FROM page_allocations")"
	# kinds-check, as every *-check query, must print ok
	check "kinds store: the manual's queries (kinds-check) on a --pages report.db" \
		bash "$TOP/tests/test-doc-queries.sh" -r kinds-live "$TMP/pages.db"
else
	fail "kinds store: pages.dat --pages" "$(cat "$TMP/err.txt")"
fi
