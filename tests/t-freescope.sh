# Filtered summaries and the frees kma cannot pair: an unknown free (its
# allocation is not in the trace) and a null free have a freeing task, a time
# and a generation, so --comm, --pid, --exclude-self, --since/--until and
# --generation select them by those; a --caller or --cache filter cannot, and
# then they are the whole trace's, said so in the text and JSON summaries and
# the page, and left out of "number of frees". The numbers are worked out by
# hand from the events below.
MKTRACE=$TOP/$B/tests/tools/mktrace
S=$TMP/freescope
mkdir -p "$S"
cat > "$S/f.seq" <<'EOF'
cpus 1
kallsyms ffffffff81000000 T _stext
kallsyms ffffffff81100000 t alloc_a
kallsyms ffffffff81100100 t alloc_b
kallsyms ffffffff81100400 t free_x
kallsyms ffffffff81400000 T _etext
cmdline 100 tar
cmdline 101 tar
cmdline 200 bash
cmdline 300 trace-cmd
event 0 1000 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100001000 bytes_req=50 bytes_alloc=64
event 0 2000 200 kmalloc call_site=alloc_b+0x20 ptr=0xffff888100002000 bytes_req=100 bytes_alloc=128
event 0 3000 100 kfree call_site=free_x+0x8 ptr=0xffff888100009000
event 0 4000 200 kfree call_site=free_x+0x8 ptr=0xffff88810000a000
marker 0 4500 200 kma: second
event 0 5000 101 kfree call_site=free_x+0x8 ptr=0x0
event 0 6000 300 kfree call_site=free_x+0x8 ptr=0x10
event 0 7000 100 kfree call_site=free_x+0x8 ptr=0xffff888100001000
event 0 8000 300 kmem_cache_free call_site=free_x+0x8 ptr=0xffff88810000b000 name=filp
EOF
# ts comm pid: what
# 1000 tar 100: alloc_a 50/64    2000 bash 200: alloc_b 100/128 (never freed)
# 3000 tar 100: unknown free     4000 bash 200: unknown free
# 4500: marker, generation 1 starts
# 5000 tar 101: null free (0)    6000 trace-cmd 300: null free (0x10, ZERO_SIZE_PTR)
# 7000 tar 100: frees alloc_a's  8000 trace-cmd 300: unknown free (kmem_cache_free)
"$MKTRACE" -o "$S/f.dat" "$S/f.seq" > "$S/mk.txt" 2>&1 ||
	fail "freescope: mktrace" "$(cat "$S/mk.txt")"

# nums ARGS...: "allocs frees unknown null" of the text summary
nums() {
	"$KMA" --no-db "$@" "$S/f.dat" | awk -F': ' '
		/^number of allocs: /		{ a = $2 }
		/^number of frees: /		{ f = $2 }
		/^number of unknown frees/	{ u = $2 }
		/^number of null frees/		{ n = $2 }
		END { print a, f, u, n }'
}
# jnums ARGS...: the same from the JSON summary, and its unknown_frees_scope
jnums() {
	"$KMA" --no-db -f json "$@" "$S/f.dat" | python3 -c '
import json, sys
s = json.load(sys.stdin)["summary"]
print(s["allocs"], s["frees"], s["unknown_frees"], s["null_frees"], s["unknown_frees_scope"])'
}
# both NAME WANT ARGS...: text and JSON say WANT ("allocs frees unknown null") and the
# JSON scope is "filter" (or trace with no argument, the whole trace)
both() {
	local name=$1 want=$2 scope=filter
	shift 2
	[ $# = 0 ] && scope=trace
	check "freescope: $name (text)" test "$(nums "$@")" = "$want"
	check "freescope: $name (JSON)" test "$(jnums "$@")" = "$want $scope"
}

# the whole trace: 2 allocs; frees 1 matched + 3 unknown + 2 null
both "no filter" "2 6 3 2"
# tar (100, 101): alloc_a; frees: its own (7000), unknown 3000, null 5000
both "--comm tar" "1 3 1 1" --comm tar
# bash: alloc_b; frees: unknown 4000
both "--comm bash" "1 1 1 0" --comm bash
# pid 101: no allocation; the null free at 5000
both "--pid 101" "0 1 0 1" --pid 101
# the recorder's (trace-cmd's) null free at 6000 and unknown free at 8000 dropped
both "--exclude-self" "2 4 2 1" --exclude-self
# [4000, 6000) from the first event at 1000: unknown 4000, null 5000
both "--since/--until" "0 2 1 1" --since 0.000003 --until 0.000005
# generation 1 (from 4500): null 5000 and 6000, unknown 8000; the free at 7000 is of an
# allocation of generation 0, which the report does not count
both "--generation 1" "0 3 1 2" --generation 1
# --caller cannot select a free kma cannot pair: the whole trace's, not in "frees"
check "freescope: --caller: matched frees only, unknown/null of the whole trace" \
	test "$(nums --caller alloc_a)" = "1 1 3 2"
check "freescope: --caller (JSON): scope trace" \
	test "$(jnums --caller alloc_a)" = "1 1 3 2 trace"
check "freescope: --cache kmalloc-128 --comm bash: the whole trace's" \
	test "$(jnums --cache kmalloc-128 --comm bash)" = "1 0 3 2 trace"
"$KMA" --no-db --caller alloc_a "$S/f.dat" > "$S/caller.txt" 2>&1
check "freescope: --caller: the text says whole trace on both lines" \
	test "$(grep -c '^number of \(unknown\|null\) frees (whole trace): ' "$S/caller.txt")" = 2
check "freescope: --caller: the header says why" \
	grep -q '^# allocations (filter: .*); unknown/null frees (no --caller/--cache applies to them) and lost events are for the whole trace$' "$S/caller.txt"
"$KMA" --no-db --comm tar "$S/f.dat" > "$S/comm.txt" 2>&1
check "freescope: --comm: the header says they follow the task and time" \
	grep -q '; unknown/null frees by the freeing task and time; lost events are for the whole trace$' "$S/comm.txt"
"$KMA" --no-db --outstanding "$S/f.dat" > "$S/out.txt" 2>&1
check "freescope: --outstanding alone: the whole trace's, as the header says" sh -c \
	"grep -q '; unknown/null frees and lost events are for the whole trace\$' '$S/out.txt' &&
	 grep -q '^number of unknown frees: 3\$' '$S/out.txt'"
check "freescope: --comm: no whole-trace label" \
	test "$(grep -c 'whole trace)' "$S/comm.txt")" = 0

# the page's summary: the same numbers, and the label when they are the whole trace's
page_sum() {
	"$KMA" -q --no-db --html "$S/p.html" "$@" "$S/f.dat" > /dev/null 2>&1 &&
		grep -o '"summary":{[^}]*}' "$S/p.html" | python3 -c '
import json, sys
s = json.loads("{" + sys.stdin.read().strip() + "}")["summary"]
print(s["allocs"], s["frees"], s["unknown_frees"], s["null_frees"], s["unknown_frees_scope"])'
}
check "freescope: --html --comm tar" test "$(page_sum --comm tar)" = "1 3 1 1 filter"
check "freescope: --html --caller alloc_a" test "$(page_sum --caller alloc_a)" = "1 1 3 2 trace"
