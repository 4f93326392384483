# Unit tests (cmocka) of the matcher and the hash map.
for u in test-match test-map test-table; do
	check "unit $u" "$TOP/$B/tests/unit/$u"
done
