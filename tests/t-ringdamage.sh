# Damaged ring-buffer data: copies of basic-v6.dat whose pages are damaged by
# tests/tools/ringdamage.py (which finds them through the file layout, not kma's code):
# a page zeroed, a record's length field cut below its event format or made to run past
# its page, one page's
# timestamp moved, two CPUs' data made to overlap. Each must be reported: a warning
# line with the counts, the same counts in the text summary and report.db's
# ring_damage, and the numbers of the whole trace without what the damaged part
# held, computed by kma-expect.py from trace-cmd report of the whole file; or, for
# overlapping CPUs, a refusal naming the two CPUs. The time cases are also read
# from v7 zstd copies (trace-cmd convert) and with -j 1; a whole trace has no warning.

FIX=$TOP/tests/fixtures
V6=$FIX/basic-v6.dat
RD=$TOP/tests/tools/ringdamage.py
command -v trace-cmd > /dev/null || { skip "ring-buffer damage" "trace-cmd missing"; return 0; }

# run FILE [OPTS...]: kma-analyze with report.db; sets rc, leaves out.txt, err.txt, r.db
run() {
	local file=$1
	shift
	rm -f "$TMP/r.db"
	( cd "$TMP" && "$KMA" "$@" -o r.db "$file" > out.txt 2> err.txt ); rc=$?
}

# damaged NAME FILE WARNING SUMMARY DAMAGE SKIPS [OPTS...]: exit 0; stderr exactly the
# WARNING line(s); the summary line SUMMARY; ring_damage's rows DAMAGE (cpu|short|
# overlong|zero|jump pages|jump records|offset|inflated, one per CPU, ';' between); the
# numbers of the whole trace without the records SKIPS (CPU:FIRST:N ...)
damaged() {
	local name=$1 file=$2 warning=$3 summary=$4 damage=$5 skips=$6 got
	shift 6
	run "$file" "$@"
	if [ $rc -ne 0 ]; then
		fail "$name: exit 0" "exit $rc: $(head -3 "$TMP/err.txt")"
		return
	fi
	pass "$name: exit 0"
	got=$(cat "$TMP/err.txt")
	if [ "$got" = "$(printf '%b' "$warning")" ]; then
		pass "$name: warning"
	else
		fail "$name: warning" "want '$(printf '%b' "$warning")', got '$got'"
	fi
	check "$name: summary line" grep -qxF "$summary" "$TMP/out.txt"
	got=$(sqlite3 "$TMP/r.db" 'SELECT * FROM ring_damage ORDER BY cpu' | tr '\n' ';')
	if [ "$got" = "$damage;" ]; then
		pass "$name: report.db ring_damage"
	else
		fail "$name: report.db ring_damage" "want '$damage;', got '$got'"
	fi
	# shellcheck disable=SC2086
	check "$name: numbers of the whole trace without the damaged records" \
		python3 "$RD" check "$V6" "$TMP/r.db" "$TMP/out.txt" $skips
}

# skips OUT: the CPU:FIRST:N ranges ringdamage.py printed into OUT
skips() { awk '$1 == "skip" { printf "%s%s:%s:%s", n++ ? " " : "", $2, $3, $4 }' "$1"; }
page() { awk -v c="$2" '$1 == "page" && $2 == c { print $3; exit }' "$1"; }

[ -f "$V6" ] || { skip "ring-buffer damage" "fixture missing"; return 0; }
OFF0=$(trace-cmd dump --flyrecord -i "$V6" 2>/dev/null | awk '/size of cpu 0/ { print $1 }')
OFF1=$(trace-cmd dump --flyrecord -i "$V6" 2>/dev/null | awk '/size of cpu 1/ { print $1 }')

# trace-cmd's outputs of the whole trace, once (ringdamage.py check reads them)
export RD_REPORT=$TMP/report-R.txt RD_STAT=$TMP/report-stat.txt
memo "$RD_REPORT" "$V6 trace-cmd-report-R" trace-cmd report -R -i "$V6"
memo "$RD_STAT" "$V6 trace-cmd-report-stat" trace-cmd report --stat -i "$V6"

# --- a whole trace: no warning, no summary line, ring_damage all zero
run "$V6"
check "whole trace: exit 0, nothing on stderr" test $rc -eq 0 -a ! -s "$TMP/err.txt"
check "whole trace: no damage line in the summary" \
	sh -c "! grep -q '^damaged data' '$TMP/out.txt'"
check "whole trace: ring_damage all zero, one row per CPU" test \
	"$(sqlite3 "$TMP/r.db" 'SELECT * FROM ring_damage ORDER BY cpu' | tr '\n' ';')" = \
	"0|0|0|0|0|0||;1|0|0|0|0|0||;"

# --- zero-filled pages: CPU 0's page 5, CPU 1's page 7
python3 "$RD" make "$V6" "$TMP/zero.dat" zero 0 5 1 7 > "$TMP/zero.txt"
damaged "two zero-filled pages" "$TMP/zero.dat" \
	"kma-analyze: $TMP/zero.dat: warning: 2 zero-filled ring-buffer pages skipped (CPU 0: 1, CPU 1: 1)" \
	"damaged data skipped: 0 short records, 0 records past their page, 2 zero-filled pages, 0 pages out of time order (0 records)" \
	"0|0|0|1|0|0||;1|0|0|1|0|0||" "$(skips "$TMP/zero.txt")"

# --- a record's length field cut below its event format (CPU 1, the last of page 10)
python3 "$RD" make "$V6" "$TMP/short.dat" short 1 10 > "$TMP/short.txt"
for mode in "" --libtracecmd; do
	damaged "a record too short for its format${mode:+ ($mode)}" "$TMP/short.dat" \
		"kma-analyze: $TMP/short.dat: warning: 1 records too short for their event format (CPU 1: 1), not analyzed" \
		"damaged data skipped: 1 short records, 0 records past their page, 0 zero-filled pages, 0 pages out of time order (0 records)" \
		"0|0|0|0|0|0||;1|1|0|0|0|0||" "$(skips "$TMP/short.txt")" $mode
done

# --- a record's length field made to run past its page (CPU 0, the last of page 12)
python3 "$RD" make "$V6" "$TMP/long.dat" long 0 12 > "$TMP/long.txt"
damaged "a record running past its page" "$TMP/long.dat" \
	"kma-analyze: $TMP/long.dat: warning: 1 records run past the end of their ring-buffer page (CPU 0: 1), not analyzed" \
	"damaged data skipped: 0 short records, 1 records past their page, 0 zero-filled pages, 0 pages out of time order (0 records)" \
	"0|0|1|0|0|0||;1|0|0|0|0|0||" "$(skips "$TMP/long.txt")"

# --- one page's timestamp moved: ahead by a second (in a block, the last page of the
# page reader's first block of 64, a CPU's first page) or back by one
time_case() {
	local cpu=$1 index=$2 delta=$3 f=$TMP/time-$1-$2.dat n off cpuoff recs v7 j
	python3 "$RD" make "$V6" "$f" time "$cpu" "$index" "$delta" > "$f.txt"
	n=$(skips "$f.txt")
	recs=${n##*:}
	off=$(page "$f.txt" "$cpu")
	cpuoff=$([ "$cpu" = 0 ] && echo "$OFF0" || echo "$OFF1")
	row0="0|0|0|0|0|0||" row1="1|0|0|0|0|0||"
	eval "row$cpu='$cpu|0|0|0|1|$recs|$off|0'"
	for j in 2 1; do
		damaged "CPU $cpu page $index's time moved by $delta ns (-j $j)" "$f" \
			"kma-analyze: $f: warning: 1 ring-buffer pages skipped, their time out of line with their CPU's ($recs records): CPU $cpu: 1 ($recs records), the first at offset $off; the rest of each CPU is read in its order" \
			"damaged data skipped: 0 short records, 0 records past their page, 0 zero-filled pages, 1 pages out of time order ($recs records)" \
			"$row0;$row1" "$n" -j $j
	done
	# the same pages compressed: read through chunks inflated ahead
	v7=${f%.dat}-v7.dat
	if trace-cmd convert --file-version 7 --compression zstd -i "$f" -o "$v7" > /dev/null 2>&1; then
		eval "row$cpu='$cpu|0|0|0|1|$recs|$((off - cpuoff))|1'"
		damaged "CPU $cpu page $index's time moved by $delta ns (v7 zstd)" "$v7" \
			"kma-analyze: $v7: warning: 1 ring-buffer pages skipped, their time out of line with their CPU's ($recs records): CPU $cpu: 1 ($recs records), the first at offset $((off - cpuoff)) of its inflated data; the rest of each CPU is read in its order" \
			"damaged data skipped: 0 short records, 0 records past their page, 0 zero-filled pages, 1 pages out of time order ($recs records)" \
			"$row0;$row1" "$n"
	else
		fail "CPU $cpu page $index (v7 zstd)" "trace-cmd convert failed"
	fi
}
time_case 0 20 1000000000
time_case 0 63 1000000000
time_case 0 59 1000000000
time_case 1 0 1000000000
time_case 1 30 -1000000000

# --- two CPUs' data overlapping: refused, naming both
refused_overlap() {
	local name=$1 file=$2 mode
	for mode in "" --libtracecmd --no-db; do
		run "$file" $mode
		# one line naming the file and both CPUs (the structure check that finds a
		# CPU's data running over the next one's speaks first)
		if [ $rc -eq 1 ] && [ ! -s "$TMP/out.txt" ] && [ "$(wc -l < "$TMP/err.txt")" = 1 ] &&
		   grep -Eq "^kma-analyze: $file: corrupt trace.dat: (the event data of CPU 0 and CPU 1 overlap|CPU 0's event data at [0-9]+ claims [0-9]+ bytes, running over CPU 1's at [0-9]+)\$" \
			"$TMP/err.txt" && [ ! -e "$TMP/r.db" ]; then
			pass "$name refused${mode:+ ($mode)}"
		else
			fail "$name refused${mode:+ ($mode)}" "exit $rc: $(head -3 "$TMP/err.txt")"
		fi
	done
}
python3 "$RD" make "$V6" "$TMP/overlap.dat" overlap > /dev/null
refused_overlap "v6: CPU 1's data starting inside CPU 0's" "$TMP/overlap.dat"
# v7: the BUFFER option (plain, in the last options section) given CPU 0's data for CPU 1
python3 - "$FIX/basic.dat" "$TMP/overlap7.dat" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
i = d.index(b'local\0', len(d) - 300) + 6 + 8	# clock, page size, cpus
c0, o0, s0 = struct.unpack_from('<IQQ', d, i)
assert c0 == 0 and struct.unpack_from('<I', d, i + 20)[0] == 1
struct.pack_into('<QQ', d, i + 24, o0, s0)
open(sys.argv[2], 'wb').write(d)
EOF
refused_overlap "v7: CPU 1 given CPU 0's data" "$TMP/overlap7.dat"
