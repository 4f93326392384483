# --cross-cpu: frees on another CPU than the allocation and perf kmem's cross allocations
# (an allocation asking for a node, made on a CPU of another node), per caller. The
# numbers of tests/gen/cross-node.seq and cross-cpu.seq are worked out by hand in their
# comments and below; on the recorded fixtures the CPU columns must agree with report.db's
# cross_cpu_stats view (SQL over alloc_rows, not kma's report code).
MK=$TOP/$B/tests/tools/mktrace
GEN=$TOP/tests/gen

# cross_ok NAME SEQ GEN WANT KMA-ARGS...: the CSV rows and the text summary lines
cross_ok() {
	local name=$1 seq=$2 gen=$3 want=$4
	shift 4
	if ! "$MK" -g "$gen" -o "$TMP/c.dat" "$seq" > "$TMP/err.txt" 2>&1; then
		fail "$name: mktrace" "$(cat "$TMP/err.txt")"
		return
	fi
	{ "$KMA" --no-db --cross-cpu -f csv "$@" "$TMP/c.dat" &&
	  "$KMA" --no-db --cross-cpu "$@" "$TMP/c.dat" | grep -E '^(Cross CPU|Node checks|\()'
	} > "$TMP/got.txt" 2> "$TMP/err.txt"
	if [ -s "$TMP/err.txt" ] || ! diff -u "$want" "$TMP/got.txt" > "$TMP/diff.txt"; then
		fail "$name" "$(cat "$TMP/err.txt" "$TMP/diff.txt")"
	else
		pass "$name"
	fi
}

# cross-node.seq, map from its kma-topology: marker (CPUs 0-1 node 0, 2-3 node 1).
# alloc_a: ptr1 CPU 0 -> 1 (cross free), asks node 0 on node 0; ptr2 CPU 2 -> 2, asks
#   node 0 on node 1 (cross): allocs 2, frees 2, cross 1 (50.0), node 2, cross_node 1
# alloc_b: ptr3 CPU 3 -> 0 (cross free), node 1 on node 1; ptr4 live, node 1 on node 0
#   (cross): allocs 2, frees 1, cross 1 (100.0), node 2, cross_node 1
# alloc_c: ptr5 CPU 1 -> 1, no node; ptr6 node -1 (no request), live; ptr7 node 0 on
#   CPU 3 = node 1 (cross), implicitly freed; ptr7 again, no node, live:
#   allocs 4, frees 1, cross 0 (0.0), node 1, cross_node 1
# sorted by total (208, 96, 56); frees 2/4, cross allocations 3 of all 8 allocations
cat > "$TMP/want-map.txt" <<'W'
allocs,frees,cross_frees,cross_pct,node_allocs,cross_node,caller
2,1,1,100.0,2,1,alloc_b+0x20
2,2,1,50.0,2,1,alloc_a+0x10
4,1,0,0.0,1,1,alloc_c+0x30
Cross CPU frees: 2/4 (50.0%)
Cross CPU allocations: 3/8
W
# every kmem format: before 6.1 a node= allocation is a *_node event, after it the plain one
for g in 5.10 6.0 6.1 6.18; do
	cross_ok "cross-node.seq $g: map from the trace" "$GEN/cross-node.seq" "$g" \
		"$TMP/want-map.txt"
done

# --cpu-nodes 0-3=0 overrides the marker: every CPU on node 0, so only the node 1
# requests cross: ptr3 and ptr4 (alloc_b); 2 of 8
cat > "$TMP/want-one.txt" <<'W'
allocs,frees,cross_frees,cross_pct,node_allocs,cross_node,caller
2,1,1,100.0,2,2,alloc_b+0x20
2,2,1,50.0,2,0,alloc_a+0x10
4,1,0,0.0,1,0,alloc_c+0x30
Cross CPU frees: 2/4 (50.0%)
Cross CPU allocations: 2/8
W
cross_ok "--cpu-nodes 0-3=0 wins over the marker" "$GEN/cross-node.seq" 6.18 \
	"$TMP/want-one.txt" --cpu-nodes 0-3=0

# --cpu-nodes 0=0,2-3=1: CPU 1 is in no node, so ptr4 (alloc_b, CPU 1) is neither cross
# nor not: counted apart; ptr2 and ptr7 cross as with the marker
cat > "$TMP/want-hole.txt" <<'W'
allocs,frees,cross_frees,cross_pct,node_allocs,cross_node,caller
2,1,1,100.0,2,0,alloc_b+0x20
2,2,1,50.0,2,1,alloc_a+0x10
4,1,0,0.0,1,1,alloc_c+0x30
Cross CPU frees: 2/4 (50.0%)
Cross CPU allocations: 2/8
(1 allocations asking for a node were made on CPUs the map does not name)
W
cross_ok "--cpu-nodes with a CPU left out" "$GEN/cross-node.seq" 6.18 \
	"$TMP/want-hole.txt" --cpu-nodes 0=0,2-3=1

# a filter and -n: only alloc_a, its own summary
cat > "$TMP/want-filter.txt" <<'W'
allocs,frees,cross_frees,cross_pct,node_allocs,cross_node,caller
2,2,1,50.0,2,1,alloc_a+0x10
Cross CPU frees: 1/2 (50.0%)
Cross CPU allocations: 1/2
W
cross_ok "--caller alloc_a" "$GEN/cross-node.seq" 6.18 "$TMP/want-filter.txt" \
	--caller alloc_a
# -s allocs -n 1: alloc_c (4 allocations) only; the summary is of every row
cat > "$TMP/want-n.txt" <<'W'
allocs,frees,cross_frees,cross_pct,node_allocs,cross_node,caller
4,1,0,0.0,1,1,alloc_c+0x30
Cross CPU frees: 2/4 (50.0%)
Cross CPU allocations: 3/8
W
cross_ok "-s allocs -n 1" "$GEN/cross-node.seq" 6.18 "$TMP/want-n.txt" -s allocs -n 1
# -g function: the call sites' functions, one per site here
sed 's/+0x[0-9a-f]*$//' "$TMP/want-map.txt" | sed '1s/caller$/function/' > "$TMP/want-fn.txt"
cross_ok "-g function" "$GEN/cross-node.seq" 6.18 "$TMP/want-fn.txt" -g function

# cross-cpu.seq has no marker (one-node machines and old recordings): no node columns,
# said once. alloc_a: CPU 0 -> 1 and 1 -> 0; alloc_b: CPU 1 -> 0; alloc_c: CPU 0 -> 1
# (same timestamp): every free is cross, 4/4
cat > "$TMP/want-nomap.txt" <<'W'
allocs,frees,cross_frees,cross_pct,node_allocs,caller
1,1,1,100.0,0,alloc_c+0x30
1,1,1,100.0,0,alloc_b+0x20
2,2,2,100.0,0,alloc_a+0x10
Node checks need a CPU -> node map (kma-record writes one; --cpu-nodes gives one): none here.
Cross CPU frees: 4/4 (100.0%)
W
cross_ok "no map: CPU columns only" "$GEN/cross-cpu.seq" 6.18 "$TMP/want-nomap.txt"

# JSON: the summary numbers in the head
"$MK" -o "$TMP/c.dat" "$GEN/cross-node.seq" > /dev/null 2>&1
check "-f json: summary members" python3 -c '
import json, sys
d = json.load(sys.stdin)
want = {"report": "cross-cpu", "node_map": True, "frees": 4, "cross_frees": 2, "allocs": 8,
        "node_allocs": 5, "cross_allocs": 3}
got = {k: d[k] for k in want}
assert got == want, got
assert [r["cross_node"] for r in d["rows"]] == [1, 1, 1], d["rows"]
' < <("$KMA" --no-db --cross-cpu -f json "$TMP/c.dat")

# the marker is no generation: the trace has generation 0 only
check "the topology marker starts no generation" \
	bash -c "\"$KMA\" --no-db --generations -f csv \"$TMP/c.dat\" | [ \$(wc -l) -eq 2 ]"

# usage errors: exit 2
for a in "--cpu-nodes 0-3" "--cross-cpu --cpu-nodes 3-1=0" "--cross-cpu --cpu-nodes 0-3" \
	 "--cross-cpu --pages" "--cross-cpu --leaks" "--cross-cpu --outstanding" \
	 "--cross-cpu -f folded"; do
	# shellcheck disable=SC2086
	"$KMA" --no-db $a "$TMP/c.dat" > /dev/null 2>&1
	check "usage error: $a" test $? -eq 2
done

# the recorded fixtures: per caller, frees and cross-CPU frees as report.db's
# cross_cpu_stats view counts them (traced frees only)
for f in basic markers stacks; do
	fx=$TOP/tests/fixtures/$f.dat
	[ -f "$fx" ] || continue
	if "$KMA" -q -o "$TMP/f.db" "$fx" 2> "$TMP/err.txt" &&
	   "$KMA" --no-db --cross-cpu -f csv "$fx" > "$TMP/f.csv" 2>> "$TMP/err.txt"; then
		check "$f.dat: frees and cross-CPU frees = report.db cross_cpu_stats" \
			python3 - "$TMP/f.db" "$TMP/f.csv" <<'PY'
import csv, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
want = {c: (f, x) for c, f, x in db.execute(
    "SELECT caller, frees, cross_cpu_frees FROM cross_cpu_stats")}
got = {r["caller"]: (int(r["frees"]), int(r["cross_frees"]))
       for r in csv.DictReader(open(sys.argv[2])) if int(r["frees"])}
assert want, "no frees in the fixture"
assert got == want, (sorted(set(got.items()) ^ set(want.items()))[:10])
PY
	else
		fail "$f.dat: --cross-cpu" "$(cat "$TMP/err.txt")"
	fi
done

# report.db: cpu_nodes and cross_node_stats, worked by hand as above (cross-node.seq's
# marker: alloc_a 2 asking, 1 cross; alloc_b 2, 1; alloc_c 1, 1; none unmapped), the
# --cpu-nodes hole (CPU 1 unnamed: alloc_b's ptr4 unmapped), and no rows without a map
"$MK" -o "$TMP/c.dat" "$GEN/cross-node.seq" > /dev/null 2>&1
db_ok() {	# NAME WANT SQL KMA-ARGS...
	local name=$1 want=$2 sql=$3 got
	shift 3
	if ! "$KMA" -q -o "$TMP/x.db" "$@" 2> "$TMP/err.txt"; then
		fail "$name" "$(cat "$TMP/err.txt")"
		return
	fi
	got=$(sqlite3 "$TMP/x.db" "$sql" | tr '\n' ' ')
	if [ "$got" = "$want" ]; then pass "$name"; else fail "$name" "got '$got', want '$want'"; fi
}
NODE_SQL="SELECT caller, node_allocs, cross_node, unmapped FROM cross_node_stats ORDER BY caller"
db_ok "report.db cpu_nodes from the marker" "0|0 1|0 2|1 3|1 " \
	"SELECT cpu, node FROM cpu_nodes ORDER BY cpu" "$TMP/c.dat"
db_ok "report.db cross_node_stats from the marker" \
	"alloc_a+0x10|2|1|0 alloc_b+0x20|2|1|0 alloc_c+0x30|1|1|0 " "$NODE_SQL" "$TMP/c.dat"
db_ok "report.db cross_node_stats, --cpu-nodes 0=0,2-3=1" \
	"alloc_a+0x10|2|1|0 alloc_b+0x20|2|0|1 alloc_c+0x30|1|1|0 " "$NODE_SQL" \
	--cpu-nodes 0=0,2-3=1 "$TMP/c.dat"
"$MK" -o "$TMP/n.dat" "$GEN/cross-cpu.seq" > /dev/null 2>&1
db_ok "report.db without a map: cpu_nodes and cross_node_stats empty" "0 0 " \
	"SELECT COUNT(*) FROM cpu_nodes UNION ALL SELECT COUNT(*) FROM cross_node_stats" \
	"$TMP/n.dat"

# a recorded fixture with a two-node map by hand: --cross-cpu's node columns = the view's
fx=$TOP/tests/fixtures/stacks.dat
if [ -f "$fx" ] && "$KMA" -q --cpu-nodes 0=0,1=1 -o "$TMP/f.db" "$fx" 2> "$TMP/err.txt" &&
   "$KMA" --no-db --cross-cpu --cpu-nodes 0=0,1=1 -f csv "$fx" > "$TMP/f.csv" 2>> "$TMP/err.txt"
then
	check "stacks.dat --cpu-nodes 0=0,1=1: node columns = report.db cross_node_stats" \
		python3 - "$TMP/f.db" "$TMP/f.csv" <<'PY'
import csv, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
want = {c: (n, x) for c, n, x in db.execute(
    "SELECT caller, node_allocs, cross_node FROM cross_node_stats")}
got = {r["caller"]: (int(r["node_allocs"]), int(r["cross_node"]))
       for r in csv.DictReader(open(sys.argv[2])) if int(r["node_allocs"])}
assert got == want, (sorted(set(got.items()) ^ set(want.items()))[:10])
print(len(want), "callers asking for a node")
PY
else
	fail "stacks.dat --cpu-nodes" "$(cat "$TMP/err.txt")"
fi

# a topology marker kma cannot read: one warning naming the file, no node columns
sed 's/^marker 0 500 100 kma-topology: .*/marker 0 500 100 kma-topology: cpu 0-1 on node 0/' \
	"$GEN/cross-node.seq" > "$TMP/bad.seq"
"$MK" -o "$TMP/bad.dat" "$TMP/bad.seq" > /dev/null 2>&1
"$KMA" --no-db --cross-cpu -f csv "$TMP/bad.dat" > "$TMP/bad.csv" 2> "$TMP/bad.err"
check "a marker not understood: one warning, CPU columns only" \
	bash -c "[ \$(wc -l < '$TMP/bad.err') = 1 ] &&
		 grep -q '^kma-analyze: $TMP/bad.dat: warning: CPU -> node marker not understood' '$TMP/bad.err' &&
		 head -1 '$TMP/bad.csv' | grep -qx 'allocs,frees,cross_frees,cross_pct,node_allocs,caller'"

# Independent of kma's pairing: tests/tools/cross-from-report.py pairs the events of
# `trace-cmd report` by pointer itself. Every column, per call site, on the recorded
# fixtures with a two-node map given by hand, and on cross-node.seq with its marker.
IND=$TOP/tests/tools/cross-from-report.py
sorted_csv() {	# kma's CSV in the script's column order, by caller
	python3 -c '
import csv, sys
rows = sorted(csv.DictReader(sys.stdin), key=lambda r: r["caller"])
k = ("allocs", "frees", "cross_frees", "node_allocs", "cross_node", "caller")
print(",".join(k))
for r in rows:
    print(",".join(r[c] for c in k))'
}
if command -v trace-cmd > /dev/null; then
	for f in "$TOP/tests/fixtures/basic.dat" "$TOP/tests/fixtures/stacks.dat" \
		 "$TOP/tests/fixtures/markers.dat" "$TMP/c.dat"; do
		[ -f "$f" ] || continue
		map=0=0,1=1
		[ "$f" = "$TMP/c.dat" ] && map=
		# shellcheck disable=SC2086
		trace-cmd report -i "$f" 2> /dev/null | python3 "$IND" $map > "$TMP/ind.csv"
		# shellcheck disable=SC2086
		"$KMA" --no-db --cross-cpu ${map:+--cpu-nodes $map} -f csv "$f" 2> "$TMP/err.txt" |
			sorted_csv > "$TMP/kma.csv"
		if [ -s "$TMP/err.txt" ] || [ "$(wc -l < "$TMP/ind.csv")" -lt 2 ] ||
		   ! diff -u "$TMP/ind.csv" "$TMP/kma.csv" > "$TMP/diff.txt"; then
			fail "$(basename "$f"): --cross-cpu = trace-cmd report by script" \
				"$(head -20 "$TMP/err.txt" "$TMP/diff.txt")"
		else
			pass "$(basename "$f"): --cross-cpu = trace-cmd report by script"
		fi
	done
else
	skip "--cross-cpu = trace-cmd report by script" "trace-cmd is not installed"
fi
