# kma-record's options that need no tracing (--help, -P/--pid and
# --instance usage errors) and kma-analyze --count, which kma-record counts
# a recording with, against trace-cmd's own reading of the fixtures.
REC=$TOP/tools/kma-record

check "kma-record --help: record is a KMA_RECORD_METHOD value" sh -c \
	"'$REC' --help | sed -n '/^ *KMA_RECORD_METHOD/,/^ *KMA_ANALYZE/p' | grep -q '^ *record, nofilter or extract:'"
check "kma-record --help: -P/--pid and --instance" sh -c \
	"'$REC' --help | grep -q '^ *-P, --pid PID' && '$REC' --help | grep -q '^ *--instance NAME'"

# usage_error ARGS... WORDS: exit 2, one "kma-record:" line naming the problem
usage_error() {
	local words=$1 rc
	shift
	# an output that cannot be written: a usage error missed records nothing
	"$REC" -o "$TMP/no-dir/x.dat" "$@" > /dev/null 2> "$TMP/err.txt"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(grep -c "^kma-record: " "$TMP/err.txt")" = 1 ] &&
	   grep -q "^kma-record: .*$words" "$TMP/err.txt"; then
		pass "kma-record usage error: $*"
	else
		fail "kma-record usage error: $*" "exit $rc: $(cat "$TMP/err.txt")"
	fi
}
usage_error "--pid wants a process id, not 'x'" --pid x -- true
usage_error "--pid wants a process id, not '0'" -P 0 -- true
usage_error "--pid wants a process id, not '-1'" --pid=-1 -- true
usage_error "--pid wants a process id, not ''" --pid= -- true
usage_error "option -P needs an argument" -P
usage_error "--instance wants a name" --instance a/b -- true
usage_error "--instance wants a name" --instance .. -- true
usage_error "--instance wants a name" --instance= -- true
usage_error "option --instance needs an argument" --instance
usage_error "--allocators: unknown allocator 'slabs'" --allocators slabs -- true
usage_error "--allocators: unknown allocator ''" --allocators slab,,page -- true
usage_error "--allocators: unknown allocator 'all '" "--allocators=all " -- true
usage_error "--allocators wants a list of slab, page, percpu, vmalloc or all, not ''" --allocators= -- true
usage_error "option --allocators needs an argument" --allocators
usage_error "--page-filter needs --pages" --allocators slab,percpu --page-filter 'order > 0' -- true
check "kma-record --help: --allocators and its names" sh -c \
	"'$REC' --help | grep -q '^ *--allocators LIST' && '$REC' --help | grep -q 'percpu (percpu:percpu_alloc_percpu'"

# a process that is not there: exit 1 before anything is recorded
pid=999999
while [ -d "/proc/$pid" ]; do pid=$((pid + 1)); done
"$REC" --pid "$pid" -o "$TMP/none.dat" > /dev/null 2> "$TMP/err.txt"
rc=$?
check "kma-record --pid of no process: exit 1, one line" sh -c "
	test $rc = 1 && test \$(wc -l < '$TMP/err.txt') = 1 &&
	grep -qx 'kma-record: --pid $pid: no such process' '$TMP/err.txt' && test ! -e '$TMP/none.dat'"

# kma-analyze --count against trace-cmd report: records per event name,
# "kma:" markers, and the lost events per CPU by kma's rule (the larger of
# the pages' EVENTS DROPPED counts and the overrun statistic, plus commit
# overrun and dropped events), from trace-cmd's text and --stat.
if ! command -v trace-cmd > /dev/null; then
	skip "kma-analyze --count against trace-cmd" "trace-cmd is not installed"
else
	for f in basic markers lost lost-mid stacks pages; do
		dat=$TOP/tests/fixtures/$f.dat
		if ! "$KMA" --count "$dat" > "$TMP/count.txt" 2> "$TMP/count.err"; then
			fail "kma-analyze --count $f.dat" "$(cat "$TMP/count.err")"
			continue
		fi
		memo "$TMP/report.txt" "trace-cmd-report $dat" trace-cmd report -i "$dat" 2> /dev/null
		memo "$TMP/stat.txt" "trace-cmd-report-stat $dat" trace-cmd report --stat -i "$dat" 2> /dev/null
		awk -v statfile="$TMP/stat.txt" '
			# the event name: the field after the timestamp
			{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				name = $(i + 1); sub(/:$/, "", name); n[name]++; records++
				if (name ~ /^(kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node|kfree|kmem_cache_free)$/)
					kmem++
				if (name == "print" && $0 ~ /tracing_mark_write: kma:/)
					markers++
				break } }
			/^CPU:[0-9]+ \[[0-9]+ EVENTS DROPPED\]/ {
				split($1, cc, ":"); v = $2; sub(/^\[/, "", v); marks[cc[2]] += v }
			END {
				while ((getline l < statfile) > 0) {
					if (l ~ /^CPU: *[0-9]+/) { split(l, w, /: */); cpu = w[2] + 0 }
					else if (l ~ /^overrun:/) { split(l, w, " "); ov[cpu] = w[2] }
					else if (l ~ /^(commit overrun|dropped events):/) { k = split(l, w, " "); add[cpu] += w[k] }
				}
				printf "records %d\nkmem %d\nmarkers %d\n", records, kmem, markers
				for (c = 0; c < 256; c++) {
					x = (marks[c] > ov[c] ? marks[c] : ov[c]) + add[c]
					if (x) { lost += x; per = per sprintf("lost_cpu %d %d\n", c, x) }
				}
				printf "lost %d\n%s", lost, per
				for (e in n) printf "event %s %d\n", e, n[e] | "sort"
			}' "$TMP/report.txt" > "$TMP/want.txt"
		# kma's lines in the same shape: event names without their system
		grep -v '^lost_unknown_pages ' "$TMP/count.txt" |
			awk '$1 == "event" { sub(/^[^:]*:/, "", $2); print | "sort"; next } { print }' > "$TMP/got.txt"
		check "kma-analyze --count $f.dat = trace-cmd report's counts" cmp "$TMP/want.txt" "$TMP/got.txt"
		cp "$TMP/want.txt" "$TMP/want-$f.txt"
	done
	# the comparison above covers losses: trace-cmd sees some in these two
	check "lost.dat and lost-mid.dat lost events by trace-cmd's account" sh -c "
		grep -qx 'lost [1-9][0-9]*' '$TMP/want-lost.txt' &&
		grep -qx 'lost [1-9][0-9]*' '$TMP/want-lost-mid.txt'"
fi

"$KMA" --count -s net "$TOP/tests/fixtures/basic.dat" > /dev/null 2> "$TMP/err.txt"
rc=$?
check "kma-analyze --count -s net: usage error" sh -c \
	"test $rc = 2 && grep -q -- '--count only counts' '$TMP/err.txt'"
"$KMA" --count "$TMP/nonexistent.dat" > /dev/null 2> "$TMP/err.txt"
rc=$?
check "kma-analyze --count of no file: exit 1, one line naming it" sh -c \
	"test $rc = 1 && test \$(wc -l < '$TMP/err.txt') = 1 && grep -q '$TMP/nonexistent.dat' '$TMP/err.txt'"
unset -f usage_error
