# Buffer instances (trace-cmd record -B NAME): which buffer kma reads, and
# every number of the buffer read against kma-expect.py --buffer (an
# independent computation over trace-cmd report's "NAME:"-prefixed lines).
# Fixtures: tests/fixtures/README.md.
FIX=$TOP/tests/fixtures
CHECK=$TOP/tests/tools/kma-check-db.py
EXPECT=$TOP/tests/tools/kma-expect.py

# ns timestamps of the "kma:" markers of one buffer ("top" or NAME), from trace-cmd
markers_ns() {
	trace-cmd report -t -i "$1" 2>/dev/null | awk -v b="$2" '
		/ print: .*kma: / {
			buf = ($1 ~ /:$/) ? substr($1, 1, length($1) - 1) : "top"
			if (buf != b) next
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9]+\.[0-9]+:$/) {
					split(substr($i, 1, length($i) - 1), t, ".")
					print t[1] t[2]
				}
		}'
}

# run NAME FILE [kma options...]: report.db and text in $TMP/NAME.{db,txt}, stderr in .err
run() {
	local name=$1 file=$2
	shift 2
	"$KMA" "$@" -o "$TMP/$name.db" "$file" > "$TMP/$name.txt" 2> "$TMP/$name.err"
}

# 1. kmem events only in an instance (the new user's recording): read it, and say so.
for f in inst-only inst-only-v6; do
	dat=$FIX/$f.dat
	if run "$f" "$dat"; then
		check "$f: default reads the one instance with kmem events" \
			python3 "$CHECK" --buffer kmaonly "$dat" "$TMP/$f.db" "$TMP/$f.txt"
		check "$f: stderr names the buffer read, one line" test "$(cat "$TMP/$f.err")" = \
			"kma-analyze: $dat: reading buffer 'kmaonly' (the top-level buffer has no kmem events)"
		check "$f: trace.buffer" test "$(sqlite3 "$TMP/$f.db" 'SELECT buffer FROM trace')" = kmaonly
	else
		fail "$f: default reads the one instance with kmem events" "$(cat "$TMP/$f.err")"
	fi
	run "$f-named" "$dat" --buffer kmaonly
	check "$f: --buffer kmaonly: no note on stderr" test ! -s "$TMP/$f-named.err"
	check "$f: --buffer kmaonly = the default" cmp "$TMP/$f.txt" "$TMP/$f-named.txt"
	run "$f-top" "$dat" --buffer top
	check "$f: --buffer top: exit 1, says where the kmem events are" test "$?|$(cat "$TMP/$f-top.err")" = \
		"1|kma-analyze: $dat: buffer 'top' holds no kmem events (buffers that do: kmaonly)"
	check "$f: --buffer top: no report.db" test ! -e "$TMP/$f-top.db"
done
if [ -f "$TMP/inst-only.db" ] && [ -f "$TMP/inst-only-v6.db" ]; then
	q="SELECT * FROM summary; SELECT * FROM caller_stats ORDER BY address;
	   SELECT ptr, caller, bytes_req, bytes_alloc, alloc_ts, free_ts, free_kind FROM allocations
	   ORDER BY alloc_ts, ptr; SELECT * FROM lost_events ORDER BY cpu"
	check "inst-only: v6 and v7 copies give the same report.db" test \
		"$(sqlite3 "$TMP/inst-only.db" "$q" | md5sum)" = "$(sqlite3 "$TMP/inst-only-v6.db" "$q" | md5sum)"
fi

# 2. Two instances with kmem events, none in the top-level buffer: ambiguous.
dat=$FIX/inst-two.dat
run two "$dat"
check "inst-two: default: exit 1, one line listing the instances" test "$?|$(cat "$TMP/two.err")" = \
	"1|kma-analyze: $dat: kmem events in several buffers and none in the top-level one: kmab, kmaa; choose one with --buffer NAME"
check "inst-two: default: no report.db" test ! -e "$TMP/two.db"
# The fixture tells the buffers apart: their expected totals differ.
check "inst-two: kmaa and kmab hold different events" test \
	"$(python3 "$EXPECT" --buffer kmaa "$dat" | md5sum)" != "$(python3 "$EXPECT" --buffer kmab "$dat" | md5sum)"
for b in kmaa kmab; do
	if run "two-$b" "$dat" --buffer "$b"; then
		check "inst-two --buffer $b: numbers of that buffer only" \
			python3 "$CHECK" --buffer "$b" "$dat" "$TMP/two-$b.db" "$TMP/two-$b.txt"
		check "inst-two --buffer $b: trace.buffer" \
			test "$(sqlite3 "$TMP/two-$b.db" 'SELECT buffer FROM trace')" = "$b"
	else
		fail "inst-two --buffer $b" "$(cat "$TMP/two-$b.err")"
	fi
done
# Markers: kmaa has none of its own, so the top-level buffer's (trace_marker)
# start its generations; kmab holds copies (copy_trace_marker): only those.
top_ns=$(markers_ns "$dat" top)
kmab_ns=$(markers_ns "$dat" kmab)
check "inst-two: the fixture has markers at top and copies in kmab, at other times" \
	test "$(echo "$top_ns" | wc -w) $(echo "$kmab_ns" | wc -w) $([ "$top_ns" != "$kmab_ns" ] && echo differ)" = "2 2 differ"
check "inst-two --buffer kmaa: generations start at the top-level markers" test \
	"$(sqlite3 "$TMP/two-kmaa.db" 'SELECT ts FROM generations WHERE id > 0 ORDER BY id')" = "$top_ns"
check "inst-two --buffer kmab: generations start at its own markers only" test \
	"$(sqlite3 "$TMP/two-kmab.db" 'SELECT ts FROM generations WHERE id > 0 ORDER BY id')" = "$kmab_ns"
check "inst-two --buffer kmaa: top-level markers are not counted as its events" test \
	"$(sqlite3 "$TMP/two-kmaa.db" "SELECT COUNT(*) FROM event_counts WHERE event = 'ftrace:print'")" = 0

# 3. Same events in the top-level buffer and in instance kmainst: the top-level
#    one by default; either on request.
dat=$FIX/instance.dat
run inst "$dat"
check "instance.dat: default reads the top-level buffer, silently" test "$?|$(cat "$TMP/inst.err")|$(sqlite3 \
	"$TMP/inst.db" 'SELECT buffer FROM trace')" = "0||top"
for b in top kmainst; do
	if run "inst-$b" "$dat" --buffer "$b"; then
		check "instance.dat --buffer $b: numbers of that buffer" \
			python3 "$CHECK" --buffer "$b" "$dat" "$TMP/inst-$b.db" "$TMP/inst-$b.txt"
		check "instance.dat --buffer $b: trace.buffer" \
			test "$(sqlite3 "$TMP/inst-$b.db" 'SELECT buffer FROM trace')" = "$b"
	else
		fail "instance.dat --buffer $b" "$(cat "$TMP/inst-$b.err")"
	fi
done
# each buffer's own records: kma's event count is trace-cmd's line count of that buffer
for b in top kmainst; do
	n=$(trace-cmd report -i "$dat" 2>/dev/null | awk -v b="$b" 'NR > 1 && /\[[0-9]+\] +[0-9]+\.[0-9]+: / {
		buf = ($1 ~ /:$/) ? substr($1, 1, length($1) - 1) : "top"; if (buf == b) n++ } END { print n + 0 }')
	check "instance.dat --buffer $b: trace.events = its records in trace-cmd report" \
		test "$(sqlite3 "$TMP/inst-$b.db" 'SELECT events FROM trace')" = "$n"
done

# 4. Unknown names and bad use.
run nope "$dat" --buffer nope
check "unknown --buffer: exit 1, one line listing the buffers" test "$?|$(cat "$TMP/nope.err")" = \
	"1|kma-analyze: $dat: no buffer 'nope' in this trace (it has: top, kmainst)"
run nope2 "$FIX/basic.dat" --buffer kmainst
check "unknown --buffer on a file without instances" test "$?|$(cat "$TMP/nope2.err")" = \
	"1|kma-analyze: $FIX/basic.dat: no buffer 'kmainst' in this trace (it has: top)"
run top "$FIX/basic.dat" -B top
check "-B top on a file without instances = the default" test "$?|$(sqlite3 "$TMP/top.db" \
	'SELECT buffer, allocs FROM trace, summary')" = "0|top|$(python3 "$EXPECT" "$FIX/basic.dat" | \
	python3 -c 'import json, sys; print(json.load(sys.stdin)["summary"]["allocs"])')"
"$KMA" --buffer "" "$dat" > /dev/null 2> "$TMP/e.err"
check "--buffer '': usage error" test "$?|$(head -1 "$TMP/e.err")" = \
	"2|kma-analyze: --buffer wants an instance name or 'top'"
"$KMA" --live --buffer kmainst > /dev/null 2> "$TMP/e.err"
check "--live --buffer: usage error" test "$?" = 2
check "--help documents --buffer" sh -c "'$KMA' --help | grep -q -e '--buffer NAME'"

# 5. A v6 instance buffer is checked before libtracecmd reads it (kma-check-v6.c).
for w in commit:"corrupt trace.dat: bad ring-buffer page" \
	 size:"truncated trace.dat: CPU 0's event data ends at @END, the file at @SIZE" \
	 type:"truncated or corrupt trace.dat (an instance buffer's headers)"; do
	read -r end size < <(python3 - "$FIX/inst-only-v6.dat" "$TMP/bad.dat" "${w%%:*}" <<'PY'
import struct, sys
src, dst, what = sys.argv[1:4]
d = bytearray(open(src, "rb").read())
i = d.find(b"\x03\x00" + struct.pack("<I", 16))     # BUFFER option: u64 offset, "kmaonly"
off = struct.unpack_from("<Q", d, i + 6)[0]
assert d[off:off + 10] == b"flyrecord\0"
cpu0 = struct.unpack_from("<Q", d, off + 10)[0]
if what == "commit":        # the first page's commit runs past the page
    struct.pack_into("<Q", d, cpu0 + 8, 0xfff0)
elif what == "size":        # CPU 0's data runs past the end of the file
    struct.pack_into("<Q", d, off + 18, len(d))
    print(cpu0 + len(d), len(d))
else:                       # not "flyrecord"
    d[off:off + 10] = b"flyrecorX\0"
open(dst, "wb").write(d)
PY
)
	want=${w#*:}
	want=${want/@END/$end}
	want=${want/@SIZE/$size}
	"$KMA" --no-db "$TMP/bad.dat" > /dev/null 2> "$TMP/bad.err"
	check "v6 instance buffer, bad ${w%%:*}: exit 1, one line" test "$?|$(cat "$TMP/bad.err")" = \
		"1|kma-analyze: $TMP/bad.dat: $want"
done
