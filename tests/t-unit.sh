# Unit tests (cmocka) of the matcher, the hash map, the pairing rules, the table printer
# and the call-stack layer.
for u in test-match test-map test-pairs test-table test-stacks test-select test-top test-leak; do
	check "unit $u" "$TOP/$B/tests/unit/$u"
done
