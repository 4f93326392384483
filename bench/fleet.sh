#!/usr/bin/env bash
# fleet.sh - the fleet store's speed (kma-fleet(5)) on a private PostgreSQL 15 cluster
# (tests/lib-pg.sh: initdb in a temporary directory, a Unix socket, fsync off), one
# section per command; part of make bench (make bench-fleet alone).
#
# Usage: bench/fleet.sh            (as root: the cluster runs as the postgres user)
#
# Environment:
#   KMA_ANALYZE, KMA_PUSH, KMA_TREND   the programs (default: build/analyzer/...)
#   MKTRACE       tests/tools/mktrace (default build/tests/tools/mktrace)
#   BENCH_CSV=F   the rows are appended to F as CSV (section,what,seconds,limit,verdict)
#   BENCH_RUNS=N  timed runs, best kept (default 3)
#
# trend: 30 runs of 100k allocations each (mktrace: 1000 call sites, 2 CPUs, half the
# allocations freed at once; every tenth call site keeps 100 more allocations each
# run, so that the series move), analyzed and pushed, then kma-trend over all 30,
# -k caller and -k function, text to /dev/null: best wall time, limit 2 s. The traces
# are cached as bench/fleet-trend-NN.dat (git-ignored); delete them to make them again.
#
# Exit status: 0, or 1 when the setup fails or a row is over its limit.

set -euo pipefail

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$BENCH_DIR/.." && pwd)
ANALYZE=${KMA_ANALYZE:-$TOP/build/analyzer/kma-analyze}
PUSH=${KMA_PUSH:-$(dirname "$ANALYZE")/kma-push}
TREND=${KMA_TREND:-$(dirname "$ANALYZE")/kma-trend}
MKTRACE=${MKTRACE:-$TOP/build/tests/tools/mktrace}
RUNS=${BENCH_RUNS:-3}
FAILED=0

ms() { local t=${1/./}; echo $((10#$t / 1000)); }
. "$TOP/tests/lib-pg.sh"

# row SECTION WHAT SECONDS LIMIT: one line, and the CSV row
row() {
	local verdict=ok
	if awk -v s="$3" -v l="$4" 'BEGIN { exit !(s > l) }'; then
		verdict=OVER
		FAILED=1
	fi
	printf '%-8s %-52s %8s s  (limit %s s) %s\n' "$1" "$2" "$3" "$4" "$verdict"
	[ -z "${BENCH_CSV:-}" ] || printf '%s,%s,%s,%s,%s\n' "$1" "$2" "$3" "$4" "$verdict" \
		>> "$BENCH_CSV"
}

# best_of CMD...: the best wall time of $RUNS runs of CMD, in seconds
best_of() {
	local best= i t0 t1 s
	for ((i = 0; i < RUNS; i++)); do
		t0=$EPOCHREALTIME
		"$@" > /dev/null
		t1=$EPOCHREALTIME
		s=$(( $(ms "$t1") - $(ms "$t0") ))
		[ -z "$best" ] || [ "$s" -lt "$best" ] && best=$s
	done
	printf '%d.%03d' $((best / 1000)) $((best % 1000))
}

# trend_trace N: bench/fleet-trend-N.dat, made when missing
trend_trace() {
	local out=$BENCH_DIR/fleet-trend-$1.dat
	[ -s "$out" ] && return 0
	python3 - "$1" > "$WORK/t.seq" <<'PYEOF'
import sys
run, nc = int(sys.argv[1]), 1000
L = ["cpus 2", "uname Linux bench%02d 6.18.0 x86_64" % run,
     "kallsyms ffffffff81000000 T _stext"]
L += ["kallsyms %x t site_%04d" % (0xffffffff81100000 + i * 0x100, i) for i in range(nc)]
L += ["kallsyms %x t free_x" % (0xffffffff81100000 + nc * 0x100),
      "kallsyms ffffffff81f00000 T _etext", "cmdline 100 work"]
ts, ptr = 1000, 0xffff888100000000
for k in range(100000):
    c, rnd = k % nc, k // nc
    size = 32 << (c % 6)
    L.append("event %d %d 100 kmalloc call_site=site_%04d+0x10 ptr=0x%x bytes_req=%d "
             "bytes_alloc=%d" % (k & 1, ts, c, ptr, size, size))
    if rnd % 2 == 0 and not (c % 10 == 0 and rnd < 2 * run):
        L.append("event %d %d 100 kfree call_site=free_x+0x8 ptr=0x%x" % (k & 1, ts + 1, ptr))
    ts += 10
    ptr += 0x1000
print("\n".join(L))
PYEOF
	"$MKTRACE" -o "$out.tmp" "$WORK/t.seq" > "$WORK/mk.txt" 2>&1 &&
		mv "$out.tmp" "$out"
}

section_trend() {
	local i url
	url="$PG_URL"
	"$PUSH" -q --init "$url"
	for i in $(seq -w 1 30); do
		trend_trace "$i" || { echo "fleet.sh: mktrace failed: $(tail -2 "$WORK/mk.txt")" >&2; return 1; }
		"$ANALYZE" -q -o "$WORK/r$i.db" "$BENCH_DIR/fleet-trend-$i.dat"
		"$PUSH" -q -l bench=trend "$url" "$WORK/r$i.db"
	done
	[ "$(psql -X -A -t "$url" -c 'SELECT count(*) FROM kma_fleet.runs')" = 30 ] ||
		{ echo "fleet.sh: not 30 runs pushed" >&2; return 1; }
	row trend "kma-trend, 30 runs x 100k allocations, -k caller" \
		"$(best_of "$TREND" "$url" label:bench=trend)" 2
	row trend "kma-trend, 30 runs x 100k allocations, -k function" \
		"$(best_of "$TREND" -k function "$url" label:bench=trend)" 2
	row trend "kma-trend --html, 30 runs x 100k allocations" \
		"$(best_of "$TREND" --html "$WORK/trend.html" "$url" label:bench=trend)" 2
}

for p in "$ANALYZE" "$PUSH" "$TREND" "$MKTRACE"; do
	[ -x "$p" ] || { echo "fleet.sh: no $p (make all unit)" >&2; exit 1; }
done
if ! pg_start; then
	echo "fleet.sh: no PostgreSQL: $PG_WHY" >&2
	exit 1
fi
WORK=$PG_DIR/work
mkdir -p "$WORK"
echo "fleet store (PostgreSQL 15, private cluster, Unix socket), best of $RUNS:"
section_trend || FAILED=1
exit $FAILED
