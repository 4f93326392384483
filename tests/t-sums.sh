# Byte counts at and past kma's limits (kma-analyze(1), LIMITS): one allocation is at most
# 2^56 bytes on a 64-bit kernel and below 2^32 on a 32-bit one (a page allocation: its
# pages times PAGE_SIZE), and a trace's allocations add up to at most 2^63 - 1. At the
# limits every sum must be exact and the same in text, CSV, JSON, report.db and kma-diff;
# past them kma refuses the trace with one line naming the file and the event. The
# expected numbers come from tests/tools/seq-sums.py, which works them out from the
# tests/sums/*.seq lines with Python's unbounded integers. On build/san any UBSan or ASan
# report fails the check it happens in (the runner makes it exit 99; the error text is
# looked for as well).
MKTRACE=$TOP/$B/tests/tools/mktrace
DIFF=$TOP/$B/analyzer/kma-diff
SEQ=$TOP/tests/sums
SUMS=$TOP/tests/tools/seq-sums.py
if [ ! -x "$MKTRACE" ]; then
	MKTRACE=$TMP/mktrace
	make -s -C "$TOP/tests/tools" O="$TMP" > "$TMP/build.txt" 2>&1 ||
		fail "sums: mktrace build" "$(tail -5 "$TMP/build.txt")"
fi

# kma_run WANT_RC CMD...: CMD's stdout in $TMP/out, stderr in $TMP/err; 0 when it exits
# WANT_RC and no sanitizer spoke, else 1 with $WHY set
kma_run() {
	local want=$1 rc
	shift
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	WHY=
	if grep -qE 'runtime error|Sanitizer' "$TMP/err"; then
		WHY="sanitizer: $(grep -m1 -E 'runtime error|Sanitizer' "$TMP/err")"
	elif [ "$rc" != "$want" ]; then
		WHY="exit $rc, want $want: $(head -3 "$TMP/err")"
	fi
	[ -z "$WHY" ]
}

# same NAME WANT GOT: GOT (a file) holds exactly WANT (a file)
same() {
	if diff -u "$2" "$3" > "$TMP/diff.txt"; then
		pass "sums: $1"
	else
		fail "sums: $1" "$(head -20 "$TMP/diff.txt")"
	fi
}

render() {	# render SEQ OUT [mktrace options]
	local seq=$1 out=$2
	shift 2
	"$MKTRACE" "$@" -o "$out" "$seq" > /dev/null 2> "$TMP/mk.txt" ||
		fail "sums: mktrace $(basename "$seq")" "$(cat "$TMP/mk.txt")"
}

# --- at the limits: the same exact sums in every output ----------------------------------
python3 "$SUMS" "$SEQ/edge.seq" > "$TMP/edge.exp"
python3 "$SUMS" "$SEQ/edge-new.seq" > "$TMP/edge-new.exp"
# the hand-worked numbers of edge.seq's comment, against the independent sums
check "sums: edge.seq adds up to 2^63 - 1 (seq-sums.py against the hand arithmetic)" \
	grep -qx 'summary 9223372036854775807 612 6917529027641081855 128 32 2 9223372036854775807' \
	"$TMP/edge.exp"

# one rendering of each byte order and event layout (the decoder reads them apart); the
# 32-bit word size is the checks of one.seq and page-one.seq below
variants=("6.18" "5.10 -E big")
if [ "$SWEEP" != full ]; then
	variants=("6.18")
	drop "sums: edge.seq as 5.10 big-endian" "the same decoder as in t-gen; plain pass runs it"
fi
for variant in "${variants[@]}"; do
	read -r -a mkopts <<< "-g $variant"	# not set --: this file is sourced
	v=$(echo "$variant" | tr ' ' '_')
	T=$TMP/edge-$v.dat
	render "$SEQ/edge.seq" "$T" "${mkopts[@]}"
	render "$SEQ/edge-new.seq" "$TMP/edge-new-$v.dat" "${mkopts[@]}"
	grep '^summary' "$TMP/edge.exp" | cut -d' ' -f2-7 > "$TMP/want.sum"
	grep '^caller' "$TMP/edge.exp" | cut -d' ' -f2-7 > "$TMP/want.callers"

	# text: the summary lines and the caller table
	if kma_run 0 "$KMA" -o "$TMP/edge-$v.db" "$T"; then
		awk -F': ' '/^total bytes/ { t = $2 } /^slack bytes/ { s = $2 }
			/^net bytes/ { n = $2 } /^number of allocs/ { a = $2 }
			/^number of frees/ { f = $2 } /^number of failed/ { x = $2 }
			END { print t, s, n, a, f, x }' "$TMP/out" > "$TMP/got"
		same "$v: text summary" "$TMP/want.sum" "$TMP/got"
		awk '/^Sorted by/ { on = 1; next } on && NF == 6 && $1 ~ /^[0-9]+$/ {
			split($5, af, "/"); print $6, $1, $2, $4, af[1], af[2] }' "$TMP/out" |
			sort > "$TMP/got"
		same "$v: text callers" "$TMP/want.callers" "$TMP/got"
	else
		fail "sums: $v: kma-analyze" "$WHY"
	fi
	# CSV
	if kma_run 0 "$KMA" --no-db -f csv "$T"; then
		awk -F, 'NR > 1 { print $1, $3, $4, $6, $7, $8 }' "$TMP/out" | sort > "$TMP/got"
		same "$v: CSV callers" "$TMP/want.callers" "$TMP/got"
	else
		fail "sums: $v: -f csv" "$WHY"
	fi
	# JSON, read by Python's json (integers of any size, exactly)
	if kma_run 0 "$KMA" --no-db -f json "$T"; then
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
print(s["total"], s["slack"], s["net"], s["allocs"], s["frees"], s["failed_allocs"])
for r in sorted(d["rows"], key=lambda r: r["caller"]):
    print(r["caller"], r["total"], r["slack"], r["net"], r["allocs"], r["frees"], file=sys.stderr)
' "$TMP/out" > "$TMP/got" 2> "$TMP/got.rows"
		same "$v: JSON summary" "$TMP/want.sum" "$TMP/got"
		same "$v: JSON callers" "$TMP/want.callers" "$TMP/got.rows"
	else
		fail "sums: $v: -f json" "$WHY"
	fi
	# report.db: integers (SQLite's are signed 64-bit), the same numbers
	DB=$TMP/edge-$v.db
	sqlite3 -separator ' ' "$DB" "SELECT total, slack, net, allocs, frees, failed_allocs
		FROM summary" > "$TMP/got"
	same "$v: report.db summary" "$TMP/want.sum" "$TMP/got"
	sqlite3 -separator ' ' "$DB" "SELECT caller, total, slack, net, allocs, frees FROM callers
		WHERE allocs > 0 ORDER BY caller" > "$TMP/got"
	same "$v: report.db callers" "$TMP/want.callers" "$TMP/got"
	check "sums: $v: report.db numbers are integers, none negative" test "$(sqlite3 "$DB" \
		"SELECT COUNT(*) FROM callers WHERE typeof(total) != 'integer' OR total < 0
		 OR typeof(net) != 'integer' OR net < 0 OR slack < 0")" = 0
done

# The other sums of the same trace (6.18 rendering): groupings, generations, peak
T=$TMP/edge-6.18.dat
DB=$TMP/edge-6.18.db
grep '^comm' "$TMP/edge.exp" | cut -d' ' -f2-7 > "$TMP/want"
if kma_run 0 "$KMA" --no-db -f csv -g comm "$T"; then
	awk -F, 'NR > 1 { print $1, $2, $3, $5, $6, $7 }' "$TMP/out" | sort > "$TMP/got"
	same "-g comm CSV" "$TMP/want" "$TMP/got"
else
	fail "sums: -g comm" "$WHY"
fi
sqlite3 -separator ' ' "$DB" "SELECT comm, total, slack, net, allocs, frees FROM task_stats
	ORDER BY comm" > "$TMP/got"
same "report.db task_stats" "$TMP/want" "$TMP/got"
grep '^summary' "$TMP/edge.exp" | awk '{ print "kmalloc-large", $2, $3, $4, $5, $6 }' > "$TMP/want"
if kma_run 0 "$KMA" --no-db -f csv -g cache "$T"; then
	awk -F, 'NR > 1 { print $1, $2, $3, $5, $6, $7 }' "$TMP/out" > "$TMP/got"
	same "-g cache CSV: one row of every allocation" "$TMP/want" "$TMP/got"
else
	fail "sums: -g cache" "$WHY"
fi
sqlite3 -separator ' ' "$DB" "SELECT cache, total, slack, net, allocs, frees FROM cache_stats" \
	> "$TMP/got"
same "report.db cache_stats" "$TMP/want" "$TMP/got"
grep '^gen' "$TMP/edge.exp" | cut -d' ' -f2- > "$TMP/want"
if kma_run 0 "$KMA" --no-db -f csv --generations "$T"; then
	awk -F, 'NR > 1 { print $1, $3, $4, $5, $6, $7 }' "$TMP/out" > "$TMP/got"
	same "--generations CSV" "$TMP/want" "$TMP/got"
else
	fail "sums: --generations" "$WHY"
fi
sqlite3 -separator ' ' "$DB" "SELECT generation, allocs, bytes, live, live_bytes, frees
	FROM generation_stats ORDER BY generation" > "$TMP/got"
same "report.db generation_stats" "$TMP/want" "$TMP/got"
grep '^summary' "$TMP/edge.exp" | awk '{ print $8 }' > "$TMP/want"
if kma_run 0 "$KMA" --no-db --peak "$T"; then
	sed -n 's/^peak live bytes: \([0-9]*\) .*/\1/p' "$TMP/out" > "$TMP/got"
	same "--peak: the peak is the whole 2^63 - 1" "$TMP/want" "$TMP/got"
else
	fail "sums: --peak" "$WHY"
fi
# every other report and output on the trace, for the sanitizers: no overflow anywhere
for opts in "--leaks" "--lifetimes" "--advice" "-g stack" "-g function" "-g module" \
	"-g pid" "-f folded" "--html $TMP/edge.html"; do
	# shellcheck disable=SC2086
	if kma_run 0 "$KMA" --no-db --force $opts "$T"; then
		pass "sums: kma-analyze $opts runs clean at the limits"
	else
		fail "sums: kma-analyze $opts" "$WHY"
	fi
done

# kma-diff: exact deltas (doubles would round past 2^53), against the two expectations
python3 - "$TMP/edge.exp" "$TMP/edge-new.exp" > "$TMP/want" 2> "$TMP/want.sum" << 'EOF'
import sys
def read(p):
    rows, summ = {}, None
    for l in open(p):
        w = l.split()
        if w[0] == 'caller':
            rows[w[1]] = [int(x) for x in w[2:7]]
        elif w[0] == 'summary':
            summ = [int(x) for x in w[1:6]]
    return rows, summ
(b, bs), (n, ns) = read(sys.argv[1]), read(sys.argv[2])
for k in sorted(set(b) | set(n)):
    cells = []
    for m in range(5):
        x = b[k][m] if k in b else None
        y = n[k][m] if k in n else None
        cells += ['' if x is None else str(x), '' if y is None else str(y), str((y or 0) - (x or 0))]
    print(','.join([k] + cells))
print(' '.join('%d %d %d' % (bs[m], ns[m], ns[m] - bs[m]) for m in range(5)), file=sys.stderr)
EOF
if kma_run 0 "$DIFF" -f csv "$TMP/edge-6.18.db" "$TMP/edge-new-6.18.dat"; then
	tail -n +2 "$TMP/out" | sort > "$TMP/got"
	same "kma-diff CSV rows (report.db against trace.dat)" "$TMP/want" "$TMP/got"
else
	fail "sums: kma-diff -f csv" "$WHY"
fi
if kma_run 0 "$DIFF" -f json "$TMP/edge-${v}.dat" "$TMP/edge-new-6.18.dat"; then
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(" ".join("%d %d %d" % (s["base_" + m], s["new_" + m], s["delta_" + m])
               for m in ("total", "slack", "net", "allocs", "frees")))
' "$TMP/out" > "$TMP/got"
	same "kma-diff JSON summary" "$TMP/want.sum" "$TMP/got"
else
	fail "sums: kma-diff -f json" "$WHY"
fi
if kma_run 0 "$DIFF" "$TMP/edge-6.18.db" "$TMP/edge-new-6.18.dat"; then
	read -r bt nt dt _ < "$TMP/want.sum"
	check "sums: kma-diff text: the total row exact" grep -qE \
		"^total +$bt +$nt +$dt " "$TMP/out"
else
	fail "sums: kma-diff text" "$WHY"
fi
if kma_run 3 "$DIFF" --fail-if 'total<-1GiB' "$TMP/edge-6.18.db" "$TMP/edge-new-6.18.dat"; then
	read -r _ _ dt _ < "$TMP/want.sum"
	check "sums: kma-diff --fail-if names the exact delta" grep -q "changed by $dt\$" "$TMP/err"
else
	fail "sums: kma-diff --fail-if" "$WHY"
fi
# a report.db with a negative number was not written by kma: refused, named
cp "$TMP/edge-6.18.db" "$TMP/neg.db"
sqlite3 "$TMP/neg.db" "UPDATE callers SET total = -512 WHERE caller = 'alloc_a+0x10'"
if kma_run 1 "$DIFF" "$TMP/neg.db" "$TMP/edge-6.18.db"; then
	check "sums: kma-diff refuses a negative number, naming the file" \
		grep -q "neg.db: a negative total" "$TMP/err"
else
	fail "sums: kma-diff on a negative total" "$WHY"
fi

# --- 32-bit: below 2^32 -------------------------------------------------------------------
sed 's/@REQ@/4294967295/; s/@ALLOC@/4294967295/' "$SEQ/one.seq" > "$TMP/one32.seq"
render "$TMP/one32.seq" "$TMP/one32.dat" -l 4
if kma_run 0 "$KMA" -o "$TMP/one32.db" "$TMP/one32.dat"; then
	check "sums: 32-bit: two allocations of 2^32 - 1 add up to 2^33 - 2" test \
		"$(sqlite3 "$TMP/one32.db" 'SELECT total, net FROM summary')" = "8589934590|4294967295"
else
	fail "sums: 32-bit at the limit" "$WHY"
fi

# --- past the limits: refused, one line naming the file and the event ---------------------
# refused NAME TRACE PATTERN [kma options]: exit 1, one line naming TRACE and PATTERN
# (the event's CPU, timestamp and value), no report.db left
refused() {
	local name=$1 t=$2 pattern=$3
	shift 3
	rm -f "$TMP/refused.db"
	if ! kma_run 1 "$KMA" "$@" -o "$TMP/refused.db" "$t"; then
		fail "sums: $name" "$WHY"
	elif [ "$(wc -l < "$TMP/err")" != 1 ] || ! grep -qF -- "$t: " "$TMP/err" ||
	     ! grep -qE -- "$pattern" "$TMP/err"; then
		fail "sums: $name" "want one line naming $t and '$pattern': $(cat "$TMP/err")"
	elif [ -e "$TMP/refused.db" ] || ls "$TMP" | grep -q 'refused.db.*tmp'; then
		fail "sums: $name" "a report.db or its temporary was left"
	else
		pass "sums: $name"
	fi
}
one() {	# one NAME REQ ALLOC [mktrace options]: a trace of one.seq with those sizes
	local name=$1
	sed "s/@REQ@/$2/; s/@ALLOC@/$3/" "$SEQ/one.seq" > "$TMP/$name.seq"
	shift 3
	render "$TMP/$name.seq" "$TMP/$name.dat" "$@"
}
one p56 72057594037927936 72057594037927937
refused "bytes_alloc 2^56 + 1 (64-bit)" "$TMP/p56.dat" \
	'cpu 0, ts 1000 ns: kmalloc bytes_alloc 72057594037927937 is more than .*\(2\^56 bytes\)'
one p63 9223372036854775552 9223372036854775552
refused "bytes_alloc 2^63 - 256, twice (the signed overflow of the timeline)" \
	"$TMP/p63.dat" 'cpu 0, ts 1000 ns: kmalloc bytes_alloc 9223372036854775552 '
one p63b 9223372036854775808 9223372036854775808
refused "bytes_alloc 2^63" "$TMP/p63b.dat" 'bytes_alloc 9223372036854775808 '
one p64 18446744073709551615 18446744073709551615
refused "bytes_alloc 2^64 - 1" "$TMP/p64.dat" 'bytes_alloc 18446744073709551615 '
one req 18446744073709551615 64
refused "bytes_req 2^64 - 1 of a successful allocation" "$TMP/req.dat" \
	'cpu 0, ts 1000 ns: kmalloc bytes_req 18446744073709551615 '
render "$SEQ/over.seq" "$TMP/over.dat"
refused "allocations adding up to 2^63" "$TMP/over.dat" \
	'cpu 0, ts 128000 ns: kmalloc bytes_alloc 72057594037927936, bytes_req 72057594037927936: the allocations .* past 2\^63 - 1'
refused "allocations adding up to 2^63, --no-db" "$TMP/over.dat" 'ts 128000 ns' --no-db
# the same with bytes_alloc 64: the bytes_req column of report.db would not sum
sed 's/bytes_alloc=72057594037927936/bytes_alloc=64/' "$SEQ/over.seq" > "$TMP/overreq.seq"
render "$TMP/overreq.seq" "$TMP/overreq.dat"
refused "bytes_req adding up to 2^63 (bytes_alloc 64 each)" "$TMP/overreq.dat" \
	'cpu 0, ts 128000 ns: kmalloc bytes_alloc 64, bytes_req 72057594037927936: the allocations'

# --- pages: pages times PAGE_SIZE -------------------------------------------------------
python3 "$SUMS" "$SEQ/pages.seq" --pages > "$TMP/pages.exp"
check "sums: pages.seq adds up to 2^63 - 4096 bytes (seq-sums.py against the hand arithmetic)" \
	grep -qx 'pages 2251799813685247 9223372036854771712 171 1759218604441600 100 492581209243647 2017612633061978112 17592186044416 1 2251799813685247' \
	"$TMP/pages.exp"
render "$SEQ/pages.seq" "$TMP/pages.dat"
read -r _ ap ab na fp nf lp lb up nfail peak < "$TMP/pages.exp"
if kma_run 0 "$KMA" --pages -o "$TMP/pages.db" "$TMP/pages.dat"; then
	check "sums: pages: text totals" grep -q \
		"allocated $ap pages ($ab bytes) in $na allocations, $nfail failed" "$TMP/out"
	check "sums: pages: text frees" grep -q "freed $fp pages .* in $nf frees, 0 of them implicit; 1 unknown frees ($up pages)" "$TMP/out"
	check "sums: pages: text live" grep -q "live at the end $lp pages ($lb bytes) .*; peak $peak pages" "$TMP/out"
else
	fail "sums: kma-analyze --pages" "$WHY"
fi
grep '^order' "$TMP/pages.exp" | cut -d' ' -f2- | sort > "$TMP/want"
if kma_run 0 "$KMA" --pages --no-db -f csv -g order "$TMP/pages.dat"; then
	awk -F, 'NR > 1 { print $1, $2, $3, $4, $8, $9 }' "$TMP/out" | sort > "$TMP/got"
	same "pages: CSV per order" "$TMP/want" "$TMP/got"
else
	fail "sums: --pages -f csv" "$WHY"
fi
if kma_run 0 "$KMA" --pages --no-db -f json -g order "$TMP/pages.dat"; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["pages_alloc"], d["pages_alloc"] * d["page_size"], d["allocs"], d["pages_freed"],
      d["frees"], d["pages_live"], d["pages_live"] * d["page_size"], d["unknown_pages"],
      d["failed"], d["peak_pages"])
for r in d["rows"]:
    print(r["order"], r["pages"], r["bytes"], r["allocs"], r["live_pages"], r["live_bytes"],
          file=sys.stderr)
' "$TMP/out" > "$TMP/got" 2> "$TMP/got.rows"
	cut -d' ' -f2- "$TMP/pages.exp" | head -1 > "$TMP/want.sum"
	same "pages: JSON totals" "$TMP/want.sum" "$TMP/got"
	sort "$TMP/got.rows" > "$TMP/got"
	same "pages: JSON per order" "$TMP/want" "$TMP/got"
else
	fail "sums: --pages -f json" "$WHY"
fi
sqlite3 -separator ' ' "$TMP/pages.db" "SELECT page_order, SUM(pages), SUM(bytes), SUM(allocs),
	SUM(live_pages), SUM(live_pages) * (SELECT page_size FROM page_trace)
	FROM page_stats GROUP BY page_order" | sort > "$TMP/got"
same "pages: report.db page_stats" "$TMP/want" "$TMP/got"
check "sums: pages: report.db unknown and peak pages" test "$(sqlite3 -separator ' ' \
	"$TMP/pages.db" 'SELECT unknown_pages, failed_allocs, peak_pages FROM page_trace')" = \
	"$up $nfail $peak"
for opts in "--generations" "--leaks" "--peak" "--lifetimes" "-g function" \
	"--html $TMP/pages.html"; do
	# shellcheck disable=SC2086
	if kma_run 0 "$KMA" --pages --no-db --force $opts "$TMP/pages.dat"; then
		pass "sums: kma-analyze --pages $opts runs clean at the limits"
	else
		fail "sums: kma-analyze --pages $opts" "$WHY"
	fi
done
render "$SEQ/pages-over.seq" "$TMP/pages-over.dat"
refused "page allocations adding up to 2^63 bytes" "$TMP/pages-over.dat" \
	'cpu 0, ts 128000 ns: mm_page_alloc order 44: the page allocations .* past 2\^63 - 1' --pages
# one allocation of order 45 (2^57 bytes), and on a 32-bit kernel of order 20 (2^32)
pageone() {	# pageone NAME ORDER [mktrace options]
	local name=$1
	sed "s/@ORDER@/$2/" "$SEQ/page-one.seq" > "$TMP/$name.seq"
	shift 2
	render "$TMP/$name.seq" "$TMP/$name.dat" "$@"
}
pageone o45 45
refused "a page allocation of order 45 (2^57 bytes, 64-bit)" "$TMP/o45.dat" \
	'cpu 0, ts 1000 ns: mm_page_alloc order 45: 2\^45 pages of 4096 bytes .* 64-bit .*2\^56' --pages
pageone o19 19 -l 4
if kma_run 0 "$KMA" --pages -o "$TMP/o19.db" "$TMP/o19.dat"; then
	check "sums: pages 32-bit: order 19 (2^31 bytes) twice" test "$(sqlite3 "$TMP/o19.db" \
		'SELECT SUM(pages), SUM(bytes) FROM page_stats')" = "1048576|4294967296"
else
	fail "sums: 32-bit order 19" "$WHY"
fi
pageone o20 20 -l 4
refused "a page allocation of order 20 on a 32-bit kernel (2^32 bytes)" "$TMP/o20.dat" \
	'mm_page_alloc order 20: .* 32-bit kernel can be \(2\^32 - 1 bytes\)' --pages

# --- lifetimes: their sum passes 2^64 ns, the mean must not wrap ---------------------------
render "$SEQ/lifetimes.seq" "$TMP/life.dat"
grep '^caller' <(python3 "$SUMS" "$SEQ/lifetimes.seq") | awk '{ print $2, $8 }' > "$TMP/want"
if kma_run 0 "$KMA" -o "$TMP/life.db" "$TMP/life.dat"; then
	sqlite3 -separator ' ' "$TMP/life.db" "SELECT caller, life_avg FROM callers" > "$TMP/got"
	same "lifetimes: the mean of 64 lifetimes of 2^58 ns" "$TMP/want" "$TMP/got"
else
	fail "sums: lifetimes" "$WHY"
fi
