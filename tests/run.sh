#!/bin/bash
# Runs every test against each build directory given (default: .), e.g.
#   tests/run.sh build build/san
#   TESTS="t-badinput t-gen" tests/run.sh build build/san    # only these files
#   FRESH=1 tests/run.sh build build/san    # then tests/fresh.sh: the plain suite as a
#                                       # brand-new machine runs it (root only)
# and ends with one line "N passed, N failed"; exits 1 on any failure.
#
# Each tests/t-*.sh file is sourced with:
#   $B      build directory (binaries: $B/analyzer/kma-analyze, $B/tests/unit/*)
#   $KMA    the kma-analyze binary of that build
#   $TMP    a scratch directory, emptied for every file
# and reports with `pass NAME` / `fail NAME REASON` (or `check NAME CMD...`).
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD
PASSED=0
FAILED=0
SKIPPED=0

pass() { PASSED=$((PASSED + 1)); echo "PASS [$LABEL] $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL [$LABEL] $1: ${2:-}"; }
skip() { SKIPPED=$((SKIPPED + 1)); echo "SKIP [$LABEL] $1: ${2:-}"; }
# check NAME CMD...: passes when CMD exits 0; its output is shown on failure.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(echo "$out" | tail -20)"; fi
}

# Wall time: every test file over 30 s is named with its time, each pass ends
# with its own summary line; KMA_TIMES=FILE also gets "LABEL FILE SECONDS" for
# every test file (docs/testing.md's table is made from it).
ms() { local t=${1/./}; echo $((10#$t / 1000)); }
note_time() {
	local ms_
	ms_=$(($(ms "$EPOCHREALTIME") - $(ms "$2")))
	[ -n "${KMA_TIMES:-}" ] && printf '%s %s %d.%03d\n' "$LABEL" "$1" \
		$((ms_ / 1000)) $((ms_ % 1000)) >> "$KMA_TIMES"
	[ "$ms_" -ge 30000 ] && printf 'TIME [%s] %s: %d s\n' "$LABEL" "$1" $((ms_ / 1000))
	return 0
}
pass_summary() {
	local s=$(( ($(ms "$EPOCHREALTIME") - $(ms "$PASS_T0")) / 1000 ))
	printf 'pass [%s] %s: %d passed, %d failed, %d skipped in %dm%02ds\n' "$LABEL" "$1" \
		$((PASSED - P0)) $((FAILED - F0)) $((SKIPPED - S0)) $((s / 60)) $((s % 60))
}

[ $# -gt 0 ] || set -- build
for B in "$@"; do
	# build/san (make SAN=1 O=build/san) is the sanitizer build, any other the plain one
	case $B in
	*san*) LABEL=asan+ubsan ;;
	*) LABEL=${RUN_LABEL:-plain} ;;
	esac
	KMA=$TOP/$B/analyzer/kma-analyze
	PASS_T0=$EPOCHREALTIME P0=$PASSED F0=$FAILED S0=$SKIPPED
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99:fast_unwind_on_malloc=0
	export LSAN_OPTIONS=suppressions=$TOP/tests/lsan.supp:print_suppressions=0
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99:fast_unwind_on_malloc=0
	for t in tests/t-*.sh; do
		if [ -n "${TESTS:-}" ]; then
			case " $TESTS " in *" $(basename "$t" .sh) "*) ;; *) continue ;; esac
		fi
		# a test file that does not parse would run none of its checks, silently
		if ! err=$(bash -n "$t" 2>&1); then
			fail "$(basename "$t"): does not parse" "$err"
			continue
		fi
		TMP=$(mktemp -d)
		RUN_T0=$EPOCHREALTIME
		# shellcheck disable=SC1090
		. "$t"
		rm -rf "$TMP"
		note_time "$(basename "$t" .sh)" "$RUN_T0"
	done
	pass_summary "$B"
done

if [ "${FRESH:-0}" = 1 ]; then
	LABEL=fresh
	bash tests/fresh.sh 2> "$TOP/.fresh-why.txt" | tee "$TOP/.fresh-out.txt" | grep -v '^fresh: '
	sum=$(grep '^fresh: ' "$TOP/.fresh-out.txt" | tail -1)
	if [ -n "$sum" ]; then
		# shellcheck disable=SC2086
		set -- $sum
		PASSED=$((PASSED + $2)) FAILED=$((FAILED + $4)) SKIPPED=$((SKIPPED + $6))
	else
		skip "fresh-machine passes (tests/fresh.sh)" "$(tail -1 "$TOP/.fresh-why.txt")"
	fi
	rm -f "$TOP/.fresh-why.txt" "$TOP/.fresh-out.txt"
fi

if [ "$SKIPPED" -gt 0 ]; then
	echo "${RUN_SUMMARY:+$RUN_SUMMARY: }$PASSED passed, $FAILED failed, $SKIPPED skipped"
else
	echo "${RUN_SUMMARY:+$RUN_SUMMARY: }$PASSED passed, $FAILED failed"
fi
[ "$FAILED" -eq 0 ]
