# The page reader (analyzer/reader/kma-cpubuf*.c) gives what libtracecmd gives: on every
# fixture, every tests/gen sequence (as 6.18 and as 5.10 / 32-bit / big-endian) and a
# random 8-CPU stress trace (tests/tools/mkstress.py: ties across CPUs, time extends,
# forced page breaks, missed-event pages, markers) as v6, v7 zstd and v7 uncompressed,
# the reports and report.db of -j 1 (no threads) and -j 3 / -j 8 (worker threads) are
# byte-identical to those of --libtracecmd (tracecmd_iterate_events, the reference).
# Then damaged event data found by a worker thread mid-trace: one line naming the file
# and the problem, exit 1, no report.db.
# kma-test: long
TOOLS=$TOP/$B/tests/tools
MKTRACE=$TOOLS/mktrace
CONVERT=$TOOLS/kma-convert
SECTIONS=$TOP/tests/tools/v7-sections.py
J=$TMP/jobs
mkdir -p "$J"
# The short sweep (sanitizer and fresh passes) runs the threads on fewer inputs: the
# stress trace (8 CPUs, every page kind, three containers) and two sequences cover the
# same code paths; the fixtures, the other sequences, -j 8 and two of the modes only
# add inputs, and under ASan minutes.
JOBS="1 3 8" FIXTURES="$TOP/tests/fixtures/*.dat" SEQS="$TOP/tests/gen/*.seq"
MODES=("" "--list" "--generations" "--lifetimes -g comm")
if [ "$SWEEP" = short ]; then
	drop "jobs: fixtures, sequences but cross-cpu and missed, -j 8, --generations, --lifetimes" \
		"input sweep, run in the plain pass"
	JOBS="1 3" FIXTURES="" MODES=("" "--list")
	SEQS="$TOP/tests/gen/cross-cpu.seq $TOP/tests/gen/missed.seq"
fi

# same NAME FILE MODE...: every -j gives what --libtracecmd gives, for each MODE and report.db
same() {
	local name=$1 dat=$2 m j bad=
	shift 2
	rm -f "$J/ref.db"
	# shellcheck disable=SC2086
	"$KMA" -q --libtracecmd ${OPTS:-} -o "$J/ref.db" "$dat" > /dev/null 2>&1
	sqlite3 "$J/ref.db" .dump > "$J/ref.dump" 2>&1
	for j in $JOBS; do
		rm -f "$J/got.db"
		# shellcheck disable=SC2086
		"$KMA" -q -j $j ${OPTS:-} -o "$J/got.db" "$dat" > /dev/null 2>&1
		sqlite3 "$J/got.db" .dump > "$J/got.dump" 2>&1
		cmp -s "$J/ref.dump" "$J/got.dump" || bad="$bad report.db(-j $j)"
	done
	for m in "$@"; do
		# shellcheck disable=SC2086
		"$KMA" --no-db --libtracecmd ${OPTS:-} $m "$dat" > "$J/ref.txt" 2>&1; echo "exit $?" >> "$J/ref.txt"
		for j in $JOBS; do
			# shellcheck disable=SC2086
			"$KMA" --no-db -j $j ${OPTS:-} $m "$dat" 2>&1 |
				grep -v ': note: read through libtracecmd' > "$J/got.txt"
			echo "exit ${PIPESTATUS[0]}" >> "$J/got.txt"
			cmp -s "$J/ref.txt" "$J/got.txt" ||
				bad="$bad '$m'(-j $j): $(diff "$J/ref.txt" "$J/got.txt" | head -4)"
		done
	done
	if [ -s "$J/ref.dump" ] && [ -z "$bad" ]; then
		pass "jobs: $name: -j ${JOBS// /, -j } give what --libtracecmd gives"
	else
		fail "jobs: $name: -j ${JOBS// /, -j } give what --libtracecmd gives" "differs:$bad"
	fi
}

for f in $FIXTURES; do
	same "$(basename "$f")" "$f" "${MODES[@]}"
done
# the one with kmem events in two instances: each one (OPTS goes to every run)
for b in ${FIXTURES:+kmaa kmab}; do
	OPTS="-B $b" same "inst-two.dat -B $b" "$TOP/tests/fixtures/inst-two.dat" "${MODES[@]}"
done
for s in $SEQS; do
	n=$(basename "$s" .seq)
	"$MKTRACE" -o "$J/$n.dat" "$s" > /dev/null 2>&1 &&
		"$MKTRACE" -g 5.10 -l 4 -E big -o "$J/$n-old.dat" "$s" > /dev/null 2>&1 ||
		{ fail "jobs: mktrace $n"; continue; }
	same "gen $n" "$J/$n.dat" "" "--list"
	same "gen $n (5.10, 32-bit, big-endian)" "$J/$n-old.dat" "" "--list"
done

# the stress trace: 60k events on 8 CPUs, each CPU's data several blocks long
python3 "$TOP/tests/tools/mkstress.py" 7 60000 8 > "$J/stress.seq" &&
	"$MKTRACE" -o "$J/stress.dat" "$J/stress.seq" > /dev/null 2>&1 &&
	"$CONVERT" -v 7 -c zstd "$J/stress.dat" "$J/stress-zstd.dat" > /dev/null 2>&1 &&
	"$CONVERT" -v 7 -c none "$J/stress.dat" "$J/stress-none.dat" > /dev/null 2>&1 ||
	fail "jobs: make the stress trace"
for k in "" -zstd -none; do
	[ -f "$J/stress$k.dat" ] && same "stress$k" "$J/stress$k.dat" "${MODES[@]}"
done
check "jobs: the stress trace has ties across CPUs, missed-event pages and time extends" \
	bash -c "grep -c '^missed' '$J/stress.seq' | grep -qv '^0$' &&
		 awk '\$1 == \"event\" { if (\$3 == last && \$2 != lastcpu) ties++; last = \$3; lastcpu = \$2 }
		      END { exit !(ties > 100) }' '$J/stress.seq'"

# damage SRC OUT OFFSET: 16 bytes at OFFSET flipped
damage() {
	python3 -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for i in range(int(sys.argv[3]), int(sys.argv[3]) + 16):
    d[i] ^= 0x5a
open(sys.argv[2], 'wb').write(d)" "$@"
}

# bad NAME FILE WANT: -j 4 fails with one line naming FILE and WANT, exit 1, no report.db
bad() {
	local out rc
	rm -f "$J/bad.db"
	out=$("$KMA" -q -j 4 -o "$J/bad.db" "$2" 2>&1); rc=$?
	if [ $rc = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -qF "$2: " &&
	   echo "$out" | grep -q "$3" && [ ! -e "$J/bad.db" ] && ! ls "$J"/bad.db.* > /dev/null 2>&1; then
		pass "jobs: $1"
	else
		fail "jobs: $1" "exit $rc: $out"
	fi
}

if python3 "$SECTIONS" --layout "$J/stress-zstd.dat" > "$J/zlayout.txt" 2>&1 &&
   python3 "$SECTIONS" --layout "$J/stress-none.dat" > "$J/nlayout.txt" 2>&1; then
	# CPU 3's 6th chunk (of about 10): its compressed bytes damaged
	off=$(awk '$3 == 3 { print $(6 + 5) }' "$J/zlayout.txt")
	damage "$J/stress-zstd.dat" "$J/bad-zstd.dat" $((off + 8 + 40))
	bad "a damaged chunk of CPU 3 in a v7 zstd trace" "$J/bad-zstd.dat" \
		"corrupt trace.dat: CPU 3's compressed chunk at $off cannot be inflated"
	# CPU 3's 30th page: its commit word larger than the page
	off=$(awk '$3 == 3 { print $4 + 29 * 4096 }' "$J/nlayout.txt")
	python3 -c "
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[int(sys.argv[3]) + 8:int(sys.argv[3]) + 16] = struct.pack('<Q', 5000)
open(sys.argv[2], 'wb').write(d)" "$J/stress-none.dat" "$J/bad-none.dat" "$off"
	bad "a bad page of CPU 3 in a v7 uncompressed trace" "$J/bad-none.dat" \
		"corrupt trace.dat: CPU 3's ring-buffer page at $((29 * 4096)) does not fit"
else
	fail "jobs: layout of the stress copies" "$(tail -3 "$J/zlayout.txt" "$J/nlayout.txt")"
fi
# A file whose timestamps libtracecmd shifts (an OFFSET option, as --ts-offset writes) is
# read through libtracecmd, with a note saying so: the page reader would not shift them.
{ echo "offset 5000000000"; cat "$TOP/tests/gen/reuse.seq"; } > "$J/offset.seq"
if "$MKTRACE" -o "$J/offset.dat" "$J/offset.seq" > /dev/null 2>&1 &&
   "$MKTRACE" -o "$J/plain.dat" "$TOP/tests/gen/reuse.seq" > /dev/null 2>&1; then
	"$KMA" -j 3 -o "$J/offset.db" "$J/offset.dat" > /dev/null 2> "$J/offset.err"
	"$KMA" -q -o "$J/plain.db" "$J/plain.dat" > /dev/null 2>&1
	check "jobs: a file with a timestamp offset: a note that it is read through libtracecmd" \
		grep -q "offset.dat: note: read through libtracecmd on one thread (the file has options that shift or scale its timestamps)" "$J/offset.err"
	check "jobs: ... and its timestamps shifted as libtracecmd shifts them (+5 s)" \
		test "$(sqlite3 "$J/offset.db" 'SELECT first_ts, last_ts FROM trace')" = \
		     "$(sqlite3 "$J/plain.db" 'SELECT first_ts + 5000000000, last_ts + 5000000000 FROM trace')"
	same "offset" "$J/offset.dat" "" "--list"
else
	fail "jobs: mktrace with an offset option"
fi
check "jobs: -j 0 is a usage error (exit 2)" bash -c "'$KMA' -j 0 x.dat; [ \$? = 2 ]"
check "jobs: -j x is a usage error (exit 2)" bash -c "'$KMA' -j x x.dat; [ \$? = 2 ]"
rm -rf "$J"
