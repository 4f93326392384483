# System calls per page of event data (strace: exact counts, whatever the load
# of the machine). The v6 structure check reads every ring-buffer page's
# commit word before libtracecmd opens the file; read one pread() at a time
# that was a system call per 4 KB page on top of the page reader's own (on a
# 300 MB trace 73,000 calls, a third of the run's system time). The budget:
# the reads of a whole run at most half the pages of event data.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
many_seq() {
	awk 'BEGIN {
		print "cpus 2"
		print "kallsyms ffffffff81000000 T _stext"
		print "kallsyms ffffffff82000000 t alloc_a"
		print "kallsyms ffffffff82000100 t free_a"
		print "kallsyms ffffffff82000200 T _etext"
		print "cmdline 100 bash"
		for (i = 0; i < 80000; i++) {
			printf "event %d %d 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff8880%08x bytes_req=24 bytes_alloc=32\n", i % 2, 1000 + i * 10, 0x1000 + i * 64
			printf "event %d %d 100 kfree call_site=free_a+0x8 ptr=0xffff8880%08x\n", i % 2, 1005 + i * 10, 0x1000 + i * 64
		}
	}'
}
if ! command -v strace > /dev/null 2>&1; then
	skip "syscalls: reads per page of event data" "no strace"
elif ! { many_seq > "$TMP/many.seq" &&
	 "$MKTRACE" -o "$TMP/many.dat" "$TMP/many.seq" > "$TMP/mk.txt" 2>&1; }; then
	fail "syscalls: mktrace" "$(cat "$TMP/mk.txt")"
# LeakSanitizer cannot run under ptrace: the sanitizer build counts without it
elif ! ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -c -U calls,name -e trace=read,pread64 -o "$TMP/sc.txt" \
		"$KMA" --no-db "$TMP/many.dat" > "$TMP/out.txt" 2> "$TMP/err.txt"; then
	skip "syscalls: reads per page of event data" "strace cannot trace here: $(head -1 "$TMP/err.txt")"
else
	# 160,000 events of 12 to 28 bytes: about 2,300 pages of 4 KB
	pages=$(( $(stat -c %s "$TMP/many.dat") / 4096 ))
	reads=$(awk '$NF == "read" || $NF == "pread64" { n += $1 } END { print n + 0 }' "$TMP/sc.txt")
	check "syscalls: the run counted 80000 allocations" grep -qx "number of allocs: 80000" "$TMP/out.txt"
	check "syscalls: $reads reads for $pages pages (budget $((pages / 2)))" \
		test "$reads" -gt 0 -a "$reads" -le $((pages / 2))
fi
# A bad commit word in the last pages of CPU 1's data (about 3.5 MB in): the
# structure check reads only each CPU's first page when the page reader alone
# reads the file, and the page reader refuses the page as it cuts it (exit 1,
# one line, no report.db); through libtracecmd (--libtracecmd) every page is
# checked first, libtracecmd trusting every page it reads.
if [ -f "$TMP/many.dat" ]; then
	python3 -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
off = (len(d) // 4096 - 10) * 4096 + 8
d[off:off + 8] = (0xfff0).to_bytes(8, 'little')
open(sys.argv[2], 'wb').write(d)" "$TMP/many.dat" "$TMP/bad.dat"
	"$KMA" --no-db "$TMP/bad.dat" > "$TMP/bad.txt" 2>&1
	check "syscalls: a bad page 3 MB into a CPU's data: exit 1" test $? = 1
	check "syscalls: ... and it is named, in one line" grep -qxE \
		"kma-analyze: $TMP/bad.dat: corrupt trace.dat: CPU 1's ring-buffer page at [0-9]+ does not fit \(corrupt event data\)" \
		"$TMP/bad.txt"
	( cd "$TMP" && "$KMA" -o bad.db bad.dat > bad-db.txt 2>&1 ); rc=$?
	check "syscalls: ... with report.db: exit 1, no report.db, no temporary" \
		test "$rc|$(ls "$TMP" | grep -c -e '^bad\.db' -e 'tmp-')" = "1|0"
	"$KMA" --libtracecmd --no-db "$TMP/bad.dat" > "$TMP/bad-tc.txt" 2>&1
	check "syscalls: ... --libtracecmd: checked before libtracecmd reads it" \
		test "$?|$(cat "$TMP/bad-tc.txt")" = \
		"1|kma-analyze: $TMP/bad.dat: corrupt trace.dat: bad ring-buffer page"
fi
