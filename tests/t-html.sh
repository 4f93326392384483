# --html: the page rendered by headless Chromium (its scripts run): no script
# error, the charts, the caller rows of every grouping with the numbers of `-f csv`, the
# summary of the text report, generation labels, flame graph frames on a trace with
# stacks, nothing fetched, names from the trace as text (tests/html/script.seq). A
# screenshot is kept as $B/tests/html/stacks.png.
# kma-test: long
HDOM=$TOP/tests/tools/html-dom.py
CHROME=$CHROMIUM
MKTRACE=$TOP/$B/tests/tools/mktrace

# render PAGE [#FRAGMENT]: the DOM after the page's scripts ran, into PAGE.dom
render() {
	dump_dom "$1" "${2:-}" > "$1.dom"
}

# rows_csv GROUP TRACE: kma-analyze -g GROUP -f csv, tab-separated, sorted; its slack_pct
# computed again here from total and slack (100 * slack / total to 3 decimals, halves
# up; "-" without bytes), as the page must show it
rows_csv() {
	"$KMA" --no-db -f csv -g "$1" "$2" | python3 -c '
import csv, sys
from fractions import Fraction
r = list(csv.reader(sys.stdin))
i, t, s = r[0].index("slack_pct"), r[0].index("total"), r[0].index("slack")
def pct(x):
    if not int(x[t]):
        return "-"
    n = int(Fraction(100000 * int(x[s]), int(x[t])) + Fraction(1, 2))
    return "%d.%03d" % divmod(n, 1000)
print("\n".join(sorted("\t".join(x[:i] + [pct(x)] + x[i + 1:]) for x in r[1:])))'
}

# rows_dom DOM CALLER: the page's rows, without the live column (not in -f csv)
rows_dom() {
	python3 "$HDOM" "$1" | awk -F'\t' '$1 == "row" {
		s = $2; for (i = 3; i < NF; i++) s = s "\t" $i; print s }' | sort
}

# The page is written, or a clear error without Chart.js; both without Chromium.
dat=$TOP/tests/fixtures/stacks.dat
if KMA_CHARTJS=$TMP/none.js "$KMA" --no-db -q --html "$TMP/x.html" "$dat" 2> "$TMP/err.txt"; then
	fail "--html without Chart.js fails" "exit 0"
else
	check "--html without Chart.js: one line naming the file and libjs-chart.js" \
		grep -q "^kma-analyze: --html: $TMP/none.js: .*libjs-chart.js" "$TMP/err.txt"
fi
if "$KMA" --no-db -q --html "$TMP/no/such/dir/x.html" "$dat" 2> "$TMP/err.txt"; then
	fail "--html to a directory that does not exist fails" "exit 0"
else
	check "--html to a directory that does not exist: one line naming the page" \
		grep -qx "kma-analyze: --html: $TMP/no/such/dir/x.html: cannot create a temporary file next to it: No such file or directory" \
		"$TMP/err.txt"
fi
"$KMA" --no-db -q --html "$TMP/gone.html" "$TMP/not-a-trace.dat" 2> /dev/null
check "--html: no page created when the trace cannot be opened" test ! -e "$TMP/gone.html"
check "--html --live is a usage error" sh -c '"$1" --live --html x.html 2>/dev/null; [ $? = 2 ]' \
	sh "$KMA"

if [ -z "$CHROME" ]; then
	skip "--html pages in Chromium" "no chromium (sh scripts/install-deps.sh installs it)"
elif ! "$KMA" --no-db -q --html "$TMP/x.html" "$dat" 2> "$TMP/err.txt"; then
	skip "--html pages in Chromium" "no Chart.js: $(cat "$TMP/err.txt")"
else
	for f in stacks markers lost basic; do
		dat=$TOP/tests/fixtures/$f.dat
		[ -f "$dat" ] || continue
		page=$TMP/$f.html
		# named as from its folder: the same page in every copy of the tree (memo)
		if ! (cd "$TOP/tests/fixtures" && "$KMA" --no-db -q --html "$page" "$f.dat") \
			2> "$TMP/err.txt"; then
			fail "--html $f.dat" "$(cat "$TMP/err.txt")"
			continue
		fi
		# no request leaves the page: no src=/href= with a scheme, no script src
		check "--html $f.dat: no URL with a scheme in src or href" sh -c \
			'! grep -Eiq "(src|href)[[:space:]]*=[[:space:]]*[\"'"'"']?[a-z][a-z0-9+.-]*:" "$1"' \
			sh "$page"
		if ! render "$page"; then
			fail "--html $f.dat: chromium" "$(tail -3 "$TMP/chr.err")"
			continue
		fi
		python3 "$HDOM" "$page.dom" > "$TMP/dom.txt"
		check "--html $f.dat: the page's script ran to its end" grep -qx 'marker ok' "$TMP/dom.txt"
		check "--html $f.dat: no script error" grep -qx 'errors 0' "$TMP/dom.txt"
		check "--html $f.dat: 4 charts (live, rates, slack, lifetimes)" \
			grep -qx 'canvas 4' "$TMP/dom.txt"
		check "--html $f.dat: only the 4 inline scripts" grep -qx 'scripts 4 0' "$TMP/dom.txt"
		rows_csv caller "$dat" > "$TMP/want.txt"
		rows_dom "$page.dom" > "$TMP/got.txt"
		check "--html $f.dat: caller rows = -f csv" diff "$TMP/want.txt" "$TMP/got.txt"
		# the summary: the text report's numbers
		"$KMA" --no-db "$dat" | awk -F': ' '
			/^total bytes/ { print "sum total " $2 } /^slack bytes/ { print "sum slack " $2 }
			/^net bytes/ { print "sum net " $2 } /^number of allocs/ { print "sum allocs " $2 }
			/^number of frees/ { print "sum frees " $2 }
			/^number of callers/ { print "sum callers " $2 }
			/^number of unknown/ { print "sum unknown_frees " $2 }
			/^number of null/ { print "sum null_frees " $2 }
			/^number of implicit/ { print "sum implicit_frees " $2 }
			/^number of failed/ { print "sum failed_allocs " $2 }
			/^number of lost/ { print "sum lost_events " $2 }' > "$TMP/want.txt"
		grep '^sum' "$TMP/dom.txt" | grep -v '^sum peak' > "$TMP/got.txt"
		check "--html $f.dat: summary = text report" diff "$TMP/want.txt" "$TMP/got.txt"
		# generation labels, as --generations has them
		"$KMA" --no-db --generations -f csv "$dat" | python3 -c '
import csv, sys
for r in list(csv.reader(sys.stdin))[1:]:
    print("gen", r[-1])' > "$TMP/want.txt"
		grep '^gen ' "$TMP/dom.txt" > "$TMP/got.txt"
		check "--html $f.dat: generation labels" diff "$TMP/want.txt" "$TMP/got.txt"
	done
	# per generation, the callers still live at the end, against report.db's allocations
	dat=$TOP/tests/fixtures/markers.dat
	if "$KMA" -q -o "$TMP/m.db" "$dat" && [ -f "$TMP/markers.html.dom" ]; then
		sqlite3 -separator '|' "$TMP/m.db" "SELECT generation, caller, SUM(bytes_alloc),
			COUNT(*) FROM allocations WHERE free_kind IS NULL GROUP BY generation, caller_id
			ORDER BY generation, SUM(bytes_alloc) DESC, caller" | python3 -c '
import sys
top = {}
for line in sys.stdin:
    g, c, b, n = line.rstrip("\n").split("|")
    top.setdefault(int(g), []).append("%s %s B/%s" % (c, b, n))
for g in sorted(top):
    print("genlive %d %s" % (g, "; ".join(top[g][:5])))' > "$TMP/want.txt"
		python3 "$HDOM" "$TMP/markers.html.dom" | grep '^genlive [0-9]* .' > "$TMP/got.txt"
		check "--html markers.dat: still live per generation = report.db" \
			diff "$TMP/want.txt" "$TMP/got.txt"
	fi
	# leak suspects: the callers of --leaks -f csv whose class is not none
	if [ -f "$TMP/stacks.html.dom" ]; then
		"$KMA" --no-db --leaks -f csv "$TOP/tests/fixtures/stacks.dat" | python3 -c '
import csv, sys
for r in list(csv.reader(sys.stdin))[1:]:
    if r[10] != "none":
        print("\t".join(["leak", r[9], r[10], r[8], r[0], r[1], r[11]]))' | sort > "$TMP/want.txt"
		python3 "$HDOM" "$TMP/stacks.html.dom" | grep '^leak' | sort > "$TMP/got.txt"
		check "--html stacks.dat: leak suspects = --leaks -f csv (class not none)" sh -c \
			'[ -s "$1" ] && diff "$1" "$2"' sh "$TMP/want.txt" "$TMP/got.txt"
	fi
	# module leftovers (tests/gen/modleft.seq) against --leftovers -f csv
	if [ -x "$MKTRACE" ] && "$MKTRACE" -o "$TMP/ml.dat" "$TOP/tests/gen/modleft.seq" &&
	   (cd "$TMP" && "$KMA" --no-db -q --html ml.html ml.dat) && render "$TMP/ml.html"; then
		"$KMA" --no-db --leftovers -f csv "$TMP/ml.dat" | python3 -c '
import csv, sys
for r in sorted(list(csv.reader(sys.stdin))[1:]):
    if r[6]:
        print("\t".join(["left", r[0], r[6]] + r[2:6]))' | sort > "$TMP/want.txt"
		python3 "$HDOM" "$TMP/ml.html.dom" | grep '^left' | sort > "$TMP/got.txt"
		check "--html modleft.seq: module leftovers = --leftovers -f csv" sh -c \
			'[ -s "$1" ] && diff "$1" "$2"' sh "$TMP/want.txt" "$TMP/got.txt"
	else
		fail "--html modleft.seq" "mktrace, kma-analyze or chromium failed"
	fi
	# lost events: the warning, as the text report words it
	if [ -f "$TMP/lost.html.dom" ]; then
		check "--html lost.dat: the lost-events warning" \
			grep -q 'id="kma-lost-warning">WARNING: the trace lost [1-9]' "$TMP/lost.html.dom"
	fi
	# every grouping of the table, opened by the page's #group=, against -g KEY -f csv
	dat=$TOP/tests/fixtures/stacks.dat
	for g in function module cache comm stack; do
		render "$TMP/stacks.html" "#group=$g" &&
			rows_csv "$g" "$dat" > "$TMP/want.txt" &&
			rows_dom "$TMP/stacks.html.dom" > "$TMP/got.txt"
		check "--html stacks.dat: -g $g rows = -f csv" diff "$TMP/want.txt" "$TMP/got.txt"
	done
	# the flame graph: frames named by the functions of the folded stacks
	if [ -f "$TMP/stacks.html.dom" ] && render "$TMP/stacks.html"; then
		python3 "$HDOM" "$TMP/stacks.html.dom" > "$TMP/dom.txt"
		# the 3 heaviest outermost frames (lighter ones may be under the 0.1% drawn)
		"$KMA" --no-db -f folded "$dat" | sed 's/ \([0-9]*\)$/;\1/' |
			awk -F';' '{ w[$1] += $NF } END { for (f in w) print w[f] "\t" f }' |
			sort -rn | head -3 | cut -f2 | sed 's/^/frame /' > "$TMP/want.txt"
		check "--html stacks.dat: flame graph frames" test "$(grep -c '^frame ' "$TMP/dom.txt")" -gt 20
		check "--html stacks.dat: the outermost frames of -f folded are frames" sh -c \
			'grep -Fxq -f "$1" "$2" && [ "$(grep -Fxc -f "$1" "$2")" -ge "$(wc -l < "$1")" ]' \
			sh "$TMP/want.txt" "$TMP/dom.txt"
		check "--html markers.dat: no flame graph without stacks" sh -c \
			'! grep -q "^frame " "$1"' sh <(python3 "$HDOM" "$TMP/markers.html.dom" 2>/dev/null)
		mkdir -p "$TOP/$B/tests/html"
		timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
			--disable-background-networking --disable-component-update --disable-sync \
			--no-first-run --user-data-dir="$TMP/chr" --hide-scrollbars \
			--window-size=1280,2400 --screenshot="$TOP/$B/tests/html/stacks.png" \
			"file://$TMP/stacks.html" > /dev/null 2>&1
		check "--html stacks.dat: screenshot kept ($B/tests/html/stacks.png)" \
			test -s "$TOP/$B/tests/html/stacks.png"
	fi
	# names are data: a task named <script>, a marker label with markup (hand-worked seq)
	if [ -x "$MKTRACE" ] && "$MKTRACE" -o "$TMP/script.dat" "$TOP/tests/html/script.seq" &&
	   (cd "$TMP" && "$KMA" --no-db -q --html script.html script.dat) &&
	   render "$TMP/script.html" "#group=comm"; then
		python3 "$HDOM" "$TMP/script.html.dom" > "$TMP/dom.txt"
		# slack%: 16 of 96 bytes = 16.666.. %, 28 of 128 = 21.875 %
		printf 'row\t<script>\t96\t16\t16.667\t32\t2\t1\t0\t1\nrow\tbash\t128\t28\t21.875\t128\t1\t0\t0\t1\n' \
			> "$TMP/want.txt"
		grep '^row' "$TMP/dom.txt" | sort > "$TMP/got.txt"
		check "--html: a task named <script> is a row of text (hand-worked numbers)" \
			diff "$TMP/want.txt" "$TMP/got.txt"
		check "--html: a marker label <i>g1</i> is text" grep -qx 'gen <i>g1</i>' "$TMP/dom.txt"
		check "--html: no element from the trace's names, script ran" sh -c \
			'grep -qx "elements " "$1" && grep -qx "marker ok" "$1" && grep -qx "scripts 4 0" "$1"' \
			sh "$TMP/dom.txt"
		check "--html: <script> escaped in the page's data" sh -c \
			'grep -q "u003cscript\\\\u003e" "$1" && [ "$(grep -c "<script" "$1")" = 4 ]' \
			sh "$TMP/script.html"
	else
		fail "--html: the <script> task page" "mktrace, kma-analyze or chromium failed"
	fi
fi
