# --html layout in a 900 px wide headless Chromium, measured by tests/html/probe.js
# (run in a copy of the page before its scripts: the chart texts as drawn, element
# boxes after load) and checked by tests/html/layout.py against -f csv and the text
# report: the page no wider than the window (wide tables scroll in their box); the
# -g stack table's leaf frame first and whole, every number in view; a stack
# unfolded by a click lists its frames leaf first; byte axes in KiB/MiB/... at round
# steps; generation and peak labels all drawn, inside the chart, none overlapping
# (markers.dat has three marks a few pixels apart).
# kma-test: long
LAY=$TOP/tests/html/layout.py
MKTRACE=$TOP/$B/tests/tools/mktrace
WIDTH=900

enc() {
	python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"
}

# probe NAME TRACE-DIR TRACE [#FRAGMENT]: the page of TRACE with the probe, loaded at
# FRAGMENT in a $WIDTH px window, its DOM into $TMP/NAME.dom
probe() {
	local page=$TMP/$1.html
	(cd "$2" && "$KMA" --no-db -q --html "$TMP/$1.plain.html" "$3") 2> "$TMP/err.txt" &&
		python3 "$LAY" inject "$TMP/$1.plain.html" "$page" &&
		memo "$TMP/$1.dom" "chromium-probe $WIDTH $TOP/tests/html/probe.js $page ${4:-#}" \
		timeout 120 "$CHROMIUM" "${CHROME_FLAGS[@]}" --user-data-dir="$TMP/chr" \
			--window-size=$WIDTH,2000 --virtual-time-budget=1000 \
			--dump-dom "file://$page${4:-}" 2>> "$TMP/chr.err" &&
		grep -q ' data-probe="' "$TMP/$1.dom" ||
		{ fail "--html layout $1: kma-analyze or chromium" \
			"$(cat "$TMP/err.txt"; tail -3 "$TMP/chr.err" 2>/dev/null)"; return 1; }
}

# layout NAME CHECK ARG...: layout.py CHECK over $TMP/NAME.dom
layout() {
	local name=$1 dom=$TMP/$2.dom
	shift 2
	check "$name" python3 "$LAY" "$1" "$dom" "${@:2}"
}

FIX=$TOP/tests/fixtures
if [ -z "$CHROMIUM" ]; then
	skip "--html layout in Chromium" "no chromium (sh scripts/install-deps.sh installs it)"
elif ! "$KMA" --no-db -q --html "$TMP/x.html" "$FIX/stacks.dat" 2> "$TMP/err.txt"; then
	skip "--html layout in Chromium" "no Chart.js: $(cat "$TMP/err.txt")"
else
	# the stack grouping: leaf first, numbers in view, the page no wider than the window
	"$KMA" --no-db -f csv -g stack "$FIX/stacks.dat" > "$TMP/csv-stack"
	python3 "$TOP/tests/html/view-expect.py" rows "$TMP/csv-stack" total desc "" \
		> "$TMP/want-stack"
	if probe st "$FIX" stacks.dat "#group=stack"; then
		layout "--html -g stack at $WIDTH px: the page is no wider than the window" st page
		layout "--html -g stack at $WIDTH px: each stack's leaf first and whole, numbers = -f csv and in view" \
			st stacks "$TMP/want-stack"
	fi
	# the heaviest stack with more than 2 frames, unfolded by a click
	s=$(awk -F'\t' 'split($2, f, ";") > 2 { print $2; exit }' "$TMP/want-stack")
	if [ -n "$s" ] && probe un "$FIX" stacks.dat "#group=stack&test-click=$(enc "fold:$s")"; then
		layout "--html -g stack: a click unfolds a stack, leaf first, one frame a line" \
			un unfolded "$s"
		check "--html -g stack: folded, the frames are not listed" sh -c \
			'! python3 "$1" unfolded "$2" "$3"' sh "$LAY" "$TMP/st.dom" "$s"
	fi

	# markers.dat: axes in bytes units, labels of close markers apart, tables in their box
	if probe mk "$FIX" markers.dat; then
		# the peak of live bytes, from report.db's allocations: +bytes when made,
		# -bytes when freed (a free first at the same time)
		"$KMA" -q -o "$TMP/mk.db" "$FIX/markers.dat"
		peak=$(python3 -c '
import sqlite3, sys
ev = []
for a, f, b in sqlite3.connect(sys.argv[1]).execute(
        "SELECT alloc_ts, free_ts, bytes_alloc FROM allocations"):
    ev.append((a, 1, b))
    if f is not None:
        ev.append((f, 0, -b))
live = peak = 0
for e in sorted(ev):
    live += e[2]
    peak = max(peak, live)
print(peak)' "$TMP/mk.db")
		"$KMA" --no-db --generations -f csv "$FIX/markers.dat" | python3 -c '
import csv, sys
print(" ".join(r[-1] for r in list(csv.reader(sys.stdin))[2:]))' > "$TMP/labels"
		read -r -a labels < "$TMP/labels"
		check "markers.dat: 4 generation labels, peak known" \
			test "${#labels[@]}" = 4 -a -n "$peak"
		layout "--html markers.dat at $WIDTH px: the page is no wider than the window" mk page
		layout "--html markers.dat: live bytes ticks 0 to the peak ($peak) in KiB" \
			mk axis kma-chart-live "$peak"
		layout "--html markers.dat: marker and peak labels apart, inside the live chart" \
			mk labels kma-chart-live "${labels[@]}" peak
		layout "--html markers.dat: marker labels apart, inside the rate chart" \
			mk labels kma-chart-rate "${labels[@]}"
	fi

	# sums up to 2^63 - 1 (tests/sums/edge.seq): the axis in EiB
	if [ -x "$MKTRACE" ] && "$MKTRACE" -o "$TMP/edge.dat" "$TOP/tests/sums/edge.seq" &&
	   probe ed "$TMP" edge.dat; then
		layout "--html edge.seq: live bytes ticks 0 to 2^63 - 1 in EiB" \
			ed axis kma-chart-live 9223372036854775807
		layout "--html edge.seq: the marker and peak labels apart" \
			ed labels kma-chart-live second peak
		# numbers past 2^53 shown exactly: the summary (edge.seq's arithmetic) and the
		# caller rows of -f csv, in the page's order
		python3 "$TOP/tests/tools/html-dom.py" "$TMP/ed.dom" > "$TMP/ed.txt"
		check "--html edge.seq: total 2^63 - 1 and net 2^61 + 2^62 - 1, every digit" sh -c \
			'grep -qx "sum total 9223372036854775807" "$1" &&
			 grep -qx "sum net 6917529027641081855" "$1" && grep -qx "sum slack 612" "$1"' \
			sh "$TMP/ed.txt"
		"$KMA" --no-db -f csv "$TMP/edge.dat" > "$TMP/csv-edge"
		python3 "$TOP/tests/html/view-expect.py" rows "$TMP/csv-edge" total desc "" \
			> "$TMP/want.txt"
		awk -F'\t' '$1 == "row" { s = $1; for (i = 2; i < NF; i++) s = s "\t" $i; print s }' \
			"$TMP/ed.txt" > "$TMP/got.txt"
		check "--html edge.seq: caller rows = -f csv, every digit, by total" sh -c \
			'[ -s "$1" ] && grep -q 4611686018427387904 "$1" && diff "$1" "$2"' \
			sh "$TMP/want.txt" "$TMP/got.txt"
	else
		fail "--html edge.seq" "mktrace, kma-analyze or chromium failed"
	fi
fi
