# Generations, filters, lists, leaks, lifetimes and the peak on the real markers fixture.
# Expected values: kma-expect.py (independent, from trace-cmd report) for the
# generations; the other reports are checked against SQL over report.db's
# allocations, which t-fixtures.sh checks against kma-expect.py.
F=$TOP/tests/fixtures/markers.dat
EXPECT=$TOP/tests/tools/kma-expect.py
python3 "$EXPECT" "$F" > "$TMP/exp.json"
"$KMA" -o "$TMP/m.db" "$F" > /dev/null
q() { sqlite3 "$TMP/m.db" "$1"; }
e() { python3 -c "import json,sys; d=json.load(open('$TMP/exp.json')); print($1)"; }

# The fixture kept 50 files (+ their directory) in a tmpfs during generation 1 (gen1):
# their inodes and dentries are live from that generation.
want=$(e "d['live_by_generation_caller'].get('1 shmem_alloc_inode+0x1d', 0)")
check "fixture: kept tmpfs inodes expected live from gen1 (>= 50)" test "$want" -ge 50
"$KMA" --no-db --generation gen1 --outstanding --list "$F" > "$TMP/list.txt"
check "--generation gen1 --outstanding --list: kept inodes listed" \
	test "$(grep -c ' shmem_alloc_inode+0x1d$' "$TMP/list.txt")" = "$want"
check "--list count line = live allocations of gen1" \
	test "$(head -2 "$TMP/list.txt" | sed -n 's/^\([0-9]*\) allocations.*/\1/p')" = \
	"$(e "d['generations'][1]['live']")"
check "--generation 1 = --generation gen1" \
	cmp <("$KMA" --no-db --generation 1 --outstanding --list "$F" | tail -n +2) \
	    <(tail -n +2 "$TMP/list.txt")
"$KMA" --no-db --generation gen1 --outstanding "$F" > "$TMP/out.txt"
check "--outstanding table: shmem row = live count and bytes of gen1" test \
	"$(awk '$6 == "shmem_alloc_inode+0x1d" {print $1, $5}' "$TMP/out.txt")" = \
	"$(q "SELECT SUM(bytes_alloc) || ' ' || COUNT(*) || '/0' FROM allocations
	      WHERE generation = 1 AND free_ts IS NULL AND caller = 'shmem_alloc_inode+0x1d'")"
check "--generation keep-done totals = SQL over its allocations" test \
	"$("$KMA" --no-db --generation keep-done "$F" | sed -n 's/^total bytes allocated: //p') \
$("$KMA" --no-db --generation keep-done "$F" | sed -n 's/^number of allocs: //p')" = \
	"$(q "SELECT SUM(bytes_alloc) || ' ' || COUNT(*) FROM allocations WHERE generation = 2")"
check "--generation nosuch: an error naming the trace's generations, exit 1" sh -c \
	"'$KMA' --no-db --generation nosuch '$F' 2>&1 > /dev/null; [ \$? = 1 ] &&
	 '$KMA' --no-db --generation nosuch '$F' 2>&1 | grep -qF \"no generation 'nosuch' in the trace; it has 5: 0 start, 1 gen1, 2 keep-done, 3 churn-done, 4 gen2\""
check "--generations table = kma-expect" test \
	"$("$KMA" --no-db --generations "$F" | awk 'NR > 1 {print $3, $4, $5, $6, $7, $8}')" = \
	"$(e "'\n'.join('%d %d %d %d %d %s' % (g['allocs'], g['bytes'], g['live'], g['live_bytes'], g['frees'], g['label']) for g in d['generations'])")"
check "other markers are ignored (hello world)" test "$(q "SELECT COUNT(*) FROM generations")" = 5
check "--marker-prefix changes the prefix" test \
	"$("$KMA" --no-db --marker-prefix hello --generations "$F" | awk 'NR > 1' | wc -l)" = 2

# time windows: relative seconds and absolute @timestamps select the same allocations
first=$(q "SELECT first_ts FROM trace")
since=$(q "SELECT ts FROM generations WHERE id = 1")
until=$(q "SELECT ts FROM generations WHERE id = 2")
rel_s=$(python3 -c "print(($since - $first) / 1e9)")
abs_s=$(python3 -c "print('@%d.%09d' % divmod($since, 10**9))")
abs_u=$(python3 -c "print('@%d.%09d' % divmod($until, 10**9))")
"$KMA" --no-db --since "$abs_s" --until "$abs_u" "$F" > "$TMP/win.txt"
check "--since/--until @abs: totals = SQL over the window" test \
	"$(sed -n 's/^total bytes allocated: //p; s/^number of allocs: //p' "$TMP/win.txt" | paste -sd' ')" = \
	"$(q "SELECT SUM(bytes_alloc) || ' ' || COUNT(*) FROM allocations WHERE alloc_ts >= $since AND alloc_ts < $until")"
check "--since relative seconds = @absolute" cmp \
	<("$KMA" --no-db --since "$rel_s" "$F" | tail -n +2) <("$KMA" --no-db --since "$abs_s" "$F" | tail -n +2)
"$KMA" --no-db --since 5 --until 1 "$F" > /dev/null 2> "$TMP/err.txt"; rc=$?
check "--until before --since is an error" test "$rc" = 1
check "--until before --since: the one line says the window is empty" test \
	"$(cat "$TMP/err.txt")" = "kma-analyze: --until is not after --since: the window is empty"
"$KMA" --no-db --since bogus "$F" > /dev/null 2>&1; rc=$?
check "--since bogus is a usage error" test "$rc" = 2

# lifetimes: exact percentiles (nearest rank) = the caller_lifetimes view
"$KMA" --no-db --lifetimes -n 5 "$F" > "$TMP/life.txt"
check "--lifetimes frees and temporary = SQL" test \
	"$(awk 'NR > 2 {print $1, $6, $7}' "$TMP/life.txt" | sort)" = \
	"$(q "SELECT frees || ' ' || temporary || ' ' || caller FROM caller_lifetimes" | sort |
	   grep -F -f <(awk 'NR > 2 {print $7}' "$TMP/life.txt") | grep -v '^$')"
check "caller_lifetimes: median/p99 by nearest rank" test "$(q "
	WITH l AS (SELECT caller, free_ts - alloc_ts AS t FROM allocations
		   WHERE free_kind IN ('kfree', 'kmem_cache_free')),
	     r AS (SELECT caller, t, ROW_NUMBER() OVER (PARTITION BY caller ORDER BY t) AS k,
		          COUNT(*) OVER (PARTITION BY caller) AS n FROM l)
	SELECT COUNT(*) FROM caller_lifetimes AS c WHERE c.median_ns != (SELECT t FROM r
		WHERE r.caller = c.caller AND k * 2 >= n ORDER BY k LIMIT 1)
	   OR c.p99_ns != (SELECT t FROM r WHERE r.caller = c.caller AND k * 100 >= n * 99
		ORDER BY k LIMIT 1)")" = 0
check "callers.temporary = frees within 1ms" test \
	"$(q "SELECT SUM(temporary) FROM callers")" = \
	"$(q "SELECT COUNT(*) FROM allocations WHERE free_kind IN ('kfree', 'kmem_cache_free')
	      AND free_ts - alloc_ts < 1000000")"

# peak: the highest live bytes, replayed in SQL from the allocations' intervals
check "peak bytes and time = SQL replay" test "$(q "SELECT peak_bytes || ' ' || peak_ts FROM trace")" = \
	"$(q "WITH ev AS (SELECT alloc_ts AS ts, 0 AS o, bytes_alloc AS d FROM allocations
			  UNION ALL SELECT free_ts, -1, -bytes_alloc FROM allocations
			  WHERE free_ts IS NOT NULL),
	      run AS (SELECT ts, SUM(d) OVER (ORDER BY ts, o ROWS UNBOUNDED PRECEDING) AS net FROM ev)
	      SELECT net || ' ' || MIN(ts) FROM run WHERE net = (SELECT MAX(net) FROM run)")"
check "net_at_peak = SQL over allocations live at the peak" test "$(q "
	SELECT COUNT(*) FROM callers c WHERE c.net_at_peak != (SELECT COALESCE(SUM(bytes_alloc), 0)
		FROM allocations a, trace t WHERE a.caller_id = c.id AND a.alloc_ts <= t.peak_ts
		AND (a.free_ts IS NULL OR a.free_ts > t.peak_ts))")" = 0
"$KMA" --no-db --peak -n 3 "$F" > "$TMP/peak.txt"
check "--peak prints the peak" grep -q "^peak live bytes: $(q 'SELECT peak_bytes FROM trace') " "$TMP/peak.txt"

# leaks: growth over generations = SQL over per-generation live bytes
check "grew_generations = SQL" test "$(q "
	WITH g AS (SELECT id, ts FROM generations),
	     ends AS (SELECT id, COALESCE((SELECT MIN(ts) FROM generations g2 WHERE g2.id > g.id),
				     (SELECT last_ts + 1 FROM trace)) AS e FROM g),
	     net AS (SELECT c.id AS cid, ends.id AS gid, (SELECT COALESCE(SUM(bytes_alloc), 0)
			FROM allocations a WHERE a.caller_id = c.id AND a.alloc_ts < ends.e
			AND (a.free_ts IS NULL OR a.free_ts >= ends.e)) AS n FROM callers c, ends),
	     grew AS (SELECT a.cid, SUM(a.n > COALESCE(b.n, 0)) AS k FROM net a
			LEFT JOIN net b ON b.cid = a.cid AND b.gid = a.gid - 1 GROUP BY a.cid)
	SELECT COUNT(*) FROM callers c JOIN grew ON grew.cid = c.id
	WHERE c.grew_generations != grew.k")" = 0
"$KMA" --no-db --leaks "$F" > "$TMP/leaks.txt"
check "--leaks: suspects = leak_suspects view" test \
	"$(awk '$4 ~ /^(high|medium|low)$/ && $5 == "suspect" {print $6}' "$TMP/leaks.txt" | sort)" = \
	"$(q "SELECT caller FROM leak_suspects" | sort)"
check "--leaks: young allocations lower the confidence" grep -q "; its live allocations are young\|^    its live allocations are young" "$TMP/leaks.txt"

# Leak suspects and their confidence on a generated trace (tests/leak/growth.seq, which
# works the expected values out); a copy with 5 lost events lowers every confidence by one.
MKT=$TOP/$B/tests/tools/mktrace
[ -x "$MKT" ] || MKT=$TOP/tests/tools/mktrace
sed 's/^marker 0 20000000000 100 kma: two/missed 0 5\n&/' "$TOP/tests/leak/growth.seq" > "$TMP/lost.seq"
if "$MKT" -g newest -o "$TMP/growth.dat" "$TOP/tests/leak/growth.seq" &&
   "$MKT" -g newest -o "$TMP/lost.dat" "$TMP/lost.seq" &&
   "$KMA" -q -o "$TMP/growth.db" "$TMP/growth.dat" && "$KMA" -q -o "$TMP/lost.db" "$TMP/lost.dat"; then
	q2() { sqlite3 "$1" "SELECT caller, net, live, grew_generations, max_growth_run, confidence,
		age_min, age_avg, age_max FROM leak_suspects ORDER BY caller"; }
	check "leaks (generated): suspects, growth, ages, confidence" test "$(q2 "$TMP/growth.db")" = \
"grow_a+0x10|256|4|4|4|high|9000000000|24000000000|39000000000
grow_c+0x10|512|4|4|4|medium|8800000000|18775000000|28800000000"
	check "leaks (generated): lost events lower the confidence" test \
		"$(sqlite3 "$TMP/lost.db" "SELECT caller || ' ' || confidence FROM leak_suspects ORDER BY caller")" = \
"grow_a+0x10 medium
grow_c+0x10 low"
	check "leaks (generated): the reasons are given" sh -c \
		"'$KMA' --no-db --leaks '$TMP/lost.dat' | grep -A3 'grow_c' | tr '\\n' ' ' | grep -q 'lost 5 events.*1 implicit frees'"
	check "leaks (generated): steady caller is not a suspect" test \
		"$(sqlite3 "$TMP/growth.db" "SELECT leak_suspect || ' ' || grew_generations FROM callers
		   WHERE caller = 'steady_b+0x10'")" = "0 2"
else
	fail "leaks (generated)" "could not build or analyze tests/leak/growth.seq"
fi
