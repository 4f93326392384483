# Leak verdicts (--leaks, callers.leak_class/leak_why) on hand-built traces,
# tests/gen/leak-grow.seq (four markers: five generations, the last the 2 s tail)
# and tests/gen/leak-few.seq (two markers). Every expected reason below is worked
# out by hand from the events listed in the .seq files.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
G=$TMP/leak-grow.dat
F=$TMP/leak-few.dat
"$MKTRACE" -o "$G" "$TOP/tests/gen/leak-grow.seq" > "$TMP/mk.txt" 2>&1 ||
	fail "mktrace leak-grow.seq" "$(cat "$TMP/mk.txt")"
"$MKTRACE" -o "$F" "$TOP/tests/gen/leak-few.seq" > "$TMP/mk.txt" 2>&1 ||
	fail "mktrace leak-few.seq" "$(cat "$TMP/mk.txt")"

# db DB SQL: one query on a report.db
db() { sqlite3 -separator '|' "$1" "$2" 2>&1; }
# class_of DB CALLER: "class|why" of a caller in report.db
class_of() { db "$1" "SELECT leak_class || '|' || COALESCE(leak_why, 'NULL') FROM callers
	WHERE caller = '$2'"; }

"$KMA" -q -o "$TMP/g.db" "$G" 2> "$TMP/err.txt"
check "leak-grow: report.db written, nothing on stderr" test ! -s "$TMP/err.txt"

# The classes (callers in first-seen order, ts in the .seq):
#  flat_alloc: one 8 B object at 1 s, live: net grew in generation 0 only (run 1): none
#  leaky_a, leaky_b: net grows in 4 or more generations in a row: suspect
#  new_node (cache dentry), alloc_buffer_head (kmalloc, function on the list): cache growth
#  temp_alloc: every object freed, net 0: none
#  late_alloc: its only live object was made in the tail after the last marker: none
check "leak-grow: callers.leak_class" test "$(db "$TMP/g.db" \
	"SELECT caller, leak_class FROM callers ORDER BY id" | xargs)" = \
	"flat_alloc+0x10|none leaky_a+0x10|suspect leaky_b+0x10|suspect new_node+0x10|cache growth alloc_buffer_head+0x10|cache growth temp_alloc+0x10|none late_alloc+0x10|none"

# leaky_a: 64 B at 2, 12, 22, 32 s and 41.5 s (in the tail): net grew in each of the 5
# generations; ages at the end (42 s) 40, 30, 20, 10, 0.5 s: median 20 s; none freed;
# the tail object (64 B) is discounted. Nothing lowers the confidence: high.
check "leak-grow: leaky_a suspect, its reasons" test "$(class_of "$TMP/g.db" leaky_a+0x10)" = \
	"suspect|grew in 5 of 5 generations (longest run 5); never freed; median age 20.000000s; 0% freed (0 of 5); 64 bytes made in the 2.000000s tail discounted"
# leaky_b: 2 objects in generation 0, 1 freed + 2 made in 1, 1 each in 2 and 3: net 64,
# 96, 128, 160, 160 at the generations' ends: grew in 4 (0..3), run 4; its only free is
# in generation 1; live from 4, 14, 15, 24, 34 s: ages 38, 28, 27, 18, 8: median 27 s;
# 1 freed of 6 allocations: 100 / 6 = 16 %.
check "leak-grow: leaky_b suspect, never freed after generation 1" \
	test "$(class_of "$TMP/g.db" leaky_b+0x10)" = \
	"suspect|grew in 4 of 5 generations (longest run 4); never freed after generation 1; median age 27.000000s; 16% freed (1 of 6)"
check "leak-grow: leak_confidence high for both suspects" test "$(db "$TMP/g.db" \
	"SELECT leak_confidence FROM callers WHERE leak_suspect = 1" | xargs)" = "high high"
check "leak-grow: view leak_suspects" test "$(db "$TMP/g.db" \
	"SELECT caller || ' ' || age_median FROM leak_suspects ORDER BY caller" | xargs)" = \
	"leaky_a+0x10 20000000000 leaky_b+0x10 27000000000"
# new_node: 192 B from the dentry cache at 5, 16, 25, 35 s: ages 37, 26, 17, 7: median
# (17 + 26) / 2 = 21.5 s
check "leak-grow: a dentry allocation is cache growth, by its cache" \
	test "$(class_of "$TMP/g.db" new_node+0x10)" = \
	"cache growth|cache growth: cache 'dentry' matches 'dentry'; grew in 4 of 5 generations (longest run 4); never freed; median age 21.500000s; 0% freed (0 of 4)"
check "leak-grow: kmalloc in alloc_buffer_head is cache growth, by its function" sh -c \
	"sqlite3 '$TMP/g.db' \"SELECT leak_why FROM callers WHERE caller = 'alloc_buffer_head+0x10'\" |
	 grep -qF \"cache growth: function 'alloc_buffer_head' matches 'alloc_buffer_head'; grew in 4 of 5\""
check "leak-grow: a caller whose objects are all freed: none, no reasons" \
	test "$(class_of "$TMP/g.db" temp_alloc+0x10)" = "none|NULL"
# flat_alloc: 8 B at 1 s, age 41 s at the end
check "leak-grow: growth in one generation only: none, with its reasons" \
	test "$(class_of "$TMP/g.db" flat_alloc+0x10)" = \
	"none|grew in 1 of 5 generations (longest run 1); never freed; median age 41.000000s; 0% freed (0 of 1)"
# late_alloc: 256 B at 41 s, after the last marker (40 s): younger than the 2 s tail
check "leak-grow: live bytes all made in the tail are discounted" sh -c \
	"sqlite3 '$TMP/g.db' \"SELECT leak_class || '|' || leak_why FROM callers
	 WHERE caller = 'late_alloc+0x10'\" |
	 grep -q '^none|all its live bytes were allocated in the 2.000000s after the last marker; '"

# The text report: the tail, the class and reasons columns.
"$KMA" --leaks --no-db "$G" > "$TMP/leaks.txt" 2>&1
check "--leaks: says how long the tail after the last marker was" \
	grep -q "^The trace went on 2.000000s after the last marker" "$TMP/leaks.txt"
check "--leaks: 5 generations in the header" grep -q "^5 generations; a suspect grew" "$TMP/leaks.txt"
check "--leaks: leaky_a row: net 320, live 5, median age 20 s, high, suspect" sh -c \
	"awk '/ leaky_a\\+0x10\$/ { print \$1, \$2, \$3, \$4, \$5 }' '$TMP/leaks.txt' |
	 grep -qx '320 5 20.000000s high suspect'"
# the text lists the suspects only (leaky_a, leaky_b), high first then by net, each
# with its reasons on the lines under it, within 120 columns
check "--leaks: text rows are the suspects, reasons under them" test \
	"$(awk '$4 == "high" || $4 == "medium" || $4 == "low" || $4 == "none" { print $6 }
		/^    / { print "why" }' "$TMP/leaks.txt" | xargs)" = \
	"leaky_a+0x10 why why leaky_b+0x10 why why"
check "--leaks: text within 120 columns" test "$(awk 'length > 120' "$TMP/leaks.txt" | wc -l)" = 0
"$KMA" --leaks --all --no-db "$G" > "$TMP/leaks-all.txt"
check "--leaks --all: every row with live bytes, suspects first" test \
	"$(awk '$4 ~ /^(high|medium|low|none)$/ { print $NF }' "$TMP/leaks-all.txt" | xargs)" = \
	"leaky_a+0x10 leaky_b+0x10 new_node+0x10 alloc_buffer_head+0x10 late_alloc+0x10 flat_alloc+0x10"
check "--leaks: age_med column" sh -c "grep -q ' age_med ' '$TMP/leaks.txt'"

# --cache-growth none: nothing is cache growth; new_node and alloc_buffer_head grew in 4
# generations in a row, so they are suspects.
"$KMA" -q --cache-growth none -o "$TMP/none.db" "$G"
check "--cache-growth none: the growth caches become suspects" test "$(db "$TMP/none.db" \
	"SELECT caller FROM callers WHERE leak_class = 'suspect' ORDER BY id" | xargs)" = \
	"leaky_a+0x10 leaky_b+0x10 new_node+0x10 alloc_buffer_head+0x10"
"$KMA" --leaks --cache-growth none --no-db "$G" > "$TMP/none.txt"
check "--cache-growth none: --leaks text agrees (suspect column)" test \
	"$(awk '$5 == "suspect" { print $6 }' "$TMP/none.txt" | sort | xargs)" = \
	"alloc_buffer_head+0x10 leaky_a+0x10 leaky_b+0x10 new_node+0x10"
# +PATTERN adds to the default list: leaky_* by function, dentry still by cache
"$KMA" -q --cache-growth '+leaky_*' -o "$TMP/plus.db" "$G"
check "--cache-growth +leaky_*: adds to the default list" test "$(db "$TMP/plus.db" \
	"SELECT caller FROM callers WHERE leak_class = 'cache growth' ORDER BY id" | xargs)" = \
	"leaky_a+0x10 leaky_b+0x10 new_node+0x10 alloc_buffer_head+0x10"
# PATTERN alone replaces it: only leaky_b is cache growth
"$KMA" -q --cache-growth 'leaky_b,nomatch' -o "$TMP/repl.db" "$G"
check "--cache-growth P,Q: replaces the default list" test "$(db "$TMP/repl.db" \
	"SELECT caller || ':' || leak_class FROM callers WHERE net > 0 ORDER BY id" | xargs)" = \
	"flat_alloc+0x10:none leaky_a+0x10:suspect leaky_b+0x10:cache growth new_node+0x10:suspect alloc_buffer_head+0x10:suspect late_alloc+0x10:none"
"$KMA" -q --cache-growth 'a,,b' -o "$TMP/bad.db" "$G" > "$TMP/bad.txt" 2>&1
rc=$?
check "--cache-growth with an empty pattern: usage error, exit 2" sh -c \
	"[ $rc = 2 ] && head -1 '$TMP/bad.txt' | grep -q \"^kma-analyze: bad --cache-growth 'a,,b'\""

# --young compares the MEDIAN age: leaky_b's is 27 s (its mean, (38+28+27+18+8)/5 =
# 23.8 s, would be under 25 s); leaky_a's 20 s is under 25 s.
"$KMA" -q --young 25s -o "$TMP/young.db" "$G"
check "--young 25s: by median age, leaky_a medium, leaky_b high" test "$(db "$TMP/young.db" \
	"SELECT caller || ':' || leak_confidence FROM callers WHERE leak_suspect = 1 ORDER BY id" |
	xargs)" = "leaky_a+0x10:medium leaky_b+0x10:high"
check "--young 25s: the reason names the median age and the threshold" sh -c \
	"sqlite3 '$TMP/young.db' \"SELECT leak_why FROM callers WHERE caller = 'leaky_a+0x10'\" |
	 grep -qF 'its live allocations are young (median age 20.000000s, threshold 25.000000s)'"

# leak-few: 2 markers, 3 generations. leaky_a: 64 B at 2, 12, 22 s (22 s: in the tail
# 20..23.5 s); ages at 23.5 s 21.5, 11.5, 1.5: median 11.5 s.
"$KMA" -q -o "$TMP/f.db" "$F"
check "leak-few: too few generations for a verdict" test "$(class_of "$TMP/f.db" leaky_a+0x10)" = \
	"too few generations|too few generations for a verdict (3, needs 4); grew in 3 of 3 generations (longest run 3); never freed; median age 11.500000s; 0% freed (0 of 3); 64 bytes made in the 3.500000s tail discounted"
check "leak-few: no suspect, confidence none" test "$(db "$TMP/f.db" \
	"SELECT COUNT(*) || ' ' || (SELECT leak_confidence FROM callers WHERE caller = 'leaky_a+0x10')
	 FROM leak_suspects")" = "0 none"
"$KMA" --leaks --all --no-db "$F" > "$TMP/few.txt"
check "leak-few: --leaks says too few generations" \
	grep -q "^Too few generations for a verdict" "$TMP/few.txt"
check "leak-few: --leaks --all class column" \
	grep -q ' none  *too few generations  leaky_a+0x10$' "$TMP/few.txt"

# On recorded traces: callers.age_median is the median, worked out again in SQL from the
# allocations still live (trace.last_ts - alloc_ts; of an even count the mean of the
# middle two, rounded down), for every caller that has live allocations.
for f in markers basic; do
	"$KMA" -q -o "$TMP/$f.db" "$TOP/tests/fixtures/$f.dat"
	check "fixture $f: callers.age_median = the median of the live ages (SQL)" test "$(
		sqlite3 "$TMP/$f.db" "
		WITH l AS (SELECT caller_id AS id, (SELECT last_ts FROM trace) - alloc_ts AS age
			   FROM allocations WHERE free_ts IS NULL),
		r AS (SELECT id, age, ROW_NUMBER() OVER (PARTITION BY id ORDER BY age) AS k,
			     COUNT(*) OVER (PARTITION BY id) AS n FROM l),
		m AS (SELECT id, n, CASE WHEN n % 2 = 1
				THEN MAX(CASE WHEN k = (n + 1) / 2 THEN age END)
				ELSE (MIN(CASE WHEN k = n / 2 THEN age END) +
				      MAX(CASE WHEN k = n / 2 + 1 THEN age END)) / 2 END AS med
			FROM r GROUP BY id)
		SELECT (SELECT COUNT(*) FROM callers WHERE live > 0) > 0,
		       (SELECT COUNT(*) FROM callers WHERE live > 0) = COUNT(*),
		       SUM(c.age_median = m.med AND c.live = m.n) = COUNT(*)
		FROM m JOIN callers c ON c.id = m.id")" = "1|1|1"
done
