# Unit tests (cmocka) of the matcher, the hash map, the pairing rules and the table printer.
for u in test-match test-map test-pairs test-table; do
	check "unit $u" "$TOP/$B/tests/unit/$u"
done
