#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-doc-queries.sh [-v] [-r NAME,...] DB
#
# Runs every example query of docs/kma-report.db.5 against the report database
# DB, so that the manual cannot drift from the schema.  A query is the text
# between a `.\" query-begin NAME' line and a `.\" query-end' line inside an
# .EX/.EE display: one SQL statement ending with `;', written with roff escapes
# (\- \e \(aq ...) that are undone here.
#
# A query FAILs when sqlite3 reports an error, or when the block is malformed.
# A query whose NAME ends in `-check' must also print exactly one row whose
# first column is `ok'; the manual must contain one named consistency-check.
#
# -r NAME,... : those queries must also return at least one row on DB (a
# database whose data has such rows, e.g. a trace with call stacks for the
# stack queries); a name the manual does not have FAILs.
#
# Prints `PASS doc-query NAME' or `FAIL doc-query NAME: reason' per query, then
# `N passed, N failed'.  Exit status: 0 when all passed, 1 when any failed,
# 2 on bad usage.  -v also prints each query's output.
set -u

verbose=0
rows=
while [ $# -gt 1 ]; do
	case $1 in
	-v) verbose=1; shift ;;
	-r) rows=,$2,; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ]; then
	echo "usage: $0 [-v] [-r NAME,...] DB" >&2
	exit 2
fi
db=$1
doc=$(dirname "$0")/../docs/kma-report.db.5

if [ ! -f "$db" ] || [ ! -r "$db" ]; then
	echo "$0: $db: not a readable file" >&2
	exit 2
fi
if [ ! -r "$doc" ]; then
	echo "$0: $doc: not readable" >&2
	exit 2
fi
if ! command -v sqlite3 >/dev/null; then
	echo "$0: sqlite3 not found" >&2
	exit 2
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/index"

# Split the manual into $tmp/N.sql (unescaped SQL) and $tmp/index, whose lines
# are `N NAME' for a well-formed query or `N NAME ERROR reason' for a bad one.
awk -v dir="$tmp" '
function unesc(s,    out, i, c, name, j) {
	out = ""
	while ((i = index(s, "\\")) > 0) {
		out = out substr(s, 1, i - 1)
		c = substr(s, i + 1, 1)
		s = substr(s, i + 2)
		if (c == "e" || c == "\\") {
			out = out "\\"
		} else if (c == "-") {
			out = out "-"
		} else if (c == "&") {
			# zero-width: nothing
		} else if (c == "(" || c == "[") {
			if (c == "(") {
				name = substr(s, 1, 2)
				s = substr(s, 3)
			} else {
				j = index(s, "]")
				if (j == 0) {
					if (err == "")
						err = "unterminated \\[ escape"
					return out
				}
				name = substr(s, 1, j - 1)
				s = substr(s, j + 1)
			}
			if (name in glyph) {
				out = out glyph[name]
			} else {
				if (err == "")
					err = "unsupported escape \\" c name
				return out
			}
		} else if (c == "f") {
			# font change: drop \fX, \f(XX and \f[...]
			c = substr(s, 1, 1)
			if (c == "(")
				s = substr(s, 4)
			else if (c == "[" && (j = index(s, "]")) > 0)
				s = substr(s, j + 1)
			else
				s = substr(s, 2)
		} else {
			if (err == "")
				err = "unsupported escape \\" c
			return out
		}
	}
	return out s
}
function finish(    f) {
	f = dir "/" n ".sql"
	printf "%s", sql > f
	close(f)
	if (err == "" && sql !~ /;[ \t\n]*$/)
		err = "does not end with ;"
	if (err == "" && nstmt(sql) != 1)
		err = "holds more than one statement"
	if (err == "" && (name in seen))
		err = "duplicate name"
	seen[name] = 1
	print n, name, (err == "" ? "" : "ERROR " err) > (dir "/index")
	inq = 0
}
# Statements in s: semicolons outside quotes and comments, plus trailing text.
function nstmt(s,    i, c, q, k, rest) {
	k = 0; q = ""; rest = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q == "--") {
			if (c == "\n") q = ""
		} else if (q != "") {
			if (c == q) q = ""
		} else if (c == "'\''" || c == "\"" || c == "`") {
			q = c; rest = 1
		} else if (c == "-" && substr(s, i + 1, 1) == "-") {
			q = "--"
		} else if (c == ";") {
			k++; rest = 0
		} else if (c !~ /[ \t\n]/) {
			rest = 1
		}
	}
	return k + rest
}
BEGIN {
	glyph["aq"] = "'\''"; glyph["dq"] = "\""; glyph["ga"] = "`"
	glyph["ti"] = "~"; glyph["ha"] = "^"; glyph["rs"] = "\\"
	glyph["lq"] = "\""; glyph["rq"] = "\""; glyph["oq"] = "'\''"
	glyph["cq"] = "'\''"; glyph["em"] = "--"; glyph["en"] = "-"
	glyph["hy"] = "-"; glyph["mi"] = "-"
	n = 0; inq = 0; inex = 0
}
/^\.[ \t]*EX([ \t]|$)/ { inex = 1 }
/^\.[ \t]*EE([ \t]|$)/ {
	if (inq) { if (err == "") err = "no query-end before .EE"; finish() }
	inex = 0
}
/^\.\\" query-begin/ {
	if (inq) { if (err == "") err = "no query-end before the next query-begin"; finish() }
	n++; inq = 1; sql = ""; err = ""
	name = $3
	if (name == "" || NF > 3) {
		name = (name == "" ? "line" NR : name)
		err = "query-begin needs exactly one NAME"
	}
	if (!inex)
		err = "not inside .EX/.EE"
	next
}
/^\.\\" query-end/ {
	if (!inq) {
		n++; name = "line" NR; err = "query-end without query-begin"; sql = ""
		finish()
		next
	}
	finish()
	next
}
inq && /^[.'\''][ \t]*\\"/ { next }		# roff comment inside a query
inq && /^[.'\'']/ {
	if (err == "") err = "roff request inside the query: " $0
	next
}
inq {
	line = unesc($0)
	sql = sql line "\n"
}
END {
	if (inq) { if (err == "") err = "no query-end before end of file"; finish() }
}
' "$doc" || { echo "FAIL doc-query (extract): awk failed"; echo "0 passed, 1 failed"; exit 1; }

pass=0
fail=0
have_consistency=0

while read -r n name err; do
	if [ "$name" = "consistency-check" ]; then
		have_consistency=1
	fi
	if [ -n "$err" ]; then
		echo "FAIL doc-query $name: ${err#ERROR }"
		fail=$((fail + 1))
		continue
	fi
	out=$(sqlite3 -init /dev/null -batch -bail -readonly -noheader -list \
		"$db" <"$tmp/$n.sql" 2>"$tmp/err")
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
		reason=$(tr '\n' ' ' <"$tmp/err" | sed 's/  */ /g; s/ $//' | cut -c1-300)
		echo "FAIL doc-query $name: sqlite3 exit $rc: ${reason:-no message}"
		fail=$((fail + 1))
		continue
	fi
	if [ $verbose -eq 1 ]; then
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
	case $rows in
	*,"$name",*)
		rows=${rows/,$name,/,}
		if [ -z "$out" ]; then
			echo "FAIL doc-query $name: returned no row, expected some"
			fail=$((fail + 1))
			continue
		fi
		;;
	esac
	case $name in
	*-check)
		first=${out%%|*}
		if [ -z "$out" ]; then
			echo "FAIL doc-query $name: returned no row, expected ok"
			fail=$((fail + 1))
			continue
		fi
		if [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] || [ "$first" != "ok" ]; then
			echo "FAIL doc-query $name: expected ok, got: $(printf '%s' "$out" | tr '\n' ' ' | cut -c1-300)"
			fail=$((fail + 1))
			continue
		fi
		;;
	esac
	echo "PASS doc-query $name"
	pass=$((pass + 1))
done <"$tmp/index"

for name in $(printf '%s' "$rows" | tr ',' ' '); do
	echo "FAIL doc-query $name: not in $doc (-r)"
	fail=$((fail + 1))
done
if [ ! -s "$tmp/index" ]; then
	echo "FAIL doc-query (none): no query found in $doc"
	fail=$((fail + 1))
elif [ $have_consistency -eq 0 ]; then
	echo "FAIL doc-query consistency-check: missing from $doc"
	fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
