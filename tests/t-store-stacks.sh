# report.db's call stacks (schema version 3): tables stacks and stack_frames, the stack ids
# of allocations and unknown_frees, the view stack_stats. On a trace with kernel_stack
# events, the per-stack numbers are checked against an independent pairing of trace-cmd
# report's text (below: never kma's output), and the tables against each other; on a trace
# without stacks, everything is the one '[no stack]' row.

# A trace with stacks: $KMA_STACKS_DAT (to run the checks on another recording, e.g.
# a big one), else the recorded fixture tests/fixtures/stacks.dat; copied.
STK=
for f in "${KMA_STACKS_DAT:-}" "$TOP/tests/fixtures/stacks.dat"; do
	if [ -n "$f" ] && [ -f "$f" ]; then
		cp "$f" "$TMP/stacks.dat" && STK=$TMP/stacks.dat
		break
	fi
done

# The independent expectation: per folded stack (functions outermost first joined by ';')
# the allocations, bytes_alloc, slack, live bytes, traced frees and implicit frees, from
# `trace-cmd report` alone. A kmem event takes the kernel_stack record that comes next on
# its CPU unless events were lost in between; the frames up to the innermost tracing
# frame are dropped.
stack_expect() {
	trace-cmd report -i "$1" 2> /dev/null | python3 -c '
import re, sys
EV = re.compile(r"\[(\d+)\]\s+\d+\.\d+:\s+(\w+):\s*(.*)$")
FR = re.compile(r"^=> (\S+)(?: \([0-9a-f]+\))?\s*$")
DROP = re.compile(r"^CPU:(\d+) \[(?:\d+ )?EVENTS DROPPED\]")
TRACING = ("trace_event_raw_event_", "ftrace_raw_event_", "perf_trace_")
ALLOCS = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
FREES = {"kfree", "kmem_cache_free"}
events = []                 # [name, fields, frames or None]
last = {}                   # cpu -> index of its last record in events
cur = None                  # the kernel_stack record whose frames follow
for line in sys.stdin:
    m = FR.match(line)
    if m:
        # an address no symbol covers: printed bare, named 0x<hex> by kma
        f = m.group(1)
        if line.rstrip().endswith(")") is False and re.fullmatch(r"[0-9a-f]+", f):
            f = "0x%x" % int(f, 16)
        if cur is not None:
            cur.append(f)
        continue
    cur = None
    m = DROP.match(line)
    if m:
        # events lost on the CPU: the record after it pairs with nothing before
        last[int(m.group(1))] = None
        continue
    m = EV.search(line)
    if not m:
        continue
    cpu, name, rest = m.groups()
    cpu = int(cpu)
    prev = last.get(cpu)
    cur = None
    if name == "kernel_stack":
        if prev is not None and events[prev][0] in ALLOCS | FREES and events[prev][2] is None:
            events[prev][2] = cur = []
        last[cpu] = None
        continue
    fields = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
    events.append([name, fields, None])
    last[cpu] = len(events) - 1

def folded(frames):
    if frames is None:
        return "[no stack]"
    cut = 0
    for i, f in enumerate(frames):
        if f.startswith(TRACING):
            cut = i + 1
    kept = frames[cut:]
    return ";".join(reversed(kept)) if kept else "[no stack]"

def ptr(s):
    return 0 if s in ("(nil)", "0") else int(s, 16)

st = {}                     # folded -> [allocs, total, slack, net, frees, implicit]
live = {}                   # ptr -> (folded, bytes_alloc)
for name, f, frames in events:
    if name in ALLOCS:
        p = ptr(f["ptr"])
        if p == 0:
            continue
        k, b = folded(frames), int(f["bytes_alloc"])
        if p in live:
            st[live[p][0]][5] += 1
            st[live[p][0]][3] -= live[p][1]
        s = st.setdefault(k, [0, 0, 0, 0, 0, 0])
        s[0] += 1; s[1] += b; s[2] += max(b - int(f["bytes_req"]), 0); s[3] += b
        live[p] = (k, b)
    elif name in FREES:
        p = ptr(f["ptr"])
        if p in live:
            k, b = live.pop(p)
            st[k][4] += 1
            st[k][3] -= b
for k in sorted(st):
    print(k, *st[k])
'
}

if [ -z "$STK" ]; then
	skip "report.db stacks on a recorded trace" "no tests/fixtures/stacks.dat"
elif ! "$KMA" -q -o "$TMP/s.db" "$STK" 2> "$TMP/err.txt"; then
	fail "report.db stacks: kma-analyze" "$(cat "$TMP/err.txt")"
else
	D=$TMP/s.db
	q() { sqlite3 -batch "$D" "$1"; }
	check "stacks: schema version 7 (stacks since 3)" test "$(q 'PRAGMA user_version')" = 7
	check "stacks: the trace has stacks" test "$(q 'SELECT COUNT(*) > 0 FROM stacks')" = 1
	check "stack_stats = trace-cmd report paired by hand, per folded stack" test \
		"$(q "SELECT folded, SUM(allocs), SUM(total), SUM(slack), SUM(net), SUM(frees),
			     SUM(implicit_frees) FROM stack_stats GROUP BY folded" |
		   tr '|' ' ' | LC_ALL=C sort)" = "$(stack_expect "$STK" | LC_ALL=C sort)"
	check "stack_stats sums = summary (total, slack, net, allocs, implicit_frees), frees = matched_frees" \
		test "$(q "SELECT SUM(total), SUM(slack), SUM(net), SUM(allocs), SUM(frees),
			     SUM(implicit_frees), SUM(live) FROM stack_stats")" = \
		"$(q "SELECT s.total, s.slack, s.net, s.allocs, t.matched_frees, s.implicit_frees,
			     (SELECT SUM(live) FROM callers) FROM summary AS s CROSS JOIN trace AS t")"
	check "stack_stats: one row per stack id, NULL only for [no stack]" test \
		"$(q "SELECT COUNT(*) = COUNT(DISTINCT COALESCE(stack_id, 0))
			AND SUM(stack_id IS NULL) <= 1
			AND SUM((stack_id IS NULL) <> (folded = '[no stack]')) = 0 FROM stack_stats")" = 1
	check "every stack id of allocations and unknown_frees is a stacks row" test \
		"$(q "SELECT (SELECT COUNT(*) FROM allocations WHERE stack_id NOT IN (SELECT id FROM stacks)
				OR free_stack_id NOT IN (SELECT id FROM stacks))
			   + (SELECT COUNT(*) FROM unknown_frees
				WHERE stack_id NOT IN (SELECT id FROM stacks))")" = 0
	check "free_stack_id only on traced frees; stack ids never 0" test \
		"$(q "SELECT COUNT(*) FROM allocations WHERE (free_stack_id IS NOT NULL
			AND COALESCE(free_kind, '') NOT IN ('kfree', 'kmem_cache_free')) OR stack_id = 0
			OR free_stack_id = 0")" = 0
	check "stack_frames: depth runs 0 .. stacks.depth - 1 per stack" test \
		"$(q "SELECT COUNT(*) FROM stacks AS s LEFT JOIN (SELECT stack_id, COUNT(*) AS n,
			MIN(depth) AS lo, MAX(depth) AS hi FROM stack_frames GROUP BY stack_id) AS f
			ON f.stack_id = s.id WHERE s.depth < 1 OR f.n IS NOT s.depth OR f.lo IS NOT 0
			OR f.hi IS NOT s.depth - 1")-$(q "SELECT COUNT(*) FROM stack_frames
			WHERE stack_id NOT IN (SELECT id FROM stacks)")" = 0-0
	# folded is the frames' functions from the outermost (highest depth) in
	check "stacks.folded = stack_frames' functions, outermost first" test \
		"$(q "SELECT COUNT(*) FROM stacks AS s WHERE folded IS NOT (SELECT
			group_concat(COALESCE(function, address), ';') FROM (SELECT function, address
			FROM stack_frames WHERE stack_id = s.id ORDER BY depth DESC))")" = 0
	check "stacks: ids 1..n, hash '0x<hex>', distinct address sequences" test \
		"$(q "SELECT COUNT(*) = MAX(id) AND MIN(id) = 1 AND SUM(hash NOT GLOB '0x[0-9a-f]*'
			OR hash GLOB '0x*[^0-9a-f]*') = 0 FROM stacks")-$(q "SELECT COUNT(*) - COUNT(DISTINCT a)
			FROM (SELECT group_concat(address, ',') AS a FROM (SELECT stack_id, address
			FROM stack_frames ORDER BY stack_id, depth) GROUP BY stack_id)")" = 1-0
	check "stack_frames: '0x<hex>' addresses, function and offset NULL together" test \
		"$(q "SELECT COUNT(*) FROM stack_frames WHERE (function IS NULL) <> (offset IS NULL)
			OR address NOT GLOB '0x[1-9a-f]*' OR address GLOB '0x*[^0-9a-f]*'")" = 0
	# a frame at a call site's address is named as the callers table names it
	check "stack_frames named as callers at the same address" test \
		"$(q "SELECT COUNT(*) FROM stack_frames AS f JOIN callers AS c ON c.address = f.address
			WHERE c.symbol IS NOT f.function OR c.offset IS NOT f.offset")" = 0
	check "-f folded --weight bytes = stack_stats by folded" test \
		"$("$KMA" --no-db -f folded "$STK" 2>&1)" = \
		"$(q "SELECT folded || ' ' || SUM(total) FROM stack_stats GROUP BY folded
			HAVING SUM(total) > 0" | LC_ALL=C sort)"
	check "-f folded --weight net = stack_stats by folded" test \
		"$("$KMA" --no-db -f folded --weight net "$STK" 2>&1)" = \
		"$(q "SELECT folded || ' ' || SUM(net) FROM stack_stats GROUP BY folded
			HAVING SUM(net) > 0" | LC_ALL=C sort)"
	check "stacks: the version 2 views keep their columns, stack ids appended (then kind)" test \
		"$(q "SELECT group_concat(name, ',') FROM pragma_table_info('allocations')
			WHERE cid >= 21")|$(q "SELECT group_concat(name, ',')
			FROM pragma_table_info('unknown_frees') WHERE cid >= 8")" = \
		"free_kind,stack_id,free_stack_id,kind|free_kind,stack_id"
fi

# Without kernel_stack events: every allocation under the one '[no stack]' row.
for f in basic markers; do
	"$KMA" -q -o "$TMP/$f.db" "$TOP/tests/fixtures/$f.dat"
	check "no stacks ($f): only the [no stack] row, with the summary's totals" test \
		"$(sqlite3 "$TMP/$f.db" "SELECT COUNT(*), stack_id IS NULL, folded, total, slack, net,
			allocs, frees FROM stack_stats")" = \
		"$(sqlite3 "$TMP/$f.db" "SELECT 1, 1, '[no stack]', s.total, s.slack, s.net, s.allocs,
			t.matched_frees FROM summary AS s CROSS JOIN trace AS t")"
	check "no stacks ($f): stacks and stack_frames empty, every stack id NULL" test \
		"$(sqlite3 "$TMP/$f.db" "SELECT (SELECT COUNT(*) FROM stacks)
			+ (SELECT COUNT(*) FROM stack_frames)
			+ (SELECT COUNT(*) FROM alloc_shapes WHERE stack_id IS NOT NULL
				OR free_stack_id IS NOT NULL)
			+ (SELECT COUNT(*) FROM unknown_free_rows WHERE stack_id IS NOT NULL)")" = 0
done
