# Report filters (--comm, --pid, --caller, --cache, --exclude-self) and the order of the
# per-caller reports (-s), on tests/gen/filters.seq (numbers worked out by hand below,
# from the events listed in the .seq) and on the real fixtures against awk over
# `trace-cmd report` (independent of kma).
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
G=$TMP/filters.dat
"$MKTRACE" -o "$G" "$TOP/tests/gen/filters.seq" > "$TMP/mk.txt" 2>&1 ||
	fail "mktrace filters.seq" "$(cat "$TMP/mk.txt")"

# sums ARGS...: "total slack net allocs frees" of the text report
sums() {
	"$KMA" --no-db "$@" | awk -F': ' '
		/^total bytes allocated: /	{ t = $2 }
		/^slack bytes allocated: /	{ s = $2 }
		/^net bytes allocated: /	{ n = $2 }
		/^number of allocs: /		{ a = $2 }
		/^number of frees: /		{ f = $2 }
		END { print t, s, n, a, f }'
}
# names ARGS...: the name column of the table, in its order, on one line
names() {
	"$KMA" --no-db "$@" | sed -n '/alloc\/free/,$p' | tail -n +2 | awk '{print $NF}' | xargs
}

# The events (ts: comm pid, call site, bytes req/alloc, cache):
#  1: tar 100 alloc_a 184/192 filp        2: tar 100 alloc_b 50/64 (kmalloc-64), freed at 8
#  3: bash 200 alloc_a 1000/1024 (kmalloc-1k)  4: bash 200 alloc_b 192/192 dentry
#  5: trace-cmd 300 tracing_buffers_splice_read 24/32 (kmalloc-32), freed at 9
#  6: kworker/0:1 400 ring_buffer_alloc_read_page 100/128 (kmalloc-128), freed at 11
#  7: trace-cmd 300 alloc_a 184/192 filp  10: tar 101 alloc_b 8/8 (kmalloc-8)
check "no filter: the whole trace" test "$(sums "$G")" = "1832 90 1608 8 3"
# --comm tar: 1, 2, 10: total 192+64+8 = 264, slack 8+14 = 22, net 192+8 = 200, frees 1
check "--comm tar" test "$(sums --comm tar "$G")" = "264 22 200 3 1"
check "--comm 't?r' is a glob" test "$(sums --comm 't?r' "$G")" = "264 22 200 3 1"
# --comm tar --comm bash (OR): 1, 2, 3, 4, 10: 264 + 1024 + 192 = 1480, slack 22 + 24 = 46,
#   net 200 + 1216 = 1416
check "--comm tar --comm bash: OR-ed" test "$(sums --comm tar --comm bash "$G")" = \
	"1480 46 1416 5 1"
# --pid 101,200: 3, 4, 10: 1024 + 192 + 8 = 1224, slack 24, all live
check "--pid 101,200" test "$(sums --pid 101,200 "$G")" = "1224 24 1224 3 0"
# --comm tar --pid '!100' (AND, exclusion): 10 only
check "--comm tar --pid !100: kinds AND-ed" test "$(sums --comm tar --pid '!100' "$G")" = \
	"8 0 8 1 0"
# --caller '^alloc_' --comm '!trace-cmd': 1, 2, 3, 4, 10 = the --comm tar --comm bash set
check "--caller ^alloc_ --comm !trace-cmd" test \
	"$(sums --caller '^alloc_' --comm '!trace-cmd' "$G")" = "1480 46 1416 5 1"
# --caller 'a_b|_read\+0x76$' (ERE on sym+0xoff): alloc_b (2, 4, 10) and 5:
#   64 + 192 + 8 + 32 = 296, slack 14 + 8 = 22, net 200, frees 2
check "--caller ERE on the printed name" test \
	"$(sums --caller 'c_b|_read\+0x76$' "$G")" = "296 22 200 4 2"
# --cache 'kmalloc-*': 2, 3, 5, 6, 10: 64 + 1024 + 32 + 128 + 8 = 1256, slack 14+24+8+28 = 74,
#   net 1024 + 8 = 1032, frees 3
check "--cache kmalloc-*: kmalloc by size class" test "$(sums --cache 'kmalloc-*' "$G")" = \
	"1256 74 1032 5 3"
check "--cache kmalloc-* --cache !kmalloc-1k" test \
	"$(sums --cache 'kmalloc-*' --cache '!kmalloc-1k' "$G")" = "232 50 8 4 3"
# --cache filp --cache dentry: 1, 4, 7: 576, slack 16, all live
check "--cache filp --cache dentry" test "$(sums --cache filp --cache dentry "$G")" = \
	"576 16 576 3 0"
# the recorder's own: 5 and 7 (trace-cmd), 6 (ring_buffer_*): 32 + 192 + 128 = 352 in 3
check "no filter: the recorder's own are named" sh -c \
	"'$KMA' --no-db '$G' | grep -qx \"# 352 bytes in 3 allocations are the recorder's own (.*); --exclude-self drops them\""
# --exclude-self: 1, 2, 3, 4, 10 again
check "--exclude-self" test "$(sums --exclude-self "$G")" = "1480 46 1416 5 1"
check "--exclude-self says what it dropped" sh -c \
	"'$KMA' --no-db --exclude-self '$G' | grep -q '^# --exclude-self dropped 352 bytes in 3 allocations'"
# kept by --comm tar, none is the recorder's: 0 dropped
check "--exclude-self --comm tar: dropped 0" sh -c \
	"'$KMA' --no-db --exclude-self --comm tar '$G' | grep -q '^# --exclude-self dropped 0 bytes in 0 allocations'"
# --comm trace-cmd: 5 and 7 kept, both the recorder's own: 224 bytes
check "--comm trace-cmd: its own counted among the kept" sh -c \
	"'$KMA' --no-db --comm trace-cmd '$G' | grep -q '^# 224 bytes in 2 allocations are the recorder'"
check "no self line when there is none" sh -c \
	"! '$KMA' --no-db --comm bash '$G' | grep -q \"recorder's own\""
check "the header states the filter" test \
	"$("$KMA" --no-db --comm tar --caller '!ring_buffer' --pid 1,2 --exclude-self "$G" | head -1)" = \
	"# allocations (filter: comm 'tar', pid 1,2, caller !~ 'ring_buffer', not the recorder's own); unknown/null frees (no --caller/--cache applies to them) and lost events are for the whole trace"
# report.db always holds the whole trace
"$KMA" -q -o "$TMP/f.db" --comm tar --exclude-self "$G"
check "report.db: the whole trace whatever the filter" test \
	"$(sqlite3 "$TMP/f.db" 'SELECT COUNT(*), SUM(bytes_alloc) FROM allocations')" = "8|1832"
# --list: bash's 3 and 4, in time order
check "--list --comm bash" test \
	"$("$KMA" --no-db --list -f csv --comm bash "$G" | tail -n +2 | cut -d, -f3,4 | xargs)" = \
	"0xffff888100003000,1024 0xffff888100004000,192"
# every report: -g comm with a filter
check "-g comm --cache filp: rows" test "$(names -g comm --cache filp "$G")" = "tar trace-cmd"
# --leaks, --peak, --lifetimes, --generations, --outstanding see the filter
check "--outstanding --comm bash: bash's 2 live" test \
	"$(names --outstanding --comm bash "$G")" = "alloc_a+0x10 alloc_b+0x20"
check "--peak --comm bash: only bash's callers" test \
	"$("$KMA" --no-db --peak --comm bash -f csv "$G" | tail -n +2 | xargs)" = \
	"1024,alloc_a+0x10 192,alloc_b+0x20"
check "--lifetimes --comm tar: only alloc_b freed" test \
	"$("$KMA" --no-db --lifetimes --comm tar -f csv "$G" | tail -n +2 | awk -F, '{print $1, $NF}')" = \
	"1 alloc_b+0x20"
check "--leaks --pid 200: bash's callers" test \
	"$("$KMA" --no-db --leaks --pid 200 -f csv "$G" | tail -n +2 | awk -F, '{print $1}' | xargs)" = \
	"1024 192"

# Orders. Default total: alloc_a 1408, alloc_b 264, ring_buffer 128, tracing_buffers 32
check "default order: total" test "$(names "$G")" = \
	"alloc_a+0x10 alloc_b+0x20 ring_buffer_alloc_read_page+0x58 tracing_buffers_splice_read+0x76"
check "the table says its order" sh -c "'$KMA' --no-db '$G' | grep -qx 'Sorted by total.'"
# -s slack: 40, 28, 14, 8
check "-s slack" test "$(names -s slack "$G")" = \
	"alloc_a+0x10 ring_buffer_alloc_read_page+0x58 alloc_b+0x20 tracing_buffers_splice_read+0x76"
check "-s slack: the table says so" sh -c "'$KMA' --no-db -s slack '$G' | grep -qx 'Sorted by slack.'"
# --outstanding: by net unless -s: alloc_a 1408 (3 live), alloc_b 200 (2 live)
check "--outstanding: sorted by net by default" sh -c \
	"'$KMA' --no-db --outstanding '$G' | grep -qx 'Sorted by net.'"
# -s caller on -g comm: bash kworker/0:1 tar trace-cmd
check "-g comm -s caller" test "$(names -g comm -s caller "$G")" = "bash kworker/0:1 tar trace-cmd"
# --lifetimes: callers with traced frees: alloc_b (total 264, slack 14), ring_buffer (128, 28),
#   tracing_buffers (32, 8). Default total: alloc_b ring tracing; -s slack: ring alloc_b tracing
check "--lifetimes: default order total" test \
	"$("$KMA" --no-db --lifetimes -f csv "$G" | tail -n +2 | awk -F, '{print $NF}' | xargs)" = \
	"alloc_b+0x20 ring_buffer_alloc_read_page+0x58 tracing_buffers_splice_read+0x76"
check "--lifetimes -s slack" test \
	"$("$KMA" --no-db --lifetimes -s slack -f csv "$G" | tail -n +2 | awk -F, '{print $NF}' | xargs)" = \
	"ring_buffer_alloc_read_page+0x58 alloc_b+0x20 tracing_buffers_splice_read+0x76"
check "--lifetimes -s slack: says so" sh -c \
	"'$KMA' --no-db --lifetimes -s slack '$G' | grep -q '^Alloc -> free lifetimes of traced frees, sorted by slack '"
check "--peak: says its order" sh -c \
	"'$KMA' --no-db --peak '$G' | grep -qx 'Sorted by net (bytes held at the peak).'"
# --peak: net 1824 at event 7; held then: alloc_a 192+1024+192 = 1408, alloc_b 64+192 = 256,
#   ring_buffer 128, tracing_buffers 32 (slack 40, 14, 28, 8). Default: by held bytes.
check "--peak: by bytes held at the peak by default" test \
	"$("$KMA" --no-db --peak -f csv "$G" | tail -n +2 | xargs)" = \
	"1408,alloc_a+0x10 256,alloc_b+0x20 128,ring_buffer_alloc_read_page+0x58 32,tracing_buffers_splice_read+0x76"
check "--peak -s slack" test \
	"$("$KMA" --no-db --peak -s slack -f csv "$G" | tail -n +2 | cut -d, -f2 | xargs)" = \
	"alloc_a+0x10 ring_buffer_alloc_read_page+0x58 alloc_b+0x20 tracing_buffers_splice_read+0x76"
check "--help shows both defaults" sh -c \
	"'$KMA' --help | grep -A2 -- '--sort KEY' | grep -q 'default: total; net for --leaks, --outstanding'"

# Usage errors
for bad in "--pid x" "--pid 1,,2" "--caller a(b" "--pid -1"; do
	# shellcheck disable=SC2086
	"$KMA" --no-db $bad "$G" > /dev/null 2> "$TMP/err"; rc=$?
	check "usage error: $bad" test "$rc" = 2 -a "$(wc -l < "$TMP/err")" = 2
done

# Real traces against trace-cmd report: lost-mid.dat has trace-cmd's own reads (splice,
# ring buffer pages). awk counts the allocations (ptr not 0) by comm and call site.
F=$TOP/tests/fixtures/lost-mid.dat
trace-cmd report "$F" 2> /dev/null | awk '
	/ (kmalloc|kmem_cache_alloc): / {
		if (!match($0, /^ *.*-[0-9]+ +\[/)) next
		head = substr($0, RSTART, RLENGTH); sub(/^ */, "", head); sub(/ +\[$/, "", head)
		comm = head; sub(/-[0-9]+$/, "", comm)
		site = ""; bytes = 0; ptr = ""; cache = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^call_site=/) site = substr($i, 11)
			if ($i ~ /^bytes_alloc=/) bytes = substr($i, 13)
			if ($i ~ /^ptr=/) ptr = substr($i, 5)
			if ($i ~ /^name=/) cache = substr($i, 6)
		}
		if (ptr == "0x0" || ptr == "(nil)" || ptr == "0") next
		fn = site; sub(/\+.*/, "", fn)
		self = comm == "trace-cmd" || comm == "kma-record" || comm == "kma-analyze" ||
		       comm == "kma-mark" || fn ~ /^(tracing_buffers_|ring_buffer_|trace_)/
		n++; b += bytes
		if (self) { sn++; sb += bytes }
		if (comm == "trace-cmd") { tn++; tb += bytes }
		if (cache == "names_cache") { cn++; cb += bytes }
	}
	END { print n + 0, b + 0, sn + 0, sb + 0, tn + 0, tb + 0, cn + 0, cb + 0 }' > "$TMP/want"
read -r all_n all_b self_n self_b tc_n tc_b nc_n nc_b < "$TMP/want"
check "lost-mid: the fixture has the recorder's own (awk: $self_n)" test "$self_n" -gt 0
check "lost-mid: the self line = awk" sh -c \
	"'$KMA' --no-db '$F' | grep -q '^# $self_b bytes in $self_n allocations are the recorder'"
check "lost-mid: --exclude-self totals = awk" test \
	"$("$KMA" --no-db --exclude-self "$F" | awk -F': ' '/^total bytes/ {t = $2} /^number of allocs/ {a = $2} END {print t, a}')" = \
	"$((all_b - self_b)) $((all_n - self_n))"
check "lost-mid: --comm trace-cmd = awk" test \
	"$("$KMA" --no-db --comm trace-cmd "$F" | awk -F': ' '/^total bytes/ {t = $2} /^number of allocs/ {a = $2} END {print t, a}')" = \
	"$tc_b $tc_n"
check "lost-mid: --cache names_cache = awk" test \
	"$("$KMA" --no-db --cache names_cache "$F" | awk -F': ' '/^total bytes/ {t = $2} /^number of allocs/ {a = $2} END {print t, a}')" = \
	"$nc_b $nc_n"
