# SPDX-License-Identifier: GPL-2.0
# bench/measure.sh: the one timing loop of bench/run.sh and bench/perf.sh (sourced).
# Needs $tmp, $DB, $GNU_TIME and a variable failed from the sourcing script.

# Results per key KEY (set by measure): wall ns, CPU (user + system) ms of
# the best run, peak RSS KiB, DB bytes, allocations, status.
declare -A wall_ns cpu_ms rss_kb db_bytes allocs status

# measure KEY RUNS WARMUP CMD...: WARMUP untimed runs, then RUNS timed ones;
# keeps the best wall time and the largest peak RSS.  A command that writes
# $DB gets a fresh one every run; the last one is measured.  A failing run
# marks KEY failed and stops.
measure() {
	local key=$1 runs=$2 warm=$3 i t0 t1 ns kb cpu rc=0
	shift 3

	wall_ns[$key]=0 cpu_ms[$key]=0 rss_kb[$key]=0 db_bytes[$key]= allocs[$key]=
	for ((i = 1 - warm; i <= runs; i++)); do
		rm -f "$DB" "$DB"-journal "$DB"-wal "$DB"-shm
		t0=$(date +%s%N)
		"$GNU_TIME" -f '%M %U %S' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || rc=$?
		t1=$(date +%s%N)
		if ((rc != 0)); then
			status[$key]="failed (exit $rc)"
			sed 's/^/    /' "$tmp/err" | tail -5 >&2
			failed=1
			return 0
		fi
		((i >= 1)) || continue
		ns=$((t1 - t0))
		read -r kb cpu < <(tail -n 1 "$tmp/time" |
			awk '{ printf "%d %d\n", $1, ($2 + $3) * 1000 }')
		if ((wall_ns[$key] == 0 || ns < wall_ns[$key])); then
			wall_ns[$key]=$ns cpu_ms[$key]=$cpu
		fi
		((kb > rss_kb[$key])) && rss_kb[$key]=$kb
	done
	status[$key]=ok
	if [[ -s $DB ]]; then
		db_bytes[$key]=$(stat -c %s "$DB")
		allocs[$key]=$(sqlite3 "$DB" 'SELECT COUNT(*) FROM allocations')
	fi
	rm -f "$DB"
}

