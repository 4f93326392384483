# Behaviour is unchanged by refactoring: text, CSV and JSON of every report and a dump of
# report.db, on every fixture and generated sequence, are byte-identical to the expected
# files tests/golden/expect/*.out.gz, made by the code before the change to the layered layout
# (tests/golden/outputs.sh). The short sweep (sanitizer and fresh passes) runs every
# report on three inputs: a real fixture, one with markers and a generated sequence in
# both its renderings; the plain pass runs all of them.
# kma-test: long
GOLD=$TOP/tests/golden/expect
GMK=$TOP/$B/tests/tools/mktrace
# two inputs at a time: the machine has two cores
# inputs: the fixtures and sequences (a sequence gives two files: -5.10-32-be)
GOLDEN_IN=$( (cd "$GOLD" && ls -- *.out.gz) | sed 's/\.out\.gz$//; s/-5\.10-32-be$//' | sort -u)
if [ "$SWEEP" = short ]; then
	drop "golden: every input but basic.dat, markers.dat and gen-reuse" \
		"input sweep, run in the plain pass"
	GOLDEN_IN="basic.dat markers.dat gen-reuse"
fi
echo "$GOLDEN_IN" | tr ' ' '\n' |
	xargs -P 2 -n 4 bash "$TOP/tests/golden/outputs.sh" "$KMA" "$GMK" "$TMP/got" 2> "$TMP/gold-err.txt"
for g in "$GOLD"/*.out.gz; do
	n=$(basename "$g" .out.gz)
	case " $(echo $GOLDEN_IN) " in *" ${n%-5.10-32-be} "*) ;; *) continue ;; esac
	if [ ! -f "$TMP/got/$n.out" ]; then
		fail "golden: $n" "no output: $(tail -3 "$TMP/gold-err.txt")"
	elif ! zcat "$g" | cmp -s - "$TMP/got/$n.out"; then
		fail "golden: $n same text/CSV/JSON/report.db as before" \
			"$(zcat "$g" | diff -u - "$TMP/got/$n.out" | head -30)"
	else
		pass "golden: $n same text/CSV/JSON/report.db as before"
	fi
done
