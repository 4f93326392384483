# Damaged containers whose damage libtracecmd does not notice: a v7 compressed chunk
# whose header claims another size than it inflates to, a CPU's data running over the
# next CPU's (v6, v7), bytes after the last section, a section whose size field is
# wrong. Each input is basic.dat (zstd), basic-v6.dat or a kma-convert copy (zlib,
# uncompressed) with exactly these bytes changed; where they lie comes from the file's
# own layout, read by Python (tests/tools/v7-sections.py and the walks below), never
# from kma. A chunk that inflates to less than it claims is refused (exit 1, one line
# naming file, CPU and chunk) with every -j and with --libtracecmd: before, the stale
# rest of the block was decoded as events. So is a CPU's data over the next CPU's
# (before: its pages read twice). The other damage is warned (exit 0, one line saying
# what is wrong, the whole file's report).

FIX=$TOP/tests/fixtures
V7=$FIX/basic.dat
SECTIONS=$TOP/tests/tools/v7-sections.py

[ -f "$V7" ] || { skip "damaged chunks and sections" "fixture missing"; return 0; }

"$KMA" -q -o "$TMP/keep.db" "$V7" 2> /dev/null

# run_kma FILE ARGS...: sets rc, leaves out.txt and err.txt in $TMP
run_kma() {
	local f=$1
	shift
	cp "$TMP/keep.db" "$TMP/report.db"
	( cd "$TMP" && "$KMA" "$@" "$f" > out.txt 2> err.txt ); rc=$?
}

# refused NAME FILE TEXT: exit 1 with "kma-analyze: FILE: TEXT" alone on stderr, no
# report, report.db untouched; with -j 1, 2, 4, --libtracecmd and without a DB
refused() {
	local name=$1 file=$2 text=$3 args why
	for args in "-o report.db -j 1" "-o report.db -j 2" "--no-db -j 4" "--no-db --libtracecmd"; do
		# shellcheck disable=SC2086
		run_kma "$file" $args
		why=
		if [ $rc -ne 1 ]; then
			why="exit status $rc, want 1: $(head -3 "$TMP/err.txt")"
		elif [ "$(cat "$TMP/err.txt")" != "kma-analyze: $file: $text" ]; then
			why="want 'kma-analyze: $file: $text', got: $(head -3 "$TMP/err.txt")"
		elif [ -s "$TMP/out.txt" ]; then
			why="printed a report anyway"
		elif ! cmp -s "$TMP/report.db" "$TMP/keep.db" || ls "$TMP" | grep -q 'tmp-'; then
			why="report.db written or a temporary file left: $(ls "$TMP")"
		fi
		if [ -z "$why" ]; then pass "$name ($args)"; else fail "$name ($args)" "$why"; fi
	done
}

# warned NAME FILE WHOLE TEXT: exit 0, the one line "kma-analyze: FILE: warning: TEXT",
# and the report of the undamaged file WHOLE (its text report in WHOLE.txt)
warned() {
	local name=$1 file=$2 whole=$3 text=$4 args why
	for args in "-o report.db" "--no-db --libtracecmd"; do
		# shellcheck disable=SC2086
		run_kma "$file" $args
		why=
		if [ $rc -ne 0 ]; then
			why="exit status $rc, want 0: $(head -3 "$TMP/err.txt")"
		elif [ "$(cat "$TMP/err.txt")" != "kma-analyze: $file: warning: $text" ]; then
			why="want 'kma-analyze: $file: warning: $text', got: $(head -3 "$TMP/err.txt")"
		elif ! cmp -s "$TMP/out.txt" "$whole.txt"; then
			why="the report differs from the whole file's: $(diff "$whole.txt" "$TMP/out.txt" | head -5)"
		fi
		if [ -z "$why" ]; then pass "$name ($args)"; else fail "$name ($args)" "$why"; fi
	done
}

# whole NAME FILE: the undamaged file's text report in $TMP/NAME.txt
whole() {
	( cd "$TMP" && "$KMA" -o report.db "$2" > "$1.txt" 2> "$1.err" ) ||
		fail "the undamaged $1 reads" "$(cat "$TMP/$1.err")"
	( cd "$TMP" && "$KMA" --no-db --libtracecmd "$2" > "$1.lib.txt" 2> /dev/null )
	cmp -s "$TMP/$1.txt" "$TMP/$1.lib.txt" ||
		fail "the undamaged $1 reads alike with --libtracecmd" "$(diff "$TMP/$1.txt" "$TMP/$1.lib.txt" | head -3)"
}

# chunk SRC OUT CPU N DELTA: SRC with the uncompressed-size field of CPU's chunk N
# (from 0) changed by DELTA; prints "OFFSET CLAIMED INFLATED" (INFLATED: what the
# chunk's data inflates to, with Python's zlib or the zstd command)
chunk() {
	python3 - "$SECTIONS" "$@" <<'EOF'
import importlib.util, struct, subprocess, sys
spec = importlib.util.spec_from_file_location('v7', sys.argv[1])
v7 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v7)
src, out, cpu, n, delta = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
out_lines = subprocess.run([sys.executable, sys.argv[1], '--layout', src], check=True,
                           stdout=subprocess.PIPE, text=True).stdout.split('\n')
f = v7.V7(src)
for line in out_lines:
    w = line.split()
    if w and w[1] == '(top)' and int(w[2]) == cpu:
        off = int(w[5 + n])
        break
else:
    sys.exit('no such CPU')
csize, usize = f.num(off, 4), f.num(off + 4, 4)
got = len(f.inflate(f.d[off + 8:off + 8 + csize]))
d = bytearray(f.d)
struct.pack_into(f.e + 'I', d, off + 4, usize + delta)
open(out, 'wb').write(d)
print(off, usize + delta, got)
EOF
}

# --- a chunk claiming more than it inflates to: CPU 1's third chunk (read by the page
# reader as it goes), CPU 0's first (inflated by the checks at open)
whole basic "$V7"
read -r off claim got <<< "$(chunk "$V7" "$TMP/c1.dat" 1 2 4096)"
refused "zstd chunk claims a page more (CPU 1, chunk 3)" "$TMP/c1.dat" \
	"corrupt trace.dat: CPU 1's compressed chunk at $off inflates to $got bytes, its header claims $claim (corrupt event data)"
read -r off claim got <<< "$(chunk "$V7" "$TMP/c0.dat" 0 0 4096)"
refused "zstd chunk claims a page more (CPU 0, chunk 1)" "$TMP/c0.dat" \
	"corrupt trace.dat: CPU 0's compressed chunk at $off inflates to $got bytes, its header claims $claim (corrupt event data)"
read -r off claim got <<< "$(chunk "$V7" "$TMP/c1big.dat" 1 6 $((4096 * 100)))"
refused "zstd chunk claims 100 pages more (CPU 1, last chunk)" "$TMP/c1big.dat" \
	"corrupt trace.dat: CPU 1's compressed chunk at $off inflates to $got bytes, its header claims $claim (corrupt event data)"
# claiming less: the codec has no room for it
read -r off claim got <<< "$(chunk "$V7" "$TMP/c1less.dat" 1 2 -4096)"
refused "zstd chunk claims a page less" "$TMP/c1less.dat" \
	"corrupt trace.dat: CPU 1's compressed chunk at $off cannot be inflated (corrupt event data)"

# the same in the zlib copy (kma's own codec)
CONVERT=$TOP/$B/tests/tools/kma-convert
if [ ! -x "$CONVERT" ]; then
	CONVERT=$TMP/tools/kma-convert
	make -s -C "$TOP/tests/tools" O="$TMP/tools" > "$TMP/build.txt" 2>&1 ||
		fail "chunks: build the test tools" "$(tail -5 "$TMP/build.txt")"
fi
if [ -x "$CONVERT" ] && "$CONVERT" -v 7 -c zlib "$V7" "$TMP/zlib.dat" > "$TMP/convert.txt" 2>&1; then
	whole zlib "$TMP/zlib.dat"
	read -r off claim got <<< "$(chunk "$TMP/zlib.dat" "$TMP/z1.dat" 1 1 4096)"
	refused "zlib chunk claims a page more" "$TMP/z1.dat" \
		"corrupt trace.dat: CPU 1's compressed chunk at $off inflates to $got bytes, its header claims $claim (corrupt event data)"
else
	fail "chunks: basic.dat as v7 zlib" "$(tail -3 "$TMP/convert.txt" 2> /dev/null)"
fi

# --- a CPU's data claiming to run over the next CPU's: its pages were read twice, the
# numbers wrong with exit 0. v6 (the flyrecord's u64 offset, u64 size per CPU) and v7
# uncompressed (the BUFFER option's u32 cpu, u64 offset, u64 size)
# over SRC OUT: CPU 0's size made to end 3 pages into CPU 1's data; prints "OFF SIZE OFF1"
over() {
	python3 - "$SECTIONS" "$@" <<'EOF'
import struct, subprocess, sys
src, out = sys.argv[2], sys.argv[3]
d = bytearray(open(src, 'rb').read())
if d[10:12] == b'6\0':
    i = d.index(b'flyrecord\0') + 10
    (o0, l0), (o1, l1) = struct.unpack_from('<QQ', d, i), struct.unpack_from('<QQ', d, i + 16)
    at = i + 8
else:
    lay = subprocess.run([sys.executable, sys.argv[1], '--layout', src], check=True,
                         stdout=subprocess.PIPE, text=True).stdout.split('\n')
    (o0, l0), (o1, l1) = [tuple(map(int, l.split()[3:5])) for l in lay if l.startswith('layout (top)')]
    at = d.index(struct.pack('<IQQ', 0, o0, l0)) + 12
assert o0 + l0 <= o1
struct.pack_into('<Q', d, at, o1 - o0 + 3 * 4096)
open(out, 'wb').write(d)
print(o0, o1 - o0 + 3 * 4096, o1)
EOF
}
V6=$FIX/basic-v6.dat
read -r off len off1 <<< "$(over "$V6" "$TMP/v6over.dat")"
refused "v6 CPU 0's data runs over CPU 1's" "$TMP/v6over.dat" \
	"corrupt trace.dat: CPU 0's event data at $off claims $len bytes, running over CPU 1's at $off1"
if [ -x "$CONVERT" ] && "$CONVERT" -v 7 -c none "$V7" "$TMP/none.dat" > "$TMP/convert.txt" 2>&1; then
	read -r off len off1 <<< "$(over "$TMP/none.dat" "$TMP/none-over.dat")"
	refused "v7 uncompressed CPU 0's data runs over CPU 1's" "$TMP/none-over.dat" \
		"corrupt trace.dat: CPU 0's event data at $off claims $len bytes, running over CPU 1's at $off1"
else
	fail "chunks: basic.dat as v7 uncompressed" "$(tail -3 "$TMP/convert.txt" 2> /dev/null)"
fi

# --- the sections of basic.dat, one after another from the end of the file header:
# "ID OFFSET SIZE CSIZE" (CSIZE: of a compressed section's block, else -)
python3 - "$V7" > "$TMP/secs.txt" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
o = d.index(b'\0', 10) + 1 + 6
o = d.index(b'\0', d.index(b'\0', o) + 1) + 1 + 8
while o < len(d):
    sid, flags, name, size = struct.unpack_from('<HHIQ', d, o)
    cs = struct.unpack_from('<I', d, o + 16)[0] if flags & 1 and sid != 3 else '-'
    print(sid, o, size, cs)
    o += 16 + size
assert o == len(d)
EOF
size=$(stat -c %s "$V7")
sec() { awk -v n="$1" '$1 == n { print $2, $3, $4; exit }' "$TMP/secs.txt"; }
# after N: the section that follows the one with id N (its id and offset)
after() { awk -v n="$1" 'p { print $1, $2; exit } $1 == n { p = 1 }' "$TMP/secs.txt"; }
# resize OUT OFFSET DELTA: the size field of the section at OFFSET changed by DELTA
resize() {
	python3 - "$V7" "$@" <<'EOF'
import struct, sys
src, out, off, delta = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
d = bytearray(open(src, 'rb').read())
struct.pack_into('<Q', d, off + 8, struct.unpack_from('<Q', d, off + 8)[0] + delta)
open(out, 'wb').write(d)
EOF
}

# --- bytes after the last section: once said "truncated ... inside a section"
for n in 1 100 5000; do
	{ cat "$V7"; python3 -c "import sys; sys.stdout.buffer.write(bytes((i * 37 + 11) % 256 for i in range($n)))"; } > "$TMP/extra$n.dat"
	s=s; [ $n = 1 ] && s=
	them=them; [ $n = 1 ] && them=it
	warned "$n byte$s after the last section" "$TMP/extra$n.dat" "$TMP/basic" \
		"trace.dat has $n byte$s after its last section, which ends at $size; kma ignores $them"
done
{ cat "$V7"; head -c 100 /dev/zero; } > "$TMP/zeros.dat"
warned "100 zero bytes after the last section" "$TMP/zeros.dat" "$TMP/basic" \
	"trace.dat has 100 bytes after its last section, which ends at $size; kma ignores them"

# --- section size fields changed: once said "truncated ... inside a section at" the
# offset the walk went astray to
read -r off len _ <<< "$(sec 17)"
read -r nid noff <<< "$(after 17)"
[ "$nid" = 18 ] || fail "basic.dat's layout" "the ftrace formats are followed by section $nid"
resize "$TMP/s17.dat" "$off" 10
warned "ftrace formats section claims 10 bytes more" "$TMP/s17.dat" "$TMP/basic" \
	"corrupt trace.dat: the ftrace event formats section at $off claims $((len + 10)) bytes, running over the event formats section at $noff; kma does not need its size"
read -r off len _ <<< "$(sec 3)"
read -r nid noff <<< "$(after 3)"
resize "$TMP/s3.dat" "$off" 10
warned "event data section claims 10 bytes more" "$TMP/s3.dat" "$TMP/basic" \
	"corrupt trace.dat: the event data section at $off claims $((len + 10)) bytes, running over the options section at $noff; kma does not need its size"
read -r off len csize <<< "$(sec 15)"
resize "$TMP/s15up.dat" "$off" 50
warned "section names claim 50 bytes more" "$TMP/s15up.dat" "$TMP/basic" \
	"corrupt trace.dat: the section names at $off claim $((len + 50)) bytes, their compressed block takes $((csize + 8)) (the file is not cut short); kma does not need them"
resize "$TMP/s15down.dat" "$off" -20
warned "section names claim 20 bytes less" "$TMP/s15down.dat" "$TMP/basic" \
	"corrupt trace.dat: the section names at $off claim $((len - 20)) bytes, their compressed block takes $((csize + 8)); kma does not need them"
