# One report per run: the options that choose a report (--list, --leaks, --lifetimes,
# --peak, --generations, --leftovers, --advice, --counters, --cross-cpu) exclude each
# other, and the ones that shape a report (--outstanding, -f folded, --pages) refuse the
# reports they do not shape: a usage error (exit 2, nothing on stdout, one line naming
# both options), with --pages as without it. The pairs that used to pass silently (one
# report printed, the other option dropped) are each tried in both orders.
FIX=$TOP/tests/fixtures
D=$FIX/basic.dat
P=$FIX/pages.dat

# refused NAME OPT1 OPT2 [MORE...]: exit 2, empty stdout, one line naming OPT1 and OPT2
refused() {
	local name=$1 a=$2 b=$3 rc line
	shift 3
	# shellcheck disable=SC2086
	"$KMA" --no-db $a $b "$@" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	line=$(grep -v '^Try ' "$TMP/err.txt")
	if [ "$rc" != 2 ]; then
		fail "$name" "exit $rc, want 2: $(head -c 300 "$TMP/err.txt")"
	elif [ -s "$TMP/out.txt" ]; then
		fail "$name" "a report on stdout: $(head -3 "$TMP/out.txt")"
	elif [ "$(printf '%s\n' "$line" | wc -l)" != 1 ]; then
		fail "$name" "want one line: $(cat "$TMP/err.txt")"
	elif ! grep -qF -- "${a%% *}" <<< "$line" || ! grep -qF -- "${b%% *}" <<< "$line"; then
		fail "$name" "the line names not both '${a%% *}' and '${b%% *}': $line"
	else
		pass "$name"
	fi
}

# The reports kma-analyze printed one of, silently, given two (kma-analyze-print.c tried
# --list, --generations, --leaks, --lifetimes, --peak, --leftovers, --advice in turn)
REPORTS="--list --generations --leaks --lifetimes --peak --leftovers --advice"
for a in $REPORTS; do
	for b in $REPORTS; do
		[ "$a" = "$b" ] && continue
		refused "two reports: $a $b" "$a" "$b" "$D"
	done
done
# --outstanding shapes the callers table and --list; the other reports ignored it
for a in --generations --leaks --lifetimes --peak --leftovers --advice; do
	refused "--outstanding $a" --outstanding "$a" "$D"
	refused "$a --outstanding" "$a" --outstanding "$D"
done
# --counters and --cross-cpu were refused already: still, with both names
refused "--counters --cross-cpu" --counters --cross-cpu "$D"
refused "--leaks --counters" --leaks --counters "$D"
refused "--cross-cpu --peak" --cross-cpu --peak "$D"
refused "-f folded --leaks" "-f folded" --leaks "$D"
# --pages has its own leaks, peak, lifetimes and generations: the same rule there
refused "--pages --leaks --peak" --leaks --peak --pages "$P"
refused "--pages --lifetimes --generations" --lifetimes --generations --pages "$P"
refused "--pages --advice" --pages --advice "$P"
refused "--pages --list" --pages --list "$P"

# What goes together still does, and an option given twice is one report
run_ok() {	# NAME ARGS...: exit 0 and a report on stdout
	local name=$1
	shift
	if "$KMA" --no-db "$@" > "$TMP/out.txt" 2> "$TMP/err.txt" && [ -s "$TMP/out.txt" ]; then
		pass "$name"
	else
		fail "$name" "exit $?: $(head -c 300 "$TMP/err.txt")"
	fi
}
run_ok "--outstanding --list" --outstanding --list "$D"
run_ok "--outstanding -f folded" --outstanding -f folded "$D"
run_ok "--leaks --leaks" --leaks --leaks "$D"
run_ok "--pages --peak" --pages --peak "$P"
# the report given twice is the report given once, byte for byte
"$KMA" --no-db --peak "$D" > "$TMP/once.txt" 2>&1
"$KMA" --no-db --peak --peak "$D" > "$TMP/twice.txt" 2>&1
check "--peak --peak = --peak" cmp "$TMP/once.txt" "$TMP/twice.txt"
check "--peak prints the peak report" grep -q 'peak' "$TMP/once.txt"
