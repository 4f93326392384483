# Compressed trace.dat files. trace-cmd builds with zlib (trace-cmd 3.2 on many
# distributions) write v7 files compressed with zlib, which Debian's zstd-only libtracecmd
# cannot read; kma registers its own zlib codec (analyzer/kma-zlib.c).
#
# Every trace here, the real fixtures and the tests/gen sequences rendered by mktrace, is
# rewritten by tests/tools/kma-convert as v7 zlib, v7 zstd, v7 uncompressed and v6. The
# copies hold the same records (the zlib one checked without libtracecmd by
# v7-sections.py, which inflates it with Python's zlib), so kma-analyze must print the
# same reports and write the same report.db for all of them; only the trace row's file,
# file_version and compression differ, and those must say what each file is. The numbers
# themselves are checked independently: the zlib copy's report.db against trace-cmd report
# of the uncompressed copy (kma-check-db.py), and against the hand-worked .expect files.
# kma-test: long
TOOLS=$TOP/$B/tests/tools
CONVERT=$TOOLS/kma-convert
MKTRACE=$TOOLS/mktrace
if [ ! -x "$CONVERT" ] || [ ! -x "$MKTRACE" ]; then
	TOOLS=$TMP/tools
	CONVERT=$TOOLS/kma-convert
	MKTRACE=$TOOLS/mktrace
	make -s -C "$TOP/tests/tools" O="$TOOLS" > "$TMP/build.txt" 2>&1 ||
		fail "compress: build the test tools" "$(tail -5 "$TMP/build.txt")"
fi
SECTIONS=$TOP/tests/tools/v7-sections.py
CHECK=$TOP/tests/tools/kma-check-db.py
FIX=$TOP/tests/fixtures
GEN=$TOP/tests/gen
KINDS="zlib zstd none v6"

# convert SRC DIR: DIR/KIND/trace.dat for every kind (one name, so that reports naming the
# file compare); prints why not
convert() {
	local src=$1 dir=$2 k
	for k in $KINDS; do
		mkdir -p "$dir/$k"
		if [ $k = v6 ]; then
			"$CONVERT" -v 6 "$src" "$dir/$k/trace.dat"
		else
			"$CONVERT" -v 7 -c $k "$src" "$dir/$k/trace.dat"
		fi > "$dir/$k/convert.txt" 2>&1 || { echo "kma-convert to $k failed:" \
			"$(tail -3 "$dir/$k/convert.txt")"; return 1; }
	done
}

# analyze DIR FORMATS MODE...: kma-analyze on DIR/trace.dat, the default report in text
# (writing report.db) and in each of FORMATS (e.g. "csv json"), then each MODE (e.g.
# --leaks) in text, all into DIR/out; DIR/dump is report.db's .dump with the trace row's
# file, version and compression blanked
analyze() {
	local d=$1 formats=$2 m rc
	shift 2
	(
		cd "$d" || exit 1
		"$KMA" -o report.db trace.dat > out 2> err; rc=$?
		for f in $formats; do
			echo "== -f $f" >> out
			"$KMA" --no-db -f $f trace.dat >> out 2>> err || rc=$((rc + 1))
		done
		for m in "$@"; do
			echo "== $m" >> out
			# shellcheck disable=SC2086
			"$KMA" --no-db $m trace.dat >> out 2>> err || rc=$((rc + 1))
		done
		[ $rc = 0 ] && [ ! -s err ] || exit 1
		cp report.db blank.db
		sqlite3 blank.db "UPDATE trace SET file = '', file_version = NULL, compression = NULL"
		sqlite3 blank.db .dump > dump
	)
}

# facts DB: file_version|compression of the trace row ('-' for NULL)
facts() {
	sqlite3 "$1" "SELECT file_version, ifnull(compression, '-') FROM trace"
}

# same_everywhere NAME DIR FORMATS MODE...: all kinds analyzed and compared with the
# uncompressed v7 copy
same_everywhere() {
	local name=$1 dir=$2 k want bad=""
	shift 2
	for k in $KINDS; do
		analyze "$dir/$k" "$@" &
	done
	wait
	for k in $KINDS; do
		if [ ! -f "$dir/$k/dump" ]; then
			fail "$name [$k]: kma-analyze" "$(head -3 "$dir/$k/err" 2>/dev/null)"
			return 1
		fi
	done
	for k in $KINDS; do
		cmp -s "$dir/none/out" "$dir/$k/out" ||
			bad="$bad $k: reports differ: $(diff "$dir/none/out" "$dir/$k/out" | head -4 | tr '\n' ' ')"
		cmp -s "$dir/none/dump" "$dir/$k/dump" ||
			bad="$bad $k: report.db differs: $(diff "$dir/none/dump" "$dir/$k/dump" | head -4 | tr '\n' ' ')"
		case $k in zlib|zstd) want="7|$k";; none) want="7|-";; v6) want="6|-";; esac
		[ "$(facts "$dir/$k/report.db")" = "$want" ] ||
			bad="$bad $k: trace row says $(facts "$dir/$k/report.db"), want $want"
	done
	if [ -n "$bad" ]; then
		fail "$name: same reports and report.db for zlib, zstd, none, v6" "$bad"
	else
		pass "$name: same reports and report.db for zlib, zstd, none, v6"
	fi
}

# same_records NAME DIR: the zlib copy holds what the uncompressed one holds, inflated
# without libtracecmd, and is compressed (every section, every CPU)
same_records() {
	local name=$1 dir=$2 k
	for k in zlib none; do
		python3 "$SECTIONS" "$dir/$k/trace.dat" > "$dir/$k/sections" 2>&1 || {
			fail "$name: v7-sections.py reads the $k copy" "$(tail -3 "$dir/$k/sections")"
			return 1
		}
		sed '1d; s/ compressed / /; s/ plain / /; s/ chunks=[0-9]* / /' "$dir/$k/sections" \
			> "$dir/$k/contents"
	done
	if [ "$(head -1 "$dir/zlib/sections" | cut -d' ' -f2)" != zlib ] ||
	   grep -q -e ' plain ' -e ' chunks=0 ' "$dir/zlib/sections" ||
	   ! grep -q ' chunks=' "$dir/zlib/sections"; then
		fail "$name: the zlib copy is zlib-compressed" "$(cat "$dir/zlib/sections")"
	elif ! cmp -s "$dir/none/contents" "$dir/zlib/contents"; then
		fail "$name: zlib and uncompressed copies hold the same data" \
			"$(diff "$dir/none/contents" "$dir/zlib/contents" | head -4)"
	else
		pass "$name: zlib copy inflates (Python zlib) to the uncompressed copy's data"
	fi
}

# ---- the real fixtures ---------------------------------------------------------------
for f in basic markers lost lost-mid instance; do
	dat=$FIX/$f.dat
	[ -f "$dat" ] || { fail "compress: fixture $f" "missing $dat"; continue; }
	dir=$TMP/$f
	if ! convert "$dat" "$dir" > "$TMP/why.txt"; then
		fail "compress: fixture $f: convert" "$(cat "$TMP/why.txt")"
		continue
	fi
	same_records "compress: fixture $f" "$dir"
	# every report and format on two fixtures (markers has generations), the default
	# report in text on the others (the machine is shared: keep the runs few)
	case $f in
	basic) fm="csv json"; modes="--lifetimes --peak --advice --group-by=cache";;
	markers) fm="csv json"; modes="--generations --leaks --list";;
	*) fm=""; modes="";;
	esac
	# shellcheck disable=SC2086
	same_everywhere "compress: fixture $f" "$dir" "$fm" $modes || continue
	# independent numbers: trace-cmd report of the uncompressed copy against the zlib db
	case $f in lost|instance) continue;; esac	# t-fixtures.sh checks those on the originals
	check "compress: fixture $f: the zlib copy's numbers match trace-cmd report" \
		python3 "$CHECK" "$dir/none/trace.dat" "$dir/zlib/report.db"
done

# kma-convert writes what trace-cmd convert writes (byte for byte) where both can
if [ -f "$TMP/basic/none/trace.dat" ]; then
	trace-cmd convert --file-version 7 --compression zstd -i "$FIX/basic.dat" \
		-o "$TMP/tc-zstd.dat" > /dev/null 2>&1
	trace-cmd convert --file-version 7 --compression none -i "$FIX/basic.dat" \
		-o "$TMP/tc-none.dat" > /dev/null 2>&1
	trace-cmd convert --file-version 6 --compression none -i "$FIX/basic.dat" \
		-o "$TMP/tc-v6.dat" > /dev/null 2>&1
	check "compress: kma-convert writes what trace-cmd convert writes (zstd, none, v6)" \
		sh -c "cmp '$TMP/tc-zstd.dat' '$TMP/basic/zstd/trace.dat' &&
		       cmp '$TMP/tc-none.dat' '$TMP/basic/none/trace.dat' &&
		       cmp '$TMP/tc-v6.dat' '$TMP/basic/v6/trace.dat'"
	# and Debian's trace-cmd reads the zstd copy: the same records as the original
	check "compress: trace-cmd report reads kma-convert's zstd copy" \
		sh -c "trace-cmd report -i '$TMP/basic/zstd/trace.dat' > '$TMP/r1.txt' 2>&1 &&
		       trace-cmd report -i '$FIX/basic.dat' > '$TMP/r2.txt' 2>&1 &&
		       cmp '$TMP/r1.txt' '$TMP/r2.txt'"
fi

# ---- the generated sequences ---------------------------------------------------------
# expect_rows EXPECT: summary and callers of a .expect file (64-bit renderings)
expect_rows() {
	awk '$1 == "summary" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print "summary", v["total"], v["slack"], v["net"], v["allocs"], v["frees"],
		      v["unknown_frees"], v["null_frees"], v["implicit_frees"], v["failed_allocs"],
		      v["callers"], v["lost_events"]
	}
	$1 == "caller" { print "caller", $2, $3, $4, $5, $6, $7, $8 }' "$1" | LC_ALL=C sort
}
db_rows() {
	{
		sqlite3 -separator ' ' "$1" "SELECT 'summary', total, slack, net, allocs, frees,
			unknown_frees, null_frees, implicit_frees, failed_allocs, callers, lost_events
			FROM summary"
		sqlite3 -separator ' ' "$1" "SELECT 'caller', caller, total, slack, net, allocs,
			frees, implicit_frees FROM caller_stats"
	} | LC_ALL=C sort
}

# The short sweep (sanitizer and fresh passes): the sequences that are also
# rendered 32-bit; the rest vary the events inside files whose container code
# (the compression and file versions under test here) is the same.
SEQS=$(ls "$GEN"/*.seq)
if [ "$SWEEP" = short ]; then
	drop "compress: the generated sequences other than reuse, missed and module" \
		"sequence sweep, run in the plain pass; every fixture runs here"
	SEQS="$GEN/reuse.seq $GEN/missed.seq $GEN/module.seq"
fi
if [ -x "$MKTRACE" ]; then
	# every sequence as the newest kernel writes it, three also as a 32-bit one. Not
	# big-endian: libtracecmd 1.3.1 (and so trace-cmd convert) writes a broken BUFFER
	# option when it converts a big-endian file to v7 on a little-endian machine, even
	# uncompressed, so no big-endian v7 file can be made here.
	for seq in $SEQS; do
		name=$(basename "$seq" .seq)
		for r in "6.18:8:little" "6.1:4:little"; do
			case $r in
			*:4:*) case $name in reuse|missed|module) ;; *) continue;; esac;;
			esac
			IFS=: read -r g l e <<< "$r"
			dir=$TMP/gen-$name-$g-$l-$e
			mkdir -p "$dir"
			if ! "$MKTRACE" -g "$g" -l "$l" -E "$e" -o "$dir/src.dat" "$seq" \
				> "$dir/mktrace.txt" 2>&1 || ! convert "$dir/src.dat" "$dir" > "$TMP/why.txt"; then
				fail "compress: $name [$r]: render and convert" \
					"$(cat "$dir/mktrace.txt" "$TMP/why.txt" 2>/dev/null | tail -3)"
				continue
			fi
			same_records "compress: $name [$r]" "$dir"
			same_everywhere "compress: $name [$r]" "$dir" "" || continue
			[ "$l" = 8 ] || continue
			if [ "$(db_rows "$dir/zlib/report.db")" = "$(expect_rows "$GEN/$name.expect")" ]; then
				pass "compress: $name [$r]: the zlib copy gives $name.expect's numbers"
			else
				fail "compress: $name [$r]: the zlib copy gives $name.expect's numbers" \
					"$(diff <(expect_rows "$GEN/$name.expect") <(db_rows "$dir/zlib/report.db"))"
			fi
		done
	done
fi

# ---- bad zlib files: one line naming the file and the problem, exit 1 ------------------
# expect_bad NAME FILE PATTERN
expect_bad() {
	local name=$1 file=$2 pattern=$3 rc
	rm -f "$TMP/bad.db"
	( cd "$TMP" && "$KMA" -o bad.db "$file" > bad.out 2> bad.err ); rc=$?
	if [ $rc != 1 ]; then
		fail "compress: $name" "exit $rc, want 1: $(head -3 "$TMP/bad.err")"
	elif [ "$(wc -l < "$TMP/bad.err")" != 1 ] || ! grep -q -- "$file" "$TMP/bad.err" ||
	     ! grep -qi -- "$pattern" "$TMP/bad.err"; then
		fail "compress: $name" "want one line naming the file and '$pattern': $(head -5 "$TMP/bad.err")"
	elif [ -e "$TMP/bad.db" ] || [ -s "$TMP/bad.out" ]; then
		fail "compress: $name" "wrote a report or report.db anyway"
	else
		pass "compress: $name"
	fi
}

ZL=$TMP/basic/zlib/trace.dat
# the layout of the zlib copy, from its own headers: where its header ends, the kallsyms
# section, and CPU 0's data
if [ -f "$ZL" ] && ! python3 - "$ZL" > "$TMP/layout.txt" 2>&1 <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
p = d.index(b'\0', 10) + 1 + 6
p = d.index(b'\0', d.index(b'\0', p) + 1) + 1
header_end = p + 8
off, kallsyms, cpu0 = struct.unpack('<Q', d[p:p + 8])[0], None, None
while off:
    flags, size = struct.unpack('<HHIQ', d[off:off + 16])[1::2]
    if flags & 1:
        csize = struct.unpack('<I', d[off + 16:off + 20])[0]
        opts = zlib.decompress(d[off + 24:off + 24 + csize])
    else:
        opts = d[off + 16:off + 16 + size]
    q, off = 0, 0
    while q < len(opts):
        oid, size = struct.unpack('<HI', opts[q:q + 6])
        data = opts[q + 6:q + 6 + size]
        q += 6 + size
        if oid == 0:
            off = struct.unpack('<Q', data)[0]
            break
        if oid == 19:
            kallsyms = struct.unpack('<Q', data[:8])[0]
        if oid == 3:
            r = data.index(b'\0', data.index(b'\0', 8) + 1) + 1 + 8
            cpu0 = struct.unpack('<IQQ', data[r:r + 20])
print(header_end, kallsyms, cpu0[1], cpu0[2])
EOF
then
	fail "compress: layout of the zlib copy" "$(tail -3 "$TMP/layout.txt")"
elif [ -f "$ZL" ]; then
	read -r hend ksec c0off c0size < "$TMP/layout.txt"
	# cut inside the header, the kallsyms section, CPU 0's first chunk, the middle of the data
	for n in $((hend - 3)) $((ksec + 40)) $((c0off + 100)) $((c0off + c0size / 2)); do
		head -c "$n" "$ZL" > "$TMP/cut-$n.dat"
		expect_bad "zlib file cut at $n bytes" "$TMP/cut-$n.dat" "trunc\|corrupt"
	done
	# flipped bytes inside compressed data (not its sizes): zlib's checks catch it
	corrupt() {
		python3 -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for i in range(int(sys.argv[3]), int(sys.argv[3]) + 16):
    d[i] ^= 0x5a
open(sys.argv[2], 'wb').write(d)" "$ZL" "$2" "$1"
	}
	corrupt $((c0off + 4 + 8 + 200)) "$TMP/badchunk.dat"
	expect_bad "zlib file with a corrupt CPU data chunk" "$TMP/badchunk.dat" "corrupt"
	corrupt $((c0off + c0size - 100)) "$TMP/badchunk2.dat"
	expect_bad "zlib file with a corrupt last chunk" "$TMP/badchunk2.dat" "corrupt"
	corrupt $((ksec + 16 + 8 + 300)) "$TMP/badsyms.dat"
	expect_bad "zlib file with a corrupt kallsyms section" "$TMP/badsyms.dat" "corrupt"

	# the header's names: another algorithm is refused by name; another zlib version is read;
	# zstd data under the name zlib is corrupt data, not a crash
	python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
i = d.index(b'zlib\0', 0, 64)
j = d.index(b'\0', i + 5)
v = d[i + 5:j]
open(sys.argv[2], 'wb').write(d[:i] + b'lz4\0' + v + b'0' + d[j:])
open(sys.argv[3], 'wb').write(d[:i + 5] + b'9' * len(v) + d[j:])" "$ZL" "$TMP/lz4.dat" "$TMP/zlib9.dat"
	expect_bad "v7 file compressed with lz4" "$TMP/lz4.dat" \
		"compressed with 'lz4', which kma cannot read"
	mkdir -p "$TMP/zlib9"
	cp "$TMP/zlib9.dat" "$TMP/zlib9/trace.dat"
	if analyze "$TMP/zlib9" ""; then
		check "compress: a zlib file written with another zlib version reads the same" \
			cmp "$TMP/basic/zlib/dump" "$TMP/zlib9/dump"
	else
		fail "compress: a zlib file written with another zlib version" "$(head -3 "$TMP/zlib9/err")"
	fi
	python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
i = d.index(b'zstd\0', 0, 64)
open(sys.argv[2], 'wb').write(d[:i] + b'zlib' + d[i + 4:])" "$TMP/basic/zstd/trace.dat" "$TMP/mislabel.dat"
	expect_bad "zstd data labelled zlib" "$TMP/mislabel.dat" "corrupt"
fi

# the symbol layer on its own (kma-symdump, as tests/t-symbols.sh uses it) reads zlib too
SYMDUMP=$TOP/$B/tests/elf/kma-symdump
if [ -x "$SYMDUMP" ] && [ -f "$ZL" ]; then
	for what in syms sites; do
		check "compress: kma-symdump $what: the zlib copy as the uncompressed one" \
			sh -c "'$SYMDUMP' $what '$ZL' > '$TMP/s1.txt' &&
			       '$SYMDUMP' $what '$TMP/basic/none/trace.dat' > '$TMP/s2.txt' &&
			       test -s '$TMP/s1.txt' && cmp '$TMP/s1.txt' '$TMP/s2.txt'"
	done
fi
