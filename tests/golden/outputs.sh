#!/bin/bash
# Every output of kma-analyze on every fixture, one file per input, for t-golden.sh:
#   tests/golden/outputs.sh KMA MKTRACE OUTDIR [INPUT...]
# (INPUT: a fixture name such as basic.dat or a generated one such as gen-reuse; default all)
# Run from the top of the tree (paths in report.db are as given). The expected files
# in tests/golden/expect/ were made with this script by the code *before* the layout
# change to the layered layout (git log tests/golden/expect); a change of behaviour shows as a
# diff. Their report.db part was a `sqlite3 .dump` until report.db version 2:
# it was then cut down to the dump's INSERT lines by a filter, not made again by kma.
# They were regenerated once, for intended changes only, each reviewed: the "Sorted by"
# lines, times in seconds ('s'; *_ns in CSV/JSON), the order of --lifetimes (-s), the
# leak verdict columns, --advice ranges, kmalloc-cg/rcl/dma caches, the --list cache of a
# kmalloc, the -g file hint, report.db version 4 columns; the --leaks layout (suspects
# first within 120 columns, reasons under them; CSV/JSON: per_iteration, reclaim_freed and
# "iterations"), a --generation the trace lacks (now an error), and in report.db's callers
# only leak_class/leak_why where the recorder class and 6.18's extent_status apply; the
# default per-caller numbers are unchanged; then times rounded half up to the microsecond as
# trace-cmd report prints them, the slack% column (slack_pct in CSV/JSON), the JSON summary's
# unknown_frees_scope, and a filtered report's unknown/null frees selected by the freeing task
# and time. Regenerate only for an intended change, and say so in the commit message.
# KMA and MKTRACE must be absolute paths (generated inputs run from a scratch folder).
set -u
KMA=$1 MKTRACE=$2 OUT=$3
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 1
SCR=$(mktemp -d)
trap 'rm -rf "$SCR"' EXIT

REPORTS=("" "-g function" "-g module" "-g file" "-g cache" "-g comm" "-g pid"
	 "-s net -n 5" "-s caller" "--kmalloc-only" "--leaks" "--generations" "--lifetimes"
	 "--peak" "--leftovers" "--advice" "--outstanding --list" "--generation 1 --list"
	 "--since 0.001 --until 0.5 -s allocs" "--leaks --young 0")

# section TITLE CMD...: the command's stdout, then its stderr and exit status (stdout
# straight into the output, stderr read only when there is some: ~5,000 fewer cat
# processes over the inputs, the same bytes)
section() {
	local title=$1 rc
	shift
	echo "### $title"
	"$@" 2> "$SCR/e"
	rc=$?
	echo "--- stderr, exit $rc"
	[ -s "$SCR/e" ] && cat "$SCR/e"
	return 0
}

# The rows of every table of report.db version 1, in the order `sqlite3 .dump` gave them,
# as its INSERT lines: since version 2, allocations and unknown_frees are views over
# integer tables, and they must still show version 1's rows byte for byte. Version 3
# appends columns to the two views (stack_id, free_stack_id): version 1's columns are
# named, so the rows compared stay version 1's.
V1_TABLES="trace generations modules event_counts lost_events callers allocations
	   unknown_frees module_leftovers"
V1_ALLOCATIONS="id, ptr, caller_id, caller, alloc_event, bytes_req, bytes_alloc, gfp_flags,
	node, cache, accounted, alloc_ts, alloc_cpu, pid, comm, generation, free_ts, free_cpu,
	free_pid, free_caller, free_address, free_kind"
V1_UNKNOWN_FREES="id, ts, cpu, pid, comm, ptr, caller, address, free_kind"
rows() {
	local t order cols
	local -a q=()
	echo "### report.db rows"
	for t in $V1_TABLES; do
		# tables come in rowid order, as .dump has them; the views by id, the same
		case $t in
		allocations) order="ORDER BY id" cols=$V1_ALLOCATIONS ;;
		unknown_frees) order="ORDER BY id" cols=$V1_UNKNOWN_FREES ;;
		*) order='' cols='*' ;;
		esac
		q+=(".mode insert $t" "SELECT $cols FROM $t $order")
	done
	# one sqlite3 for all the tables: it runs its arguments in turn
	sqlite3 "$1" "${q[@]}"
}

one() {
	local name=$1 dat=$2 fmt r db
	{
		for fmt in text csv json; do
			for r in "${REPORTS[@]}"; do
				# shellcheck disable=SC2086
				section "-f $fmt $r" "$KMA" --no-db -f $fmt $r "$dat"
			done
		done
		db=$SCR/r.db
		rm -f "$db"
		section "report.db" "$KMA" -q -o "$db" "$dat"
		rows "$db"
		rm -f "$db"
		section "report.db --kmalloc-only" "$KMA" -q --kmalloc-only -o "$db" "$dat"
		rows "$db"
	} > "$OUT/$name.out"
}

shift 3
if [ $# = 0 ]; then
	set -- $(cd tests/fixtures && ls -- *.dat) $(cd tests/gen && ls -- *.seq | sed 's/^/gen-/; s/\.seq$//')
fi
for i in "$@"; do
	case $i in gen-*) ;; *) one "$i" "tests/fixtures/$i"; continue ;; esac
	s=tests/gen/${i#gen-}.seq
	n=$(basename "$s" .seq)
	"$MKTRACE" -o "$SCR/$n.dat" "$s" > /dev/null 2>&1 || { echo "mktrace $s failed" >&2; exit 1; }
	"$MKTRACE" -g 5.10 -l 4 -E big -o "$SCR/$n-old.dat" "$s" > /dev/null 2>&1 ||
		{ echo "mktrace -g 5.10 $s failed" >&2; exit 1; }
	# the same names in report.db whatever the scratch directory
	(cd "$SCR" && one "gen-$n" "$n.dat" && one "gen-$n-5.10-32-be" "$n-old.dat")
done
