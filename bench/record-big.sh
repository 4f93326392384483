#!/usr/bin/env bash
# record-big.sh - record a big kmem trace for the kma benchmark.
#
# Usage: bench/record-big.sh OUT.dat
#
# Runs a slab-heavy workload under `trace-cmd record` with the four kmem
# slab events enabled and writes OUT.dat (several million events, tens of
# MB compressed).  The trace is never committed: bench/.gitignore has *.dat.
#
# Environment:
#   KMA_BENCH_ROUNDS   workload rounds (default 2; one round is about
#                      3M events here); raise it if the trace comes out
#                      below KMA_BENCH_MIN_EVENTS
#   KMA_BENCH_MIN_EVENTS  events the trace must hold (default 2000000)
#   KMA_BENCH_BUFFER   kernel buffer per CPU in KiB (default 262144)
#   KMA_BENCH_STACKS=1 record a kernel stack with every event (trace-cmd -T);
#                      the trace is about 3 x bigger per event
#   KMA_BENCH_PAGES=1  record the page allocator's events too
#                      (kmem:mm_page_alloc, kmem:mm_page_free), for the
#                      --pages figures of docs/performance.md
#   KMA_BENCH_COMPRESSION  passed as trace-cmd record --compression
#                      (e.g. none); unset: trace-cmd's default, zstd here.
#                      trace-cmd 3.1 writes file version 7 either way: none
#                      gives v7 uncompressed, not v6 (bench/run.sh makes the
#                      v6 copy it needs with trace-cmd convert).
#                      libtracecmd 1.3.1 reads big compressed traces far
#                      slower than uncompressed ones: every record free
#                      walks the list of decompressed chunks.
#
# Needs root and a writable tracefs.  `trace-cmd record` is run with -d
# and --no-filter because this machine refuses writes to set_ftrace_pid,
# set_ftrace_filter and ftrace_enabled; it still complains about
# set_ftrace_filter at the end and exits 1, so its exit status is not
# trusted: the file is checked by reading it back with kma-floor.
#
# (Internal: `record-big.sh --workload ROUNDS` runs only the workload;
# that is what trace-cmd record executes.)

set -euo pipefail

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
TRACEFS=/sys/kernel/tracing
ROUNDS=${KMA_BENCH_ROUNDS:-2}
MIN_EVENTS=${KMA_BENCH_MIN_EVENTS:-2000000}
BUFFER_KB=${KMA_BENCH_BUFFER:-262144}
COMPRESSION=${KMA_BENCH_COMPRESSION:-}

die() {
	echo "record-big.sh: $*" >&2
	exit 1
}

# The workload: things that allocate and free a lot of slab objects
# (dentries, inodes, files, task structs, mm/vma, pipe buffers...).
# Each round takes a few seconds.
workload() {
	local rounds=$1 r i

	# Global, not local: the EXIT trap runs after workload() returned.
	scratch=$(mktemp -d /dev/shm/kma-bench.XXXXXX)
	trap 'rm -rf "$scratch"' EXIT

	for ((r = 1; r <= rounds; r++)); do
		# Walk a big tree: dentry/inode lookups, getdents buffers.
		find /usr -xdev >/dev/null 2>&1 || true

		# Archive /usr/share through a pipe (GNU tar skips reading
		# when writing straight to /dev/null, hence the cat).
		tar -cf - /usr/share 2>/dev/null | cat >/dev/null || true

		# Create and remove many files on tmpfs: inodes, dentries,
		# xattrs, files.
		for ((i = 0; i < 20; i++)); do
			mkdir "$scratch/d$i"
			(cd "$scratch/d$i" && seq 1 1000 | xargs touch)
			rm -rf "${scratch:?}/d$i"
		done

		# Fork/exec many short-lived processes: task_struct, mm,
		# vm_area_struct, cred, files_struct, signal, pid...
		for ((i = 0; i < 1500; i++)); do
			/bin/true
		done
	done
}

if [[ ${1:-} == --workload ]]; then
	workload "${2:-$ROUNDS}"
	exit 0
fi

if [[ $# -ne 1 || $1 == -h || $1 == --help ]]; then
	echo "usage: $0 OUT.dat" >&2
	exit 1
fi
out=$1

command -v trace-cmd >/dev/null || die "trace-cmd not found (apt-get install trace-cmd)"

# tracefs must be mounted and writable, else nothing can be recorded.
if [[ ! -e $TRACEFS/tracing_on ]]; then
	mount -t tracefs nodev "$TRACEFS" 2>/dev/null ||
		die "tracefs is not mounted at $TRACEFS and cannot be mounted (need root)"
fi
[[ -d $TRACEFS/events/kmem/kmalloc ]] ||
	die "kernel has no kmem tracepoints ($TRACEFS/events/kmem/kmalloc missing)"
# A no-op write (the current value back) proves tracefs is writable.
tracing_on=$(cat "$TRACEFS/tracing_on")
if ! { echo "$tracing_on" >"$TRACEFS/tracing_on"; } 2>/dev/null; then
	die "tracefs at $TRACEFS is not writable (run as root; read-only mount or lockdown?)"
fi

# kma-floor is used to count the events of the new trace.
if [[ ! -x $BENCH_DIR/kma-floor ]]; then
	make -s -C "$BENCH_DIR" kma-floor || die "cannot build $BENCH_DIR/kma-floor"
fi

compress_opt=()
# -T: a kernel stack after every event (the stacktrace option), for the
# stacks table of bench/run.sh
[[ ${KMA_BENCH_STACKS:-0} == 0 ]] || compress_opt+=(-T)
page_events=()
[[ ${KMA_BENCH_PAGES:-0} == 0 ]] || page_events=(-e kmem:mm_page_alloc -e kmem:mm_page_free)
if [[ -n $COMPRESSION ]]; then
	compress_opt+=(--compression "$COMPRESSION")
fi

log=$(mktemp /tmp/kma-record.XXXXXX.log)
echo "recording $ROUNDS workload rounds into $out (log: $log) ..."
start=$(date +%s.%N)
# Exit status ignored on purpose, see the header; the file is checked below.
trace-cmd record -d --no-filter \
	-e kmem:kmalloc -e kmem:kfree \
	-e kmem:kmem_cache_alloc -e kmem:kmem_cache_free ${page_events[@]+"${page_events[@]}"} \
	-b "$BUFFER_KB" ${compress_opt[@]+"${compress_opt[@]}"} -o "$out" \
	"$BENCH_DIR/record-big.sh" --workload "$ROUNDS" >"$log" 2>&1 || true
end=$(date +%s.%N)

[[ -s $out ]] || die "trace-cmd record wrote no $out; see $log"
# With stacks (-T) in a zstd file libtracecmd (kma-floor) takes many minutes:
# its reads slow down with the number of chunks inflated; kma's own reader
# counts the kmem events in seconds.
KMA_ANALYZE=$BENCH_DIR/../build/analyzer/kma-analyze
if [[ ${KMA_BENCH_STACKS:-0} != 0 && -x $KMA_ANALYZE ]]; then
	events=$("$KMA_ANALYZE" --count "$out" | awk '$1 == "kmem" { print $2 }') &&
		[[ -n $events ]] || die "$out is not a readable trace; see $log"
else
	events=$("$BENCH_DIR/kma-floor" "$out") ||
		die "$out is not a readable trace; see $log"
	events=${events#events }
fi
rm -f "$log"

# Kernel buffer overruns mean lost events: say so, a bigger -b helps.
lost=$(trace-cmd report -i "$out" --stat 2>/dev/null |
	awk '/^overrun:|^commit overrun:|^dropped events:/ { s += $NF } END { print s + 0 }')

printf 'trace:    %s (%s)\n' "$out" "$(du -h "$out" | cut -f1)"
printf 'events:   %s\n' "$events"
printf 'lost:     %s (overruns + dropped, per trace-cmd report --stat)\n' "$lost"
printf 'recorded: %.1f s\n' "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"

if ((events < MIN_EVENTS)); then
	die "only $events events (< $MIN_EVENTS); rerun with KMA_BENCH_ROUNDS=$((ROUNDS > 0 ? ROUNDS * 2 : 1))"
fi
if ((lost > 0)); then
	echo "record-big.sh: warning: $lost events lost; try KMA_BENCH_BUFFER=$((BUFFER_KB * 2))" >&2
fi
exit 0
