# FILE '-': kma-analyze reads the trace from standard input (perf record -o - | kma-analyze -),
# a pipe copied into an unnamed temporary file, a redirected file read in place. The
# figures through a pipe are checked against perf script's (perf-script-check.py, whose
# kma is a wrapper that pipes the file in) and against the same file named; errors name
# "standard input"; an interrupted copy leaves nothing behind.
FX=$TOP/tests/fixtures
P=$FX/perf-pipe.data
T=$FX/basic.dat

# The wrapper: the last argument is the file, piped in through cat.
W=$TMP/kma-via-stdin
cat > "$W" <<EOW
#!/bin/bash
f=\${@: -1}
cat "\$f" | "$KMA" "\${@:1:\$#-1}" -
EOW
chmod +x "$W"

if command -v perf > /dev/null && perf script -i "$P" -F event > /dev/null 2>&1; then
	mkdir -p "$TMP/c"
	check "stdin: a pipe-mode perf.data through a pipe = perf script's figures" \
		python3 "$TOP/tests/tools/perf-script-check.py" --kallsyms /dev/null "$W" "$P" "$TMP/c"
else
	skip "stdin: perf.data through a pipe against perf script" "no perf that reads the fixture"
fi

# the same figures as the file named, for a trace.dat and a perf.data, piped or redirected
for f in "$T" "$P" "$FX/perf-slab.data"; do
	b=$(basename "$f")
	"$KMA" --no-db -f csv --kallsyms /dev/null "$f" > "$TMP/named-$b.csv" 2>&1
	cat "$f" | "$KMA" --no-db -f csv --kallsyms /dev/null - > "$TMP/piped-$b.csv" 2>&1
	"$KMA" --no-db -f csv --kallsyms /dev/null - < "$f" > "$TMP/redir-$b.csv" 2>&1
	check "stdin: $b through a pipe = the file named" \
		cmp "$TMP/named-$b.csv" "$TMP/piped-$b.csv"
	check "stdin: $b redirected = the file named" cmp "$TMP/named-$b.csv" "$TMP/redir-$b.csv"
	check "stdin: $b has caller rows" test "$(wc -l < "$TMP/named-$b.csv")" -gt 3
done

# report.db from a pipe: the same allocations as the file's
"$KMA" -q -o "$TMP/named.db" "$T"
cat "$T" | "$KMA" -q -o "$TMP/piped.db" -
q='SELECT count(*), sum(bytes_req), sum(bytes_alloc) FROM allocations'
check "stdin: report.db from a pipe holds the file's allocations" \
	test "$(sqlite3 "$TMP/piped.db" "$q")" = "$(sqlite3 "$TMP/named.db" "$q")"
check "stdin: report.db from a pipe is not empty" \
	test "$(sqlite3 "$TMP/piped.db" 'SELECT count(*) FROM allocations')" -gt 100
check "stdin: --count through a pipe" \
	bash -c "cmp <(\"$KMA\" --count \"$T\") <(cat \"$T\" | \"$KMA\" --count -)"

# errors: one line naming standard input, exit 1
expect_err() {	# LABEL WANT-REGEX CMD...
	local label=$1 want=$2 rc
	shift 2
	"$@" > "$TMP/err.out" 2> "$TMP/err.txt"
	rc=$?
	check "stdin: $label: exit 1" test "$rc" -eq 1
	check "stdin: $label: one line naming standard input" \
		bash -c "test \$(wc -l < '$TMP/err.txt') -eq 1 && grep -Eq '$want' '$TMP/err.txt'"
}
expect_err "empty" '^kma-analyze: standard input: empty file' \
	bash -c ": | '$KMA' --no-db -"
expect_err "garbage" '^kma-analyze: standard input: .*bad magic' \
	bash -c "printf 'not a trace at all' | '$KMA' --no-db -"
expect_err "no temporary directory" \
	'^kma-analyze: standard input: cannot make a temporary file in /nonexistent' \
	bash -c "cat '$T' | TMPDIR=/nonexistent '$KMA' --no-db -"
expect_err "a terminal" '^kma-analyze: standard input: it is a terminal' \
	python3 -c '
import os, pty, subprocess, sys
m, s = pty.openpty()
sys.exit(subprocess.run([sys.argv[1], "--no-db", "-"], stdin=s).returncode)' "$KMA"

# interrupted while copying: exit by the signal, no temporary file, no report.db
mkdir -p "$TMP/spool" "$TMP/out"
# SIGINT at its default for kma: one this test inherits ignored (a make check started in
# the background of a script) kma keeps ignored, as it should (kma-signals.c).
( { cat "$T"; sleep 5; } |
	TMPDIR=$TMP/spool env --default-signal=INT "$KMA" -q -o "$TMP/out/r.db" - ) &
# The signal once kma holds its copy of the pipe (an unnamed file in the spool directory),
# up to 5 s, not after a fixed second that a slow start under the sanitizers can outlast.
for i in $(seq 50); do
	pid=$(pgrep -f "$KMA -q -o $TMP/out/r.db -" | head -1)
	[ -n "$pid" ] && ls -l "/proc/$pid/fd" 2> /dev/null | grep -q "$TMP/spool" && break
	sleep 0.1
done
pkill -INT -f "$KMA -q -o $TMP/out/r.db -"
wait $!
rc=$?
check "stdin: interrupted copy: killed by SIGINT (130)" test "$rc" -eq 130
check "stdin: interrupted copy: nothing left in TMPDIR or beside -o" \
	test -z "$(find "$TMP/spool" "$TMP/out" -mindepth 1)"
