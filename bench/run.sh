#!/usr/bin/env bash
# run.sh - the kma benchmark: kma-analyze against the bare read loop.
#
# Usage: bench/run.sh [TRACE.dat]
#
# Without TRACE.dat it uses bench/big.dat, recording it first with
# bench/record-big.sh when it does not exist.  Then it times, best of 3
# runs after one warm-up run each:
#   kma-floor      bench/kma-floor TRACE           (the floor: read + count)
#   kma-analyze    build/analyzer/kma-analyze -q -o /tmp/kma-bench.db TRACE
#   trace-cmd mem  trace-cmd mem -i TRACE >/dev/null
# and prints wall time, events/s, ratio to the floor and peak RSS, then
# the event count and the allocations in /tmp/kma-bench.db.
# The page cache is not flushed: the warm-up run makes every run warm.
# KMA_ANALYZE=PATH times another kma-analyze binary; KMA_BASE=PATH times a second
# one in the same run (e.g. a build of the previous commit), side by side.
#
# Exit status: 0, or 1 when the setup fails or a timed tool fails.

set -euo pipefail

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
TOP_DIR=$(cd "$BENCH_DIR/.." && pwd)
FLOOR=$BENCH_DIR/kma-floor
ANALYZE=${KMA_ANALYZE:-$TOP_DIR/build/analyzer/kma-analyze}	# override to compare builds
DB=/tmp/kma-bench.db
RUNS=3
GNU_TIME=/usr/bin/time

die() {
	echo "run.sh: $*" >&2
	exit 1
}

# --- setup -------------------------------------------------------------

if [[ $# -gt 1 || ${1:-} == -h || ${1:-} == --help ]]; then
	echo "usage: $0 [TRACE.dat]" >&2
	exit 1
fi

if [[ $# -eq 1 ]]; then
	trace=$1
	[[ -r $trace ]] || die "cannot read trace '$trace'"
else
	trace=$BENCH_DIR/big.dat
	if [[ ! -e $trace ]]; then
		echo "no $trace yet, recording it"
		"$BENCH_DIR/record-big.sh" "$trace" || die "recording $trace failed"
	fi
fi

make -s -C "$BENCH_DIR" kma-floor || die "cannot build $FLOOR"

# GNU time gives the peak RSS (%M, KiB) of the command.
if [[ ! -x $GNU_TIME ]]; then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
		echo "installing package 'time' for $GNU_TIME"
		apt-get install -y -qq time >/dev/null || die "apt-get install time failed"
	else
		die "$GNU_TIME missing: install package 'time'"
	fi
fi
command -v trace-cmd >/dev/null || die "trace-cmd not found"

# --- timing ------------------------------------------------------------

# Results per tool id (floor, analyze, mem), filled by measure().
declare -A label wall_ns rss_kb status
label=([floor]="kma-floor" [analyze]="kma-analyze" [base]="base kma" [mem]="trace-cmd mem")

tmp=$(mktemp -d /tmp/kma-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# measure ID CMD...: one warm-up run, then $RUNS timed runs.  Keeps the
# best wall time (ns) and the largest peak RSS (KiB) of the timed runs.
# stdout of the warm-up run is kept in $tmp/ID.out; a failing run
# marks the tool failed and stops its measurement.
measure() {
	local name=$1 i t0 t1 ns kb rc
	shift

	echo "timing ${label[$name]} ..." >&2
	if [[ $name == analyze || $name == base ]]; then
		rm -f "$DB" "$DB"-journal "$DB"-wal "$DB"-shm
	fi
	rc=0
	"$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	if ((rc != 0)); then
		status[$name]="failed (exit $rc)"
		sed 's/^/    /' "$tmp/$name.err" | tail -5 >&2
		return 0
	fi

	wall_ns[$name]=0
	rss_kb[$name]=0
	for ((i = 1; i <= RUNS; i++)); do
		# kma-analyze always starts from an empty report.db.
		if [[ $name == analyze || $name == base ]]; then
			rm -f "$DB" "$DB"-journal "$DB"-wal "$DB"-shm
		fi
		rc=0
		t0=$(date +%s%N)
		"$GNU_TIME" -f '%M' -o "$tmp/$name.time" "$@" \
			>/dev/null 2>"$tmp/$name.err" || rc=$?
		t1=$(date +%s%N)
		if ((rc != 0)); then
			status[$name]="failed (exit $rc)"
			sed 's/^/    /' "$tmp/$name.err" | tail -5 >&2
			return 0
		fi
		ns=$((t1 - t0))
		kb=$(tail -n 1 "$tmp/$name.time")
		if ((wall_ns[$name] == 0 || ns < wall_ns[$name])); then
			wall_ns[$name]=$ns
		fi
		if ((kb > rss_kb[$name])); then
			rss_kb[$name]=$kb
		fi
	done
	status[$name]=ok
}

measure floor "$FLOOR" "$trace"
[[ ${status[floor]} == ok ]] || die "kma-floor failed on $trace"
events=$(sed -n 's/^events \([0-9]*\)$/\1/p' "$tmp/floor.out")
[[ -n $events ]] || die "kma-floor printed no event count"

if [[ -n ${KMA_BASE:-} ]]; then
	measure base "$KMA_BASE" -q -o "$DB" "$trace"
else
	status[base]="not asked (KMA_BASE=PATH)"
fi
if [[ -x $ANALYZE ]]; then
	measure analyze "$ANALYZE" -q -o "$DB" "$trace"
else
	status[analyze]="not built"
fi

measure mem trace-cmd mem -i "$trace"

# --- report ------------------------------------------------------------

echo
echo "trace: $trace ($(du -h "$trace" | cut -f1))"
printf '%-14s %10s %12s %9s %12s\n' tool "wall s" "events/s" "x floor" "peak RSS MB"
printf '%-14s %10s %12s %9s %12s\n' -------------- ---------- ------------ --------- ------------
failed=0
for name in floor base analyze mem; do
	[[ $name == base && -z ${KMA_BASE:-} ]] && continue
	if [[ ${status[$name]} != ok ]]; then
		printf '%s %s\n' "${label[$name]}" "${status[$name]}"
		[[ ${status[$name]} == failed* ]] && failed=1
		continue
	fi
	awk -v name="${label[$name]}" -v ns="${wall_ns[$name]}" \
	    -v floor="${wall_ns[floor]}" -v ev="$events" -v kb="${rss_kb[$name]}" \
	    'BEGIN { printf "%-14s %10.3f %12.0f %9.2f %12.1f\n",
		     name, ns / 1e9, ev / (ns / 1e9), ns / floor, kb / 1024 }'
done
echo "(wall: best of $RUNS after a warm-up run; peak RSS: largest of the $RUNS)"

echo
echo "events:            $events"
if [[ ${status[analyze]} == ok && -s $DB ]]; then
	if command -v sqlite3 >/dev/null; then
		echo "allocations:       $(sqlite3 "$DB" 'select count(*) from allocations')"
		echo "live at the end:   $(sqlite3 "$DB" 'select count(*) from allocations where free_ts is null')"
		echo "report.db bytes per allocation: $(( $(stat -c %s "$DB") / $(sqlite3 "$DB" 'select max(1, count(*)) from allocations') ))"
	else
		echo "allocations:       (sqlite3 not installed)"
	fi
fi

exit "$failed"
