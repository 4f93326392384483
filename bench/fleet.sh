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
#   FLEET_SECTIONS="trend push"   the sections run (default both)
#
# trend: 30 runs of 100k allocations each (mktrace: 1000 call sites, 2 CPUs, half the
# allocations freed at once; every tenth call site keeps 100 more allocations each
# run, so that the series move), analyzed and pushed, then kma-trend over all 30,
# -k caller and -k function, text to /dev/null: best wall time, limit 2 s. The traces
# are cached as bench/fleet-trend-NN.dat (git-ignored); delete them to make them again.
#
# push: kma-push of 5M-event runs (1M-event blocks repeated 5 times, cached as
# bench/fleet-push-*.dat, git-ignored): the aggregates of a run with 200 call sites and
# no stacks, of one with 122k distinct stacks (500k allocation shapes) into an empty
# store and into one holding its stacks (--replace), limit 1 s each; --allocations
# (2.5M rows), limit 500k rows/s, peak RSS against the aggregates push's (flat: at most
# 1.3x). Each timed push but --replace starts from a fresh database (not timed); the
# client's CPU and the server's (the postmaster's reaped children) are shown beside.
#
# Exit status: 0 (also when no PostgreSQL server can start: the rows are skipped, saying
# why), or 1 when the setup fails or a row is over its limit.

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

# push_trace NAME STACKS: bench/fleet-push-NAME.dat (5M kmem events), made when missing;
# STACKS distinct call stacks on the allocations (0: none)
push_trace() {
	local out=$BENCH_DIR/fleet-push-$1.dat
	[ -s "$out" ] && return 0
	python3 - 1000000 "$2" > "$WORK/p.seq" <<'PYEOF'
import sys
# one block: N kmem events, N/2 allocations (each with a kernel_stack when S > 0) and
# N/2 frees, allocation i taking slot i mod 2L and freeing slot i - L (L = N/20)
n, S = int(sys.argv[1]) // 2, int(sys.argv[2])
live, NF = n // 10, 512
w = sys.stdout.write
w("cpus 2\nkallsyms ffffffff81000000 T _stext\n")
for k in range(200):
    w("kallsyms %x t alloc_site_%d\n" % (0xffffffff81100000 + k * 0x100, k))
for k in range(40):
    w("kallsyms %x t free_site_%d\n" % (0xffffffff81200000 + k * 0x100, k))
for k in range(NF):
    w("kallsyms %x t fn_%d\n" % (0xffffffff81300000 + k * 0x100, k))
w("kallsyms ffffffff81400000 T _etext\n")
for p in range(20):
    w("cmdline %d task%d\n" % (1000 + p, p))
caches = [("filp", 256), ("dentry", 192), ("inode_cache", 600), ("vm_area_struct", 176)]
base, ts, out = 0xffff888100000000, 1000, []
for i in range(n):
    for free in (0, 1):
        j = i - live if free else i
        h = ((j % n) * 2654435761) & 0xffffffff
        cpu, pid = (ts // 4000) % 2, 1000 + (ts // 9000) % 20
        head = "event %d %d %d " % (cpu, ts, pid)
        ptr = "ptr=%#x" % (base + (j % (2 * live)) * 0x40)
        if free:
            out.append("%skfree call_site=free_site_%d+0x8 %s\n" % (head, (h >> 12) % 40, ptr))
        else:
            if h % 4 == 0:
                name, size = caches[(h >> 8) % 4]
                out.append("%skmem_cache_alloc call_site=alloc_site_%d+0x24 %s bytes_req=%d "
                           "bytes_alloc=%d name=%s\n" % (head, (h >> 16) % 200, ptr, size, size, name))
            else:
                req = 8 + (h >> 8) % 500
                out.append("%skmalloc call_site=alloc_site_%d+0x18 %s bytes_req=%d bytes_alloc=%d\n"
                           % (head, (h >> 16) % 200, ptr, req, 1 << (req - 1).bit_length()))
            if S:
                s = j % S
                fr = ["fn_%d+0x10" % ((s // NF ** d) % NF if d < 2 else (s * 7 + d) % NF)
                      for d in range(6)]
                out.append("stack %d %d %d %s\n" % (cpu, ts, pid, " ".join(fr)))
        ts += 23
    if len(out) >= 65536:
        w("".join(out))
        out = []
w("".join(out))
PYEOF
	"$MKTRACE" -o "$WORK/p.dat" "$WORK/p.seq" > "$WORK/mk.txt" 2>&1 || return 1
	. "$BENCH_DIR/traces.sh"
	repeat_block "$WORK/p.dat" "$out.tmp" 5 $((1000000 * 23)) && mv "$out.tmp" "$out"
	rm -f "$WORK/p.dat" "$WORK/p.seq"
}

# fresh_db: database kma dropped, created again and initialized (not timed)
fresh_db() {
	psql -X -q "host=$PG_SOCK user=kma_admin dbname=postgres" -c 'DROP DATABASE IF EXISTS kma' \
		-c 'CREATE DATABASE kma' > /dev/null
	"$PUSH" -q --init "$PG_URL"
}

# the server's CPU so far, in clock ticks: the postmaster's and its reaped children's
server_ticks() {
	awk '{ print $14 + $15 + $16 + $17 }' "/proc/$(head -1 "$PG_DIR/data/postmaster.pid")/stat"
}

# timed_push FRESH FILE [OPTION...]: the best wall time of $RUNS kma-push OPTION... URL
# FILE (each after fresh_db when FRESH is 1) into $T; that run's client and server CPU
# into $CPU, its peak RSS (KB) into $RSS. 1 when a push fails.
timed_push() {
	local fresh=$1 file=$2 best= i t0 t1 s a b tk
	shift 2
	tk=$(getconf CLK_TCK)
	for ((i = 0; i < RUNS; i++)); do
		[ "$fresh" = 1 ] && fresh_db
		a=$(server_ticks)
		t0=$EPOCHREALTIME
		if ! /usr/bin/time -f '%U %S %M' -o "$WORK/time.txt" "$PUSH" -q "$@" "$PG_URL" \
			"$file" > /dev/null; then
			echo "fleet.sh: kma-push $* $file failed" >&2
			return 1
		fi
		t1=$EPOCHREALTIME
		sleep 0.2	# the backend reaped
		b=$(server_ticks)
		s=$(( $(ms "$t1") - $(ms "$t0") ))
		if [ -z "$best" ] || [ "$s" -lt "$best" ]; then
			best=$s
			CPU=$(awk -v sv=$(( (b - a) * 1000 / tk )) \
				'{ printf "client %.2f s, server %.2f s CPU", $1 + $2, sv / 1000 }' \
				"$WORK/time.txt")
			RSS=$(awk '{ print $3 }' "$WORK/time.txt")
		fi
	done
	T=$(printf '%d.%03d' $((best / 1000)) $((best % 1000)))
}

section_push() {
	local db=$WORK/push-flat.db sdb=$WORK/push-stacks.db rss_agg lim rows

	push_trace flat 0 && push_trace stacks 122000 ||
		{ echo "fleet.sh: making the push traces failed: $(tail -2 "$WORK/mk.txt")" >&2; return 1; }
	"$ANALYZE" -q -o "$db" "$BENCH_DIR/fleet-push-flat.dat"
	"$ANALYZE" -q -o "$sdb" "$BENCH_DIR/fleet-push-stacks.dat"
	echo "push (load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs):"
	timed_push 1 "$db" || return 1
	row push "aggregates, 5M events, 200 call sites ($CPU)" "$T" 1
	rss_agg=$RSS
	timed_push 1 "$sdb" || return 1
	row push "aggregates, 5M events, 122k new stacks ($CPU)" "$T" 1
	timed_push 0 "$sdb" --replace || return 1
	row push "aggregates, 5M events, 122k stacks there ($CPU)" "$T" 1
	# 500k rows/s: the time the run's allocation rows may take
	rows=$(sqlite3 "$db" 'SELECT COUNT(*) FROM alloc_rows')
	lim=$(awk -v n="$rows" 'BEGIN { printf "%.2f", n / 500000 }')
	timed_push 1 "$db" --allocations || return 1
	row push "--allocations, $rows rows ($CPU)" "$T" "$lim"
	echo "push     peak RSS: aggregates $rss_agg KB, --allocations $RSS KB" \
	     "($(awk -v a="$rss_agg" -v b="$RSS" 'BEGIN { printf "%.2fx", b / a }'); flat: <= 1.3x)"
	if awk -v a="$rss_agg" -v b="$RSS" 'BEGIN { exit !(b > 1.3 * a) }'; then
		FAILED=1
	fi
	return 0
}

for p in "$ANALYZE" "$PUSH" "$TREND" "$MKTRACE"; do
	[ -x "$p" ] || { echo "fleet.sh: no $p (make all unit)" >&2; exit 1; }
done
if ! pg_start; then
	# as the tests do: a machine without the server skips these rows, saying why
	echo "fleet store: skipped: $PG_WHY"
	exit 0
fi
WORK=$PG_DIR/work
mkdir -p "$WORK"
echo "fleet store (PostgreSQL 15, private cluster, Unix socket), best of $RUNS:"
for s in ${FLEET_SECTIONS:-trend push}; do
	case $s in
	trend) section_trend || FAILED=1 ;;
	push) section_push || FAILED=1 ;;
	*) echo "fleet.sh: no section '$s' (trend, push)" >&2; exit 1 ;;
	esac
done
exit $FAILED
