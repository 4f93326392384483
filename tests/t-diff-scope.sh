# kma-diff's filters (--comm, --pid, --caller, --cache, --exclude-self), generations
# (--generation, --base-generation, --new-generation) and per-key gates (--key). Expected
# numbers are worked out by hand from tests/diff/scope-*.seq (see their comments), or
# computed from trace-cmd report by tests/tools/diff-scope-expect.py; never taken from
# kma's output. Gates exit 0/3, bad combinations 2, a report.db without allocation rows 1.
DIFF=$TOP/$B/analyzer/kma-diff
MKTRACE=$TOP/$B/tests/tools/mktrace
DSEQ=$TOP/tests/diff
FIX=$TOP/tests/fixtures
need_mktrace
"$MKTRACE" -o "$TMP/sb.dat" "$DSEQ/scope-base.seq" > /dev/null
"$MKTRACE" -o "$TMP/sn.dat" "$DSEQ/scope-new.seq" > /dev/null
# most checks read the report.db files, analyzed once (a trace.dat operand is analyzed
# at every run); trace.dat operands where they matter
KMA_A=$TOP/$B/analyzer/kma-analyze
"$KMA_A" -q -o "$TMP/sb.db" "$TMP/sb.dat"
"$KMA_A" -q -o "$TMP/sn.db" "$TMP/sn.dat"
for f in basic markers stacks; do
	"$KMA_A" -q -o "$TMP/$f.db" "$FIX/$f.dat"
done
SB=$TMP/sb.db
SN=$TMP/sn.db
HEAD=key,base_total,new_total,delta_total,base_slack,new_slack,delta_slack,base_net,new_net,delta_net,base_allocs,new_allocs,delta_allocs,base_frees,new_frees,delta_frees

# rows NAME ARGS... <<END: kma-diff -f csv ARGS prints the header, then the rows on stdin
rows() {
	local name=$1

	shift
	{ echo "$HEAD"; cat; } > "$TMP/want.csv"
	if "$DIFF" -f csv "$@" > "$TMP/got.csv" 2> "$TMP/err.txt" &&
	   diff "$TMP/want.csv" "$TMP/got.csv" > "$TMP/d.txt"; then
		pass "diff-scope: $name"
	else
		fail "diff-scope: $name" "$(cat "$TMP/err.txt" "$TMP/d.txt")"
	fi
}
# summary NAME "B N B N ..." ARGS...: the JSON summary's base and new total, slack,
# net, allocs, frees (and each delta new - base)
summary() {
	local name=$1 want=$2

	shift 2
	"$DIFF" -f json "$@" > "$TMP/s.json" 2> "$TMP/err.txt"
	check "diff-scope: $name: summary" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
w = [int(x) for x in sys.argv[2].split()]
for i, m in enumerate(("total", "slack", "net", "allocs", "frees")):
    b, n = w[2 * i], w[2 * i + 1]
    assert (s["base_" + m], s["new_" + m], s["delta_" + m]) == (b, n, n - b), (m, s)
' "$TMP/s.json" "$want"
}

# --comm tar (pids 100, 101): a1 a5 a6 -> b1 b5 b6 b6b; frees: theirs only (no kfree(NULL))
rows "--comm tar, per caller" --comm tar "$TMP/sb.dat" "$TMP/sn.dat" <<'END'
alloc_c+0x30,,1024,1024,,24,24,,1024,1024,,1,1,,0,0
alloc_a+0x10,640,640,0,40,40,0,0,512,512,2,2,0,2,1,-1
alloc_b+0x20,192,192,0,8,8,0,192,192,0,1,1,0,0,0,0
END
summary "--comm tar" "832 1856 48 72 192 1728 3 4 2 1" --comm tar "$SB" "$SN"
# --exclude-self: trace-cmd's ring buffer allocations (a3, b3, b3b) left out, per cache
rows "--exclude-self -g cache -s total" --exclude-self -g cache -s total "$SB" "$SN" <<'END'
kmalloc-1k,,1024,1024,,24,24,,1024,1024,,1,1,,0,0
dentry,192,192,0,0,0,0,192,192,0,1,1,0,0,0,0
filp,192,192,0,8,8,0,192,192,0,1,1,0,0,0,0
kmalloc-128,128,128,0,28,28,0,0,0,0,1,1,0,1,1,0
kmalloc-512,512,512,0,12,12,0,0,512,512,1,1,0,1,0,-1
kmalloc-64,64,64,0,4,4,0,64,0,-64,1,1,0,0,1,1
END
summary "--exclude-self" "1088 2112 52 76 448 1920 5 6 2 2" --exclude-self "$SB" "$SN"
# the recorder's own task alone
rows "--comm trace-cmd" --comm trace-cmd "$SB" "$SN" <<'END'
ring_buffer_alloc_read_page+0x58,32,64,32,2,4,2,32,64,32,1,2,1,0,0,0
END
# --generation by label and by number: generation 1 (a5 a6 a7 -> b5 b6 b6b b7), per function
for g in run 1; do
	rows "--generation $g -g function" --generation "$g" -g function "$TMP/sb.dat" \
		"$TMP/sn.dat" <<'END'
alloc_c,,1024,1024,,24,24,,1024,1024,,1,1,,0,0
alloc_a,512,512,0,12,12,0,0,512,512,1,1,0,1,0,-1
alloc_b,384,384,0,8,8,0,384,384,0,2,2,0,0,0,0
END
done
summary "--generation run" "896 1920 20 44 384 1920 3 4 1 0" --generation run "$SB" "$SN"
# generation 0 of BASE against generation 1 of NEW, bash only: a2 -> b7
rows "--base-generation 0 --new-generation run --comm bash" --base-generation 0 \
	--new-generation run --comm bash "$SB" "$SN" <<'END'
alloc_b+0x20,,192,192,,0,0,,192,192,,1,1,,0,0
alloc_a+0x10,64,,-64,4,,-4,64,,-64,1,,-1,0,,0
END
# one run's two generations: generation 0 (a1 a2 a3) against generation 1 (a5 a6 a7)
rows "one run, --base-generation 0 --new-generation 1 -g function" --base-generation 0 \
	--new-generation 1 -g function "$SB" "$SB" <<'END'
alloc_b,,384,384,,8,8,,384,384,,2,2,,0,0
alloc_a,192,512,320,32,12,-20,64,0,-64,2,1,-1,1,1,0
ring_buffer_alloc_read_page,32,,-32,2,,-2,32,,-32,1,,-1,0,,0
END
# kinds AND-ed, same kind OR-ed, exclusions win: alloc_a/alloc_b, not filp, pid 100 or 101
rows "--caller --cache ! --pid: kinds AND-ed" --caller '^alloc_[ab]' --cache '!filp' \
	--pid 100,101 "$SB" "$SN" <<'END'
alloc_a+0x10,640,640,0,40,40,0,0,512,512,2,2,0,2,1,-1
END
rows "--cache twice: OR-ed" --cache filp --cache 'kmalloc-1*' -s caller "$SB" "$SN" <<'END'
alloc_a+0x10,128,128,0,28,28,0,0,0,0,1,1,0,1,1,0
alloc_b+0x20,192,192,0,8,8,0,192,192,0,1,1,0,0,0,0
alloc_c+0x30,,1024,1024,,24,24,,1024,1024,,1,1,,0,0
END
# report.db operands filter the same; --rate divides by the generation's 5000 ns
"$DIFF" -f csv --comm tar --exclude-self -g cache "$TMP/sb.dat" "$TMP/sn.dat" > "$TMP/dat.csv"
"$DIFF" -f csv --comm tar --exclude-self -g cache "$SB" "$SN" > "$TMP/db.csv"
check "diff-scope: report.db operands filter as trace.dat ones" sh -c \
	"test -s '$TMP/dat.csv' && cmp '$TMP/dat.csv' '$TMP/db.csv'"
"$DIFF" -f json --rate --generation run "$SB" "$TMP/sn.dat" > "$TMP/r.json"
check "diff-scope: --rate --generation: per second of the generation (5000 ns)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["base"]["duration_ns"] == 5000 and d["new"]["duration_ns"] == 5000, d
assert d["base"]["generation"] == 1 and d["new"]["generation_label"] == "run", d
s = d["summary"]
assert abs(s["base_total"] - 896 / 5e-6) < 0.01 and abs(s["new_net"] - 1920 / 5e-6) < 0.01, s
' "$TMP/r.json"
"$DIFF" --comm tar --comm bash --exclude-self --generation run "$TMP/sb.dat" "$SN" > "$TMP/t.txt"
check "diff-scope: the text's head names the generation and the filter" sh -c "
	grep -qxF \"base: $TMP/sb.dat, generation 1 'run' (0.000005s)\" '$TMP/t.txt' &&
	grep -qxF \"filter: comm 'tar' or 'bash', not the recorder's own\" '$TMP/t.txt'"
"$DIFF" -f json "$SB" "$SN" > "$TMP/plain.json"
check "diff-scope: no filter, no generation: no such JSON members" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert "filter" not in d and "generation" not in d["base"] and "generation" not in d["new"], d
' "$TMP/plain.json"

# A filter keeping every allocation gives the unfiltered rows (the summary's frees
# differ: a null or unknown free belongs to no allocation)
"$DIFF" -f csv -g function "$TMP/basic.db" "$TMP/markers.db" > "$TMP/all.csv"
"$DIFF" -f csv -g function --comm '*' "$TMP/basic.db" "$TMP/markers.db" > "$TMP/star.csv"
check "diff-scope: --comm '*' per function: the unfiltered rows" sh -c \
	"test \$(wc -l < '$TMP/all.csv') -gt 10 && cmp '$TMP/all.csv' '$TMP/star.csv'"
for g in caller module cache stack; do
	new=$TMP/basic.db
	[ $g = stack ] && new=$TMP/stacks.db	# -g stack: stacks on both sides
	"$DIFF" -f csv -g $g "$TMP/stacks.db" "$new" > "$TMP/all-$g.csv"
	"$DIFF" -f csv -g $g --pid '!0' "$TMP/stacks.db" "$new" > "$TMP/star-$g.csv"
	check "diff-scope: --pid '!0' -g $g: the unfiltered rows" sh -c \
		"test \$(wc -l < '$TMP/all-$g.csv') -gt 1 && cmp '$TMP/all-$g.csv' '$TMP/star-$g.csv'"
done

# The fixtures against trace-cmd report: comm, pid, caller and generation filters
if command -v trace-cmd > /dev/null; then
	# expect_rows NAME BASE NEW OPTS...: fixtures BASE and NEW (basic, markers); kma-diff
	# reads their report.db files, the script the trace.dat files
	expect_rows() {
		local name=$1 base=$2 new=$3

		shift 3
		python3 "$TOP/tests/tools/diff-scope-expect.py" "$@" "$FIX/$base.dat" \
			"$FIX/$new.dat" > "$TMP/exp.txt" 2>&1 ||
			{ fail "diff-scope: $name (trace-cmd report)" "$(tail -3 "$TMP/exp.txt")"; return; }
		grep -v '^SUMMARY,' "$TMP/exp.txt" > "$TMP/exp-rows.txt"
		"$DIFF" -f csv "$@" "$TMP/$base.db" "$TMP/$new.db" | tail -n +2 |
			LC_ALL=C sort > "$TMP/got-rows.txt"
		"$DIFF" -f json "$@" "$TMP/$base.db" "$TMP/$new.db" | python3 -c '
import json, sys
s = json.load(sys.stdin)["summary"]
print(",".join(["SUMMARY"] + [str(s[p + m]) for m in ("total", "slack", "net", "allocs", "frees")
                              for p in ("base_", "new_", "delta_")]))' > "$TMP/got-sum.txt"
		check "diff-scope: $name, as trace-cmd report's events add up" sh -c "
			test -s '$TMP/exp-rows.txt' && diff '$TMP/exp-rows.txt' '$TMP/got-rows.txt' &&
			grep '^SUMMARY,' '$TMP/exp.txt' | diff - '$TMP/got-sum.txt'"
	}
	expect_rows "basic.dat -> markers.dat --comm rm" basic markers --comm rm
	expect_rows "basic.dat -> markers.dat --comm 'kworker*' --comm ls -g function" \
		basic markers --comm 'kworker*' --comm ls -g function
	expect_rows "markers.dat generation gen1 -> keep-done, --caller '^(__)?d_'" \
		markers markers --base-generation gen1 --new-generation keep-done --caller '^(__)?d_'
	expect_rows "markers.dat generation 3 -> 4 -g function" markers markers \
		--base-generation 3 --new-generation 4 -g function
	pid=$(trace-cmd report -i "$FIX/markers.dat" 2>/dev/null |
		awk '/ kmalloc: / { sub(/.*-/, "", $1); print $1; exit }')
	expect_rows "markers.dat --pid $pid, generation 2 of both" markers markers --pid "$pid" \
		--generation 2
else
	skip "diff-scope: the fixtures against trace-cmd report" "no trace-cmd"
fi

# Gates per key: the whole trace's net grows, alloc_b+0x20's does not (a5 a7 -> b5 b7)
gate() {
	local want=$1 st

	shift
	"$DIFF" -q "$@" > "$TMP/g-out.txt" 2> "$TMP/g-err.txt"
	st=$?
	if [ "$st" = "$want" ] && [ ! -s "$TMP/g-out.txt" ]; then
		pass "diff-scope $*: exit $want"
	else
		fail "diff-scope $*: exit $want" "exit $st: $(cat "$TMP/g-out.txt" "$TMP/g-err.txt")"
	fi
}
gate 3 --fail-if 'net>0' "$SB" "$SN"
gate 0 --fail-if 'net>0' --key alloc_b+0x20 "$SB" "$SN"
gate 3 --fail-if 'net>0' --key alloc_b+0x20 --key alloc_c+0x30 "$SB" "$SN"
check "diff-scope: the verdict names the key and its change" grep -qx \
	"kma-diff: --fail-if 'net>0' holds for alloc_c+0x30: net changed by +1024" "$TMP/g-err.txt"
check "diff-scope: only the key that holds is named" test "$(wc -l < "$TMP/g-err.txt")" = 1
# alloc_a (function): net 64 -> 512, +700%
gate 3 -g function --fail-if 'net>+699%' --key alloc_a "$SB" "$SN"
gate 0 -g function --fail-if 'net>+700%' --key alloc_a "$SB" "$SN"
gate 3 -g cache --fail-if 'allocs>0' --key kmalloc-32 "$SB" "$SN"
gate 0 -g cache --fail-if 'total>0' --key kmalloc-512 "$SB" "$SN"
# --comm tar: alloc_a+0x10 net 0 -> 512; frees 2 -> 1
gate 3 --comm tar --fail-if 'net>+511' --key alloc_a+0x10 "$SB" "$SN"
gate 0 --comm tar --fail-if 'net>+512' --fail-if 'frees<-1' --key alloc_a+0x10 "$SB" "$SN"
gate 3 --comm tar --fail-if 'frees<-0.5' --key alloc_a+0x10 "$SB" "$SN"
# the whole trace of the filter: tar's net 192 -> 1728
gate 0 --comm tar --fail-if 'net>+1536' "$SB" "$SN"
gate 3 --comm tar --fail-if 'net>+1535' "$SB" "$SN"
# generation 0 without the recorder: a1 a2 -> b1 b2, net 64 -> 0
gate 0 --generation 0 --exclude-self --fail-if 'net>0' "$SB" "$SN"
# with it: a1 a2 a3 -> b1 b2 b3 b3b, net 96 -> 64
gate 3 --generation 0 --fail-if 'net<-31' "$SB" "$SN"
gate 0 --generation 0 --fail-if 'net<-32' "$SB" "$SN"

# Errors: bad combinations are usage errors (2); a missing key, generation or allocation
# rows an error naming the file or the key (1)
err() {
	local name=$1 want=$2 text=$3 st

	shift 3
	"$DIFF" "$@" > "$TMP/e-out.txt" 2> "$TMP/e.txt"
	st=$?
	if [ "$st" = "$want" ] && grep -qF -- "$text" "$TMP/e.txt" && [ ! -s "$TMP/e-out.txt" ] &&
	   [ "$(wc -l < "$TMP/e.txt")" -le 2 ]; then
		pass "diff-scope error: $name (exit $want)"
	else
		fail "diff-scope error: $name (exit $want)" "exit $st: $(cat "$TMP/e.txt")"
	fi
}
err "--key without --fail-if" 2 "no --fail-if" --key alloc_a+0x10 "$SB" "$SN"
err "--generation with --base-generation" 2 "--base-generation" --generation 1 \
	--base-generation 0 "$SB" "$SN"
err "--new-generation then --generation" 2 "--new-generation" --new-generation 1 \
	--generation 0 "$SB" "$SN"
err "--generation twice" 2 "given twice" --generation 1 --generation 0 "$SB" "$SN"
err "--base-generation twice" 2 "--base-generation given twice" --base-generation 1 \
	--base-generation 0 "$SB" "$SN"
err "an empty --generation" 2 "--generation wants" --generation '' "$SB" "$SN"
err "a bad --pid" 2 "--pid wants" --pid 1x "$SB" "$SN"
err "a bad --caller regex" 2 "--caller '('" --caller '(' "$SB" "$SN"
err "a key in neither run" 1 "--key 'alloc_z'" -g function --fail-if 'net>0' --key alloc_z \
	"$SB" "$SN"
err "a key the filter leaves out" 1 "as filtered" --comm bash --fail-if 'net>0' \
	--key alloc_c+0x30 "$SB" "$SN"
err "a generation the run lacks" 1 "$SN: no generation '2' in the trace; it has: 0 start, 1 run" \
	--base-generation 1 --new-generation 2 "$SB" "$SN"
err "a label the run lacks (start is no marker)" 1 "no generation 'start'" --generation start \
	"$SB" "$SN"
cp "$SN" "$TMP/norows.db"
sqlite3 "$TMP/norows.db" 'DELETE FROM alloc_rows; VACUUM'
err "a filter on a report.db without allocation rows" 1 \
	"$TMP/norows.db: no allocation rows (alloc_rows is empty), so no filter" \
	--exclude-self "$SB" "$TMP/norows.db"
err "--generation on a report.db without allocation rows" 1 "so no --generation" \
	--generation 1 "$TMP/norows.db" "$SN"
"$DIFF" -f csv "$SB" "$TMP/norows.db" > "$TMP/nr.csv" 2> "$TMP/e.txt"
check "diff-scope: without a filter, a report.db without allocation rows compares" sh -c \
	"test $? = 0 && grep -q '^alloc_c+0x30,,1024,' '$TMP/nr.csv'"
