# --html's page section ("Live pages over time") with a filter: it counts and charts what
# the text --pages report counts (--comm, --pid, --caller, --since/--until, --exclude-self,
# --generation), and says the filter on the page. Expected numbers: the summary from
# tests/tools/pages-from-report.py over `trace-cmd report` with the same filter, the
# chart's live pages from report.db's (unfiltered) page_allocations rows that the filter
# keeps, binned as report.db's page_timeline. Chromium renders the pages (dump_dom).
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
PFR="python3 $TOP/tests/tools/pages-from-report.py"

# mkpages.py's random sequence (two tasks, two callers, every page event kind) with a
# "kma: mK" marker before every 1500th event, 50 ns before it: no event shares its time
python3 "$TOP/tests/tools/mkpages.py" 6000 5 | awk '
	$1 == "event" && ++n % 1500 == 0 && last[$2] < $3 - 50 {
		print "marker", $2, $3 - 50, $4, "kma: m" ++k }
	$1 == "event" || $1 == "stack" { last[$2] = $3 } 1' > "$TMP/r.seq"
if ! "$MKTRACE" -o "$TMP/r.dat" "$TMP/r.seq" > "$TMP/mk.txt" 2>&1; then
	fail "pages html: mktrace" "$(cat "$TMP/mk.txt")"
	return 0 2> /dev/null || exit 0
fi
trace-cmd report -t -R "$TMP/r.dat" > "$TMP/r.txt" 2> /dev/null
check "pages html: the sequence has 4 markers" test "$(grep -c 'buf=kma: m' "$TMP/r.txt")" = 4

# pjson PAGE: the page data's pages member: "KEY VALUE" lines, the arrays space-separated
pjson() {
	python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
d = json.loads(re.search(r"<script id=\"kma-data\" type=\"application/json\">(.*?)</script>",
                         t, re.S).group(1))
p = d.get("pages") or {}
for k, v in sorted(p.items()):
    if k == "series":
        for s in v:
            print("series", s["name"], " ".join(map(str, s["live"])))
    else:
        print(k, " ".join(map(str, v)) if isinstance(v, list) else v)' "$1"
}
# want_summary ARGS...: pages-from-report.py's summary as the page data's members
want_summary() {
	$PFR "$@" < "$TMP/r.txt" | awk '/^summary / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "allocs %s\npages_alloc %s\nfrees %s\nimplicit_frees %s\npages_freed %s\n" \
			"pages_live %s\nfailed %s\nunknown_frees %s\nunknown_pages %s\npeak_pages %s\n",
			v["allocs"], v["pages_alloc"], v["frees"], v["implicit_frees"],
			v["pages_freed"], v["pages_live"], v["failed"], v["unknown_frees"],
			v["unknown_pages"], v["peak_pages"] }'
}
got_summary() {
	grep -E '^(allocs|pages_alloc|frees|implicit_frees|pages_freed|pages_live|failed|unknown_frees|unknown_pages|peak_pages) ' \
		"$1" | sort
}
# want_live DB WHERE: live pages per bin of the page allocations WHERE keeps (report.db
# keeps every one), in the bins of page_timeline
want_live() {
	python3 - "$1" "$2" <<-'END'
	import sqlite3, sys
	db = sqlite3.connect(sys.argv[1])
	start, width = db.execute("SELECT ts, width_ns FROM page_timeline WHERE bin = 0").fetchone()
	n = db.execute("SELECT COUNT(*) FROM page_timeline").fetchone()[0]
	delta = [0] * n
	for a, f, pages in db.execute("SELECT alloc_ts, free_ts, pages FROM page_allocations "
	                              "WHERE " + sys.argv[2]):
	    delta[(a - start) // width] += pages
	    if f is not None:
	        delta[(f - start) // width] -= pages
	live, out = 0, []
	for d in delta:
	    live += d
	    out.append(live)
	print(" ".join(map(str, out)))
	END
}

# case NAME KMA-ARGS | PFR-ARGS | WHERE: the page data of --pages --html with the filter
case_check() {
	local name=$1 kargs=$2 pargs=$3 where=$4 page=$TMP/$1.html
	# shellcheck disable=SC2086
	if ! "$KMA" -q --pages -o "$TMP/$name.db" --html "$page" $kargs "$TMP/r.dat" \
		2> "$TMP/err.txt"; then
		fail "pages html $name: kma-analyze" "$(cat "$TMP/err.txt")"
		return
	fi
	pjson "$page" > "$TMP/$name.json"
	# shellcheck disable=SC2086
	[ "$pargs" = - ] ||
		check "pages html $name: the section's totals = pages-from-report.py $pargs" \
		cmp <(want_summary $pargs | sort) <(got_summary "$TMP/$name.json")
	check "pages html $name: live pages per bin = report.db's rows where $where" test \
		"$(want_live "$TMP/$name.db" "$where")" = "$(sed -n 's/^live //p' "$TMP/$name.json")"
	check "pages html $name: the series add up to the live pages" python3 -c '
import sys
t = open(sys.argv[1]).read().splitlines()
live = [int(x) for x in next(l for l in t if l.startswith("live ")).split()[1:]]
ser = [[int(x) for x in l.split()[-len(live):]] for l in t if l.startswith("series ")]
assert ser and [sum(s[i] for s in ser) for i in range(len(live))] == live' "$TMP/$name.json"
	# the text report counts the same
	# shellcheck disable=SC2086
	"$KMA" --no-db --pages -f json $kargs "$TMP/r.dat" > "$TMP/$name.txt" 2> /dev/null
	check "pages html $name: allocations as the --pages -f json report" test \
		"$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["allocs"], d["pages_live"])' "$TMP/$name.txt")" = \
		"$(sed -n 's/^allocs //p; s/^pages_live //p' "$TMP/$name.json" | paste -sd' ')"
}
case_check comm "--comm bash" "--comm bash" "comm = 'bash'"
case_check pid "--pid 200" "--pid 200" "pid = 200"
# @T names the events printed as T (6 decimals): from 500 ns before it
case_check window "--since @0.0002 --until @0.0004" "--since 199500 --until 399500" \
	"alloc_ts >= 199500 AND alloc_ts < 399500"
case_check gen "--generation 2" "--generation 2" "generation = 2"
case_check genlabel "--generation m3 --comm cat" "--generation m3 --comm cat" \
	"generation = 3 AND comm = 'cat'"
# pages-from-report.py knows no callers: their live pages (report.db's function) count
case_check caller "--caller pipe_write" - "function = 'pipe_write'"
case_check nocaller "--caller !pipe_write" - "function IS NOT 'pipe_write'"
check "pages html: the caller filter leaves allocations out" test \
	"$(sed -n 's/^allocs //p' "$TMP/caller.json")" -lt \
	"$(want_summary | sed -n 's/^allocs //p')"
check "pages html: --caller and --caller ! split the allocations" test \
	$(($(sed -n 's/^allocs //p' "$TMP/caller.json") + $(sed -n 's/^allocs //p' "$TMP/nocaller.json"))) = \
	"$(want_summary | sed -n 's/^allocs //p')"
check "pages html: the filter in words in the page data" test \
	"$(sed -n 's/^filter //p' "$TMP/genlabel.json")" = \
	"page allocations made in generation m3 (filter: comm 'cat'); unknown frees and lost events are for the whole trace"
"$KMA" -q --pages --no-db --html "$TMP/all.html" "$TMP/r.dat" 2> /dev/null
pjson "$TMP/all.html" > "$TMP/all.json"
check "pages html: unfiltered, the whole trace's totals" \
	cmp <(want_summary | sort) <(got_summary "$TMP/all.json")
check "pages html: unfiltered, no filter member value" grep -qx "filter None" "$TMP/all.json"

# --html without --pages: the page section follows the filter where it applies to pages;
# --cache does not, and the page says the section has every page allocation
PD=$TOP/tests/fixtures/pages.dat
if [ -f "$PD" ]; then
	trace-cmd report -t -R "$PD" > "$TMP/pd.txt" 2> /dev/null
	"$KMA" -q --no-db --comm dd --html "$TMP/dd.html" "$PD" 2> "$TMP/err.txt"
	pjson "$TMP/dd.html" > "$TMP/dd.json"
	check "pages html pages.dat --comm dd without --pages: totals = pages-from-report.py" \
		cmp <($PFR --comm dd < "$TMP/pd.txt" | awk '/^summary/ { print $2 }') \
		<(sed -n 's/^allocs /allocs=/p' "$TMP/dd.json")
	# a window in seconds from the trace's first event (trace-cmd report's first line)
	t0=$(awk '/^ / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		sub(":", "", $i); split($i, p, "."); print p[1] p[2]; exit } }' "$TMP/pd.txt")
	"$KMA" -q --no-db --since 0.5 --until 1.5 --html "$TMP/win.html" "$PD" 2> "$TMP/err.txt"
	pjson "$TMP/win.html" > "$TMP/win.json"
	check "pages html pages.dat --since 0.5 --until 1.5 without --pages: = pages-from-report.py" \
		cmp <($PFR --since $((t0 + 500000000)) --until $((t0 + 1500000000)) < "$TMP/pd.txt" |
			awk '/^summary/ { print $2, $9 }') \
		<(printf 'allocs=%s pages_live=%s\n' "$(sed -n 's/^allocs //p' "$TMP/win.json")" \
			"$(sed -n 's/^pages_live //p' "$TMP/win.json")")
	"$KMA" -q --no-db --cache 'kmalloc-*' --html "$TMP/cache.html" "$PD" 2> "$TMP/err.txt"
	pjson "$TMP/cache.html" > "$TMP/cache.json"
	check "pages html pages.dat --cache: every page allocation, and why" sh -c '
		grep -qx "filter every page allocation of the trace: --cache does not apply to page allocations" "$1" &&
		[ "$(sed -n "s/^allocs //p" "$1")" = "$2" ]' sh "$TMP/cache.json" \
		"$($PFR < "$TMP/pd.txt" | awk '/^summary/ { sub("allocs=", "", $2); print $2 }')"
	# a recorded trace's markers: --generation on pages against trace-cmd report
	"$KMA" -q --pages --no-db --generation 1 --html "$TMP/pdg.html" "$PD" 2> "$TMP/err.txt"
	pjson "$TMP/pdg.html" > "$TMP/pdg.json"
	check "pages html pages.dat --generation 1: totals = pages-from-report.py" \
		cmp <($PFR --generation 1 < "$TMP/pd.txt" | awk '/^summary/ { print $2, $9 }') \
		<(printf 'allocs=%s pages_live=%s\n' "$(sed -n 's/^allocs //p' "$TMP/pdg.json")" \
			"$(sed -n 's/^pages_live //p' "$TMP/pdg.json")")
else
	skip "pages html pages.dat" "no tests/fixtures/pages.dat"
fi

# Chromium: the section shows the filtered totals and says the filter
# psec DOM: the kma-pages section's filter line and summary cells
psec() {
	python3 - "$1" <<-'END'
	import sys
	from html.parser import HTMLParser
	class D(HTMLParser):
	    def __init__(self):
	        super().__init__(convert_charrefs=True)
	        self.marker, self.sec, self.depth, self.cells, self.text = '', 0, 0, [], None
	        self.filt, self.inp = '', 0
	    def handle_starttag(self, tag, attrs):
	        a = dict(attrs)
	        if tag == 'body':
	            self.marker = a.get('data-kma', '')
	        if a.get('id') == 'kma-pages':
	            self.sec = 1
	        if self.sec == 1 and tag == 'section':
	            self.depth += 1
	        if self.sec == 1 and tag == 'td':
	            self.text = ''
	        if a.get('id') == 'kma-pages-filter':
	            self.inp = 1
	    def handle_endtag(self, tag):
	        if self.sec == 1 and tag == 'section':
	            self.depth -= 1
	            if not self.depth:
	                self.sec = 2
	        if tag == 'td' and self.text is not None:
	            self.cells.append(self.text)
	            self.text = None
	        if tag == 'p':
	            self.inp = 0
	    def handle_data(self, d):
	        if self.text is not None:
	            self.text += d
	        if self.inp:
	            self.filt += d
	p = D()
	p.feed(open(sys.argv[1]).read())
	print('marker', p.marker)
	print('filter', p.filt)
	print('cells', '|'.join(p.cells[:4]))
	END
}
if [ -z "$CHROMIUM" ]; then
	skip "pages html in Chromium" "no chromium"
else
	for name in genlabel all; do
		dump_dom "$TMP/$name.html" > "$TMP/$name.dom"
		psec "$TMP/$name.dom" > "$TMP/$name.sec"
	done
	# allocations, pages allocated, pages freed, pages live
	check "pages html in Chromium --generation m3 --comm cat: the section's numbers" \
		grep -qx "cells $(want_summary --generation m3 --comm cat | awk '
			{ v[$1] = $2 } END { print v["allocs"] "|" v["pages_alloc"] "|" \
			v["pages_freed"] "|" v["pages_live"] }')" "$TMP/genlabel.sec"
	check "pages html in Chromium: the page ran, the filter said in the section" sh -c \
		'grep -qx "marker ok" "$1" && grep -qx "filter Counted: page allocations made in generation m3 (filter: comm '"'cat'"'); unknown frees and lost events are for the whole trace" "$1"' \
		sh "$TMP/genlabel.sec"
	check "pages html in Chromium unfiltered: the whole trace's numbers, no filter line" \
		sh -c 'grep -qx "marker ok" "$1" && grep -qx "filter " "$1" && grep -qx "cells $2" "$1"' \
		sh "$TMP/all.sec" "$(want_summary | awk '{ v[$1] = $2 } END { print v["allocs"] "|" \
			v["pages_alloc"] "|" v["pages_freed"] "|" v["pages_live"] }')"
fi
