# Honest hints: -g file without debug info says once on stderr
# which files were looked for and which package provides them; callers.file
# and callers.line are NULL, never '', when the source is unknown.
dat=$TOP/tests/fixtures/basic.dat
# the release as trace-cmd reads it from the trace: "Linux host RELEASE arch"
rel=$(trace-cmd report --uname -i "$dat" 2> /dev/null | awk '$1 == "Linux" { print $3; exit }')
if [ -z "$rel" ]; then
	fail "hints: release" "trace-cmd report --uname names no release"
elif [ -e "/usr/lib/debug/boot/vmlinux-$rel" ] || [ -e "/usr/lib/debug/lib/modules/$rel" ]; then
	skip "hints: -g file" "debug info for $rel is installed here"
else
	"$KMA" --no-db -g file -n 3 "$dat" > "$TMP/out.txt" 2> "$TMP/err.txt"
	check "hints: -g file still reports (exit 0)" test $? = 0
	check "hints: -g file: the hint is printed exactly once" \
		test "$(grep -c 'no debug info' "$TMP/err.txt")" = 1
	for want in "/usr/lib/debug/boot/vmlinux-$rel" "/usr/lib/debug/lib/modules/$rel/vmlinux" \
		    "linux-image-$rel-dbg" "--vmlinux"; do
		check "hints: the hint names $want" grep -qF -- "$want" "$TMP/err.txt"
	done
	"$KMA" --no-db -n 3 "$dat" > /dev/null 2> "$TMP/err2.txt"
	check "hints: no hint without -g file" test ! -s "$TMP/err2.txt"
	"$KMA" --no-db -g file --vmlinux /nonexistent/vmlinux "$dat" > /dev/null 2> "$TMP/err3.txt"
	check "hints: an explicit --vmlinux that is missing is an error (exit 1)" test $? = 1
	check "hints: ... with one line naming the file" \
		sh -c "test \$(wc -l < '$TMP/err3.txt') = 1 && grep -q /nonexistent/vmlinux '$TMP/err3.txt'"
fi

# callers.file: NULL (not '') without debug info; every caller of the trace has a row
"$KMA" -o "$TMP/r.db" "$dat" > /dev/null 2>&1
check "hints: callers.file is never ''" \
	test "$(sqlite3 "$TMP/r.db" "SELECT count(*) FROM callers WHERE file = '' OR line = ''")" = 0
check "hints: callers.file IS NULL when unknown (and line with it)" \
	test "$(sqlite3 "$TMP/r.db" "SELECT count(*) = sum(file IS NULL) AND count(*) = sum(line IS NULL) AND count(*) > 0 FROM callers")" = 1
