# --html's "Kernel memory by allocator" section, on a trace where more than one allocator
# allocated: the allocators' table, their live bytes stacked in one chart (the page data's
# "kinds" member: each allocator's bins), and the percpu and vmalloc callers' tables, as
# Chromium renders the page (dump_dom). Expected numbers: tests/tools/kinds-check.py over
# `trace-cmd report -t` (summary, callers, and with --bins each kind's live bytes at the end
# of the page's own bins) on the recorded fixtures tests/fixtures/kinds-*.dat, and the
# hand-worked tests/kindstore/gens.seq for the slab allocator beside them.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
CHECK="python3 $TOP/tests/tools/kinds-check.py"

# kinds_json PAGE: the page data's kinds member, "KIND start width nbins" lines and
# "live KIND v0 v1 ..." lines
kinds_json() {
	python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
d = json.loads(re.search(r"<script id=\"kma-data\" type=\"application/json\">(.*?)</script>",
                         t, re.S).group(1))
for k in d.get("kinds") or []:
    print("kind", k["kind"], k["start"], k["width"], len(k["live"]))
    print("live", k["kind"], " ".join(map(str, k["live"])))' "$1"
}

# dom_tables DOM: the rows of the section's tables, "TABLE-ID cell cell ..." (the
# callers' names with a space in them, "[no stack]", as one cell with "_")
dom_tables() {
	python3 -c '
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.table = None; self.row = None; self.cell = None; self.label = None
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "table" and (a.get("id") or "").startswith("kma-kind"):
            self.table = a["id"]
        elif tag == "tr" and self.table:
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = ""
        elif tag == "canvas" and a.get("id") == "kma-chart-kinds":
            print("chart", a.get("aria-label"))
    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d
    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row.append(self.cell.replace(" ", "_")); self.cell = None
        elif tag == "tr" and self.row:
            print(self.table, " ".join(self.row)); self.row = None
        elif tag == "table":
            self.table = None
P().feed(open(sys.argv[1], encoding="utf-8").read())' "$1"
}

# The fixtures: every number of the section against the checker
for f in "$TOP"/tests/fixtures/kinds-*.dat; do
	name=$(basename "$f" .dat)
	page=$TMP/$name.html
	if ! "$KMA" -q --no-db --html "$page" "$f" 2> "$TMP/err.txt"; then
		fail "kinds html $name: kma-analyze" "$(cat "$TMP/err.txt")"
		continue
	fi
	kinds_json "$page" > "$TMP/$name.json.txt"
	bins=$(awk '$1 == "kind" && $2 != "slab" && $2 != "page" {
		printf " --bins %s:%s:%s:%s", $2, $3, $4, $5 }' "$TMP/$name.json.txt")
	check "kinds html $name: the page data has percpu and vmalloc bins" test \
		"$(awk '$1 == "kind" && $5 > 0 { printf "%s ", $2 }' "$TMP/$name.json.txt")" = \
		"percpu vmalloc "
	memo "$TMP/$name.check" "kinds-check-t $f $TOP/tests/tools/kinds-check.py $bins" \
		sh -c "trace-cmd report -t -i '$f' 2> /dev/null | $CHECK --buffer kmank $bins"
	check "kinds html $name: each kind's live bytes per bin = the checker's" sh -c "
		sed -n 's/^bins /live /p' '$TMP/$name.check' > '$TMP/want-bins.txt' &&
		[ -s '$TMP/want-bins.txt' ] &&
		grep '^live ' '$TMP/$name.json.txt' | diff '$TMP/want-bins.txt' -"
	if ! dump_dom "$page" > "$TMP/$name.dom" || ! grep -q 'data-kma="ok"' "$TMP/$name.dom" ||
	   grep -q 'data-kma-error="1"' "$TMP/$name.dom"; then
		fail "kinds html $name: Chromium renders the page" "$(tail -3 "$TMP/chr.err" 2> /dev/null)"
		continue
	fi
	dom_tables "$TMP/$name.dom" > "$TMP/$name.tables"
	check "kinds html $name: the allocators' table = the checker's summary" sh -c "
		awk '\$1 == \"summary\" { for (i = 3; i <= NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] }
			print \"kma-kinds-summary\", \$2, v[\"allocs\"], v[\"bytes\"], v[\"net\"], v[\"peak\"] }' \
			'$TMP/$name.check' > '$TMP/want.txt' && [ -s '$TMP/want.txt' ] &&
		grep '^kma-kinds-summary ' '$TMP/$name.tables' | diff '$TMP/want.txt' -"
	# the vmap callers are frames (symbol+offset); the checker names their functions
	check "kinds html $name: each kind's callers table = the checker's callers" sh -c "
		awk '\$1 == \"caller\" { n = NF; name = \$3; for (i = 4; i <= n - 4; i++) name = name \"_\" \$i
			print \$2, name, \$(n - 3), \$(n - 2), \$(n - 1), \$n }' '$TMP/$name.check' |
			sed 's/ total=/ /; s/ net=/ /; s/ allocs=/ /; s/ frees=/ /' |
			LC_ALL=C sort > '$TMP/want.txt' && [ -s '$TMP/want.txt' ] &&
		awk '\$1 ~ /^kma-kind-callers-/ { k = substr(\$1, 18); name = \$2
			if (k == \"vmalloc\") sub(/\\+0x[0-9a-f]+\$/, \"\", name)
			key = k \" \" name; t[key] += \$4; n[key] += \$5; a[key] += \$6; f[key] += \$7 }
			END { for (key in t) print key, t[key], n[key], a[key], f[key] }' \
			'$TMP/$name.tables' | LC_ALL=C sort | diff '$TMP/want.txt' -"
	check "kinds html $name: the stacked chart: percpu, vmalloc, ending at their nets' sum" test \
		"$(grep '^chart ' "$TMP/$name.tables")" = \
		"chart live bytes by allocator, stacked: percpu, vmalloc; at the end $(awk '
			$1 == "summary" { split($9, kv, "="); s += kv[2] } END { print s }' \
			"$TMP/$name.check") bytes"
done

# gens.seq: slab beside percpu and vmalloc, worked by hand (see its comments): slab 64
# bytes live from 1000 to 8000 ns, percpu 32 from 1500, 96 more from 2500, 32 freed at
# 3000; vmalloc 16384 from 4000 to 6000, 8192 from 7000. Each kind's live bytes at the
# end of each of its bins from these events.
if "$MKTRACE" -o "$TMP/gens.dat" "$TOP/tests/kindstore/gens.seq" > "$TMP/mk.txt" 2>&1 &&
   "$KMA" -q --no-db --html "$TMP/gens.html" "$TMP/gens.dat" 2> "$TMP/err.txt"; then
	kinds_json "$TMP/gens.html" > "$TMP/gens.json.txt"
	check "kinds html gens: slab, percpu and vmalloc bins = the events worked by hand" \
		python3 - "$TMP/gens.json.txt" <<-'END'
		import sys
		ev = {"slab": [(1000, 64), (8000, -64)],
		      "percpu": [(1500, 32), (2500, 96), (3000, -32)],
		      "vmalloc": [(4000, 16384), (6000, -16384), (7000, 8192)]}
		lines = [l.split() for l in open(sys.argv[1])]
		kinds = [l for l in lines if l[0] == "kind"]
		live = {l[1]: [int(v) for v in l[2:]] for l in lines if l[0] == "live"}
		assert [k[1] for k in kinds] == ["slab", "percpu", "vmalloc"], kinds
		for _, name, start, width, n in kinds:
		    start, width, n = int(start), int(width), int(n)
		    # each kind's bins start at its own first event
		    assert start == ev[name][0][0], (name, start)
		    want = [sum(d for t, d in ev[name] if t < start + (i + 1) * width)
		            for i in range(n)]
		    assert n > 0 and live[name] == want, (name, live[name], want)
		END
	if dump_dom "$TMP/gens.html" > "$TMP/gens.dom"; then
		dom_tables "$TMP/gens.dom" > "$TMP/gens.tables"
		check "kinds html gens: the allocators' table and the chart, worked by hand" \
			test "$(grep -E '^(kma-kinds-summary|chart) ' "$TMP/gens.tables")" = \
"kma-kinds-summary slab 1 64 0 64
kma-kinds-summary percpu 2 128 96 128
kma-kinds-summary vmalloc 2 24576 8192 16384
chart live bytes by allocator, stacked: slab, percpu, vmalloc; at the end 8288 bytes"
	else
		fail "kinds html gens: Chromium renders the page" "$(tail -3 "$TMP/chr.err" 2> /dev/null)"
	fi
else
	fail "kinds html gens: mktrace and kma-analyze" "$(cat "$TMP/mk.txt" "$TMP/err.txt" 2> /dev/null)"
fi

# One allocator only: no section, no "kinds" member (the page as before)
if "$KMA" -q --no-db --html "$TMP/basic.html" "$TOP/tests/fixtures/basic.dat" 2> "$TMP/err.txt"; then
	check "kinds html: a slab-only trace's page has no kinds member" \
		test -z "$(kinds_json "$TMP/basic.html")"
else
	fail "kinds html: basic.dat" "$(cat "$TMP/err.txt")"
fi
