#!/usr/bin/env bash
# perf.sh - kma on perf.data against `perf kmem stat --caller`, and the
# all-kinds rows: the perf.data and allocator-kinds part of `make bench`.
#
# Usage: bench/perf.sh               (run by bench/run.sh; alone: make bench-perf)
#        bench/perf.sh record        only record the perf.data files (root)
#
# Tables:
#  1. perf.data against perf: on bench/perf-big.data (recorded with
#     `perf record -e kmem:kmalloc,kfree,kmem_cache_alloc,kmem_cache_free -a -z`
#     while bench/record-big.sh's workload runs, under `trace-cmd record` of the
#     same four events, which writes bench/perf-big.dat: the same events as a
#     trace.dat), `perf kmem stat --caller`, kma-analyze writing report.db and
#     with --no-db on the perf.data, and kma-analyze on the trace.dat: wall and
#     CPU seconds, events per wall and per CPU second, peak RSS.
#     Goals: kma report.db <= 0.5 x perf kmem stat --caller; kma's events/s on
#     perf.data >= its events/s on the trace.dat.
#  2. Peak RSS against samples: kma report.db on bench/perf-small.data (about
#     1M samples) and bench/perf-big.data (about 10M): goal flat (<= 1.3x).
#  2b. Peak RSS and time per sample against samples, on generated perf.data
#     files (tests/tools/mkperf -z: kmalloc/kfree on 2 CPUs, at most 50,000
#     allocations live, per-CPU streams out of time order in FINISHED_ROUND
#     rounds as perf record writes them) of 1M, 2M, 5M and 10M samples
#     (PERF_GEN_SIZES="1 2 5 10", in millions; cached as bench/perf-gen-NM.data):
#     kma --no-db and kma writing report.db. Goal: peak RSS flat (10M / 1M
#     <= 1.3), and time per sample too.
#  3. All four allocator kinds (slab, page, percpu, vmalloc): a generated
#     periodic block of 1M events (gen_kinds_block below), repeated into 2M,
#     5M and 10M events (KINDS_SIZES="2 5 10", in millions) and converted to v7
#     zstd: kma-floor, kma --pages --no-db and kma --pages writing report.db
#     (--pages: the page report; the summary counts all four kinds).  Goals:
#     report.db <= 1.3 x kma-floor on the 5M zstd trace; peak RSS flat from
#     the smallest to the largest.
#
# The event counts are not kma's: perf's own (`perf report --stats`, SAMPLE
# events) for perf.data, kma-floor's for trace.dat.
#
# Environment:
#   KMA_ANALYZE=B   the kma-analyze to time (default build/analyzer/kma-analyze)
#   BENCH_RUNS=N    timed runs per tool, best wall kept (default 3; 1 with
#                   BENCH_QUICK=1, which also skips the 10M recording and uses
#                   perf-small.data for both rows)
#   BENCH_WARMUP=0  no untimed run first
#   BENCH_PERF_PARTS="perf rss gen kinds"  the tables to print (default all; gen
#                   alone records nothing and needs no root)
#   PERF_BIG_ROUNDS=N   workload rounds of perf-big (default 2: about 10M samples)
#   PERF_SMALL_SECONDS=S  seconds of perf-small's recording (default 6)
#   PERF_MMAP=P     perf record -m (default 16M per CPU: no lost samples here)
#   BENCH_CSV=F     CSV lines are appended to F when set (run.sh's file)
# The recordings are cached in bench/ (git-ignored); delete them to record again.
#
# Exit status: 0, or 1 when a setup step or a timed tool fails.  A missed goal
# is not a failure: each ratio is printed with its goal, for wall and for CPU
# time (on a shared machine the CPU ratios are the ones to read).

set -euo pipefail

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
TOP_DIR=$(cd "$BENCH_DIR/.." && pwd)
ANALYZE=${KMA_ANALYZE:-$TOP_DIR/build/analyzer/kma-analyze}
MKTRACE=${MKTRACE:-$TOP_DIR/build/tests/tools/mktrace}
FLOOR=$BENCH_DIR/kma-floor
GNU_TIME=/usr/bin/time
QUICK=${BENCH_QUICK:-0}
[[ $QUICK == 0 ]] && QUICK=
RUNS=${BENCH_RUNS:-3}
[[ -z $QUICK ]] || RUNS=${BENCH_RUNS:-1}
BIG=$BENCH_DIR/perf-big.data
BIG_DAT=$BENCH_DIR/perf-big.dat
SMALL=$BENCH_DIR/perf-small.data
KINDS_SIZES=${KINDS_SIZES:-2 5 10}
WARMUP=${BENCH_WARMUP:-1}
EVENTS=(-e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc -e kmem:kmem_cache_free)
failed=0

die() {
	echo "perf.sh: $*" >&2
	exit 1
}

# --- recording ---------------------------------------------------------------

# The workload that runs while perf-small records: bench/record-big.sh's, in a
# loop until killed.
loop_workload() {
	while :; do
		"$BENCH_DIR/record-big.sh" --workload 1
	done
}

# record_big: perf-big.data and perf-big.dat, the same events: trace-cmd
# record runs perf record, which runs the workload; both trace every CPU.
# trace-cmd's exit status is not trusted (bench/record-big.sh says why).
record_big() {
	local log=$BENCH_DIR/perf-record.log

	echo "recording $BIG and $BIG_DAT (${PERF_BIG_ROUNDS:-2} workload rounds) ..." >&2
	rm -f "$BIG" "$BIG_DAT"
	trace-cmd record -d --no-filter "${EVENTS[@]}" -b "${KMA_BENCH_BUFFER:-262144}" \
		-o "$BIG_DAT.tmp" \
		perf record "${EVENTS[@]}" -a -z -m "${PERF_MMAP:-16M}" -o "$BIG.tmp" -- \
		"$BENCH_DIR/record-big.sh" --workload "${PERF_BIG_ROUNDS:-2}" >"$log" 2>&1 || true
	[[ -s $BIG.tmp && -s $BIG_DAT.tmp ]] || die "recording failed; see $log"
	mv "$BIG.tmp" "$BIG"
	mv "$BIG_DAT.tmp" "$BIG_DAT"
	grep -E 'perf record|lost|LOST' "$log" >&2 || true
}

# record_small: perf-small.data, PERF_SMALL_SECONDS of the same workload
record_small() {
	local pid

	echo "recording $SMALL (${PERF_SMALL_SECONDS:-6} s of the workload) ..." >&2
	loop_workload >/dev/null 2>&1 &
	pid=$!
	perf record "${EVENTS[@]}" -a -z -m "${PERF_MMAP:-16M}" -o "$SMALL.tmp" -- \
		sleep "${PERF_SMALL_SECONDS:-6}" 2>&1 | grep -E 'perf record|lost' >&2 || true
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	[[ -s $SMALL.tmp ]] || die "perf record wrote no $SMALL"
	mv "$SMALL.tmp" "$SMALL"
}

record() {
	command -v perf >/dev/null || die "perf not found (apt-get install linux-perf)"
	command -v trace-cmd >/dev/null || die "trace-cmd not found"
	[[ -s $SMALL ]] || record_small
	[[ -n $QUICK || ( -s $BIG && -s $BIG_DAT ) ]] || record_big
}

if [[ ${1:-} == record ]]; then
	record
	exit 0
fi

# --- tools -------------------------------------------------------------------

make -s -C "$BENCH_DIR" kma-floor || die "cannot build $FLOOR"
[[ -x $ANALYZE ]] || die "no $ANALYZE: build it first (make -j2 all)"
if [[ ! -x $MKTRACE ]]; then
	make -s -C "$TOP_DIR" tools >/dev/null || die "cannot build $MKTRACE (make tools)"
fi
[[ -x $GNU_TIME ]] || die "$GNU_TIME missing: install package 'time'"
for t in perf trace-cmd python3; do
	command -v $t >/dev/null || die "$t not found"
done

tmp=$(mktemp -d /tmp/kma-bench-perf.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
DB=$tmp/report.db

# --- the all-kinds traces -------------------------------------------------------

# repeat_block: bench/traces.sh
. "$BENCH_DIR/traces.sh"

# gen_kinds_block N OUT: bench/traces.sh's periodic block with the four kinds:
# N events, N/2 allocations and N/2 frees (allocation i frees slot i-L,
# L = N/20); allocation j is kmalloc, mm_page_alloc (order 0), percpu or vmap
# area by a hash of j mod N/2, so the block repeats.  vmap areas carry no stack
# (their caller is [no stack]).
gen_kinds_block() {
	python3 - "$1" >"$tmp/kinds.seq" <<'PY'
import sys
n = int(sys.argv[1]) // 2
live = n // 10
NS, NF, NP = 200, 40, 20
w = sys.stdout.write
w("cpus 2\nkallsyms ffffffff81000000 T _stext\n")
for k in range(NS):
    w("kallsyms %x t alloc_site_%d\n" % (0xffffffff81100000 + k * 0x100, k))
for k in range(NF):
    w("kallsyms %x t free_site_%d\n" % (0xffffffff81200000 + k * 0x100, k))
w("kallsyms ffffffff81400000 T _etext\n")
for p in range(NP):
    w("cmdline %d task%d\n" % (1000 + p, p))
ts, out = 1000, []
for i in range(n):
    for free in (0, 1):
        j = i - live if free else i
        h = ((j % n) * 2654435761) & 0xffffffff
        slot = j % (2 * live)
        head = "event %d %d %d " % ((ts // 4000) % 2, ts, 1000 + (ts // 9000) % NP)
        kind = h % 4
        if kind == 0:
            ptr = 0xffff888100000000 + slot * 0x40
            if free:
                out.append("%skfree call_site=free_site_%d+0x8 ptr=%#x\n"
                           % (head, (h >> 12) % NF, ptr))
            else:
                req = 8 + (h >> 8) % 500
                out.append("%skmalloc call_site=alloc_site_%d+0x18 ptr=%#x bytes_req=%d "
                           "bytes_alloc=%d\n" % (head, (h >> 16) % NS, ptr, req,
                                                 1 << (req - 1).bit_length()))
        elif kind == 1:
            pfn = 0x10000 + slot
            if free:
                out.append("%smm_page_free pfn=%#x order=0\n" % (head, pfn))
            else:
                out.append("%smm_page_alloc pfn=%#x order=0 gfp_flags=GFP_KERNEL "
                           "migratetype=%d\n" % (head, pfn, j % 3))
        elif kind == 2:
            ptr = 0x100000 + slot * 0x40
            if free:
                out.append("%spercpu_free_percpu ptr=%#x\n" % (head, ptr))
            else:
                size = 8 << ((h >> 8) % 4)
                out.append("%spercpu_alloc_percpu call_site=alloc_site_%d+0x30 size=%d "
                           "bytes_alloc=%d ptr=%#x gfp_flags=GFP_KERNEL\n"
                           % (head, (h >> 16) % NS, size, size * 2, ptr))
        else:
            addr = 0xffffc90000000000 + slot * 0x10000
            if free:
                out.append("%sfree_vmap_area_noflush va_start=%#x\n" % (head, addr))
            else:
                out.append("%salloc_vmap_area addr=%#x size=%d failed=0\n"
                           % (head, addr, 4096 * (2 + (h >> 8) % 4)))
        ts += 23
    if len(out) >= 65536:
        w("".join(out))
        out = []
w("".join(out))
PY
	"$MKTRACE" -o "$2" "$tmp/kinds.seq"
}

# kinds_traces: bench/kinds-N000000-zstd.dat for N in KINDS_SIZES when missing
# (the block repeated N times, 23 ns between events, converted to v7 zstd)
kinds_traces() {
	local block=$BENCH_DIR/kinds-block-1000000.dat n v6 v7

	if [[ ! -s $block ]]; then
		echo "generating $block ..." >&2
		gen_kinds_block 1000000 "$block.tmp" || die "mktrace failed"
		mv "$block.tmp" "$block"
	fi
	for n in $KINDS_SIZES; do
		v6=$BENCH_DIR/kinds-${n}000000-v6.dat v7=$BENCH_DIR/kinds-${n}000000-zstd.dat
		[[ -s $v7 ]] && continue
		echo "writing $v7 ..." >&2
		repeat_block "$block" "$v6.tmp" "$n" $((1000000 * 23)) || die "repeat_block failed"
		trace-cmd convert --file-version 7 --compression zstd -i "$v6.tmp" -o "$v7.tmp" \
			>"$tmp/convert.log" 2>&1 ||
			{ cat "$tmp/convert.log" >&2; die "trace-cmd convert failed"; }
		rm -f "$v6.tmp"
		mv "$v7.tmp" "$v7"
	done
}

# --- timing --------------------------------------------------------------------

. "$BENCH_DIR/measure.sh"

# perf_measure KEY CMD...: measure with one untimed run first (none with BENCH_QUICK or
# BENCH_WARMUP=0), then RUNS timed ones
perf_measure() {
	local key=$1 warm=1

	shift
	[[ -z $QUICK && $WARMUP != 0 ]] || warm=0
	echo "timing $key ..." >&2
	measure "$key" "$RUNS" "$warm" "$@"
}

csv() {
	local IFS=,
	[[ -z ${BENCH_CSV:-} ]] || echo "$*" >>"$BENCH_CSV"
}

header() {
	printf '%-34s %8s %8s %10s %10s %8s\n' tool "wall s" "cpu s" "Mev/wall s" \
		"Mev/cpu s" "RSS MB"
	printf '%-34s %8s %8s %10s %10s %8s\n' "$(printf '%.0s-' {1..34})" -------- \
		-------- ---------- ---------- --------
}

# row SECTION KEY LABEL EVENTS
row() {
	local key=$2 label=$3 ev=$4 line

	if [[ ${status[$key]} != ok ]]; then
		printf '%-34s %s\n' "$label" "${status[$key]}"
		csv "$1" "$label" "$ev" "" "" "" "${status[$key]}"
		return
	fi
	line=$(awk -v ns="${wall_ns[$key]}" -v cpu="${cpu_ms[$key]}" -v ev="$ev" \
		-v kb="${rss_kb[$key]}" 'BEGIN {
		printf "%.2f %.2f %.2f %.2f %.1f", ns / 1e9, cpu / 1000, ev / 1e6 / (ns / 1e9),
		       (cpu > 0 ? ev / 1e3 / cpu : 0), kb / 1024 }')
	set -- "$1" "$label" "$ev" $line
	printf '%-34s %8s %8s %10s %10s %8s\n' "$2" "$4" "$5" "$6" "$7" "$8"
	csv "$1" "$2" "$3" "$4" "$5" "${rss_kb[$key]}" ok
}

# ratio A B WHAT GOAL: "WHAT: wall x, CPU x (goal GOAL)"
ratio() {
	[[ ${status[$1]} == ok && ${status[$2]} == ok ]] || return 0
	awk -v a="${wall_ns[$1]}" -v b="${wall_ns[$2]}" -v ca="${cpu_ms[$1]}" \
	    -v cb="${cpu_ms[$2]}" -v w="$3" -v g="$4" 'BEGIN {
		printf "  %s: wall x %.2f, CPU x %.2f (goal %s)\n", w, a / b,
		       (cb > 0 ? ca / cb : 0), g }'
}

# perf_samples F: SAMPLE records of a perf.data, as perf counts them
perf_samples() {
	perf report --stats -i "$1" 2>/dev/null |
		awk '/SAMPLE events:/ { print $3; exit }'
}

echo "kma on perf.data, $(date -u '+%F %T UTC'): $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(wall: best of $RUNS$([[ -n $QUICK || $WARMUP == 0 ]] || echo " after a warm-up run"); CPU: user + system" \
	"of that run; RSS: largest)"
csv section tool events wall_s cpu_s peak_rss_kb status

# part NAME: is NAME (perf, rss, gen, kinds) in BENCH_PERF_PARTS?
part() {
	[[ " ${BENCH_PERF_PARTS:-perf rss gen kinds} " == *" $1 "* ]]
}

# the recordings, for the tables that read them
if part perf || part rss; then
	record
fi

# 1. perf.data against perf kmem and against kma's trace.dat reader
perf_table() {
	local big=$BIG big_dat=$BIG_DAT ndat

	if [[ -n $QUICK ]]; then
		big=$SMALL big_dat=
	fi
	nbig=$(perf_samples "$big")
	echo
	echo "$big: $(du -h "$big" | cut -f1), $nbig samples (perf report --stats)"
	perf_measure perfkmem perf kmem -i "$big" stat --caller
	perf_measure kmadb "$ANALYZE" -q -o "$DB" "$big"
	perf_measure kmanodb "$ANALYZE" -q --no-db "$big"
	if [[ -n $big_dat ]]; then
		ndat=$("$FLOOR" "$big_dat")
		ndat=${ndat#events }
		perf_measure floordat "$FLOOR" "$big_dat"
		perf_measure kmadat "$ANALYZE" -q -o "$DB" "$big_dat"
		perf_measure kmanodbdat "$ANALYZE" -q --no-db "$big_dat"
	fi
	header
	row perf perfkmem "perf kmem stat --caller" "$nbig"
	row perf kmadb "kma report.db (perf.data)" "$nbig"
	row perf kmanodb "kma --no-db (perf.data)" "$nbig"
	if [[ -n $big_dat ]]; then
		echo "the same events as a trace.dat: $big_dat ($(du -h "$big_dat" | cut -f1)," \
			"$ndat events, kma-floor's count)"
		row perf floordat "kma-floor (trace.dat)" "$ndat"
		row perf kmadat "kma report.db (trace.dat)" "$ndat"
		row perf kmanodbdat "kma --no-db (trace.dat)" "$ndat"
	fi
	ratio kmadb perfkmem "kma report.db / perf kmem stat --caller" "<= 0.5"
	if [[ -n $big_dat ]]; then
		awk -v a="${wall_ns[kmadb]}" -v b="${wall_ns[kmadat]}" -v ca="${cpu_ms[kmadb]}" \
		    -v cb="${cpu_ms[kmadat]}" -v na="$nbig" -v nb="$ndat" 'BEGIN {
			printf "  kma report.db events/s, perf.data / trace.dat: wall x %.2f, CPU x %.2f" \
			       " (goal >= 1)\n", (na / a) / (nb / b), (na / ca) / (nb / cb) }'
	fi
}

! part perf || perf_table

# 2. peak RSS against samples
if [[ -z $QUICK ]] && part rss; then
	part perf || { nbig=$(perf_samples "$BIG"); perf_measure kmadb "$ANALYZE" -q -o "$DB" "$BIG"; }
	nsmall=$(perf_samples "$SMALL")
	perf_measure kmasmall "$ANALYZE" -q -o "$DB" "$SMALL"
	echo
	echo "peak RSS against samples: kma report.db on $SMALL ($nsmall samples) and $BIG"
	header
	row rss kmasmall "kma report.db, $nsmall samples" "$nsmall"
	row rss kmadb "kma report.db, $nbig samples" "$nbig"
	awk -v a="${rss_kb[kmadb]}" -v b="${rss_kb[kmasmall]}" -v na="$nbig" -v nb="$nsmall" \
		'BEGIN { printf "  peak RSS x %.2f for x %.1f the samples (goal: flat, <= 1.3)\n",
			 a / b, na / nb }'
fi

# 2b. peak RSS and time per sample against samples, on generated perf.data files
GEN_SIZES=${PERF_GEN_SIZES:-1 2 5 10}
MKPERF=$TOP_DIR/build/tests/tools/mkperf

# gen_data N: bench/perf-gen-NM.data, N million samples (made when missing)
gen_data() {
	local f=$BENCH_DIR/perf-gen-$1M.data

	if [[ ! -s $f ]]; then
		echo "generating $f ..." >&2
		"$MKPERF" -t "$TOP_DIR/tests/fixtures/perf-slab.data" -k "$tmp/kallsyms" -z \
			-c 2 -l 50000 -n "$1"000000 -o "$f.tmp" || die "mkperf failed"
		mv "$f.tmp" "$f"
	fi
	echo "$f"
}

# gen_row KEY LABEL SAMPLES
gen_row() {
	if [[ ${status[$1]} != ok ]]; then
		printf '%-32s %s\n' "$2" "${status[$1]}"
		csv gen "$2" "$3" "" "" "" "${status[$1]}"
		return
	fi
	awk -v l="$2" -v n="$3" -v ns="${wall_ns[$1]}" -v cpu="${cpu_ms[$1]}" \
	    -v kb="${rss_kb[$1]}" 'BEGIN {
		printf "%-32s %10d %8.2f %8.2f %10.0f %10.0f %8.1f\n", l, n, ns / 1e9,
		       cpu / 1000, ns / n, cpu * 1e6 / n, kb / 1024 }'
	csv gen "$2" "$3" "$(awk -v ns="${wall_ns[$1]}" 'BEGIN { printf "%.2f", ns / 1e9 }')" \
		"$(awk -v c="${cpu_ms[$1]}" 'BEGIN { printf "%.2f", c / 1000 }')" "${rss_kb[$1]}" ok
}

gen_table() {
	local n f lo hi mode

	[[ -x $MKPERF ]] || make -s -C "$TOP_DIR" tools >/dev/null ||
		die "cannot build $MKPERF (make tools)"
	xz -dc "$TOP_DIR/tests/fixtures/perf-kallsyms.xz" >"$tmp/kallsyms" ||
		die "cannot read tests/fixtures/perf-kallsyms.xz"
	for n in $GEN_SIZES; do
		f=$(gen_data "$n") || die "cannot write bench/perf-gen-${n}M.data"
		perf_measure "g$n:nodb" "$ANALYZE" -q --no-db --kallsyms "$tmp/kallsyms" "$f"
		perf_measure "g$n:db" "$ANALYZE" -q -o "$DB" --kallsyms "$tmp/kallsyms" "$f"
	done
	echo
	echo "peak RSS and time per sample against samples: generated perf.data (mkperf -z," \
		"2 CPUs, <= 50,000 live), load now $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-32s %10s %8s %8s %10s %10s %8s\n' tool samples "wall s" "cpu s" \
		"ns/sample" "cpu ns/smp" "RSS MB"
	for n in $GEN_SIZES; do
		gen_row "g$n:nodb" "kma --no-db, ${n}M samples" "${n}000000"
		gen_row "g$n:db" "kma report.db, ${n}M samples" "${n}000000"
	done
	set -- $GEN_SIZES
	lo=$1
	shift $(($# - 1))
	hi=$1
	for mode in nodb db; do
		[[ ${status[g$lo:$mode]} == ok && ${status[g$hi:$mode]} == ok ]] || continue
		awk -v m="$([[ $mode == db ]] && echo report.db || echo --no-db)" -v r="$hi/$lo" \
		    -v a="${rss_kb[g$hi:$mode]}" -v b="${rss_kb[g$lo:$mode]}" \
		    -v ta="${cpu_ms[g$hi:$mode]}" -v tb="${cpu_ms[g$lo:$mode]}" \
		    -v wa="${wall_ns[g$hi:$mode]}" -v wb="${wall_ns[g$lo:$mode]}" \
		    -v na="$hi" -v nb="$lo" 'BEGIN {
			printf "  kma %s, %sM samples: peak RSS x %.2f (goal: flat, <= 1.3);" \
			       " time per sample: wall x %.2f, CPU x %.2f\n", m, r, a / b,
			       (wa / na) / (wb / nb), (tb > 0 ? (ta / na) / (tb / nb) : 0) }'
	done
}

! part gen || gen_table

# 3. the four allocator kinds
part kinds || exit "$failed"
kinds_traces
echo
echo "all four allocator kinds (slab, page, percpu, vmalloc): generated, 50,000 allocations" \
	"live at any time, v7 zstd; --pages (the page report, every kind in the summary)"
for n in $KINDS_SIZES; do
	t=$BENCH_DIR/kinds-${n}000000-zstd.dat
	perf_measure "k$n:floor" "$FLOOR" "$t"
	perf_measure "k$n:nodb" "$ANALYZE" -q --pages --no-db "$t"
	perf_measure "k$n:db" "$ANALYZE" -q --pages -o "$DB" "$t"
done
header
for n in $KINDS_SIZES; do
	row kinds "k$n:floor" "kma-floor, ${n}M events" "${n}000000"
	row kinds "k$n:nodb" "kma --pages --no-db, ${n}M events" "${n}000000"
	row kinds "k$n:db" "kma --pages report.db, ${n}M events" "${n}000000"
done
ratio k5:db k5:floor "5M zstd: kma report.db / kma-floor" "<= 1.3"
set -- $KINDS_SIZES
lo=$1
shift $(($# - 1))
awk -v a="${rss_kb[k$1:db]}" -v b="${rss_kb[k$lo:db]}" -v m="$1/$lo" \
	'BEGIN { printf "  peak RSS of kma report.db, %sM events: x %.2f (goal: flat, <= 1.3)\n",
		 m, a / b }'
echo "(shared machine: compare the CPU columns; wall ratios move with the load)"
exit "$failed"
