# report.db's alloc_rows, written by the writer thread in chunks of rows through a virtual
# table (analyzer/store/kma-store-batch.c): every column of every row, NULLs included, and
# ids 1..N in order, checked against an independent pairing of `trace-cmd report -t`'s text
# (tests/tools/alloc-rows-check.py), on fixtures whose row counts cross the chunk (1024 rows)
# and batch (4096 rows) boundaries and end in a partial chunk.
FIX=$TOP/tests/fixtures
for f in basic exp-leak stacks; do
	cp "$FIX/$f.dat" "$TMP/$f.dat"
	if ! $KMA -q -o "$TMP/$f.db" "$TMP/$f.dat" > "$TMP/$f.out" 2>&1; then
		fail "store-batch: $f" "kma-analyze failed: $(head -3 "$TMP/$f.out")"
		continue
	fi
	check "store-batch: $f: alloc_rows row by row" \
		sh -c "trace-cmd report -t -i '$TMP/$f.dat' 2> /dev/null |
		       python3 '$TOP/tests/tools/alloc-rows-check.py' '$TMP/$f.db'"
done
