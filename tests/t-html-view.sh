# --html: the page's view in its URL's hash, rendered by headless Chromium:
# the caller table ordered by every column both ways (ties by name, then address)
# and filtered by name, against an independent sort of `-f csv`
# (tests/html/view-expect.py); the icicle graph zoomed on a frame against a tree
# built from `-g stack -f csv`; bad hash values ignored without a script error;
# clicks, typing and a grouping change (dispatched by the page's test hook through
# the user's handlers) write the hash, and that hash renders the same view again.
# kma-test: long
HDOM=$TOP/tests/tools/html-dom.py
VEX=$TOP/tests/html/view-expect.py
CHROME=$CHROMIUM
dat=$TOP/tests/fixtures/stacks.dat
page=$TMP/view.html

# view N HASH: the page opened at HASH, as html-dom.py sees it, into $TMP/N.txt
view() {
	dump_dom "$page" "$2" > "$TMP/$1.dom" &&
		python3 "$HDOM" "$TMP/$1.dom" > "$TMP/$1.txt" ||
		{ fail "--html view $2: chromium" "$(tail -3 "$TMP/chr.err")"; return 1; }
}

# rows N: the rows of view N in the page's order, without the live column
rows() {
	awk -F'\t' '$1 == "row" { s = $1; for (i = 2; i < NF; i++) s = s "\t" $i; print s }' \
		"$TMP/$1.txt"
}

# same_rows NAME N GROUP SORT DIR FILTER [empty]: view N's rows = view-expect.py's
# (some rows, unless empty is said), the script ran without an error
same_rows() {
	python3 "$VEX" rows "$TMP/csv-$3" "$4" "$5" "$6" > "$TMP/want.txt"
	rows "$2" > "$TMP/got.txt"
	check "$1" sh -c 'diff "$1" "$2" && { [ -s "$1" ] || [ "$3" = empty ]; } &&
		grep -qx "marker ok" "$4" && grep -qx "errors 0" "$4"' sh \
		"$TMP/want.txt" "$TMP/got.txt" "${7:-}" "$TMP/$2.txt"
}

enc() {
	python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"
}

if [ -z "$CHROME" ]; then
	skip "--html views in Chromium" "no chromium (sh scripts/install-deps.sh installs it)"
# (the trace named as from its folder: the page is then the same in every copy of the
# tree, and Chromium's view of it is computed once: memo in tests/run.sh)
elif ! (cd "$(dirname "$dat")" && "$KMA" --no-db -q --html "$page" "$(basename "$dat")") \
	2> "$TMP/err.txt"; then
	skip "--html views in Chromium" "no Chart.js: $(cat "$TMP/err.txt")"
else
	for g in caller function comm stack; do
		"$KMA" --no-db -f csv -g "$g" "$dat" > "$TMP/csv-$g"
	done
	# the fixture has ties where the order is checked, so the tie rule is tested
	check "stacks.dat: ties in total, slack and frees of the callers" python3 -c '
import csv, sys
r = list(csv.reader(open(sys.argv[1])))[1:]
for c in (2, 3, 6):
    v = [x[c] for x in r]
    assert len(set(v)) < len(v), c' "$TMP/csv-caller"

	# sorting: every column of the caller grouping, both ways
	for c in name address total slack slack_pct net allocs frees implicit_frees live; do
		for d in asc desc; do
			view s "#sort=$c&dir=$d" &&
				same_rows "--html #sort=$c&dir=$d: rows = sorted -f csv" s caller $c $d ""
		done
	done
	for spec in "function name desc" "function net asc" "function live desc" \
		    "comm allocs desc" "comm name asc"; do
		read -r g c d <<< "$spec"
		view s "#group=$g&sort=$c&dir=$d" &&
			same_rows "--html #group=$g&sort=$c&dir=$d: rows = sorted -f csv" s $g $c $d ""
	done
	# defaults: total down; a column without dir: numbers down, names up
	view s "" && same_rows "--html no hash: rows by total, descending" s caller total desc ""
	check "--html no hash: total sorted descending, nothing written" sh -c \
		'grep -qx "sorted total descending" "$1" && grep -qx "state " "$1" &&
		 ! grep -q "^hash" "$1"' sh "$TMP/s.txt"
	view s "#sort=name" && same_rows "--html #sort=name: names ascending" s caller name asc ""
	view s "#sort=frees" && same_rows "--html #sort=frees: descending" s caller frees desc ""

	# the name filter: substring, case ignored, %-escapes decoded; no match: one line
	view f "#filter=ALLOC" && same_rows "--html #filter=ALLOC: names containing alloc" \
		f caller total desc alloc
	check "--html #filter=ALLOC: the count says N of M" sh -c \
		'grep -qx "count $(grep -c "^row" "$1") of $(($(wc -l < "$2") - 1)) rows" "$1"' \
		sh "$TMP/f.txt" "$TMP/csv-caller"
	view f "#group=function&filter=$(enc '.part.')&sort=name" &&
		same_rows "--html #group=function&filter=.part.: filtered, by name" \
		f function name asc .part.
	view f "#filter=$(enc '+0x1')&sort=net&dir=asc" &&
		same_rows "--html #filter=%2B0x1 (a + in the name)" f caller net asc +0x1
	view f "#filter=no-such-name" && same_rows "--html #filter=no-such-name: no row" \
		f caller total desc no-such-name empty
	check "--html #filter=no-such-name: the empty-state line, 0 rows counted" sh -c \
		'grep -qx "empty No caller name contains \"no-such-name\" (the filter ignores case)." "$1" &&
		 grep -qx "count 0 of [0-9]* rows" "$1"' sh "$TMP/f.txt"
	check "--html rows shown: no empty-state line" sh -c '! grep -q "^empty" "$1"' \
		sh "$TMP/s.txt"

	# the flame zoom: ancestors and the frame full width, only its descendants
	z="asm_exc_page_fault;exc_page_fault;handle_mm_fault"
	view z "#zoom=$(enc "$z")" &&
		check "--html #zoom=$z: the zoomed icicle = -g stack -f csv" \
		python3 "$VEX" flame "$TMP/csv-stack" total "$z" "$TMP/z.txt"
	check "--html #zoom: 3 ancestors above it, no frame outside it" python3 -c '
import sys
z = sys.argv[1]
f = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.startswith("fpos")]
anc = [x[5] for x in f if x[4] == "1"]
assert anc == ["", "asm_exc_page_fault", "asm_exc_page_fault;exc_page_fault"], anc
assert all(x[5] == z or x[5].startswith(z + ";") for x in f if x[4] == "0")
assert [x[1:4] for x in f if x[5] == z] == [["0", "100", "54"]]
assert len(f) > 8' "$z" "$TMP/z.txt"
	z="entry_SYSCALL_64_after_hwframe;do_syscall_64"
	view z "#zoom=$(enc "$z")&weight=net" &&
		check "--html #zoom=$z&weight=net: = -g stack -f csv's net" \
		python3 "$VEX" flame "$TMP/csv-stack" net "$z" "$TMP/z.txt"
	view z "#weight=allocs" && check "--html #weight=allocs: unzoomed, by allocations" \
		python3 "$VEX" flame "$TMP/csv-stack" allocs "" "$TMP/z.txt"

	# bad values: ignored, the default view, no script error
	view s "#sort=total" && rows s > "$TMP/default.txt"
	for h in "#group=constructor&sort=__proto__&dir=up&weight=toString" \
		 "#zoom=no;such;frame&filter=%E0%A4%A&&=x&bogus=1&group" \
		 "#group=nosuch&sort=nosuch&dir=&zoom=" "#%%%&==&group=function&sort=address"; do
		view b "$h" && rows b > "$TMP/got.txt"
		want=$TMP/default.txt
		case $h in *group=function*)
			python3 "$VEX" rows "$TMP/csv-function" total desc "" > "$TMP/want.txt"
			want=$TMP/want.txt ;;
		esac
		check "--html bad hash $h: ignored, no script error" sh -c \
			'grep -qx "marker ok" "$1" && grep -qx "errors 0" "$1" && diff "$2" "$3" &&
			 python3 "$4" flame "$5" total "" "$1"' \
			sh "$TMP/b.txt" "$want" "$TMP/got.txt" "$VEX" "$TMP/csv-stack"
	done

	# clicks through the page's own handlers write the hash; that hash shows the same
	# rows and frames
	z="asm_exc_page_fault;exc_page_fault"
	for spec in "th:net|#sort=net&dir=desc" "th:net,th:net|#sort=net&dir=asc" \
		    "th:name|#sort=name&dir=asc" "th:name,th:allocs|#sort=allocs&dir=desc" \
		    "frame:asm_exc_page_fault|#zoom=asm_exc_page_fault" \
		    "frame:$z,frame:$z|#zoom=asm_exc_page_fault" \
		    "frame:$z,frame:|" \
		    "frame:$z;handle_mm_fault,frame:asm_exc_page_fault|#zoom=asm_exc_page_fault"; do
		clicks=${spec%%|*} want=${spec#*|}
		view c "#test-click=$(enc "$clicks")" || continue
		check "--html clicks $clicks: the hash says $want" \
			grep -qxF "hash $(echo "$want" | sed 's/;/%3B/g')" "$TMP/c.txt"
		view r "$(grep '^hash ' "$TMP/c.txt" | cut -c6-)"
		check "--html clicks $clicks: the written hash shows the same view" sh -c \
			'grep -E "^(row|fpos|sorted)" "$1" > "$1.v" && grep -E "^(row|fpos|sorted)" "$2" |
			 diff "$1.v" - && grep -qx "errors 0" "$1" && grep -qx "errors 0" "$2"' \
			sh "$TMP/c.txt" "$TMP/r.txt"
	done
	view c "#test-click=th:net,th:net" && same_rows "--html two clicks on net: ascending" \
		c caller net asc ""
	view c "#test-group=function&test-filter=Alloc" &&
		same_rows "--html grouping chosen, filter typed: rows" c function total desc alloc
	check "--html grouping chosen, filter typed: the hash" \
		grep -qx "hash #group=function&filter=Alloc" "$TMP/c.txt"
fi

# dump_dom reads pages through tests/tools/chrome-dom.py, one Chromium for the whole
# file: what it gives must stay byte for byte what `chromium --dump-dom` prints (a view
# after clicks and typing, the page's longest script path)
if [ -n "$CHROME" ] && [ -f "$page" ]; then
	h="#test-click=$(enc "th:name,frame:asm_exc_page_fault")&test-filter=a"
	if dump_dom "$page" "$h" > "$TMP/one.dom" &&
	   timeout 120 "$CHROME" "${CHROME_FLAGS[@]}" --user-data-dir="$TMP/chr" \
		--dump-dom "file://$page$h" > "$TMP/dump-dom.dom" 2> "$TMP/chr.err"; then
		check "--html dump_dom (chrome-dom.py) = chromium --dump-dom, byte for byte" \
			cmp "$TMP/one.dom" "$TMP/dump-dom.dom"
		python3 "$HDOM" "$TMP/one.dom" > "$TMP/one.txt"
		check "--html dump_dom = --dump-dom: a view of the page's script, clicked" sh -c \
			'grep -qx "marker ok" "$1" && grep -q "^hash #" "$1" && grep -q "^row" "$1"' \
			sh "$TMP/one.txt"
	else
		fail "--html dump_dom = chromium --dump-dom" "$(tail -3 "$TMP/chr.err")"
	fi
fi
