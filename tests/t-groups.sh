# --group-by: every grouping's rows = the matching report.db view (itself SQL over
# the allocations, which t-fixtures.sh checks against kma-expect.py).
F=$TOP/tests/fixtures/markers.dat
"$KMA" -q -o "$TMP/g.db" "$F"
rows() {	# the table of a text report: total slack net allocs frees name
	sed -n '/alloc\/free/,$p' | tail -n +2 |
		awk '{split($4, a, "/"); n = $5; for (i = 6; i <= NF; i++) n = n " " $i;
		      print $1, $2, $3, a[1], a[2], n}' | LC_ALL=C sort
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
"$KMA" --no-db -g bogus "$F" > /dev/null 2>&1; rc=$?
check "-g bogus is a usage error" test $rc = 2
check "callers table has symbol and offset" test \
	"$(sqlite3 "$TMP/g.db" "SELECT COUNT(*) FROM callers WHERE caller != symbol || '+0x' || printf('%x', offset)")" = 0

# --advice = the sizing_advice view (SQL over the allocations)
"$KMA" --no-db -f csv --advice "$F" > "$TMP/adv.csv"
check "--advice rows = sizing_advice view" test \
	"$(sqlite3 :memory: ".import --csv '$TMP/adv.csv' t" "SELECT caller, req, alloc, allocs, live, slack,
	   dedicated, saved, saved_live FROM t" | sort)" = \
	"$(sqlite3 "$TMP/g.db" "SELECT caller, bytes_req, bytes_alloc, allocs, live, slack, dedicated_size,
	   saved_bytes, saved_live_bytes FROM sizing_advice" | sort)"
check "--advice: the 640-byte pipe_inode_info case reads as in the issue" sh -c \
	"'$KMA' --no-db --advice '$F' | grep -q 'kmalloc(640) -> kmalloc-1k, 37.5% slack; a dedicated kmem_cache of 640 would save 1152 bytes'"
