# kma-mark: usage errors and its messages everywhere; where tracefs is writable
# and we are root (plain pass only: the ring buffer is shared), a short trace
# recorded through tracefs + trace-cmd extract whose generations kma-mark started.
# kma-test: exclusive tracefs (traces the live kernel)
KMARK=$TOP/$B/tools/kma-mark
if [ ! -x "$KMARK" ]; then
	# not in the Makefile yet: build it here (plain, it is not under test by ASan)
	KMARK=$TMP/kma-mark
	# shellcheck disable=SC2046
	if ! pkg-config --exists libtracefs; then
		fail "kma-mark: build" "libtracefs-dev is missing (sh scripts/install-deps.sh)"
		KMARK=
	elif ! cc -O2 -g -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE \
		$(pkg-config --cflags libtracefs) -I"$TOP/lib" -o "$KMARK" "$TOP/tools/kma-mark.c" \
		$(pkg-config --libs libtracefs) > "$TMP/build.txt" 2>&1; then
		fail "kma-mark: build" "$(tail -5 "$TMP/build.txt")"
		KMARK=
	fi
fi

if [ -n "$KMARK" ]; then
	# mark_usage NAME WANT ARGS...: exit 2, one line naming the problem, nothing written
	mark_usage() {
		local name=$1 want=$2 rc
		shift 2
		"$KMARK" "$@" > "$TMP/out.txt" 2> "$TMP/err.txt"
		rc=$?
		if [ $rc = 2 ] && [ "$(wc -l < "$TMP/err.txt")" = 1 ] &&
		   grep -q "^kma-mark: .*$want" "$TMP/err.txt" && [ ! -s "$TMP/out.txt" ]; then
			pass "kma-mark usage error: $name"
		else
			fail "kma-mark usage error: $name" "exit $rc: $(cat "$TMP/err.txt")"
		fi
	}
	mark_usage "no label" "no LABEL given"
	mark_usage "unknown long option" "unknown option '--bogus'" --bogus x
	mark_usage "unknown short option" "unknown option '-x'" -x lbl
	mark_usage "--prefix without argument" "option '--prefix' needs an argument" --prefix
	mark_usage "-p without argument" "option '-p' needs an argument" -p
	mark_usage "empty label" "the label is empty" ""
	mark_usage "blank label" "the label is empty" " " " "
	mark_usage "newline in the label" "cannot contain a newline" "$(printf 'a\nb')"
	mark_usage "newline in the prefix" "cannot contain a newline" --prefix $'k\nx' x
	mark_usage "label over 1000 bytes" "too long (1206 bytes" "$(printf '%1200s' '' | tr ' ' x)"
	check "kma-mark --help: usage, exit 0, EXAMPLES block" sh -c "
		'$KMARK' --help > '$TMP/help.txt' && head -1 '$TMP/help.txt' | grep -q '^Usage: kma-mark' &&
		grep -q '^EXAMPLES' '$TMP/help.txt' && tail -3 '$TMP/help.txt' | grep -q 'kma-'"
	check "kma-mark --version" sh -c "'$KMARK' --version | grep -q '^kma-mark '"
	if [ "$(id -u)" != 0 ] && [ -e /sys/kernel/tracing/trace_marker ] &&
	   [ ! -w /sys/kernel/tracing/trace_marker ]; then
		"$KMARK" x 2> "$TMP/err.txt"
		rc=$?
		check "kma-mark as non-root: exit 1, one line, permission" sh -c "
			test $rc = 1 && test \$(wc -l < '$TMP/err.txt') = 1 &&
			grep -q '^kma-mark: cannot open .*trace_marker: permission denied' '$TMP/err.txt'"
	fi
	# As root: an unprivileged user in a mount namespace without tracefs.
	if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && command -v setpriv > /dev/null &&
	   unshare -m true 2> /dev/null; then
		cp "$KMARK" "$TMP/kma-mark-ns" && chmod 755 "$TMP" "$TMP/kma-mark-ns"
		unshare -m sh -c "umount /sys/kernel/tracing; umount /sys/kernel/debug/tracing
			umount /sys/kernel/debug; grep -q ' tracefs ' /proc/mounts && exit 3
			exec env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=65534 --regid=65534 --clear-groups '$TMP/kma-mark-ns' x" \
			> /dev/null 2> "$TMP/err.txt"
		rc=$?
		sed -i '/^umount: /d' "$TMP/err.txt"
		if [ $rc = 3 ]; then
			skip "kma-mark without tracefs" "cannot unmount tracefs in a mount namespace"
		else
			check "kma-mark without tracefs (not root): exit 1, 'tracefs is not mounted'" sh -c "
				test $rc = 1 && test \$(wc -l < '$TMP/err.txt') = 1 &&
				grep -q '^kma-mark: tracefs is not mounted' '$TMP/err.txt'"
			# A tracefs of our own in the namespace (not whatever this machine has
			# mounted, debugfs included): the user sees it but may not write to it.
			unshare -m sh -c "umount /sys/kernel/tracing 2> /dev/null
				umount /sys/kernel/debug/tracing 2> /dev/null; umount /sys/kernel/debug 2> /dev/null
				mount -t tracefs nodev /sys/kernel/tracing || exit 3
				test -e /sys/kernel/tracing/trace_marker || exit 4
				exec env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=65534 --regid=65534 --clear-groups \
				'$TMP/kma-mark-ns' x" > /dev/null 2> "$TMP/err.txt"
			rc=$?
			if [ $rc = 3 ] || [ $rc = 4 ]; then
				skip "kma-mark as an unprivileged user" \
					"cannot mount a tracefs with trace_marker in a mount namespace"
			else
				check "kma-mark as an unprivileged user: exit 1, 'permission denied'" sh -c "
				test $rc = 1 && test \$(wc -l < '$TMP/err.txt') = 1 &&
				grep -q '^kma-mark: .*trace_marker: permission denied' '$TMP/err.txt'"
			fi
		fi
	fi
fi

T=/sys/kernel/tracing
if [ -z "$KMARK" ]; then
	:
elif [ "$LABEL" = asan+ubsan ]; then
	skip "kma-mark live" "recorded in the plain pass only"
elif [ "$(id -u)" != 0 ]; then
	skip "kma-mark live" "not root"
elif ! command -v trace-cmd > /dev/null; then
	skip "kma-mark live" "trace-cmd is not installed"
elif [ ! -e $T/trace_marker ] || [ ! -w $T/tracing_on ] || ! (: >> $T/tracing_on) 2> /dev/null ||
     [ ! -e $T/events/kmem/kmalloc/enable ]; then
	skip "kma-mark live" "tracefs is not mounted or not writable, or no kmem events"
else
	# Everything we change, to be put back as it was.
	saved=()
	save() { [ -e "$T/$1" ] && saved+=("$1" "$(cut -d' ' -f1 "$T/$1")"); }
	save tracing_on
	save buffer_size_kb
	save options/markers
	EVS=
	for e in kmalloc kmalloc_node kmem_cache_alloc kmem_cache_alloc_node kfree kmem_cache_free; do
		if [ -e $T/events/kmem/$e/enable ]; then
			save events/kmem/$e/enable
			EVS="$EVS $e"
		fi
	done
	restore() {
		local i
		for ((i = ${#saved[@]} - 2; i >= 0; i -= 2)); do
			echo "${saved[i + 1]}" > "$T/${saved[i]}" 2> /dev/null
		done
	}

	echo 0 > $T/tracing_on
	# tracing off: the marker cannot be recorded, and kma-mark says so
	"$KMARK" off-marker 2> "$TMP/off.txt"
	rc=$?
	check "kma-mark with tracing off: exit 1, one line, 'tracing is off'" sh -c "
		test $rc = 1 && test \$(wc -l < '$TMP/off.txt') = 1 &&
		grep -q '^kma-mark: cannot write $T/trace_marker: tracing is off' '$TMP/off.txt'"

	echo 8192 > $T/buffer_size_kb
	[ -e $T/options/markers ] && echo 1 > $T/options/markers
	: > $T/trace	# empty the buffer: only this run's events
	for e in $EVS; do echo 1 > "$T/events/kmem/$e/enable"; done
	echo 1 > $T/tracing_on
	"$KMARK" gen-a 2> "$TMP/mark-a.txt"
	rc_a=$?
	# a workload that allocates: files in a fresh directory, kept
	mkdir "$TMP/w" && for i in 1 2 3 4 5 6 7 8; do echo "$i" > "$TMP/w/f$i"; done
	ls -l /usr > /dev/null
	"$KMARK" --prefix kma: gen-b 2> "$TMP/mark-b.txt"
	rc_b=$?
	ls /usr > /dev/null
	# another prefix: not a generation for kma-analyze; several words: one label
	"$KMARK" --prefix other: not-a-generation 2>> "$TMP/mark-b.txt" &&
		"$KMARK" gen c 2>> "$TMP/mark-b.txt" || rc_b=1
	echo 0 > $T/tracing_on
	for e in $EVS; do echo 0 > "$T/events/kmem/$e/enable"; done
	trace-cmd extract -o "$TMP/t.dat" > "$TMP/extract.txt" 2>&1
	rc_x=$?
	restore
	: > $T/trace

	check "kma-mark gen-a, gen-b, gen c: exit 0, silent" sh -c "
		test $rc_a = 0 && test $rc_b = 0 && ! test -s '$TMP/mark-a.txt' &&
		! test -s '$TMP/mark-b.txt'"
	check "tracefs settings restored" test "$(
		for ((i = 0; i < ${#saved[@]}; i += 2)); do
			[ "$(cut -d' ' -f1 "$T/${saved[i]}")" = "${saved[i + 1]}" ] || echo "${saved[i]}"
		done)" = ""
	if [ $rc_x != 0 ] || [ ! -s "$TMP/t.dat" ]; then
		fail "kma-mark live: trace-cmd extract" "$(tail -3 "$TMP/extract.txt")"
	else
		# the markers are ftrace:print events of the top-level buffer, as echo writes them
		trace-cmd report -i "$TMP/t.dat" 2> /dev/null | grep -o '\(kma\|other\): .*' \
			> "$TMP/markers.txt"
		check "trace-cmd report shows the markers, in order" test "$(cat "$TMP/markers.txt")" = \
			"$(printf 'kma: gen-a\nkma: gen-b\nother: not-a-generation\nkma: gen c')"
		"$KMA" --no-db --generations "$TMP/t.dat" > "$TMP/gens.txt" 2> "$TMP/gens.err"
		rc=$?
		# gen start allocs bytes live live_bytes frees label...
		check "kma-analyze --generations: start, gen-a, gen-b, gen c" test \
			"$rc|$(awk '$1 ~ /^[0-9]+$/ { l = $8; for (i = 9; i <= NF; i++) l = l " " $i
				      print $1 ":" l }' "$TMP/gens.txt" | tr '\n' ' ')" = \
			"0|0:start 1:gen-a 2:gen-b 3:gen c "
		check "the workload's allocations are in generation gen-a" test \
			"$(awk '$1 == 1 { print ($3 > 0) }' "$TMP/gens.txt")" = 1
		"$KMA" --no-db --generations -f json "$TMP/t.dat" > "$TMP/gens.json" 2>&1
		check "--generations -f json: labels" test "$(python3 -c '
import json, sys
print(",".join(r["label"] for r in json.load(open(sys.argv[1]))["rows"]))' "$TMP/gens.json")" = \
			"start,gen-a,gen-b,gen c"
	fi
	unset -f save restore
fi
