# report.db's timeline and timeline_callers against the same series computed
# independently from the allocations view (tests/tools/timeline-from-db.py), on the
# fixtures; and the check fails on a damaged table.
TLPY=$TOP/tests/tools/timeline-from-db.py
for f in markers stacks basic lost-mid; do
	dat=$TOP/tests/fixtures/$f.dat
	[ -f "$dat" ] || continue
	if "$KMA" -q -o "$TMP/$f.db" "$dat" 2> "$TMP/err.txt"; then
		check "timeline $f.dat: bins and top callers = computed from allocations" \
			python3 "$TLPY" "$TMP/$f.db"
	else
		fail "timeline $f.dat" "$(cat "$TMP/err.txt")"
	fi
done
if [ -f "$TMP/markers.db" ]; then
	check "timeline markers.dat: peak = trace.peak_bytes, end = summary.net" test \
		"$(sqlite3 "$TMP/markers.db" "SELECT (SELECT MAX(live_max) FROM timeline) = peak_bytes
			AND (SELECT live_bytes FROM timeline ORDER BY bin DESC LIMIT 1) =
			    (SELECT net FROM summary) FROM trace")" = 1
	sqlite3 "$TMP/markers.db" "UPDATE timeline SET live_bytes = live_bytes + 1 WHERE bin = 3"
	if python3 "$TLPY" "$TMP/markers.db" > /dev/null; then
		fail "timeline check catches a wrong live_bytes" "passed"
	else
		pass "timeline check catches a wrong live_bytes"
	fi
fi
