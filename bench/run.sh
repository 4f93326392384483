#!/usr/bin/env bash
# run.sh - the kma benchmark: kma-analyze against the bare read loop
# and trace-cmd mem, on a real trace in v7 zstd and in uncompressed v6, then the
# growth figures on generated traces of 5M and 50M events.
#
# Usage: bench/run.sh [TRACE.dat]          (or make bench [TRACE=...] [TRACE_V6=...])
#
# Environment:
#   TRACE=F       the real trace in v7 zstd (the first argument wins)
#   TRACE_V6=F    the same trace in uncompressed v6
#                 Neither given: bench/big.dat, recorded first with
#                 bench/record-big.sh (root) when missing.  A trace not given,
#                 or not in its format (trace-cmd 3.1 records v7 even with
#                 --compression none), is replaced by a copy made with
#                 trace-cmd convert: bench/NAME-zstd.dat, bench/NAME-v6.dat
#                 (NAME: the given file's, less -v6/-zstd; made once, cached).
#   KMA_ANALYZE=B the kma-analyze to time (default build/analyzer/kma-analyze)
#   KMA_BASE=B    a second build timed in the same run, side by side
#   BENCH_RUNS=N  timed runs per tool, best wall time kept (default 3, after
#                 one warm-up run); GROWTH_RUNS=N for the growth traces (1)
#   BENCH_PAIRS=N rounds of the v6 goals timed in turn (kma-floor, --no-db,
#                 report.db, then KMA_BASE's --no-db and report.db; default 5,
#                 3 with BENCH_QUICK; 0 skips them)
#   BENCH_QUICK=1 smoke test in seconds: a generated 250k-event trace stands
#                 in for the real one (v6 and v7 zstd), one run, no warm-up,
#                 no growth, no rss.sh, 200k writer rows (BENCH_GROWTH=1 and
#                 BENCH_RSS=1 put them back: about a minute)
#   BENCH_QUIET_WAIT=S wait up to S seconds (default 300; 0 with BENCH_QUICK)
#                 for a quiet machine (1-minute load average < BENCH_QUIET,
#                 default 1.5) before timing; a run on a busy machine says so
#   BENCH_OTHER=F at the end, the CPU time spent on other work while the bench
#                 ran (every CPU's busy time less the bench's own), and the time
#                 the hypervisor stole, each over F of one CPU (default 0.2): the
#                 run was not on a quiet machine, and says so
#   BENCH_GROWTH=0 skip the growth figures; GROWTH_TOOLS="nodb jdef" which
#                 kma runs to time on them (also: floor j1)
#   BENCH_CSV=F   where the figures go as CSV (default /tmp/kma-bench-DATE.csv)
#   BENCH_RSS=0   skip bench/rss.sh (peak RSS at 10x the events, slab and pages,
#                 and of every mode at 2M and 20M events: fails over 1.3x)
#   BENCH_PERF=0  skip bench/perf.sh (kma on perf.data against perf kmem stat
#                 --caller, peak RSS against samples, the four allocator kinds)
#   TRACE_PAGES=F  a trace recorded with page events (default bench/pages-big.dat,
#                  KMA_BENCH_PAGES=1 bench/record-big.sh); skipped when missing
#   MEMLAT_MB=N   the largest working set of bench/kma-memlat (default 256, 16 with
#                 BENCH_QUICK); its latencies, 1 MB to N MB, are printed before the
#                 timings
#   TRACE_STACKS=F a trace recorded with kernel stacks (default bench/stacks-big.dat,
#                 made by KMA_BENCH_STACKS=1 bench/record-big.sh; skipped when absent)
#
# Rows: kma-floor (bench/kma-floor: tracecmd_iterate_events and a count, the
# floor), trace-cmd mem, kma-analyze --no-db, kma-analyze writing report.db
# with -j 1 and with its default -j.  A kma-analyze whose --help has no -j gets
# "n/a (no -j)" for -j 1 and is timed as it is for the default.  Figures: wall
# time (best of the runs; the page cache is warm), x floor, ns per event, CPU
# time (user + system of that best run: more than the wall time when threads
# overlap) and CPU ns per event, peak RSS (largest of the runs, GNU time %M),
# report.db bytes per allocation (file size / SELECT COUNT(*) FROM allocations).
# Under each table: kma against trace-cmd mem and the floor, wall and CPU, with
# the goals; under v6's the two goals that move with the host's speed again, as
# medians of rounds timed in turn (BENCH_PAIRS), and the writer alone
# (kma-store-rate with as many rows as the trace's report.db) and SQLite alone
# (the sqlite3 shell inserting as many rows of alloc_rows' shape) against the floor;
# at the end every table again in markdown, the layout of docs/performance.md.
#
# Growth traces: tests/tools/mktrace writes one block of 1M kmalloc/kfree and
# kmem_cache_alloc/free events (2 CPUs, 200 allocation and 40 free sites, 8
# caches, 50k allocations live at any time, the ring buffer as the kernel
# fills it); the block is repeated with shifted page timestamps (it is
# periodic: it frees at its start what the previous copy left live) into 5M
# and 50M events, then converted to v7 zstd with trace-cmd convert.  Cached as
# bench/grow-*.dat (git-ignored); delete them to regenerate.
#
# Exit status: 0, or 1 when the setup fails or a timed tool fails.

set -euo pipefail

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
TOP_DIR=$(cd "$BENCH_DIR/.." && pwd)
FLOOR=$BENCH_DIR/kma-floor
ANALYZE=${KMA_ANALYZE:-$TOP_DIR/build/analyzer/kma-analyze}
MKTRACE=${MKTRACE:-$TOP_DIR/build/tests/tools/mktrace}
GNU_TIME=/usr/bin/time
QUICK=${BENCH_QUICK:-0}
[[ $QUICK == 0 ]] && QUICK=
if [[ -n $QUICK ]]; then
	RUNS=${BENCH_RUNS:-1} WARMUP=0 GROWTH_RUNS=${GROWTH_RUNS:-1}
	BLOCK=250000 GROW_SMALL=1 GROW_BIG=10	# in blocks: 250k and 2.5M events
	BENCH_GROWTH=${BENCH_GROWTH:-0} BENCH_RSS=${BENCH_RSS:-0}
	STORE_ROWS=${STORE_ROWS:-200000} QUIET_WAIT=${BENCH_QUIET_WAIT:-0}
	MEMLAT_MB=${MEMLAT_MB:-16} PAIRS=${BENCH_PAIRS:-3}
else
	RUNS=${BENCH_RUNS:-3} WARMUP=1 GROWTH_RUNS=${GROWTH_RUNS:-1}
	BLOCK=1000000 GROW_SMALL=5 GROW_BIG=50
	QUIET_WAIT=${BENCH_QUIET_WAIT:-300} PAIRS=${BENCH_PAIRS:-5}
fi
QUIET=${BENCH_QUIET:-1.5}
GROWTH_TOOLS=${GROWTH_TOOLS:-nodb jdef}
CSV=${BENCH_CSV:-/tmp/kma-bench-$(date -u +%Y%m%d-%H%M%S).csv}
failed=0

die() {
	echo "run.sh: $*" >&2
	exit 1
}

if [[ $# -gt 1 || ${1:-} == -h || ${1:-} == --help ]]; then
	sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2
	exit 1
fi
[[ $# -eq 1 ]] && TRACE=$1

# --- tools ---------------------------------------------------------------

make -s -C "$BENCH_DIR" kma-floor || die "cannot build $FLOOR"
[[ -x $ANALYZE ]] || die "no $ANALYZE: build it first (make -j2 all)"
if [[ ! -x $MKTRACE ]]; then
	make -s -C "$TOP_DIR" tools >/dev/null || die "cannot build $MKTRACE (make tools)"
fi
command -v trace-cmd >/dev/null || die "trace-cmd not found"
command -v python3 >/dev/null || die "python3 not found (it writes the growth traces)"
command -v sqlite3 >/dev/null || die "sqlite3 not found (it counts the allocations)"
# GNU time gives the peak RSS (%M, KiB) of the command.
if [[ ! -x $GNU_TIME ]]; then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
		apt-get install -y -qq time >/dev/null || die "apt-get install time failed"
	else
		die "$GNU_TIME missing: install package 'time'"
	fi
fi

tmp=$(mktemp -d /tmp/kma-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
DB=$tmp/report.db

# trace_format FILE: "v6", "v7 zstd", "v7 none"... from the file header:
# magic (10 bytes), version string, endian, long size, page size (4), and in
# v7 the compression name.
trace_format() {
	local v c

	v=$(head -c 12 "$1" | tail -c 2 | tr -d '\0')
	if [[ $v == 7 ]]; then
		c=$(head -c 80 "$1" | tail -c +19 | tr '\0' '\n' | head -n 1)
		echo "v7 ${c:-none}"
	else
		echo "v$v"
	fi
}

# convert IN OUT VERSION COMPRESSION: trace-cmd convert, timed.
convert() {
	local t0=$SECONDS

	echo "converting $1 -> $2 (v$3, $4) ..." >&2
	trace-cmd convert --file-version "$3" --compression "$4" -i "$1" -o "$2.tmp" \
		>"$tmp/convert.log" 2>&1 || { cat "$tmp/convert.log" >&2; die "trace-cmd convert failed"; }
	mv "$2.tmp" "$2"
	echo "  done in $((SECONDS - t0)) s" >&2
}

# has_jobs BIN: does this kma-analyze take -j?
has_jobs() {
	local help
	# not a pipe into grep -q: with pipefail, the SIGPIPE of an early exit would say "no"
	help=$("$1" --help 2>&1)
	grep -Eq -- '(^|[^[:alnum:]-])-j([ ,=]|$)|--jobs' <<< "$help"
}

# --- the growth traces ---------------------------------------------------

# gen_block and repeat_block: bench/traces.sh
. "$BENCH_DIR/traces.sh"

# growth_traces BLOCKS: makes bench/grow-EVENTS-{v6,zstd}.dat when missing;
# their paths in $g6 and $g7.
growth_traces() {
	local events=$((BLOCK * $1)) block=$BENCH_DIR/grow-block-$BLOCK.dat t0
	local v6=$BENCH_DIR/grow-$events-v6.dat v7=$BENCH_DIR/grow-$events-zstd.dat

	if [[ ! -s $v6 ]]; then
		if [[ ! -s $block ]]; then
			t0=$SECONDS
			echo "generating $block ..." >&2
			gen_block "$BLOCK" "$block.tmp" || die "mktrace failed"
			mv "$block.tmp" "$block"
			echo "  done in $((SECONDS - t0)) s" >&2
		fi
		t0=$SECONDS
		echo "writing $v6 ($1 copies of the block) ..." >&2
		# 23 ns between events: a block spans BLOCK * 23 ns
		repeat_block "$block" "$v6.tmp" "$1" $((BLOCK * 23)) || die "repeat_block failed"
		mv "$v6.tmp" "$v6"
		echo "  done in $((SECONDS - t0)) s" >&2
	fi
	[[ -s $v7 ]] || convert "$v6" "$v7" 7 zstd
	g6=$v6 g7=$v7
}

# --- the real trace --------------------------------------------------------

if [[ -n $QUICK && -z ${TRACE:-} && -z ${TRACE_V6:-} ]]; then
	growth_traces "$GROW_SMALL"
	TRACE_V6=$g6 TRACE=$g7
fi
if [[ -z ${TRACE:-} && -z ${TRACE_V6:-} ]]; then
	TRACE=$BENCH_DIR/big.dat
	if [[ ! -s $TRACE ]]; then
		echo "no $TRACE yet, recording it" >&2
		"$BENCH_DIR/record-big.sh" "$TRACE" || die "recording $TRACE failed"
	fi
fi
for f in "${TRACE:-}" "${TRACE_V6:-}"; do
	[[ -z $f || -r $f ]] || die "cannot read trace '$f'"
done
# A trace missing or not in its format gets a copy in bench/ that is.
name=$(basename "${TRACE:-$TRACE_V6}" .dat)
name=${name%-v6}
name=${name%-zstd}
if [[ -z ${TRACE:-} || $(trace_format "$TRACE") != "v7 zstd" ]]; then
	out=$BENCH_DIR/$name-zstd.dat
	[[ ! $out -ef ${TRACE:-} ]] || die "$TRACE is $(trace_format "$TRACE"), not v7 zstd"
	[[ -s $out ]] || convert "${TRACE:-$TRACE_V6}" "$out" 7 zstd
	TRACE=$out
fi
if [[ -z ${TRACE_V6:-} || $(trace_format "$TRACE_V6") != v6 ]]; then
	out=$BENCH_DIR/$name-v6.dat
	[[ ! $out -ef ${TRACE_V6:-} ]] || die "$TRACE_V6 is $(trace_format "$TRACE_V6"), not v6"
	[[ -s $out ]] || convert "${TRACE_V6:-$TRACE}" "$out" 6 none
	TRACE_V6=$out
fi

# --- timing ----------------------------------------------------------------

. "$BENCH_DIR/measure.sh"

# time_tool KEY TOOL BIN TRACE RUNS WARMUP: one row; TOOL is floor, mem, nodb,
# j1 or jdef.
time_tool() {
	local key=$1 tool=$2 bin=$3 trace=$4 runs=$5 warm=$6

	[[ ${PROGRESS:-1} == 0 ]] ||
		echo "timing $tool${bin:+ ($bin)} on $(basename "$trace") ..." >&2
	case $tool in
	floor)	measure "$key" "$runs" "$warm" "$FLOOR" "$trace" ;;
	mem)	measure "$key" "$runs" "$warm" trace-cmd mem -i "$trace" ;;
	nodb)	measure "$key" "$runs" "$warm" "$bin" -q --no-db "$trace" ;;
	j1)	if has_jobs "$bin"; then
			measure "$key" "$runs" "$warm" "$bin" -q -j 1 -o "$DB" "$trace"
		else
			status[$key]="n/a (no -j)"
		fi ;;
	jdef)	measure "$key" "$runs" "$warm" "$bin" -q -o "$DB" "$trace" ;;
	folded)	measure "$key" "$runs" "$warm" "$bin" -f folded --no-db "$trace" ;;
	pnodb)	measure "$key" "$runs" "$warm" "$bin" -q --pages --no-db "$trace" ;;
	pdb)	measure "$key" "$runs" "$warm" "$bin" -q --pages -o "$DB" "$trace" ;;
	esac
}

declare -A tool_label=([floor]="kma-floor (bare read)" [mem]="trace-cmd mem"
	[nodb]="kma --no-db" [j1]="kma report.db -j 1" [jdef]="kma report.db (default -j)"
	[folded]="kma -f folded --no-db" [pnodb]="kma --pages --no-db"
	[pdb]="kma --pages report.db")

csv() {
	local IFS=,
	echo "$*" >>"$CSV"
}

# row SECTION KEY LABEL TRACE FORMAT EVENTS FLOOR_KEY [TOOL]: one table line
# and one CSV line (tool column: TOOL, default LABEL).
row() {
	local key=$2 label=$3 fkey=$7 tool=${8:-$3} ns floor line

	if [[ ${status[$key]} != ok ]]; then
		printf '%-30s %s\n' "$label" "${status[$key]}"
		csv "$1" "$4" "$5" "$6" "$tool" "" "" "" "" "" "" "" "" "${status[$key]}" "" ""
		[[ $1 == growth ]] || md_rows+=("| $5 | $label | ${status[$key]} | | | | | | | | |")
		return
	fi
	ns=${wall_ns[$key]}
	floor=${wall_ns[$fkey]:-0}
	[[ ${status[$fkey]:-} == ok ]] || floor=0
	line=$(awk -v ns="$ns" -v fl="$floor" -v ev="$6" -v kb="${rss_kb[$key]}" -v cpu="${cpu_ms[$key]}" \
		-v db="${db_bytes[$key]}" -v al="${allocs[$key]}" 'BEGIN {
		x = fl > 0 ? sprintf("%.2f", ns / fl) : "-"
		b = al > 0 ? sprintf("%.1f", db / al) : "-"
		printf "%.3f %s %.1f %.1f %s %s %s %.2f %.1f", ns / 1e9, x, ns / ev, kb / 1024, b,
		       db == "" ? "-" : db, al == "" ? "-" : al, cpu / 1000, cpu * 1e6 / ev }')
	set -- "$1" "$2" "$3" "$4" "$5" "$6" $line
	printf '%-30s %8s %7s %8s %8s %9s %8s %10s %11s\n' "$label" "$7" "$8" "$9" "${14}" \
		"${15}" "${10}" "${11}" "${13}"
	csv "$1" "$4" "$5" "$6" "$tool" "$7" "$8" "$9" "${10}" "${12}" "${13}" "${11}" \
		"${RUNS_NOW}" ok "${14}" "${15}"
	[[ $1 == growth ]] ||
		md_rows+=("| $5 | $label | $7 | ${14} | $8 | $9 | ${15} | $(vs_mem "$2") | ${10} | ${11} |")
}

# vs_mem KEY: "wall x / CPU x" of KEY against trace-cmd mem on the same trace
# (the key's prefix up to its tool), "-" without a trace-cmd mem row.
vs_mem() {
	local m=${1%:*}:mem

	[[ ${status[$m]:-} == ok && ${status[$1]} == ok && $1 != "$m" ]] || { echo "- | -"; return; }
	awk -v w="${wall_ns[$1]}" -v mw="${wall_ns[$m]}" -v c="${cpu_ms[$1]}" -v mc="${cpu_ms[$m]}" \
		'BEGIN { printf "%.2f | %s", w / mw, (mc > 0 ? sprintf("%.2f", c / mc) : "-") }'
}

# goal WHAT VALUE OP LIMIT: one line of the goals, met or not.
goal() {
	awk -v w="$1" -v v="$2" -v op="$3" -v l="$4" 'BEGIN {
		ok = op == "<=" ? v <= l : v >= l
		printf "  %-52s %8.2f  (goal %s %s: %s)\n", w, v, op, l, ok ? "met" : "NOT met" }'
}

# ratios ID FORMAT: kma against trace-cmd mem and the floor, the goals of the
# performance work (docs/performance.md, "Goals").
ratios() {
	local id=$1 fmt=$2 j=$1:jdef n=$1:nodb m=$1:mem f=$1:floor ev=$3

	[[ ${status[$m]:-} == ok && ${status[$f]:-} == ok ]] || return 0
	echo "ratios on $fmt (wall and CPU = user + system):"
	if [[ ${status[$j]:-} == ok ]]; then
		goal "report.db / trace-cmd mem, wall" \
			"$(awk -v a="${wall_ns[$j]}" -v b="${wall_ns[$m]}" 'BEGIN { print a / b }')" \
			"<=" "$([[ $fmt == v6 ]] && echo 1.0 || echo 0.7)"
		[[ $fmt != v6 ]] || goal "report.db / trace-cmd mem, CPU" \
			"$(awk -v a="${cpu_ms[$j]}" -v b="${cpu_ms[$m]}" 'BEGIN { print b ? a / b : 99 }')" \
			"<=" 1.5
		[[ $fmt != v6 ]] || goal "report.db / bare read, wall" \
			"$(awk -v a="${wall_ns[$j]}" -v b="${wall_ns[$f]}" 'BEGIN { print a / b }')" \
			"<=" 2.0
	fi
	if [[ ${status[$n]:-} == ok && $fmt == v6 ]]; then
		goal "--no-db / trace-cmd mem, wall" \
			"$(awk -v a="${wall_ns[$n]}" -v b="${wall_ns[$m]}" 'BEGIN { print a / b }')" "<=" 0.7
		goal "--no-db / trace-cmd mem, CPU" \
			"$(awk -v a="${cpu_ms[$n]}" -v b="${cpu_ms[$m]}" 'BEGIN { print b ? a / b : 99 }')" \
			"<=" 1.0
		goal "--no-db CPU ns per event" \
			"$(awk -v a="${cpu_ms[$n]}" -v e="$ev" 'BEGIN { print a * 1e6 / e }')" "<=" 200
	fi
}

# writer_alone ID: report.db's writer on its own (bench/kma-store-rate, synthetic
# rows through the real store) with as many rows as the trace's report.db holds,
# best wall of $RUNS, against the bare read: the part of report.db's ratio to the
# bare read that the SQLite writer alone takes on this machine, whatever the reading
# and matching cost beside it.
writer_alone() {
	local j=$1:jdef f=$1:floor out w c i best= bcpu=

	[[ ${status[$j]:-} == ok && ${status[$f]:-} == ok && -n ${allocs[$j]:-} ]] || return 0
	make -s -C "$BENCH_DIR" kma-store-rate >/dev/null 2>&1 || return 0
	for ((i = 0; i < RUNS; i++)); do
		out=$("$BENCH_DIR/kma-store-rate" -n "${allocs[$j]}" -o "$tmp/writer-alone.db") ||
			{ rm -f "$tmp/writer-alone.db"; return 0; }
		w=$(sed -n 's/.* wall \([0-9.]*\) s.*/\1/p' <<< "$out")
		c=$(sed -n 's/.*store CPU \([0-9.]*\) s.*/\1/p' <<< "$out")
		if [[ -z $best ]] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$w bcpu=$c
		fi
	done
	rm -f "$tmp/writer-alone.db"
	awk -v w="$best" -v c="$bcpu" -v f="${wall_ns[$f]}" -v n="${allocs[$j]}" -v csv="$CSV" 'BEGIN {
		printf "  %-52s %8.2f  (kma-store-rate, %d rows: wall %.3f s, store CPU %.3f s)\n",
		       "report.db writer alone / bare read, wall", w * 1e9 / f, n, w, c
		printf "# writer alone (rows wall_s store_cpu_s x_floor): %d %.3f %.3f %.2f\n",
		       n, w, c, w * 1e9 / f >> csv
	}'
}

# sqlite_alone ID: SQLite with no kma code, the sqlite3 shell inserting as many
# rows of alloc_rows' shape (11 integer columns, report.db's widths and NULLs, its
# page size, no journal, no sync) with one INSERT ... SELECT from generate_series,
# best wall of $RUNS, against the bare read: the floor of report.db's ratio to the
# bare read, since SQLite writes the file from one thread.
sqlite_alone() {
	local j=$1:jdef f=$1:floor i t t0 best=

	[[ ${status[$j]:-} == ok && ${status[$f]:-} == ok && -n ${allocs[$j]:-} ]] || return 0
	cat > "$tmp/sqlite-alone.sql" <<-SQL
	PRAGMA page_size = 65536; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
	PRAGMA locking_mode = EXCLUSIVE;
	CREATE TABLE alloc_rows (id INTEGER PRIMARY KEY, ptr INTEGER NOT NULL,
		shape_id INTEGER NOT NULL, alloc_ts INTEGER NOT NULL, alloc_cpu INTEGER NOT NULL,
		task_id INTEGER NOT NULL, generation INTEGER NOT NULL, life INTEGER,
		free_cpu INTEGER, free_pid INTEGER, free_site_id INTEGER, free_kind INTEGER);
	BEGIN;
	INSERT INTO alloc_rows (ptr, shape_id, alloc_ts, alloc_cpu, task_id, generation, life,
		free_cpu, free_pid, free_site_id, free_kind)
	SELECT -131941395333120 + value * 64, value % 300, 1000000000000 + value * 2000,
		value & 1, value % 500, 0, 5000 + value % 100000, NULL,
		CASE WHEN value & 3 THEN NULL ELSE 1000 END, value % 40, value & 1
	FROM generate_series(1, ${allocs[$j]});
	COMMIT;
	SQL
	for ((i = 0; i < RUNS; i++)); do
		rm -f "$tmp/sqlite-alone.db"
		t0=$EPOCHREALTIME
		sqlite3 "$tmp/sqlite-alone.db" < "$tmp/sqlite-alone.sql" > /dev/null || return 0
		t=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
		if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
		fi
	done
	rm -f "$tmp/sqlite-alone.db" "$tmp/sqlite-alone.sql"
	awk -v w="$best" -v f="${wall_ns[$f]}" -v n="${allocs[$j]}" -v csv="$CSV" 'BEGIN {
		printf "  %-52s %8.2f  (the sqlite3 shell, %d rows of alloc_rows: wall %.3f s)\n",
		       "report.db SQLite alone / bare read, wall", w * 1e9 / f, n, w
		printf "# sqlite alone (rows wall_s x_floor): %d %.3f %.2f\n", n, w, w * 1e9 / f >> csv
	}'
}

# in_turn ID TRACE EVENTS: the v6 goals again from $PAIRS rounds, each timing
# kma-floor, --no-db and report.db (default -j) one after the other: the medians
# of the rounds' report.db / bare read wall and --no-db CPU ns per event. The
# host under the VM changes speed within minutes (the bare read 0.46-0.67 s in
# one hour), so a ratio of two best-of-N times taken minutes apart moves with it;
# one round's two runs are seconds apart. With KMA_BASE the base's two runs
# follow in each round: the same medians for it, and of kma / base per round,
# which tell a change from the host's state.
in_turn() {
	local id=$1 trace=$2 ev=$3 i k ok=1 ratios=() cpus=() bratios=() bcpus=() vs=() ks

	((PAIRS > 0)) || return 0
	ks="floor nodb jdef${KMA_BASE:+ bnodb bjdef}"
	for ((i = 0; i < PAIRS && ok; i++)); do
		measure "$id:turn-floor" 1 0 "$FLOOR" "$trace"
		measure "$id:turn-nodb" 1 0 "$ANALYZE" -q --no-db "$trace"
		measure "$id:turn-jdef" 1 0 "$ANALYZE" -q -o "$DB" "$trace"
		if [[ -n ${KMA_BASE:-} ]]; then
			measure "$id:turn-bnodb" 1 0 "$KMA_BASE" -q --no-db "$trace"
			measure "$id:turn-bjdef" 1 0 "$KMA_BASE" -q -o "$DB" "$trace"
		fi
		for k in $ks; do
			[[ ${status[$id:turn-$k]} == ok ]] || ok=0
		done
		((ok)) || break
		ratios+=("$(awk -v a="${wall_ns[$id:turn-jdef]}" -v b="${wall_ns[$id:turn-floor]}" \
			'BEGIN { printf "%.4f", a / b }')")
		cpus+=("$(awk -v a="${cpu_ms[$id:turn-nodb]}" -v e="$ev" \
			'BEGIN { printf "%.2f", a * 1e6 / e }')")
		[[ -n ${KMA_BASE:-} ]] || continue
		bratios+=("$(awk -v a="${wall_ns[$id:turn-bjdef]}" -v b="${wall_ns[$id:turn-floor]}" \
			'BEGIN { printf "%.4f", a / b }')")
		bcpus+=("$(awk -v a="${cpu_ms[$id:turn-bnodb]}" -v e="$ev" \
			'BEGIN { printf "%.2f", a * 1e6 / e }')")
		vs+=("$(awk -v a="${wall_ns[$id:turn-jdef]}" -v b="${wall_ns[$id:turn-bjdef]}" \
			'BEGIN { printf "%.4f", a / b }')")
	done
	((ok)) || { echo "  (rounds in turn: a run failed)"; return 0; }
	median_goal "report.db / bare read, wall, in turn" "<=" 2.0 "${ratios[@]}"
	median_goal "--no-db CPU ns per event, in turn" "<=" 200 "${cpus[@]}"
	[[ -n ${KMA_BASE:-} ]] || return 0
	median_line "base: report.db / bare read, wall, in turn" "${bratios[@]}"
	median_line "base: --no-db CPU ns per event, in turn" "${bcpus[@]}"
	median_line "report.db wall, kma / base, in turn" "${vs[@]}"
}

# median_line WHAT VALUE...: as median_goal, without a goal.
median_line() {
	local what=$1

	shift
	printf '%s\n' "$@" | sort -g | awk -v w="$what" -v csv="$CSV" '
		{ v[NR] = $1 }
		END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "  %-52s %8.2f  (median of %d rounds, %.2f-%.2f)\n", w, m, NR,
			       v[1], v[NR]
			printf "# %s (rounds median min max): %d %.3f %.3f %.3f\n", w, NR, m,
			       v[1], v[NR] >> csv
		}'
}

# median_goal WHAT OP LIMIT VALUE...: the median of the values (of an even count
# the mean of the middle two), their range, against the goal; and a CSV line.
median_goal() {
	local what=$1 op=$2 limit=$3

	shift 3
	printf '%s\n' "$@" | sort -g | awk -v w="$what" -v op="$op" -v l="$limit" \
		-v csv="$CSV" '
		{ v[NR] = $1 }
		END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			ok = op == "<=" ? m <= l : m >= l
			printf "  %-52s %8.2f  (goal %s %s: %s; median of %d rounds, %.2f-%.2f)\n",
			       w, m, op, l, ok ? "met" : "NOT met", NR, v[1], v[NR]
			printf "# %s (rounds median min max): %d %.3f %.3f %.3f\n", w, NR, m,
			       v[1], v[NR] >> csv
		}'
}

# quiet_check WHEN: the 1-minute load average against $QUIET; at the start,
# waits up to $QUIET_WAIT seconds for it to fall.  Says when the machine is busy:
# wall times and their ratios then measure the other jobs as much as kma.
quiet_check() {
	local load waited=0

	load=$(cut -d' ' -f1 /proc/loadavg)
	while [[ $1 == start ]] && ((waited < QUIET_WAIT)) &&
	      awk -v l="$load" -v q="$QUIET" 'BEGIN { exit !(l >= q) }'; do
		((waited == 0)) && echo "load average $load >= $QUIET: waiting up to" \
			"$QUIET_WAIT s for a quiet machine ..." >&2
		sleep 10
		waited=$((waited + 10))
		load=$(cut -d' ' -f1 /proc/loadavg)
	done
	if awk -v l="$load" -v q="$QUIET" 'BEGIN { exit !(l >= q) }'; then
		echo "WARNING: the machine is NOT quiet ($1: load average $load >= $QUIET):" \
			"wall times and ratios are unreliable, CPU times less so"
		busy=1
	else
		echo "the machine is quiet ($1: load average $load < $QUIET)"
	fi
}

# cpu_ticks: the machine's busy and stolen clock ticks so far (/proc/stat: user,
# nice, system, irq and softirq; steal: the hypervisor running something else).
cpu_ticks() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $9; exit }' /proc/stat
}

# kids_cpu VAR: the CPU seconds of this script's finished children into VAR
# (bash's times, run in this shell: in a $(...) subshell it counts the subshell's).
kids_cpu() {
	times >"$tmp/times"
	printf -v "$1" '%s' "$(awk 'NR == 2 {
		split($1, u, "m"); split($2, s, "m")
		printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$tmp/times")"
}

# other_work: the CPU time the machine spent on anything but this bench since
# other_start (every CPU's busy time less the bench's children's), and the time
# the hypervisor stole: the load average at the end counts the bench's own
# threads, these do not. Over BENCH_OTHER (default 0.2) of one CPU, or as much
# stolen, the run was not on a quiet machine.
other_start() {
	read -r busy0 steal0 < <(cpu_ticks)
	kids_cpu kids0
	t_start=$(date +%s.%N)
}

other_work() {
	local busy1 steal1 kids1 t_end

	read -r busy1 steal1 < <(cpu_ticks)
	kids_cpu kids1
	t_end=$(date +%s.%N)
	awk -v b0="$busy0" -v b1="$busy1" -v s0="$steal0" -v s1="$steal1" -v k0="$kids0" \
	    -v k1="$kids1" -v t0="$t_start" -v t1="$t_end" -v hz="$(getconf CLK_TCK)" \
	    -v max="${BENCH_OTHER:-0.2}" -v csv="$CSV" 'BEGIN {
		wall = t1 - t0; other = (b1 - b0) / hz - (k1 - k0); steal = (s1 - s0) / hz
		if (other < 0) other = 0
		busy = other / wall > max || steal / wall > max
		printf "%s: other work %.1f CPU s and %.1f s stolen by the hypervisor in %.0f s" \
		       " (%.2f and %.2f of one CPU; limit %s)%s\n",
		       busy ? "WARNING: the machine was NOT quiet" : "the machine was quiet",
		       other, steal, wall, other / wall, steal / wall, max,
		       busy ? ": wall times and ratios are unreliable, CPU times less so" : ""
		printf "# other work (cpu_s stolen_s wall_s quiet): %.1f %.1f %.0f %s\n", other,
		       steal, wall, busy ? "no" : "yes" >> csv
		exit busy }' || busy=1
}

header() {
	printf '%-30s %8s %7s %8s %8s %9s %8s %10s %11s\n' tool "wall s" "x floor" "ns/ev" \
		"cpu s" "cpu ns/ev" "RSS MB" "DB B/alloc" allocations
	printf '%-30s %8s %7s %8s %8s %9s %8s %10s %11s\n' "$(printf '%.0s-' {1..30})" -------- \
		------- -------- -------- --------- -------- ---------- -----------
}

echo "# kma benchmark $(date -u '+%F %T UTC')" >"$CSV"
echo "# host $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)," \
	"tree $(git -C "$TOP_DIR" rev-parse --short HEAD 2>/dev/null || echo '?')," \
	"libtracecmd $(pkg-config --modversion libtracecmd 2>/dev/null || echo '?')" >>"$CSV"
csv section trace format events tool wall_s x_floor ns_per_event peak_rss_mb \
	db_bytes allocations db_bytes_per_alloc runs status cpu_s cpu_ns_per_event

echo "kma benchmark, $(date -u '+%F %T UTC'): $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "kma-analyze: $ANALYZE ($(has_jobs "$ANALYZE" && echo "takes -j" || echo "no -j"))"
[[ -z ${KMA_BASE:-} ]] || echo "base:        $KMA_BASE ($(has_jobs "$KMA_BASE" && echo "takes -j" || echo "no -j"))"
busy=0
md_rows=()
quiet_check start
echo "# quiet: $( ((busy)) && echo no || echo yes) (load $(cut -d' ' -f1 /proc/loadavg) < $QUIET?)" >>"$CSV"
other_start

# The machine's latency of a load that misses the cache (bench/kma-memlat): on a big
# trace the pointer map's and live set's misses, not kma's instructions, set the cost
# per event, so two machines' ns per event compare only beside these figures.
if make -s -C "$BENCH_DIR" kma-memlat >"$tmp/memlat.log" 2>&1 &&
	"$BENCH_DIR/kma-memlat" "${MEMLAT_MB:-256}" >"$tmp/memlat.txt"; then
	memlat=$(awk '$1 == "memlat" { printf "%s%s MB %.0f", (NR > 1 ? ", " : ""), $2, $3 }' \
		"$tmp/memlat.txt")
	echo "memory latency, a load that misses the cache (ns, on huge pages): $memlat"
	echo "# memlat (MB ns): $memlat" >>"$CSV"
else
	echo "kma-memlat: cannot build or run it:" && tail -3 "$tmp/memlat.log"
fi

# One table per trace: the real one in v7 zstd, then its v6 copy.
bases=(nodb j1 jdef)
for trace in "$TRACE" "$TRACE_V6"; do
	fmt=$(trace_format "$trace")
	id=$(basename "$trace")
	time_tool "$id:floor" floor "" "$trace" "$RUNS" "$WARMUP"
	[[ ${status[$id:floor]} == ok ]] || die "kma-floor failed on $trace"
	events=$("$FLOOR" "$trace")
	events=${events#events }
	time_tool "$id:mem" mem "" "$trace" "$RUNS" "$WARMUP"
	for t in "${bases[@]}"; do
		time_tool "$id:$t" "$t" "$ANALYZE" "$trace" "$RUNS" "$WARMUP"
		if [[ -n ${KMA_BASE:-} ]]; then
			time_tool "$id:base-$t" "$t" "$KMA_BASE" "$trace" "$RUNS" "$WARMUP"
		fi
	done
	RUNS_NOW=$RUNS
	echo
	echo "$trace: $fmt, $(du -hL "$trace" | cut -f1), $events events"
	header
	for t in floor mem "${bases[@]}"; do
		row real "$id:$t" "${tool_label[$t]}" "$trace" "$fmt" "$events" "$id:floor"
		if [[ $t != floor && $t != mem && -n ${KMA_BASE:-} ]]; then
			row real "$id:base-$t" "base ${tool_label[$t]#kma }" "$trace" "$fmt" \
				"$events" "$id:floor"
		fi
	done
	echo "(wall: best of $RUNS$( ((WARMUP)) && echo " after a warm-up run"); RSS: largest of the $RUNS)"
	ratios "$id" "$fmt" "$events"
	[[ $fmt != v6 ]] || in_turn "$id" "$trace" "$events"
	[[ $fmt != v6 ]] || writer_alone "$id"
	[[ $fmt != v6 ]] || sqlite_alone "$id"
done

# --- a trace with stacks ------------------------------------------------------

# extra_trace SECTION TRACE EVENTS FORMAT-NOTE TITLE TOOL...: kma-floor and each
# TOOL on TRACE, and their table; EVENTS are the kmem events the ns per event count.
extra_trace() {
	local section=$1 trace=$2 events=$3 note=$4 title=$5 fmt id t
	shift 5
	fmt=$(trace_format "$trace")
	id=$section:$(basename "$trace")
	for t in floor "$@"; do
		time_tool "$id:$t" "$t" "$ANALYZE" "$trace" "$RUNS" "$WARMUP"
	done
	RUNS_NOW=$RUNS
	echo
	echo "$trace ($title): $fmt, $(du -hL "$trace" | cut -f1), $events kmem events"
	header
	for t in floor "$@"; do
		row "$section" "$id:$t" "${tool_label[$t]}" "$trace" "$fmt $note" "$events" "$id:floor"
	done
}

# Recorded with kernel stacks (kma-record --stacks, trace-cmd record -T): about
# 3 x the bytes per kmem event; the same rows, plus the folded report.
STACKS=${TRACE_STACKS:-$BENCH_DIR/stacks-big.dat}
if [[ -z $QUICK && -s $STACKS ]]; then
	# per kmem event: the kernel_stack records are priced on top of them
	counts=$("$ANALYZE" --count "$STACKS")
	events=$(awk '$1 == "kmem" { print $2 }' <<< "$counts")
	stack_recs=$(awk '$2 == "ftrace:kernel_stack" { print $3 }' <<< "$counts")
	extra_trace stacks "$STACKS" "$events" "with stacks" \
		"with stacks, ns per kmem event, ${stack_recs:-0} kernel_stack records" \
		nodb jdef folded
elif [[ -z $QUICK ]]; then
	echo
	echo "no trace with stacks ($STACKS): record one with" \
		"KMA_BENCH_STACKS=1 bench/record-big.sh $STACKS"
fi

# --- a trace with page events ----------------------------------------------------

# Recorded with the page allocator's events too (KMA_BENCH_PAGES=1
# bench/record-big.sh): ns per kmem event, slab and page, with and without --pages.
PAGES=${TRACE_PAGES:-$BENCH_DIR/pages-big.dat}
if [[ -z $QUICK && -s $PAGES ]]; then
	events=$("$ANALYZE" --count "$PAGES" | awk '$1 == "records" { print $2 }')
	extra_trace pages "$PAGES" "$events" "with pages" "with page events, slab and page" \
		nodb pnodb pdb
elif [[ -z $QUICK ]]; then
	echo
	echo "no trace with page events ($PAGES): record one with" \
		"KMA_BENCH_PAGES=1 bench/record-big.sh $PAGES"
fi

# --- growth ------------------------------------------------------------------

if [[ ${BENCH_GROWTH:-1} != 0 ]]; then
	growth_traces "$GROW_SMALL"
	s6=$g6 s7=$g7
	growth_traces "$GROW_BIG"
	b6=$g6 b7=$g7
	small=$((BLOCK * GROW_SMALL)) big=$((BLOCK * GROW_BIG))
	RUNS_NOW=$GROWTH_RUNS
	echo
	echo "growth: generated traces, $((BLOCK / 20)) allocations live at any time," \
		"best of $GROWTH_RUNS run(s), page cache warm; rows as they are measured"
	for t in $GROWTH_TOOLS; do
		echo
		echo "${tool_label[$t]}:"
		header
		for pair in "$s6 $b6" "$s7 $b7"; do
			set -- $pair
			k1=g:$(basename "$1"):$t k2=g:$(basename "$2"):$t
			for trace in "$1" "$2"; do
				ev=$small
				[[ $trace == "$1" ]] || ev=$big
				cat "$trace" >/dev/null	# page cache, instead of a warm-up run
				PROGRESS=0 time_tool "g:$(basename "$trace"):$t" "$t" "$ANALYZE" \
					"$trace" "$GROWTH_RUNS" 0
				row growth "g:$(basename "$trace"):$t" "$(basename "$trace")" "$trace" \
					"$(trace_format "$trace")" "$ev" none "${tool_label[$t]}"
			done
			[[ ${status[$k1]} == ok && ${status[$k2]} == ok ]] || continue
			awk -v a="${wall_ns[$k1]}" -v b="${wall_ns[$k2]}" -v ea="$small" -v eb="$big" \
			    -v ra="${rss_kb[$k1]}" -v rb="${rss_kb[$k2]}" -v f="$(trace_format "$1")" \
			    -v t="$t" -v csv="$CSV" 'BEGIN {
				r = (b / eb) / (a / ea)
				printf "  %s %gM/%gM: ns/event x %.3f (goal <= 1.15), peak RSS x %.2f (goal: flat)\n",
				       f, eb / 1e6, ea / 1e6, r, rb / ra
				printf "growth-ratio,,%s,%d/%d,%s,,,%.3f,%.2f,,,,,ok,\n", f, eb, ea, t, r, rb / ra >> csv
			}'
		done
	done
fi

# --- the writer alone ----------------------------------------------------------

# report.db's writer on synthetic rows through the real store (goal: >= 2M rows/s)
echo
if make -s -C "$BENCH_DIR" kma-store-rate >"$tmp/store-rate.log" 2>&1; then
	"$BENCH_DIR/kma-store-rate" -n "${STORE_ROWS:-4000000}" -o /tmp/kma-store-rate.db ||
		failed=1
	rm -f /tmp/kma-store-rate.db
else
	echo "kma-store-rate: cannot build it:" && tail -3 "$tmp/store-rate.log"
	failed=1
fi

# --- memory follows live allocations, not events --------------------------------

# peak RSS of the slab and page runs at 10x the events, and of every mode at 2M and 20M
# events (bench/rss.sh; BENCH_RSS=0 skips; a mode over 1.3x fails the run)
if [[ ${BENCH_RSS:-1} != 0 ]]; then
	echo
	KMA_ANALYZE=$ANALYZE MKTRACE=$MKTRACE bash "$BENCH_DIR/rss.sh" || failed=1
fi

# kma on perf.data against perf kmem, and the four allocator kinds (bench/perf.sh;
# BENCH_PERF=0 skips)
if [[ ${BENCH_PERF:-1} != 0 ]]; then
	echo
	KMA_ANALYZE=$ANALYZE MKTRACE=$MKTRACE BENCH_CSV=$CSV bash "$BENCH_DIR/perf.sh" || failed=1
fi

echo
other_work
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (the bench's own threads count in it)"
echo
echo "As in docs/performance.md (wall: best run; CPU: user + system of that run):"
echo
echo "| trace | tool | wall s | CPU s | × floor | wall ns/event | CPU ns/event | × mem wall | × mem CPU | peak RSS MB | DB B/alloc |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${md_rows[@]}"
echo "figures as CSV: $CSV"
exit "$failed"
