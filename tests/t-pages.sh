# kma-analyze --pages: the page allocator report on hand-built traces,
# tests/pages/*.seq rendered by mktrace for every kernel generation, word size, byte
# order and both page layouts (pfn; the struct page pointer of older kernels), against
# the numbers worked out by hand in tests/pages/*.expect (tests/tools/pages-check.py);
# the slab side unchanged by --pages; the usage errors. The recorded fixture is checked
# against an independent script over trace-cmd report in the second half.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
CHECK="python3 $TOP/tests/tools/pages-check.py"
# kernel generation:word size:byte order ("page": the struct page layout). The short sweep
# (sanitizer and fresh passes) keeps the three the checks below use: 64-bit pfn, 32-bit
# big-endian, and the struct page layout; the rest vary field sizes the plain pass proves.
PAGE_VARIANTS="5.10:8:little 5.16:8:little 6.1:8:little 6.18:8:little 6.18:4:little
	5.10:4:big 6.18:8:big page:8:little page:4:big"
if [ "$SWEEP" = short ]; then
	drop "pages: the variants 5.10:8 5.16:8 6.1:8 6.18:4 6.18:8:big page:4:big" \
		"format sweep, run in the plain pass; here 6.18:8, 5.10:4:big, page:8"
	PAGE_VARIANTS="6.18:8:little 5.10:4:big page:8:little"
fi

for seq in "$TOP"/tests/pages/*.seq; do
	name=$(basename "$seq" .seq)
	for v in $PAGE_VARIANTS; do
		IFS=: read -r gen long endian <<< "$v"
		src=$seq
		if [ "$gen" = page ]; then	# the old layout: struct page pointers, no pfn
			src=$TMP/$name-page.seq
			{ echo "pagelayout page"; cat "$seq"; } > "$src"
			gen=5.10
		fi
		dat=$TMP/$name-$(echo "$v" | tr ':' '-').dat
		if ! "$MKTRACE" -g "$gen" -l "$long" -E "$endian" -o "$dat" "$src" \
			> "$TMP/mk.txt" 2>&1; then
			fail "pages $name $v: mktrace" "$(cat "$TMP/mk.txt")"
			continue
		fi
		check "pages $name $v: numbers as worked by hand" \
			$CHECK "$KMA" "$dat" "${seq%.seq}.expect"
	done
done

D=$TMP/basic-6.18-8-little.dat
# --pages leaves the slab side alone: the same report.db with and without it
"$KMA" -q -o "$TMP/slab.db" "$D" 2> "$TMP/err1.txt"
"$KMA" -q --pages -o "$TMP/pages.db" "$D" 2> "$TMP/err2.txt"
# (and the page allocator's row of kind_totals, kind 1)
check "pages: report.db the same with --pages, page tables aside" \
	cmp <(sqlite3 "$TMP/slab.db" .dump) <(sqlite3 "$TMP/pages.db" .dump |
		grep -v -e '^INSERT INTO page_' -e '^INSERT INTO kind_totals VALUES(1,')
# report.db's page tables: the hand-worked numbers of basic.expect again
q() { sqlite3 -separator ' ' "$TMP/pages.db" "$1" 2>&1; }
check "pages db: page_stats sums (9 pages, 5 allocs, 3 live)" \
	test "$(q 'SELECT SUM(pages), SUM(allocs), SUM(live_pages) FROM page_stats')" = "9 5 3"
check "pages db: pipe_write 4 pages, 3 live; do_anonymous_page 5, 0 live" \
	test "$(q "SELECT function, SUM(pages), SUM(live_pages) FROM page_stats GROUP BY function
		   ORDER BY function" | tr '\n' ' ')" = "do_anonymous_page 5 0 pipe_write 4 3 "
check "pages db: one implicit free, of pfn 0x2000 order 2" \
	test "$(q "SELECT pfn, page_order FROM page_allocations WHERE free_kind = 'implicit'")" = "8192 2"
check "pages db: page_trace" test "$(q 'SELECT page_size, failed_allocs, unknown_frees,
	unknown_pages, peak_pages, batched_events FROM page_trace')" = "4096 1 1 2 5 1"
"$KMA" -q --pages -o "$TMP/ptr.db" "$TMP/basic-page-8-little.dat"
check "pages db, old layout: pages by struct page pointer" test "$(sqlite3 "$TMP/ptr.db" \
	"SELECT page FROM page_allocations WHERE free_kind = 'implicit'")" = "0xffffea0000080000"
check "pages db without --pages: tables empty" \
	test "$(sqlite3 "$TMP/slab.db" 'SELECT COUNT(*) FROM page_allocations')" = 0
check "pages: nothing on stderr" test ! -s "$TMP/err1.txt" -a ! -s "$TMP/err2.txt"

# Text: the summary lines and, with stacks, the function table after order/migrate/gfp
"$KMA" --no-db --pages "$D" > "$TMP/text.txt" 2>&1
check "pages text: summary" grep -q "^  allocated 9 pages (36864 bytes) in 5 allocations, 1 failed$" "$TMP/text.txt"
check "pages text: unknown frees" grep -q "1 unknown frees (2 pages)$" "$TMP/text.txt"
check "pages text: four tables" test "$(grep -c '^\(order\|migrate\|gfp\|function\) ' "$TMP/text.txt")" = 4
# Without stacks: no callers invented, and the report says why
grep -v '^stack ' "$TOP/tests/pages/basic.seq" > "$TMP/nostack.seq"
"$MKTRACE" -o "$TMP/nostack.dat" "$TMP/nostack.seq" > /dev/null 2>&1
"$KMA" --no-db --pages "$TMP/nostack.dat" > "$TMP/nostack.txt" 2>&1
check "pages without stacks: said" grep -q "no stacks in this trace" "$TMP/nostack.txt"
check "pages without stacks: no function table" test "$(grep -c '^function ' "$TMP/nostack.txt")" = 0
check "pages without stacks: JSON by order" \
	sh -c "'$KMA' --no-db --pages -f json '$TMP/nostack.dat' | grep -q '\"group\": \"order\".*\"stacks\": false'"

# Usage and input errors: one line, exit 2 / 1
expect_exit() {	# NAME STATUS CMD...
	local name=$1 want=$2 rc
	shift 2
	"$@" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(grep -vc '^Try ' "$TMP/err.txt")" = 1 ]; then pass "$name"
	else fail "$name" "exit $rc, stderr: $(cat "$TMP/err.txt")"; fi
}
expect_exit "pages: -g cache refused" 2 "$KMA" --no-db --pages -g cache "$D"
expect_exit "pages: -g order without --pages refused" 2 "$KMA" --no-db -g order "$D"
expect_exit "pages: --advice refused" 2 "$KMA" --no-db --pages --advice "$D"
expect_exit "pages: a trace without page events" 1 "$KMA" --no-db --pages \
	"$TOP/tests/fixtures/basic.dat"
# kma-report.db(5)'s page queries run, with rows on a --pages report.db
check "man page queries on a --pages report.db (page queries have rows)" \
	bash "$TOP/tests/test-doc-queries.sh" -r page-callers,page-live "$TMP/pages.db"

# Random sequences (tests/tools/mkpages.py: live-pfn reuse, unknown and batched frees,
# failed allocations, two CPUs) against pages-from-report.py over trace-cmd report -R
if command -v trace-cmd > /dev/null; then
	for seed in 1 2; do
		python3 "$TOP/tests/tools/mkpages.py" 20000 $seed > "$TMP/rand$seed.seq"
		for v in 6.18:8:little 5.10:4:big; do
			IFS=: read -r gen long endian <<< "$v"
			dat=$TMP/rand$seed-$long.dat
			"$MKTRACE" -g "$gen" -l "$long" -E "$endian" -o "$dat" "$TMP/rand$seed.seq" \
				> "$TMP/mk.txt" 2>&1 || fail "pages random $seed $v: mktrace" "$(cat "$TMP/mk.txt")"
			memo "$TMP/rand.expect" "pages-from-report $dat $TOP/tests/tools/pages-from-report.py" \
				sh -c 'trace-cmd report -R "$1" 2> /dev/null | python3 "$2"' sh \
				"$dat" "$TOP/tests/tools/pages-from-report.py"
			check "pages random $seed $v: = pages-from-report.py over trace-cmd report" \
				$CHECK "$KMA" "$dat" "$TMP/rand.expect"
		done
	done
else
	skip "pages random sequences" "no trace-cmd"
fi

# cross_cpu_stats (report.db): worked by hand. alloc_a: 3 objects from CPU 0, freed on
# CPU 1, CPU 0, CPU 1 -> 3 frees, 2 cross (66.7%); alloc_b: one freed on its own CPU 1,
# one live, one closed by an implicit free (not a traced free) -> 1 free, 0 cross.
cat > "$TMP/cross.seq" <<'SEQ'
cpus 2
kallsyms ffffffff81000000 T _stext
kallsyms ffffffff81100000 t alloc_a
kallsyms ffffffff81100100 t alloc_b
kallsyms ffffffff81100300 t free_x
kallsyms ffffffff81400000 T _etext
cmdline 100 bash
event 0 1000 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100001000 bytes_req=8 bytes_alloc=8
event 0 1100 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100002000 bytes_req=8 bytes_alloc=8
event 0 1200 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100003000 bytes_req=8 bytes_alloc=8
event 1 2000 100 kfree call_site=free_x+0x8 ptr=0xffff888100001000
event 0 2100 100 kfree call_site=free_x+0x8 ptr=0xffff888100002000
event 1 2200 100 kfree call_site=free_x+0x8 ptr=0xffff888100003000
event 1 3000 100 kmalloc call_site=alloc_b+0x10 ptr=0xffff888100004000 bytes_req=8 bytes_alloc=8
event 1 3100 100 kfree call_site=free_x+0x8 ptr=0xffff888100004000
event 1 3200 100 kmalloc call_site=alloc_b+0x10 ptr=0xffff888100005000 bytes_req=8 bytes_alloc=8
event 0 3300 100 kmalloc call_site=alloc_b+0x10 ptr=0xffff888100005000 bytes_req=8 bytes_alloc=8
SEQ
"$MKTRACE" -o "$TMP/cross.dat" "$TMP/cross.seq" > /dev/null 2>&1
"$KMA" -q -o "$TMP/cross.db" "$TMP/cross.dat"
check "cross_cpu_stats: alloc_a 3 frees, 2 cross-CPU (66.7%); alloc_b 1, 0" test "$(sqlite3 \
	"$TMP/cross.db" "SELECT caller, frees, cross_cpu_frees, cross_cpu_pct FROM cross_cpu_stats
	ORDER BY caller" | tr '\n' ' ')" = "alloc_a+0x10|3|2|66.7 alloc_b+0x10|1|0|0.0 "
expect_exit "pages: a page-only trace without --pages says try --pages" 1 "$KMA" --no-db \
	"$TMP/rand1-8.dat"
check "pages: ... in so many words" grep -q "try --pages" "$TMP/err.txt"

# The recorded fixture (tests/fixtures/pages.dat, every kmem event and stacks on a
# page-heavy workload; see tests/fixtures/README.md) against pages-from-report.py
PD=$TOP/tests/fixtures/pages.dat
if [ -f "$PD" ] && command -v trace-cmd > /dev/null; then
	trace-cmd report -R "$PD" 2> /dev/null |
		python3 "$TOP/tests/tools/pages-from-report.py" > "$TMP/fixture.expect"
	check "pages.dat: = pages-from-report.py over trace-cmd report" \
		$CHECK "$KMA" "$PD" "$TMP/fixture.expect"
	"$KMA" --no-db --pages "$PD" > "$TMP/fixture.txt" 2> "$TMP/fixture.err"
	check "pages.dat: callers from the stacks (a function table)" \
		grep -q '^function ' "$TMP/fixture.txt"
	check "pages.dat: nothing on stderr" test ! -s "$TMP/fixture.err"
	"$KMA" -q --pages -o "$TMP/fixture.db" "$PD"
	check "pages.dat: page_stats sums = the report's pages and live pages" test \
		"$(sqlite3 -separator ' ' "$TMP/fixture.db" 'SELECT SUM(pages), SUM(live_pages) FROM page_stats')" = \
		"$(sed -n 's/^summary .*pages_alloc=\([0-9]*\) .*pages_live=\([0-9]*\) .*/\1 \2/p' "$TMP/fixture.expect")"
else
	skip "pages.dat fixture" "no tests/fixtures/pages.dat or no trace-cmd"
fi
# The reader's paths (worker threads, libtracecmd) give the same page report
for o in -j2 --libtracecmd; do
	check "pages: $o gives the same JSON" cmp <("$KMA" --no-db --pages -f json -j1 "$TMP/rand1-8.dat") \
		<("$KMA" --no-db --pages -f json $o "$TMP/rand1-8.dat")
done
if [ -f "$PD" ]; then
	# the rule of kma-analyze(1): every mm_page_free_batched follows an mm_page_free of its pfn
	check "pages.dat: every mm_page_free_batched after an mm_page_free of its pfn" \
		awk '/^# batched/ { exit !($3 > 0 && $3 == $5) }' "$TMP/fixture.expect"
fi

# generations of pages. Worked by hand from tests/pages/basic.seq: generation 0
# ('start', before the marker) has allocations 1 (1 page) and 2 (4 pages, implicitly freed
# by 5): 2 allocs, 5 pages, none live; generation 1 ('second') has 5 (1 page, live), 8
# (2 pages, live) and 9 (1 page, freed): 3 allocs, 4 pages, 2 live allocations of 3 pages.
check "pages db: page_generations as worked by hand" \
	test "$(q 'SELECT generation, label, allocs, pages, live_allocs, live_pages, live_bytes
		   FROM page_generations ORDER BY generation' | tr '\n' ' ')" = \
	"0 start 2 5 0 0 0 1 second 3 4 2 3 12288 "
# gens.seq, worked by hand in its comment: generation 2 allocated nothing (its free ends an
# allocation of generation 1), so it has no row; generation 1's pages are all freed.
G=$TMP/gens-6.18-8-little.dat
"$KMA" -q --pages -o "$TMP/gens.db" "$G" 2> "$TMP/gerr.txt"
check "pages db: page_generations of gens.seq as worked by hand" \
	test "$(sqlite3 -separator ' ' "$TMP/gens.db" 'SELECT generation, label, allocs, pages,
		live_allocs, live_pages, live_bytes FROM page_generations ORDER BY generation' |
		tr '\n' ' ')" = "0 start 1 1 1 1 4096 1 g1 2 10 0 0 0 3 g3 1 4 1 4 16384 "
# --pages --generations on gens.seq, by hand: every generation, 2 too (nothing allocated,
# one free); starts at the first event (1000) and the markers (2000, 6000, 8000); frees are
# the mm_page_free events in the generation (5000 in 1, 7000 in 2).
"$KMA" --pages --generations -f csv --no-db "$G" > "$TMP/gen.csv" 2>&1
check "pages --generations -f csv on gens.seq as worked by hand" test "$(tr '\n' ' ' < "$TMP/gen.csv")" = \
	"gen,start_ns,allocs,pages,bytes,live,live_pages,live_bytes,frees,label \
0,1000,1,1,4096,1,1,4096,0,start 1,2000,2,10,40960,0,0,0,1,g1 2,6000,0,0,0,0,0,0,1,g2 \
3,8000,1,4,16384,1,4,16384,0,g3 "
"$KMA" --pages --generations --no-db "$G" > "$TMP/gen.txt" 2>&1
check "pages --generations text: four generations, the labels" \
	test "$(awk 'NR > 1 { printf "%s:%s ", $1, $NF }' "$TMP/gen.txt")" = "0:start 1:g1 2:g2 3:g3 "
"$KMA" --pages --generations -g order --no-db "$G" > /dev/null 2> "$TMP/gerr.txt"
check "pages --generations -g order: a usage error (exit 2)" test $? = 2 -a -s "$TMP/gerr.txt"

# --pages --leaks on tests/pages/leak.seq against leak.expect's hand-worked "leak" and
# "why" lines (tests/tools/pages-leaks-check.py), in three layouts including the old one
LCHECK="python3 $TOP/tests/tools/pages-leaks-check.py"
for v in 6.18-8-little 5.10-4-big page-8-little; do
	check "pages --leaks $v: rows, ages, growth, verdicts as worked by hand" \
		$LCHECK "$KMA" "$TMP/leak-$v.dat" "$TOP/tests/pages/leak.expect"
done
L=$TMP/leak-6.18-8-little.dat
# ages under --young no more: leaker's one doubt gone, a high-confidence suspect
check "pages --leaks --young 1us: leaker high confidence" test "$("$KMA" --no-db --pages \
	--leaks --young 1us -f csv "$L" | awk -F, '$11 == "leaker" { print $10 }')" = high
check "pages --leaks text: by comm without stacks, 5 generations, the tail said" \
	sh -c "'$KMA' --no-db --pages --leaks '$L' | head -3 | tr '\n' ' ' | grep -q \
	'^Pages by comm, live at the end of the trace.* 5 generations;.*went on 0.000002s after'"
# basic.seq has stacks: by function; pipe_write's two live allocations (5 at 5000, 8 at
# 8000) are 4500 and 1500 ns old at the end (9500): median 3000, all made after the marker
check "pages --leaks with stacks: by function, pipe_write 3 live pages, median age 3000 ns" \
	test "$("$KMA" --no-db --pages --leaks -f csv "$D" | cut -d, -f1,3,5,11,12 | tr '\n' ' ')" \
	= "live_pages,live,age_med_ns,function,class 3,2,3000,pipe_write,none "
expect_exit "pages: --leaks with --generations refused" 2 "$KMA" --no-db --pages --leaks \
	--generations "$D"
# pages.dat (four generations): --leaks -g comm and -g order against the same numbers worked
# out again from its report.db (tests/tools/pages-leaks-from-db.py: page_allocations,
# generations, trace.last_ts)
if [ -f "$PD" ]; then
	"$KMA" -q --pages -o "$TMP/pdl.db" "$PD"
	for g in comm order; do
		"$KMA" --no-db --pages --leaks -g $g -f csv "$PD" > "$TMP/pdl-$g.csv"
		check "pages.dat --leaks -g $g: = pages-leaks-from-db.py over report.db" python3 \
			"$TOP/tests/tools/pages-leaks-from-db.py" "$TMP/pdl.db" $g "$TMP/pdl-$g.csv"
	done
fi

# --pages --peak. leak.seq by hand: live pages after each event 1 3 4 2 4 6 4 6 7 6 7 8 7,
# the peak 8 after event 12 (ts 9900, 8900 ns after the first event at 1000); held then:
# leaker 1, 3, 6 (2 pages), 11 = 5, steady 8 (2 pages), 12 = 3; by order 0: 1, 3, 11, 12 = 4,
# order 1: 6, 8 = 4 (a tie: by key)
check "pages --peak: 8 pages at 9900, leaker 5, steady 3" test "$("$KMA" --no-db --pages \
	--peak -f json "$L" | python3 -c 'import json, sys; d = json.load(sys.stdin)
print(d["peak_pages"], d["peak_ts"], d["peak_rel_ns"], [(r["comm"], r["pages"]) for r in d["rows"]])')" \
	= "8 9900 8900 [('leaker', 5), ('steady', 3)]"
check "pages --peak -g order -f csv: 4 and 4" test "$("$KMA" --no-db --pages --peak -g order \
	-f csv "$L" | tr '\n' ' ')" = "pages,bytes,order 4,16384,0 4,16384,1 "
# basic.seq: the peak 5 after event 2 (ts 2000): do_anonymous_page 4, pipe_write 1
check "pages --peak text: basic.seq by function" test "$("$KMA" --no-db --pages --peak "$D" |
	awk 'NR == 1 { print $4 } NR > 3 { print $1, $3 }' | tr '\n' ' ')" = "5 4 do_anonymous_page 1 pipe_write "
expect_exit "pages: --peak with --leaks refused" 2 "$KMA" --no-db --pages --peak --leaks "$D"
if [ -f "$PD" ]; then
	for g in comm order; do
		"$KMA" --no-db --pages --peak -g $g -f json "$PD" > "$TMP/pdp-$g.json"
		check "pages.dat --peak -g $g: = pages-peak-from-db.py over report.db" python3 \
			"$TOP/tests/tools/pages-peak-from-db.py" "$TMP/pdl.db" $g "$TMP/pdp-$g.json"
	done
fi

# --pages --lifetimes. leak.seq by hand: the mm_page_free lifetimes are 4: 3100 - 1100
# = 2000 and 7: 5100 - 3200 = 1900 (steady, order 1), 10: 7100 - 7000 = 100 (leaker,
# order 0), 13: 10000 - 9900 = 100 (steady, order 0). steady: 100 1900 2000, median the
# 2nd, p99 the 3rd; by order, 1: 1900 2000 (median the 1st, p99 the 2nd), 0: 100 100
check "pages --lifetimes -g comm: steady 3 frees 100/1900/2000/2000, leaker 1 of 100" \
	test "$("$KMA" --no-db --pages --lifetimes -f csv "$L" | tr '\n' ' ')" = \
	"frees,min_ns,median_ns,p99_ns,max_ns,comm 3,100,1900,2000,2000,steady 1,100,100,100,100,leaker "
check "pages --lifetimes -g order" test "$("$KMA" --no-db --pages --lifetimes -g order -f csv \
	"$L" | tr '\n' ' ')" = "frees,min_ns,median_ns,p99_ns,max_ns,order 2,100,100,100,100,0 2,1900,1900,2000,2000,1 "
# basic.seq: the implicit free of pfn 0x2000 is no lifetime; order 0: 4000 - 1000, 9500 - 9000
check "pages --lifetimes: implicit frees not counted (basic.seq)" test "$("$KMA" --no-db \
	--pages --lifetimes -g order -f csv "$D" | tr '\n' ' ')" = \
	"frees,min_ns,median_ns,p99_ns,max_ns,order 2,500,500,3000,3000,0 "
expect_exit "pages: --lifetimes with --peak refused" 2 "$KMA" --no-db --pages --lifetimes --peak "$D"
if [ -f "$PD" ]; then
	for g in comm order; do
		"$KMA" --no-db --pages --lifetimes -g $g -f json "$PD" > "$TMP/pdt-$g.json"
		check "pages.dat --lifetimes -g $g: = pages-lifetimes-from-db.py over report.db" \
			python3 "$TOP/tests/tools/pages-lifetimes-from-db.py" "$TMP/pdl.db" $g \
			"$TMP/pdt-$g.json"
	done
fi

# -s: the tables and --leaks in the order of -s (python sorts the default CSV: descending
# by the column, -s total then by live pages, then by name; caller: by name); no slack for
# pages, and --peak/--lifetimes/--generations have their own order
if [ -f "$PD" ]; then
	"$KMA" --no-db --pages -g comm -f csv "$PD" > "$TMP/ps-def.csv"
	for s in total net allocs frees caller; do
		"$KMA" --no-db --pages -g comm -s $s -f csv "$PD" > "$TMP/ps-$s.csv"
		check "pages.dat -g comm -s $s: rows in python's order of the default CSV" \
			python3 - "$TMP/ps-def.csv" "$TMP/ps-$s.csv" $s <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [r["comm"] for r in csv.DictReader(open(sys.argv[2]))]
col = {"total": "pages", "net": "live_pages", "allocs": "allocs", "frees": "frees"}.get(sys.argv[3])
if col:
    second = (lambda r: -int(r["live_pages"])) if sys.argv[3] == "total" else (lambda r: 0)
    rows.sort(key=lambda r: (-int(r[col]), second(r), r["comm"]))
else:
    rows.sort(key=lambda r: r["comm"])
want = [r["comm"] for r in rows]
sys.exit(0 if got == want and len(want) > 3 else "want %s\ngot  %s" % (want, got))
PY
	done
	# --leaks -s allocs: the rows with live pages, in the table's -s allocs order
	"$KMA" --no-db --pages --leaks -g comm -s allocs -f csv "$PD" > "$TMP/psl.csv"
	check "pages.dat --leaks -g comm -s allocs: the live rows in the -s allocs table's order" \
		python3 - "$TMP/ps-allocs.csv" "$TMP/psl.csv" <<'PY'
import csv, sys
want = [r["comm"] for r in csv.DictReader(open(sys.argv[1])) if int(r["live_pages"])]
got = [r["comm"] for r in csv.DictReader(open(sys.argv[2]))]
sys.exit(0 if got == want and len(want) > 3 else "want %s\ngot  %s" % (want, got))
PY
	"$KMA" --no-db --pages --leaks -g comm -s allocs "$PD" > "$TMP/psl.txt"
	check "pages --leaks -s allocs: the heading says the order" \
		grep -q "live at the end of the trace, sorted by allocations" "$TMP/psl.txt"
fi
expect_exit "pages: -s slack refused (pages have no slack)" 2 "$KMA" --no-db --pages -s slack "$D"
expect_exit "pages: --peak -s net refused (its own order)" 2 "$KMA" --no-db --pages --peak -s net "$D"
expect_exit "pages: --lifetimes -s allocs refused" 2 "$KMA" --no-db --pages --lifetimes -s allocs "$D"
