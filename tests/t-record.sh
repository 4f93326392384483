# kma-record: usage errors everywhere; a real recording, analyzed by
# kma-analyze, where tracefs is writable.
# kma-test: exclusive tracefs (traces the live kernel)
REC=$TOP/tools/kma-record

for args in "--bogus" "-o" "--buffer x" "--buffer 2" "--duration abc" "--duration 0" "--settle x" \
	"--repeat 0" "--repeat x" "--repeat" "--repeat 2" "--reclaim" "--filter" "--page-filter x" \
	"--settle -1" "--settle" "stray"; do
	# shellcheck disable=SC2086
	"$REC" $args > /dev/null 2> "$TMP/err.txt"; rc=$?
	if [ $rc -eq 2 ] && [ "$(grep -c "^kma-record: " "$TMP/err.txt")" = 1 ]; then
		pass "kma-record usage error: $args"
	else
		fail "kma-record usage error: $args" "exit $rc: $(cat "$TMP/err.txt")"
	fi
done
check "kma-record --help ends with EXAMPLES" sh -c \
	"'$REC' --help | grep -q '^EXAMPLES' && '$REC' --help | tail -4 | grep -q kma-record"

# The ring buffer is shared: record only once per test run (the plain
# build), never while the sanitizer pass may be recording too.
T=/sys/kernel/tracing
if [ "$LABEL" = asan+ubsan ]; then
	skip "kma-record live" "recorded in the plain pass only"
elif [ "$(id -u)" != 0 ]; then
	skip "kma-record live" "not root"
elif ! command -v trace-cmd > /dev/null; then
	skip "kma-record live" "trace-cmd is not installed"
elif ! { [ -e $T/events ] || mount -t tracefs nodev $T 2> /dev/null; } || [ ! -w $T/tracing_on ] ||
	! (: >> $T/tracing_on) 2> /dev/null; then
	skip "kma-record live" "tracefs is not mounted or not writable"
else
	old_kb=$(cut -d' ' -f1 $T/buffer_size_kb)
	# record_and_analyze NAME [ENV=VALUE]: a short workload, then kma-analyze
	record_and_analyze() {
		local name=$1 allocs
		shift
		if ! env "$@" "$REC" --buffer 8192 --markers -o "$TMP/rec.dat" -- \
			sh -c "echo 'kma: gen1' > $T/trace_marker; for i in 1 2 3; do ls /usr > /dev/null; done" \
			> "$TMP/rec.out" 2> "$TMP/rec.err"; then
			fail "kma-record $name" "$(grep -v '^CPU\|bytes in size' "$TMP/rec.err" | tail -3)"
			return
		fi
		if ! "$KMA" -q -o "$TMP/rec.db" "$TMP/rec.dat" 2> "$TMP/kma.err"; then
			fail "kma-record $name" "kma-analyze failed on the recording: $(cat "$TMP/kma.err")"
			return
		fi
		# the kma-topology: marker kma-record writes: report.db's cpu_nodes is sysfs's map;
		# written first, it is the first record a ring buffer that overflowed loses
		# (extract reads the buffer only at the end: other work on a busy machine fills it)
		lost=$(sqlite3 "$TMP/rec.db" "SELECT lost_events FROM summary" 2> /dev/null)
		nodes=$(sqlite3 "$TMP/rec.db" "SELECT count(*) FROM cpu_nodes" 2> /dev/null)
		if [ "${lost:-0}" != 0 ] && [ "${nodes:-0}" = 0 ]; then
			skip "kma-record $name: cpu_nodes from its kma-topology: marker" \
				"the ring buffer lost $lost events, the marker among them (busy machine)"
		else
			check "kma-record $name: cpu_nodes from its kma-topology: marker = sysfs" \
				cmp <(sh "$TOP/tests/tools/sysfs-cpu-nodes.sh") \
				<(sqlite3 "$TMP/rec.db" "SELECT cpu, node FROM cpu_nodes ORDER BY cpu")
		fi
		allocs=$(sqlite3 "$TMP/rec.db" "SELECT allocs FROM summary")
		if [ "${allocs:-0}" -gt 0 ] && grep -q '"kma:" markers recorded' "$TMP/rec.err" &&
		   ! grep -q '^kma-record: 0 "kma:" markers' "$TMP/rec.err" &&
		   grep -q "^kma-record: wrote $TMP/rec.dat" "$TMP/rec.err"; then
			pass "kma-record $name: $allocs allocations, marker recorded"
		else
			fail "kma-record $name" "allocs=$allocs: $(grep '^kma-record' "$TMP/rec.err")"
		fi
		rm -f "$TMP/rec.dat" "$TMP/rec.db"
	}
	record_and_analyze "default method"
	record_and_analyze "tracefs + extract fallback" KMA_RECORD_METHOD=extract
	check "kma-record restores buffer_size_kb" test "$(cut -d' ' -f1 $T/buffer_size_kb)" = "$old_kb"
	check "kma-record leaves no temporary file" sh -c "! ls -A '$TMP' | grep -q kma-record"

	# A buffer far too small for the workload: the user is told, with the fix.
	# (extract reads the buffer only at the end, so it surely overflows.)
	KMA_RECORD_METHOD=extract "$REC" --buffer 4 -o "$TMP/small.dat" -- \
		sh -c 'for i in 1 2 3; do ls /usr > /dev/null; done' > /dev/null 2> "$TMP/small.err"
	check "kma-record warns about lost events" sh -c "
		grep -q 'WARNING: at least [0-9]* events were lost' '$TMP/small.err' &&
		grep -q 'bigger buffer, e.g. --buffer [0-9]' '$TMP/small.err'"
	rm -f "$TMP/small.dat"
	check "kma-record fails cleanly on an unwritable output" sh -c "
		'$REC' -o /nonexistent-dir/x.dat -- true 2> '$TMP/e.txt'; test \$? = 1 &&
		test \$(wc -l < '$TMP/e.txt') = 1"

	# --settle: a "kma: settle" marker when the command exits, then events
	# for the settle time after it (timestamps read by trace-cmd report).
	"$REC" --buffer 8192 --markers --settle 1 -o "$TMP/settle.dat" -- true \
		> /dev/null 2> "$TMP/settle.err"
	trace-cmd report -i "$TMP/settle.dat" 2> /dev/null | awk '
		/ print: .*kma: settle/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) m = $i + 0 }
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { last = $i + 0; break } }
		END { printf "%s %.6f\n", m ? "marker" : "none", m ? last - m : 0 }' > "$TMP/settle.txt"
	check "kma-record --settle 1: 'kma: settle' marker, then >= 0.9 s of trace" awk '
		$1 == "marker" && $2 >= 0.9 { ok = 1 } END { exit !ok }' "$TMP/settle.txt"
	"$REC" --buffer 8192 --markers --settle 0 -o "$TMP/settle.dat" -- true > /dev/null 2>&1
	check "kma-record --settle 0: no settle marker" sh -c \
		"! trace-cmd report -i '$TMP/settle.dat' 2> /dev/null | grep -q 'kma: settle'"
	rm -f "$TMP/settle.dat"

	# The count of the file written: kma-analyze --count's, as trace-cmd
	# report counts the kmem lines, and no whole trace-cmd report run for it
	# (only --stat, which reads the statistics). trace-cmd through a wrapper
	# that logs its arguments.
	mkdir -p "$TMP/wrap"
	printf '#!/bin/sh\necho "$*" >> "%s"\nexec "%s" "$@"\n' "$TMP/tc.log" "$(command -v trace-cmd)" \
		> "$TMP/wrap/trace-cmd"
	chmod +x "$TMP/wrap/trace-cmd"
	PATH=$TMP/wrap:$PATH "$REC" --buffer 8192 --settle 0 -o "$TMP/cnt.dat" -- \
		sh -c 'ls /usr > /dev/null' > /dev/null 2> "$TMP/cnt.err"
	check "kma-record ran trace-cmd (the wrapper saw it)" grep -q '^record ' "$TMP/tc.log"
	check "kma-record counts without a whole trace-cmd report" sh -c \
		"! grep '^report' '$TMP/tc.log' | grep -vq -- '--stat'"
	n=$(sed -n 's/^kma-record: wrote .* (\([0-9]*\) kmem events,.*/\1/p' "$TMP/cnt.err")
	want=$(trace-cmd report -i "$TMP/cnt.dat" 2> /dev/null |
		grep -cE ' (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node|kfree|kmem_cache_free): ')
	check "kma-record's count of kmem events ($n) = trace-cmd report's ($want)" \
		test "${n:-none}" = "$want" -a "$want" -gt 0
	rm -f "$TMP/cnt.dat"

	# the pid list, event-fork and the instances, to be found as they were
	pidstate() { echo "pids=[$(cat $T/set_event_pid)] fork=$(cat $T/options/event-fork)"; ls $T/instances; }
	pidstate > "$TMP/pidstate.before"

	# --instance: recorded in an instance of its own, removed after; the
	# top level untouched; the marker written to the instance's trace_marker
	I=kma-test-$$
	"$REC" --buffer 4096 --markers --settle 0 --instance "$I" -o "$TMP/inst.dat" -- \
		sh -c "echo 'kma: in-instance' > $T/instances/$I/trace_marker; ls /usr > /dev/null" \
		> /dev/null 2> "$TMP/inst.err"
	rc=$?
	check "--instance: exit 0, the instance removed afterwards" sh -c "test $rc = 0 && test ! -e $T/instances/$I"
	check "--instance: the top-level buffer size untouched" test "$(cut -d' ' -f1 $T/buffer_size_kb)" = "$old_kb"
	trace-cmd report -i "$TMP/inst.dat" 2> /dev/null > "$TMP/inst.txt"
	want=$(grep -cE "^$I: .* (kmalloc|kmem_cache_alloc|kfree|kmem_cache_free): " "$TMP/inst.txt")
	check "--instance: the file's kmem events ($want) and marker are the instance's" bash -c "
		test $want -gt 0 && grep -q '^$I: .* print: .*kma: in-instance' '$TMP/inst.txt' &&
		! grep -qE ' (kmalloc|kmem_cache_alloc|kfree|kmem_cache_free): ' <(grep -v '^$I: ' '$TMP/inst.txt')"
	check "--instance: kma-record's counts = trace-cmd report's" sh -c "
		grep -q '^kma-record: wrote .* ($want kmem events,' '$TMP/inst.err' &&
		grep -q '^kma-record: 1 \"kma:\" markers recorded' '$TMP/inst.err'"
	# an instance that exists is another tracer's: refused, left alone
	mkdir "$T/instances/$I"
	"$REC" --settle 0 --instance "$I" -o "$TMP/inst2.dat" -- true > /dev/null 2> "$TMP/inst2.err"
	rc=$?
	check "--instance NAME that exists: exit 1, one line, the instance left" sh -c "
		test $rc = 1 && test \$(wc -l < '$TMP/inst2.err') = 1 &&
		grep -q 'instance exists already' '$TMP/inst2.err' && test -d $T/instances/$I &&
		test ! -e '$TMP/inst2.dat'"
	rmdir "$T/instances/$I"
	rm -f "$TMP/inst.dat" "$TMP/inst.txt"
	# a file of the instance open when kma-record removes it (the kernel says EBUSY):
	# held a moment past the workload (by the workload's own child), it is waited out
	"$REC" --buffer 1024 --settle 0 --instance "$I" -o "$TMP/inst.dat" -- sh -c \
		"(exec 7< $T/instances/$I/buffer_size_kb; sleep 1) > /dev/null 2>&1 & ls /usr > /dev/null" \
		> /dev/null 2> "$TMP/inst.err"
	rc=$?
	check "--instance: a file of it open a moment past the end: removed, no warning" sh -c \
		"test $rc = 0 && test ! -e $T/instances/$I && ! grep -q warning '$TMP/inst.err'"
	# (put back when it failed: once the workload's child has closed it)
	rm_inst() { for i in $(seq 60); do [ -d "$1" ] || return 0; rmdir "$1" 2> /dev/null; sleep 0.05; done; }
	rm_inst "$T/instances/$I"
	# held for good: left, and named in a warning
	"$REC" --buffer 1024 --settle 0 --instance "$I" -o "$TMP/inst.dat" -- sh -c \
		"sleep 0.5; ls /usr > /dev/null" > /dev/null 2> "$TMP/inst.err" &
	pid=$!
	for i in $(seq 100); do [ -e "$T/instances/$I/buffer_size_kb" ] && break; sleep 0.05; done
	exec 7< "$T/instances/$I/buffer_size_kb"
	wait $pid; rc=$?
	left=$([ -d "$T/instances/$I" ] && echo left)
	exec 7<&-
	rm_inst "$T/instances/$I"
	check "--instance: one held open: exit 0, the file written, the instance left ($left) and named" \
		sh -c "test $rc = 0 && test -s '$TMP/inst.dat' && test '$left' = left &&
		grep -qx 'kma-record: warning: cannot remove the tracefs instance $I (a file of it is open): rmdir $T/instances/$I' '$TMP/inst.err'"
	check "--instance: the test removed it after" test ! -e "$T/instances/$I"
	rm -f "$TMP/inst.dat"

	# -P: a process that starts children once recording is on; recorded
	# until it exits, its kmem events and its children's only (every pid
	# it started is written down by the process itself)
	: > "$TMP/kids"
	sh -c "sleep 2 & echo \$! >> '$TMP/kids'; wait
		for i in 1 2 3; do ls /usr > /dev/null & echo \$! >> '$TMP/kids'; wait; done
		sleep 0.3 & echo \$! >> '$TMP/kids'; wait" &
	tpid=$!
	"$REC" --buffer 8192 --settle 0 -P "$tpid" -o "$TMP/pid.dat" > /dev/null 2> "$TMP/pid.err"
	rc=$?
	wait "$tpid"
	trace-cmd report -i "$TMP/pid.dat" 2> /dev/null |
		awk '/ (kmalloc|kmem_cache_alloc|kfree|kmem_cache_free): / { n = split($1, w, "-"); print w[n] }' |
		sort -u > "$TMP/pid.got"
	{ echo "$tpid"; cat "$TMP/kids"; } | sort -u > "$TMP/pid.want"
	check "-P: exit 0 once the process exited" test "$rc" = 0
	check "-P: kmem events of the process and its children only" sh -c "
		test -s '$TMP/pid.got' && test -z \"\$(comm -23 '$TMP/pid.got' '$TMP/pid.want')\""
	# the three ls runs (lines 2-4), started after recording began
	sed -n 2,4p "$TMP/kids" | sort > "$TMP/pid.ls"
	check "-P: every ls child's events are in (event-fork)" sh -c "
		test \$(wc -l < '$TMP/pid.ls') = 3 && test -z \"\$(comm -13 '$TMP/pid.got' '$TMP/pid.ls')\""
	pidstate > "$TMP/pidstate.after"
	check "set_event_pid, event-fork and the instances as they were" cmp "$TMP/pidstate.before" "$TMP/pidstate.after"
	rm -f "$TMP/pid.dat"
	unset -f pidstate
fi
