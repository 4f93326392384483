# Names that are not clean UTF-8 (symbols, module, caches, tasks, markers, the file name):
# JSON and CSV stay valid UTF-8 with the documented mapping, the text report sends no
# control bytes to the terminal. The expectations come from Python's UTF-8 decoder over
# the raw bytes (tests/tools/kma-encoding.py), not from kma.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
if [ -x "$MKTRACE" ]; then
	mkdir -p "$TMP/enc"
	python3 "$TOP/tests/tools/kma-encoding.py" "$KMA" "$MKTRACE" "$TMP/enc" > "$TMP/enc.txt" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) pass "encoding: ${line#ok }" ;;
		"not ok "*) line=${line#not ok }; fail "encoding: ${line%%$'\t'*}" "${line#*$'\t'}" ;;
		esac
	done < "$TMP/enc.txt"
	if [ $rc != 0 ] || ! grep -q '^ok ' "$TMP/enc.txt"; then
		fail "encoding: kma-encoding.py ran" "exit $rc: $(tail -5 "$TMP/enc.txt")"
	fi
	# \xNN in a description carries any byte but NUL
	if printf '%s\n' "cpus 1" 'cmdline 1 a\x00b' | "$MKTRACE" -o "$TMP/bad.dat" - > "$TMP/bad.txt" 2>&1; then
		fail "encoding: mktrace rejects \\x00" "exit 0"
	else
		check "encoding: mktrace rejects \\x00" grep -q 'line 2: .*NUL' "$TMP/bad.txt"
	fi
fi
# a --generation argument not in the trace is refused, echoed escaped in the error
"$KMA" --no-db --generation "$(printf 'x\033[2Jy')" "$TOP/tests/fixtures/markers.dat" \
	> "$TMP/gen.txt" 2> "$TMP/gen.err"
check "encoding: --generation LABEL with ESC is printed as \\x1b in the error" sh -c "
	[ ! -s '$TMP/gen.txt' ] && grep -qF \"no generation 'x\\x1b[2Jy' in the trace\" '$TMP/gen.err' &&
	! LC_ALL=C grep -q \"\$(printf '\\033')\" '$TMP/gen.err'"
