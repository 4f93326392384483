# shape_totals, task_totals, stack_totals and cache_totals (report.db, counted as alloc_rows
# is written) and the views that read them: on fixture traces (stacks, implicit frees, allocations live
# at the end, generations, a negative slack, no allocation at all) every view's rows equal
# the SQL those views were before the tables, evaluated over alloc_rows (kept here as the
# independent expectation), and the tables' sums equal the summary's totals.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace

# The views as they read alloc_rows before the tables (schema/kma.sql of version 7 as first
# released), each over the file's own alloc_rows, alloc_shapes and names.
old_shape_counts="SELECT shape_id, COUNT(*) AS allocs, SUM(life IS NULL) AS live,
	COUNT(CASE WHEN free_kind < 2 THEN 1 END) AS frees,
	COUNT(CASE WHEN free_kind = 2 THEN 1 END) AS implicit_frees
	FROM alloc_rows GROUP BY shape_id"
old_cache_stats="WITH n AS ($old_shape_counts),
	g AS (
		SELECT sh.cache_id AS cache_id, sh.bytes_alloc AS bytes_alloc,
		       sh.kmalloc_type AS kmalloc_type, SUM(n.allocs * sh.bytes_alloc) AS total,
		       SUM(n.allocs * (sh.bytes_alloc - sh.bytes_req)) AS slack,
		       SUM(n.live * sh.bytes_alloc) AS net, SUM(n.allocs) AS allocs,
		       SUM(n.frees) AS frees, SUM(n.implicit_frees) AS implicit_frees
		FROM n JOIN alloc_shapes AS sh ON sh.id = n.shape_id
		GROUP BY sh.cache_id, sh.bytes_alloc, sh.kmalloc_type)
	SELECT CASE WHEN g.cache_id IS NOT NULL THEN k.name ELSE kc.name END AS cache,
	       SUM(g.total), SUM(g.slack), SUM(g.net), SUM(g.allocs), SUM(g.frees),
	       SUM(g.implicit_frees)
	FROM g LEFT JOIN caches AS k ON k.id = g.cache_id
	LEFT JOIN kmalloc_caches AS kc
	ON kc.kmalloc_type = COALESCE(g.kmalloc_type, 0) AND kc.bytes_alloc = g.bytes_alloc
	GROUP BY 1"
old_task_stats="WITH n AS (
		SELECT task_id, shape_id, COUNT(*) AS allocs, SUM(life IS NULL) AS live,
		       COUNT(CASE WHEN free_kind < 2 THEN 1 END) AS frees,
		       COUNT(CASE WHEN free_kind = 2 THEN 1 END) AS implicit_frees
		FROM alloc_rows GROUP BY task_id, shape_id),
	g AS (
		SELECT n.task_id AS task_id, SUM(n.allocs * sh.bytes_alloc) AS total,
		       SUM(n.allocs * (sh.bytes_alloc - sh.bytes_req)) AS slack,
		       SUM(n.live * sh.bytes_alloc) AS net, SUM(n.allocs) AS allocs,
		       SUM(n.frees) AS frees, SUM(n.implicit_frees) AS implicit_frees
		FROM n JOIN alloc_shapes AS sh ON sh.id = n.shape_id GROUP BY n.task_id)
	SELECT t.pid, t.comm, SUM(g.total), SUM(g.slack), SUM(g.net), SUM(g.allocs),
	       SUM(g.frees), SUM(g.implicit_frees)
	FROM g JOIN tasks AS t ON t.id = g.task_id GROUP BY t.pid, t.comm"
old_sizing_advice="WITH n AS (
		SELECT shape_id, COUNT(*) AS allocs, SUM(life IS NULL) AS live
		FROM alloc_rows
		WHERE shape_id IN (SELECT id FROM alloc_shapes WHERE alloc_event IN (0, 1)
				   AND bytes_alloc > ((bytes_req + 7) / 8) * 8)
		GROUP BY shape_id),
	g AS (
		SELECT sh.caller_id AS caller_id, sh.bytes_req AS bytes_req,
		       sh.bytes_alloc AS bytes_alloc, sh.kmalloc_type AS kmalloc_type,
		       SUM(n.allocs) AS allocs, SUM(n.live) AS live
		FROM n JOIN alloc_shapes AS sh ON sh.id = n.shape_id
		GROUP BY sh.caller_id, sh.bytes_req, sh.bytes_alloc, sh.kmalloc_type)
	SELECT c.caller, g.bytes_req, g.bytes_alloc,
	       (SELECT name FROM kmalloc_caches WHERE kmalloc_type = COALESCE(g.kmalloc_type, 0)
		AND bytes_alloc = g.bytes_alloc),
	       g.allocs, g.live, g.allocs * (g.bytes_alloc - g.bytes_req),
	       ((g.bytes_req + 7) / 8) * 8,
	       g.allocs * (g.bytes_alloc - ((g.bytes_req + 7) / 8) * 8),
	       g.live * (g.bytes_alloc - ((g.bytes_req + 7) / 8) * 8)
	FROM g CROSS JOIN callers AS c ON c.id = g.caller_id"
old_stack_stats="WITH n AS ($old_shape_counts),
	g AS (
		SELECT sh.stack_id AS stack_id, SUM(n.allocs * sh.bytes_alloc) AS total,
		       SUM(n.allocs * MAX(sh.bytes_alloc - sh.bytes_req, 0)) AS slack,
		       SUM(n.live * sh.bytes_alloc) AS net, SUM(n.allocs) AS allocs,
		       SUM(n.frees) AS frees, SUM(n.implicit_frees) AS implicit_frees,
		       SUM(n.live) AS live
		FROM n JOIN alloc_shapes AS sh ON sh.id = n.shape_id GROUP BY sh.stack_id)
	SELECT g.stack_id, COALESCE(s.folded, '[no stack]'), g.total, g.slack, g.net, g.allocs,
	       g.frees, g.implicit_frees, g.live
	FROM g LEFT JOIN stacks AS s ON s.id = g.stack_id"

# sql DB QUERY: the rows, sorted (a view's order is not part of its contract)
sql() { sqlite3 -separator '|' "$1" "$2" | LC_ALL=C sort; }

# views NAME DB: each new view's rows = the old SQL over alloc_rows, and the tables' sums =
# the summary's (and trace's) totals
views() {
	local name=$1 db=$2 v q
	for v in shape_counts cache_stats task_stats sizing_advice stack_stats; do
		case $v in
		shape_counts) q=$old_shape_counts ;;
		cache_stats) q=$old_cache_stats ;;
		task_stats) q=$old_task_stats ;;
		sizing_advice) q=$old_sizing_advice ;;
		stack_stats) q=$old_stack_stats ;;
		esac
		sql "$db" "SELECT * FROM $v" > "$TMP/new"
		sql "$db" "$q" > "$TMP/old"
		check "$name: $v = the old SQL over alloc_rows ($(wc -l < "$TMP/old") rows)" \
			cmp "$TMP/old" "$TMP/new"
	done
	# summary sums callers (the matcher's counts), the tables count the rows
	check "$name: shape_totals sums = summary allocs, implicit_frees, matched_frees, live" \
		test "$(sqlite3 "$db" "SELECT COALESCE(SUM(allocs), 0), COALESCE(SUM(implicit_frees), 0),
			COALESCE(SUM(frees), 0), COALESCE(SUM(live), 0) FROM shape_totals")" = \
		"$(sqlite3 "$db" "SELECT s.allocs, s.implicit_frees, t.matched_frees,
			(SELECT COALESCE(SUM(live), 0) FROM callers) FROM summary AS s, trace AS t")"
	check "$name: task_totals sums = summary total, net, allocs, frees, implicit_frees" \
		test "$(sqlite3 "$db" "SELECT COALESCE(SUM(total), 0), COALESCE(SUM(net), 0),
			COALESCE(SUM(allocs), 0), COALESCE(SUM(frees), 0),
			COALESCE(SUM(implicit_frees), 0) FROM task_totals")" = \
		"$(sqlite3 "$db" "SELECT s.total, s.net, s.allocs, t.matched_frees, s.implicit_frees
			FROM summary AS s, trace AS t")"
	check "$name: cache_totals sums = summary total, net, allocs, frees, implicit_frees" \
		test "$(sqlite3 "$db" "SELECT COALESCE(SUM(total), 0), COALESCE(SUM(net), 0),
			COALESCE(SUM(allocs), 0), COALESCE(SUM(frees), 0),
			COALESCE(SUM(implicit_frees), 0) FROM cache_totals")" = \
		"$(sqlite3 "$db" "SELECT s.total, s.net, s.allocs, t.matched_frees, s.implicit_frees
			FROM summary AS s, trace AS t")"
	check "$name: stack_totals sums = summary total, slack, net, allocs, implicit_frees" \
		test "$(sqlite3 "$db" "SELECT COALESCE(SUM(total), 0), COALESCE(SUM(slack), 0),
			COALESCE(SUM(net), 0), COALESCE(SUM(allocs), 0),
			COALESCE(SUM(implicit_frees), 0) FROM stack_totals")" = \
		"$(sqlite3 "$db" "SELECT total, slack, net, allocs, implicit_frees FROM summary")"
}

for f in basic stacks markers lost exp-leak; do
	if "$KMA" -q -o "$TMP/$f.db" "$TOP/tests/fixtures/$f.dat" 2> "$TMP/err"; then
		views "$f.dat" "$TMP/$f.db"
	else
		fail "$f.dat: kma-analyze" "$(cat "$TMP/err")"
	fi
done
# what the fixtures hold, so that the checks above cannot pass on empty columns
check "the fixtures: stacks, implicit frees, live allocations, generations" test \
	"$(sqlite3 "$TMP/stacks.db" "SELECT (SELECT COUNT(*) FROM stacks) > 100,
		SUM(implicit_frees) > 0, SUM(live) > 0 FROM shape_totals") $(sqlite3 \
		"$TMP/markers.db" "SELECT COUNT(*) > 1 FROM generations")" = "1|1|1 1"
"$KMA" --kmalloc-only -q -o "$TMP/kmo.db" "$TOP/tests/fixtures/markers.dat" &&
	views "markers.dat --kmalloc-only" "$TMP/kmo.db"

# generated traces: implicit frees worked by hand, frees only (no rows at all), byte counts
# at kma's limits
for s in gen/implicit gen/only-frees gen/stack-basic sums/edge; do
	n=${s#*/}
	if "$MKTRACE" -o "$TMP/$n.dat" "$TOP/tests/$s.seq" > /dev/null 2> "$TMP/err" &&
	   "$KMA" -q -o "$TMP/$n.db" "$TMP/$n.dat" 2> "$TMP/err"; then
		views "$s.seq" "$TMP/$n.db"
	else
		fail "$s.seq" "$(cat "$TMP/err")"
	fi
done
# implicit.seq by hand: maple_node 256 B at one pointer thrice (two implicit frees, one
# traced free), kmalloc 50 -> 64 B at another twice (one implicit, one live)
check "implicit.seq: task_totals as worked by hand" test \
	"$(sqlite3 "$TMP/implicit.db" "SELECT t.pid, g.total, g.slack, g.net, g.allocs, g.frees,
		g.implicit_frees FROM task_totals AS g JOIN tasks AS t ON t.id = g.task_id")" = \
	"100|896|28|64|5|1|3"
check "only-frees.seq: no allocation, no totals rows" test \
	"$(sqlite3 "$TMP/only-frees.db" "SELECT (SELECT COUNT(*) FROM shape_totals) +
		(SELECT COUNT(*) FROM task_totals) + (SELECT COUNT(*) FROM stack_totals)")" = 0

# a negative slack (bytes_alloc below bytes_req, as a broken trace may have it): the task's
# slack keeps it (as task_stats always did), the stack's does not (as stack_stats)
cat > "$TMP/neg.seq" <<'EOF'
cpus 1
kallsyms ffffffff81000000 T _stext
kallsyms ffffffff81100000 t alloc_a
kallsyms ffffffff81100100 t fn_x
kallsyms ffffffff81400000 T _etext
cmdline 100 bash
cmdline 200 cat
event 0 1000 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100001000 bytes_req=100 bytes_alloc=64
stack 0 1000 100 fn_x+0x10 alloc_a+0x10
event 0 2000 200 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100002000 bytes_req=40 bytes_alloc=64
event 0 3000 200 kfree call_site=alloc_a+0x40 ptr=0xffff888100002000
EOF
if "$MKTRACE" -o "$TMP/neg.dat" "$TMP/neg.seq" > /dev/null 2> "$TMP/err" &&
   "$KMA" -q -o "$TMP/neg.db" "$TMP/neg.dat" 2> "$TMP/err"; then
	views "negative slack" "$TMP/neg.db"
	check "negative slack: task_totals -36 (bash) and 24 (cat), stack_totals 24 and 0, by hand" test \
		"$(sqlite3 "$TMP/neg.db" "SELECT group_concat(slack, ' ') FROM (SELECT g.slack FROM
			task_totals AS g JOIN tasks AS t ON t.id = g.task_id ORDER BY t.pid); SELECT group_concat(slack, ' ') FROM (SELECT
			slack FROM stack_totals ORDER BY stack_id)")" = "$(printf -- '-36 24\n24 0')"
else
	fail "negative slack" "$(cat "$TMP/err")"
fi
