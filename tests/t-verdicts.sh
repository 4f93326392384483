# Leak verdicts from the leak experiment (kma-record --repeat: "kma: iteration K",
# "kma: reclaim", "kma: settle" markers), on hand-built sequences: tests/verdicts/
# experiment.seq (slab, with stacks) and tests/verdicts/pages.seq (page allocator, by
# task). Every expected class, count and age is worked out from the events the .seq
# files list (their header comments say what each call site or task does); the rules
# are kma-analyze(1)'s LEAKS section. One rule set for callers, stacks and pages: the
# same classes come out of each. On the real recordings tests/fixtures/exp-*.dat (or
# those of $KMA_EXP_FIXTURES): exp-noleak.dat has no "high" suspect;
# exp-leak.dat's only "high" ones are the planted pipe and socket allocation sites.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
E=$TMP/experiment.dat
P=$TMP/pages.dat
"$MKTRACE" -o "$E" "$TOP/tests/verdicts/experiment.seq" > "$TMP/mk.txt" 2>&1 ||
	fail "mktrace experiment.seq" "$(cat "$TMP/mk.txt")"
"$MKTRACE" -o "$P" "$TOP/tests/verdicts/pages.seq" > "$TMP/mk.txt" 2>&1 ||
	fail "mktrace pages.seq" "$(cat "$TMP/mk.txt")"

# col CSV NAME...: the named columns of a CSV file, '|' between, one line per row
col() {
	python3 - "$@" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    print('|'.join(r[c] for c in sys.argv[2:]))
EOF
}

# The classes, worked out per call site (4 iterations; live at the end from iterations
# 1..4; the reclaim's frees):
#   dent_fn   1 1 1 1 (cache dentry: the name list is not used with a reclaim phase):
#             every iteration within 1 +- 0, nothing reclaimed: suspect, high
#   leak_fn   2 2 2 2: median of iterations 2-4 is 2, tolerance 1: suspect, high
#   part_fn   1 1 1 1, but the reclaim freed 1 of the 9 it held at the marker (5 from
#             before iteration 1 + 4): 1 * 2 < 9, not reclaimable: suspect, medium
#   gap_fn    1 1 0 1: 3 of 4 within 1 +- 0 (most, not every): suspect, medium
#   cache_fn  8 live at the reclaim marker, 6 freed by it (6 * 2 >= 8): reclaimable;
#             its 2 left are iteration 4's (the reclaim freed the oldest 6): 0 0 0 2
#   warm_fn   3 0 0 0: only the first iteration: warm-up
#   rec_fn    all 4 by trace-cmd: recorder; splice_fn: all 4 through
#             tracing_buffers_splice_read (by stack, comm work): recorder
# CSV and JSON: every row with live bytes, in -s order (net: splice_fn 4 x 512,
# rec_fn 4 x 256, dent_fn 4 x 192, leak_fn and part_fn 8 x 64 (ties by name), cache_fn
# 2 x 128, gap_fn 3 x 32, warm_fn 3 x 16).
"$KMA" --leaks --no-db -f csv "$E" > "$TMP/all.csv" 2> "$TMP/err.txt"
check "experiment: --leaks -f csv, nothing on stderr" test ! -s "$TMP/err.txt"
check "experiment: classes and confidence by caller, -s net order" test \
	"$(col "$TMP/all.csv" caller class confidence net | xargs)" = \
	"splice_fn+0x10|recorder|none|2048 rec_fn+0x10|recorder|none|1024 dent_fn+0x10|suspect|high|768 leak_fn+0x10|suspect|high|512 part_fn+0x10|suspect|medium|512 cache_fn+0x10|reclaimable|none|256 gap_fn+0x10|suspect|medium|96 warm_fn+0x10|warm-up|none|48"
check "experiment: per_iteration column: what each iteration left" test \
	"$(col "$TMP/all.csv" caller per_iteration reclaim_freed | xargs)" = \
	"splice_fn+0x10|1 1 1 1|0 rec_fn+0x10|1 1 1 1|0 dent_fn+0x10|1 1 1 1|0 leak_fn+0x10|2 2 2 2|0 part_fn+0x10|1 1 1 1|1 cache_fn+0x10|0 0 0 2|6 gap_fn+0x10|1 1 0 1|0 warm_fn+0x10|3 0 0 0|0"
# leak_fn: 64 B at 11, 12, 21, 22, 31, 32, 41, 42 s; the end at 70 s: ages 59, 58, 49,
# 48, 39, 38, 29, 28: median (39 + 48) / 2 = 43.5 s
check "experiment: leak_fn's reason: per iteration, tolerance, median age" test \
	"$(col "$TMP/all.csv" caller why | grep '^leak_fn')" = \
	"leak_fn+0x10|iterations 1-4 left 2, 2, 2, 2 live objects (4 of 4 within 2 +- 1); never freed; median age 43.500000s; 0% freed (0 of 8)"
check "experiment: gap_fn's reason: 3 of 4 within the tolerance" sh -c \
	"grep '^[^,]*,3,' '$TMP/all.csv' | grep -qF 'iterations 1-4 left 1, 1, 0, 1 live objects (3 of 4 within 1 +- 0)'"
check "experiment: part_fn's reason: what the reclaim freed" sh -c \
	"grep -F 'part_fn' '$TMP/all.csv' | grep -qF 'the reclaim freed 1 of its 9 objects'"
check "experiment: cache_fn's reason: the reclaim freed 6 of 8" sh -c \
	"grep -F 'cache_fn' '$TMP/all.csv' | grep -qF 'the reclaim freed 6 of its 8 objects live at the reclaim marker'"
check "experiment: warm_fn's reason says warm-up" sh -c \
	"grep -F 'warm_fn' '$TMP/all.csv' | grep -qF 'iterations 1-4 left 3, 0, 0, 0 live objects: only the first grew (warm-up)'"
check "experiment: rec_fn's reason: 4 of its 4 the recorder's" sh -c \
	"grep -F 'rec_fn' '$TMP/all.csv' | grep -qF '4 of its 4 live objects are the recorder'\''s own'"

# The same rules by stack: one stack per call site, so the same classes in the same order.
"$KMA" --leaks --no-db -f csv -g stack "$E" > "$TMP/stack.csv"
check "experiment: -g stack: the same classes as by caller" test \
	"$(col "$TMP/stack.csv" stack class confidence | sed 's/^[^|]*;\([a-z_]*\);[^;|]*|/\1|/' | xargs)" = \
	"$(col "$TMP/all.csv" caller class confidence | sed 's/+0x10//' | xargs)"
# and report.db, whose callers table has the verdicts too
"$KMA" -q -o "$TMP/e.db" "$E"
check "experiment: report.db callers.leak_class = the report's" test \
	"$(sqlite3 -separator '|' "$TMP/e.db" "SELECT caller, leak_class, leak_confidence FROM callers
		WHERE net > 0 ORDER BY caller" | xargs)" = \
	"$(col "$TMP/all.csv" caller class confidence | sort | xargs)"

# The text: suspects only (high first, then by net), one line each within 120 columns,
# the reason under it; --all: the other classes after them.
"$KMA" --leaks --no-db "$E" > "$TMP/leaks.txt"
check "experiment: --leaks text: every line within 120 columns" \
	test "$(awk 'length > 120' "$TMP/leaks.txt" | wc -l)" = 0
check "experiment: --leaks text lists the 4 suspects (and their stacks), no other class" \
	test "$(awk '$5 == "suspect" { print $6 }' "$TMP/leaks.txt" | sed 's/.*;\([a-z_]*\);[^;]*$/\1/' | xargs)" = \
	"dent_fn+0x10 leak_fn+0x10 part_fn+0x10 gap_fn+0x10 dent_fn leak_fn part_fn gap_fn"
check "experiment: --leaks text: no reclaimable, warm-up or recorder row without --all" \
	sh -c "! grep -Eq '  (reclaimable|warm-up|recorder)  ' '$TMP/leaks.txt'"
check "experiment: --leaks text: the count of suspects" \
	grep -qx "4 suspects (2 high) of 8 rows with live bytes; --all lists the others." "$TMP/leaks.txt"
"$KMA" --leaks --all --no-db "$E" > "$TMP/all.txt"
check "experiment: --leaks --all text: suspects first, then the other classes" test \
	"$(awk '$2 ~ /^[0-9]+$/ { print $5 ":" $6 }' "$TMP/all.txt" | head -8 | xargs)" = \
	"suspect:dent_fn+0x10 suspect:leak_fn+0x10 suspect:part_fn+0x10 suspect:gap_fn+0x10 reclaimable:cache_fn+0x10 warm-up:warm_fn+0x10 recorder:splice_fn+0x10 recorder:rec_fn+0x10"
check "experiment: --leaks text: the reason on the next line, indented" sh -c \
	"grep -A1 ' leak_fn+0x10\$' '$TMP/leaks.txt' | tail -1 | grep -q '^    iterations 1-4 left 2, 2, 2, 2 live objects'"
# --min-bytes 500: gap_fn (3 x 32 = 96 B), cache_fn (256 B), warm_fn (48 B) go
"$KMA" --leaks --min-bytes 500 --no-db -f csv "$E" > "$TMP/min.csv"
check "experiment: --min-bytes 500 -f csv: the rows holding 500 bytes or more" test \
	"$(col "$TMP/min.csv" caller net | xargs)" = \
	"splice_fn+0x10|2048 rec_fn+0x10|1024 dent_fn+0x10|768 leak_fn+0x10|512 part_fn+0x10|512"
"$KMA" --leaks --min-bytes 500 --no-db "$E" > "$TMP/min.txt"
check "experiment: --min-bytes 500 text: the suspect holding 96 bytes is left out, said so" \
	sh -c "[ \"\$(awk '\$5 == \"suspect\" { print \$6 }' '$TMP/min.txt' | head -3 | xargs)\" = \
	 'dent_fn+0x10 leak_fn+0x10 part_fn+0x10' ] && ! grep -q gap_fn '$TMP/min.txt' &&
	 grep -q '^4 suspects (2 high) of 8 rows with live bytes; 3 under --min-bytes 500' '$TMP/min.txt'"
"$KMA" --min-bytes 5 --no-db "$E" > /dev/null 2> "$TMP/usage.txt"
check "--min-bytes without --leaks: usage error, exit 2" sh -c \
	"[ $? = 2 ] && grep -q 'choose the rows of --leaks' '$TMP/usage.txt'"

# Pages, by task (3 iterations):
#   leaker    1 1 1 (its page made at 59 s is freed at 60 s): suspect, high
#   cacher    6 live at the reclaim marker, 5 freed by it: reclaimable; left: iteration
#             3's second page (33 s): 0 0 1
#   warm      2 0 0 (two order-1 blocks in iteration 1): warm-up
#   trace-cmd 1 1 1: recorder
# (-f csv: by live pages, ties by name: warm 4, leaker 3, trace-cmd 3, cacher 1)
"$KMA" --pages --leaks --no-db -f csv -g comm "$P" > "$TMP/pages.csv"
check "pages: classes by task, the slab rules" test \
	"$(col "$TMP/pages.csv" comm class confidence per_iteration live_pages | xargs)" = \
	"warm|warm-up|none|2 0 0|4 leaker|suspect|high|1 1 1|3 trace-cmd|recorder|none|1 1 1|3 cacher|reclaimable|none|0 0 1|1"
check "pages: the reclaim's count in words" sh -c \
	"grep -F 'cacher' '$TMP/pages.csv' | grep -qF 'the reclaim freed 5 of its 6 page allocations live at the reclaim marker'"
"$KMA" --pages --leaks --no-db -g comm "$P" > "$TMP/pages.txt"
check "pages: --leaks text lists the one suspect" test \
	"$(awk '$6 == "suspect" { print $7 }' "$TMP/pages.txt" | xargs)" = "leaker"

# The kernel's count (tests/verdicts/counters.seq): maple_fn left 2, 2, 2 maple_node
# objects (the trace +6 between the snapshots), slabinfo says 100 -> 101 (+1, under half
# of 6): one level less, said in words; agree_fn's agree_cache +3 by both: high stays.
C=$TMP/counters.dat
"$MKTRACE" -o "$C" "$TOP/tests/verdicts/counters.seq" > "$TMP/mk.txt" 2>&1 ||
	fail "mktrace counters.seq" "$(cat "$TMP/mk.txt")"
"$KMA" --leaks --no-db -f csv "$C" > "$TMP/cnt.csv"
check "kernel counts: a cache the kernel says did not grow: medium, the reason in words" test \
	"$(col "$TMP/cnt.csv" caller confidence why)" = \
	"maple_fn+0x10|medium|iterations 1-3 left 2, 2, 2 live objects (3 of 3 within 2 +- 1); never freed; median age 19.500000s; 0% freed (0 of 6); the kernel counts +1 maple_node objects over the trace, the trace +6: objects leave through untraced frees
agree_fn+0x10|high|iterations 1-3 left 1, 1, 1 live objects (3 of 3 within 1 +- 0); never freed; median age 18.000000s; 0% freed (0 of 3)"
"$KMA" -q -o "$TMP/cnt.db" "$C"
check "kernel counts: report.db's verdicts say the same" test \
	"$(sqlite3 "$TMP/cnt.db" "SELECT caller || '|' || leak_confidence FROM callers WHERE net > 0
		ORDER BY caller" | xargs)" = "agree_fn+0x10|high maple_fn+0x10|medium"
check "kernel counts: no counters tables in report.db without --counters" test \
	"$(sqlite3 "$TMP/cnt.db" "SELECT COUNT(*) FROM counters_slab")" = 0

# A --generation the trace does not have: an error listing its generations, exit 1.
gens="0 start, 1 iteration 1, 2 iteration 2, 3 iteration 3, 4 iteration 4, 5 reclaim, 6 settle"
"$KMA" --no-db --generation 7 "$E" > "$TMP/out.txt" 2> "$TMP/err.txt"
rc=$?
check "--generation 7 (past the last, 6): exit 1, one line listing the generations" sh -c \
	"[ $rc = 1 ] && [ ! -s '$TMP/out.txt' ] && [ \$(wc -l < '$TMP/err.txt') = 1 ] &&
	 grep -qxF \"kma-analyze: $E: no generation '7' in the trace; it has 7: $gens\" '$TMP/err.txt'"
"$KMA" --no-db --leaks --generation nosuch "$E" > "$TMP/out.txt" 2> "$TMP/err.txt"
rc=$?
check "--generation nosuch: exit 1, the generations listed" sh -c \
	"[ $rc = 1 ] && [ ! -s '$TMP/out.txt' ] &&
	 grep -qxF \"kma-analyze: $E: no generation 'nosuch' in the trace; it has 7: $gens\" '$TMP/err.txt'"
"$KMA" -q -o "$TMP/nosuch.db" --generation nosuch "$E" 2> /dev/null
check "--generation nosuch: no report.db written" test ! -e "$TMP/nosuch.db"
check "--generation 6 and --generation reclaim are fine" sh -c \
	"'$KMA' --no-db --generation 6 '$E' > /dev/null && '$KMA' --no-db --generation reclaim '$E' > /dev/null"

# The real recordings (kma-record --repeat) of a leak-free workload and of the same with a
# process keeping about 20 more pipes and sockets per iteration.
FX=${KMA_EXP_FIXTURES:-$TOP/tests/fixtures}
if [ -f "$FX/exp-noleak.dat" ] && [ -f "$FX/exp-leak.dat" ]; then
	. "$TOP/tests/verdicts/real.sh"
else
	fail "experiment fixtures" "no $FX/exp-noleak.dat and exp-leak.dat"
fi
