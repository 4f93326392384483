# The man pages of the commands, docs/kma-analyze.1, kma-mark.1 and
# kma-record.1: they render without warnings, have the sections of a man
# page, document every option that the command's --help prints (with the
# same argument name), and the example command lines of kma-analyze.1 run
# on the fixtures.  A page may document more than --help (options being
# added elsewhere), never less.

# man_render PAGE: the page as man(1) shows it, as plain text (no bold,
# no underline, ASCII hyphens).
man_render() {
	groff -man -Tascii -P-cbu "$1" 2> /dev/null
}

# man_opt_lines: from stdin, the option lines of a usage text or a rendered
# page, one "OPTION ARG" line per option ("-" when it takes no argument).
# An option line starts with a little indentation (at most 8 blanks) and
# -x, or --long tokens, optionally followed by an ARG in capitals; a line
# whose first token is not exactly such a token (e.g. "--duration)." in a
# sentence) is not an option line.
man_opt_lines() {
	grep -E '^ {1,8}-' | awk '
	{
		n = 0; arg = "-"
		for (i = 1; i <= NF; i++) {
			t = $i
			if (t ~ /^(-[A-Za-z0-9]|--[A-Za-z0-9][-A-Za-z0-9]*),?$/) {
				sub(/,$/, "", t)
				opt[++n] = t
				continue
			}
			if (n > 0 && t ~ /^[A-Z][A-Z0-9_]*$/)
				arg = t
			break
		}
		for (i = 1; i <= n; i++)
			print opt[i], arg
	}' | sort -u
}

# man_page_opts PAGE: the options the page documents: the tags of its
# OPTIONS section (7 blanks in, as .TP renders them).
man_page_opts() {
	man_render "$1" | awk '/^OPTIONS$/ { f = 1; next } /^[A-Z][A-Z ]*$/ { f = 0 } f' |
		grep -E '^ {7}-' | man_opt_lines
}

# man_missing PAGE HELPFILE: the "OPTION ARG" pairs of --help that the page
# does not document; nothing when it documents all of them.
man_missing() {
	man_page_opts "$1" > "$TMP/page-opts.txt"
	man_opt_lines < "$2" | LC_ALL=C sort > "$TMP/help-opts.txt"
	LC_ALL=C sort "$TMP/page-opts.txt" | LC_ALL=C comm -23 "$TMP/help-opts.txt" -
}

# man_missing_sections PAGE: the sections a man page needs that PAGE lacks.
man_missing_sections() {
	local s

	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		man_render "$1" | grep -qx "$s" || printf ' [%s]' "$s"
	done
}

# man_check_page NAME PAGE HELPFILE MIN: warning-free, the sections, every
# --help option (MIN: at least that many found in --help, so that a broken
# parser cannot pass by finding none).
man_check_page() {
	local name=$1 page=$2 help=$3 min=$4 missing nhelp

	check "man $name: groff -ww renders it without warnings" sh -c \
		"groff -man -Tutf8 -ww -z '$page' 2>&1 | (! grep .)"
	missing=$(man_missing_sections "$page")
	if [ -z "$missing" ]; then
		pass "man $name: has the sections of a man page"
	else
		fail "man $name: has the sections of a man page" "missing:$missing"
	fi
	nhelp=$(man_opt_lines < "$help" | wc -l)
	missing=$(man_missing "$page" "$help" | tr '\n' ' ')
	if [ "$nhelp" -lt "$min" ]; then
		fail "man $name: documents every option of --help" \
			"found only $nhelp options in --help (want >= $min): $(man_opt_lines < "$help" | tr '\n' ' ')"
	elif [ -n "$missing" ]; then
		fail "man $name: documents every option of --help" "not in OPTIONS: $missing"
	else
		pass "man $name: documents every option of --help ($nhelp)"
	fi
}

"$KMA" --help > "$TMP/help-analyze.txt" 2>&1
"$TOP/$B/tools/kma-mark" --help > "$TMP/help-mark.txt" 2>&1
bash "$TOP/tools/kma-record" --help > "$TMP/help-record.txt" 2>&1

man_check_page kma-analyze "$TOP/docs/kma-analyze.1" "$TMP/help-analyze.txt" 30
man_check_page kma-mark "$TOP/docs/kma-mark.1" "$TMP/help-mark.txt" 6
man_check_page kma-record "$TOP/docs/kma-record.1" "$TMP/help-record.txt" 9

# Options that kma-analyze.1 documents ahead of --help (added in parallel).
man_page_opts "$TOP/docs/kma-analyze.1" > "$TMP/page-opts.txt"
check "man kma-analyze: documents --force and --buffer NAME" sh -c \
	"grep -qx -- '--force -' '$TMP/page-opts.txt' && grep -qx -- '--buffer NAME' '$TMP/page-opts.txt'"

# The check can fail: a page without one option, or with another argument
# name, is caught.
grep -v '^\.BI "\\-p, \\-\\-prefix " P$' "$TOP/docs/kma-mark.1" > "$TMP/no-prefix.1"
check "man check catches a missing option (-p, --prefix)" test \
	"$(man_missing "$TMP/no-prefix.1" "$TMP/help-mark.txt" | tr '\n' ' ')" = "--prefix P -p P "
grep -v '^\.B \\-\\-kmalloc\\-only$' "$TOP/docs/kma-analyze.1" > "$TMP/no-kmalloc-only.1"
check "man check catches a missing option (--kmalloc-only)" test \
	"$(man_missing "$TMP/no-kmalloc-only.1" "$TMP/help-analyze.txt" | tr '\n' ' ')" = "--kmalloc-only - "
sed 's/^\.BI "\\-\\-young " T$/.BI "\\-\\-young " D/' "$TOP/docs/kma-analyze.1" > "$TMP/young-d.1"
check "man check catches a wrong argument name (--young D)" test \
	"$(man_missing "$TMP/young-d.1" "$TMP/help-analyze.txt" | tr '\n' ' ')" = "--young T "
sed '/^\.SH "\{0,1\}EXIT STATUS/d' "$TOP/docs/kma-record.1" > "$TMP/no-exit.1"
check "man check catches a missing section (EXIT STATUS)" test \
	"$(man_missing_sections "$TMP/no-exit.1")" = " [EXIT STATUS]"

# Each page refers to the others, and kma-report.db(5) to all three.
for p in kma-analyze kma-mark kma-record; do
	missing=
	for q in kma-analyze kma-mark kma-record kma-report.db; do
		[ "$p" = "$q" ] && continue
		case $q in kma-report.db) sec=5 ;; *) sec=1 ;; esac
		man_render "$TOP/docs/$p.1" | awk '/^SEE ALSO$/ { f = 1; next } /^[A-Z]/ { f = 0 } f' |
			grep -q "$q($sec)" || missing="$missing $q($sec)"
	done
	if [ -z "$missing" ]; then
		pass "man $p: SEE ALSO names the other kma pages"
	else
		fail "man $p: SEE ALSO names the other kma pages" "missing:$missing"
	fi
done
missing=
for q in kma-analyze kma-mark kma-record; do
	man_render "$TOP/docs/kma-report.db.5" | awk '/^SEE ALSO$/ { f = 1; next } /^[A-Z]/ { f = 0 } f' |
		grep -q "$q(1)" || missing="$missing $q(1)"
done
if [ -z "$missing" ]; then
	pass "man kma-report.db: SEE ALSO names the command pages"
else
	fail "man kma-report.db: SEE ALSO names the command pages" "missing:$missing"
fi

# The examples of kma-analyze.1 marked example-begin/-end run as printed, in
# a directory that holds the fixtures, with kma-analyze the build's; one
# block is one script (later lines use earlier ones' files). A block that
# uses an option --help does not list yet is skipped, not failed.
mkdir -p "$TMP/ex/bin"
ln -s "$KMA" "$TMP/ex/bin/kma-analyze"
for f in "$TOP"/tests/fixtures/*.dat "$TOP"/tests/fixtures/*.data "$TOP"/tests/fixtures/*.xz; do
	ln -s "$f" "$TMP/ex/"
done
man_opt_lines < "$TMP/help-analyze.txt" | awk '{ print $1 }' > "$TMP/help-names.txt"
awk '/^\.\\" example-begin$/ { n++; f = 1; next } /^\.\\" example-end$/ { f = 0 }
     f { gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047"); gsub(/\\e/, "\\"); print > (dir "/block-" n ".sh") }' \
	dir="$TMP" "$TOP/docs/kma-analyze.1"
nblocks=0
for blk in "$TMP"/block-*.sh; do
	[ -e "$blk" ] || continue
	nblocks=$((nblocks + 1))
	first=$(head -1 "$blk")
	unknown=$(grep '^kma-analyze ' "$blk" | tr ' ' '\n' | grep -E '^--?[A-Za-z][-A-Za-z0-9]*$' |
		sort -u | while read -r o; do
			grep -qx -- "$o" "$TMP/help-names.txt" || printf '%s ' "$o"
		done)
	if [ -n "$unknown" ]; then
		skip "man kma-analyze example: $first" "kma-analyze --help has no ${unknown% } yet"
		continue
	fi
	if (cd "$TMP/ex" && PATH=$TMP/ex/bin:$PATH bash -e "$blk" > "$TMP/ex-out.txt" 2> "$TMP/ex-err.txt") &&
	   [ ! -s "$TMP/ex-err.txt" ]; then
		pass "man kma-analyze example: $first"
	else
		fail "man kma-analyze example: $first" "$(head -5 "$TMP/ex-err.txt")"
	fi
done
check "man kma-analyze: examples found" test "$nblocks" -ge 8

# kma-diff(1): the same checks, SEE ALSO naming the other kma pages (and
# kma-analyze.1 and kma-report.db.5 naming it), and its examples run on the fixtures.
if [ -x "$TOP/$B/analyzer/kma-diff" ]; then
	"$TOP/$B/analyzer/kma-diff" --help > "$TMP/help-diff.txt" 2>&1
	man_check_page kma-diff "$TOP/docs/kma-diff.1" "$TMP/help-diff.txt" 15
	missing=
	for q in kma-analyze kma-mark kma-record kma-report.db; do
		case $q in kma-report.db) sec=5 ;; *) sec=1 ;; esac
		man_render "$TOP/docs/kma-diff.1" | awk '/^SEE ALSO$/ { f = 1; next } /^[A-Z]/ { f = 0 } f' |
			grep -q "$q($sec)" || missing="$missing $q($sec)"
	done
	for p in kma-analyze.1 kma-report.db.5; do
		man_render "$TOP/docs/$p" | awk '/^SEE ALSO$/ { f = 1; next } /^[A-Z]/ { f = 0 } f' |
			grep -q "kma-diff(1)" || missing="$missing $p->kma-diff(1)"
	done
	if [ -z "$missing" ]; then
		pass "man kma-diff: SEE ALSO names the other kma pages and they name it"
	else
		fail "man kma-diff: SEE ALSO names the other kma pages and they name it" "missing:$missing"
	fi
	ln -s "$TOP/$B/analyzer/kma-diff" "$TMP/ex/bin/kma-diff"
	rm -f "$TMP"/dblock-*.sh
	awk '/^\.\\" example-begin$/ { n++; f = 1; next } /^\.\\" example-end$/ { f = 0 }
	     f { gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047"); gsub(/\\e/, "\\"); print > (dir "/dblock-" n ".sh") }' \
		dir="$TMP" "$TOP/docs/kma-diff.1"
	nblocks=0
	for blk in "$TMP"/dblock-*.sh; do
		[ -e "$blk" ] || continue
		nblocks=$((nblocks + 1))
		first=$(head -1 "$blk")
		if (cd "$TMP/ex" && PATH=$TMP/ex/bin:$PATH bash -e "$blk" > "$TMP/ex-out.txt" 2> "$TMP/ex-err.txt") &&
		   [ ! -s "$TMP/ex-err.txt" ]; then
			pass "man kma-diff example: $first"
		else
			fail "man kma-diff example: $first" "$(head -5 "$TMP/ex-err.txt")"
		fi
	done
	check "man kma-diff: examples found" test "$nblocks" -ge 5
else
	fail "man kma-diff" "no $B/analyzer/kma-diff"
fi
