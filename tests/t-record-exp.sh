# kma-record's leak experiment, live: --repeat's iteration, reclaim and settle
# markers, the counter markers (checked by tests/tools/exp-markers.py against
# /proc/slabinfo and against a fake /proc with KMA_PROC), and the recorded
# command's file descriptors.
# kma-test: exclusive tracefs (traces the live kernel)
REC=$TOP/tools/kma-record
PARSE=$TOP/tests/tools/exp-markers.py
T=/sys/kernel/tracing
if [ "$LABEL" = asan+ubsan ]; then
	skip "kma-record --repeat live" "recorded in the plain pass only"
elif [ "$(id -u)" != 0 ]; then
	skip "kma-record --repeat live" "not root"
elif ! command -v trace-cmd > /dev/null; then
	skip "kma-record --repeat live" "trace-cmd is not installed"
elif ! { [ -e $T/events ] || mount -t tracefs nodev $T 2> /dev/null; } || [ ! -w $T/tracing_on ] ||
	! (: >> $T/tracing_on) 2> /dev/null; then
	skip "kma-record --repeat live" "tracefs is not mounted or not writable"
else
	# the tracefs settings kma-record touches, to be found as they were
	settings() {
		local f
		for f in buffer_size_kb tracing_on options/stacktrace options/markers \
			events/kmem/kmalloc/filter events/kmem/mm_page_alloc/enable; do
			[ -e "$T/$f" ] && echo "$f $(cut -d' ' -f1 "$T/$f")"
		done
	}
	settings > "$TMP/settings.before"

	# prints NAME: the print events of $TMP/NAME.dat
	prints() { trace-cmd report -i "$TMP/$1.dat" 2> /dev/null | grep ' print: ' > "$TMP/$1.prints"; }

	# --repeat 3: each run writes its own marker after kma-record's
	"$REC" --buffer 8192 --repeat 3 --settle 1 -o "$TMP/rep.dat" -- \
		sh -c "echo \"kma: run \$KMA_ITERATION\" > $T/trace_marker" > /dev/null 2> "$TMP/rep.err"
	rc=$?
	prints rep
	check "--repeat 3: exit 0" test $rc = 0
	check "--repeat 3: iteration markers, each before its run, then reclaim, settle" test \
		"$(python3 "$PARSE" phases < "$TMP/rep.prints" | tr '\n' '|')" = \
		"kma: iteration 1|kma: run 1|kma: iteration 2|kma: run 2|kma: iteration 3|kma: run 3|kma: reclaim|kma: settle|"
	check "--repeat 3: counters at start (before iteration 1) and end (after settle)" test \
		"$(python3 "$PARSE" order < "$TMP/rep.prints" | grep -v '^kma: run' | tr '\n' '|')" = \
		"kma-topology: cpu|kma-meminfo: start|kma-slabinfo: start|kma: iteration 1|kma: iteration 2|kma: iteration 3|kma: reclaim|kma: settle|kma-meminfo: end|kma-slabinfo: end|"
	python3 "$PARSE" check < "$TMP/rep.prints" > "$TMP/rep.check" 2>&1
	rc=$?
	check "--repeat 3: counter snapshots complete, markers <= 1000 bytes" sh -c "
		test $rc = 0 && grep -qx 'kma-slabinfo start complete [0-9]*' '$TMP/rep.check' &&
		grep -qx 'kma-slabinfo end complete [0-9]*' '$TMP/rep.check'"
	# the snapshot against /proc/slabinfo now: cache names and object sizes
	# (a cache created or destroyed in between would fail it: rare)
	check "--repeat 3: slabinfo snapshot = /proc/slabinfo's caches and object sizes" cmp \
		<(python3 "$PARSE" slabinfo end < "$TMP/rep.prints" | cut -d' ' -f1,3) \
		<(awk '/^slabinfo - / || /^#/ { next } { print $1, $4 }' /proc/slabinfo)
	check "--repeat 3: meminfo fields are /proc/meminfo's" test \
		"$(python3 "$PARSE" meminfo start < "$TMP/rep.prints" | cut -d' ' -f1 | tr '\n' ' ')" = \
		"$(awk '{ sub(/:$/, "", $1); k[$1] = 1 } END { n = split("Slab SReclaimable SUnreclaim Percpu VmallocUsed", f, " ")
			for (i = 1; i <= n; i++) if (f[i] in k) printf "%s ", f[i] }' /proc/meminfo)"
	check "--repeat 3: no missing-marker warning" sh -c "! grep -q 'WARNING' '$TMP/rep.err'"

	# --no-reclaim and --settle 0: iterations only
	"$REC" --buffer 8192 --repeat 2 --no-reclaim --settle 0 -o "$TMP/norc.dat" -- true \
		> /dev/null 2>&1
	prints norc
	check "--repeat 2 --no-reclaim --settle 0: iteration markers only" test \
		"$(python3 "$PARSE" phases < "$TMP/norc.prints" | tr '\n' '|')" = \
		"kma: iteration 1|kma: iteration 2|"
	# --reclaim without --repeat
	"$REC" --buffer 8192 --markers --reclaim --settle 0 -o "$TMP/rc.dat" -- true > /dev/null 2>&1
	prints rc
	check "--markers --reclaim: a reclaim marker" test \
		"$(python3 "$PARSE" phases < "$TMP/rc.prints" | tr '\n' '|')" = "kma: reclaim|"

	# A fake /proc: allocinfo in its documented format (a version line, a
	# header, "size calls tag" lines; calls 0 left out; tags with spaces), and
	# enough caches and sites for several parts.
	P=$TMP/proc
	mkdir "$P"
	printf 'MemTotal:       1000 kB\nSlab:             777 kB\nSReclaimable:     111 kB\nSUnreclaim:       666 kB\nVmallocUsed:       55 kB\n' > "$P/meminfo"
	{
		echo "slabinfo - version: 2.1"
		echo "# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>"
		for i in $(seq 1 150); do
			printf 'fake_cache_with_a_long_name_%03d %6d %6d %5d  32    1 : tunables    0    0    0 : slabdata  1  1  0\n' \
				"$i" $((i * 7)) $((i * 8)) $((i * 16))
		done
	} > "$P/slabinfo"
	{
		echo "allocinfo - version: 1.0"
		echo "#     <size>  <calls> <tag info>"
		for i in $(seq 1 120); do
			printf '%12d %8d mm/fake_%d.c:%d func:fake_alloc_%d\n' $((i * 4096)) $((i % 5)) "$i" $((i + 100)) "$i"
		done
		printf '%12d %8d fs/xfs/xfs_buf.c:123 [xfs] func:xfs_buf_alloc\n' 8192 2
	} > "$P/allocinfo"
	KMA_PROC=$P "$REC" --buffer 8192 --markers --settle 0 -o "$TMP/fake.dat" -- true > /dev/null 2>&1
	prints fake
	python3 "$PARSE" check < "$TMP/fake.prints" > "$TMP/fake.check" 2>&1
	rc=$?
	check "KMA_PROC: every snapshot complete, in several parts, markers <= 1000 bytes" sh -c "
		test $rc = 0 && grep -qx 'kma-slabinfo start complete [2-9]' '$TMP/fake.check' &&
		grep -qx 'kma-allocinfo start complete [2-9]' '$TMP/fake.check' &&
		grep -qx 'kma-allocinfo end complete [2-9]' '$TMP/fake.check'"
	check "KMA_PROC: allocinfo snapshot = the lines with calls > 0, tags as printed" cmp \
		<(python3 "$PARSE" allocinfo start < "$TMP/fake.prints") \
		<(sed '1,2d' "$P/allocinfo" | while read -r b c t; do [ "$c" -gt 0 ] && echo "$b $c $t"; done)
	check "KMA_PROC: slabinfo snapshot = name active_objs objsize" cmp \
		<(python3 "$PARSE" slabinfo end < "$TMP/fake.prints") \
		<(sed '1,2d' "$P/slabinfo" | while read -r n a _ o _; do echo "$n $a $o"; done)
	check "KMA_PROC: meminfo marker, the missing Percpu left out" grep -q \
		'tracing_mark_write: kma-meminfo: end Slab=777 SReclaimable=111 SUnreclaim=666 VmallocUsed=55$' \
		"$TMP/fake.prints"

	# The command sees the caller's descriptors only (here 0-2, the run's own,
	# and 3), as a plain child does, never kma-record's or trace-cmd's pipes.
	sh -c 'cd /proc/$$/fd && echo *' 3< /dev/null > "$TMP/fds.want" 2> /dev/null
	"$REC" --buffer 8192 --settle 0 -o "$TMP/fds.dat" -- sh -c 'cd /proc/$$/fd && echo *' \
		3< /dev/null > "$TMP/fds.got" 2> /dev/null
	check "the command sees the caller's file descriptors only" cmp "$TMP/fds.want" "$TMP/fds.got"
	# A background child left behind does not hold kma-record's pipes: the
	# pipeline ends while it still runs.
	( "$REC" --buffer 8192 --settle 0 -o "$TMP/bg.dat" -- \
		sh -c "sleep 9.17 > /dev/null 2>&1 < /dev/null & echo \$! > '$TMP/bg.pid'; exit 0"
	  echo EXITED ) 2>&1 | cat > "$TMP/bg.out"
	bgpid=$(cat "$TMP/bg.pid" 2> /dev/null)
	# still running: not gone, not a zombie (an orphan may not be reaped here)
	bgstate=$(sed 's/.*) //' "/proc/$bgpid/stat" 2> /dev/null | cut -d' ' -f1)
	if [ -n "$bgpid" ] && [ -n "$bgstate" ] && [ "$bgstate" != Z ] && grep -q EXITED "$TMP/bg.out"; then
		pass "a background child of the command does not keep kma-record's output open"
		kill "$bgpid"
	else
		fail "a background child of the command does not keep kma-record's output open" \
			"the pipeline waited for the child: $(tail -2 "$TMP/bg.out")"
	fi

	settings > "$TMP/settings.after"
	check "tracefs settings restored" cmp "$TMP/settings.before" "$TMP/settings.after"
	check "kma-record leaves no temporary file" sh -c "! ls -A '$TMP' | grep -q kma-record"
	unset -f settings prints
fi
