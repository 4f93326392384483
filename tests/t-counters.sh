# --counters: the kernel's own counters (kma-record's kma-slabinfo:, kma-meminfo: and
# kma-allocinfo: snapshots) beside the trace. Expected rows come from
# tests/tools/counters-expect.py, which reads the .seq description itself (or trace-cmd
# report of a recorded fixture), never from kma; the snapshot lines are worked out in
# the comments of tests/counters/*.seq.
MK=$TOP/$B/tests/tools/mktrace
SEQ=$TOP/tests/counters
EXP=$TOP/tests/tools/counters-expect.py

# render NAME: tests/counters/NAME.seq -> $TMP/NAME.dat
render() {
	if ! "$MK" -o "$TMP/$1.dat" "$SEQ/$1.seq" > "$TMP/mk.txt" 2>&1; then
		fail "$1.seq: mktrace" "$(cat "$TMP/mk.txt")"
		return 1
	fi
}

# rows_ok NAME: -f csv equals the independent computation over the .seq
rows_ok() {
	python3 "$EXP" --seq "$SEQ/$1.seq" > "$TMP/$1.want" 2> "$TMP/$1.want-extra"
	"$KMA" --no-db --counters -f csv "$TMP/$1.dat" > "$TMP/$1.got" 2> "$TMP/err.txt"
	if [ -s "$TMP/err.txt" ] || ! diff -u "$TMP/$1.want" "$TMP/$1.got" > "$TMP/diff.txt"; then
		fail "$1.seq: --counters -f csv = counters-expect.py" \
			"$(cat "$TMP/err.txt" "$TMP/diff.txt")"
	else
		pass "$1.seq: --counters -f csv = counters-expect.py"
	fi
}

render basic && {
	rows_ok basic
	# the rows are not empty: every kind was used, and the cases the .seq sets up are there
	for row in 'slabinfo,maple_node,slabinfo,,256,702,628,-74,,2,2,1,-1,-73' \
		   'slabinfo,bar_cache,merged,foo_cache,' 'slabinfo,dma-kmalloc-96,merged,kmalloc-96,' \
		   'slabinfo,kmalloc-rcl-128,merged-unknown,,' 'slabinfo,kmalloc-cg-64,slabinfo,' \
		   'meminfo,Slab,' 'allocinfo,old_func,'; do
		check "basic.seq: row $row" grep -q "^$row" "$TMP/basic.got"
	done
	check "basic.seq: no kmalloc-large row (the page allocator)" \
		bash -c "! grep -q kmalloc-large '$TMP/basic.got'"
	"$KMA" --no-db --counters "$TMP/basic.dat" > "$TMP/basic.txt" 2>&1
	check "basic.seq: text says the unnamed older kfree" \
		grep -qx 'kfree of objects older than the trace (no cache named, in no row): 1' \
		"$TMP/basic.txt"
	check "basic.seq: text lines fit 120 columns" \
		bash -c "! awk 'length > 120' '$TMP/basic.txt' | grep -q ."
	check "basic.seq: counters-expect.py agrees on the unnamed frees" \
		grep -qx 'unknown_frees 1 mem_unknown_frees 2' "$TMP/basic.want-extra"
	# JSON: the same rows as CSV, and the snapshots
	"$KMA" --no-db --counters -f json "$TMP/basic.dat" > "$TMP/basic.json"
	check "basic.seq: JSON rows = CSV rows" python3 - "$TMP/basic.json" "$TMP/basic.got" <<'PY'
import csv, json, sys
j = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
assert j["report"] == "counters" and j["unknown_frees"] == 1 and len(j["snapshots"]) == 6
assert all(s["complete"] and s["used"] for s in j["snapshots"])
assert len(j["rows"]) == len(rows) > 0
for a, b in zip(j["rows"], rows):
    for k, v in b.items():
        assert ("" if a[k] is None else str(a[k])) == v, (k, a[k], v)
PY
	# the trace-cmd side: the same computation over trace-cmd report of the rendering
	if command -v trace-cmd > /dev/null; then
		trace-cmd report -i "$TMP/basic.dat" 2> /dev/null | python3 "$EXP" --report \
			> "$TMP/basic.rep" 2> /dev/null
		check "basic.seq: counters-expect.py over trace-cmd report = -f csv" \
			cmp -s "$TMP/basic.rep" "$TMP/basic.got"
	else
		skip "basic.seq: trace-cmd report" "trace-cmd is not installed"
	fi
}

render incomplete && {
	rows_ok incomplete
	"$KMA" --no-db --counters "$TMP/incomplete.dat" > "$TMP/inc.txt" 2>&1
	cat > "$TMP/inc.want" <<'W'
The kernel's own counters (kma-record's start and end snapshots) beside the trace over the same interval
  slabinfo   start at 0.000000s (3 parts), end at 8.000000s (incomplete: part 2/3 missing): not used
  meminfo    start at 0.000000s (incomplete: malformed: bad kB in "Slab=12x"), end at 8.000000s: not used
  allocinfo  start at 0.000000s, end at 8.000000s (incomplete: part 1/2 given twice): not used
  1 counter marker not understood (first: unknown PHASE "middle")
W
	check "incomplete.seq: every snapshot said incomplete, why, and not used" \
		diff -u "$TMP/inc.want" "$TMP/inc.txt"
	check "incomplete.seq: no rows" test "$(wc -l < "$TMP/incomplete.got")" -eq 1
}

render endfirst && {
	rows_ok endfirst
	"$KMA" --no-db --counters "$TMP/endfirst.dat" > "$TMP/ef.txt" 2>&1
	check "endfirst.seq: end before start, not used" grep -qx \
		'  slabinfo   start at 8.000000s, end at 0.000000s: the end before the start, not used' \
		"$TMP/ef.txt"
	check "endfirst.seq: meminfo used: Slab +4096, trace +64, untraced 4032" \
		grep -qx 'meminfo,Slab,,,,102400,106496,4096,,,,,64,4032' "$TMP/endfirst.got"
}

# a trace without counter markers: said, no rows, exit 0
"$MK" -o "$TMP/plain.dat" "$TOP/tests/gen/reuse.seq" > /dev/null 2>&1
"$KMA" --no-db --counters "$TMP/plain.dat" > "$TMP/plain.txt" 2>&1
check "no markers: exit 0, every kind 'none in this trace'" \
	test "$(grep -c 'none in this trace$' "$TMP/plain.txt")" -eq 3
check "--counters with --leaks: usage error" \
	bash -c "'$KMA' --no-db --counters --leaks '$TMP/plain.dat' > /dev/null 2>&1; [ \$? -eq 2 ]"

# report.db: the counters_* tables hold the same rows (with --counters), and the manual's
# example query runs on them with rows
if [ -f "$TMP/basic.dat" ]; then
	"$KMA" -q --counters -o "$TMP/basic.db" "$TMP/basic.dat"
	sqlite3 -csv "$TMP/basic.db" "
		SELECT 'slabinfo', cache, state, target, objsize, kernel_start, kernel_end,
		       kernel_delta, NULL, trace_allocs, trace_frees, trace_implicit, trace_delta,
		       untraced FROM counters_slab
		WHERE state <> 'slabinfo' OR kernel_delta OR trace_allocs OR trace_frees
		      OR trace_implicit OR trace_delta
		ORDER BY abs(COALESCE(untraced, 0)) DESC, cache;
		SELECT 'meminfo', field, NULL, NULL, NULL, kernel_start, kernel_end, kernel_delta,
		       NULL, NULL, NULL, NULL, trace_delta, untraced FROM counters_meminfo ORDER BY rowid;
		SELECT 'allocinfo', function, NULL, NULL, NULL, kernel_start, kernel_end,
		       kernel_delta, kernel_calls_delta, trace_allocs, NULL, NULL, trace_net, untraced
		FROM counters_allocinfo ORDER BY function;" > "$TMP/db.csv"
	check "report.db counters_* = counters-expect.py" \
		diff -u <(tail -n +2 "$TMP/basic.want") "$TMP/db.csv"
	check "report.db: every slabinfo cache of either snapshot has a row (9) + 3 merged" \
		test "$(sqlite3 "$TMP/basic.db" 'SELECT COUNT(*) FROM counters_slab')" = 12
	check "report.db: 6 snapshots, all used" test "$(sqlite3 "$TMP/basic.db" \
		'SELECT COUNT(*) FROM counters_snapshots WHERE complete AND used')" = 6
	check "kma-report.db(5) counters query has rows" \
		bash "$TOP/tests/test-doc-queries.sh" -r counters-untraced "$TMP/basic.db"
	"$KMA" -q -o "$TMP/nocnt.db" "$TMP/basic.dat"
	check "report.db without --counters: counters_* empty" test "$(sqlite3 "$TMP/nocnt.db" \
		'SELECT (SELECT COUNT(*) FROM counters_slab) + (SELECT COUNT(*) FROM counters_snapshots)')" = 0
fi
if [ -f "$TMP/incomplete.dat" ]; then
	"$KMA" -q --counters -o "$TMP/inc.db" "$TMP/incomplete.dat"
	check "report.db: incomplete snapshots say why, none used" test "$(sqlite3 "$TMP/inc.db" \
		"SELECT group_concat(kind || ' ' || phase || ' ' || complete || used || ' ' ||
		 COALESCE(why, '-'), '|') FROM counters_snapshots")" = \
		'slabinfo start 10 -|slabinfo end 00 part 2/3 missing|meminfo start 00 malformed: bad kB in "Slab=12x"|meminfo end 10 -|allocinfo start 10 -|allocinfo end 00 part 1/2 given twice'
fi

# --html with --counters: the page's tables hold the rows of -f csv (the independent
# expectation), its script ran without error; without --counters no section
if [ -f "$TMP/basic.dat" ] && [ -n "${CHROMIUM:-}" ] && command -v "$CHROMIUM" > /dev/null; then
	"$KMA" --no-db -q --counters --html "$TMP/c.html" "$TMP/basic.dat"
	dump_dom "$TMP/c.html" > "$TMP/c.dom"
	check "--html --counters: the page's script ran, no error" test \
		"$(python3 "$TOP/tests/tools/html-dom.py" "$TMP/c.dom" | grep -E '^(marker|errors) ')" = \
		"$(printf 'marker ok\nerrors 0')"
	python3 - "$TMP/c.dom" > "$TMP/c-dom.csv" <<'PY'
import sys
from html.parser import HTMLParser

KIND = {"kma-counters-slab": "slabinfo", "kma-counters-meminfo": "meminfo",
        "kma-counters-allocinfo": "allocinfo"}


class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.table, self.body, self.row, self.cell, self.rows = None, False, None, None, []

    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "table":
            self.table = a.get("id")
        elif tag == "tbody":
            self.body = True
        elif tag == "tr" and self.body and self.table in KIND:
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = ""

    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row.append("" if self.cell == "-" else self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append((self.table, self.row))
            self.row = None
        elif tag == "table":
            self.table, self.body = None, False


p = P()
p.feed(open(sys.argv[1]).read())
for t, r in p.rows:
    k = KIND[t]
    if k == "slabinfo":   # cache state target objsize ks ke kd allocs frees impl td untraced
        out = [k, r[0], r[1], r[2], r[3], r[4], r[5], r[6], "", r[7], r[8], r[9], r[10], r[11]]
    elif k == "meminfo":  # field start end kd td untraced
        out = [k, r[0], "", "", "", r[1], r[2], r[3], "", "", "", "", r[4], r[5]]
    else:                 # func start end kd calls allocs net untraced tags
        out = [k, r[0], "", "", "", r[1], r[2], r[3], r[4], r[5], "", "", r[6], r[7]]
    print(",".join(out))
PY
	check "--html --counters: the tables = counters-expect.py" \
		diff -u <(tail -n +2 "$TMP/basic.want") "$TMP/c-dom.csv"
	"$KMA" --no-db -q --html "$TMP/n.html" "$TMP/basic.dat"
	check "--html without --counters: no counters section" \
		bash -c "! grep -q '\"counters\":' '$TMP/n.html'"
else
	skip "--html --counters" "no Chromium"
fi

# Recorded with kma-record (its experiment markers): --counters against counters-expect.py
# over trace-cmd report of the same file (the markers and the kmem events parsed there).
# tests/fixtures/exp-*.dat, or the folder $KMA_EXP_DIR.
for f in exp-noleak exp-leak; do
	dat=${KMA_EXP_DIR:-$TOP/tests/fixtures}/$f.dat
	if [ ! -f "$dat" ]; then
		skip "$f.dat: --counters = trace-cmd report by script" "no $f.dat"
		continue
	fi
	if ! command -v trace-cmd > /dev/null; then
		skip "$f.dat: --counters = trace-cmd report by script" "trace-cmd is not installed"
		continue
	fi
	memo "$TMP/$f.report" "trace-cmd-report $dat" trace-cmd report -i "$dat" 2> /dev/null
	python3 "$EXP" --report < "$TMP/$f.report" > "$TMP/$f.want" 2> "$TMP/$f.want-extra"
	"$KMA" --no-db --counters -f csv "$dat" > "$TMP/$f.got" 2> "$TMP/err.txt"
	if ! diff -u "$TMP/$f.want" "$TMP/$f.got" > "$TMP/diff.txt"; then
		fail "$f.dat: --counters -f csv = counters-expect.py over trace-cmd report" \
			"$(head -30 "$TMP/diff.txt")"
	else
		pass "$f.dat: --counters -f csv = counters-expect.py over trace-cmd report"
	fi
	check "$f.dat: slabinfo and meminfo snapshots used" \
		grep -qE '^usable slabinfo meminfo' "$TMP/$f.want-extra"
	# the kernel frees maple nodes through paths with no kmem event (kfree_rcu batches,
	# bulk frees): on 6.18 the two counts of maple_node differ
	check "$f.dat: maple_node's untraced objects are not 0" awk -F, \
		'$1 == "slabinfo" && $2 == "maple_node" && $14 != "" && $14 != 0 { ok = 1 }
		 END { exit !ok }' "$TMP/$f.got"
done
