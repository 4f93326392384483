#!/bin/bash
# The plain test suite as a brand-new machine runs it: a clean copy of the
# tree (the files git tracks plus the untracked ones it does not ignore: no
# build output, nothing left by hand), built from scratch, run with an empty
# environment in a mount namespace of its own where
#   notracefs   debugfs and tracefs are unmounted (tests mount what they need)
#   tracefs     debugfs is unmounted and tracefs mounted anew at /sys/kernel/tracing
#   plain       as notracefs, with every sweep: make check's plain pass (labelled plain)
# Usage: tests/fresh.sh [MODE...]   (default: notracefs tracefs)
# Prints the suite's lines labelled fresh-MODE (plain for plain), then "fresh: N passed,
# N failed, N skipped"; exits 1 on any failure, 3 when it cannot run here (the reason
# on stderr): not root, no unshare, not a git checkout.
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD

[ "$(id -u)" = 0 ] || { echo "not root: a mount namespace needs root" >&2; exit 3; }
command -v unshare > /dev/null && unshare -m true 2> /dev/null ||
	{ echo "cannot create a mount namespace (unshare -m)" >&2; exit 3; }
git -C "$TOP" rev-parse --git-dir > /dev/null 2>&1 ||
	{ echo "not a git checkout: cannot tell the sources from build output" >&2; exit 3; }

[ $# -gt 0 ] || set -- notracefs tracefs
WORK=$(mktemp -d /tmp/kma-fresh.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

mkdir "$WORK/src" "$WORK/home"
(git ls-files -z -co --exclude-standard | tar --null -T - -cf - 2> /dev/null) | tar -x -C "$WORK/src" ||
	{ echo "cannot copy the tree to $WORK/src" >&2; exit 3; }
if ! env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$WORK/home" \
	make -C "$WORK/src" --no-print-directory -j"$(nproc)" all unit > "$WORK/build.txt" 2>&1; then
	echo "FAIL [fresh] build from a clean copy: $(tail -5 "$WORK/build.txt")"
	echo "fresh: 0 passed, 1 failed, 0 skipped"
	exit 1
fi

P=0 F=0 S=0
# the README's first command, as a new user runs it
if env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$WORK/home" \
	make -C "$WORK/src" --no-print-directory demo > "$WORK/demo.txt" 2>&1 &&
   [ "$(sqlite3 "$WORK/src/report.db" 'SELECT count(*) > 0 FROM allocations' 2>&1)" = 1 ]; then
	echo "PASS [fresh] make demo in a clean copy writes report.db"
	P=1
else
	echo "FAIL [fresh] make demo in a clean copy: $(tail -5 "$WORK/demo.txt")"
	F=1
fi
for mode in "$@"; do
	label=fresh-$mode sweep=short
	case $mode in
	notracefs) mnt=: only= ;;
	plain) mnt=: only= label=plain sweep=full ;;
	# tracefs mounted anew: what differs from notracefs only for the files that look
	# at tracefs (tagged so); the rest ran on the same build a moment ago
	tracefs) mnt='mount -t tracefs nodev /sys/kernel/tracing' only=tracefs ;;
	*) echo "tests/fresh.sh: unknown mode '$mode'" >&2; exit 2 ;;
	esac
	# umount each mount point until nothing of it is left (stacked mounts,
	# the tracefs automounted inside debugfs)
	unshare -m --propagation private bash -c '
		for m in /sys/kernel/debug/tracing /sys/kernel/debug /sys/kernel/tracing; do
			while grep -q " $m " /proc/mounts; do umount -l "$m" || exit 4; done
		done
		'"$mnt"' || exit 4
		exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$1" RUN_LABEL="$2" KMA_TIMES="$3" KMA_CHECK_CACHE="$4" KMA_ONLY="$5" \
			KMA_SWEEP="$6" TESTS="$7" RUN_SUMMARY=subtotal bash "$0/tests/run.sh" build' \
		"$WORK/src" "$WORK/home" "$label" "${KMA_TIMES:-}" "${KMA_CHECK_CACHE:-}" "$only" "$sweep" \
		"${TESTS:-}" \
		> "$WORK/out.txt" 2>&1
	rc=$?
	grep -v '^subtotal:' "$WORK/out.txt"
	sum=$(grep '^subtotal:' "$WORK/out.txt" | tail -1)
	if [ $rc = 4 ] || [ -z "$sum" ]; then
		echo "FAIL [$label] set-up of the namespace or the suite: exit $rc"
		F=$((F + 1))
		continue
	fi
	set -- $sum
	P=$((P + $2)) F=$((F + $4)) S=$((S + ${6:-0}))
done
echo "fresh: $P passed, $F failed, $S skipped"
[ "$F" = 0 ]
