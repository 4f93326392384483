# End-to-end on the real fixtures: every number of report.db and of the text
# report against tests/tools/kma-expect.py, an independent computation over
# `trace-cmd report` output.
FIX=$TOP/tests/fixtures
CHECK=$TOP/tests/tools/kma-check-db.py

for f in basic basic-v6 markers lost lost-mid; do
	dat=$FIX/$f.dat
	[ -f "$dat" ] || { fail "fixture $f" "missing $dat"; continue; }
	for mode in "" --kmalloc-only; do
		name="fixture $f${mode:+ $mode}"
		# shellcheck disable=SC2086
		if ! "$KMA" $mode -o "$TMP/$f$mode.db" "$dat" > "$TMP/$f$mode.txt" 2> "$TMP/err.txt"; then
			fail "$name" "kma-analyze failed: $(cat "$TMP/err.txt")"
			continue
		fi
		# shellcheck disable=SC2086
		check "$name: numbers match trace-cmd report" \
			python3 "$CHECK" $mode "$dat" "$TMP/$f$mode.db" "$TMP/$f$mode.txt"
	done
	# report.db must agree with itself: caller rows are the sums over allocations
	check "fixture $f: callers = sums over allocations" test "$(sqlite3 "$TMP/$f.db" "
		SELECT COUNT(*) FROM callers c LEFT JOIN (
			SELECT caller_id, SUM(bytes_alloc) t, SUM(bytes_alloc - bytes_req) s,
			       SUM(CASE WHEN free_ts IS NULL THEN bytes_alloc ELSE 0 END) n,
			       COUNT(*) a,
			       TOTAL(free_kind IN ('kfree', 'kmem_cache_free')) f,
			       TOTAL(free_kind = 'implicit') i
			FROM allocations GROUP BY caller_id) x ON x.caller_id = c.id
		WHERE c.allocs > 0 AND (c.total != x.t OR c.slack != x.s OR c.net != x.n OR
		      c.allocs != x.a OR c.frees != x.f OR c.implicit_frees != x.i)")" = 0
	check "fixture $f: unknown_frees rows = summary" test "$(sqlite3 "$TMP/$f.db" "
		SELECT (SELECT COUNT(*) FROM unknown_frees) = (SELECT unknown_frees FROM summary)")" = 1
	check "fixture $f: schema version" test "$(sqlite3 "$TMP/$f.db" "PRAGMA user_version")" = 7
	# the storage tables hold what kma-report.db(5) says: integers (or NULL), nothing else
	for t in alloc_rows unknown_free_rows; do
		cols=$(sqlite3 "$TMP/$f.db" "SELECT group_concat('typeof(r.' || name || ')', ', ')
			FROM pragma_table_info('$t')")
		check "fixture $f: $t holds integers only" test "$(sqlite3 "$TMP/$f.db" "
			SELECT COUNT(*) FROM $t AS r, json_each(json_array($cols)) AS v
			WHERE v.value NOT IN ('integer', 'null')")" = 0
	done
done

# The v6 copy is the same trace: same report, same tables.
if [ -f "$TMP/basic.db" ] && [ -f "$TMP/basic-v6.db" ]; then
	q="SELECT * FROM summary; SELECT * FROM caller_stats ORDER BY address;
	   SELECT ptr, caller, bytes_req, bytes_alloc, alloc_ts, free_ts, free_kind FROM allocations
	   ORDER BY alloc_ts, ptr;"
	check "v6 and v7 copies give the same report.db" \
		test "$(sqlite3 "$TMP/basic.db" "$q" | md5sum)" = "$(sqlite3 "$TMP/basic-v6.db" "$q" | md5sum)"
	check "v6 and v7 copies give the same text report" cmp "$TMP/basic.txt" "$TMP/basic-v6.txt"
	check "trace facts: versions and compression" test \
		"$(sqlite3 "$TMP/basic.db" "SELECT file_version, compression FROM trace") $(sqlite3 \
		"$TMP/basic-v6.db" "SELECT file_version, ifnull(compression, 'none') FROM trace")" = "7|zstd 6|none"
fi

# Lost events are reported above the table, and kept per CPU.
if [ -f "$TMP/lost-mid.txt" ]; then
	check "lost events: warning above the table" \
		sh -c "sed -n '/^WARNING/,\$p' '$TMP/lost-mid.txt' | grep -q 'alloc/free'"
	check "lost events: no warning without losses" sh -c "! grep -q WARNING '$TMP/basic.txt'"
fi

# Sorting and limits: rows in the order of the key, at most N.
dat=$FIX/basic.dat
for key in total slack net allocs frees; do
	col=$(case $key in total) echo 1;; slack) echo 2;; net) echo 4;; *) echo 5;; esac)
	"$KMA" --no-db -s $key -n 15 "$dat" > "$TMP/sorted.txt" 2>&1
	rows=$(sed -n '/alloc\/free/,$p' "$TMP/sorted.txt" | tail -n +2)
	if [ "$key" = allocs ]; then vals=$(echo "$rows" | awk '{split($5, a, "/"); print a[1]}')
	elif [ "$key" = frees ]; then vals=$(echo "$rows" | awk '{split($5, a, "/"); print a[2]}')
	else vals=$(echo "$rows" | awk -v c=$col '{print $c}'); fi
	if [ "$(echo "$rows" | wc -l)" -eq 15 ] && [ "$vals" = "$(echo "$vals" | sort -rn)" ]; then
		pass "--sort $key -n 15"
	else
		fail "--sort $key -n 15" "rows not sorted or not 15: $vals"
	fi
done
"$KMA" --no-db -s caller "$dat" 2>&1 | sed -n '/alloc\/free/,$p' | tail -n +2 | awk '{print $6}' > "$TMP/c.txt"
check "--sort caller" sh -c "LC_ALL=C sort -c '$TMP/c.txt' && test \$(wc -l < '$TMP/c.txt') = \
	\$(sqlite3 '$TMP/basic.db' 'SELECT callers FROM summary')"

# --no-db writes nothing; a successful run replaces an existing report.db.
( cd "$TMP" && rm -f report.db && "$KMA" --no-db "$dat" > /dev/null )
check "--no-db writes no database" test ! -e "$TMP/report.db"
cp "$TMP/markers.db" "$TMP/report.db"	# a report.db of another trace (others: t-guard)
( cd "$TMP" && "$KMA" -q "$dat" > "$TMP/q.txt" )
check "default output report.db replaced on success" \
	test "$(sqlite3 "$TMP/report.db" 'SELECT file, allocs > 0 FROM trace, summary')" = "$dat|1"
check "-q prints nothing" test ! -s "$TMP/q.txt"
check "no temporary file left" sh -c "! ls '$TMP' | grep -q tmp-"
( cd "$TMP" && cp "$dat" trace.dat && "$KMA" -q -o d.db )
check "default input trace.dat" test -s "$TMP/d.db"

# Instances (-B): by default the top-level buffer when it holds kmem events,
# never merged with an instance (the rest is in t-buffers.sh).
inst=$FIX/instance.dat
if [ -f "$inst" ]; then
	"$KMA" -q -o "$TMP/inst.db" "$inst"
	top=$(trace-cmd report -i "$inst" 2>/dev/null | grep -v '^kmainst:' | grep -cE ' (kmalloc|kfree):')
	in_inst=$(trace-cmd report -i "$inst" 2>/dev/null | grep -cE '^kmainst:.* (kmalloc|kfree):')
	check "instance buffer present in the fixture" test "$in_inst" -gt 0
	check "instances: the top-level buffer's events only, by default" test \
		"$(sqlite3 "$TMP/inst.db" "SELECT s.allocs + s.failed_allocs + s.frees, t.buffer FROM summary s, trace t")" = "$top|top"
fi
check "report.db gets the umask's mode, not mkstemp's 0600" test \
	"$(cd "$TMP" && umask 022 && "$KMA" -q -o mode.db "$dat" && stat -c %a mode.db)" = 644
