# --live as a top, on a real terminal: kma-analyze runs in a tmux pane of our
# own tmux server (-L), keys go in with send-keys, the screen comes back with
# capture-pane. Checks the header (elapsed, events, lost, order), the rates
# columns, that a key re-sorts at once (the interval is long: only the key can
# redraw in time), q ends it like Ctrl-C (report.db, the final report cut to
# -n), Ctrl-Z and SIGHUP, and that the terminal is put back every time.
# Needs root, a writable tracefs and tmux; plain pass only (one tracer at a time).
# kma-test: exclusive tracefs (traces the live kernel)
top_live_ok() {
	[ "$(id -u)" = 0 ] || return 1
	[ -w /sys/kernel/tracing/instances ] && return 0
	# mounted here: unmounted again at the end (top_mounted)
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && top_mounted=1
	[ -w /sys/kernel/tracing/instances ]
}

# top_wait PATTERN [TENTHS]: the pane (with its history) until it shows an
# extended regular expression, at most TENTHS tenths of a second (default 300: a loaded machine is slow to start).
top_wait() {
	local i
	for i in $(seq "${2:-300}"); do
		top_screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
top_screen() { tmux -L "$top_sock" capture-pane -p -S -200 -t top 2>/dev/null; }
# the last frame on the screen: from its last header line on
top_frame() { top_screen | awk '/^kma-analyze --live  elapsed/ { f = "" } { f = f $0 "\n" } END { printf "%s", f }'; }
# column N of the frame's caller rows (the lines after the column headings)
top_col() { top_frame | awk -v n="$1" 'h && NF >= 9 { print $n } /allocs\/s +frees\/s +net B\/s +caller/ { h = 1 }'; }
# non-increasing numbers on stdin, at least one
top_desc() { awk 'NR > 1 && $1 + 0 > p + 0 { bad = 1 } { p = $1 } END { exit bad || NR == 0 }'; }
# top_elapsed [1]: the last frame's elapsed, whole seconds (with 1: and tenths)
top_elapsed() {
	if [ "${1:-}" = 1 ]; then
		top_frame | sed -n 's/^kma-analyze --live  elapsed \([0-9]*\.[0-9]\)s.*/\1/p'
	else
		top_frame | sed -n 's/^kma-analyze --live  elapsed \([0-9]*\)\.[0-9]s.*/\1/p'
	fi
}
# top_later SECONDS: until a frame shows a larger elapsed (whole seconds), at most 10 s
top_later() {
	local i
	for i in $(seq 100); do
		[ "$(top_elapsed)" -gt "$1" ] 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# top_sorted N: the frame's rows are in the order of column N
top_sorted() { top_col "$1" | top_desc; }
# An interactive bash in the pane, as a user has: its job control is what
# lets Ctrl-Z stop kma-analyze (in an orphaned process group, as a pane's
# own first process is, the kernel drops SIGTSTP); then run.sh in it.
top_start() {
	tmux -L "$top_sock" new-session -d -x "${top_width:-120}" -y 40 -s top \
		"env HISTFILE=/dev/null PS1='$ ' bash --norc --noprofile"
	tmux -L "$top_sock" send-keys -t top "sh $TMP/run.sh $*" Enter
}
top_stty() { stty -g -F "$(tmux -L "$top_sock" display -p -t top '#{pane_tty}')"; }

top_mounted=0
top_sock=kma-top-$$
if [ "$LABEL" = asan+ubsan ]; then
	skip "--live under tmux" "runs in the plain build only"
elif ! command -v tmux > /dev/null; then
	skip "--live under tmux" "tmux is missing (sh scripts/install-deps.sh installs it)"
elif ! top_live_ok; then
	skip "--live under tmux" "not root or tracefs not writable"
else
	# the pane runs this; "exec" makes the pid in top.pid kma-analyze's own
	cat > "$TMP/run.sh" <<-EOF
		stty -g > "$TMP/stty.before"
		sh -c 'echo \$\$ > "$TMP/top.pid"; exec "$KMA" --live --interval 3 -o "$TMP/top.db" "\$@"' sh "\$@"
		echo "KMA-EXIT=\$?"
		stty -g > "$TMP/stty.after"
	EOF
	top_start -n 4
	# allocations to see, while it runs
	(for i in $(seq 20); do ls -R /usr/share/doc > /dev/null 2>&1; sleep 0.3; done) &
	busy=$!
	check "top: a frame within 30 s" top_wait '^kma-analyze --live  elapsed'
	check "top: header has elapsed, events, lost and the order" top_wait \
		'^kma-analyze --live  elapsed [0-9]+\.[0-9]s  events [1-9][0-9]*  lost [0-9]+  sorted by total$'
	check "top: overall rates beside the totals" top_wait \
		'^allocs [0-9]+ \([0-9.]+/s\)  frees [0-9]+ \([0-9.]+/s\)  net [0-9]+ B \([-+][0-9.]+ B/s\)'
	check "top: per-caller rates columns" top_wait 'allocs/s +frees/s +net B/s +caller$'
	check "top: rows in total order" top_sorted 1
	check "top: -n 4 rows in a frame" test "$(top_col 1 | wc -l)" -le 4
	e1=$(top_elapsed)
	e1f=$(top_elapsed 1)
	# n: the next interval's frame is about 3 s away, so "sorted by net" within 2 s is the key's
	tmux -L "$top_sock" send-keys -t top n
	check "top: n re-sorts at once" top_wait 'sorted by net$' 20
	# interval frames are never early: one before e1 + 2.8 s is the key's redraw
	check "top: n: the frame is a redraw between two intervals" awk -v e="$(top_elapsed 1)" \
		-v e1="$e1f" 'BEGIN { exit !(e != "" && e1 != "" && e + 0 < e1 + 2.8) }'
	check "top: n: rows in net order" top_sorted 3
	tmux -L "$top_sock" send-keys -t top a
	check "top: a re-sorts by allocs at once" top_wait 'sorted by allocs$' 20
	check "top: a: rows in allocs order" top_sorted 4
	tmux -L "$top_sock" send-keys -t top h
	check "top: h shows the keys" top_wait '^keys: t total  s slack  n net  a allocs  f frees \(sort\)  h hide  q quit$' 10
	check "top: elapsed grows from frame to frame" top_later "${e1:-99}"
	check "top: the terminal is in key mode while it runs" sh -c \
		"test \"\$(stty -F $(tmux -L "$top_sock" display -p -t top '#{pane_tty}') -a)\" != '' &&
		 stty -F $(tmux -L "$top_sock" display -p -t top '#{pane_tty}') -a | grep -q -- '-icanon'"
	pid=$(cat "$TMP/top.pid")
	pids=$pid
	# Ctrl-Z: the terminal as it was while stopped; keys again after fg (SIGCONT)
	kill -TSTP "$pid"
	sleep 0.5
	check "top: stopped (Ctrl-Z) gives the terminal back" test "$(top_stty)" = "$(cat "$TMP/stty.before")"
	kill -CONT "$pid"
	sleep 0.3
	tmux -L "$top_sock" send-keys -t top f
	check "top: keys work again after SIGCONT" top_wait 'sorted by frees$' 20
	tmux -L "$top_sock" send-keys -t top q
	check "top: q ends it with status 0" top_wait '^KMA-EXIT=0$' 150
	check "top: q writes report.db" test \
		"$(sqlite3 "$TMP/top.db" 'SELECT allocs > 0 FROM summary' 2>&1)" = 1
	# the final report: its rows after "Sorted by", before KMA-EXIT
	top_screen > "$TMP/screen.txt"
	awk '/^Sorted by/ { s = 1; next } /^KMA-EXIT/ { s = 0 }
		s && /^ *[0-9]+ +[0-9]+ +[0-9.-]+ +[0-9]+ +[0-9]+\/[0-9]+ +[^ ]/' "$TMP/screen.txt" > "$TMP/final.txt"
	check "top: the final report has 1 to 4 rows (-n 4)" sh -c \
		"n=\$(wc -l < '$TMP/final.txt'); [ \$n -ge 1 ] && [ \$n -le 4 ]"
	check "top: the final report is in the order chosen last (frees)" \
		grep -q '^Sorted by frees' "$TMP/screen.txt"
	check "top: q puts the terminal back" test "$(cat "$TMP/stty.after" 2>&1)" = "$(cat "$TMP/stty.before")"
	tmux -L "$top_sock" kill-session -t top
	wait "$busy"

	# SIGHUP abandons the run: no report.db, the terminal put back all the same;
	# with a filter, which the header names; 80 columns and no -n: as many
	# rows as the pane has below the header, no line wraps (the frame's first
	# line stays on screen), the name still shown
	rm -f "$TMP/stty.after" "$TMP/top.pid" "$TMP/top.db"
	top_width=80 top_start --caller "'!kma_nothing*'"
	(for i in $(seq 10); do ls -R /usr/share/doc > /dev/null 2>&1; sleep 0.3; done) &
	busy=$!
	check "top: (HUP run) a frame" top_wait '^kma-analyze --live  elapsed'
	check "top: the header names the filter" top_wait "^filter: caller !~ 'kma_nothing\\*'\$" 10
	sleep 3.5	# a second frame, with more callers than the pane has rows
	tmux -L "$top_sock" capture-pane -p -t top > "$TMP/pane.txt"
	check "top: 80 columns, without -n: the frame fits (over 20 rows, header on top)" sh -c \
		"head -1 '$TMP/pane.txt' | grep -q '^kma-analyze --live  elapsed' &&
		 test \$(awk 'h && NF >= 4 { n++ } / caller\$/ { h = 1 } END { print n + 0 }' \
			'$TMP/pane.txt') -gt 20"
	check "top: 80 columns: no line reaches the last column, names shown" sh -c \
		"! grep -q '^.\{80\}' '$TMP/pane.txt' &&
		 grep -Eq '^ +[0-9]+ +[0-9]+ +[-+][0-9.]+  [A-Za-z_.]{10}' '$TMP/pane.txt'"
	wait "$busy"
	pids="$pids $(cat "$TMP/top.pid")"
	kill -HUP "$(cat "$TMP/top.pid")"
	check "top: SIGHUP ends it (129)" top_wait '^KMA-EXIT=129$' 100
	check "top: SIGHUP writes no report.db" test ! -e "$TMP/top.db"
	check "top: SIGHUP puts the terminal back" test "$(cat "$TMP/stty.after" 2>&1)" = "$(cat "$TMP/stty.before")"
	tmux -L "$top_sock" kill-server

	# stdin not a terminal: frames all the same, no keys (and said so)
	"$KMA" --live --duration 3 --interval 0.5 -n 3 -o "$TMP/nt.db" < /dev/null > "$TMP/nt.txt" 2>&1 &
	pids="$pids $!"
	wait $!
	check "top: stdin not a terminal: frames, and Ctrl-C named as the way out" sh -c \
		"grep -c '^kma-analyze --live  elapsed' '$TMP/nt.txt' | grep -qv '^[01]\$' &&
		 grep -q '^Ctrl-C stops and writes the report (no keys' '$TMP/nt.txt'"
	check "top: stdin not a terminal: the final report has at most 3 rows (-n 3)" sh -c \
		"test \$(sed -n '/^Sorted by/,\$p' '$TMP/nt.txt' |
			grep -cE '^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+/[0-9]+ ') -le 3"
	# events lost during the run: in the header of the frame at 4 s, with the
	# warning (a long interval and a busy machine overflow the ring buffer;
	# when this one keeps up, there is nothing to show);
	# the work ends before that frame: whatever was lost, was lost before it
	"$KMA" --live --duration 4.5 --interval 4 -n 1 --no-db < /dev/null > "$TMP/lost.txt" 2>&1 &
	pid=$!
	pids="$pids $pid"
	timeout 3.6 ls -R /usr /usr /usr > /dev/null 2>&1
	wait $pid
	if grep -q '^number of lost events: [1-9]' "$TMP/lost.txt" &&
	   grep -q '^kma-analyze --live  elapsed 4\.' "$TMP/lost.txt"; then
		check "top: lost events in the header during the run, with a warning" sh -c \
			"grep -q '^kma-analyze --live  elapsed 4\..*  lost [1-9][0-9]*  ' '$TMP/lost.txt' &&
			 grep -q '^WARNING: the ring buffer lost [1-9][0-9]* events' '$TMP/lost.txt'"
	else
		skip "top: lost events in the header" "the ring buffer lost nothing in this run"
	fi
	# the reader of the frames gone (| head): the run stops, report.db is
	# written, the instance removed, and the report's write error is the one line
	( "$KMA" --live --duration 20 --interval 0.3 -o "$TMP/pipe.db" < /dev/null 2> "$TMP/pipe.err" &
	  echo $! > "$TMP/pipe.pid"; wait $!; echo $? > "$TMP/pipe.rc" ) | head -1 > /dev/null
	pids="$pids $(cat "$TMP/pipe.pid")"
	check "top: | head: exit 1, not killed by SIGPIPE" test "$(cat "$TMP/pipe.rc")" = 1
	check "top: | head: report.db written" test -s "$TMP/pipe.db"
	check "top: | head: one line on stderr, the broken pipe" test \
		"$(cat "$TMP/pipe.err")" = "kma-analyze: cannot write the report to stdout: Broken pipe"
	# ours only: other sessions may trace at the same time
	check "top: no tracefs instance left behind" sh -c \
		"for p in $pids; do ! test -e /sys/kernel/tracing/instances/kma-live-\$p || exit 1; done"
	[ "$top_mounted" = 1 ] && umount /sys/kernel/tracing
fi
