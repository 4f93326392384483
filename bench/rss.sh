#!/usr/bin/env bash
# rss.sh - kma's own memory follows live allocations, not events.
#
# Generates traces with mktrace (build/tests/tools/mktrace; `make tools`): N
# kmalloc/kfree pairs with at most LIVE allocations live at a time, and prints
# the peak RSS of kma-analyze --no-db next to the bare read loop's (bench/kma-floor,
# tracecmd_iterate_events, whose memory grows with the file) on the same file, and
# kma's as a ratio to its first row: ten times the events at the same LIVE should
# stay near 1.00, and only LIVE should move it.
#
# Then the same for the page allocator: N mm_page_alloc/mm_page_free pairs with
# at most LIVE pages live, through kma-analyze --pages writing report.db (its
# page rows stream to the writer thread: memory follows the live pages, not the
# trace), with report.db's bytes per page allocation.
#
# Last, every analysis mode at 2M and 20M events with the same allocations live
# (bench/traces.sh's periodic 1M-event blocks, slab and page, repeated; cached in
# build/rss/, about 1 GB each at 20M; RSS_BLOCK=N for another block size): peak
# RSS of each and the ratio 20M / 2M. Exit status 1 when a mode's ratio is over
# RSS_MAX_RATIO (1.3): its memory grows with the events. RSS_MODES_ONLY=1: this
# table alone. A small RSS_BLOCK tests the script, not kma: below 1,048,576
# traced frees --lifetimes keeps them all exactly, and fixed costs dominate.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
MKTRACE=${MKTRACE:-$TOP/build/tests/tools/mktrace}
ANALYZE=${KMA_ANALYZE:-$TOP/build/analyzer/kma-analyze}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
tmp=$TMP	# bench/traces.sh's scratch
. "$TOP/bench/traces.sh"
[ -x "$MKTRACE" ] || { echo "rss.sh: build $MKTRACE first (make tools)" >&2; exit 1; }
make -s -C "$TOP/bench" >/dev/null

gen() {	# N LIVE
	python3 - "$1" "$2" <<'PY'
import sys
n, live = int(sys.argv[1]), int(sys.argv[2])
print("cpus 1\nkallsyms ffffffff81000000 T _stext\nkallsyms ffffffff81100000 t alloc_a")
print("kallsyms ffffffff81100300 t free_x\nkallsyms ffffffff81400000 T _etext\ncmdline 100 bash")
ts, base = 1000, 0xffff888100000000
for i in range(n):
    print(f"event 0 {ts} 100 kmalloc call_site=alloc_a+0x10 ptr={base + (i % (2 * live)) * 64:#x} "
          "bytes_req=40 bytes_alloc=64")
    ts += 10
    if i >= live:
        print(f"event 0 {ts} 100 kfree call_site=free_x+0x8 "
              f"ptr={base + ((i - live) % (2 * live)) * 64:#x}")
        ts += 10
PY
}

rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

genpages() {	# N LIVE
	python3 - "$1" "$2" <<'PY'
import sys
n, live = int(sys.argv[1]), int(sys.argv[2])
print("cpus 1\nkallsyms ffffffff81000000 T _stext\nkallsyms ffffffff81400000 T _etext")
print("cmdline 100 bash")
ts, out = 1000, []
for i in range(n):
    out.append(f"event 0 {ts} 100 mm_page_alloc pfn={0x10000 + i % (2 * live):#x} order=0 "
               "gfp_flags=GFP_KERNEL migratetype=0\n")
    ts += 10
    if i >= live:
        out.append(f"event 0 {ts} 100 mm_page_free pfn={0x10000 + (i - live) % (2 * live):#x} "
                   "order=0\n")
        ts += 10
sys.stdout.write("".join(out))
PY
}

# table GEN TITLE KMA-ARGS...: the three traces of GEN, the floor and kma on each;
# with -o in the arguments, report.db's bytes per allocation too
table() {
	local gen=$1 title=$2 f k k1= db=
	shift 2
	[[ " $* " == *" -o "* ]] && db=$TMP/t.db
	printf '%10s %8s %12s %12s %12s %12s\n' "$title" live "floor KB" "kma KB" "kma x row 1" \
		"${db:+db B/alloc}"
	for spec in "100000 1000" "1000000 1000" "1000000 100000"; do
		set -- $spec "${@}"
		"$gen" "$1" "$2" > "$TMP/t.seq"
		"$MKTRACE" -g newest -o "$TMP/t.dat" "$TMP/t.seq"
		f=$(rss "$TOP/bench/kma-floor" "$TMP/t.dat")
		rm -f "$TMP/t.db"
		k=$(rss "$ANALYZE" "${@:3}" "$TMP/t.dat")
		k1=${k1:-$k}
		printf '%10d %8d %12d %12d %12s %12s\n' $(( $1 * 2 - $2 )) "$2" "$f" "$k" \
			"$(ratio "$k" "$k1")" "${db:+$(( $(stat -c %s "$db") / $1 ))}"
		shift 2
	done
}

if [[ ${RSS_MODES_ONLY:-0} == 0 ]]; then
	table gen events -q --no-db | sed "s/ *$//"
	echo
	table genpages "page evs" -q --pages -o "$TMP/t.db"
fi

# --- every mode, 2M and 20M events, the same live set -----------------------

BLOCK=${RSS_BLOCK:-1000000}
MAX_RATIO=${RSS_MAX_RATIO:-1.3}
CACHE=$TOP/build/rss
mkdir -p "$CACHE"

# trace KIND COPIES: build/rss/KIND-EVENTS.dat, made when missing; its path on stdout
trace() {
	local block=$CACHE/$1-block-$BLOCK.dat out=$CACHE/$1-$((BLOCK * $2)).dat

	if [[ ! -s $block ]]; then
		if [[ $1 == slab ]]; then
			gen_block "$BLOCK" "$block.tmp" >&2
		else
			gen_page_block "$BLOCK" "$block.tmp" >&2
		fi
		mv "$block.tmp" "$block"
	fi
	if [[ ! -s $out ]]; then
		repeat_block "$block" "$out.tmp" "$2" $((BLOCK * 23)) >&2
		mv "$out.tmp" "$out"
	fi
	echo "$out"
}

# name|trace kind|arguments (-o and --html into $TMP)
MODES=(
	"default (report.db)|slab|-q -o $TMP/m.db"
	"--no-db|slab|-q --no-db"
	"--list -n 5|slab|--no-db --list -n 5"
	"--html|slab|-q --no-db --html $TMP/m.html"
	"--lifetimes|slab|--no-db --lifetimes"
	"--leaks|slab|--no-db --leaks"
	"--generations|slab|--no-db --generations"
	"--peak|slab|--no-db --peak"
	"-g stack|slab|--no-db -g stack"
	"--pages (report.db)|page|-q --pages -o $TMP/m.db"
	"--pages --lifetimes|page|--no-db --pages --lifetimes"
	"--pages --leaks|page|--no-db --pages --leaks"
	"--pages --html|page|-q --no-db --pages --html $TMP/m.html"
)
echo
echo "every mode: peak RSS at $((BLOCK * 2)) and $((BLOCK * 20)) events," \
	"$((BLOCK / 20)) allocations live at any time"
printf '%-22s %10s %10s %7s\n' mode "x2 KB" "x20 KB" ratio
over=0
for m in "${MODES[@]}"; do
	IFS='|' read -r name kind args <<< "$m"
	small=$(trace "$kind" 2) big=$(trace "$kind" 20)
	rm -f "$TMP/m.db" "$TMP/m.html"
	a=$(rss "$ANALYZE" $args "$small")
	rm -f "$TMP/m.db" "$TMP/m.html"
	b=$(rss "$ANALYZE" $args "$big")
	r=$(ratio "$b" "$a")
	flag=
	if awk -v r="$r" -v m="$MAX_RATIO" 'BEGIN { exit !(r > m) }'; then
		flag="  OVER $MAX_RATIO"
		over=1
	fi
	printf '%-22s %10d %10d %7s%s\n' "$name" "$a" "$b" "$r" "$flag"
done
exit $over
