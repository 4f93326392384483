# What kma-analyze must never destroy or leave behind: a signal during a run removes the
# temporary report.db and leaves the old one as it was; -o replaces only a kma report.db
# (or any regular file with --force), never the input; errors of system calls say why.
FIX=$TOP/tests/fixtures
G=$TMP/guard
mkdir -p "$G"
APP_ID=1802330450	# "kmaR", as docs/kma-report.db.5 gives it

MKTRACE=$TOP/$B/tests/tools/mktrace
if [ ! -x "$MKTRACE" ]; then
	MKTRACE=$TMP/mktrace
	make -s -C "$TOP/tests/tools" O="$TMP" > "$TMP/build.txt" 2>&1 ||
		fail "guard: build mktrace" "$(tail -5 "$TMP/build.txt")"
fi

# A trace big enough that writing its report.db takes a while: N kmallocs of 32 bytes,
# every second one freed again. kma's own numbers for it are checked below.
N=300000
awk -v n=$N 'BEGIN {
	print "cpus 1"
	print "kallsyms ffffffff81000000 T _stext"
	print "kallsyms ffffffff81100000 t alloc_a"
	print "kallsyms ffffffff81100100 t free_x"
	print "kallsyms ffffffff81400000 T _etext"
	print "cmdline 100 bash"
	ts = 1000
	for (i = 0; i < n; i++) {
		ts += 10
		printf "event 0 %d 100 kmalloc call_site=alloc_a+0x10 ptr=0x%x bytes_req=32 bytes_alloc=32\n", ts, 4096 + i * 64
		if (i % 2) {
			ts += 10
			printf "event 0 %d 100 kfree call_site=free_x+0x8 ptr=0x%x\n", ts, 4096 + (i - 1) * 64
		}
	}
}' > "$G/big.seq"
"$MKTRACE" -o "$G/big.dat" "$G/big.seq" > "$G/mk.txt" 2>&1 ||
	fail "guard: mktrace big.dat" "$(tail -3 "$G/mk.txt")"

# A report.db of an earlier run: what an interrupted or refused run must leave as it was.
"$KMA" -q -o "$G/keep.db" "$FIX/basic.dat" || fail "guard: setup" "cannot write keep.db"

# one_line_error NAME RC ERRFILE PATTERN: exit 1 and one line on stderr matching PATTERN
one_line_error() {
	local name=$1 rc=$2 err=$3 pattern=$4
	if [ "$rc" -ne 1 ]; then
		fail "$name" "exit status $rc, want 1: $(head -3 "$err")"
	elif [ "$(wc -l < "$err")" -ne 1 ]; then
		fail "$name" "want one line on stderr: $(head -5 "$err")"
	elif ! grep -q -- "$pattern" "$err"; then
		fail "$name" "message does not say '$pattern': $(cat "$err")"
	elif ls "$G" | grep -q 'tmp-'; then
		fail "$name" "a temporary file was left behind: $(ls "$G")"
	else
		return 0
	fi
	return 1
}

# --- signals --------------------------------------------------------------------------

# caught PID: waits until PID's temporary out.db.tmp-* exists, then stops PID; returns 0
# when it caught PID so, mid-run (a signal sent now lands after its SIGCONT).
caught() {
	local i
	for i in $(seq 2000); do
		if ls "$G"/out.db.tmp-* > /dev/null 2>&1; then
			kill -STOP "$1" 2> /dev/null || return 1
			# still there once stopped: not finished in between
			ls "$G"/out.db.tmp-* > /dev/null 2>&1
			return
		fi
		kill -0 "$1" 2> /dev/null || return 1
		sleep 0.005
	done
	return 1
}

# interrupt SIG NUM: SIG lands while kma-analyze is writing $G/out.db; then nothing is
# left behind and the old out.db is as it was.
interrupt() {
	local sig=$1 num=$2 pid rc seen=0
	cp "$G/keep.db" "$G/out.db"
	# a background job of a script starts with SIGINT ignored, a run under nohup with SIGHUP
	# ignored (kma keeps what was ignored when it started); a terminal has neither
	env --default-signal=INT,HUP "$KMA" -q -o "$G/out.db" "$G/big.dat" 2> "$G/sig.err" &
	pid=$!
	caught $pid && seen=1
	kill -"$sig" $pid 2> /dev/null
	kill -CONT $pid 2> /dev/null
	{ wait $pid; } 2> /dev/null	# no "Hangup" job notice
	rc=$?
	if [ $seen = 0 ]; then
		fail "SIG$sig mid-run" "the run ended (exit $rc) before its temporary file was seen"
	elif [ $rc -ne $((128 + num)) ]; then
		fail "SIG$sig mid-run" "exit status $rc, want $((128 + num)): $(head -3 "$G/sig.err")"
	elif [ "$(cat "$G/sig.err")" != "kma-analyze: interrupted" ]; then
		fail "SIG$sig mid-run" "stderr is not 'kma-analyze: interrupted': $(head -3 "$G/sig.err")"
	elif ls "$G" | grep -q 'tmp-'; then
		fail "SIG$sig mid-run" "temporary file left behind: $(ls "$G" | grep tmp-)"
	elif ! cmp -s "$G/keep.db" "$G/out.db"; then
		fail "SIG$sig mid-run" "the existing report.db was changed"
	else
		pass "SIG$sig mid-run: temporary file removed, report.db kept, exit $rc"
	fi
}
if [ -s "$G/big.dat" ]; then
	interrupt TERM 15
	interrupt INT 2
	interrupt HUP 1

	# Later in the run: once the temporary file has grown past 4 MB of rows.
	cp "$G/keep.db" "$G/out.db"
	"$KMA" -q -o "$G/out.db" "$G/big.dat" 2> "$G/sig.err" &
	pid=$!
	size=0
	for i in $(seq 4000); do
		size=$(stat -c %s "$G"/out.db.tmp-* 2> /dev/null || echo 0)
		[ "$size" -gt 4000000 ] && break
		kill -0 $pid 2> /dev/null || break
		sleep 0.005
	done
	kill -TERM $pid 2> /dev/null
	wait $pid
	rc=$?
	if [ "$size" -le 4000000 ]; then
		fail "SIGTERM while rows are written" "the temporary file never grew past 4 MB (exit $rc)"
	elif [ $rc -ne 143 ] || ls "$G" | grep -q 'tmp-' || ! cmp -s "$G/keep.db" "$G/out.db"; then
		fail "SIGTERM while rows are written" "exit $rc, files: $(ls "$G")"
	else
		pass "SIGTERM while rows are written ($size bytes): temporary file removed"
	fi

	# nohup: a SIGHUP ignored at the start stays ignored, and the run completes.
	cp "$G/keep.db" "$G/out.db"
	env --ignore-signal=HUP "$KMA" -q -o "$G/out.db" "$G/big.dat" 2> "$G/sig.err" &
	pid=$!
	caught $pid || fail "ignored SIGHUP (nohup)" "the run ended before it was caught"
	kill -HUP $pid 2> /dev/null
	kill -CONT $pid 2> /dev/null
	wait $pid
	rc=$?
	# N allocations, every second one freed: N/2 live, 32 bytes each
	got=$(sqlite3 "$G/out.db" "SELECT count(*), sum(free_ts IS NULL), sum(bytes_alloc)
		FROM allocations" 2>&1)
	check "ignored SIGHUP (nohup): the run completes" test "$rc:$got" = \
		"0:$N|$((N / 2))|$((N * 32))"
fi

# --- -o refuses to destroy other files -----------------------------------------------

# refused NAME TARGET PATTERN [OPTIONS...]: kma-analyze -o TARGET ${IN:-basic.dat} fails
# and leaves TARGET as it was
refused() {
	local name=$1 target=$2 pattern=$3 before rc
	shift 3
	before=$(ls -ld "$target" 2> /dev/null; [ -f "$target" ] && md5sum < "$target")
	"$KMA" -q "$@" -o "$target" "${IN:-$FIX/basic.dat}" > "$G/out.txt" 2> "$G/err.txt"
	rc=$?
	one_line_error "-o refused: $name" $rc "$G/err.txt" "$pattern" || return
	if ! grep -q -- "$target" "$G/err.txt"; then
		fail "-o refused: $name" "message does not name $target: $(cat "$G/err.txt")"
	elif [ "$before" != "$(ls -ld "$target" 2> /dev/null; [ -f "$target" ] &&
				md5sum < "$target")" ]; then
		fail "-o refused: $name" "$target was changed"
	else
		pass "-o refused: $name"
	fi
}

# replaced NAME TARGET [OPTIONS...]: kma-analyze -o TARGET writes a report.db there
replaced() {
	local name=$1 target=$2 rc
	shift 2
	"$KMA" -q "$@" -o "$target" "$FIX/basic.dat" > "$G/out.txt" 2> "$G/err.txt"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "-o replaces: $name" "exit $rc: $(cat "$G/err.txt")"
	elif [ "$(sqlite3 "$target" 'PRAGMA application_id; SELECT count(*) FROM allocations' |
		  tr '\n' ' ')" != "$APP_ID $BASIC_ALLOCS " ]; then
		fail "-o replaces: $name" "$target is not the new report.db"
	else
		pass "-o replaces: $name"
	fi
}

# the allocations of basic.dat, counted by trace-cmd
BASIC_ALLOCS=$(trace-cmd report -i "$FIX/basic.dat" 2> /dev/null |
	grep -c -E ' (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): ')

cp "$FIX/basic.dat" "$G/in.dat"
IN=$G/in.dat
refused "the input" "$G/in.dat" "is the input trace"
refused "the input, with --force" "$G/in.dat" "is the input trace" --force
ln "$G/in.dat" "$G/hardlink.dat"
refused "a hard link to the input" "$G/hardlink.dat" "is the input trace" --force
ln -s in.dat "$G/symlink.dat"
refused "a symbolic link to the input" "$G/symlink.dat" "is the input trace" --force
IN=
( cd "$G" && "$KMA" -q --force -o ./in.dat in.dat 2> err.txt ); rc=$?
check "-o ./in.dat in.dat (other spelling, --force): refused" test $rc = 1 -a \
	"$(md5sum < "$G/in.dat")" = "$(md5sum < "$FIX/basic.dat")"

printf 'my notes\n' > "$G/notes.txt"
refused "a text file" "$G/notes.txt" "not a kma report.db (not an SQLite database)"
: > "$G/empty"
refused "an empty file" "$G/empty" "not a kma report.db"
mkdir "$G/dir"
refused "a directory" "$G/dir" "is a directory"
refused "a directory, with --force" "$G/dir" "is a directory" --force
mkfifo "$G/fifo"
refused "a FIFO, with --force" "$G/fifo" "not a regular file" --force
sqlite3 "$G/other.db" "CREATE TABLE t (x); INSERT INTO t VALUES (1)"
refused "an SQLite database of someone else" "$G/other.db" "not written by kma"
sqlite3 "$G/app.db" "PRAGMA application_id = 7; CREATE TABLE trace (x)"
refused "an SQLite database with another application_id" "$G/app.db" "application_id 0x00000007"
sqlite3 "$G/v1.db" "PRAGMA user_version = 1; CREATE TABLE trace (x); CREATE TABLE t (x)"
refused "user_version 1 without kma's tables" "$G/v1.db" "not written by kma"
ln -s nowhere.db "$G/dangling.db"
refused "a dangling symbolic link" "$G/dangling.db" "symbolic link"

# The identification kma-report.db(5) documents: application_id "kmaR" at header offset 68.
check "report.db: application_id as documented" sh -c "
	grep -q '^$APP_ID (0x6b6d6152' '$TOP/docs/kma-report.db.5' &&
	test \"\$(od -An -tx1 -j68 -N4 '$G/keep.db' | tr -d ' ')\" = 6b6d6152 &&
	test \"\$(sqlite3 '$G/keep.db' 'PRAGMA application_id')\" = $APP_ID"

# An older kma report.db: schema version 1 without an application_id (as before it had one),
# with the tables kma looks for (version 2 has views where version 1 had these tables).
sqlite3 "$G/old.db" "PRAGMA user_version = 1; CREATE TABLE trace (file TEXT);
	CREATE TABLE callers (id INTEGER PRIMARY KEY); CREATE TABLE allocations (id INTEGER PRIMARY KEY);
	CREATE TABLE unknown_frees (id INTEGER PRIMARY KEY)"
check "older report.db has no application_id" test \
	"$(sqlite3 "$G/old.db" 'PRAGMA application_id; PRAGMA user_version' | tr '\n' ' ')" = "0 1 "
replaced "an older kma report.db (user_version 1, kma's tables)" "$G/old.db"
replaced "a kma report.db" "$G/old.db"
replaced "a text file, with --force" "$G/notes.txt" --force
replaced "a non-kma SQLite database, with --force" "$G/other.db" --force
cp "$G/keep.db" "$G/target.db"
ln -s target.db "$G/link.db"
replaced "a symbolic link to a kma report.db" "$G/link.db"
check "... the link stays and its target is replaced" test -L "$G/link.db" -a \
	"$(readlink "$G/link.db")" = target.db -a -f "$G/target.db"
cp "$G/keep.db" "$G/we?ird #%.db"
replaced "a report.db named with URI characters" "$G/we?ird #%.db"
check "no temporary files left by the -o checks" sh -c "! ls '$G' | grep -q tmp-"

# --- system call errors say why --------------------------------------------------------

"$KMA" -q -o "$G/nodir/r.db" "$FIX/basic.dat" 2> "$G/err.txt"
one_line_error "missing directory: strerror" $? "$G/err.txt" \
	"nodir/r.db: cannot create a temporary file next to it: No such file or directory" &&
	pass "missing directory: strerror"
"$KMA" -q -o "$G/r.db" "$G/nothere.dat" 2> "$G/err.txt"
one_line_error "missing input: strerror" $? "$G/err.txt" \
	"nothere.dat: cannot open it: No such file or directory" && pass "missing input: strerror"
printf 'x' > "$G/file"
"$KMA" -q -o "$G/file/r.db" "$FIX/basic.dat" 2> "$G/err.txt"
one_line_error "-o under a file: strerror" $? "$G/err.txt" "file/r.db: .*Not a directory" &&
	pass "-o under a file: strerror"
"$KMA" -q --no-db --vmlinux "$G/novmlinux" "$FIX/basic.dat" 2> "$G/err.txt"
one_line_error "missing --vmlinux: strerror" $? "$G/err.txt" \
	"novmlinux: vmlinux not found: No such file or directory" && pass "missing --vmlinux: strerror"

# A read-only file system (EROFS) and a full one (ENOSPC): small tmpfs mounts in a mount
# namespace of their own, which needs root.
if unshare -m true 2> /dev/null; then
	mkdir -p "$G/mnt"
	unshare -m sh -c "mount -t tmpfs -o ro,size=1m tmpfs '$G/mnt' &&
		exec '$KMA' -q -o '$G/mnt/r.db' '$FIX/basic.dat'" 2> "$G/err.txt"
	one_line_error "read-only file system: strerror" $? "$G/err.txt" \
		"mnt/r.db: cannot create a temporary file next to it: Read-only file system" &&
		pass "read-only file system: strerror"
	unshare -m sh -c "mount -t tmpfs -o size=2m tmpfs '$G/mnt' &&
		'$KMA' -q -o '$G/mnt/r.db' '$G/big.dat'; rc=\$?; ls '$G/mnt'; exit \$rc" \
		> "$G/ls.txt" 2> "$G/err.txt"
	one_line_error "full file system: one line, exit 1" $? "$G/err.txt" \
		"mnt/r.db: .*full" && if [ -s "$G/ls.txt" ]; then
			fail "full file system: temporary file removed" "left: $(cat "$G/ls.txt")"
		else
			pass "full file system: one line, exit 1, temporary file removed"
		fi
	# too small for the schema itself: the writer thread makes it while the trace is
	# read, and the failure still ends the run with one line and nothing left, from a
	# trace that fails it at the commit (basic.dat) and one that fails a row batch
	for t in "$FIX/basic.dat" "$G/big.dat"; do
		unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$G/mnt' &&
			'$KMA' -q -o '$G/mnt/r.db' '$t'; rc=\$?; ls '$G/mnt'; exit \$rc" \
			> "$G/ls.txt" 2> "$G/err.txt"
		rc=$? name="no room for the schema (${t##*/})"
		one_line_error "$name" $rc "$G/err.txt" \
			"mnt/r.db: cannot create the database: database or disk is full" &&
			if [ -s "$G/ls.txt" ]; then
				fail "$name: temporary removed" "left: $(cat "$G/ls.txt")"
			else
				pass "$name: one line, exit 1, temporary file removed"
			fi
	done
else
	skip "read-only and full file systems" "unshare -m is not permitted here"
fi
# Permission denied, as an unprivileged user in a directory of root's.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	# the binary and the trace where that user can reach them (a clone may sit
	# in a directory only root can enter)
	mkdir -p /tmp/kma-guard-$$ && chmod 755 /tmp/kma-guard-$$ &&
		cp "$KMA" "$FIX/basic.dat" /tmp/kma-guard-$$/ &&
		chmod 755 /tmp/kma-guard-$$/kma-analyze && chmod 644 /tmp/kma-guard-$$/basic.dat
	setpriv --reuid=65534 --regid=65534 --clear-groups /tmp/kma-guard-$$/kma-analyze \
		-q -o /tmp/kma-guard-$$/r.db /tmp/kma-guard-$$/basic.dat 2> "$G/err.txt"
	one_line_error "permission denied: strerror" $? "$G/err.txt" \
		"cannot create a temporary file next to it: Permission denied" &&
		pass "permission denied: strerror"
	rm -rf /tmp/kma-guard-$$
else
	skip "permission denied" "needs root (to switch to an unprivileged user) and setpriv"
fi
