# report.db's page_timeline, page_timeline_tasks and page_timeline_functions: live
# pages over time. tests/pages/basic.seq against bins worked out by hand below; the recorded
# tests/fixtures/pages.dat against tests/tools/page-timeline-from-db.py (its series
# computed from the page_allocations view, bin 0 at the first page event of `trace-cmd
# report`); the check fails on a damaged table; a slab-only trace has no page timeline.
MKTRACE=$TOP/$B/tests/tools/mktrace
PTL="python3 $TOP/tests/tools/page-timeline-from-db.py"
ptq() { sqlite3 -separator ' ' "$1" "$2" 2>&1; }

if [ -x "$MKTRACE" ] &&
   "$MKTRACE" -g 6.18 -l 8 -E little -o "$TMP/basic.dat" "$TOP/tests/pages/basic.seq" \
	> "$TMP/mk.txt" 2>&1 &&
   "$KMA" -q --pages -o "$TMP/basic.db" "$TMP/basic.dat" > /dev/null 2> "$TMP/err.txt"; then
	# basic.seq's events (its comment numbers them), ns: bin 0 starts at the first
	# page event (1, 1000), the last event is at 9500: 1 us bins, 9 of them.
	#   1000 +1 (1); 2000 +4 (2); 3000 failed; 4000 -1 (4, the batched one no free);
	#   5000 -4 implicit +1 (5: live 4, 0, 1: max 4); 6000 unknown; 7000/7100 no free;
	#   8000 +2 (8); 9000 +1, 9500 -1 (9: live 4 then 3). A bin's max starts at the
	#   last one's live. bin allocs alloc_pages frees free_pages live_pages live_max:
	cat > "$TMP/basic.want" <<-'END'
	0 1 1 0 0 1 1 4096
	1 1 4 0 0 5 5 20480
	2 0 0 0 0 5 5 20480
	3 0 0 1 1 4 5 16384
	4 1 1 1 4 1 4 4096
	5 0 0 0 0 1 1 4096
	6 0 0 0 0 1 1 4096
	7 1 2 0 0 3 3 12288
	8 1 1 1 1 3 4 12288
	END
	check "page timeline basic.seq: bins as worked by hand" cmp "$TMP/basic.want" \
		<(ptq "$TMP/basic.db" "SELECT bin, allocs, alloc_pages, frees, free_pages,
			live_pages, live_max, live_bytes FROM page_timeline ORDER BY bin")
	check "page timeline basic.seq: bin 0 at the first page event, 1 us wide" test \
		"$(ptq "$TMP/basic.db" "SELECT ts, width_ns FROM page_timeline WHERE bin = 0")" = "1000 1000"
	# tasks: kworker/1:0 ends with 2 live pages (8), bash with 1 (5): kworker first;
	# bash 1 5 5 4 1 1 1 1 1 (1, 2, 4, 5), kworker 0 until 8 (bin 7); no others
	check "page timeline basic.seq: tasks as worked by hand" test \
		"$(ptq "$TMP/basic.db" "SELECT group_concat(comm || '=' || live_pages, ' ')
			FROM (SELECT * FROM page_timeline_tasks WHERE bin IN (0, 4, 7)
			ORDER BY bin, rank)")" = \
		"kworker/1:0=0 bash=1 [other]=0 kworker/1:0=0 bash=1 [other]=0 kworker/1:0=2 bash=1 [other]=0"
	# functions (the stacks' first frame outside the page allocator): pipe_write +1 (1),
	# -1 (4, bin 3), +1 (5, bin 4), +2 (8, bin 7): 3 live at the end, first;
	# do_anonymous_page +4 (2, bin 1), -4 (5, implicit, bin 4), +1 -1 (9, bin 8): 0
	check "page timeline basic.seq: functions as worked by hand" test \
		"$(ptq "$TMP/basic.db" "SELECT group_concat(function || '=' || live_pages, ' ')
			FROM (SELECT * FROM page_timeline_functions WHERE bin IN (0, 1, 3, 4, 7)
			ORDER BY bin, rank)")" = "$(echo pipe_write=1 do_anonymous_page=0 [other]=0 \
		pipe_write=1 do_anonymous_page=4 [other]=0 pipe_write=0 do_anonymous_page=4 \
		[other]=0 pipe_write=1 do_anonymous_page=0 [other]=0 pipe_write=3 \
		do_anonymous_page=0 [other]=0)"
	# without stacks no function series: kma does not invent callers
	grep -v '^stack ' "$TOP/tests/pages/basic.seq" > "$TMP/nostack.seq"
	if "$MKTRACE" -g 6.18 -o "$TMP/nostack.dat" "$TMP/nostack.seq" > /dev/null 2>&1 &&
	   "$KMA" -q --pages -o "$TMP/nostack.db" "$TMP/nostack.dat" > /dev/null 2>&1; then
		check "page timeline without stacks: tasks, no function series" test \
			"$(ptq "$TMP/nostack.db" "SELECT (SELECT COUNT(*) FROM page_timeline_tasks) > 0,
				(SELECT COUNT(*) FROM page_timeline_functions)")" = "1 0"
	else
		fail "page timeline without stacks: mktrace or kma-analyze" "see $TMP/nostack.seq"
	fi
	check "page timeline basic.seq: = computed from page_allocations" $PTL "$TMP/basic.db" 1000
	check "page timeline basic.seq: the slab timeline is unchanged by it" test \
		"$(ptq "$TMP/basic.db" "SELECT SUM(allocs), SUM(alloc_bytes) FROM timeline")" = "1 64"
else
	fail "page timeline basic.seq: mktrace or kma-analyze" "$(cat "$TMP/mk.txt" "$TMP/err.txt" 2> /dev/null)"
fi

# random sequences (tests/tools/mkpages.py: two CPUs, so events share timestamps), one
# with its timestamps spread 100 times (15 ms: bins wider than 1 us) against the checker
for v in 7:1 8:100; do
	IFS=: read -r seed scale <<< "$v"
	python3 "$TOP/tests/tools/mkpages.py" 3000 "$seed" |
		awk -v s="$scale" '$1 == "event" || $1 == "stack" || $1 == "marker" { $3 *= s } 1' \
		> "$TMP/r$seed.seq"
	first=$(awk '$1 == "event" { print $3; exit }' "$TMP/r$seed.seq")
	if "$MKTRACE" -g 6.18 -l 8 -E little -o "$TMP/r$seed.dat" "$TMP/r$seed.seq" \
		> "$TMP/mk.txt" 2>&1 &&
	   "$KMA" -q --pages -o "$TMP/r$seed.db" "$TMP/r$seed.dat" > /dev/null 2> "$TMP/err.txt"; then
		check "page timeline mkpages seed $seed x$scale: = computed from page_allocations" \
			$PTL "$TMP/r$seed.db" "$first"
	else
		fail "page timeline mkpages seed $seed" "$(cat "$TMP/mk.txt" "$TMP/err.txt")"
	fi
done
[ -f "$TMP/r8.db" ] && check "page timeline mkpages x100: bins wider than 1 us" test \
	"$(ptq "$TMP/r8.db" "SELECT MIN(width_ns) > 1000 FROM page_timeline")" = 1

PD=$TOP/tests/fixtures/pages.dat
if [ -f "$PD" ] && command -v trace-cmd > /dev/null; then
	# the first page event's timestamp, in ns, as trace-cmd report -t prints it
	first=$(trace-cmd report -t -i "$PD" 2> /dev/null | awk '/ mm_page_/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			sub(":", "", $i); split($i, p, "."); print p[1] p[2]; exit } }')
	"$KMA" -q --pages -o "$TMP/pages.db" "$PD" > /dev/null 2> "$TMP/err.txt"
	check "page timeline pages.dat: = computed from page_allocations" $PTL "$TMP/pages.db" "$first"
	check "page timeline pages.dat: peak = page_trace.peak_pages, end = live pages" test \
		"$(ptq "$TMP/pages.db" "SELECT (SELECT MAX(live_max) FROM page_timeline) = peak_pages
			AND (SELECT live_pages FROM page_timeline ORDER BY bin DESC LIMIT 1) =
			(SELECT SUM(pages) FROM page_allocations WHERE free_ts IS NULL)
			FROM page_trace")" = 1
	# kma-report.db(5)'s page timeline queries run, with rows, and its check says ok
	check "man page page-timeline queries on pages.dat (rows, check ok)" \
		bash "$TOP/tests/test-doc-queries.sh" \
		-r page-timeline,page-timeline-peak,page-timeline-peak-functions,page-timeline-check "$TMP/pages.db"
	sqlite3 "$TMP/pages.db" "UPDATE page_timeline SET free_pages = free_pages + 1 WHERE bin = 7"
	if $PTL "$TMP/pages.db" "$first" > /dev/null; then
		fail "page timeline check catches a wrong free_pages" "passed"
	else
		pass "page timeline check catches a wrong free_pages"
	fi
	sqlite3 "$TMP/pages.db" "UPDATE page_timeline SET free_pages = free_pages - 1 WHERE bin = 7;
		UPDATE page_timeline_tasks SET live_pages = live_pages + 1 WHERE bin = 9 AND rank = 1"
	if $PTL "$TMP/pages.db" "$first" > /dev/null; then
		fail "page timeline check catches a wrong task series" "passed"
	else
		pass "page timeline check catches a wrong task series"
	fi
	sqlite3 "$TMP/pages.db" "UPDATE page_timeline_tasks SET live_pages = live_pages - 1
		WHERE bin = 9 AND rank = 1;
		UPDATE page_timeline_functions SET live_pages = live_pages + 1 WHERE bin = 9 AND rank = 0"
	if $PTL "$TMP/pages.db" "$first" > /dev/null; then
		fail "page timeline check catches a wrong function series" "passed"
	else
		pass "page timeline check catches a wrong function series"
	fi
else
	skip "page timeline pages.dat" "no tests/fixtures/pages.dat or no trace-cmd"
fi

# a slab-only trace (--pages refuses it) and a page trace without --pages: no rows
"$KMA" -q -o "$TMP/slab.db" "$TOP/tests/fixtures/markers.dat" > /dev/null 2>&1
check "page timeline: none on a slab-only trace" test \
	"$(ptq "$TMP/slab.db" "SELECT COUNT(*) FROM page_timeline")" = 0
[ -f "$PD" ] && "$KMA" -q -o "$TMP/nopages.db" "$PD" > /dev/null 2>&1 &&
	check "page timeline: none without --pages" test \
		"$(ptq "$TMP/nopages.db" "SELECT COUNT(*) FROM page_timeline")" = 0

# --html: a trace with page events gets the "Live pages over time" section, its
# summary = pages-from-report.py over trace-cmd report, its chart data = page_timeline;
# a slab-only trace gets none. Chromium renders the pages (--dump-dom).
CHROME=$CHROMIUM
prender() {
	dump_dom "$1" > "$1.dom"
}
# pdom DOM: marker, errors, the kma-pages section's canvases and summary cells
pdom() {
	python3 - "$1" <<-'END'
	import sys
	from html.parser import HTMLParser
	class D(HTMLParser):
	    def __init__(self):
	        super().__init__(convert_charrefs=True)
	        self.marker, self.err, self.sec, self.canv, self.cells = '', 0, 0, [], []
	        self.depth, self.td = 0, None
	    def handle_starttag(self, tag, attrs):
	        a = dict(attrs)
	        if tag == 'body':
	            self.marker = a.get('data-kma', '')
	            self.err += 'data-kma-error' in a
	        if a.get('id') == 'kma-errors':
	            self.err += 1
	        if a.get('id') == 'kma-pages':
	            self.sec, self.depth = 1, 0
	        if self.depth is not None and self.sec == 1:
	            if tag == 'section':
	                self.depth += 1
	            if tag == 'canvas':
	                self.canv.append(a.get('id'))
	            if tag == 'td':
	                self.td = ''
	    def handle_endtag(self, tag):
	        if self.sec == 1 and tag == 'section':
	            self.depth -= 1
	            if not self.depth:
	                self.sec = 2
	        if tag == 'td' and self.td is not None:
	            self.cells.append(self.td)
	            self.td = None
	    def handle_data(self, d):
	        if self.td is not None:
	            self.td += d
	p = D()
	p.feed(open(sys.argv[1]).read())
	print('marker', p.marker, 'errors', p.err, 'section', 1 if p.sec else 0)
	print('canvas', ' '.join(p.canv))
	print('cells', '|'.join(p.cells))
	END
}
# pjson PAGE KEY: the page's data member pages.KEY as one line (none: "none")
pjson() {
	python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
d = json.loads(re.search(r"<script id=\"kma-data\" type=\"application/json\">(.*?)</script>",
                         t, re.S).group(1))
p = d.get("pages")
print("none" if p is None else " ".join(map(str, p[sys.argv[2]])))' "$1" "$2"
}
if [ -z "$CHROME" ]; then
	skip "page timeline --html" "no chromium"
elif [ -f "$PD" ] && command -v trace-cmd > /dev/null &&
     "$KMA" -q -o "$TMP/html.db" --html "$TMP/pages.html" "$PD" > /dev/null 2> "$TMP/err.txt" &&
     prender "$TMP/pages.html"; then
	pdom "$TMP/pages.html.dom" > "$TMP/pages.got"
	check "page timeline --html pages.dat: the page ran, no script error, a page section" \
		grep -qx 'marker ok errors 0 section 1' "$TMP/pages.got"
	check "page timeline --html pages.dat: the live pages and page rate charts" \
		grep -qx 'canvas kma-chart-pages kma-chart-page-rate' "$TMP/pages.got"
	# allocations, pages allocated, freed, live, live bytes, peak, failed, unknown frees
	want=$(trace-cmd report -R "$PD" 2> /dev/null |
		python3 "$TOP/tests/tools/pages-from-report.py" | awk '/^summary / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "cells %s|%s|%s|%s|%s|%s|%s|%s (%s pages)\n", v["allocs"],
			v["pages_alloc"], v["pages_freed"], v["pages_live"], "LIVEBYTES",
			v["peak_pages"], v["failed"], v["unknown_frees"], v["unknown_pages"] }')
	got=$(grep '^cells ' "$TMP/pages.got" | awk -F'|' '{ $5 = "LIVEBYTES"; print }' OFS='|')
	check "page timeline --html pages.dat: summary = pages-from-report.py" test "$got" = "$want"
	check "page timeline --html pages.dat: chart's live pages = page_timeline (checked above)" \
		test "$(pjson "$TMP/pages.html" live)" = \
		"$(ptq "$TMP/pages.db" "SELECT group_concat(live_pages, ' ') FROM
			(SELECT live_pages FROM page_timeline ORDER BY bin)")"
	# pages.dat has stacks: the chart's series are the caller functions, as stored
	"$KMA" -q --pages -o "$TMP/pf.db" "$PD" > /dev/null 2>&1
	check "page timeline --html pages.dat: series by function = page_timeline_functions" \
		test "$(python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
p = json.loads(re.search(r"<script id=\"kma-data\" type=\"application/json\">(.*?)</script>",
                         t, re.S).group(1))["pages"]
print(p["series_by"])
for se in p["series"]:
    print(se["name"], " ".join(map(str, se["live"])))' "$TMP/pages.html")" = \
		"function
$(ptq "$TMP/pf.db" "SELECT function || ' ' || group_concat(live_pages, ' ') FROM
			(SELECT * FROM page_timeline_functions ORDER BY rank, bin) GROUP BY rank
			ORDER BY rank")"
	"$KMA" -q -o "$TMP/plain.db" "$PD" > /dev/null 2>&1
	check "page timeline --html: report.db as without --html (page matcher or not)" \
		cmp <(sqlite3 "$TMP/plain.db" .dump) <(sqlite3 "$TMP/html.db" .dump)
	check "page timeline --html: the report on stdout as without --html" \
		cmp <("$KMA" --no-db -f json "$PD" 2>&1) \
		<("$KMA" --no-db -f json --html "$TMP/o.html" "$PD" 2>&1)
	check "page timeline --html without --pages: no page tables in report.db" test \
		"$(ptq "$TMP/html.db" "SELECT (SELECT COUNT(*) FROM page_trace) +
			(SELECT COUNT(*) FROM page_timeline)")" = 0
	if "$KMA" -q --no-db --html "$TMP/slab.html" "$TOP/tests/fixtures/stacks.dat" > /dev/null \
		2> "$TMP/err.txt" && prender "$TMP/slab.html"; then
		check "page timeline --html stacks.dat (slab only): no page section" \
			grep -qx 'marker ok errors 0 section 0' <(pdom "$TMP/slab.html.dom")
		check "page timeline --html stacks.dat: no pages in the page's data" \
			test "$(pjson "$TMP/slab.html" live)" = none
	else
		fail "page timeline --html stacks.dat" "$(cat "$TMP/err.txt" "$TMP/chr.err")"
	fi
else
	fail "page timeline --html pages.dat" "$(cat "$TMP/err.txt" "$TMP/chr.err" 2> /dev/null)"
fi
