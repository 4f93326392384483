# -f csv|json: parse with standard tools (python3 json, sqlite3 .import) and carry
# the same numbers as report.db.
F=$TOP/tests/fixtures/markers.dat
"$KMA" -q -o "$TMP/f.db" "$F"
"$KMA" --no-db -f json "$F" > "$TMP/r.json"
check "json report parses" python3 -m json.tool "$TMP/r.json"
check "json summary = report.db summary" test \
	"$(python3 -c "import json; s = json.load(open('$TMP/r.json'))['summary']; print('|'.join(str(s[k]) for k in
	   ('total', 'slack', 'net', 'allocs', 'frees', 'unknown_frees', 'null_frees', 'implicit_frees',
	    'failed_allocs', 'callers', 'lost_events')))")" = "$(sqlite3 "$TMP/f.db" 'SELECT * FROM summary')"
check "json rows = caller_stats" test \
	"$(python3 -c "import json
for r in json.load(open('$TMP/r.json'))['rows']:
    print('|'.join(str(r[k]) for k in ('caller', 'address', 'total', 'slack', 'net', 'allocs', 'frees', 'implicit_frees')))" | sort)" = \
	"$(sqlite3 "$TMP/f.db" 'SELECT * FROM caller_stats' | sort)"
"$KMA" --no-db -f csv "$F" > "$TMP/r.csv"
check "csv imports into sqlite3 and = caller_stats" test \
	"$(sqlite3 :memory: ".import --csv '$TMP/r.csv' t" "SELECT caller, address, total, slack, net, allocs,
	   frees, implicit_frees FROM t" | sort)" = "$(sqlite3 "$TMP/f.db" 'SELECT * FROM caller_stats' | sort)"
check "csv has one header row" test "$(head -1 "$TMP/r.csv")" = "caller,address,total,slack,slack_pct,net,allocs,frees,implicit_frees"
for rep in --leaks --generations --lifetimes --peak --leftovers "--outstanding --list" "-g cache" "-g comm"; do
	# shellcheck disable=SC2086
	"$KMA" --no-db -f json $rep "$F" > "$TMP/x.json" 2> "$TMP/err.txt"
	check "json $rep parses" python3 -c "import json; d = json.load(open('$TMP/x.json'))"
	# shellcheck disable=SC2086
	"$KMA" --no-db -f csv $rep "$F" > "$TMP/x.csv" 2> "$TMP/err.txt"
	check "csv $rep imports" sh -c "sqlite3 :memory: \".import --csv '$TMP/x.csv' t\" 'SELECT COUNT(*) FROM t' > /dev/null"
done
check "json --generations = generations table" test \
	"$(python3 -c "import json
for r in json.load(open('$TMP/x.json' if False else '/dev/stdin'))['rows']: print(r['gen'], r['allocs'], r['live_bytes'], r['label'])" \
	< <("$KMA" --no-db -f json --generations "$F"))" = \
	"$(sqlite3 -separator ' ' "$TMP/f.db" 'SELECT id, allocs, live_bytes, label FROM generations')"
"$KMA" --no-db -f yaml "$F" > /dev/null 2>&1; rc=$?
check "-f yaml is a usage error" test $rc = 2
