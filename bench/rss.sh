#!/usr/bin/env bash
# rss.sh - kma's own memory follows live allocations, not events.
#
# Generates traces with mktrace (build/tests/tools/mktrace; `make tools`): N
# kmalloc/kfree pairs with at most LIVE allocations live at a time, and prints
# the peak RSS of kma-analyze --no-db next to the bare read loop's (bench/kma-floor)
# on the same file; the difference is kma's own memory.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
MKTRACE=${MKTRACE:-$TOP/build/tests/tools/mktrace}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
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

printf '%10s %8s %12s %12s %12s\n' events live "floor KB" "kma KB" "kma own KB"
for spec in "100000 1000" "1000000 1000" "1000000 100000"; do
	set -- $spec
	gen "$1" "$2" > "$TMP/t.seq"
	"$MKTRACE" -g newest -o "$TMP/t.dat" "$TMP/t.seq"
	f=$(rss "$TOP/bench/kma-floor" "$TMP/t.dat")
	k=$(rss "$TOP/build/analyzer/kma-analyze" -q --no-db "$TMP/t.dat")
	printf '%10d %8d %12d %12d %12d\n' $(( $1 * 2 - $2 )) "$2" "$f" "$k" $((k - f))
done
