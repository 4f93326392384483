# --live: the ring buffer through libtracefs, the same decoder, matcher and store.
# Needs root and a writable tracefs; runs in the plain pass only (one tracer at a time).
# kma-test: exclusive tracefs (traces the live kernel)
live_ok() {
	[ "$(id -u)" = 0 ] || return 1
	[ -w /sys/kernel/tracing/instances ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -w /sys/kernel/tracing/instances ]
}
if [ "$LABEL" = asan+ubsan ]; then
	skip "--live" "runs in the plain build only"
elif ! live_ok; then
	skip "--live" "not root or tracefs not writable"
else
	"$KMA" --live --duration 2 --interval 0.5 -n 5 -o "$TMP/live.db" > "$TMP/live.txt" 2> "$TMP/err.txt" &
	pid=$!
	# the marker only once the instance copies markers (set after the events are
	# enabled; a new instance's tracing_on is 1 at once): a loaded machine may
	# take a while to get there
	inst=/sys/kernel/tracing/instances/kma-live-$pid
	ready=$inst/options/copy_trace_marker
	[ -e /sys/kernel/tracing/options/copy_trace_marker ] || ready=$inst/events/kmem/kfree/enable
	for i in $(seq 150); do
		[ "$(cat "$ready" 2> /dev/null)" = 1 ] && break
		sleep 0.1
	done
	# the ring buffer sized to the machine: 1/64 of MemAvailable over the CPUs, 8-64 MiB each
	got_kb=$(cat "$inst/buffer_size_kb" 2> /dev/null)
	want_kb=$(awk -v n="$(nproc)" '/^MemAvailable:/ { kb = int($2 / 64 / n);
		if (kb < 8192) kb = 8192; if (kb > 65536) kb = 65536; print kb }' /proc/meminfo)
	# a starved test shell may only get here after the 2 s run ended (its instance gone)
	marked=0
	[ "$(cat "$ready" 2> /dev/null)" = 1 ] && marked=1
	echo "kma: live-mark" > /sys/kernel/tracing/trace_marker 2>/dev/null
	for i in 1 2 3 4 5; do ls -R /usr/share/doc > /dev/null; done
	wait $pid; rc=$?
	check "--live exits 0" test "$rc" = 0
	check "--live writes report.db with allocations" test \
		"$(sqlite3 "$TMP/live.db" 'SELECT allocs > 100 AND file = '"'"'live'"'"' FROM summary, trace')" = 1
	check "--live refreshes the view" test "$(grep -c '^kma-analyze --live  elapsed' "$TMP/live.txt")" -ge 3
	check "--live: report.db is consistent (man page checks)" \
		bash "$TOP/tests/test-doc-queries.sh" "$TMP/live.db"
	# the CPU -> node map is this machine's, from sysfs (kma-record writes it as a marker)
	sh "$TOP/tests/tools/sysfs-cpu-nodes.sh" > "$TMP/nodes.expect"
	sqlite3 "$TMP/live.db" 'SELECT cpu, node FROM cpu_nodes ORDER BY cpu' > "$TMP/nodes.txt"
	check "--live: report.db's cpu_nodes is this machine's CPU -> node map" \
		diff "$TMP/nodes.expect" "$TMP/nodes.txt"
	check "--live leaves no tracefs instance behind" test ! -e "$inst"
	check "--live: no warning (the instance removed)" sh -c '! grep -q warning "$1"' sh "$TMP/err.txt"
	# the marker comes first: when the reader fell behind on a loaded machine and the ring
	# buffer overwrote its oldest events (lost events in report.db), it may be among them
	lost=$(sqlite3 "$TMP/live.db" 'SELECT lost_events FROM summary' 2> /dev/null)
	if [ $marked = 0 ]; then
		skip "--live: markers reach the instance" "the run was over before the marker was written (loaded machine)"
	elif [ "${lost:-0}" != 0 ] && ! sqlite3 "$TMP/live.db" "SELECT label FROM generations" |
		grep -q live-mark; then
		skip "--live: markers reach the instance" "the ring buffer lost $lost events, the marker may be one"
	else
		check "--live: markers reach the instance (copy_trace_marker)" sh -c \
			"[ ! -e /sys/kernel/tracing/options/copy_trace_marker ] ||
			 sqlite3 '$TMP/live.db' \"SELECT label FROM generations\" | grep -q live-mark"
	fi
	if [ -z "$got_kb" ]; then
		skip "--live: the default ring buffer" "the run was over before it was read (loaded machine)"
	else
		# MemAvailable moves between two reads, and the kernel rounds the size up to
		# whole ring-buffer pages: within 2 %
		check "--live: the default ring buffer per CPU ($got_kb KiB; from meminfo $want_kb)" \
			awk -v g="${got_kb%% *}" -v w="$want_kb" 'BEGIN { d = g - w; if (d < 0) d = -d;
				exit !(d * 50 <= w) }'
	fi
	"$KMA" --live -q --no-db --duration 3 -b 4096 2> "$TMP/err.txt" &
	pid=$!
	for i in $(seq 100); do
		got_kb=$(cat "/sys/kernel/tracing/instances/kma-live-$pid/buffer_size_kb" 2> /dev/null)
		[ -n "$got_kb" ] && break
		sleep 0.05
	done
	wait $pid; rc=$?
	# (rounded up to whole ring-buffer pages by the kernel)
	check "--live -b 4096: the ring buffer is 4096 KiB per CPU ($got_kb)" sh -c \
		'test "$1" = 0 && [ "$2" -ge 4096 ] && [ "$2" -le 4140 ]' sh "$rc" "${got_kb%% *}"
	# A file of the instance open at the end (a tool reading it): the kernel refuses to
	# remove the instance (EBUSY) until it is closed; a moment is waited out ...
	"$KMA" --live -q --no-db --duration 1 2> "$TMP/busy.err" &
	pid=$!
	inst=/sys/kernel/tracing/instances/kma-live-$pid
	( for i in $(seq 200); do [ -e "$inst/buffer_size_kb" ] && break; sleep 0.05; done
	  exec 7< "$inst/buffer_size_kb" || exit
	  while [ "$(cat "$inst/tracing_on" 2> /dev/null)" = 1 ]; do sleep 0.05; done
	  sleep 0.3 ) &
	holder=$!
	wait $pid; rc=$?
	wait $holder; held=$?
	check "--live: a file open for a moment at the end: the instance still removed" sh -c \
		'test "$1|$2" = "0|0" && test ! -e "$3" && ! grep -q warning "$4"' \
		sh "$rc" "$held" "$inst" "$TMP/busy.err"
	rmdir "$inst" 2> /dev/null	# (put back when it failed)
	# ... one open for good leaves the instance, named in a warning, and the report is made
	"$KMA" --live -n 3 --duration 1 -o "$TMP/busy.db" > "$TMP/busy.txt" 2> "$TMP/busy.err" &
	pid=$!
	inst=/sys/kernel/tracing/instances/kma-live-$pid
	for i in $(seq 200); do [ -e "$inst/buffer_size_kb" ] && break; sleep 0.05; done
	exec 7< "$inst/buffer_size_kb"
	wait $pid; rc=$?
	left=$([ -d "$inst" ] && echo left)
	exec 7<&-
	rmdir "$inst" 2> /dev/null
	check "--live: a file of the instance held open: exit 0, report.db written" sh -c \
		'test "$1" = 0 && test -s "$2"' sh "$rc" "$TMP/busy.db"
	check "--live: the instance it could not remove is left ($left) and named in one warning" \
		sh -c 'test "$1" = left && test "$(grep -c . "$2")" = 1 &&
		grep -qx "kma-analyze: live: warning: cannot remove the tracefs instance kma-live-$3 (Device or resource busy): rmdir $4" "$2"' \
		sh "$left" "$TMP/busy.err" "$pid" "$inst"
	check "--live: the instance removed once closed (the test puts it back)" test ! -e "$inst"
	# Ctrl-C stops it and still writes the report
	"$KMA" --live -q -o "$TMP/int.db" 2> "$TMP/err.txt" &
	pid=$!
	sleep 1
	kill -INT $pid
	wait $pid; rc=$?
	check "--live: SIGINT stops and writes report.db" test "$rc" = 0 -a -s "$TMP/int.db"
fi
"$KMA" --live some.dat > /dev/null 2>&1; rc=$?
check "--live with a file is a usage error" test $rc = 2
"$KMA" --live --interval 0 > /dev/null 2>&1; rc=$?
check "--live --interval 0 is a usage error" test $rc = 2
for b in 0 -5 1x 4194305; do
	"$KMA" --live -b "$b" > /dev/null 2> "$TMP/err.txt"; rc=$?
	check "--live -b $b is a usage error" sh -c 'test "$1" = 2 && grep -q "bad buffer size" "$2"' \
		sh "$rc" "$TMP/err.txt"
done
"$KMA" -b 4096 "$TOP/tests/fixtures/basic.dat" > /dev/null 2> "$TMP/err.txt"; rc=$?
check "-b without --live is a usage error that says why" sh -c \
	'test "$1" = 2 && grep -q "sizes --live" "$2"' sh "$rc" "$TMP/err.txt"
