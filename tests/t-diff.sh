# kma-diff: two runs compared per key. Expected numbers are worked out by hand
# from tests/diff/*.seq (see their comments) or summed by awk from the two sides' own
# report.db rows (sqlite3), never taken from kma-diff's output; a run against itself, under
# another KASLR slide or written with another kernel's event layout diffs to zero, and a
# rebuilt kernel (moved offsets) to zero with -g function; --fail-if exits 0/3/2; errors
# exit 1 with the file named.
DIFF=$TOP/$B/analyzer/kma-diff
MKTRACE=$TOP/$B/tests/tools/mktrace
DSEQ=$TOP/tests/diff
FIX=$TOP/tests/fixtures
need_mktrace

# The runs: base and grown; base under another KASLR slide (every address of the
# functions 0x100000 higher, offsets kept), after a rebuild (other offsets), and in the
# 5.10 event layout, 32-bit, big-endian.
"$MKTRACE" -o "$TMP/base.dat" "$DSEQ/base.seq" > /dev/null
"$MKTRACE" -o "$TMP/grown.dat" "$DSEQ/grown.seq" > /dev/null
sed 's/^kallsyms ffffffff811/kallsyms ffffffff812/' "$DSEQ/base.seq" > "$TMP/kaslr.seq"
"$MKTRACE" -o "$TMP/kaslr.dat" "$TMP/kaslr.seq" > /dev/null
sed -e 's/alloc_a+0x10/alloc_a+0x14/' -e 's/alloc_b+0x20/alloc_b+0x34/' \
    -e 's/alloc_b+0x28/alloc_b+0x3c/' "$DSEQ/base.seq" > "$TMP/moved.seq"
"$MKTRACE" -o "$TMP/moved.dat" "$TMP/moved.seq" > /dev/null
"$MKTRACE" -g 5.10 -l 4 -E big -o "$TMP/base-510.dat" "$DSEQ/base.seq" > /dev/null

# diff_csv OUT ARGS...: kma-diff -f csv ARGS into OUT; its exit status
diff_csv() {
	local out=$1

	shift
	"$DIFF" -f csv "$@" > "$out" 2> "$TMP/diff-err.txt"
}

# zero_deltas CSV: every delta_ column of every row is 0, and there is at least one row
zero_deltas() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^delta_/) d[i] = 1; next }
		 { n++; for (i in d) if ($i != 0) { print "row " NR ": " $0; bad = 1 } }
		 END { if (!n) print "no rows"; exit bad || !n }' "$1"
}

# base vs grown, per caller: the deltas of the .seq comments, by |delta net| (ties by name)
cat > "$TMP/want-caller.csv" <<'EOF'
key,base_total,new_total,delta_total,base_slack,new_slack,delta_slack,base_net,new_net,delta_net,base_allocs,new_allocs,delta_allocs,base_frees,new_frees,delta_frees
alloc_a+0x10,192,704,512,32,44,12,64,576,512,2,3,1,1,1,0
alloc_b+0x20,192,192,0,8,8,0,0,192,192,1,1,0,1,0,-1
alloc_b+0x28,32,,-32,2,,-2,32,,-32,1,,-1,0,,0
alloc_c+0x30,,16,16,,6,6,,0,0,,1,1,,1,1
EOF
diff_csv "$TMP/caller.csv" "$TMP/base.dat" "$TMP/grown.dat"
check "diff: hand-worked per-caller deltas (base.seq -> grown.seq)" \
	diff "$TMP/want-caller.csv" "$TMP/caller.csv"
# per function: alloc_b's two call sites summed (224 10 32 2 1 -> 192 8 192 1 0)
cat > "$TMP/want-function.csv" <<'EOF'
alloc_a,192,704,512,32,44,12,64,576,512,2,3,1,1,1,0
alloc_b,224,192,-32,10,8,-2,32,192,160,2,1,-1,1,0,-1
alloc_c,,16,16,,6,6,,0,0,,1,1,,1,1
EOF
diff_csv "$TMP/function.csv" -g function "$TMP/base.dat" "$TMP/grown.dat"
check "diff: hand-worked per-function deltas" diff "$TMP/want-function.csv" \
	<(tail -n +2 "$TMP/function.csv")
# per cache (kmalloc size classes and filp), sorted by |delta total|
cat > "$TMP/want-cache.csv" <<'EOF'
kmalloc-512,,512,512,,12,12,,512,512,,1,1,,0,0
kmalloc-32,32,,-32,2,,-2,32,,-32,1,,-1,0,,0
kmalloc-16,,16,16,,6,6,,0,0,,1,1,,1,1
filp,192,192,0,8,8,0,0,192,192,1,1,0,1,0,-1
kmalloc-128,128,128,0,28,28,0,0,0,0,1,1,0,1,1,0
kmalloc-64,64,64,0,4,4,0,64,64,0,1,1,0,0,0,0
EOF
diff_csv "$TMP/cache.csv" -g cache -s total "$TMP/base.dat" "$TMP/grown.dat"
check "diff: hand-worked per-cache deltas, -s total" diff "$TMP/want-cache.csv" \
	<(tail -n +2 "$TMP/cache.csv")
diff_csv "$TMP/module.csv" -g module "$TMP/base.dat" "$TMP/grown.dat"
check "diff: -g module (vmlinux: 416 42 96 4 2 -> 912 58 768 5 2)" test \
	"$(tail -n +2 "$TMP/module.csv")" = "vmlinux,416,912,496,42,58,16,96,768,672,4,5,1,2,2,0"
diff_csv "$TMP/limit.csv" -n 2 -s caller "$TMP/base.dat" "$TMP/grown.dat"
check "diff: -s caller sorts by name, -n 2 keeps two rows" test \
	"$(cut -d, -f1 "$TMP/limit.csv" | tr '\n' ' ')" = "key alloc_a+0x10 alloc_b+0x20 "

# The summary (JSON): every free event counts (the kfree(NULL) of grown.seq), as in
# kma-analyze's summary; --rate divides by each trace's duration (999000 and 1999000 ns).
"$DIFF" -f json "$TMP/base.dat" "$TMP/grown.dat" > "$TMP/d.json"
check "diff: JSON summary of the whole traces" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
want = {"total": (416, 912), "slack": (42, 58), "net": (96, 768), "allocs": (4, 5), "frees": (2, 3)}
for m, (b, n) in want.items():
    assert (s["base_" + m], s["new_" + m], s["delta_" + m]) == (b, n, n - b), (m, s)
assert d["report"] == "diff" and d["key"] == "caller" and len(d["rows"]) == 4, d
assert d["rows"][3]["key"] == "alloc_c+0x30" and d["rows"][3]["base_total"] is None
assert d["base"]["duration_ns"] == 999000 and d["new"]["duration_ns"] == 1999000
' "$TMP/d.json"
"$DIFF" --rate -f json "$TMP/base.dat" "$TMP/grown.dat" > "$TMP/r.json"
check "diff: --rate, per second of each trace" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s, b, n = d["summary"], 0.000999, 0.001999
for m, (x, y) in {"total": (416, 912), "net": (96, 768), "allocs": (4, 5)}.items():
    assert abs(s["base_" + m] - x / b) < 0.01 and abs(s["new_" + m] - y / n) < 0.01, (m, s)
    assert abs(s["delta_" + m] - (y / n - x / b)) < 0.02, (m, s)
r = {row["key"]: row for row in d["rows"]}["alloc_a+0x10"]
assert abs(r["delta_total"] - (704 / n - 192 / b)) < 0.02, r
assert d["rate"] is True
' "$TMP/r.json"
"$DIFF" "$TMP/base.dat" "$TMP/grown.dat" > "$TMP/d.txt"
check "diff: text: signed deltas, new and gone keys, the counts" sh -c "
	grep -qx 'net       96  768   +672  +700.0%' '$TMP/d.txt' &&
	grep -q ' -32 .* alloc_b+0x28 (gone)\$' '$TMP/d.txt' &&
	grep -q '^ *- .* alloc_c+0x30 (new)\$' '$TMP/d.txt' &&
	grep -qx 'caller keys: 3 in base, 3 in new: 1 new, 1 gone, 2 changed, 0 unchanged' '$TMP/d.txt'"

# Zero: a run against itself, under another KASLR slide, in another kernel's layout (32-bit
# big-endian 5.10: addresses cut to 32 bits, names the same), and per function after a
# rebuild that moved every call site
diff_csv "$TMP/z1.csv" "$TMP/base.dat" "$TMP/base.dat"
check "diff: a trace against itself: all deltas 0" zero_deltas "$TMP/z1.csv"
diff_csv "$TMP/z2.csv" "$TMP/base.dat" "$TMP/kaslr.dat"
check "diff: another KASLR slide: callers match by name+offset, deltas 0" zero_deltas "$TMP/z2.csv"
diff_csv "$TMP/z3.csv" "$TMP/base.dat" "$TMP/base-510.dat"
check "diff: same sequence, 5.10 32-bit big-endian layout: deltas 0" zero_deltas "$TMP/z3.csv"
diff_csv "$TMP/z4.csv" -g function "$TMP/base.dat" "$TMP/moved.dat"
check "diff: rebuilt kernel (offsets moved): -g function deltas 0" zero_deltas "$TMP/z4.csv"
"$MKTRACE" -g 5.10 -l 4 -E big -o "$TMP/moved-510.dat" "$TMP/moved.seq" > /dev/null
diff_csv "$TMP/z6.csv" -g function "$TMP/base.dat" "$TMP/moved-510.dat"
check "diff: rebuilt kernel in the 5.10 32-bit big-endian layout: -g function deltas 0" \
	zero_deltas "$TMP/z6.csv"
diff_csv "$TMP/z5.csv" "$TMP/base.dat" "$TMP/moved.dat"
check "diff: rebuilt kernel: -g caller sees 3 gone and 3 new call sites" test \
	"$(awk -F, 'NR > 1 && $2 == "" { n++ } NR > 1 && $3 == "" { g++ } END { print n + 0, g + 0 }' \
		"$TMP/z5.csv")" = "3 3"
for g in caller function module cache; do
	diff_csv "$TMP/self-$g.csv" -g "$g" "$FIX/basic.dat" "$FIX/basic.dat"
	check "diff: basic.dat against itself, -g $g: deltas 0" zero_deltas "$TMP/self-$g.csv"
done
diff_csv "$TMP/self-stack.csv" -g stack "$FIX/stacks.dat" "$FIX/stacks.dat"
check "diff: stacks.dat against itself, -g stack: deltas 0" zero_deltas "$TMP/self-stack.csv"

# The fixtures: basic.dat -> markers.dat, per caller and per function, against a full
# outer join of the two report.db files' callers rows done by awk (functions summed by awk)
"$KMA" -q -o "$TMP/b.db" "$FIX/basic.dat"
"$KMA" -q -o "$TMP/m.db" "$FIX/markers.dat"
for g in caller function; do
	for side in b m; do
		sqlite3 -separator '|' "$TMP/$side.db" \
			"SELECT caller, symbol, total, slack, net, allocs, frees FROM callers WHERE allocs > 0" |
			awk -F'|' -v g=$g -v side=$side 'BEGIN { OFS = "|" }
				{ k = g == "function" && $2 != "" ? $2 : $1
				  for (i = 3; i <= 7; i++) v[k, i] += $i; keys[k] = 1 }
				END { for (k in keys) print side, k, v[k,3], v[k,4], v[k,5], v[k,6], v[k,7] }'
	done | awk -F'|' '
		{ k = $2; keys[k] = 1; for (i = 3; i <= 7; i++) x[$1, k, i] = $i; has[$1, k] = 1 }
		END { for (k in keys) { line = k
			for (i = 3; i <= 7; i++) {
				b = has["b", k] ? x["b", k, i] : ""; n = has["m", k] ? x["m", k, i] : ""
				line = line "," b "," n "," (n - b) }
			print line } }' | LC_ALL=C sort > "$TMP/want-fix-$g.csv"
	diff_csv "$TMP/fix-$g.csv" -g $g "$TMP/b.db" "$TMP/m.db"
	check "diff: basic.dat -> markers.dat -g $g: every row as awk joins report.db's" \
		diff "$TMP/want-fix-$g.csv" <(tail -n +2 "$TMP/fix-$g.csv" | LC_ALL=C sort)
	check "diff: basic.dat -> markers.dat -g $g: sorted by |delta net|, ties by name" sh -c "
		tail -n +2 '$TMP/fix-$g.csv' | awk -F, '{ d = \$10 < 0 ? -\$10 : \$10
			if (NR > 1 && (d > p || (d == p && \$1 < k))) { print \"out of order: \" \$0; exit 1 }
			p = d; k = \$1 }'"
done
# report.db and trace.dat operands give the same rows; a file of each kind in one run
diff_csv "$TMP/mixed.csv" "$TMP/b.db" "$FIX/markers.dat"
check "diff: a report.db against a trace.dat: the rows of two report.db files" \
	cmp "$TMP/mixed.csv" "$TMP/fix-caller.csv"

# No report.db left behind; -o keeps them (report.db files of the current schema)
mkdir -p "$TMP/tmpd"
TMPDIR=$TMP/tmpd "$DIFF" -q "$TMP/base.dat" "$TMP/grown.dat"
check "diff: no temporary report.db left behind" test -z "$(ls -A "$TMP/tmpd")"
"$DIFF" -q -o "$TMP/k1.db" -o "$TMP/k2.db" "$TMP/base.dat" "$TMP/grown.dat"
check "diff: -o twice keeps both runs' report.db" test \
	"$(sqlite3 "$TMP/k1.db" 'SELECT total FROM summary'),$(sqlite3 "$TMP/k2.db" 'SELECT total FROM summary')" = "416,912"
diff_csv "$TMP/kept.csv" "$TMP/k1.db" "$TMP/k2.db"
check "diff: the kept report.db files diff as their traces" cmp "$TMP/kept.csv" "$TMP/caller.csv"

# --fail-if on the whole-trace deltas (net 96 -> 768: +672, +700%; allocs 4 -> 5: +25%)
failif() {
	local want=$1 st

	shift
	"$DIFF" -q "$@" "$TMP/base.dat" "$TMP/grown.dat" > "$TMP/fi-out.txt" 2> "$TMP/fi-err.txt"
	st=$?
	if [ "$st" = "$want" ] && [ ! -s "$TMP/fi-out.txt" ]; then
		pass "diff $*: exit $want"
	else
		fail "diff $*: exit $want" "exit $st: $(cat "$TMP/fi-out.txt" "$TMP/fi-err.txt")"
	fi
}
failif 3 --fail-if 'net>+10%'
failif 0 --fail-if 'net>+1KiB'
failif 3 --fail-if 'net > +600'
failif 0 --fail-if 'net>+672'
failif 0 --fail-if 'allocs>+25%'
failif 3 --fail-if 'allocs>+24.9%'
failif 0 --fail-if 'total<-1%'
failif 3 --fail-if 'total<-1%' --fail-if 'frees>+0'
check "diff --fail-if: the verdict names the expression and the change" \
	grep -qx "kma-diff: --fail-if 'frees>+0' holds: frees changed by +1" "$TMP/fi-err.txt"
failif 2 --fail-if 'net>>1'
failif 2 --fail-if 'allocs>+1MiB'
failif 2 --fail-if 'leaks>1'
failif 2 --fail-if 'net>+1TiB'
"$DIFF" -q --fail-if 'net>+0' "$TMP/base.dat" "$TMP/kaslr.dat"
check "diff --fail-if: a run against its KASLR twin passes 'net>+0'" test $? = 0

# Errors: exit 1, one line naming the file; usage errors exit 2
errcase() {
	local name=$1 want=$2 file=$3 st

	shift 3
	"$DIFF" "$@" > /dev/null 2> "$TMP/e.txt"
	st=$?
	if [ "$st" = "$want" ] && grep -qF -- "$file" "$TMP/e.txt" &&
	   [ "$(wc -l < "$TMP/e.txt")" -le 2 ]; then
		pass "diff error: $name (exit $want, names $file)"
	else
		fail "diff error: $name (exit $want, names $file)" "exit $st: $(cat "$TMP/e.txt")"
	fi
}
echo "not a database" > "$TMP/plain.txt"
errcase "not an SQLite file" 1 "$TMP/plain.txt" "$TMP/plain.txt" "$TMP/b.db"
errcase "missing file" 1 "$TMP/none.db" "$TMP/b.db" "$TMP/none.db"
cp "$TMP/b.db" "$TMP/v3.db" && sqlite3 "$TMP/v3.db" 'PRAGMA user_version = 3'
errcase "another schema version" 1 "$TMP/v3.db" "$TMP/b.db" "$TMP/v3.db"
check "diff error: the version message says the versions read" grep -q "version 3, kma-diff reads versions 4 to 7" "$TMP/e.txt"
cp "$TMP/b.db" "$TMP/v8.db" && sqlite3 "$TMP/v8.db" 'PRAGMA user_version = 8'
errcase "a newer schema version" 1 "$TMP/v8.db" "$TMP/b.db" "$TMP/v8.db"
# version 4 (before the timeline and page tables) has every table kma-diff reads
cp "$TMP/b.db" "$TMP/v4.db" && sqlite3 "$TMP/v4.db" 'PRAGMA user_version = 4'
if "$DIFF" -f csv "$TMP/v4.db" "$TMP/b.db" > "$TMP/v4.csv" 2> "$TMP/e.txt"; then
	check "diff: a version 4 report.db against itself in version 7: every delta 0" \
		awk -F, 'NR > 1 { for (i = 1; i <= NF; i++) if (h[i] ~ /^delta_/ && $i != 0) exit 1 }
			 NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i } END { exit NR < 2 }' "$TMP/v4.csv"
else
	fail "diff: a version 4 report.db is read" "$(cat "$TMP/e.txt")"
fi
sqlite3 "$TMP/plain.db" 'CREATE TABLE t (x)'
errcase "an SQLite file not from kma" 1 "$TMP/plain.db" "$TMP/plain.db" "$TMP/b.db"
cp "$TMP/b.db" "$TMP/nokmem.db" && sqlite3 "$TMP/nokmem.db" 'UPDATE trace SET kmem_events = 0'
errcase "report.db without kmem events" 1 "$TMP/nokmem.db" "$TMP/b.db" "$TMP/nokmem.db"
printf 'cpus 1\nkallsyms ffffffff81000000 T _stext\nkallsyms ffffffff81400000 T _etext\nmarker 0 1000 1 kma: only\n' \
	> "$TMP/nokmem.seq"
"$MKTRACE" -o "$TMP/nokmem.dat" "$TMP/nokmem.seq" > /dev/null
"$DIFF" "$TMP/base.dat" "$TMP/nokmem.dat" > /dev/null 2> "$TMP/e.txt"
check "diff error: a trace without kmem events (exit 1, names the file)" sh -c \
	"test $? = 1 && grep -qF '$TMP/nokmem.dat' '$TMP/e.txt'"
errcase "-g stack without stacks" 1 "$TMP/b.db" -g stack "$TMP/b.db" "$FIX/stacks.dat"
# each reason of the report.db loader, word for word (kma-diff(1), EXIT STATUS)
errline() {	# errline NAME LINE kma-diff-args...: exit 1 and stderr exactly LINE
	local name=$1 line=$2

	shift 2
	"$DIFF" "$@" > /dev/null 2> "$TMP/e.txt"
	check "diff error text: $name" test "$?:$(cat "$TMP/e.txt")" = "1:kma-diff: $line"
}
errline "not an SQLite file" "$TMP/plain.txt: not an SQLite database (nor a trace.dat)" \
	"$TMP/plain.txt" "$TMP/b.db"
errline "not a regular file" "$TMP: not a regular file" "$TMP/b.db" "$TMP"
errline "an SQLite file not from kma" \
	"$TMP/plain.db: an SQLite database, but no kma report.db (no trace table)" \
	"$TMP/plain.db" "$TMP/b.db"
errline "a newer schema version" "$TMP/v8.db: report.db schema version 8, kma-diff reads \
versions 4 to 7 (analyze the trace again with this kma-analyze)" "$TMP/b.db" "$TMP/v8.db"
errline "no kmem events" "$TMP/nokmem.db: no kmem allocation or free events in the trace" \
	"$TMP/nokmem.db" "$TMP/b.db"
errline "-g stack without stacks" "$TMP/b.db: no call stacks (record with trace-cmd record -T \
or kma-record --stacks) for -g stack" -g stack "$TMP/b.db" "$TMP/b.db"
errcase "one operand" 2 "BASE and NEW" "$TMP/b.db"
errcase "three operands" 2 "BASE and NEW" "$TMP/b.db" "$TMP/b.db" "$TMP/b.db"
errcase "a grouping kma-diff lacks" 2 "pid" -g pid "$TMP/b.db" "$TMP/b.db"
errcase "a bad sort key" 2 "bogus" -s bogus "$TMP/b.db" "$TMP/b.db"
errcase "-o without a trace.dat operand" 2 "$TMP/x.db" -o "$TMP/x.db" "$TMP/b.db" "$TMP/b.db"
check "diff error: -o without a trace operand writes nothing" test ! -e "$TMP/x.db"
check "diff --help ends with EXAMPLES" sh -c "'$DIFF' --help | grep -q '^EXAMPLES\$' &&
	'$DIFF' --help | tail -1 | grep -q '^  kma-diff '"

# README's worked example is what kma-diff prints (run from the top of the tree)
awk '/^\$ build\/analyzer\/kma-diff -n 4 / { f = 1; next } f && /^```/ { exit } f' \
	"$TOP/README.md" > "$TMP/readme-want.txt"
(cd "$TOP" && "$DIFF" -n 4 tests/fixtures/basic.dat tests/fixtures/markers.dat) > "$TMP/readme-got.txt"
check "diff: README's worked example is kma-diff's output" sh -c \
	"test -s '$TMP/readme-want.txt' && diff '$TMP/readme-want.txt' '$TMP/readme-got.txt'"

# --rate needs a trace that lasts: one event lasts 0 s (exit 1, the file named)
printf 'cpus 1\nkallsyms ffffffff81000000 T _stext\nkallsyms ffffffff81100000 t alloc_a\nkallsyms ffffffff81400000 T _etext\nevent 0 1000 1 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100001000 bytes_req=8 bytes_alloc=8\n' \
	> "$TMP/one.seq"
"$MKTRACE" -o "$TMP/one.dat" "$TMP/one.seq" > /dev/null
errcase "--rate on a trace of 0 s" 1 "$TMP/one.dat" --rate "$TMP/base.dat" "$TMP/one.dat"
"$DIFF" "$TMP/base.dat" "$TMP/one.dat" > /dev/null 2>&1
check "diff: without --rate a trace of 0 s compares" test $? = 0
# JSON of folded stack names parses; its rows add up to the summary's total delta (stack
# rows cover every allocation)
"$DIFF" -g stack -f json "$FIX/stacks.dat" "$FIX/basic.dat" > "$TMP/stk.json" 2> "$TMP/stk.err"
check "diff -g stack: needs stacks on both sides (basic.dat has none)" grep -q basic.dat "$TMP/stk.err"
"$DIFF" -g stack -f json "$FIX/stacks.dat" "$FIX/stacks.dat" > "$TMP/stk.json"
check "diff -g stack -f json: valid JSON, rows sum to the summary's total" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["key"] == "stack" and len(d["rows"]) > 10, d["key"]
assert sum(r["base_total"] for r in d["rows"]) == d["summary"]["base_total"]
assert all(r["delta_net"] == 0 for r in d["rows"])
' "$TMP/stk.json"
