# kma-analyze --pages side by side with perf kmem --page stat on
# the same events: tests/fixtures/perf-kmem.data, recorded with perf kmem --page record
# (tests/fixtures/scripts/record-perf-kmem.sh), goes through perf script into a trace.dat
# (mktrace), and kma-analyze also reads perf-kmem.data itself; every figure of perf kmem
# --page stat's summary and its order x migrate type table must be kma's, both ways, and
# the two ways must give the same allocations (tests/tools/perf-kmem-check.py says how
# each maps).
MKTRACE=$TOP/$B/tests/tools/mktrace
PD=$TOP/tests/fixtures/perf-kmem.data
if [ ! -x "$MKTRACE" ]; then
	MKTRACE=$TMP/mktrace
	make -s -C "$TOP/tests/tools" O="$TMP" > "$TMP/build.txt" 2>&1 ||
		fail "perf kmem: mktrace build" "$(tail -5 "$TMP/build.txt")"
fi
if ! command -v perf > /dev/null || ! perf kmem --page -i "$PD" stat > /dev/null 2>&1; then
	skip "perf kmem: kma --pages = perf kmem --page stat" "no perf that reads $PD (package linux-perf)"
else
	check "perf kmem: kma --pages = perf kmem --page stat on perf-kmem.data" \
		python3 "$TOP/tests/tools/perf-kmem-check.py" "$PD" "$KMA" "$MKTRACE" "$TMP"
	# the check itself: a figure that differs must fail it (one free dropped)
	check "perf kmem: the comparison fails when kma's figures differ" sh -c \
		"! KMA_PERF_CHECK_DROP=1 python3 '$TOP/tests/tools/perf-kmem-check.py' '$PD' \
		  '$KMA' '$MKTRACE' '$TMP' > /dev/null"
fi
