# Sourced by tests/t-verdicts.sh when $FX has the two real kma-record --repeat 5
# recordings (6.18; tests/fixtures/README.md says how they were made):
# exp-noleak.dat (a leak-free workload) and exp-leak.dat (the same, plus a process
# that keeps 20 more pipes and 20 more AF_UNIX sockets each iteration).
# The planted call sites come from trace-cmd report alone (tests/tools/kma-expect.py's
# live allocations per generation and call site, compared between the two recordings
# by tests/verdicts/planted.py); kma's verdicts are checked against them.
EXPECT=$TOP/tests/tools/kma-expect.py
memo "$TMP/x-leak.json" "kma-expect $EXPECT $FX/exp-leak.dat" python3 "$EXPECT" "$FX/exp-leak.dat" ||
	fail "real: kma-expect.py exp-leak.dat" "$(head -3 "$TMP/x-leak.json")"
memo "$TMP/x-noleak.json" "kma-expect $EXPECT $FX/exp-noleak.dat" python3 "$EXPECT" "$FX/exp-noleak.dat" ||
	fail "real: kma-expect.py exp-noleak.dat" "$(head -3 "$TMP/x-noleak.json")"
python3 "$TOP/tests/verdicts/planted.py" "$TMP/x-leak.json" "$TMP/x-noleak.json" > "$TMP/planted.txt"
cut -d' ' -f1 "$TMP/planted.txt" > "$TMP/planted-callers.txt"
check "real: trace-cmd report finds the planted call sites (20 pipes and sockets an iteration)" \
	grep -q '^alloc_pipe_info+' "$TMP/planted-callers.txt"

# exp-noleak: no "high" suspect by caller, by stack, or by page
for how in "" "-g stack" "--pages"; do
	# shellcheck disable=SC2086
	"$KMA" --leaks --no-db -f csv $how "$FX/exp-noleak.dat" > "$TMP/nl.csv" 2> "$TMP/err.txt"
	check "real: exp-noleak.dat --leaks $how: no high suspect" sh -c \
		"[ ! -s '$TMP/err.txt' ] && [ \$(python3 -c \"import csv, sys
print(sum(r['confidence'] == 'high' for r in csv.DictReader(open(sys.argv[1]))))\" '$TMP/nl.csv') = 0 ]"
done

# exp-leak: the high suspects by caller are all planted, every planted call site is a
# suspect, and the text lists the high ones first
"$KMA" --leaks --no-db -f csv "$FX/exp-leak.dat" > "$TMP/lk.csv"
python3 -c "import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r['caller'], r['class'], r['confidence'])" "$TMP/lk.csv" > "$TMP/lk.txt"
check "real: exp-leak.dat: the high suspects are planted call sites" sh -c \
	"awk '\$3 == \"high\" { print \$1 }' '$TMP/lk.txt' | sort > '$TMP/high.txt';
	 [ -s '$TMP/high.txt' ] && [ -z \"\$(comm -23 '$TMP/high.txt' '$TMP/planted-callers.txt')\" ]"
check "real: exp-leak.dat: the sockets' and the pipes' own call sites are high" sh -c \
	"grep -q '^sk_prot_alloc+' '$TMP/high.txt' && grep -q '^sock_alloc_inode+' '$TMP/high.txt' &&
	 grep -q '^alloc_pipe_info+' '$TMP/high.txt'"
check "real: exp-leak.dat: every planted call site is a suspect" sh -c \
	"while read -r c; do grep -qx \"\$c suspect [a-z]*\" '$TMP/lk.txt' || { echo \"\$c\"; exit 1; }; done < '$TMP/planted-callers.txt'"
"$KMA" --leaks --no-db "$FX/exp-leak.dat" > "$TMP/lk-text.txt"
check "real: exp-leak.dat --leaks text: the high ones first" test \
	"$(awk '$4 ~ /^(high|medium|low)$/ && $5 == "suspect" { print $4 }' "$TMP/lk-text.txt" |
	   sed -n "1,$(wc -l < "$TMP/high.txt")p" | sort -u)" = high
check "real: exp-leak.dat --leaks text: within 120 columns" \
	test "$(awk 'length > 120' "$TMP/lk-text.txt" | wc -l)" = 0
# by stack: every high stack goes through pipe2() or socket()
"$KMA" --leaks --no-db -f csv -g stack "$FX/exp-leak.dat" > "$TMP/lks.csv"
check "real: exp-leak.dat -g stack: the high stacks are pipe2() and socket() paths" \
	python3 -c "import csv, sys
high = [r['stack'] for r in csv.DictReader(open(sys.argv[1])) if r['confidence'] == 'high']
bad = [s for s in high if '__x64_sys_pipe2' not in s and '__x64_sys_socket' not in s]
sys.exit('none high' if not high else ('not planted: %s' % bad if bad else 0))" "$TMP/lks.csv"
