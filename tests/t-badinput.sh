# Bad input: exit 1, one clear line naming the file, and nothing written or lost.

# A report.db from an earlier run, which -o replaces only after a successful run.
"$KMA" -q -o "$TMP/keep.db" "$TOP/tests/fixtures/basic.dat" ||
	fail "bad input: setup" "kma-analyze cannot write keep.db"

# expect_error NAME FILE PATTERN: kma-analyze FILE fails cleanly
expect_error() {
	local name=$1 file=$2 pattern=$3 rc lines
	cp "$TMP/keep.db" "$TMP/report.db"
	( cd "$TMP" && "$KMA" -o report.db "$file" > out.txt 2> err.txt ); rc=$?
	lines=$(wc -l < "$TMP/err.txt")
	if [ $rc -ne 1 ]; then
		fail "bad input: $name" "exit status $rc, want 1: $(head -3 "$TMP/err.txt")"
	elif [ "$lines" -ne 1 ]; then
		fail "bad input: $name" "want one line on stderr, got $lines: $(head -5 "$TMP/err.txt")"
	elif ! grep -q -- "$file" "$TMP/err.txt" || ! grep -qi -- "$pattern" "$TMP/err.txt"; then
		fail "bad input: $name" "message does not name the file or say '$pattern': $(cat "$TMP/err.txt")"
	elif ! cmp -s "$TMP/keep.db" "$TMP/report.db"; then
		fail "bad input: $name" "the existing report.db was overwritten"
	elif ls "$TMP" | grep -q 'tmp-'; then
		fail "bad input: $name" "a temporary file was left behind: $(ls "$TMP")"
	elif [ -s "$TMP/out.txt" ]; then
		fail "bad input: $name" "printed a report anyway"
	else
		pass "bad input: $name"
	fi
}

FIX=$TOP/tests/fixtures
expect_error "missing file" "$TMP/nope.dat" "no such file"
: > "$TMP/empty.dat"
expect_error "empty file" "$TMP/empty.dat" "empty"
head -c 100000 /dev/urandom > "$TMP/random.dat"
expect_error "random bytes" "$TMP/random.dat" "neither a trace-cmd trace.dat nor a perf.data file"
printf 'this is\na text file\n' > "$TMP/text.dat"
expect_error "text file" "$TMP/text.dat" "neither a trace-cmd trace.dat nor a perf.data file"
expect_error "directory" "$TMP" "not a regular file"
if [ -f "$FIX/basic-v6.dat" ]; then
	for n in 12 200 5000 100000; do
		head -c $n "$FIX/basic-v6.dat" > "$TMP/trunc$n.dat"
		expect_error "truncated v6 at $n bytes" "$TMP/trunc$n.dat" "trunc\|corrupt"
	done
fi
if [ -f "$FIX/basic.dat" ]; then
	for n in 30 4000 60000; do
		head -c $n "$FIX/basic.dat" > "$TMP/trunc7-$n.dat"
		expect_error "truncated v7 at $n bytes" "$TMP/trunc7-$n.dat" "trunc\|corrupt"
	done
fi

# usage errors: exit 2
for args in "--sort bogus" "--limit x" "--limit -3" "--no-such-option" "a.dat b.dat"; do
	# shellcheck disable=SC2086
	"$KMA" $args > /dev/null 2> "$TMP/err.txt"; rc=$?
	if [ $rc -eq 2 ]; then pass "usage error: $args"; else fail "usage error: $args" "exit $rc"; fi
done
check "--help ends with EXAMPLES" sh -c "'$KMA' --help | grep -q '^EXAMPLES' && '$KMA' --help | tail -3 | grep -q kma-analyze"
check "--version" sh -c "'$KMA' --version | grep -q '^kma-analyze [0-9]'"

# A v7 file compressed with an algorithm kma cannot read: the header of basic.dat with its
# compression name changed from zstd to lz4 (the version one byte longer, so nothing moves).
# zlib is read (tests/t-compress.sh).
if [ -f "$FIX/basic.dat" ]; then
	python3 -c "
import sys
d = open('$FIX/basic.dat', 'rb').read()
i = d.index(b'zstd\0', 0, 64)
j = d.index(b'\0', i + 5)
open('$TMP/lz4.dat', 'wb').write(d[:i] + b'lz4\0' + d[i + 5:j] + b'0' + d[j:])"
	expect_error "compressed with lz4" "$TMP/lz4.dat" "compressed with 'lz4', which kma cannot read"
fi
