# Unit tests (cmocka) of the matcher, the hash map, the pairing rules, the table printer
# the call-stack layer, the leak verdicts, the live frame, kma-diff's core and output, the
# error shape every layer returns (lib/kma-err), and the order statistics and growth streak
# of lib/kma-stats, the huge-page tables of lib/kma-huge, and the reader's kallsyms lent to
# its caller's thread.
for u in test-match test-map test-pairs test-table test-stacks test-select test-top test-leak test-diff test-timeline test-pagealloc test-crosscpu test-quant test-counters test-err test-stats test-huge test-stackkey test-ksyms test-kinds test-fleet-select test-reader-kallsyms test-reader-hint test-tracedat-options test-perf-records; do
	check "unit $u" "$TOP/$B/tests/unit/$u"
done
