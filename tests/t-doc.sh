# The example queries of docs/kma-report.db.5 run on real report.db files,
# and its -check queries (consistency of the tables) say ok.
for f in basic lost-mid markers; do
	if "$KMA" -q -o "$TMP/$f.db" "$TOP/tests/fixtures/$f.dat" 2> "$TMP/err.txt"; then
		check "man page queries on $f" bash "$TOP/tests/test-doc-queries.sh" "$TMP/$f.db"
	else
		fail "man page queries on $f" "kma-analyze failed: $(cat "$TMP/err.txt")"
	fi
done
# ...and on a trace with call stacks (report.db version 3), where the stack queries must
# return rows: tests/fixtures/stacks.dat, or $KMA_STACKS_DAT.
STKD=
for f in "${KMA_STACKS_DAT:-}" "$TOP/tests/fixtures/stacks.dat"; do
	[ -n "$f" ] && [ -f "$f" ] && { STKD=$f; break; }
done
if [ -z "$STKD" ]; then
	skip "man page queries on a trace with stacks" "no tests/fixtures/stacks.dat"
elif cp "$STKD" "$TMP/stk.dat" && "$KMA" -q -o "$TMP/stk.db" "$TMP/stk.dat" 2> "$TMP/err.txt"; then
	check "man page queries on a trace with stacks (stack queries have rows)" \
		bash "$TOP/tests/test-doc-queries.sh" \
		-r top-stacks,folded-net,stack-frames,stack-live,caller-stacks "$TMP/stk.db"
else
	fail "man page queries on a trace with stacks" "kma-analyze failed: $(cat "$TMP/err.txt")"
fi
check "man page renders without warnings" sh -c \
	"groff -man -Tutf8 -ww -z '$TOP/docs/kma-report.db.5' 2>&1 | (! grep .)"
# event_counts against trace-cmd's own count of records per event
"$KMA" -q -o "$TMP/m.db" "$TOP/tests/fixtures/markers.dat"
check "event_counts match trace-cmd report" test \
	"$(sqlite3 "$TMP/m.db" "SELECT replace(event, 'kmem:', '') || ' ' || count FROM event_counts
		ORDER BY 1" | sed 's/^ftrace://' | LC_ALL=C sort)" = \
	"$(trace-cmd report -R -i "$TOP/tests/fixtures/markers.dat" 2>/dev/null |
		sed -n 's/^.*\[[0-9]*\] *[0-9.]*: *\([a-z_]*\):.*$/\1/p' | LC_ALL=C sort | uniq -c |
		awk '{print $2 " " $1}' | LC_ALL=C sort)"

# The README's worked example is real output of the current build.
"$KMA" -n 8 -o "$TMP/readme.db" "$TOP/tests/fixtures/basic.dat" > "$TMP/readme.txt"
check "README worked example = kma-analyze output" test \
	"$(sed -n '/^\$ build\/analyzer\/kma-analyze -n 8 tests\/fixtures\/basic.dat$/,/^$ sqlite3/p' "$TOP/README.md" |
	   sed '1d;$d' | sed '/^$/N;/^\n$/D' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}')" = "$(cat "$TMP/readme.txt")"

# Every table and view of the schema has its section in kma-report.db(5) (".SS name",
# ".SS name (view)", or one of a list of views "a, b, c (views)"), and the page says
# which schema version it describes.
"$KMA" -q -o "$TMP/schema.db" "$TOP/tests/fixtures/basic.dat"
check "kma-report.db(5) has a section for every table and view" test "$(
	sqlite3 "$TMP/schema.db" "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')
		ORDER BY name" | while read -r n; do
		grep -Eq "^\.SS (.*, )?$n(,| |$)" "$TOP/docs/kma-report.db.5" || echo "$n"
	done)" = ""
check "kma-report.db(5) describes the schema version of report.db" grep -q \
	"this page describes version $(sqlite3 "$TMP/schema.db" 'PRAGMA user_version')\.$" \
	"$TOP/docs/kma-report.db.5"
