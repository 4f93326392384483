# Inputs the fuzz harness (tests/fuzz) crashed kma on: kma-analyze must exit 0 or 1
# (never a signal, never the sanitizers' 99) with at most one line on stderr besides
# warning lines ("kma-analyze: FILE: warning: ..."): a read file may warn of each kind
# of damage it has, one line each.
# tests/fuzz/known/ holds crashes not fixed yet (inside libtracecmd, on v7 files):
# reported as skipped while they still crash.

# fuzz_case NAME FILE KNOWN
fuzz_case() {
	local name=$1 file=$2 known=$3 rc lines why=
	{ ( cd "$TMP" && exec timeout 60 "$KMA" --no-db -q "$file" > out.txt 2> err.txt ); } 2> /dev/null; rc=$?
	lines=$(grep -cvF "kma-analyze: $file: warning: " "$TMP/err.txt")
	if [ $rc -gt 1 ]; then
		why="exit status $rc: $(grep -m1 -E 'ERROR|runtime error' "$TMP/err.txt")"
	elif [ "$lines" -gt 1 ]; then
		why="$lines lines on stderr: $(head -3 "$TMP/err.txt")"
	fi
	if [ -z "$why" ]; then
		pass "$name"
	elif [ "$known" = 1 ]; then
		skip "$name" "known crash, not fixed yet: $why"
	else
		fail "$name" "$why"
	fi
}

for f in "$TOP"/tests/fuzz/regress/*; do
	[ -f "$f" ] && fuzz_case "fuzz regression: $(basename "$f")" "$f" 0
done
for f in "$TOP"/tests/fuzz/known/*; do
	[ -f "$f" ] && fuzz_case "fuzz known crash: $(basename "$f")" "$f" 1
done
