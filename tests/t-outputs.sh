# Every output goes through one guard (analyzer/kma-output.c): kma-analyze's --html as its
# -o (tests/t-guard.sh), and kma-diff's -o. Never an input, never anything but a regular
# file (a FIFO is refused at once, not opened), never a file kma did not write without
# --force, never two outputs in one file, never an empty name; and the page is written to
# a temporary beside it and renamed: an error, a full disk or a signal leaves the page
# that was there as it was, and no temporary.
FIX=$TOP/tests/fixtures
DIFF=$TOP/$B/analyzer/kma-diff
O=$TMP/out
mkdir -p "$O"

# state FILE: what must not change (type, link target, content)
state() {
	ls -ld "$1" 2> /dev/null | awk '{ print $1, $NF }'
	[ -f "$1" ] && md5sum < "$1"
}

# refused NAME RC PATTERN FILE CMD...: CMD exits RC with one line on stderr that matches
# PATTERN and names FILE, FILE is as it was, no temporary left in $O
refused() {
	local name=$1 want=$2 pattern=$3 file=$4 before rc
	shift 4
	before=$(state "$file")
	timeout 20 "$@" > "$O/stdout" 2> "$O/err"
	rc=$?
	if [ $rc != "$want" ]; then
		fail "outputs: $name" "exit $rc, want $want: $(head -3 "$O/err")"
	elif [ "$(grep -vc '^Try ' "$O/err")" != 1 ] || ! grep -q -- "$pattern" "$O/err" ||
	     ! grep -qF -- "$file" "$O/err"; then
		fail "outputs: $name" "want one line naming $file and '$pattern': $(cat "$O/err")"
	elif [ "$before" != "$(state "$file")" ]; then
		fail "outputs: $name" "$file was changed"
	elif ls "$O" | grep -q 'tmp-'; then
		fail "outputs: $name" "a temporary was left: $(ls "$O" | grep tmp-)"
	else
		pass "outputs: $name"
	fi
}

# is_page FILE: a page kma-analyze wrote, whole (it ends the document)
is_page() {
	head -c 1024 "$1" | grep -q '<meta name="generator" content="kma-analyze">' &&
		tail -c 20 "$1" | grep -q '</html>'
}

cp "$FIX/basic.dat" "$O/t.dat"
T=$O/t.dat

# --- --html: never an input, never someone else's file ------------------------------------
refused "--html the input trace (the page would delete it)" 1 "is the input trace" "$T" \
	"$KMA" -q --no-db --html "$T" "$T"
refused "--html the input trace, with --force" 1 "is the input trace" "$T" \
	"$KMA" -q --no-db --force --html "$T" "$T"
ln "$T" "$O/hard.dat"
refused "--html a hard link to the input" 1 "is the input trace" "$O/hard.dat" \
	"$KMA" -q --no-db --html "$O/hard.dat" "$T"
ln -s t.dat "$O/sym.dat"
refused "--html a symbolic link to the input" 1 "is the input trace" "$O/sym.dat" \
	"$KMA" -q --no-db --html "$O/sym.dat" "$T"
printf 'my notes\n' > "$O/notes.html"
refused "--html a file kma did not write" 1 "not a kma page" "$O/notes.html" \
	"$KMA" -q --no-db --html "$O/notes.html" "$T"
"$KMA" -q -o "$O/r.db" "$T"
refused "--html an existing report.db" 1 "not a kma page" "$O/r.db" \
	"$KMA" -q --no-db --html "$O/r.db" "$T"
: > "$O/empty.html"
refused "--html an empty file" 1 "not a kma page (an empty file)" "$O/empty.html" \
	"$KMA" -q --no-db --html "$O/empty.html" "$T"
mkdir "$O/dir"
refused "--html a directory" 1 "is a directory; --html wants a file" "$O/dir" \
	"$KMA" -q --no-db --html "$O/dir" "$T"
mkfifo "$O/fifo"
refused "--html a FIFO: refused at once, not opened" 1 "not a regular file" "$O/fifo" \
	"$KMA" -q --no-db --force --html "$O/fifo" "$T"

check "outputs: --force replaces a file kma did not write with the page" sh -c \
	'"$1" -q --no-db --force --html "$2" "$3" && head -c 1024 "$2" |
	 grep -q "<meta name=\"generator\" content=\"kma-analyze\">"' sh "$KMA" "$O/notes.html" "$T"
"$KMA" -q --no-db --html "$O/page.html" "$T"
cp "$O/page.html" "$O/page.before"
check "outputs: --html replaces a page kma wrote, without --force" sh -c \
	'echo "<!-- old -->" >> "$2" && "$1" -q --no-db --html "$2" "$3" && cmp "$2" "$4"' \
	sh "$KMA" "$O/page.html" "$T" "$O/page.before"
ln -s page.html "$O/link.html"
check "outputs: --html through a symbolic link replaces its target, the link stays" sh -c \
	'"$1" -q --no-db --html "$2" "$3" && [ -L "$2" ] && cmp "$4" "$5"' \
	sh "$KMA" "$O/link.html" "$T" "$O/page.html" "$O/page.before"

# --- two outputs in one file, empty names: usage errors before any work -------------------
refused "-o X --html X" 2 "name the same file" "$O/same" \
	"$KMA" -q -o "$O/same" --html "$O/same" "$T"
check "outputs: ... and nothing written" test ! -e "$O/same"
refused "-o X --html X, spelt two ways" 2 "name the same file" "$O/../out/r.db" \
	"$KMA" -q -o "$O/r.db" --html "$O/../out/r.db" "$T"
( cd "$O" && "$KMA" -q -o page.html --html ./page.html t.dat ) 2> "$O/err"
check "outputs: -o page.html --html ./page.html: exit 2" test $? = 2
check "outputs: -o and --html in one file are fine with --no-db" sh -c \
	'"$1" -q --no-db -o "$2" --html "$2" "$3" && cmp "$2" "$4"' \
	sh "$KMA" "$O/page.html" "$T" "$O/page.before"
"$KMA" -q -o '' "$T" 2> "$O/err"
check "outputs: -o '': exit 2" test $? = 2
check "outputs: -o '': says so" grep -q -- "-o wants a file name" "$O/err"
"$KMA" -q --html '' "$T" 2> "$O/err"
check "outputs: --html '': exit 2" test $? = 2

# --- the page is whole or the old one stays --------------------------------------------------
# a trace that fails after the page's matchers are open: the cut trace's error
head -c 60000 "$FIX/basic.dat" > "$O/cut.dat"
"$KMA" -q --no-db --html "$O/page.html" "$O/cut.dat" 2> "$O/err"
rc=$?
check "outputs: a failed run leaves the old page as it was, and no temporary" sh -c \
	'[ $1 = 1 ] && grep -q "cut.dat: truncated" "$2" && cmp "$3" "$4" && ! ls "$5" | grep -q tmp-' \
	sh $rc "$O/err" "$O/page.html" "$O/page.before" "$O"
# a signal while the page is being made: a trace big enough to take a while
awk 'BEGIN {
	print "cpus 1"
	print "kallsyms ffffffff81000000 T _stext"
	print "kallsyms ffffffff81100000 t alloc_a"
	print "kallsyms ffffffff81400000 T _etext"
	for (i = 0; i < 400000; i++)
		printf "event 0 %d 100 kmalloc call_site=alloc_a+0x10 ptr=0x%x bytes_req=32 bytes_alloc=32\n",
			1000 + i * 10, 4096 + i * 64
}' > "$O/big.seq"
MK=$TOP/$B/tests/tools/mktrace
if [ -x "$MK" ] && "$MK" -o "$O/big.dat" "$O/big.seq" > /dev/null 2>&1; then
	for sig in TERM INT; do
		env --default-signal=INT "$KMA" -q --no-db --html "$O/page.html" "$O/big.dat" \
			2> "$O/err" &
		pid=$!
		seen=0
		for i in $(seq 2000); do
			ls "$O"/page.html.tmp-* > /dev/null 2>&1 && { seen=1; break; }
			kill -0 $pid 2> /dev/null || break
			sleep 0.005
		done
		kill -$sig $pid 2> /dev/null
		wait $pid
		rc=$?
		if [ $seen = 0 ]; then
			fail "outputs: SIG$sig while the page is made" "ended (exit $rc) before its temporary was seen"
		elif [ $rc = 0 ]; then
			fail "outputs: SIG$sig while the page is made" "the run finished first"
		elif ls "$O" | grep -q 'page.html.tmp-' || ! cmp -s "$O/page.html" "$O/page.before"; then
			fail "outputs: SIG$sig while the page is made" "exit $rc; files: $(ls "$O")"
		else
			pass "outputs: SIG$sig while the page is made: old page kept, no temporary (exit $rc)"
		fi
	done
else
	fail "outputs: mktrace big.dat"
fi
# a full file system: a 512 KB tmpfs holding the old page (367 KB: no room for a second) in a mount namespace of its own (root)
if unshare -m true 2> /dev/null && [ -f "$O/big.dat" ]; then
	mkdir -p "$O/mnt"
	unshare -m sh -c "mount -t tmpfs -o size=512k tmpfs '$O/mnt' && cp '$O/page.before' '$O/mnt/p.html' &&
		'$KMA' -q --no-db --html '$O/mnt/p.html' '$T'; rc=\$?;
		cmp '$O/page.before' '$O/mnt/p.html' && ls '$O/mnt' > '$O/ls.txt'; exit \$rc" 2> "$O/err"
	rc=$?
	check "outputs: --html on a full file system: exit 1, the old page kept, no temporary" \
		test "$rc:$(cat "$O/ls.txt" 2> /dev/null)" = "1:p.html"
	check "outputs: ... one line naming the page" sh -c \
		'[ "$(wc -l < "$1")" = 1 ] && grep -q "mnt/p.html: .*space" "$1"' sh "$O/err"
else
	skip "outputs: --html on a full file system" "unshare -m is not permitted here"
fi

# --- kma-diff -o: never an operand, never twice ------------------------------------------
cp "$FIX/markers.dat" "$O/new.dat"
refused "kma-diff -o NEW (BASE would be compared with itself)" 1 "is an operand" "$O/new.dat" \
	"$DIFF" -q -o "$O/new.dat" "$T" "$O/new.dat"
"$DIFF" -q -o "$O/new.dat" --fail-if 'net>0' "$T" "$O/new.dat" 2> /dev/null
check "outputs: kma-diff -o NEW --fail-if: exit 1, not a passed gate" test $? = 1
refused "kma-diff -o BASE" 1 "is an operand" "$T" "$DIFF" -q -o "$T" "$T" "$O/new.dat"
refused "kma-diff -o a report.db operand" 1 "is an operand" "$O/r.db" \
	"$DIFF" -q -o "$O/r.db" "$T" "$O/r.db"
refused "kma-diff -o a file kma did not write" 1 "not a kma report.db" "$O/notes.html" \
	"$DIFF" -q -o "$O/notes.html" "$T" "$O/new.dat"
refused "kma-diff -o X -o X" 2 "given twice" "$O/./x.db" \
	"$DIFF" -q -o "$O/x.db" -o "$O/./x.db" "$T" "$O/new.dat"
"$DIFF" -q -o '' "$T" "$O/new.dat" 2> "$O/err"
check "outputs: kma-diff -o '': exit 2" test $? = 2
check "outputs: kma-diff -o keeps the report.db of a trace operand" sh -c \
	'"$1" -q -o "$2" "$3" "$4" && [ "$(sqlite3 "$2" "PRAGMA application_id")" = 1802330450 ]' \
	sh "$DIFF" "$O/kept.db" "$T" "$O/new.dat"

# --- inputs that would block, operands left untouched ------------------------------------
refused "a FIFO as the input trace: refused at once" 1 "not a regular file" "$O/fifo" \
	"$KMA" -q --no-db "$O/fifo"
refused "a FIFO as a kma-diff operand: refused at once" 1 "not a regular file" "$O/fifo" \
	"$DIFF" -q "$T" "$O/fifo"
# a report.db in WAL mode: read without a -wal or -shm file created beside it
"$KMA" -q -o "$O/wal.db" "$T"
sqlite3 "$O/wal.db" 'PRAGMA journal_mode=WAL' > /dev/null
"$DIFF" -q "$O/wal.db" "$T" 2> "$O/err"
check "outputs: kma-diff reads a WAL-mode report.db, nothing created beside it" sh -c \
	'[ $1 = 0 ] && [ "$(ls "$2" | grep "^wal.db")" = wal.db ]' sh $? "$O"
# ... and one whose last commit is still in its -wal file (its writer died): that commit
# is read (the callers' totals made 12345 in all there; BASE's total, from trace-cmd, as the
# other side)
python3 - "$O/wal.db" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA wal_autocheckpoint=0")
c.execute("UPDATE callers SET total = CASE rowid WHEN (SELECT MIN(rowid) FROM callers) "
          "THEN 12345 ELSE 0 END")
c.commit()
os._exit(0)
PY
"$DIFF" "$T" "$O/wal.db" > "$O/wal.txt" 2> "$O/err"
want=$(trace-cmd report -i "$T" 2> /dev/null | awk '/ (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): / {
	for (i = 1; i <= NF; i++) if ($i ~ /^bytes_alloc=/) { split($i, kv, "="); s += kv[2] } }
	END { print s }')
check "outputs: kma-diff reads the commit still in a -wal file (total $want -> 12345)" \
	grep -Eq "^total +$want +12345 " "$O/wal.txt"

# --- what SIGKILL leaves: removed by the next run that writes the same output ----------------
if [ -f "$O/big.dat" ]; then
	"$KMA" -q -o "$O/k.db" "$O/big.dat" 2> /dev/null &
	pid=$!
	for i in $(seq 2000); do
		ls "$O"/k.db.tmp-* > /dev/null 2>&1 && break
		sleep 0.005
	done
	kill -KILL $pid 2> /dev/null
	wait $pid 2> /dev/null
	left=$(ls "$O" | grep -c '^k.db.tmp-')
	# a temporary of a process that still exists (this shell) is another run's: kept
	: > "$O/k.db.tmp-$$-abcdef"
	"$KMA" -q -o "$O/k.db" "$T" 2> "$O/err"
	check "outputs: after SIGKILL ($left temporary), the next run removes it and says so" sh -c \
		'[ $1 = 1 ] && grep -qx "kma-analyze: $2: note: removed 1 temporary file left by a run that no longer exists" "$3" &&
		 [ "$(ls "$4" | grep "^k.db.tmp-")" = "k.db.tmp-$5-abcdef" ]' sh "$left" "$O/k.db" "$O/err" "$O" $$
	rm -f "$O/k.db.tmp-$$-abcdef"
fi
