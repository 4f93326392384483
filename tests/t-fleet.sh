# kma-push and the fleet store (kma-fleet(5)) on a private PostgreSQL 15 cluster
# (tests/lib-pg.sh): runs pushed from report.db files and traces, every table read back
# and compared with the report.db's own rows read by sqlite3 (not by kma-push's code);
# stack keys against a SHA-256 computed by Python; a second push a no-op, --replace;
# the faults (server down, wrong password, no permission, a database from something
# else, a newer schema, a backend killed mid-push, 8 pushes at once, the stacks' lock
# held, the same new stacks from two pushes) and hostile names; the example queries
# of kma-fleet(5) run and their rows checked.
PUSH=$TOP/$B/analyzer/kma-push
FIX=$TOP/tests/fixtures
MKTRACE=$TOP/$B/tests/tools/mktrace
. "$TOP/tests/lib-pg.sh"

fleet_main() {
	if [ ! -x "$PUSH" ]; then
		fail "fleet: kma-push built" "no $PUSH"
		return
	fi
	if ! pg_start; then
		skip "fleet: every check" "$PG_WHY"
		return
	fi
	pass "fleet: private PostgreSQL 15 cluster started in $PG_START_MS ms"
	export KMA_ANALYZE=$KMA
	F=$TMP/fleet
	mkdir -p "$F"
	fleet_usage
	fleet_init
	fleet_push_rows
	fleet_kinds
	fleet_again
	fleet_hostile
	fleet_faults
	fleet_bad_stacks
	fleet_kill
	fleet_parallel
	fleet_turns
	fleet_late
	fleet_queries
	fleet_split
	fleet_man
	pg_stop
	check "fleet: the cluster is removed at the end" test ! -e "$PG_SOCK"
}

# pushed OUT: the run id of the last "pushed as run N" line of OUT
pushed() {
	sed -n 's/.*: \(pushed as\|replaced: now\) run \([0-9]*\) .*/\2/p' "$1" | tail -1
}

# one_line NAME RC PATTERN OUT ERR: the command's exit status was RC (in $rc), stderr
# one line matching PATTERN and naming the server ($PG_SOCK unless SERVER is set)
one_line() {
	local name=$1 want=$2 pattern=$3 err=$4 server=${5:-$PG_SOCK}
	if [ "$rc" != "$want" ]; then
		fail "fleet: $name" "exit $rc, want $want: $(head -3 "$err")"
	elif [ "$(wc -l < "$err")" != 1 ] || ! grep -q -- "$pattern" "$err" ||
	     ! grep -qF -- "$server" "$err"; then
		fail "fleet: $name" "want one line naming $server and '$pattern': $(cat "$err")"
	else
		pass "fleet: $name"
	fi
}

runs() { pg_q kma -c 'SELECT count(*) FROM kma_fleet.runs'; }
parts() {
	pg_q kma -c "SELECT count(*) FROM pg_class WHERE relnamespace = 'kma_fleet'::regnamespace
		AND relname ~ '_r[0-9]+\$'"
}

fleet_usage() {
	"$PUSH" > "$F/out" 2> "$F/err"
	rc=$?
	check "fleet: no URL is a usage error (exit 2)" sh -c "[ $rc = 2 ] && grep -q 'no URL' '$F/err'"
	"$PUSH" "$PG_URL" > "$F/out" 2> "$F/err"
	rc=$?
	check "fleet: no FILE without --init is a usage error" sh -c "[ $rc = 2 ] && grep -q 'no FILE' '$F/err'"
	"$PUSH" -l novalue "$PG_URL" x > "$F/out" 2> "$F/err"
	rc=$?
	check "fleet: --label without = is a usage error" sh -c "[ $rc = 2 ] && grep -q 'KEY=VALUE' '$F/err'"
}

fleet_init() {
	"$PUSH" "$PG_URL" "$FIX/basic.dat" > "$F/out" 2> "$F/err"
	rc=$?
	one_line "a database without the schema is refused, pointing to --init" 1 "kma-push --init" "$F/err"
	check "fleet: ... and nothing was created" test "$(pg_q kma -c \
		"SELECT count(*) FROM pg_namespace WHERE nspname = 'kma_fleet'")" = 0
	"$PUSH" --init "$PG_URL" > "$F/out" 2> "$F/err"
	rc=$?
	check "fleet: --init creates the schema, version 5" sh -c "[ $rc = 0 ] && [ ! -s '$F/err' ] &&
		[ \"\$(psql -X -A -t '$PG_URL' -c 'SELECT version FROM kma_fleet.schema_version')\" = 5 ]"
	"$PUSH" --init "$PG_URL" > "$F/out" 2> "$F/err"
	rc=$?
	check "fleet: --init again changes nothing" sh -c "[ $rc = 0 ] && [ ! -s '$F/err' ]"
}

# same NAME PGSQL SQLITESQL DB: the rows are the same (as sorted lines), and there are some
same() {
	local name=$1
	pg_q kma -c "$2" | sort > "$F/pg.txt"
	sqlite3 "$4" "$3" | sort > "$F/lite.txt"
	if [ ! -s "$F/lite.txt" ]; then
		fail "fleet: $name" "no rows in $4 to compare"
	elif cmp -s "$F/pg.txt" "$F/lite.txt"; then
		pass "fleet: $name ($(wc -l < "$F/lite.txt") rows)"
	else
		fail "fleet: $name" "$(diff "$F/lite.txt" "$F/pg.txt" | head -6)"
	fi
}

# rows_match RUN DB WHAT: every table of run RUN against report.db DB
rows_match() {
	local r=$1 db=$2 w=$3
	same "$w: runs row" \
		"SELECT kernel_release, uname, start_ns, duration_ns, events, total, slack, net, allocs,
		 frees, unknown_frees, failed_allocs, lost_events, peak_bytes FROM kma_fleet.runs
		 WHERE run_id = $r" \
		"SELECT t.kernel_release, t.uname, t.first_ts, t.last_ts - t.first_ts, t.events, s.total,
		 s.slack, s.net, s.allocs, s.frees, s.unknown_frees, s.failed_allocs, s.lost_events,
		 t.peak_bytes FROM trace t, summary s" "$db"
	same "$w: callers" \
		"SELECT caller, address, module, symbol, file, line, total, slack, net, allocs, frees,
		 implicit_frees, failed_allocs, live, grew_generations, max_growth_run, age_median,
		 leak_class, leak_confidence, leak_why FROM kma_fleet.callers WHERE run_id = $r" \
		"SELECT caller, address, module, symbol, file, line, total, slack, net, allocs, frees,
		 implicit_frees, failed_allocs, live, grew_generations, max_growth_run, age_median,
		 leak_class, leak_confidence, leak_why FROM callers" "$db"
	same "$w: functions" \
		"SELECT function, module, total, slack, net, allocs, frees, implicit_frees
		 FROM kma_fleet.functions WHERE run_id = $r" \
		"SELECT function, module, total, slack, net, allocs, frees, implicit_frees
		 FROM function_stats" "$db"
	same "$w: caches" \
		"SELECT cache, total, slack, net, allocs, frees, implicit_frees FROM kma_fleet.caches
		 WHERE run_id = $r" \
		"SELECT cache, total, slack, net, allocs, frees, implicit_frees FROM cache_stats" "$db"
	same "$w: tasks, comm byte for byte" \
		"SELECT pid, encode(comm, 'hex'), total, slack, net, allocs, frees, implicit_frees
		 FROM kma_fleet.tasks WHERE run_id = $r" \
		"SELECT pid, lower(hex(comm)), total, slack, net, allocs, frees, implicit_frees
		 FROM task_stats" "$db"
	same "$w: run_stacks" \
		"SELECT COALESCE(s.folded, '[no stack]'), r.total, r.slack, r.net, r.allocs, r.frees,
		 r.implicit_frees, r.live FROM kma_fleet.run_stacks r
		 LEFT JOIN kma_fleet.stacks s USING (stack_key) WHERE r.run_id = $r" \
		"SELECT folded, total, slack, net, allocs, frees, implicit_frees, live FROM stack_stats" "$db"
	same "$w: generations" \
		"SELECT generation, ts, label, allocs, bytes, live, live_bytes, frees
		 FROM kma_fleet.generations WHERE run_id = $r" \
		"SELECT id, ts, label, allocs, bytes, live, live_bytes, frees FROM generations" "$db"
	same "$w: timeline" \
		"SELECT bin, ts, width_ns, allocs, alloc_bytes, frees, free_bytes, live_bytes, live_max
		 FROM kma_fleet.timeline WHERE run_id = $r" \
		"SELECT bin, ts, width_ns, allocs, alloc_bytes, frees, free_bytes, live_bytes, live_max
		 FROM timeline" "$db"
	# the stacks' keys and frames: SHA-256 of depth and frames worked out in Python,
	# and each against the key kma-analyze wrote in stacks.stack_key (when it has it)
	python3 - "$db" "$F/badkeys.txt" > "$F/keys.txt" <<'EOF'
import hashlib, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.text_factory = bytes
frames = {}
stored = {}
cols = [c[1] for c in db.execute("PRAGMA table_info(stacks)")]
sk = ", stack_key" if b"stack_key" in cols or "stack_key" in cols else ", NULL"
for sid, depth, key in db.execute("SELECT id, depth%s FROM stacks" % sk):
    frames[sid] = (depth, [])
    stored[sid] = key
bad = open(sys.argv[2], "w")
for sid, d, a, f, o in db.execute(
        "SELECT stack_id, depth, address, function, offset FROM stack_frames ORDER BY 1, 2"):
    frames[sid][1].append((d, a, f, o))
def b(v):
    if v is None:
        return b"n\t"
    if isinstance(v, int):
        v = str(v).encode()
    return b"v" + v + b"\t"
for sid, (depth, fr) in sorted(frames.items()):
    h = hashlib.sha256(b"%d\n" % depth)
    for d, a, f, o in fr:
        h.update(b(a) + b(f) + b(o))
    k = h.hexdigest()
    if stored[sid] is not None and stored[sid].hex() != k:
        bad.write("stack %d: stack_key %s, frames %s\n" % (sid, stored[sid].hex(), k))
    for d, a, f, o in fr:
        print("%s|%d|%s|%s|%s" % (k, d, a.decode(), (f or b"").decode(),
                                  "" if o is None else o))
EOF
	pg_q kma -c "SELECT encode(stack_key, 'hex'), depth, address, function, \"offset\"
		FROM kma_fleet.stack_frames" | sort > "$F/pgkeys.txt"
	sort -u "$F/keys.txt" > "$F/keys.sorted"
	if [ "$(sqlite3 "$db" 'SELECT count(*) FROM stack_frames')" = 0 ]; then
		:
	elif [ ! -s "$F/keys.sorted" ]; then
		fail "fleet: $w: stack keys and frames" "Python found no frames"
	elif [ -n "$(comm -23 "$F/keys.sorted" "$F/pgkeys.txt")" ]; then
		fail "fleet: $w: stack keys and frames" \
			"not in the store: $(comm -23 "$F/keys.sorted" "$F/pgkeys.txt" | head -3)"
	else
		pass "fleet: $w: stack keys (SHA-256 of the frames) and frames ($(wc -l < "$F/keys.sorted"))"
	fi
	check "fleet: $w: stacks.stack_key, where the file has it, is the SHA-256 of the frames" \
		sh -c "[ ! -s '$F/badkeys.txt' ] || { head -3 '$F/badkeys.txt'; exit 1; }"
}

# allocations_match RUN DB WHAT: table allocations against the view allocations
allocations_match() {
	same "$3: allocations" \
		"SELECT a.id, '0x' || to_hex(a.ptr), a.caller, a.alloc_event, a.bytes_req, a.bytes_alloc,
		 a.gfp_flags, a.node, a.cache, a.accounted, a.alloc_ts, a.alloc_cpu, a.pid,
		 encode(a.comm, 'hex'), a.generation, a.free_ts, a.free_cpu, a.free_pid, a.free_caller,
		 a.free_kind, s1.folded, s2.folded FROM kma_fleet.allocations a
		 LEFT JOIN kma_fleet.stacks s1 ON s1.stack_key = a.stack_key
		 LEFT JOIN kma_fleet.stacks s2 ON s2.stack_key = a.free_stack_key WHERE a.run_id = $1" \
		"SELECT a.id, a.ptr, a.caller, a.alloc_event, a.bytes_req, a.bytes_alloc, a.gfp_flags,
		 a.node, a.cache, a.accounted, a.alloc_ts, a.alloc_cpu, a.pid, lower(hex(a.comm)),
		 a.generation, a.free_ts, a.free_cpu, a.free_pid, a.free_caller, a.free_kind,
		 s1.folded, s2.folded FROM allocations a LEFT JOIN stacks s1 ON s1.id = a.stack_id
		 LEFT JOIN stacks s2 ON s2.id = a.free_stack_id" "$2"
}

fleet_push_rows() {
	# a trace analyzed on the fly, with every allocation
	"$KMA" -q -o "$F/stacks.db" "$FIX/stacks.dat"
	# every row given to stacks logged in its order, by a trigger (dropped below)
	pg_q kma -c "CREATE TABLE stack_log (n bigint GENERATED ALWAYS AS IDENTITY, k bytea)" \
		-c "CREATE FUNCTION stack_log() RETURNS trigger LANGUAGE plpgsql AS
		    \$\$ BEGIN INSERT INTO stack_log (k) VALUES (NEW.stack_key); RETURN NEW; END \$\$" \
		-c "CREATE TRIGGER stack_log BEFORE INSERT ON kma_fleet.stacks FOR EACH ROW
		    EXECUTE FUNCTION stack_log()" > /dev/null
	"$PUSH" -a -l kernel=6.18 -l group=web "$PG_URL" "$FIX/stacks.dat" > "$F/out" 2> "$F/err"
	rc=$?
	local order
	order=$(pg_q kma -c "SELECT count(*), count(DISTINCT k), count(*) FILTER (WHERE back)
		FROM (SELECT k, k <= lag(k) OVER (ORDER BY n) AS back FROM stack_log) AS s")
	pg_q kma -c "DROP TRIGGER stack_log ON kma_fleet.stacks" -c "DROP TABLE stack_log" \
		-c "DROP FUNCTION stack_log()" > /dev/null
	RUN_STACKS=$(pushed "$F/out")
	check "fleet: a trace pushed (exit 0, run id, no stderr)" \
		sh -c "[ $rc = 0 ] && [ -n '$RUN_STACKS' ] && [ ! -s '$F/err' ]"
	[ -n "$RUN_STACKS" ] || return
	rows_match "$RUN_STACKS" "$F/stacks.db" "stacks.dat (trace)"
	allocations_match "$RUN_STACKS" "$F/stacks.db" "stacks.dat (trace)"
	# the new stacks' rows as the COPY gave them, in its order: each once, by key
	check "fleet: new stacks sent once each, in key order" test "$order" \
		= "$(sqlite3 "$F/stacks.db" 'SELECT count(*), count(*) FROM stacks')|0"
	check "fleet: trace_id is the trace's SHA-256, source trace" test \
		"$(pg_q kma -c "SELECT trace_id || ' ' || source FROM kma_fleet.runs WHERE run_id = $RUN_STACKS")" \
		= "$(sha256sum < "$FIX/stacks.dat" | cut -c1-64) trace"
	check "fleet: host from the trace's uname, labels as given" test \
		"$(pg_q kma -c "SELECT host || ' ' || string_agg(key || '=' || value, ' ' ORDER BY key)
			FROM kma_fleet.runs JOIN kma_fleet.run_labels USING (run_id)
			WHERE run_id = $RUN_STACKS GROUP BY host")" = "vm group=web kernel=6.18"
	check "fleet: the run's rows are in partitions of their own" test \
		"$(pg_q kma -c "SELECT count(*) FROM kma_fleet.callers_r$RUN_STACKS")" \
		= "$(sqlite3 "$F/stacks.db" 'SELECT count(*) FROM callers')"

	# a report.db; without --allocations none
	"$KMA" -q -o "$F/basic.db" "$FIX/basic.dat"
	"$PUSH" -l kernel=6.17 -l group=web "$PG_URL" "$F/basic.db" > "$F/out" 2> "$F/err"
	rc=$?
	RUN_BASIC=$(pushed "$F/out")
	check "fleet: a report.db pushed" sh -c "[ $rc = 0 ] && [ -n '$RUN_BASIC' ]"
	[ -n "$RUN_BASIC" ] || return
	rows_match "$RUN_BASIC" "$F/basic.db" "basic.db (report.db)"
	check "fleet: without --allocations no allocation rows, no partition" test \
		"$(pg_q kma -c "SELECT count(*) FROM kma_fleet.allocations WHERE run_id = $RUN_BASIC;
			SELECT to_regclass('kma_fleet.allocations_r$RUN_BASIC') IS NULL")" = "0
t"
	check "fleet: trace_id of a report.db is its SHA-256, source report.db" test \
		"$(pg_q kma -c "SELECT trace_id || ' ' || source FROM kma_fleet.runs WHERE run_id = $RUN_BASIC")" \
		= "$(sha256sum < "$F/basic.db" | cut -c1-64) report.db"

	# the stacks of a run pushed again from its report.db: one row each, shared
	local before
	before=$(pg_q kma -c 'SELECT count(*) FROM kma_fleet.stacks')
	"$PUSH" -q -l kernel=6.18 -l group=db "$PG_URL" "$F/stacks.db" > "$F/out" 2> "$F/err"
	rc=$?
	RUN_STACKS2=$(pg_q kma -c "SELECT max(run_id) FROM kma_fleet.runs")
	check "fleet: the same stacks from a second run are not stored again" sh -c "[ $rc = 0 ] &&
		[ '$before' = \"\$(psql -X -A -t '$PG_URL' -c 'SELECT count(*) FROM kma_fleet.stacks')\" ] &&
		[ '$before' = \"\$(sqlite3 '$F/stacks.db' 'SELECT count(*) FROM stacks')\" ]"
	check "fleet: -q prints nothing" test ! -s "$F/out"
	fleet_old_v7 "$F/stacks.db" "$RUN_STACKS2" stacks
}

# same_aggregates NAME R1 R2: runs R1 and R2 have the same caches, tasks and run_stacks
same_aggregates() {
	local t
	for t in "caches:cache, total, slack, net, allocs, frees, implicit_frees" \
		 "tasks:pid, comm, total, slack, net, allocs, frees, implicit_frees" \
		 "run_stacks:stack_key, total, slack, net, allocs, frees, implicit_frees, live"; do
		pg_q kma -c "SELECT ${t#*:} FROM kma_fleet.${t%%:*} WHERE run_id = $2" |
			sort > "$F/r1.txt"
		pg_q kma -c "SELECT ${t#*:} FROM kma_fleet.${t%%:*} WHERE run_id = $3" |
			sort > "$F/r2.txt"
		check "fleet: $1: ${t%%:*} the same" sh -c "[ -s '$F/r1.txt' ] && cmp '$F/r1.txt' '$F/r2.txt'"
	done
}

# fleet_old_v7 DB RUN NAME: DB as kma-analyze wrote it before the totals tables
# (tests/fleet/old-v7.sql: its views count alloc_rows) pushed: kma-push counts
# the rows itself, the rows equal that file's views and the aggregates of RUN (DB pushed
# with its tables). Then DB with its alloc_rows emptied: the aggregates from the tables alone.
fleet_old_v7() {
	local db=$1 run=$2 name=$3 r
	cp "$db" "$F/$name-old.db"
	sqlite3 "$F/$name-old.db" < "$TOP/tests/fleet/old-v7.sql"
	sqlite3 "$F/$name-old.db" "UPDATE trace SET file = 'old'"
	"$PUSH" "$PG_URL" "$F/$name-old.db" > "$F/out" 2> "$F/err"
	rc=$?
	r=$(pushed "$F/out")
	check "fleet: $name.db without the totals tables pushed" sh -c "[ $rc = 0 ] && [ -n '$r' ]"
	[ -n "$r" ] || return
	rows_match "$r" "$F/$name-old.db" "$name.db without the totals tables"
	same_aggregates "$name.db counted from the rows = from the tables" "$r" "$run"
	cp "$db" "$F/$name-norows.db"
	sqlite3 "$F/$name-norows.db" "DELETE FROM alloc_rows; UPDATE trace SET file = 'norows'"
	"$PUSH" "$PG_URL" "$F/$name-norows.db" > "$F/out" 2> "$F/err"
	rc=$?
	r=$(pushed "$F/out")
	check "fleet: $name.db with alloc_rows emptied pushed" sh -c "[ $rc = 0 ] && [ -n '$r' ]"
	[ -n "$r" ] || return
	same_aggregates "$name.db: no alloc_rows read for the aggregates" "$r" "$run"
}

# A report.db with percpu and vmalloc rows beside the slab allocator's (schema version 7,
# tests/kindstore/gens.seq, hand-worked in gens.rows and gens.stats) pushed with -a: the
# slab allocator's tables as before, and every allocator's rows, totals and call sites
fleet_kinds() {
	local r
	if ! "$MKTRACE" -o "$F/gens.dat" "$TOP/tests/kindstore/gens.seq" > "$F/mk.txt" 2>&1 ||
	   ! "$KMA" -q -o "$F/gens.db" "$F/gens.dat" 2>> "$F/mk.txt"; then
		fail "fleet: a report.db with percpu and vmalloc rows" "$(cat "$F/mk.txt")"
		return
	fi
	"$PUSH" -a "$PG_URL" "$F/gens.db" > "$F/out" 2> "$F/err"
	rc=$?
	r=$(pushed "$F/out")
	check "fleet: a report.db with percpu and vmalloc rows pushed" \
		sh -c "[ $rc = 0 ] && [ -n '$r' ] && [ ! -s '$F/err' ]"
	[ -n "$r" ] || return
	rows_match "$r" "$F/gens.db" "gens.db (with kinds)"
	# gens.rows' columns, NULL as '-', by alloc_ts
	pg_q kma -c "SELECT concat_ws(' ', kind, '0x' || to_hex(ptr), caller, alloc_event,
		coalesce(bytes_req::text, '-'), bytes_alloc, alloc_ts, coalesce(alloc_cpu::text, '-'),
		pid, convert_from(comm, 'UTF8'), generation, coalesce(free_ts::text, '-'),
		coalesce(free_cpu::text, '-'), coalesce(free_pid::text, '-'), coalesce(free_kind, '-'),
		(stack_key IS NOT NULL)::int) FROM kma_fleet.allocations WHERE run_id = $r
		ORDER BY alloc_ts" > "$F/kinds.got"
	grep -v '^#' "$TOP/tests/kindstore/gens.rows" > "$F/kinds.want"
	check "fleet: gens.db: allocations of every kind, as worked by hand (gens.rows)" \
		cmp "$F/kinds.want" "$F/kinds.got"
	pg_q kma -c "SELECT concat_ws(' ', kind, allocs, total, net, peak, peak_ts, live, frees,
		implicit_frees, unknown_frees, null_frees, failed_allocs) FROM kma_fleet.kind_totals
		WHERE run_id = $r ORDER BY array_position(ARRAY['slab', 'page', 'percpu',
		'vmalloc'], kind)" > "$F/kt.got"
	grep -v '^#' "$TOP/tests/kindstore/gens.stats" > "$F/kt.want"
	check "fleet: gens.db: kind_totals, as worked by hand (gens.stats)" \
		cmp "$F/kt.want" "$F/kt.got"
	# per call site, from gens.seq's comment: 2 freed at 3000, 3 live; 4 freed at 6000,
	# 5 live (no stack); addresses: the symbols of gens.seq plus the offsets
	pg_q kma -c "SELECT concat_ws(' ', kind, caller, address, total, net, allocs, frees,
		implicit_frees, failed_allocs, live) FROM kma_fleet.kind_callers WHERE run_id = $r
		ORDER BY 1" > "$F/kc.got"
	printf '%s\n' \
		'percpu alloc_netdev_mqs+0x40 0xffffffff81300c40 32 0 1 1 0 0 0' \
		'percpu mem_cgroup_css_alloc+0x20 0xffffffff81300820 96 96 1 0 0 0 1' \
		'vmalloc [no stack] 0x0 8192 8192 1 0 0 0 1' \
		'vmalloc bpf_map_area_alloc+0x60 0xffffffff81300060 16384 0 1 1 0 0 0' > "$F/kc.want"
	check "fleet: gens.db: kind_callers of percpu and vmalloc, as worked by hand" \
		cmp "$F/kc.want" "$F/kc.got"
	# a report.db of version 6 (before the other allocators' tables): its slab rows only
	cp "$F/gens.db" "$F/gens6.db"
	sqlite3 "$F/gens6.db" "DROP VIEW allocations; DROP VIEW kind_stats; DROP VIEW
		kind_caller_stats; DROP TABLE kind_alloc_rows; DROP TABLE kind_callers;
		DROP TABLE kind_totals; DROP TABLE kinds; UPDATE trace SET file = 'v6';
		PRAGMA user_version = 6"
	"$PUSH" -a "$PG_URL" "$F/gens6.db" > "$F/out" 2> "$F/err"
	rc=$?
	r=$(pushed "$F/out")
	check "fleet: a version 6 report.db: pushed, its slab allocation only, no other kind" \
		sh -c "[ $rc = 0 ] && [ -n '$r' ] && [ \"\$(psql -X -A -t '$PG_URL' -c \"SELECT
		string_agg(kind || ' ' || caller, ',') FROM kma_fleet.allocations WHERE run_id = 0$r;
		SELECT count(*) FROM kma_fleet.kind_callers WHERE run_id = 0$r\")\" = 'slab alloc_a+0x10
0' ] || cat '$F/err'"
	fleet_pages
}

# The page allocator (tests/pages/basic.seq analyzed with --pages, hand-worked in
# basic.expect): its allocations, totals and call sites (caller functions) pushed
fleet_pages() {
	local r
	if ! "$MKTRACE" -o "$F/pages.dat" "$TOP/tests/pages/basic.seq" > "$F/mk.txt" 2>&1 ||
	   ! "$KMA" --pages -q -o "$F/pages.db" "$F/pages.dat" 2>> "$F/mk.txt"; then
		fail "fleet: a report.db with page rows" "$(cat "$F/mk.txt")"
		return
	fi
	"$PUSH" -a "$PG_URL" "$F/pages.db" > "$F/out" 2> "$F/err"
	rc=$?
	r=$(pushed "$F/out")
	check "fleet: a report.db with page rows (--pages) pushed" \
		sh -c "[ $rc = 0 ] && [ -n '$r' ] && [ ! -s '$F/err' ]"
	[ -n "$r" ] || return
	# basic.expect's summary: 5 allocations of 9 pages, 3 live; peak 5 pages after event
	# 2 (2000); frees 3 (1 implicit), 1 unknown, 1 failed; 4096-byte pages
	check "fleet: pages.db: the page row of kind_totals (basic.expect's summary)" test \
		"$(pg_q kma -c "SELECT concat_ws(' ', allocs, total, net, peak, peak_ts, live, frees,
		implicit_frees, unknown_frees, null_frees, failed_allocs) FROM kma_fleet.kind_totals
		WHERE run_id = $r AND kind = 'page'")" = \
		"5 $((9 * 4096)) $((3 * 4096)) $((5 * 4096)) 2000 2 3 1 1 0 1"
	# basic.expect's "row function NAME pages allocs freed_pages frees implicit live_pages"
	# in bytes; live allocations: pipe_write's 5 and 8, none of do_anonymous_page's
	awk '$1 == "row" && $2 == "function" { print $3, $4 * 4096, $9 * 4096, $5, $7, $8,
		($3 == "pipe_write" ? 2 : 0) }' "$TOP/tests/pages/basic.expect" | sort > "$F/pc.want"
	pg_q kma -c "SELECT concat_ws(' ', caller, total, net, allocs, frees, implicit_frees, live)
		FROM kma_fleet.kind_callers WHERE run_id = $r AND kind = 'page'" | sort > "$F/pc.got"
	check "fleet: pages.db: kind_callers of the page allocator, per function (basic.expect)" \
		sh -c "[ -s '$F/pc.want' ] && cmp '$F/pc.want' '$F/pc.got'"
	# events 1, 2, 5, 8, 9 of basic.seq: pfn, bytes, pid, free_ts, free_kind
	pg_q kma -c "SELECT concat_ws(' ', '0x' || to_hex(ptr), caller, bytes_alloc, pid,
		coalesce(free_ts::text, '-'), coalesce(free_kind, '-')) FROM kma_fleet.allocations
		WHERE run_id = $r AND kind = 'page' ORDER BY alloc_ts" > "$F/pa.got"
	printf '%s\n' '0x1000 pipe_write 4096 100 4000 mm_page_free' \
		'0x2000 do_anonymous_page 16384 100 5000 implicit' '0x2000 pipe_write 4096 100 - -' \
		'0x4000 pipe_write 8192 200 - -' '0x0 do_anonymous_page 4096 200 9500 mm_page_free' \
		> "$F/pa.want"
	check "fleet: pages.db: page allocations, as basic.seq has them" cmp "$F/pa.want" "$F/pa.got"
}

fleet_again() {
	local n p
	n=$(runs)
	p=$(parts)
	"$PUSH" "$PG_URL" "$FIX/stacks.dat" > "$F/out" 2> "$F/err"
	rc=$?
	check "fleet: the same trace and options again: a no-op that says so" sh -c "[ $rc = 0 ] &&
		grep -q 'already there as run $RUN_STACKS (same trace and options): nothing done' '$F/out' &&
		[ \"\$(psql -X -A -t '$PG_URL' -c 'SELECT count(*) FROM kma_fleet.runs')\" = $n ]"
	"$PUSH" --replace -l kernel=6.18 -l group=web -a "$PG_URL" "$FIX/stacks.dat" > "$F/out" 2> "$F/err"
	rc=$?
	local new
	new=$(pushed "$F/out")
	check "fleet: --replace: a new run, the old one's partitions dropped" sh -c "[ $rc = 0 ] &&
		grep -q 'replaced: now run' '$F/out' && [ -n '$new' ] && [ '$new' != '$RUN_STACKS' ] &&
		[ \"\$(psql -X -A -t '$PG_URL' -c 'SELECT count(*) FROM kma_fleet.runs')\" = $n ] &&
		[ \"\$(psql -X -A -t '$PG_URL' -c \"SELECT to_regclass('kma_fleet.callers_r$RUN_STACKS') IS NULL\")\" = t ] &&
		[ \"\$(psql -X -A -t '$PG_URL' -c \"SELECT count(*) FROM pg_class WHERE relnamespace = 'kma_fleet'::regnamespace AND relname ~ '_r[0-9]+\\\$'\")\" = $p ]"
	[ -n "$new" ] && RUN_STACKS=$new
}

fleet_hostile() {
	need_mktrace
	[ -x "$MKTRACE" ] || return
	cat > "$F/hostile.seq" <<'EOF'
cpus 1
kallsyms ffffffff81000000 T _stext
kallsyms ffffffff81100000 t alloc_a
kallsyms ffffffff81100100 t free_x
kallsyms ffffffff81400000 T _etext
cmdline 100 it's"q
cmdline 101 back\slash\\
cmdline 102 <script>x
cmdline 103 bad\xff\xfe\x01
event 0 1000 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100001000 bytes_req=100 bytes_alloc=128
event 0 2000 101 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100002000 bytes_req=60 bytes_alloc=64
marker 0 2500 100 kma: <script>'q'"\
event 0 3000 102 kmem_cache_alloc call_site=alloc_a+0x10 ptr=0xffff888100003000 bytes_req=192 bytes_alloc=192 name=it's"<b>\
event 0 4000 103 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100004000 bytes_req=8 bytes_alloc=8
event 0 5000 100 kfree call_site=free_x+0x8 ptr=0xffff888100001000
EOF
	if ! "$MKTRACE" -o "$F/hostile.dat" "$F/hostile.seq" > "$F/mk.txt" 2>&1; then
		fail "fleet: hostile names: mktrace" "$(tail -3 "$F/mk.txt")"
		return
	fi
	"$KMA" -q -o "$F/hostile.db" "$F/hostile.dat"
	local lab
	lab=$(printf 'v'\''"\\<script>\tx')
	"$PUSH" -a -l "$lab=$lab" "$PG_URL" "$F/hostile.dat" > "$F/out" 2> "$F/err"
	rc=$?
	local r
	r=$(pushed "$F/out")
	check "fleet: hostile names: pushed" sh -c "[ $rc = 0 ] && [ -n '$r' ]"
	[ -n "$r" ] || return
	# the comms as mktrace wrote them, by bytes: independent of kma
	{ printf "100|%s\n" "$(printf '%s' "it's\"q" | od -An -tx1 | tr -d ' \n')"
	  printf "101|%s\n" "$(printf '%s' 'back\slash\\' | od -An -tx1 | tr -d ' \n')"
	  printf "102|%s\n" "$(printf '%s' '<script>x' | od -An -tx1 | tr -d ' \n')"
	  printf "103|%s\n" "$(printf 'bad\377\376\001' | od -An -tx1 | tr -d ' \n')"
	} | sort > "$F/comm.want"
	pg_q kma -c "SELECT pid || '|' || encode(comm, 'hex') FROM kma_fleet.tasks WHERE run_id = $r" |
		sort > "$F/comm.got"
	check "fleet: hostile names: comms (quotes, backslashes, <script>, non-UTF-8) byte for byte" \
		cmp "$F/comm.want" "$F/comm.got"
	pg_q kma -c "SELECT DISTINCT pid || '|' || encode(comm, 'hex') FROM kma_fleet.allocations
		WHERE run_id = $r" | sort > "$F/comm.got"
	check "fleet: hostile names: allocations' comms byte for byte" cmp "$F/comm.want" "$F/comm.got"
	check "fleet: hostile names: a label with quotes, backslash, <script>, tab" test \
		"$(pg_q kma -c "SELECT key || '=' || value FROM kma_fleet.run_labels WHERE run_id = $r")" \
		= "$lab=$lab"
	check "fleet: hostile names: a cache name and a marker label" test \
		"$(pg_q kma -c "SELECT cache FROM kma_fleet.caches WHERE run_id = $r AND cache LIKE 'it%';
			SELECT label FROM kma_fleet.generations WHERE run_id = $r AND generation = 1")" \
		= "it's\"<b>\\
<script>'q'\"\\"
	rows_match "$r" "$F/hostile.db" "hostile.dat"
	allocations_match "$r" "$F/hostile.db" "hostile.dat"
}

fleet_faults() {
	local n=$(runs) p=$(parts)
	# server down: a socket directory with no server in it
	mkdir -p "$F/nowhere"
	"$PUSH" "host=$F/nowhere dbname=kma" "$F/basic.db" > "$F/out" 2> "$F/err"
	rc=$?
	one_line "server down: one line naming it, exit 1" 1 "No such file\|could not connect\|Connection refused" \
		"$F/err" "$F/nowhere"
	# wrong password (scram); the password is never printed
	pg_q kma -c "CREATE ROLE kma_pw LOGIN PASSWORD 'right-pw';
		GRANT USAGE ON SCHEMA kma_fleet TO kma_pw;
		GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA kma_fleet TO kma_pw" > /dev/null
	PGPASSWORD=wrong-pw-XyZ "$PUSH" "host=$PG_SOCK user=kma_pw dbname=kma" "$F/basic.db" \
		> "$F/out" 2> "$F/err"
	rc=$?
	one_line "wrong password (PGPASSWORD): one line, exit 1" 1 "password authentication failed" "$F/err"
	"$PUSH" "host=$PG_SOCK user=kma_pw dbname=kma password=Secret-Qq7" "$F/basic.db" \
		> "$F/out" 2> "$F/err"
	rc=$?
	one_line "wrong password in the URL: one line, exit 1" 1 "password authentication failed" "$F/err"
	check "fleet: the password is never printed" sh -c "! grep -rq 'Secret-Qq7\|wrong-pw-XyZ' '$F/out' '$F/err'"
	PGPASSWORD=right-pw "$PUSH" "host=$PG_SOCK user=kma_pw dbname=kma" "$FIX/basic.dat" \
		> "$F/out" 2> "$F/err"
	rc=$?
	# kma_pw may not create partitions (not the tables' owner): a permission error
	one_line "no permission (a role that may not create the run's tables): exit 1" 1 \
		"permission denied\|must be owner" "$F/err"
	pg_q kma -c "CREATE ROLE kma_ro LOGIN; GRANT USAGE ON SCHEMA kma_fleet TO kma_ro;
		GRANT SELECT ON ALL TABLES IN SCHEMA kma_fleet TO kma_ro" > /dev/null
	"$PUSH" "host=$PG_SOCK user=kma_ro dbname=kma" "$FIX/basic.dat" > "$F/out" 2> "$F/err"
	rc=$?
	one_line "no permission (read only role): one line, exit 1" 1 "permission denied" "$F/err"
	check "fleet: ... nothing written by the refused pushes" sh -c \
		"[ '$n' = \"\$(psql -X -A -t '$PG_URL' -c 'SELECT count(*) FROM kma_fleet.runs')\" ] &&
		 [ '$p' = \"\$(psql -X -A -t '$PG_URL' -c \"SELECT count(*) FROM pg_class WHERE relnamespace = 'kma_fleet'::regnamespace AND relname ~ '_r[0-9]+\\\$'\")\" ]"
	# a database from something else, with or without a schema named kma_fleet
	pg_q postgres -c "CREATE DATABASE other" > /dev/null
	pg_q other -c "CREATE TABLE runs (x int); INSERT INTO runs VALUES (1)" > /dev/null
	"$PUSH" "host=$PG_SOCK user=kma_admin dbname=other" "$F/basic.db" > "$F/out" 2> "$F/err"
	rc=$?
	one_line "a database from something else: one line, exit 1" 1 "not a kma fleet store" "$F/err"
	pg_q other -c "CREATE SCHEMA kma_fleet; CREATE TABLE kma_fleet.runs (x int)" > /dev/null
	"$PUSH" --init "host=$PG_SOCK user=kma_admin dbname=other" "$F/basic.db" > "$F/out" 2> "$F/err"
	rc=$?
	one_line "a kma_fleet schema that is not kma's: --init refuses it" 1 "not a kma fleet store" "$F/err"
	check "fleet: ... and the other database is as it was" test \
		"$(pg_q other -c "SELECT count(*) FROM pg_tables WHERE schemaname IN ('public', 'kma_fleet');
			SELECT count(*) FROM kma_fleet.runs")" = "2
0"
	# a newer schema
	pg_q postgres -c "CREATE DATABASE newer" > /dev/null
	"$PUSH" -q --init "host=$PG_SOCK user=kma_admin dbname=newer" > /dev/null 2>&1
	pg_q newer -c "UPDATE kma_fleet.schema_version SET version = 6" > /dev/null
	"$PUSH" "host=$PG_SOCK user=kma_admin dbname=newer" "$F/basic.db" > "$F/out" 2> "$F/err"
	rc=$?
	one_line "a newer schema: one line, exit 1" 1 "version 6, newer than this kma-push knows" "$F/err"
	"$PUSH" --init "host=$PG_SOCK user=kma_admin dbname=newer" > "$F/out" 2> "$F/err"
	rc=$?
	one_line "a newer schema: --init refuses it too" 1 "version 6, newer" "$F/err"
	check "fleet: ... nothing written" test "$(pg_q newer -c 'SELECT count(*) FROM kma_fleet.runs')" = 0
	fleet_upgrade 1
	fleet_upgrade 2
	fleet_upgrade 3
	fleet_upgrade 4
	# files that are no report.db: one line naming the file, exit 1, the next file still pushed
	printf 'not a db\n' > "$F/text.db"
	sqlite3 "$F/other.db" 'CREATE TABLE t (x)'
	mkdir -p "$F/dir.db"
	"$PUSH" "$PG_URL" "$F/text.db" "$F/other.db" "$F/missing.db" "$F/dir.db" > "$F/out" \
		2> "$F/err"
	rc=$?
	check "fleet: bad files: exit 1, one line each naming it" sh -c "[ $rc = 1 ] &&
		[ \"\$(wc -l < '$F/err')\" = 4 ] && grep -q '$F/text.db: ' '$F/err' &&
		grep -q '$F/other.db: not a report.db written by kma-analyze' '$F/err' &&
		grep -q '$F/missing.db: No such file' '$F/err' &&
		grep -q '$F/dir.db: a directory, not a report.db or a trace' '$F/err'"
	check "fleet: ... and nothing written" test "$(runs)" = "$n"
}

# fleet_upgrade V: a store of version V (its schema as that kma-push made it, with one
# run and two stacks, one of them without frames, in it): refused with the way out,
# then upgraded in place by --init to what --init makes new, its runs and stacks kept
fleet_upgrade() {
	local old="host=$PG_SOCK user=kma_admin dbname=old$1" v frames

	pg_q postgres -c "CREATE DATABASE old$1" -c "CREATE DATABASE fresh$1" > /dev/null
	pg_q "old$1" -f "$TOP/tests/fleet/fleet-v$1.sql" > /dev/null
	pg_q "old$1" -c "INSERT INTO kma_fleet.runs (trace_id, source, options, host, push_version,
		allocations) VALUES ('abc', 'trace', '', 'h1', 'v1', false)" \
		> /dev/null
	if [ "$1" -lt 3 ]; then
		pg_q "old$1" -c "INSERT INTO kma_fleet.stacks VALUES ('\\x01', 3, 'c;b;a'), ('\\x02', 0, '')" \
			-c "INSERT INTO kma_fleet.stack_frames VALUES ('\\x01', 0, '0xffffffff81000010',
			'a', 16), ('\\x01', 1, '0x7f', NULL, NULL), ('\\x01', 2, '0x0', 'c', 0)" > /dev/null
	else	# version 3 on keeps the frames in arrays (stack_frames is a view)
		pg_q "old$1" -c "INSERT INTO kma_fleet.stacks VALUES ('\\x01', 3, 'c;b;a',
			'{-2130706416,127,0}', '{a,NULL,c}', '{16,NULL,0}'), ('\\x02', 0, '', '{}', '{}',
			'{}')" > /dev/null
	fi
	"$PUSH" "$old" "$F/basic.db" > "$F/out" 2> "$F/err"
	rc=$?
	one_line "an older schema (version $1): one line pointing to --init, exit 1" 1 \
		"version $1, older than this kma-push writes (5): kma-push --init upgrades it" "$F/err"
	"$PUSH" --init "$old" > "$F/out" 2> "$F/err"
	rc=$?
	v=$(pg_q "old$1" -c 'SELECT version FROM kma_fleet.schema_version')
	check "fleet: --init upgrades a version $1 store to 5" sh -c "[ $rc = 0 ] && [ ! -s '$F/err' ] &&
		[ '$v' = 5 ]"
	"$PUSH" -q --init "host=$PG_SOCK user=kma_admin dbname=fresh$1" > /dev/null 2>&1
	pg_dump -s -n kma_fleet "host=$PG_SOCK user=kma_admin dbname=old$1" |
		grep -v '^--\|^\\\(un\)\?restrict ' > "$F/old.sql"
	pg_dump -s -n kma_fleet "host=$PG_SOCK user=kma_admin dbname=fresh$1" |
		grep -v '^--\|^\\\(un\)\?restrict ' > "$F/fresh.sql"
	check "fleet: ... (version $1) its tables, views and constraints are those of a new store" \
		diff "$F/old.sql" "$F/fresh.sql"
	check "fleet: ... the run it held is still there, its kind modules unknown (NULL)" \
		test "$(pg_q "old$1" -c "SELECT count(*) FROM kma_fleet.runs WHERE host = 'h1' AND
			kind_modules IS NULL")" = 1
	# the frames as inserted above, the 64-bit address as its two's complement
	frames=$(pg_q "old$1" -c "SELECT encode(stack_key, 'hex'), depth, folded, addresses, functions,
		offsets FROM kma_fleet.stacks ORDER BY 1" -c "SELECT encode(stack_key, 'hex'), depth,
		address, function, \"offset\" FROM kma_fleet.stack_frames ORDER BY 1, 2")
	check "fleet: ... its stacks' frames in the arrays, and in the view stack_frames" test \
		"$frames" = "01|3|c;b;a|{-2130706416,127,0}|{a,NULL,c}|{16,NULL,0}
02|0||{}|{}|{}
01|0|0xffffffff81000010|a|16
01|1|0x7f||
01|2|0x0|c|0"
	"$PUSH" -q "$old" "$F/basic.db" > "$F/out" 2> "$F/err"
	rc=$?
	v=$(pg_q "old$1" -c 'SELECT count(*) FROM kma_fleet.runs')
	check "fleet: ... and takes a push" sh -c "[ $rc = 0 ] && [ '$v' = 2 ]"
}

# bad_file NAME PATTERN DB: kma-push of DB refused in one line naming DB and PATTERN, exit 1
bad_file() {
	local name=$1 pattern=$2 db=$3 n=$(runs)
	"$PUSH" "$PG_URL" "$db" > "$F/out" 2> "$F/err"
	rc=$?
	if [ "$rc" != 1 ] || [ "$(wc -l < "$F/err")" != 1 ] || ! grep -qF -- "$db" "$F/err" ||
	   ! grep -q -- "$pattern" "$F/err"; then
		fail "fleet: $name" "exit $rc, want 1 and one line naming $db and '$pattern': $(cat "$F/err")"
	elif [ "$(runs)" != "$n" ]; then
		fail "fleet: $name" "a run was left: $(runs) runs, $n before"
	else
		pass "fleet: $name"
	fi
}

# The stack keys kma-analyze writes in report.db, and files whose keys or frames are bad:
# refused in one line naming the file, nothing written.
fleet_bad_stacks() {
	local n
	n=$(sqlite3 "$F/stacks.db" "SELECT count(*) FROM stacks")
	check "fleet: kma-analyze writes each stack's key (stacks.stack_key, 32 bytes)" test \
		"$(sqlite3 "$F/stacks.db" "SELECT count(*) FROM stacks WHERE length(stack_key) = 32")" \
		= "$n"
	[ "$n" -gt 0 ] || fail "fleet: stacks.db has stacks" "none"
	cp "$F/stacks.db" "$F/badkey.db"
	sqlite3 "$F/badkey.db" "UPDATE trace SET file = 'badkey';
		UPDATE stacks SET stack_key = zeroblob(32) WHERE id = 2"
	bad_file "a stack key that is not its frames' (a new stack): refused" \
		"stacks.stack_key of stack 2 does not match its frames" "$F/badkey.db"
	sqlite3 "$F/badkey.db" "UPDATE stacks SET stack_key = x'0102' WHERE id = 2"
	bad_file "a stack key of 2 bytes: refused" "stacks.stack_key of stack 2 is not a 32-byte key" \
		"$F/badkey.db"
	# an address not as kma-analyze writes it, its stack's key made by kma-push
	for a in 0x01 0X1 0xAB 0x 0x1g ' 0x1' 0x10000000000000000; do
		sqlite3 "$F/badkey.db" "UPDATE stacks SET stack_key = NULL;
			UPDATE stack_frames SET address = '$a' WHERE stack_id = 2 AND depth = 0"
		bad_file "a frame's address '$a': refused" "stack frame address '$a' is not 0x<hex>" \
			"$F/badkey.db"
	done
}

# hold_timeline: a second session takes kma_fleet.timeline's lock (the last of the run's
# tables kma-push writes, before the stacks) and keeps it 60 s unless killed; returns
# once it is granted, its pid in LOCKER.
hold_timeline() {
	local i
	PGAPPNAME=kma-locker psql -X -q "$PG_URL" -c "BEGIN; LOCK TABLE kma_fleet.timeline IN ACCESS
		EXCLUSIVE MODE; SELECT pg_sleep(60); COMMIT" > /dev/null 2>&1 &
	LOCKER=$!
	for i in $(seq 100); do
		[ "$(pg_q kma -c "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
			WHERE c.relname = 'timeline' AND l.granted AND l.mode = 'AccessExclusiveLock'")" = 1 ] &&
			break
		sleep 0.1
	done
}

# A backend killed in the middle of a push: a second session holds the lock of
# kma_fleet.timeline (the last of the run's tables kma-push writes, before the stacks),
# so the push waits midway, its run, labels and other tables written but not
# committed; the test terminates its backend, then releases the lock.
fleet_kill() {
	local n=$(runs) p=$(parts) i lockpid pushpid got=
	cp "$F/basic.db" "$F/kill.db"
	sqlite3 "$F/kill.db" "UPDATE trace SET file = 'kill'"
	hold_timeline
	lockpid=$LOCKER
	"$PUSH" "$PG_URL" "$F/kill.db" > "$F/kout" 2> "$F/kerr" &
	pushpid=$!
	for i in $(seq 200); do
		got=$(pg_q kma -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'kma-push'
			AND wait_event_type = 'Lock'")
		[ -n "$got" ] && break
		sleep 0.1
	done
	local mid=
	[ -n "$got" ] && mid=$(pg_q kma -c "SELECT count(*) FROM pg_locks WHERE pid = $got AND
		relation = 'kma_fleet.callers'::regclass")
	[ -n "$got" ] && pg_q kma -c "SELECT pg_terminate_backend($got)" > /dev/null
	wait "$pushpid"
	rc=$?
	pg_q kma -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = 'kma-locker'" > /dev/null
	wait "$lockpid"
	if [ -z "$got" ]; then
		fail "fleet: backend killed mid-push" "kma-push never waited on the lock: $(cat "$F/kerr")"
		return
	fi
	check "fleet: backend killed mid-push: it had written callers (holds its lock)" test "$mid" -ge 1
	one_line "backend killed mid-push: one line naming the server, exit 1" 1 \
		"terminating connection\|connection\|closed" "$F/kerr"
	check "fleet: ... the run is absent, no partition left" sh -c \
		"[ '$n' = \"\$(psql -X -A -t '$PG_URL' -c 'SELECT count(*) FROM kma_fleet.runs')\" ] &&
		 [ '$p' = \"\$(psql -X -A -t '$PG_URL' -c \"SELECT count(*) FROM pg_class WHERE relnamespace = 'kma_fleet'::regnamespace AND relname ~ '_r[0-9]+\\\$'\")\" ]"
	"$PUSH" "$PG_URL" "$F/kill.db" > "$F/out" 2> "$F/err"
	rc=$?
	local r
	r=$(pushed "$F/out")
	check "fleet: ... a retry succeeds" sh -c "[ $rc = 0 ] && [ -n '$r' ]"
	[ -n "$r" ] && same "retried push: callers" \
		"SELECT caller, total, net, allocs FROM kma_fleet.callers WHERE run_id = $r" \
		"SELECT caller, total, net, allocs FROM callers" "$F/kill.db"
}

# 8 pushes at once, as 8 hosts: 8 runs, each whole, nothing twice
fleet_parallel() {
	local n=$(runs) i pids= bad=0 stacks
	stacks=$(pg_q kma -c 'SELECT count(*) FROM kma_fleet.stacks')
	for i in 1 2 3 4 5 6 7 8; do
		cp "$F/stacks.db" "$F/host$i.db"
		sqlite3 "$F/host$i.db" "UPDATE trace SET file = 'host$i'"
	done
	for i in 1 2 3 4 5 6 7 8; do
		"$PUSH" -a -l host=h$i -l wave=par "$PG_URL" "$F/host$i.db" > "$F/par$i.out" 2> "$F/par$i.err" &
		pids="$pids $!"
	done
	for i in $pids; do
		wait "$i" || bad=$((bad + 1))
	done
	check "fleet: 8 pushes at once: all exit 0" sh -c "[ $bad = 0 ] || { cat '$F'/par*.err; exit 1; }"
	check "fleet: ... 8 new runs, one per host" test \
		"$(pg_q kma -c "SELECT count(*), count(DISTINCT value) FROM kma_fleet.run_labels
			WHERE key = 'wave' AND value = 'par';
			SELECT count(DISTINCT l.value) FROM kma_fleet.run_labels l WHERE l.key = 'host'
			AND l.run_id IN (SELECT run_id FROM kma_fleet.run_labels WHERE key = 'wave');
			SELECT count(*) - $n FROM kma_fleet.runs")" = "8|1
8
8"
	local want_c want_a
	want_c=$(sqlite3 "$F/stacks.db" 'SELECT count(*), sum(net) FROM callers')
	want_a=$(sqlite3 "$F/stacks.db" 'SELECT count(*) FROM alloc_rows')
	check "fleet: ... each run whole (callers, allocations), nothing duplicated" test \
		"$(pg_q kma -c "SELECT DISTINCT (SELECT count(*) || '|' || sum(net) FROM kma_fleet.callers c
			WHERE c.run_id = l.run_id) || ' ' || (SELECT count(*) FROM kma_fleet.allocations a
			WHERE a.run_id = l.run_id) FROM kma_fleet.run_labels l WHERE key = 'wave'")" \
		= "$want_c $want_a"
	check "fleet: ... the stacks they share added by none of them" test \
		"$(pg_q kma -c 'SELECT count(*) FROM kma_fleet.stacks')" = "$stacks"
	# the same file from two processes at once: one run, the other says it is there
	cp "$F/basic.db" "$F/twice.db"
	sqlite3 "$F/twice.db" "UPDATE trace SET file = 'twice'"
	n=$(runs)
	"$PUSH" "$PG_URL" "$F/twice.db" > "$F/tw1.out" 2> "$F/tw1.err" &
	i=$!
	"$PUSH" "$PG_URL" "$F/twice.db" > "$F/tw2.out" 2> "$F/tw2.err"
	rc=$?
	wait "$i" || rc=1
	check "fleet: the same file twice at once: one run, one 'already there'" sh -c "[ $rc = 0 ] &&
		[ \"\$(cat '$F/tw1.out' '$F/tw2.out' | grep -c 'pushed as run')\" = 1 ] &&
		[ \"\$(cat '$F/tw1.out' '$F/tw2.out' | grep -c 'already there as run')\" = 1 ] &&
		[ \"\$(psql -X -A -t '$PG_URL' -c 'SELECT count(*) FROM kma_fleet.runs')\" = $((n + 1)) ]"
}

# The stacks' lock held by a second session: a push whose stacks are all stored
# goes through; of two pushes of the same new stacks, both having found them
# missing before their transactions, one waits for it and the other for the
# first's partitions; once it is free, the second, asking again under the
# lock, adds none, and neither fails on a key.
fleet_turns() {
	local stacks want i lockpid pids= bad=0 got= rc3 runs_ok r1 r2
	stacks=$(pg_q kma -c 'SELECT count(*) FROM kma_fleet.stacks')
	for i in 1 2 3; do
		cp "$F/stacks.db" "$F/turn$i.db"
		sqlite3 "$F/turn$i.db" "UPDATE trace SET file = 'turn$i'"
	done
	# every named frame renamed: each stack with one is new to the store; its key no
	# longer kma-analyze's: NULL in one file (kma-push hashes the frames), the column
	# dropped in the other (a report.db written before it), the same keys from both
	for i in 1 2; do
		sqlite3 "$F/turn$i.db" "UPDATE stack_frames SET function = function || '.turn'
			WHERE function IS NOT NULL"
	done
	sqlite3 "$F/turn1.db" "UPDATE stacks SET stack_key = NULL"
	sqlite3 "$F/turn2.db" "ALTER TABLE stacks DROP COLUMN stack_key"
	want=$(sqlite3 "$F/turn1.db" "SELECT count(*) FROM stacks WHERE id IN
		(SELECT stack_id FROM stack_frames WHERE function IS NOT NULL)")
	PGAPPNAME=kma-locker psql -X -q "$PG_URL" -c "BEGIN; SELECT pg_advisory_xact_lock(1802330451);
		SELECT pg_sleep(60); COMMIT" > /dev/null 2>&1 &
	lockpid=$!
	for i in $(seq 100); do
		[ "$(pg_q kma -c "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND
			objid = 1802330451 AND granted")" = 1 ] && break
		sleep 0.1
	done
	timeout 60 "$PUSH" "$PG_URL" "$F/turn3.db" > "$F/turn3.out" 2> "$F/turn3.err"
	rc3=$?
	check "fleet: stacks' lock held: a push of stored stacks goes through" sh -c "[ $rc3 = 0 ] &&
		kill -0 $lockpid && [ -n \"\$(grep 'pushed as run' '$F/turn3.out')\" ]"
	for i in 1 2; do
		"$PUSH" "$PG_URL" "$F/turn$i.db" > "$F/turn$i.out" 2> "$F/turn$i.err" &
		pids="$pids $!"
	done
	for i in $(seq 300); do
		got=$(pg_q kma -c "SELECT (SELECT count(*) FROM pg_stat_activity WHERE
			application_name = 'kma-push' AND wait_event_type = 'Lock') || ' ' ||
			(SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND
			objid = 1802330451 AND NOT granted)")
		[ "$got" = "2 1" ] && break
		sleep 0.1
	done
	pg_q kma -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = 'kma-locker'" > /dev/null
	wait "$lockpid"
	for i in $pids; do
		wait "$i" || bad=$((bad + 1))
	done
	check "fleet: ... two pushes of new stacks waited, one for it" test "$got" = "2 1"
	check "fleet: ... then both exit 0" sh -c "[ $bad = 0 ] || { cat '$F'/turn[12].err; exit 1; }"
	check "fleet: ... their new stacks added once" test \
		"$(pg_q kma -c 'SELECT count(*) FROM kma_fleet.stacks')" = "$((stacks + want))"
	r1=$(pushed "$F/turn1.out")
	r2=$(pushed "$F/turn2.out")
	runs_ok=$(pg_q kma -c "SELECT count(*) || ' ' || count(DISTINCT run_id)
		FROM kma_fleet.run_stacks AS rs WHERE rs.run_id IN (${r1:-0}, ${r2:-0})
		AND rs.stack_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM kma_fleet.stacks AS s
		WHERE s.stack_key = rs.stack_key)")
	check "fleet: ... every stack of both runs stored" test "$runs_ok" = "0 0" -a -n "$r1" -a -n "$r2"
}

# Stacks found missing before the transaction, added by another before it takes
# the lock (free): its COPY meets their keys, and it goes on without them. The
# other is played by SQL: a push's new stacks set aside, the push of a second
# copy held at kma_fleet.timeline (written before the stacks) by a second
# session, the stacks put back, the session ended.
fleet_late() {
	local stacks want i lockpid pushpid got= r
	for i in 4 5; do
		cp "$F/stacks.db" "$F/turn$i.db"
		sqlite3 "$F/turn$i.db" "UPDATE trace SET file = 'turn$i';
			UPDATE stack_frames SET function = function || '.late' WHERE function IS NOT NULL;
			UPDATE stacks SET stack_key = NULL"
	done
	want=$(sqlite3 "$F/turn4.db" "SELECT count(*) FROM stacks WHERE id IN
		(SELECT stack_id FROM stack_frames WHERE function IS NOT NULL)")
	pg_q kma -c "CREATE TABLE late_keys AS SELECT stack_key FROM kma_fleet.stacks" > /dev/null
	stacks=$(pg_q kma -c 'SELECT count(*) FROM kma_fleet.stacks')
	"$PUSH" -q "$PG_URL" "$F/turn4.db" > /dev/null 2>&1
	pg_q kma -c "CREATE TABLE late AS SELECT * FROM kma_fleet.stacks AS s WHERE NOT EXISTS
		(SELECT 1 FROM late_keys AS k WHERE k.stack_key = s.stack_key)" \
		-c "DELETE FROM kma_fleet.stacks AS s USING late AS l WHERE s.stack_key = l.stack_key" \
		> /dev/null
	hold_timeline
	lockpid=$LOCKER
	"$PUSH" "$PG_URL" "$F/turn5.db" > "$F/turn5.out" 2> "$F/turn5.err" &
	pushpid=$!
	for i in $(seq 300); do
		got=$(pg_q kma -c "SELECT count(*) FROM pg_stat_activity WHERE
			application_name = 'kma-push' AND wait_event_type = 'Lock'")
		[ "$got" = 1 ] && break
		sleep 0.1
	done
	pg_q kma -c "INSERT INTO kma_fleet.stacks SELECT * FROM late" > /dev/null
	pg_q kma -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = 'kma-locker'" > /dev/null
	wait "$lockpid"
	wait "$pushpid"
	rc=$?
	r=$(pushed "$F/turn5.out")
	check "fleet: stacks added after the push found them missing: it waited midway" \
		test "$got" = 1
	check "fleet: ... it exits 0, its run there" sh -c "[ $rc = 0 ] && [ -n '$r' ] ||
		{ cat '$F/turn5.err'; exit 1; }"
	check "fleet: ... each of its new stacks stored once, every stack of its run there" test \
		"$(pg_q kma -c "SELECT count(*) FROM kma_fleet.stacks" -c "SELECT count(*) FROM late"
		   pg_q kma -c "SELECT count(*) FROM kma_fleet.run_stacks AS rs WHERE run_id = ${r:-0}
			AND stack_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM kma_fleet.stacks AS s
			WHERE s.stack_key = rs.stack_key)")" = "$((stacks + want))
$want
0"
	pg_q kma -c "DROP TABLE late" -c "DROP TABLE late_keys" > /dev/null
}

# The example queries of kma-fleet(5), as psql runs them with -v variables
fleet_query() {
	local q=$1
	shift
	sed -n "/^\\.\\\\\" query-begin $q\$/,/^\\.\\\\\" query-end\$/p" "$TOP/docs/kma-fleet.5" |
		sed '1d;$d' | sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g' > "$F/q-$q.sql"
	[ -s "$F/q-$q.sql" ] || echo "no query $q in kma-fleet(5)"
	psql -X -q -A -t -v ON_ERROR_STOP=1 "$PG_URL" "$@" -f "$F/q-$q.sql" 2>&1
}

fleet_queries() {
	local out
	# new call sites since the basic run: the stacks.dat sites basic.db lacks (by sqlite3)
	sqlite3 "$F/basic.db" 'SELECT caller FROM callers WHERE allocs > 0' | sort -u > "$F/b.txt"
	sqlite3 "$F/hostile.db" 'SELECT caller FROM callers WHERE allocs > 0' 2> /dev/null |
		sort -u > "$F/h.txt"
	sqlite3 "$F/stacks.db" 'SELECT caller FROM callers WHERE allocs > 0' | sort -u > "$F/s.txt"
	# runs after RUN_BASIC: stacks.db's (again and replaced), hostile, kill (basic), hosts
	# (stacks); runs up to it: the first stacks.dat run (dropped by --replace) and basic
	sort -u "$F/s.txt" "$F/h.txt" | comm -23 - "$F/b.txt" > "$F/new.want"
	fleet_query new-sites -v since="$RUN_BASIC" > "$F/new.got"
	check "fleet: kma-fleet(5) new-sites: the call sites after run X and in none before" \
		sh -c "[ -s '$F/new.want' ] && cmp '$F/new.want' '$F/new.got'"
	# a stack's bytes across kernel releases: the pushes of stacks.dat's stacks, by sqlite3
	local folded want k
	folded=$(sqlite3 "$F/stacks.db" "SELECT folded FROM stack_stats WHERE folded <> '[no stack]'
		ORDER BY net DESC, folded LIMIT 1")
	k=$(pg_q kma -c "SELECT count(*) FROM kma_fleet.runs WHERE kernel_release =
		(SELECT kernel_release FROM kma_fleet.runs WHERE run_id = $RUN_STACKS)
		AND run_id IN (SELECT run_id FROM kma_fleet.run_stacks)")
	want=$(sqlite3 "$F/stacks.db" "SELECT kernel_release || '|' || (SELECT sum(total) * $k
		FROM stack_stats WHERE folded = '$(printf '%s' "$folded" | sed "s/'/''/g")') || '|' ||
		(SELECT sum(net) * $k FROM stack_stats WHERE folded = '$(printf '%s' "$folded" | sed "s/'/''/g")')
		FROM trace")
	out=$(fleet_query stack-releases -v folded="$folded" | cut -d'|' -f1-3)
	check "fleet: kma-fleet(5) stack-releases: the stack's bytes, $k runs of its release" \
		test "$out" = "$want"
	# top growing per label value: with the stacks.dat runs of host h1..h8 (one each)
	# nothing grows; group=web: the stacks.dat run and basic.db
	# group=web: basic.db, then the stacks.dat run (replaced after it): a site of both
	# grew by its stacks.dat net minus its basic.db net
	fleet_query top-growing -v key=wave -v n=5 > "$F/top.got"
	sqlite3 "$F/stacks.db" "SELECT 'par', caller, sum(net), sum(net), 0, 5 FROM callers GROUP BY caller
		ORDER BY caller LIMIT 20" > "$F/top.want"
	check "fleet: kma-fleet(5) top-growing: 8 identical runs, last 5: growth 0" \
		cmp "$F/top.want" "$F/top.got"
	fleet_query top-growing -v key=group -v n=5 > "$F/top.got"
	fleet_top_want > "$F/top.want"
	check "fleet: kma-fleet(5) top-growing: group=web, stacks.dat then basic.db" \
		cmp "$F/top.want" "$F/top.got"
	out=$(fleet_query host-runs -v host=vm)
	check "fleet: kma-fleet(5) host-runs: every run of host vm" test \
		"$(printf '%s\n' "$out" | grep -c .)" = "$(pg_q kma -c "SELECT count(*) FROM kma_fleet.runs WHERE host = 'vm'")"
	local n p
	n=$(runs)
	out=$(fleet_query drop-old -v age='0 seconds')
	check "fleet: kma-fleet(5) drop-old: every run dropped, with its partitions" sh -c "[ '$n' -gt 0 ] &&
		[ \"\$(psql -X -A -t '$PG_URL' -c 'SELECT count(*) FROM kma_fleet.runs')\" = 0 ] &&
		[ \"\$(psql -X -A -t '$PG_URL' -c \"SELECT count(*) FROM pg_class WHERE relnamespace = 'kma_fleet'::regnamespace AND relname ~ '_r[0-9]+\\\$'\")\" = 0 ]"
}

# top-growing's rows for group=web worked out by sqlite3 over the two report.db files
fleet_top_want() {
	sqlite3 "$F/basic.db" "ATTACH '$F/stacks.db' AS s;
		WITH a AS (SELECT caller, sum(net) AS net FROM main.callers GROUP BY 1),
		b AS (SELECT caller, sum(net) AS net FROM s.callers GROUP BY 1)
		SELECT 'web', a.caller, a.net, b.net, b.net - a.net, 2 FROM a JOIN b USING (caller)
		ORDER BY b.net - a.net DESC, 'web', a.caller LIMIT 20"
}

# A run of more allocation rows than one thread counts (kma-push counts two halves of
# alloc_rows at once above 200000, tests/fleet/split.py): every table against the
# report.db's own views, and pushed again (--replace) with the same stack keys
fleet_split() {
	local r before
	python3 "$TOP/tests/fleet/split.py" > "$F/split.seq"
	if ! "$MKTRACE" -o "$F/split.dat" "$F/split.seq" > "$F/mk.txt" 2>&1 ||
		! "$KMA" -q -o "$F/split.db" "$F/split.dat"; then
		fail "fleet: a run of 260000 allocations made" "$(tail -2 "$F/mk.txt")"
		return
	fi
	check "fleet: the split run has more than 200000 allocation rows" test \
		"$(sqlite3 "$F/split.db" 'SELECT count(*) > 200000 FROM alloc_rows')" = 1
	"$PUSH" "$PG_URL" "$F/split.db" > "$F/out" 2> "$F/err"
	rc=$?
	r=$(pushed "$F/out")
	check "fleet: a run of 260000 allocation rows pushed" sh -c "[ $rc = 0 ] && [ -n '$r' ]"
	[ -n "$r" ] || return
	rows_match "$r" "$F/split.db" "split.db (from its totals tables)"
	before=$(pg_q kma -c 'SELECT count(*) FROM kma_fleet.stacks')
	"$PUSH" -q --replace "$PG_URL" "$F/split.db" > "$F/out" 2> "$F/err"
	rc=$?
	r=$(pg_q kma -c 'SELECT max(run_id) FROM kma_fleet.runs')
	check "fleet: the split run replaced, no stack added (the same keys)" sh -c "[ $rc = 0 ] &&
		[ '$before' = \"\$(psql -X -A -t '$PG_URL' -c 'SELECT count(*) FROM kma_fleet.stacks')\" ]"
	rows_match "$r" "$F/split.db" "split.db replaced"
	# a file written before the totals tables: its rows counted by two threads
	fleet_old_v7 "$F/split.db" "$r" split
}

# kma-push(1) documents every option of --help
fleet_man() {
	local missing= o
	"$PUSH" --help > "$F/help.txt"
	for o in $(grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' "$F/help.txt" | grep -oE -- '--[a-z-]+'); do
		groff -man -Tascii -P-cbu "$TOP/docs/kma-push.1" 2> /dev/null | grep -q -- "$o" ||
			missing="$missing $o"
	done
	check "fleet: kma-push(1) has every option of --help" test -z "$missing"
	check "fleet: kma-push(1) and kma-fleet(5) render without warnings" sh -c \
		"groff -man -Tutf8 -ww -z '$TOP/docs/kma-push.1' 2>&1 | (! grep .) &&
		 groff -man -Tutf8 -ww -z '$TOP/docs/kma-fleet.5' 2>&1 | (! grep .)"
	check "fleet: kma-fleet(5) has a section for every table" sh -c "
		for t in \$(sed -n 's/^CREATE TABLE kma_fleet\\.\\([a-z_]*\\).*/\\1/p' '$TOP/schema/fleet.sql'); do
			grep -q \"^\\.SS \$t\$\" '$TOP/docs/kma-fleet.5' || { echo \$t; exit 1; }
		done"
}

fleet_main
