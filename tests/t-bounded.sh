# Memory that follows -n and a bound, not the number of events: --list -n N
# keeps N rows (a heap), --lifetimes keeps lifetimes exactly up to a budget
# (KMA_EXACT_LIFETIMES, default 1,048,576) and in log-spaced buckets past it
# (within 1 %), --html's series are bins. Expected values come from
# tests/bounded/mkseq.py, which writes the events and works out from them the
# list order, the live allocations and every caller's exact lifetimes.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
CHECK=$TOP/tests/bounded/check.py
T=$TMP/b.dat
X=$TMP/b.json
python3 "$TOP/tests/bounded/mkseq.py" 60000 1 "$TMP/b.seq" "$X" &&
	"$MKTRACE" -o "$T" "$TMP/b.seq" > "$TMP/mk.txt" 2>&1 ||
	fail "mktrace b.seq" "$(cat "$TMP/mk.txt")"

# --- --lifetimes -----------------------------------------------------------

"$KMA" --no-db --lifetimes -f csv "$T" > "$TMP/l0.csv" 2> "$TMP/err.txt"
check "lifetimes: under the budget every number is exact" \
	python3 "$CHECK" lifetimes "$X" "$TMP/l0.csv" 0
"$KMA" --no-db --lifetimes "$T" > "$TMP/l0.txt" 2>&1
check "lifetimes: exact, the heading says nothing of buckets" \
	eval '! grep -q "buckets" "$TMP/l0.txt"'
# 60000 allocations, about 55,000 traced frees: a budget of 2,000 is passed
KMA_EXACT_LIFETIMES=2000 "$KMA" --no-db --lifetimes -f csv "$T" > "$TMP/l1.csv" 2>&1
check "lifetimes: past the budget, rows over 256 frees within 1 %, the others exact" \
	python3 "$CHECK" lifetimes "$X" "$TMP/l1.csv" 1
check "lifetimes: past the budget, the buckets change the big rows (the check is not idle)" \
	eval '! python3 "$CHECK" lifetimes "$X" "$TMP/l1.csv" 0 > /dev/null'
KMA_EXACT_LIFETIMES=2000 "$KMA" --no-db --lifetimes "$T" > "$TMP/l1.txt" 2>&1
check "lifetimes: the heading states the bound" grep -q \
	"median and p99 by nearest rank, within 1% for callers with more than 256 frees: too many lifetimes to keep, counted in log-spaced buckets;" \
	"$TMP/l1.txt"
KMA_EXACT_LIFETIMES=2000 "$KMA" --no-db --lifetimes -f json "$T" > "$TMP/l1.json" 2>&1
check "lifetimes: JSON states the bound" grep -q \
	'"bucketed_over_frees": 256, "bucketed_error_pct": 1' "$TMP/l1.json"
KMA_EXACT_LIFETIMES=12x "$KMA" --no-db --lifetimes "$T" > "$TMP/bad.txt" 2>&1
check "lifetimes: KMA_EXACT_LIFETIMES=12x is refused, exit 2" test $? = 2
check "lifetimes: ... naming the variable" grep -q \
	"^kma-analyze: KMA_EXACT_LIFETIMES wants a number above 0, not '12x'$" "$TMP/bad.txt"

# --pages --lifetimes: the same buckets; the exact rows are t-pages's (checked there
# against report.db), so here the bucketed ones against those.
P=$TOP/tests/fixtures/pages.dat
"$KMA" --no-db --pages --lifetimes -f csv "$P" > "$TMP/p0.csv" 2>&1
KMA_EXACT_LIFETIMES=100 "$KMA" --no-db --pages --lifetimes -f csv "$P" > "$TMP/p1.csv" 2>&1
check "pages lifetimes: past the budget, within 1 % (over 256 frees) or exact" python3 -c '
import csv, sys
a = {r["function"]: r for r in csv.DictReader(open(sys.argv[1]))}
b = {r["function"]: r for r in csv.DictReader(open(sys.argv[2]))}
assert a.keys() == b.keys() and any(int(r["frees"]) > 256 for r in a.values()), "rows"
for k, r in a.items():
    for c in ("frees", "min_ns", "max_ns"):
        assert r[c] == b[k][c], (k, c)
    for c in ("median_ns", "p99_ns"):
        e, g = int(r[c]), int(b[k][c])
        assert (abs(g - e) * 100 <= e) if int(r["frees"]) > 256 else g == e, (k, c, e, g)
' "$TMP/p0.csv" "$TMP/p1.csv"

# --- --list -n N -----------------------------------------------------------

"$KMA" --no-db --list -f csv "$T" > "$TMP/all.csv" 2>&1
check "list: every allocation, in (time, pointer) order" \
	python3 "$CHECK" list "$X" "$TMP/all.csv" 0 0
for n in 1 7 1000 59999 60000 60005; do
	"$KMA" --no-db --list -n $n -f csv "$T" > "$TMP/n.csv" 2>&1
	check "list -n $n: the first $n rows of the order" python3 "$CHECK" list "$X" "$TMP/n.csv" $n 0
	check "list -n $n: the first rows of the unbounded list" \
		cmp "$TMP/n.csv" <(head -n $((n + 1)) "$TMP/all.csv")
done
"$KMA" --no-db --list -n 5 "$T" > "$TMP/n.txt" 2>&1
check "list -n 5: the heading counts every allocation" \
	test "$(head -1 "$TMP/n.txt")" = "60000 allocations"
"$KMA" --no-db --list -n 5 -f json "$T" > "$TMP/n.json" 2>&1
check "list -n 5: JSON counts every allocation" grep -q '"allocations": 60000' "$TMP/n.json"
"$KMA" --no-db --list --outstanding -f csv "$T" > "$TMP/o.csv" 2>&1
check "list --outstanding: the live ones in order" python3 "$CHECK" list "$X" "$TMP/o.csv" 0 1
"$KMA" --no-db --list --outstanding -n 33 -f csv "$T" > "$TMP/o.csv" 2>&1
check "list --outstanding -n 33: the first 33 live ones" python3 "$CHECK" list "$X" "$TMP/o.csv" 33 1

# Memory: -n 5 costs nothing over no list; the whole list costs its rows
# (60,000 of about 170 bytes), so the check can tell the two apart.
rss() { /usr/bin/time -f %M "$@" 2>&1 > /dev/null | tail -1; }
if [ -x /usr/bin/time ]; then
	base=$(rss "$KMA" --no-db -q "$T")
	all=$(rss "$KMA" --no-db --list "$T")
	five=$(rss "$KMA" --no-db --list -n 5 "$T")
	check "list: the whole list costs over 6 MB more than none (${base} KB, ${all} KB)" \
		test $((all - base)) -gt 6000
	check "list -n 5: under 2 MB more than no list (${base} KB, ${five} KB)" \
		test $((five - base)) -lt 2000
else
	skip "list: peak RSS" "no /usr/bin/time (package time)"
fi

# --- --html ------------------------------------------------------------------

"$KMA" -q --no-db --html "$TMP/b.html" "$T" > "$TMP/err.txt" 2>&1
check "html: written" test -s "$TMP/b.html"
check "html: every series at most 2048 bins, all allocations in them" \
	python3 "$CHECK" html "$X" "$TMP/b.html"
