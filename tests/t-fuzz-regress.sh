# Inputs the fuzz harness (tests/fuzz) crashed kma on: kma-analyze must exit 0 or 1
# (never a signal, never the sanitizers' 99) with at most one line on stderr besides
# warning lines ("kma-analyze: FILE: warning: ..."): a read file may warn of each kind
# of damage it has, one line each.
# tests/fuzz/known/ holds crashes not fixed yet (inside libtracecmd, on v7 files):
# reported as skipped while they still crash.
# kma-test: probe

# fuzz_case NAME FILE KNOWN
fuzz_case() {
	local name=$1 file=$2 known=$3 rc lines why=
	{ ( cd "$TMP" && exec timeout 60 "$KMA" --no-db -q "$file" > out.txt 2> err.txt ); } 2> /dev/null; rc=$?
	lines=$(grep -cvF "kma-analyze: $file: warning: " "$TMP/err.txt")
	if [ $rc -gt 1 ]; then
		why="exit status $rc: $(grep -m1 -E 'ERROR|runtime error' "$TMP/err.txt")"
	elif [ "$lines" -gt 1 ]; then
		why="$lines lines on stderr: $(head -3 "$TMP/err.txt")"
	fi
	if [ -z "$why" ]; then
		pass "$name"
	elif [ "$known" = 1 ]; then
		skip "$name" "known crash, not fixed yet: $why"
	else
		fail "$name" "$why"
	fi
}

for f in "$TOP"/tests/fuzz/regress/*; do
	[ -f "$f" ] && fuzz_case "fuzz regression: $(basename "$f")" "$f" 0
done
for f in "$TOP"/tests/fuzz/known/*; do
	[ -f "$f" ] && fuzz_case "fuzz known crash: $(basename "$f")" "$f" 1
done

# KMA_HEADER_PROBE (kma-analyze(1)): only the value 0 turns the header probe off, and
# with it off a sound trace gives the same report. The sanitizer pass runs most files
# with it off; this file keeps it on, so the probe's own path is checked there too.
bad=$TOP/tests/fuzz/regress/v6-event-format-parse.dat
for v in 1 no ""; do
	KMA_HEADER_PROBE=$v "$KMA" --no-db -q "$bad" > /dev/null 2> "$TMP/probe-err.txt"
	rc=$?
	got="$rc $(wc -l < "$TMP/probe-err.txt") $(grep -c 'corrupt trace.dat headers' "$TMP/probe-err.txt")"
	if [ "$got" = "1 1 1" ]; then
		pass "KMA_HEADER_PROBE='$v' keeps the probe: a crashing format is a one-line error"
	else
		fail "KMA_HEADER_PROBE='$v' keeps the probe: a crashing format is a one-line error" \
			"exit, lines, matches: $got; $(head -2 "$TMP/probe-err.txt")"
	fi
done
for f in basic.dat markers.dat; do
	"$KMA" --no-db -f csv "$TOP/tests/fixtures/$f" > "$TMP/probe-on.csv" 2>&1
	KMA_HEADER_PROBE=0 "$KMA" --no-db -f csv "$TOP/tests/fixtures/$f" > "$TMP/probe-off.csv" 2>&1
	if [ -s "$TMP/probe-on.csv" ] && cmp -s "$TMP/probe-on.csv" "$TMP/probe-off.csv"; then
		pass "KMA_HEADER_PROBE=0: the same report of $f"
	else
		fail "KMA_HEADER_PROBE=0: the same report of $f" "$(diff "$TMP/probe-on.csv" "$TMP/probe-off.csv" | head -5)"
	fi
done

# A v7 option that libtracecmd strdup()s, without its NUL (VERSION, 21 bytes: trace-cmd
# dump --options; its options section at 14051: trace-cmd dump --summary): refused
# by name before libtracecmd reads it, as the v6 checker refuses it.
f=$TOP/tests/fuzz/regress/v7-option-not-string.dat
"$KMA" --no-db -q "$f" > /dev/null 2> "$TMP/opt-err.txt"
rc=$?
want="kma-analyze: $f: corrupt trace.dat: the options section at 14051 holds a malformed VERSION option that libtracecmd cannot read safely"
if [ $rc = 1 ] && [ "$(cat "$TMP/opt-err.txt")" = "$want" ]; then
	pass "a v7 option without its NUL: one line naming the option"
else
	fail "a v7 option without its NUL: one line naming the option" "exit $rc: $(head -2 "$TMP/opt-err.txt")"
fi

# libtracecmd 1.3 takes the first word of a trace_clock text that starts with '[' and
# sscanf()s what lies within its brackets: "[]" gives it a NULL. In a v6 file's
# trace_clock section (its size at 6757: 8 bytes before "[local]" in `strings -t d` of
# the corpus file it was made from) and in a v7 TRACECLOCK option; and a v7 section
# whose size runs past its inflated end (libtracecmd copies a negative length), also
# where an earlier section is corrupt too (an event formats section whose zlib check
# fails): libtracecmd reads the sections in the reverse order of their options, the
# cmdlines first.
for c in "v6-trace-clock-brackets.dat|corrupt trace.dat: the trace_clock text at 6757 names no clock within its brackets" \
	 "v7-traceclock-brackets.dat|holds a malformed TRACECLOCK option that libtracecmd cannot read safely" \
	 "v7-cmdlines-size.dat|corrupt trace.dat: a size in the saved cmdlines section runs past the section's end" \
	 "v7-cmdlines-read-first.dat|corrupt trace.dat: a size in the saved cmdlines section runs past the section's end"; do
	f=$TOP/tests/fuzz/regress/${c%%|*}
	"$KMA" --no-db -q "$f" > /dev/null 2> "$TMP/clock-err.txt"
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$TMP/clock-err.txt")" = 1 ] &&
	   grep -qF "kma-analyze: $f: " "$TMP/clock-err.txt" && grep -qF "${c#*|}" "$TMP/clock-err.txt"; then
		pass "${c%%|*}: one line saying what libtracecmd would crash on"
	else
		fail "${c%%|*}: one line saying what libtracecmd would crash on" \
			"exit $rc: $(head -2 "$TMP/clock-err.txt")"
	fi
done

# A v7 options chain that comes back to a section (fuzz-v7: an options section whose
# DONE option names itself as the next): libtracecmd follows the chain by recursion
# without end (kma-analyze died of a stack overflow). The loop's offset from a walk
# of the file here (header, section headers, zlib-inflated options), then kma's line.
f=$TOP/tests/fuzz/regress/v7-options-loop.dat
loop=$(python3 - "$f" <<'EOF'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
p = b.index(b"\0", 10) + 1              # the version string after the magic
p += 6                                  # endian, long size, page size
p = b.index(b"\0", p) + 1              # compression
p = b.index(b"\0", p) + 1              # its version
off, seen = struct.unpack_from("<Q", b, p)[0], []
while off and off not in seen:
    seen.append(off)
    sid, flags, strid, size = struct.unpack_from("<HHIQ", b, off)
    data = b[off + 16:off + 16 + size]
    if flags & 1:
        data = zlib.decompress(data[8:8 + struct.unpack_from("<I", data)[0]])
    q, nxt = 0, 0
    while q + 6 <= len(data):
        oid, osz = struct.unpack_from("<HI", data, q)
        if oid == 0:
            nxt = struct.unpack_from("<Q", data, q + 6)[0]
            break
        q += 6 + osz
    off = nxt
print(off if off in seen else "none")
EOF
)
"$KMA" --no-db -q "$f" > /dev/null 2> "$TMP/loop-err.txt"
rc=$?
want="kma-analyze: $f: truncated or corrupt trace.dat (the options chain loops back to the section at $loop)"
if [ $rc = 1 ] && [ "$loop" != none ] && [ "$(cat "$TMP/loop-err.txt")" = "$want" ]; then
	pass "a v7 options chain that loops ($loop): one line naming the section"
else
	fail "a v7 options chain that loops ($loop): one line naming the section" \
		"exit $rc: $(head -2 "$TMP/loop-err.txt")"
fi

# A ring-buffer page on which libtraceevent's kbuffer goes round for ever, handing
# back the same records (fuzz-v7: kma-analyze ran until it was out of memory): the
# page reader stops at it, and so does libtracecmd's iteration (--libtracecmd).
f=$TOP/tests/fuzz/regress/v7-record-goes-round.dat
for c in "|CPU 0's ring-buffer page at 0 of its inflated data has a record that does not move on" \
	 "--libtracecmd|CPU 0's record at 4948 comes again"; do
	{ timeout 60 "$KMA" --no-db -q ${c%%|*} "$f" > /dev/null 2> "$TMP/round-err.txt"; } 2> /dev/null
	rc=$?
	name="a page kbuffer goes round on, read by ${c%%|*}: stopped with one line"
	[ -z "${c%%|*}" ] && name="a page kbuffer goes round on, read by the page reader: stopped with one line"
	if [ $rc = 1 ] && [ "$(wc -l < "$TMP/round-err.txt")" = 1 ] &&
	   grep -qF "kma-analyze: $f: corrupt trace.dat: ${c#*|} (corrupt event data)" "$TMP/round-err.txt"; then
		pass "$name"
	else
		fail "$name" "exit $rc: $(head -2 "$TMP/round-err.txt")"
	fi
done
