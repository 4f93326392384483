# The leak-experiment fixtures (exp-noleak.dat, exp-leak.dat; tests/fixtures/README.md):
# every marker kma-record --repeat 5 writes is in them, in order, and every counter
# snapshot is complete, read by tests/tools/exp-markers.py from trace-cmd report.
FIX=$TOP/tests/fixtures
PARSE=$TOP/tests/tools/exp-markers.py
for f in exp-noleak exp-leak; do
	dat=$FIX/$f.dat
	[ -f "$dat" ] || { fail "fixture $f" "missing $dat"; continue; }
	if ! memo "$TMP/$f.prints" "trace-cmd-report-prints $dat" \
		sh -c "trace-cmd report -i '$dat' 2> /dev/null | grep ' print: '"; then
		fail "fixture $f: trace-cmd report" "no print events"
		continue
	fi
	check "fixture $f: 'kma:' markers iteration 1..5, reclaim, settle" test \
		"$(python3 "$PARSE" phases < "$TMP/$f.prints" | tr '\n' '|')" = \
		"kma: iteration 1|kma: iteration 2|kma: iteration 3|kma: iteration 4|kma: iteration 5|kma: reclaim|kma: settle|"
	# the start counters right before iteration 1, the end ones after settle
	check "fixture $f: counter markers at start and end" test \
		"$(python3 "$PARSE" order < "$TMP/$f.prints" | tr '\n' '|')" = \
		"kma-topology: cpu|kma-meminfo: start|kma-slabinfo: start|kma: iteration 1|kma: iteration 2|kma: iteration 3|kma: iteration 4|kma: iteration 5|kma: reclaim|kma: settle|kma-meminfo: end|kma-slabinfo: end|"
	python3 "$PARSE" check < "$TMP/$f.prints" > "$TMP/$f.check" 2>&1
	rc=$?
	check "fixture $f: slabinfo and meminfo snapshots complete, markers <= 1000 bytes" sh -c "
		test $rc = 0 && grep -qx 'kma-slabinfo start complete [0-9]*' '$TMP/$f.check' &&
		grep -qx 'kma-slabinfo end complete [0-9]*' '$TMP/$f.check' &&
		test \$(grep -c '^kma-meminfo .* complete' '$TMP/$f.check') = 2 &&
		! grep -q allocinfo '$TMP/$f.check'"
	# the same caches in both snapshots (none was created or destroyed), with
	# the five meminfo fields of this kernel
	check "fixture $f: start and end slabinfo name the same caches, sizes" cmp \
		<(python3 "$PARSE" slabinfo start < "$TMP/$f.prints" | cut -d' ' -f1,3) \
		<(python3 "$PARSE" slabinfo end < "$TMP/$f.prints" | cut -d' ' -f1,3)
	check "fixture $f: meminfo fields" test "$(python3 "$PARSE" meminfo end < "$TMP/$f.prints" |
		cut -d' ' -f1 | tr '\n' ' ')" = "Slab SReclaimable SUnreclaim Percpu VmallocUsed "
done
