# kma-analyze --pages on a trace of page events only (trace-cmd record -e
# kmem:mm_page_alloc -e kmem:mm_page_free: no slab formats at all), and the filters
# --comm, --pid, --caller, --since/--until, --exclude-self and --generation applied to page
# allocations, against numbers worked by hand from tests/pages/basic.seq and gens.seq (event
# numbers as in its comment); the options that cannot apply to pages are usage errors.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
CHECK="python3 $TOP/tests/tools/pages-check.py"
SEQ=$TOP/tests/pages/basic.seq

# Page events only: the kmem system holds the page allocator's formats and nothing else
{ echo "kmem pages"; grep -v '^event [0-9]* [0-9]* [0-9]* \(kmalloc\|kfree\) ' "$SEQ"; } \
	> "$TMP/only.seq"
for v in 6.18:8:little 5.10:4:big; do
	IFS=: read -r gen long endian <<< "$v"
	dat=$TMP/only-$long.dat
	if ! "$MKTRACE" -g "$gen" -l "$long" -E "$endian" -o "$dat" "$TMP/only.seq" \
		> "$TMP/mk.txt" 2>&1; then
		fail "page events only $v: mktrace" "$(cat "$TMP/mk.txt")"
		continue
	fi
	check "page events only $v: no slab formats in the trace" \
		sh -c "! trace-cmd report --events '$dat' 2> /dev/null | grep -q 'name: kmalloc\$'"
	# the slab pair of basic.seq is no page event: basic.expect's numbers stand
	check "page events only $v: --pages, numbers as worked by hand" \
		$CHECK "$KMA" "$dat" "$TOP/tests/pages/basic.expect"
done
D=$TMP/only-8.dat
"$KMA" -q --pages -o "$TMP/only.db" "$D" > "$TMP/out.txt" 2> "$TMP/err.txt"
check "page events only: report.db page_stats (9 pages, 5 allocs, 3 live)" test \
	"$(sqlite3 -separator ' ' "$TMP/only.db" \
	   'SELECT SUM(pages), SUM(allocs), SUM(live_pages) FROM page_stats' 2>&1)" = "9 5 3"
"$KMA" --no-db "$D" > "$TMP/out.txt" 2> "$TMP/err.txt"
rc=$?
check "page events only, no --pages: exit 1, one line saying --pages" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l < '$TMP/err.txt') = 1 ] && grep -q 'try --pages' '$TMP/err.txt'"

# The filters, on basic.seq with its slab pair and stacks. The trace starts at 1000 ns.
"$MKTRACE" -o "$TMP/basic.dat" "$SEQ" > "$TMP/mk.txt" 2>&1 ||
	fail "basic.seq: mktrace" "$(cat "$TMP/mk.txt")"
# expect NAME EXPECT-TEXT TRACE KMA-ARGS...: pages-check.py with the filter options
expect() {
	local name=$1 dat=$3
	printf '%s\n' "$2" > "$TMP/$name.expect"
	shift 3
	check "filter $name: numbers as worked by hand" \
		$CHECK "$KMA" "$dat" "$TMP/$name.expect" "$@"
}
B=$TMP/basic.dat
# --comm bash (pid 100): 1 (0x1000, 1 page), 2 (0x2000, 4 pages), 5 (0x2000, 1 page);
# 4 frees 1, 5 closes 2 (implicit, 4 pages); the free of pfn 0 (9's, kworker) is no
# unknown free, 0x9000's is (the whole trace's). Live: 5. Peak: 1, 5, 4, 1: 5.
expect comm "summary allocs=3 failed=0 frees=2 implicit_frees=1 unknown_frees=1 unknown_pages=2 pages_alloc=6 pages_freed=5 pages_live=1 peak_pages=5
row order 0 2 2 1 1 0 1
row order 2 4 1 4 1 1 0
row comm bash 6 3 5 2 1 1" "$B" --comm bash
# --pid 200 (kworker): 3 failed, 8 (0x4000, order 1, live), 9 (pfn 0, freed). Peak 2, 3: 3.
expect pid "summary allocs=2 failed=1 frees=1 implicit_frees=0 unknown_frees=1 unknown_pages=2 pages_alloc=3 pages_freed=1 pages_live=2 peak_pages=3
row order 0 1 1 1 1 0 0
row order 1 2 1 0 0 0 2" "$B" --pid 200
# --caller pipe_write (the caller function of the stack): 1, 5, 8. 5 lands on 2's pfn,
# but 2 (do_anonymous_page) is left out: no free counted. Peak 1, 0, 1, 3: 3.
expect caller "summary allocs=3 failed=0 frees=1 implicit_frees=0 unknown_frees=1 unknown_pages=2 pages_alloc=4 pages_freed=1 pages_live=3 peak_pages=3
row order 0 2 2 1 1 0 1
row order 1 2 1 0 0 0 2
row function pipe_write 4 3 1 1 0 3" "$B" --caller pipe_write
# --caller '!pipe_write': 2, 3 (failed, no stack), 9. 5 (left out) closes 2 at its pfn:
# an implicit free of 4 pages, as any allocation there ends it. Peak 4, 0, 1: 4.
expect nocaller "summary allocs=2 failed=1 frees=2 implicit_frees=1 unknown_frees=1 unknown_pages=2 pages_alloc=5 pages_freed=5 pages_live=0 peak_pages=4
row order 0 1 1 1 1 0 0
row order 2 4 1 4 1 1 0" "$B" --caller '!pipe_write'
# --since 0.000004 (5000 ns on): 5, 8, 9 made in the window; 9 freed. Peak 1, 3, 4: 4.
expect since "summary allocs=3 failed=0 frees=1 implicit_frees=0 unknown_frees=1 unknown_pages=2 pages_alloc=4 pages_freed=1 pages_live=3 peak_pages=4
row order 0 2 2 1 1 0 1
row order 1 2 1 0 0 0 2" "$B" --since 0.000004
# --until 0.000004 (before 5000 ns): 1, 2, 3 (failed); 4 frees 1, 5 closes 2. Peak 5.
expect until "summary allocs=2 failed=1 frees=2 implicit_frees=1 unknown_frees=1 unknown_pages=2 pages_alloc=5 pages_freed=5 pages_live=0 peak_pages=5
row order 0 1 1 1 1 0 0
row order 2 4 1 4 1 1 0" "$B" --until 0.000004
# --since @0.000002 --until @0.000006 (absolute: 2000 to 6000 ns): 2, 3 (failed), 5 (5
# closes 2 implicitly). Peak 4, 1: 4.
expect window "summary allocs=2 failed=1 frees=1 implicit_frees=1 unknown_frees=1 unknown_pages=2 pages_alloc=5 pages_freed=4 pages_live=1 peak_pages=4
row order 0 1 1 0 0 0 1
row order 2 4 1 4 1 1 0" "$B" --since @0.000002 --until @0.000006
# --exclude-self: pid 200 renamed trace-cmd (the recorder's own): the --comm bash numbers
sed 's/^cmdline 200 .*/cmdline 200 trace-cmd/' "$SEQ" > "$TMP/self.seq"
"$MKTRACE" -o "$TMP/self.dat" "$TMP/self.seq" > "$TMP/mk.txt" 2>&1 ||
	fail "self.seq: mktrace" "$(cat "$TMP/mk.txt")"
cp "$TMP/comm.expect" "$TMP/self.expect"
check "filter --exclude-self: the recorder's pages dropped (= --comm bash)" \
	$CHECK "$KMA" "$TMP/self.dat" "$TMP/self.expect" --exclude-self
sed 's/kworker\/1:0/trace-cmd/' "$TOP/tests/pages/basic.expect" > "$TMP/all.expect"
check "filter none: the recorder's pages counted without --exclude-self" \
	$CHECK "$KMA" "$TMP/self.dat" "$TMP/all.expect"
# two kinds AND-ed: --comm bash --caller pipe_write = 1 and 5 (2 is left out)
expect and "summary allocs=2 failed=0 frees=1 implicit_frees=0 unknown_frees=1 unknown_pages=2 pages_alloc=2 pages_freed=1 pages_live=1 peak_pages=1
row order 0 2 2 1 1 0 1" "$B" --comm bash --caller pipe_write

# report.db keeps every page allocation, as it keeps every slab one
"$KMA" -q --pages --comm bash -o "$TMP/f.db" "$B" 2> "$TMP/err.txt"
check "filter: report.db's page tables unfiltered (9 pages, 5 allocs, 3 live)" test \
	"$(sqlite3 -separator ' ' "$TMP/f.db" \
	   'SELECT SUM(pages), SUM(allocs), SUM(live_pages) FROM page_stats' 2>&1)" = "9 5 3"
# the text report says what it counts, as the slab one does
"$KMA" --no-db --pages --comm bash --since 0.000001 "$B" > "$TMP/text.txt" 2>&1
check "filter: text report's first line names the filter" \
	sh -c "head -1 '$TMP/text.txt' | grep -q \"^# page allocations since 0.000001 (filter: comm 'bash'); unknown frees and lost events are for the whole trace\$\""
# bash's from 2000 ns on: 2 (4 pages) and 5 (1 page)
check "filter: the table follows" grep -q '^  allocated 5 pages (20480 bytes) in 2 allocations, 0 failed$' \
	"$TMP/text.txt"

# What cannot apply to pages: exit 2, one line naming the option and --pages
refused() {	# NAME OPTION ARGS...
	local name=$1 opt=$2 rc
	shift 2
	"$KMA" --no-db --pages "$@" "$B" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$TMP/out.txt" ] && [ "$(grep -vc '^Try ' "$TMP/err.txt")" = 1 ] &&
	   grep -qF -- "$opt" "$TMP/err.txt" && grep -qF -- "--pages" "$TMP/err.txt"; then
		pass "$name"
	else
		fail "$name" "exit $rc: $(cat "$TMP/err.txt")"
	fi
}
refused "--pages --kmalloc-only refused" --kmalloc-only --kmalloc-only
refused "--pages --cache refused" --cache --cache 'kmalloc-*'
refused "--pages --outstanding refused" --outstanding --outstanding
refused "--pages -f folded refused" "-f folded" -f folded

# --generation K: the allocations made between marker K and the next (tests/pages/gens.seq,
# its comment numbers the events). Generation 1 (g1): 2 (0x2000, 8 pages) and 3 (0x3000,
# 2 pages); 4 frees 3, 5 (in generation 2) frees 2: nothing live. Peak 8, 10: 10.
G=$TMP/gens.dat
"$MKTRACE" -o "$G" "$TOP/tests/pages/gens.seq" > "$TMP/mk.txt" 2>&1 ||
	fail "gens.seq: mktrace" "$(cat "$TMP/mk.txt")"
expect gen1 "summary allocs=2 failed=0 frees=2 implicit_frees=0 unknown_frees=0 unknown_pages=0 pages_alloc=10 pages_freed=10 pages_live=0 peak_pages=10
row order 3 8 1 8 1 0 0
row order 1 2 1 2 1 0 0" "$G" --generation 1
cp "$TMP/gen1.expect" "$TMP/gen1label.expect"
check "filter --generation g1 (a label): as --generation 1" \
	$CHECK "$KMA" "$G" "$TMP/gen1label.expect" --generation g1
# generation 0 (before the first marker): 1 (0x1000, 1 page), live at the end
expect gen0 "summary allocs=1 failed=0 frees=0 implicit_frees=0 unknown_frees=0 unknown_pages=0 pages_alloc=1 pages_freed=0 pages_live=1 peak_pages=1
row order 0 1 1 0 0 0 1" "$G" --generation 0
# generation 2 allocates nothing; its free (5) is of generation 1's allocation: not counted
expect gen2 "summary allocs=0 failed=0 frees=0 implicit_frees=0 unknown_frees=0 unknown_pages=0 pages_alloc=0 pages_freed=0 pages_live=0 peak_pages=0" \
	"$G" --generation 2
# generation 3 (g3): 6 (0x4000, 4 pages), live
expect gen3 "summary allocs=1 failed=0 frees=0 implicit_frees=0 unknown_frees=0 unknown_pages=0 pages_alloc=4 pages_freed=0 pages_live=4 peak_pages=4
row order 2 4 1 0 0 0 4" "$G" --generation g3
"$KMA" --no-db --pages --generation g1 "$G" > "$TMP/text.txt" 2>&1
check "filter --generation: text report's first line names it" \
	sh -c "head -1 '$TMP/text.txt' | grep -qx '# page allocations made in generation g1; unknown frees and lost events are for the whole trace'"
"$KMA" --no-db --pages --generation 4 "$G" > "$TMP/out.txt" 2> "$TMP/err.txt"
rc=$?
check "filter --generation 4 (no such): exit 1, one line listing the generations" sh -c \
	"[ $rc = 1 ] && [ ! -s '$TMP/out.txt' ] && [ \$(wc -l < '$TMP/err.txt') = 1 ] &&
	 grep -q \"no generation '4' in the trace; it has 4: 0 start, 1 g1, 2 g2, 3 g3\" '$TMP/err.txt'"

# Random sequences (tests/tools/mkpages.py: two tasks, live-pfn reuse, unknown and batched
# frees, failed allocations) filtered, against pages-from-report.py's filters over
# trace-cmd report -t (timestamps in ns; the trace starts at 1100 ns; @T with up to 6
# decimals names the events printed as T, which start 500 ns before it)
if command -v trace-cmd > /dev/null; then
	python3 "$TOP/tests/tools/mkpages.py" 20000 3 > "$TMP/rand.seq"
	"$MKTRACE" -o "$TMP/rand.dat" "$TMP/rand.seq" > "$TMP/mk.txt" 2>&1 ||
		fail "pages random: mktrace" "$(cat "$TMP/mk.txt")"
	trace-cmd report -t -R "$TMP/rand.dat" > "$TMP/rand.txt" 2> /dev/null
	for f in "--comm bash|--comm bash" "--pid 200|--pid 200" \
		 "--since @0.0003 --until @0.0007|--since 299500 --until 699500" \
		 "--comm cat --since 0.0002|--comm cat --since 201100"; do
		kargs=${f%%|*}
		pargs=${f#*|}
		# shellcheck disable=SC2086
		python3 "$TOP/tests/tools/pages-from-report.py" $pargs < "$TMP/rand.txt" \
			> "$TMP/rand.expect"
		# shellcheck disable=SC2086
		check "pages random $kargs: = pages-from-report.py over trace-cmd report" \
			$CHECK "$KMA" "$TMP/rand.dat" "$TMP/rand.expect" $kargs
	done
	# the same with a "kma: mK" marker after every 4000 events (50 ns before the next
	# one of its CPU, a time no event has): --generation against pages-from-report.py
	awk '$1 == "event" && ++n >= 4000 && last[$2] < $3 - 50 {
		n = 0; print "marker", $2, $3 - 50, $4, "kma: m" ++k }
	     $1 == "event" || $1 == "stack" { last[$2] = $3 } 1' "$TMP/rand.seq" > "$TMP/randm.seq"
	"$MKTRACE" -o "$TMP/randm.dat" "$TMP/randm.seq" > "$TMP/mk.txt" 2>&1 ||
		fail "pages random with markers: mktrace" "$(cat "$TMP/mk.txt")"
	trace-cmd report -t -R "$TMP/randm.dat" > "$TMP/randm.txt" 2> /dev/null
	for f in "--generation 0" "--generation 3" "--generation m2 --comm cat" \
		 "--generation 5"; do
		# shellcheck disable=SC2086
		python3 "$TOP/tests/tools/pages-from-report.py" $f < "$TMP/randm.txt" \
			> "$TMP/randm.expect"
		# shellcheck disable=SC2086
		check "pages random $f: = pages-from-report.py over trace-cmd report" \
			$CHECK "$KMA" "$TMP/randm.dat" "$TMP/randm.expect" $f
	done
	check "pages random with markers: 6 markers, generations of allocations" sh -c \
		'[ "$(grep -c "buf=kma: m" "$1")" = 6 ] &&
		 [ "$(python3 "$2" --generation 3 < "$1" | sed -n "s/^summary allocs=\([0-9]*\) .*/\1/p")" -gt 100 ]' \
		sh "$TMP/randm.txt" "$TOP/tests/tools/pages-from-report.py"
	check "pages random: the filters leave allocations out" \
		test "$(python3 "$TOP/tests/tools/pages-from-report.py" --comm bash < "$TMP/rand.txt" |
			sed -n 1p)" != "$(python3 "$TOP/tests/tools/pages-from-report.py" < "$TMP/rand.txt" |
			sed -n 1p)"
else
	skip "pages random sequences, filtered" "no trace-cmd"
fi
