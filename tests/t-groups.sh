# --group-by: every grouping's rows = the matching report.db view (itself SQL over
# the allocations, which t-fixtures.sh checks against kma-expect.py).
F=$TOP/tests/fixtures/markers.dat
"$KMA" -q -o "$TMP/g.db" "$F"
rows() {	# the table of a text report: total slack net allocs frees name (not slack%)
	sed -n '/alloc\/free/,$p' | tail -n +2 |
		awk '{split($5, a, "/"); n = $6; for (i = 7; i <= NF; i++) n = n " " $i;
		      print $1, $2, $4, a[1], a[2], n}' | LC_ALL=C sort
}
for g in function module cache comm pid; do
	case $g in
	function) sql="SELECT function, SUM(total), SUM(slack), SUM(net), SUM(allocs), SUM(frees)
		       FROM function_stats GROUP BY function";;
	module)	sql="SELECT module, total, slack, net, allocs, frees FROM module_stats";;
	cache)	sql="SELECT cache, total, slack, net, allocs, frees FROM cache_stats";;
	comm)	sql="SELECT comm, SUM(total), SUM(slack), SUM(net), SUM(allocs), SUM(frees)
		     FROM task_stats GROUP BY comm";;
	pid)	sql="SELECT pid, SUM(total), SUM(slack), SUM(net), SUM(allocs), SUM(frees)
		     FROM task_stats GROUP BY pid";;
	esac
	check "-g $g = report.db view" test \
		"$("$KMA" --no-db -g "$g" "$F" | rows)" = \
		"$(sqlite3 -separator ' ' "$TMP/g.db" "$sql" |
		   awk '{print $2, $3, $4, $5, $6, $1}' | LC_ALL=C sort)"
done
check "-g cache: kmalloc sizes grouped by size class" sh -c \
	"'$KMA' --no-db -g cache '$F' | grep -q ' kmalloc-[0-9]*k\{0,1\}\$'"
check "-g module: this kernel has no modules: all vmlinux" test \
	"$("$KMA" --no-db -g module "$F" | rows | awk '{print $6}')" = vmlinux
check "-g file without debug info: [unknown]" test \
	"$("$KMA" --no-db -g file "$F" | rows | awk '{print $6}')" = "[unknown]"
# the hint names the release's debug file and -dbg package, once (release from the trace's header)
rel=$(trace-cmd report --uname "$F" 2>/dev/null | awk '/^Linux /{print $3}')
"$KMA" --no-db -g file "$F" > /dev/null 2> "$TMP/hint.err"
check "-g file without debug info: one hint naming vmlinux-$rel and linux-image-$rel-dbg" test \
	"$(grep -c "/usr/lib/debug/boot/vmlinux-$rel,.*linux-image-$rel-dbg" "$TMP/hint.err")" = 1
"$KMA" --no-db -g function "$F" > /dev/null 2> "$TMP/nohint.err"
check "no debug hint without -g file" test ! -s "$TMP/nohint.err"
check "callers.file is NULL, never '', without debug info" test \
	"$(sqlite3 "$TMP/g.db" "SELECT COUNT(*) FROM callers WHERE file = '' OR (file IS NULL) != (line IS NULL)")" = 0
"$KMA" --no-db -g bogus "$F" > /dev/null 2>&1; rc=$?
check "-g bogus is a usage error" test $rc = 2
check "callers table has symbol and offset" test \
	"$(sqlite3 "$TMP/g.db" "SELECT COUNT(*) FROM callers WHERE caller != symbol || '+0x' || printf('%x', offset)")" = 0

# --advice (tests/t-advice.sh checks its ranges): the 640-byte pipe_inode_info case of
# the sizing issue, one range of one size: 640 B in kmalloc-1k, a cache of 640 saves
# 1024 - 640 = 384 B per allocation, 1152 B over the trace's 3 allocations
check "--advice: the 640-byte pipe_inode_info case" sh -c \
	"'$KMA' --no-db -f csv --advice '$F' | grep -q '^alloc_pipe_info+0x[0-9a-f]*,640,640,1,kmalloc-1k,kmalloc-1k,640,3,.*,1152\$'"
