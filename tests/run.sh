#!/bin/bash
# Runs every test against each build directory given (default: .), e.g.
#   tests/run.sh build build/san
#   TESTS="t-badinput t-gen" tests/run.sh build build/san    # only these files
#   FRESH=1 tests/run.sh build/san      # then tests/fresh.sh plain tracefs: the plain
#                                       # pass as a brand-new machine runs it (root only;
#                                       # elsewhere on ./build)
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
# drop NAME WHY: checks this pass leaves out on purpose ($SWEEP is "short" in the
# sanitizer and fresh passes: the long sweeps run in the plain pass); listed,
# never silent, and counted in the pass's summary line
drop() { DROPPED=$((DROPPED + 1)); echo "DROP [$LABEL] $1: ${2:-}"; }
# need_mktrace: $MKTRACE (the build's tests/tools/mktrace) runs, or one is built into the
# file's $TMP (a build made without the test tools), or the file fails saying why
need_mktrace() {
	[ -x "$MKTRACE" ] && return 0
	MKTRACE=$TMP/mktrace
	make -s -C "$TOP/tests/tools" O="$TMP" > "$TMP/build.txt" 2>&1 ||
		fail "mktrace: build" "$(tail -5 "$TMP/build.txt")"
}
# check NAME CMD...: passes when CMD exits 0; its output is shown on failure.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(echo "$out" | tail -20)"; fi
}

# memo OUT KEY CMD...: CMD's standard output into OUT (exit status as CMD's). The
# independent checkers (trace-cmd report and the scripts over it, Chromium) need
# to run once per input, not once per build: with KMA_CHECK_CACHE=DIR (make check
# sets it for all its passes) the output is kept in DIR under KEY, a list of the
# files and words the output depends on (each file stands for its content), and
# given back when the same inputs come again. KEY must name every input.
memo() {
	local out=$1 key=$2 k h
	local -
	shift 2
	set -f	# KEY's words are not patterns
	[ -n "${KMA_CHECK_CACHE:-}" ] || { "$@" > "$out"; return; }
	h=$(for k in $key; do
		if [ -f "$k" ]; then echo "file $(sha256sum < "$k")"; else echo "word $k"; fi
	done | sha256sum)
	h=$KMA_CHECK_CACHE/memo-${h%% *}
	[ -f "$h" ] && { cp "$h" "$out"; return 0; }
	"$@" > "$out" || return
	mkdir -p "$KMA_CHECK_CACHE" && cp "$out" "$h.$BASHPID" && mv "$h.$BASHPID" "$h"
}

# dump_dom PAGE [#FRAGMENT]: the DOM of PAGE after its scripts ran, as headless
# Chromium gives it (--dump-dom), once per page content and fragment. Starting
# Chromium costs seconds of CPU, so each test file has one, started at its first
# page that is not in the memo cache: tests/tools/chrome-dom.py serve, a coprocess
# that loads every page afresh in a new tab and prints what --dump-dom would
# (tests/t-html.sh compares the two); it ends with the test file (dom_stop). In a
# subshell, which cannot reach the coprocess, Chromium runs once per page.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
CHROME_FLAGS=(--headless --no-sandbox --disable-gpu --disable-background-networking
	--disable-component-update --disable-sync --no-first-run)
dump_dom() {
	local out
	out=$(mktemp "$TMP/dom.XXXXXX")
	memo "$out" "chromium-dump-dom $TOP/tests/tools/chrome-dom.py $1 ${2:-#}" \
		dom_get "file://$1${2:-}" && cat "$out"
}
# dom_get URL: the DOM from the test file's chrome-dom.py (started if need be)
dom_get() {
	local out reply
	if [ "${DOM_OWNER:-}" != "$BASHPID" ]; then
		timeout 120 "$CHROMIUM" "${CHROME_FLAGS[@]}" --user-data-dir="$TMP/chr" \
			--dump-dom "$1" 2> "$TMP/chr.err"
		return
	fi
	if [ -z "${DOM_PID:-}" ] || ! kill -0 "$DOM_PID" 2> /dev/null; then
		coproc DOM { exec python3 "$TOP/tests/tools/chrome-dom.py" --chromium "$CHROMIUM" \
			--user-data-dir "$TMP/chr-dom" serve 2>> "$TMP/chr.err"; }
		DOM_SERVER=$DOM_PID
	fi
	out=$(mktemp "$TMP/dom.XXXXXX")
	# the server gives up on a page after 120 s (Chromium's start another 120 s); one
	# that does not answer at all is stopped after 300 s (the next page starts another)
	if printf '%s\t%s\n' "$out" "$1" >&"${DOM[1]}" && read -t 300 -r reply <&"${DOM[0]}" &&
	   [ "$reply" = ok ]; then
		# KMA_DOM_PROVE=FILE: --dump-dom too, "same URL" or "differ URL" into FILE
		if [ -n "${KMA_DOM_PROVE:-}" ]; then
			timeout 120 "$CHROMIUM" "${CHROME_FLAGS[@]}" --user-data-dir="$TMP/chr1" \
				--dump-dom "$1" 2> /dev/null > "$out.1"
			echo "$(cmp -s "$out" "$out.1" && echo same || echo differ) $1" >> "$KMA_DOM_PROVE"
		fi
		cat "$out"
		return
	fi
	echo "dump_dom: $1: ${reply:-chrome-dom.py did not answer}" >> "$TMP/chr.err"
	[ "${reply:-}" = "" ] && dom_stop
	return 1
}
# dom_stop: the test file's chrome-dom.py (and its Chromium) ended, if it runs
dom_stop() {
	local pid=${DOM_SERVER:-} w=${DOM[1]:-} i
	[ -n "$pid" ] || return 0
	# its end of input: it closes Chromium and ends
	[ -n "$w" ] && exec {w}>&-
	w=${DOM[0]:-}
	[ -n "$w" ] && exec {w}<&-
	for i in $(seq 100); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	kill "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	DOM_SERVER= DOM_PID=
	return 0
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
	printf 'pass [%s] %s: %d passed, %d failed, %d skipped, %d dropped in %dm%02ds\n' \
		"$LABEL" "$1" $((PASSED - P0)) $((FAILED - F0)) $((SKIPPED - S0)) \
		$((DROPPED - D0)) $((s / 60)) $((s % 60))
}

# run_file TEST OUT: TEST sourced in a subshell of its own (its own counters and
# $TMP), its output to OUT and its counts to OUT.n
run_file() {
	(
		PASSED=0 FAILED=0 SKIPPED=0 DROPPED=0
		TMP=$(mktemp -d)
		RUN_FILE=$(basename "$1" .sh) RUN_T0=$EPOCHREALTIME
		# Under the sanitizers the header probe's fork costs a third of each run
		# (ASan locks and copies its allocator state): the files that read only
		# sound headers skip it; the plain pass probes every run.
		if [ "$LABEL" = asan+ubsan ] && ! tagged "$1" probe; then
			export KMA_HEADER_PROBE=0
		fi
		# shellcheck disable=SC1090
		DOM_OWNER=$BASHPID
		. "$1"
		dom_stop
		rm -rf "$TMP"
		note_time "$RUN_FILE" "$RUN_T0"
		echo "$PASSED $FAILED $SKIPPED $DROPPED" > "$2.n"
	) > "$2" 2>&1 < /dev/null
}

# flush [all]: print the output of every finished file and add up its counts; with
# "all" (nothing is running any more) a file that left no counts failed
flush() {
	local f n
	for f in "${STARTED[@]}"; do
		[ -e "$OUTS/$f.done" ] && continue
		if [ -f "$OUTS/$f.n" ]; then
			cat "$OUTS/$f"
			read -r -a n < "$OUTS/$f.n"
			PASSED=$((PASSED + n[0])) FAILED=$((FAILED + n[1]))
			SKIPPED=$((SKIPPED + n[2])) DROPPED=$((DROPPED + n[3]))
			touch "$OUTS/$f.done"
		elif [ "${1:-}" = all ]; then
			cat "$OUTS/$f" 2> /dev/null
			fail "$f: ended before its last check"
			touch "$OUTS/$f.done"
		fi
	done
}

# A test file's tags, on a line "# kma-test: TAG...":
#   long       started first, so that the two cores finish together
#   exclusive  runs alone (it traces the live kernel, whose ring buffer is shared)
#   tracefs    looks at tracefs: the only files whose outcome depends on whether
#              tracefs is mounted (tests/fresh.sh's second mode runs only these)
#   probe      feeds header texts that libtraceevent may crash on: the sanitizer
#              pass keeps kma-analyze's header probe child for it (see run_file)
tagged() { grep -q "^# kma-test:.*\\b$2\\b" "$1"; }

# The files of the suite: TESTS="t-a t-b" picks some; KMA_ONLY=TAG those with TAG
suite_files() {
	local t
	for t in tests/t-*.sh; do
		if [ -n "${TESTS:-}" ]; then
			case " $TESTS " in *" $(basename "$t" .sh) "*) ;; *) continue ;; esac
		fi
		[ -z "${KMA_ONLY:-}" ] || tagged "$t" "$KMA_ONLY" || continue
		if tagged "$t" long; then echo "0 $t"; else echo "1 $t"; fi
	done | sort -k1,1n -s | cut -d' ' -f2
}

# One file more than the CPUs: a pass at two files on two CPUs kept them 83 % busy (19
# minutes of CPU in an 11-minute pass): files wait on Chromium, on trace-cmd, on sleeps of
# the timed checks, and the one file more fills those waits.
JOBS=${KMA_JOBS:-$(($(nproc 2> /dev/null || echo 1) + 1))}
DROPPED=0
OUTS=$(mktemp -d)
trap 'rm -rf "$OUTS"' EXIT
# The checkers run on Debian's python3 (scripts/install-deps.sh), not on whatever
# python3 comes first in PATH: a version manager's shim (pyenv) costs 0.3 s a
# start, and the suite starts Python well over a thousand times.
if [ -x /usr/bin/python3 ]; then
	mkdir "$OUTS/bin" && ln -s /usr/bin/python3 "$OUTS/bin/python3" && PATH=$OUTS/bin:$PATH
fi
[ $# -gt 0 ] || set -- build
for B in "$@"; do
	# build/san (make SAN=1 O=build/san) is the sanitizer build, any other the plain one
	case $B in
	*san*) LABEL=asan+ubsan ;;
	*) LABEL=${RUN_LABEL:-plain} ;;
	esac
	# the long sweeps run in full in the plain pass (docs/testing.md)
	SWEEP=${KMA_SWEEP:-$([ "$LABEL" = plain ] && echo full || echo short)}
	KMA=$TOP/$B/analyzer/kma-analyze
	PASS_T0=$EPOCHREALTIME P0=$PASSED F0=$FAILED S0=$SKIPPED D0=$DROPPED
	# The frame-pointer unwinder on every malloc (the build keeps frame pointers): the
	# same errors and leaks are found, 3-4x faster than the slow unwinder, whose
	# stacks only matter when reading a report: KMA_SAN_SLOW_UNWIND=1 for those.
	unwind=fast_unwind_on_malloc=$([ "${KMA_SAN_SLOW_UNWIND:-0}" = 1 ] && echo 0 || echo 1)
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99:$unwind
	export LSAN_OPTIONS=suppressions=$TOP/tests/lsan.supp:print_suppressions=0
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99:$unwind
	STARTED=()
	running=0
	if [ -n "${KMA_ONLY:-}" ]; then
		drop "the files not tagged '$KMA_ONLY' ($(ls tests/t-*.sh | wc -l) files in all, \
$(suite_files | wc -l) run)" "their outcome does not depend on it: run in the other passes"
	fi
	for t in $(suite_files); do
		f=$LABEL-$(basename "$t" .sh)
		# a test file that does not parse would run none of its checks, silently
		if ! err=$(bash -n "$t" 2>&1); then
			fail "$(basename "$t"): does not parse" "$err"
			continue
		fi
		if tagged "$t" exclusive; then
			wait
			running=0
			flush all
			STARTED+=("$f")
			run_file "$t" "$OUTS/$f"
			flush all
			continue
		fi
		while [ "$running" -ge "$JOBS" ]; do
			wait -n
			running=$((running - 1))
			flush
		done
		STARTED+=("$f")
		run_file "$t" "$OUTS/$f" &
		running=$((running + 1))
	done
	wait
	flush all
	pass_summary "$B"
done

# make check: the plain pass (every sweep) in a clean copy as a new machine runs it, with
# debugfs and tracefs unmounted, then the tracefs files with tracefs mounted anew
# (tests/fresh.sh plain tracefs). Where it cannot run (not root, no mount namespace),
# the plain pass runs here on the checkout's own build instead, and the skip says why.
if [ "${FRESH:-0}" = 1 ]; then
	LABEL=fresh
	# shellcheck disable=SC2086
	bash tests/fresh.sh ${FRESH_MODES:-plain tracefs} 2> "$TOP/.fresh-why.txt" |
		tee "$TOP/.fresh-out.txt" | grep -v '^fresh: '
	sum=$(grep '^fresh: ' "$TOP/.fresh-out.txt" | tail -1)
	if [ -n "$sum" ]; then
		# shellcheck disable=SC2086
		set -- $sum
		PASSED=$((PASSED + $2)) FAILED=$((FAILED + $4)) SKIPPED=$((SKIPPED + $6))
		rm -f "$TOP/.fresh-why.txt" "$TOP/.fresh-out.txt"
	else
		skip "fresh-machine passes (tests/fresh.sh): the plain pass runs on this checkout" \
			"$(tail -1 "$TOP/.fresh-why.txt")"
		rm -f "$TOP/.fresh-why.txt" "$TOP/.fresh-out.txt"
		if make --no-print-directory -j"$(nproc)" all unit > "$OUTS/build.txt" 2>&1; then
			env -u KMA_CHECK_T0 RUN_SUMMARY=subtotal FRESH=0 bash tests/run.sh build > "$OUTS/plain.txt"
			grep -v '^subtotal:' "$OUTS/plain.txt"
			# shellcheck disable=SC2046
			set -- $(grep '^subtotal:' "$OUTS/plain.txt" | tail -1)
			PASSED=$((PASSED + ${2:-0})) FAILED=$((FAILED + ${4:-1})) SKIPPED=$((SKIPPED + ${6:-0}))
		else
			fail "plain build" "$(tail -5 "$OUTS/build.txt")"
		fi
	fi
fi

# make check: its whole wall time against the budget (docs/testing.md)
if [ -n "${KMA_CHECK_T0:-}" ]; then
	s=$(($(date +%s) - KMA_CHECK_T0))
	printf 'make check: %dm%02ds wall time, budget 40m (docs/testing.md)%s\n' $((s / 60)) \
		$((s % 60)) "$([ $s -gt 2400 ] && echo ': OVER BUDGET, see docs/testing.md')"
fi
if [ "$SKIPPED" -gt 0 ]; then
	echo "${RUN_SUMMARY:+$RUN_SUMMARY: }$PASSED passed, $FAILED failed, $SKIPPED skipped"
else
	echo "${RUN_SUMMARY:+$RUN_SUMMARY: }$PASSED passed, $FAILED failed"
fi
[ "$FAILED" -eq 0 ]
