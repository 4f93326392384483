# Corrupt headers and files cut short: a v7 fixture with bits flipped in its
# compressed header sections, the v6 fixture with its (plain text) event
# formats edited, both cut at their end. Each input is made here from the
# fixture: exactly these bits flipped, these bytes replaced, these lengths cut.
# A refused input: exit 1, one line naming the input (never the DB) and the
# problem, no report, the old report.db kept; with and without --no-db. A file
# that lacks only what kma does not need: exit 0, one warning line, and the
# same report as the whole file.
# kma-test: probe

FIX=$TOP/tests/fixtures
V7=$FIX/basic.dat
V6=$FIX/basic-v6.dat

# A report.db from an earlier run, which a refused input must leave as it is
# (a kma report.db: -o refuses to replace anything else before reading the trace)
"$KMA" -q -o "$TMP/keep.db" "$V7" 2> /dev/null

# run_kma MODE FILE: MODE db or no-db; sets rc, leaves out.txt and err.txt in $TMP
run_kma() {
	cp "$TMP/keep.db" "$TMP/report.db"
	if [ "$1" = db ]; then
		( cd "$TMP" && "$KMA" -o report.db "$2" > out.txt 2> err.txt ); rc=$?
	else
		( cd "$TMP" && "$KMA" --no-db "$2" > out.txt 2> err.txt ); rc=$?
	fi
}

# refused NAME FILE TEXT: exit 1 with "kma-analyze: FILE: ...TEXT..." alone on stderr
refused() {
	local name=$1 file=$2 text=$3 mode why
	for mode in db no-db; do
		run_kma $mode "$file"
		why=
		if [ $rc -ne 1 ]; then
			why="exit status $rc, want 1: $(head -3 "$TMP/err.txt")"
		elif [ "$(wc -l < "$TMP/err.txt")" -ne 1 ]; then
			why="want one line on stderr: $(head -5 "$TMP/err.txt")"
		elif ! grep -qF "kma-analyze: $file: " "$TMP/err.txt" ||
		     ! grep -qF -- "$text" "$TMP/err.txt"; then
			why="want 'kma-analyze: $file: ...$text...', got: $(cat "$TMP/err.txt")"
		elif grep -q 'report\.db\|UNIQUE\|SQL' "$TMP/err.txt"; then
			why="blames the report: $(cat "$TMP/err.txt")"
		elif ! cmp -s "$TMP/report.db" "$TMP/keep.db" || ls "$TMP" | grep -q 'tmp-'; then
			why="report.db written or a temporary file left: $(ls "$TMP")"
		elif [ -s "$TMP/out.txt" ]; then
			why="printed a report anyway"
		fi
		if [ -z "$why" ]; then pass "$name ($mode)"; else fail "$name ($mode)" "$why"; fi
	done
}

# warned NAME FILE TEXT: exit 0, the one line "kma-analyze: FILE: warning: ...TEXT...",
# and the report of the whole file
warned() {
	local name=$1 file=$2 text=$3 mode why
	for mode in db no-db; do
		run_kma $mode "$file"
		why=
		if [ $rc -ne 0 ]; then
			why="exit status $rc, want 0: $(head -3 "$TMP/err.txt")"
		elif [ "$(wc -l < "$TMP/err.txt")" -ne 1 ] ||
		     ! grep -qF "kma-analyze: $file: warning: " "$TMP/err.txt" ||
		     ! grep -qF -- "$text" "$TMP/err.txt"; then
			why="want one line 'kma-analyze: $file: warning: ...$text...', got: $(cat "$TMP/err.txt")"
		elif ! cmp -s "$TMP/out.txt" "$TMP/whole.txt"; then
			why="the report differs from the whole file's: $(diff "$TMP/whole.txt" "$TMP/out.txt" | head -5)"
		elif [ $mode = db ] && [ "$(sqlite3 "$TMP/report.db" 'SELECT COUNT(*) FROM allocations')" != "$allocs" ]; then
			why="report.db has not the whole file's $allocs allocations"
		fi
		if [ -z "$why" ]; then pass "$name ($mode)"; else fail "$name ($mode)" "$why"; fi
	done
}

# flip OUT BYTE:BIT...: basic.dat with these bits flipped
flip() {
	local out=$1
	shift
	python3 - "$V7" "$out" "$@" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for a in sys.argv[3:]:
    o, b = map(int, a.split(':'))
    d[o] ^= 1 << b
open(sys.argv[2], 'wb').write(d)
EOF
}

# edit6 OUT OLD NEW [AFTER]: basic-v6.dat with the first OLD after AFTER replaced by NEW (same length)
edit6() {
	python3 - "$V6" "$@" <<'EOF'
import sys
src, out, old, new = sys.argv[1:5]
after = sys.argv[5].encode() if len(sys.argv) > 5 else b''
d = open(src, 'rb').read()
old, new = old.encode().decode('unicode_escape').encode(), new.encode().decode('unicode_escape').encode()
assert len(old) == len(new)
i = d.index(old, d.index(after) if after else 0)
open(out, 'wb').write(d[:i] + new + d[i + len(old):])
EOF
}

[ -f "$V7" ] && [ -f "$V6" ] || { skip "corrupt inputs" "fixtures missing"; return 0; }

# --- v7: bits flipped in the compressed header sections (found by flipping bits at
# random offsets; what each gave before the header checks is noted)
# header_page text garbled: the pages were decoded with another layout into garbage
# records, whose unknown ids made report.db fail on "UNIQUE constraint failed:
# event_counts.event" (exit 1 blaming the DB; with --no-db exit 0, wrong totals)
flip "$TMP/hp1.dat" 197:7
refused "v7 header_page garbled (1 bit)" "$TMP/hp1.dat" \
	"corrupt trace.dat headers (the header_page format does not describe a ring-buffer page)"
flip "$TMP/hp2.dat" 206:1 547:0
refused "v7 header_page garbled (2 bits)" "$TMP/hp2.dat" \
	"corrupt trace.dat headers (the header_page format does not describe a ring-buffer page)"
# kmem_cache_alloc's format cut short by a parse error: its records were dropped (exit 0)
flip "$TMP/fmt1.dat" 2744:6
refused "v7 kmem format does not parse" "$TMP/fmt1.dat" \
	"corrupt trace.dat headers (the format of kmem:kmem_cache_alloc does not parse)"
flip "$TMP/fmt2.dat" 2359:6 2366:0 2415:4
refused "v7 kmem formats garbled (3 bits)" "$TMP/fmt2.dat" \
	"corrupt trace.dat headers (the format of kmem:kmalloc does not parse)"

# kmem_cache_free's id garbled (656 -> 65): its records carry an id no format describes.
# Not provably corrupt (a partial set of formats looks the same): a warning, and the
# records are counted once as unknown:unknown.
flip "$TMP/id.dat" 2508:1
if command -v trace-cmd > /dev/null; then
	n=$(trace-cmd report "$V7" 2> /dev/null | grep -c ' kmem_cache_free: ')
	run_kma db "$TMP/id.dat"
	if [ $rc -eq 0 ] && [ "$(wc -l < "$TMP/err.txt")" -eq 1 ] &&
	   grep -qF "kma-analyze: $TMP/id.dat: warning: $n records carry event ids that the event formats do not describe" "$TMP/err.txt" &&
	   [ "$(sqlite3 "$TMP/report.db" "SELECT count FROM event_counts WHERE event = 'unknown:unknown'")" = "$n" ]; then
		pass "v7 event id garbled: warning, $n records as unknown:unknown"
	else
		fail "v7 event id garbled: warning, $n records as unknown:unknown" "exit $rc: $(cat "$TMP/err.txt")"
	fi
fi

# --- v6: the event formats are plain text, edited in place
edit6 "$TMP/dupid.dat" "ID: 657" "ID: 658" "name: kfree"
refused "v6 two events with one id" "$TMP/dupid.dat" "corrupt trace.dat headers (two events with id 658: kmem:k"
edit6 "$TMP/dupname.dat" "name: bputs" "name: print"
refused "v6 two events with one name" "$TMP/dupname.dat" "corrupt trace.dat headers (two events named ftrace:print, with ids"
edit6 "$TMP/size.dat" "bytes_req;\toffset:24;\tsize:8;" "bytes_req;\toffset:24;\tsize:9;" "name: kmalloc"
refused "v6 field size against its type" "$TMP/size.dat" \
	"corrupt trace.dat headers (kmem:kmalloc's field bytes_req is size_t but has size 9)"
edit6 "$TMP/overlap.dat" "bytes_alloc;\toffset:32;" "bytes_alloc;\toffset:28;" "name: kmalloc"
refused "v6 overlapping fields" "$TMP/overlap.dat" \
	"corrupt trace.dat headers (kmem:kmalloc's field bytes_alloc (offset 28, size 8) overlaps the field before it)"
edit6 "$TMP/nofield.dat" "size_t bytes_alloc;" "size_t bytes_allox;" "name: kmalloc"
refused "v6 kmem event without a required field" "$TMP/nofield.dat" \
	"corrupt trace.dat headers (kmem:kmalloc has no bytes_alloc field)"
# libtraceevent's format parser recurses once per parenthesis: a print fmt nested
# 100000 deep overflows its stack (trace-cmd report dies of it). The header probe's
# child parses the formats first and dies in kma's stead; 1000 deep parses.
python3 "$TOP/tests/tools/deep-format.py" "$V6" "$TMP/deep.dat" 100000 &&
	refused "v6 print fmt nested past libtraceevent's stack" "$TMP/deep.dat" \
		"corrupt trace.dat headers (libtraceevent cannot parse its event or printk formats)"
python3 "$TOP/tests/tools/deep-format.py" "$V6" "$TMP/shallow.dat" 1000 &&
	check "v6 print fmt nested 1000 deep: read" "$KMA" --no-db -q "$TMP/shallow.dat"

# --- cut short at the end. The layout of basic.dat, from its section headers: the
# last three sections are the event data, the options with the BUFFER option (CPU
# data offsets) and the section names.
read -r data_off data_end opt_off opt_end names_off names_end size <<< "$(python3 - "$V7" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
o = d.index(b'\0', 10) + 1 + 6
o = d.index(b'\0', d.index(b'\0', o) + 1) + 1 + 8
secs = []
while o < len(d):
    sid, flags, name, size = struct.unpack_from('<HHIQ', d, o)
    secs.append((sid, o, o + 16 + size))
    o += 16 + size
assert [s[0] for s in secs[-3:]] == [3, 0, 15], secs
print(*[x for s in secs[-3:] for x in s[1:]], len(d))
EOF
)"
( cd "$TMP" && "$KMA" -o whole.db "$V7" > whole.txt 2> /dev/null )
allocs=$(sqlite3 "$TMP/whole.db" 'SELECT COUNT(*) FROM allocations')
cut7() { head -c $(($size - $1)) "$V7" > "$TMP/cut$1.dat"; }
for n in 1 50 $((names_end - names_off - 16)); do
	cut7 $n
	warned "v7 cut by $n bytes (the section names)" "$TMP/cut$n.dat" \
		"truncated trace.dat: the section names at $names_off end at $names_end, the file at $((size - n)); kma does not need them"
done
n=$((names_end - names_off - 8))
cut7 $n
warned "v7 cut by $n bytes (inside the names' header)" "$TMP/cut$n.dat" \
	"truncated trace.dat: the file ends at $((size - n)), inside the section names at $names_off that kma does not need"
n=$((names_end - names_off))
cut7 $n
warned "v7 cut by $n bytes (no section names)" "$TMP/cut$n.dat" \
	"truncated trace.dat: the section names at its end are missing; kma does not need them"
for n in $((names_end - names_off + 1)) $((names_end - opt_off - 17)); do
	cut7 $n
	refused "v7 cut by $n bytes (the last options)" "$TMP/cut$n.dat" \
		"truncated trace.dat: the options section at $opt_off ends at $opt_end, the file at $((size - n))"
done
n=$((names_end - opt_off - 8))
cut7 $n
refused "v7 cut by $n bytes (inside the options' header)" "$TMP/cut$n.dat" \
	"truncated trace.dat: the file ends at $((size - n)), inside the header of the options section at $opt_off"
n=$((names_end - opt_off))
cut7 $n
refused "v7 cut by $n bytes (no last options)" "$TMP/cut$n.dat" \
	"truncated trace.dat: the options section at $opt_off lies past the end of the file ($((size - n)) bytes)"
for n in $((names_end - opt_off + 1)) 300 20000; do
	cut7 $n
	refused "v7 cut by $n bytes (the event data)" "$TMP/cut$n.dat" \
		"truncated trace.dat: the event data section at $data_off ends at $data_end, the file at $((size - n))"
done

# The BUFFER option (plain, in the last options section) made to claim more data for CPU 1.
python3 - "$V7" "$TMP/cpu1.dat" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
i = d.index(b'local\0', len(d) - 300) + 6 + 8 + 20	# clock, page size, cpus, CPU 0
cpu, off, size = struct.unpack_from('<IQQ', d, i)
assert cpu == 1
struct.pack_into('<Q', d, i + 12, size + 1000)
open(sys.argv[2], 'wb').write(d)
print(off + 4 + size + 1000, file=open(sys.argv[2] + '.end', 'w'))
EOF
refused "v7 CPU 1's data past the options" "$TMP/cpu1.dat" \
	"corrupt trace.dat: CPU 1's event data claims to end at $(cat "$TMP/cpu1.dat.end"), past the options section at $opt_off that describes it"

# v6: the CPU data sits at the end; the flyrecord offsets say where each CPU's ends
read -r cpu6 end6 <<< "$(python3 - "$V6" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
i = d.index(b'flyrecord\0') + 10
cpus = []
while i + 16 <= len(d) and len(cpus) < 2:
    cpus.append(struct.unpack_from('<QQ', d, i)); i += 16
last = max(range(len(cpus)), key=lambda c: cpus[c][0])
print(last, cpus[last][0] + cpus[last][1])
EOF
)"
size6=$(stat -c %s "$V6")
for n in 1 100; do
	head -c $((size6 - n)) "$V6" > "$TMP/cut6-$n.dat"
	refused "v6 cut by $n bytes" "$TMP/cut6-$n.dat" \
		"truncated trace.dat: CPU $cpu6's event data ends at $end6, the file at $((size6 - n))"
done

# The first options section's pointer to the header_page section sent past the end of
# the file (a bit flipped in the plain options section): corrupt, not cut short.
read -r first ptr <<< "$(python3 - "$V7" "$TMP/ptr.dat" <<'EOF2'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
o = d.index(b'\0', 10) + 1 + 6
o = d.index(b'\0', d.index(b'\0', o) + 1) + 1
first = struct.unpack_from('<Q', d, o)[0]
i = first + 16
oid, size, val = struct.unpack_from('<HIQ', d, i)
assert oid == 16 and size == 8
d[i + 6 + 5] ^= 1
open(sys.argv[2], 'wb').write(d)
print(first, val ^ (1 << 40))
EOF2
)"
refused "v7 options point past the end" "$TMP/ptr.dat" \
	"corrupt trace.dat: the options section at $first points to the header_page/header_event section at $ptr, past the end of the file ($size bytes)"
