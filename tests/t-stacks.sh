# Kernel stacks on a real trace (tests/fixtures/stacks.dat, kma-record --stacks):
# kma-analyze's -f folded (every --weight) and -g stack numbers against
# tests/tools/stacks-from-report.py, an independent computation over
# `trace-cmd report` text; the folded sums against the summary; -j and
# --libtracecmd alike; the workload's known paths; no tracing frames left.
FIX=$TOP/tests/fixtures
DAT=$FIX/stacks.dat
SCRIPT=$TOP/tests/tools/stacks-from-report.py
WEIGHTS="bytes net slack allocs"
TRACING_RE='^(trace_event_raw_event_|ftrace_raw_event_|perf_trace_)'

if [ ! -f "$DAT" ]; then
	fail "stacks fixture" "missing $DAT"
	return 0 2> /dev/null || exit 0
fi

# kma's outputs, each once
ok=1
for w in $WEIGHTS; do
	"$KMA" --no-db -f folded --weight "$w" "$DAT" > "$TMP/k-$w.txt" 2> "$TMP/err.txt" || ok=0
done
"$KMA" --no-db -f folded "$DAT" > "$TMP/k-default.txt" 2>> "$TMP/err.txt" || ok=0
"$KMA" --no-db -g stack -f csv "$DAT" > "$TMP/k.csv" 2>> "$TMP/err.txt" || ok=0
"$KMA" -o "$TMP/report.db" "$DAT" > "$TMP/k-text.txt" 2>> "$TMP/err.txt" || ok=0
if [ $ok = 0 ]; then
	fail "stacks: kma-analyze runs on stacks.dat" "$(tail -5 "$TMP/err.txt")"
	return 0 2> /dev/null || exit 0
fi
pass "stacks: kma-analyze runs on stacks.dat"

check "stacks: -f folded weighs bytes by default" cmp "$TMP/k-default.txt" "$TMP/k-bytes.txt"

# sum_folded FILE: the sum of the weights of the folded lines
sum_folded() {
	awk '{ s += $NF } END { printf "%.0f\n", s }' "$1"
}
# summary_line LABEL: the number after "LABEL:" in the text report's summary
summary_line() {
	sed -n "s/^$1: *//p" "$TMP/k-text.txt" | head -1
}
db_summary() {
	sqlite3 "$TMP/report.db" "SELECT $1 FROM summary"
}
for pair in "bytes total:total bytes allocated" "net net:net bytes allocated" \
	    "slack slack:slack bytes allocated" "allocs allocs:number of allocs"; do
	w=${pair%% *} rest=${pair#* }
	col=${rest%%:*} label=${rest#*:}
	got=$(sum_folded "$TMP/k-$w.txt")
	txt=$(summary_line "$label")
	db=$(db_summary "$col")
	if [ -n "$txt" ] && [ "$got" = "$txt" ] && [ "$got" = "$db" ]; then
		pass "stacks: --weight $w sums to the summary's $col ($got)"
	else
		fail "stacks: --weight $w sums to the summary's $col" "folded $got, text '$txt', report.db '$db'"
	fi
done

# Folded lines: "FOLDED WEIGHT", weight > 0, sorted by the folded string (strcmp).
bad=
for w in $WEIGHTS; do
	grep -Evq '^([^ ]+|\[no stack\]) [1-9][0-9]*$' "$TMP/k-$w.txt" && bad="$bad $w:format"
	sed 's/ [0-9]*$//' "$TMP/k-$w.txt" > "$TMP/keys.txt"
	LC_ALL=C sort -c "$TMP/keys.txt" 2> /dev/null || bad="$bad $w:order"
	[ "$(sort -u "$TMP/keys.txt" | wc -l)" = "$(wc -l < "$TMP/keys.txt")" ] || bad="$bad $w:duplicates"
done
check "stacks: folded lines well formed, sorted, unique, no zero weights" test -z "$bad"

# With a filter, folded output is still stacks only (flamegraph.pl takes nothing else):
# the filter's note goes to stderr
"$KMA" --no-db -f folded --comm work-stacks.sh --since 0 "$DAT" > "$TMP/k-filt.txt" 2> "$TMP/filt-err.txt"
check "stacks: -f folded with filters: stacks only on stdout, the filter note on stderr" sh -c \
	'test -s "$1" && ! grep -Evq "^([^ ]+|\[no stack\]) [1-9][0-9]*\$" "$1" &&
	 grep -q "^# allocations.*filter: comm" "$2"' sh "$TMP/k-filt.txt" "$TMP/filt-err.txt"

# No stack keeps a tracing frame at either end: the innermost frames up to
# trace_event_raw_event_* are dropped, so every stack starts at the allocator.
cut -d' ' -f1 "$TMP/k-allocs.txt" | grep -v '^\[no$' | tr ';' ' ' |
	awk '{ print $1; print $NF }' | grep -E "$TRACING_RE" > "$TMP/tracing.txt"
check "stacks: no folded stack starts or ends with a tracing frame" test ! -s "$TMP/tracing.txt"
inner=$(cut -d' ' -f1 "$TMP/k-allocs.txt" | grep -v '^\[no$' | awk -F';' '{ print $NF }' |
	grep -Ev '^(kmem_cache_alloc|__kmalloc|kmalloc|__kvmalloc|kvmalloc)' | sort -u | tr '\n' ' ')
check "stacks: every stack's innermost frame is a slab allocator" test -z "$inner"

# The workload's known paths (tests/fixtures/scripts/work-stacks.sh): 2 x 60 + 20
# mkdirs, 60 opens with stacks (30 more without), 3 pipes, and 20 directories
# and 7 open files still allocated at the end.
# weight_of FILE REGEX: the summed weight of the folded lines matching REGEX
weight_of() {
	grep -E "$2" "$1" | awk '{ s += $NF } END { printf "%.0f\n", s }'
}
D_ALLOC=';__x64_sys_mkdir;do_mkdirat;.*;__d_alloc;kmem_cache_alloc_lru_noprof '
FILP=';__x64_sys_openat;do_sys_openat2;.*;alloc_empty_file;kmem_cache_alloc_noprof '
PIPE=';__x64_sys_pipe2;do_pipe2;create_pipe_files;.*;alloc_empty_file;kmem_cache_alloc_noprof '
n=$(weight_of "$TMP/k-allocs.txt" "$D_ALLOC")
check "stacks: mkdir -> do_mkdirat -> __d_alloc: >= 140 allocations ($n)" test "$n" -ge 140
check "stacks: do_mkdirat reaches kmem_cache_alloc_noprof" \
	grep -qE ';do_mkdirat;.*;kmem_cache_alloc_noprof ' "$TMP/k-allocs.txt"
n=$(weight_of "$TMP/k-allocs.txt" "$FILP")
check "stacks: openat -> alloc_empty_file: >= 60 allocations ($n)" test "$n" -ge 60
n=$(weight_of "$TMP/k-allocs.txt" "$PIPE")
check "stacks: pipe2 -> create_pipe_files -> alloc_empty_file: >= 6 files ($n)" test "$n" -ge 6
# the kept dentries: net / (bytes / allocs) of the __d_alloc line = dentries still live
n=$(awk -v re="$D_ALLOC" 'FNR == 1 { f++ } $0 ~ re { v[f] += $NF }
	END { if (v[1] && v[2]) printf "%d", v[3] / (v[1] / v[2]); else print 0 }' \
	"$TMP/k-bytes.txt" "$TMP/k-allocs.txt" "$TMP/k-net.txt")
check "stacks: >= 20 mkdir dentries still live at the end ($n)" test "$n" -ge 20
n=$(weight_of "$TMP/k-net.txt" "$FILP")
check "stacks: files opened and held to the end have net bytes ($n)" test "$n" -gt 0
# the 30 opens without stacktrace: getname, filp and its LSM blob each
n=$(weight_of "$TMP/k-allocs.txt" '^\[no stack\] ')
check "stacks: [no stack] holds >= 90 allocations ($n)" test "$n" -ge 90

# -j and --libtracecmd read the same stacks (the CSV has every per-stack number)
bad=
for mode in "-j 1" "-j 3" "--libtracecmd"; do
	# shellcheck disable=SC2086
	"$KMA" --no-db $mode -f folded "$DAT" 2> /dev/null > "$TMP/j-bytes.txt"
	# shellcheck disable=SC2086
	"$KMA" --no-db $mode -g stack -f csv "$DAT" 2> /dev/null > "$TMP/j.csv"
	cmp -s "$TMP/j-bytes.txt" "$TMP/k-bytes.txt" || bad="$bad '$mode' folded"
	cmp -s "$TMP/j.csv" "$TMP/k.csv" || bad="$bad '$mode' csv"
done
check "stacks: -j 1, -j 3 and --libtracecmd give the same folded and -g stack output" test -z "$bad"

# The independent computation: needs trace-cmd (its report) and python3.
if ! command -v trace-cmd > /dev/null; then
	skip "stacks: numbers against trace-cmd report" "trace-cmd is not installed"
	return 0 2> /dev/null || exit 0
fi
if ! command -v python3 > /dev/null; then
	skip "stacks: numbers against trace-cmd report" "python3 is not installed"
	return 0 2> /dev/null || exit 0
fi
mkdir -p "$TMP/p"
if ! python3 "$SCRIPT" "$DAT" --outdir "$TMP/p" 2> "$TMP/err.txt"; then
	fail "stacks: stacks-from-report.py runs" "$(tail -5 "$TMP/err.txt")"
	return 0 2> /dev/null || exit 0
fi
for w in $WEIGHTS; do
	cp "$TMP/p/folded-$w.txt" "$TMP/p-$w.txt"
	if cmp -s "$TMP/k-$w.txt" "$TMP/p-$w.txt"; then
		pass "stacks: -f folded --weight $w = trace-cmd report ($(wc -l < "$TMP/p-$w.txt") lines)"
	else
		fail "stacks: -f folded --weight $w = trace-cmd report" \
			"$(diff "$TMP/k-$w.txt" "$TMP/p-$w.txt" | head -6 | cut -c1-300)"
	fi
done

# -g stack -f csv: the same rows (kma sorts by total, the script by stack)
cp "$TMP/p/stacks.csv" "$TMP/p.csv"
# (slack_pct, a ratio of two of the columns, is not in the script's output: t-slack-groups.sh)
python3 -c '
import csv, sys
w = csv.writer(sys.stdout, lineterminator="\n")
r = list(csv.reader(open(sys.argv[1])))
i = r[0].index("slack_pct")
w.writerows(x[:i] + x[i + 1:] for x in r)' "$TMP/k.csv" > "$TMP/k-nopct.csv"
{ head -1 "$TMP/k-nopct.csv"; tail -n +2 "$TMP/k-nopct.csv" | LC_ALL=C sort; } > "$TMP/k-sorted.csv"
{ head -1 "$TMP/p.csv"; tail -n +2 "$TMP/p.csv" | LC_ALL=C sort; } > "$TMP/p-sorted.csv"
check "stacks: -g stack -f csv rows = trace-cmd report" \
	diff "$TMP/k-sorted.csv" "$TMP/p-sorted.csv"

# value KEY: a number of the script's summary
value() {
	sed -n "s/^$1=//p" "$TMP/p/summary.txt"
}
got=$(awk '$1 == "[no" { print $NF }' "$TMP/k-allocs.txt")/$(awk '$1 == "[no" { print $NF }' "$TMP/k-bytes.txt")
want=$(value nostack_allocs)/$(value nostack_total)
check "stacks: [no stack] = the allocations trace-cmd shows without a stack ($want)" \
	test "$got" = "$want"
got=$(db_summary "total || ' ' || net || ' ' || allocs || ' ' || frees || ' ' || implicit_frees")
want="$(value total) $(value net) $(value allocs) $(value frees) $(value implicit_frees)"
check "stacks: summary = trace-cmd report ($want)" test "$got" = "$want"

# the -g stack text report's counts
n=$(($(wc -l < "$TMP/p.csv") - 1))
want="number of stack groups: $n|kmem events with a stack: $(value with_stack) of $(value kmem_events)"
"$KMA" --no-db -g stack -n 1 "$DAT" > "$TMP/k-stack.txt" 2>&1
got=$(grep -E '^(number of stack groups|kmem events with a stack):' "$TMP/k-stack.txt" | paste -sd'|')
check "stacks: -g stack counts = trace-cmd report ($want)" test "$got" = "$want"

# report.db's stacks: stack_stats has a row per stack id; stacks that differ only in
# offsets share a folded string, so sum by it.
sqlite3 -csv "$TMP/report.db" "SELECT folded, SUM(total), SUM(slack), SUM(net), SUM(allocs),
	SUM(frees), SUM(implicit_frees) FROM stack_stats GROUP BY folded" 2>&1 |
	tr -d '"' | LC_ALL=C sort > "$TMP/db-stacks.csv"
tail -n +2 "$TMP/p.csv" | LC_ALL=C sort > "$TMP/p-stacks.csv"
check "stacks: report.db stack_stats = trace-cmd report" \
	diff "$TMP/db-stacks.csv" "$TMP/p-stacks.csv"

# --leaks: by caller, then by stack; each table's net column sums to the trace's net
# (with --all, rows with net > 0 are listed; a row's reasons are on the lines under it),
# as trace-cmd report's pairing says.
"$KMA" --no-db --leaks --all "$DAT" > "$TMP/leaks.txt" 2>&1
check "stacks: --leaks has a table by call stack" grep -q '^Call stacks by outstanding bytes' \
	"$TMP/leaks.txt"
got=$(awk '/^Call stacks by/ { sec = 2 } /^Callers by/ { sec = 1 }
	$1 ~ /^[0-9]+$/ && $4 ~ /^(high|medium|low|none)$/ { n[sec] += $1 } END { print n[1] + 0 "/" n[2] + 0 }' "$TMP/leaks.txt")
check "stacks: --leaks net by caller / by stack = trace-cmd report ($(value net))" \
	test "$got" = "$(value net)/$(value net)"
"$KMA" --no-db --leaks -g stack -f csv "$DAT" > "$TMP/leaks.csv" 2>&1
check "stacks: --leaks -g stack -f csv has the stack column" \
	grep -q '^net,live,.*,confidence,stack,class,why,per_iteration,reclaim_freed$' "$TMP/leaks.csv"
got=$(awk -F, 'NR > 1 { n += $1 } END { print n + 0 }' "$TMP/leaks.csv")
check "stacks: --leaks -g stack -f csv net = trace-cmd report" test "$got" = "$(value net)"
