# Damaged perf.data files: each one made here from a fixture by
# tests/tools/perfdata-damage.py, which reads the perf.data layout on its own
# (perf's header.h, perf_event.h): the file cut at every section boundary and
# inside records, the data section cut inside a record and at a record's start
# (a shorter file that is whole), wrong magic, the other byte order, a
# pipe-mode file, no tracing-data section, an unknown record type, a corrupt
# compressed record, a sample whose raw data runs past it. A refused input:
# exit 1, one line naming the input and the problem, no report, the old
# report.db kept and no temporary left, with and without --no-db.
# kma-test: long

FIX=$TOP/tests/fixtures
PLAIN=$FIX/perf-slab-plain.data	# perf record -g, uncompressed
ZST=$FIX/perf-kmem.data		# perf kmem --page record -z
DMG="python3 $TOP/tests/tools/perfdata-damage.py"

[ -f "$PLAIN" ] && [ -f "$ZST" ] || { skip "perf.data damage" "fixtures missing"; return 0; }
# Names from the fixtures' kallsyms: without it a machine whose kernel is not the
# recording's adds a note on stderr (call sites shown as addresses), and every
# check here wants one line or none there.
xz -dc "$FIX/perf-kallsyms.xz" > "$TMP/perf-kallsyms" || fail "perf.data damage: perf-kallsyms.xz" "xz -d failed"
kma() { "$KMA" --kallsyms "$TMP/perf-kallsyms" "$@"; }

kma -q -o "$TMP/keep.db" "$PLAIN" 2> /dev/null

# refused1 FILE TEXT MODE: empty when FILE is refused as it must be, else why not
refused1() {
	local file=$1 text=$2 mode=$3
	cp "$TMP/keep.db" "$TMP/report.db"
	if [ "$mode" = db ]; then
		( cd "$TMP" && kma -o report.db "$file" > out.txt 2> err.txt ); rc=$?
	else
		( cd "$TMP" && kma --no-db "$file" > out.txt 2> err.txt ); rc=$?
	fi
	if [ $rc -ne 1 ]; then
		echo "exit status $rc, want 1: $(head -3 "$TMP/err.txt")"
	elif [ "$(wc -l < "$TMP/err.txt")" -ne 1 ]; then
		echo "want one line on stderr: $(head -5 "$TMP/err.txt")"
	elif ! grep -qF "kma-analyze: $file: " "$TMP/err.txt" ||
	     ! grep -qE -- "$text" "$TMP/err.txt"; then
		echo "want 'kma-analyze: $file: ...$text...', got: $(cat "$TMP/err.txt")"
	elif ! cmp -s "$TMP/report.db" "$TMP/keep.db" || ls "$TMP" | grep -q 'tmp-'; then
		echo "report.db written or a temporary file left: $(ls "$TMP")"
	elif [ -s "$TMP/out.txt" ]; then
		echo "printed a report anyway"
	fi
}

# refused NAME FILE TEXT: both modes
refused() {
	local mode why
	for mode in db no-db; do
		why=$(refused1 "$2" "$3" $mode)
		if [ -z "$why" ]; then pass "$1 ($mode)"; else fail "$1 ($mode)" "$why"; fi
	done
}

# --- the whole file cut at each offset of interest, and its data section cut
# inside a record (the feature sections after it, as perf leaves them): each refused
# cuts NAME WHAT FIXTURE TEXT: the files perfdata-damage.py WHAT writes
# (the short sweep reads every fourth cut: the same reader paths at fewer offsets)
cuts() {
	local name=$1 what=$2 src=$3 text=$4 n=0 i=0 bad=0 first= f why min=20
	rm -rf "$TMP/cuts"
	mkdir "$TMP/cuts"
	$DMG "$what" "$src" "$TMP/cuts"
	[ "$SWEEP" = short ] && min=5
	for f in "$TMP"/cuts/*.data; do
		i=$((i + 1))
		[ "$SWEEP" = short ] && [ $((i % 4)) -ne 1 ] && continue
		why=$(refused1 "$f" "$text" db)
		n=$((n + 1))
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			[ -n "$first" ] || first="$(basename "$f"): $why"
		fi
	done
	if [ $n -gt $min ] && [ $bad -eq 0 ]; then
		pass "$name: $n cuts, each refused"
	else
		fail "$name: $n cuts, each refused" "$bad not: $first"
	fi
}
[ "$SWEEP" = short ] && drop "perf.data cuts: three of every four offsets" \
	"offset sweep, run in the plain pass; here every fourth cut of each kind"
cuts "uncompressed perf.data cut short" cuts "$PLAIN" '(truncated|corrupt) perf\.data'
cuts "zstd perf.data cut short" cuts "$ZST" '(truncated|corrupt) perf\.data'
RTEXT='truncated perf\.data: (the record|a record header)|corrupt perf\.data: the compressed'
cuts "uncompressed perf.data, data cut inside records" datacuts "$PLAIN" "$RTEXT"
cuts "zstd perf.data, data cut inside records" datacuts "$ZST" "$RTEXT"

# --- the data section cut at a record's start: a whole, shorter file, whose kmem
# events are the samples before the cut
# samples_before FILE K: the SAMPLE records in the first K bytes of the data section
samples_before() {
	python3 - "$1" "$2" <<'EOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
d_off, d_size = struct.unpack_from('<QQ', b, 40)
off, end, n = d_off, d_off + int(sys.argv[2]), 0
while off < end:
    typ, size = struct.unpack_from('<I', b, off)[0], struct.unpack_from('<H', b, off + 6)[0]
    n += typ == 9
    off += size
print(n)
EOF
}
n=0 bad=0 first=
for k in $($DMG records "$PLAIN" | awk 'NR % 2 == 1'); do
	want=$(samples_before "$PLAIN" "$k")
	[ "$want" -gt 0 ] && [ $n -lt 5 ] || continue	# kma refuses a file of no kmem events
	$DMG datacut "$PLAIN" "$k" "$TMP/dcut.data"
	got=$(kma --no-db "$TMP/dcut.data" 2> "$TMP/err.txt" |
	      awk '/^number of allocs:/ { a = $4 } /^number of frees:/ { f = $4 } END { print a + f }')
	n=$((n + 1))
	if [ "$got" != "$want" ] || [ -s "$TMP/err.txt" ]; then
		bad=$((bad + 1))
		[ -n "$first" ] || first="data cut at $k: $got events, want $want: $(cat "$TMP/err.txt")"
	fi
done
if [ $n -eq 5 ] && [ $bad -eq 0 ]; then
	pass "data cut at 5 record starts: whole files, their samples' events"
else
	fail "data cut at 5 record starts: whole files, their samples' events" "$bad of $n: $first"
fi

# --- damaged headers and records
$DMG magic "$PLAIN" "$TMP/magic.data"
refused "wrong magic" "$TMP/magic.data" "neither a trace-cmd trace.dat nor a perf.data file"
$DMG swapped "$PLAIN" "$TMP/swapped.data"
refused "the other byte order" "$TMP/swapped.data" "a perf.data of the other byte order"
$DMG pipe "$PLAIN" "$TMP/pipe.data"
refused "pipe mode without attributes" "$TMP/pipe.data" "a pipe-mode file without event attributes"
$DMG notracing "$PLAIN" "$TMP/notracing.data"
refused "no tracing data" "$TMP/notracing.data" "no tracing data section"
$DMG badcomp "$ZST" "$TMP/badcomp.data"
refused "corrupt compressed record" "$TMP/badcomp.data" \
	"corrupt perf\\.data: the compressed record at [0-9]+ does not inflate"
$DMG rawbig "$PLAIN" "$TMP/rawbig.data"
refused "raw data past its sample" "$TMP/rawbig.data" \
	"corrupt perf\\.data: a sample whose fields run past its end at [0-9]+"

# --- a record of a type perf does not define: skipped by its size, one warning line,
# the report of the whole file
$DMG rectype "$PLAIN" 73 "$TMP/rectype.data"	# its THREAD_MAP record
kma --no-db "$PLAIN" > "$TMP/whole.txt" 2> /dev/null
( cd "$TMP" && kma --no-db rectype.data > out.txt 2> err.txt ); rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l < "$TMP/err.txt")" -eq 1 ] &&
   grep -qF "kma-analyze: rectype.data: warning: 1 records of types perf does not define (the first: 250) were skipped" "$TMP/err.txt" &&
   cmp -s "$TMP/out.txt" "$TMP/whole.txt"; then
	pass "unknown record type: skipped with a warning, the same report"
else
	fail "unknown record type: skipped with a warning, the same report" \
	     "exit $rc: $(cat "$TMP/err.txt"); $(diff "$TMP/whole.txt" "$TMP/out.txt" | head -3)"
fi

# --- FINISHED_ROUND records with nothing left to order (the queue empty when
# they come): the same report, not a hang
$DMG rounds "$PLAIN" 3 "$TMP/rounds.data"
timeout 120 "$KMA" --kallsyms "$TMP/perf-kallsyms" --no-db "$TMP/rounds.data" > "$TMP/rounds.txt" 2> "$TMP/err.txt"; rc=$?
if [ $rc -eq 0 ] && [ ! -s "$TMP/err.txt" ] &&
   sed 's/rounds\.data/perf-slab-plain.data/g' "$TMP/rounds.txt" | cmp -s - "$TMP/whole.txt"; then
	pass "empty rounds at the end: the same report"
else
	fail "empty rounds at the end: the same report" \
	     "exit $rc: $(head -c 300 "$TMP/err.txt"); $(diff "$TMP/whole.txt" "$TMP/rounds.txt" | head -3)"
fi
