# Times as trace-cmd prints them: microseconds rounded half up (libtraceevent's
# print_event_time: time += div / 2; time /= div), in every text report and on
# the page; and --since/--until @T take a printed time so that it selects the
# events printed with it. Expected values come from `trace-cmd report` over the
# same file and from the nanoseconds written below.
MKTRACE=$TOP/$B/tests/tools/mktrace
S=$TMP/times
mkdir -p "$S"
# timestamps on both sides of a half microsecond: .9627814 -> .962781, .9627816 and
# .962782499 -> .962782, .9627825 -> .962783
cat > "$S/t.seq" <<'EOF'
cpus 1
kallsyms ffffffff81000000 T _stext
kallsyms ffffffff81100000 t alloc_a
kallsyms ffffffff81100400 t free_x
kallsyms ffffffff81400000 T _etext
cmdline 100 tar
event 0 257962781400 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100001000 bytes_req=50 bytes_alloc=64
marker 0 257962781500 100 kma: second
event 0 257962781600 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100002000 bytes_req=50 bytes_alloc=64
event 0 257962782499 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100003000 bytes_req=50 bytes_alloc=64
event 0 257962782500 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100004000 bytes_req=50 bytes_alloc=64
event 0 257962783999 100 kfree call_site=free_x+0x8 ptr=0xffff888100002000
EOF
"$MKTRACE" -o "$S/t.dat" "$S/t.seq" > "$S/mk.txt" 2>&1 ||
	fail "times: mktrace" "$(cat "$S/mk.txt")"
T=$S/t.dat
if ! command -v trace-cmd > /dev/null; then
	skip "times: against trace-cmd report" "no trace-cmd"
else
	trace-cmd report "$T" 2> /dev/null > "$S/report.txt"
	# "TS PTR" of every kmalloc, and the marker's TS, as trace-cmd prints them
	awk '/ kmalloc: / { sub(":", "", $3); for (i = 4; i <= NF; i++) if ($i ~ /^ptr=/)
		print $3, substr($i, 5) }' "$S/report.txt" > "$S/tc-allocs.txt"
	MARK=$(awk '/ print: .*kma: second/ { sub(":", "", $3); print $3 }' "$S/report.txt")
	check "times: trace-cmd rounds as this test expects" test \
		"$(cut -d' ' -f1 "$S/tc-allocs.txt" | xargs) $MARK" = \
		"257.962781 257.962782 257.962782 257.962783 257.962782"
	"$KMA" --no-db --list "$T" | awk '/^[0-9]+\.[0-9]+s / { print $1, $3 }' | sed 's/s / /' \
		> "$S/kma-allocs.txt"
	check "times: --list times are trace-cmd's" diff "$S/tc-allocs.txt" "$S/kma-allocs.txt"
	check "times: --generations' start is the marker's time in trace-cmd report" test \
		"$("$KMA" --no-db --generations "$T" | awk '$1 == 1 { print $2 }')" = "${MARK}s"
	# --since @MARK --until @(the last kmalloc's time): the events trace-cmd prints from
	# MARK up to, not including, that time
	LAST=$(tail -1 "$S/tc-allocs.txt" | cut -d' ' -f1)
	want=$(awk -v a="$MARK" -v b="$LAST" '$1 >= a && $1 < b { print $2 }' \
		"$S/tc-allocs.txt" | xargs)
	got=$("$KMA" --no-db --list --since "@$MARK" --until "@$LAST" "$T" |
		awk '/^[0-9]+\.[0-9]+s / { print $3 }' | xargs)
	check "times: --since @T --until @U copied from trace-cmd report (want $want)" \
		test "$got" = "$want"
	check "times: that is the two events printed at the marker's time" \
		test "$(echo "$want" | wc -w)" = 2
fi
# nanoseconds given in full are taken as they are: from .962781600 on, three allocations
check "times: --since @T with 9 decimals is exact" test \
	"$("$KMA" --no-db --since @257.962781600 "$T" | sed -n 's/^number of allocs: //p')" = 3
check "times: --since @T with 9 decimals, one ns later" test \
	"$("$KMA" --no-db --since @257.962781601 "$T" | sed -n 's/^number of allocs: //p')" = 2
# a duration rounds too: 257.962783999 - 257.962781600 = 2.399 us -> 0.000002s;
# the peak 257.9627825 -> 257.962783s, 1.1 us into the trace -> 0.000001s
check "times: --peak's time and offset rounded" test \
	"$("$KMA" --no-db --peak "$T" | head -1)" = \
	"peak live bytes: 256 at 257.962783s (0.000001s into the trace)"
check "times: 10 decimals are refused" sh -c \
	"! '$KMA' --no-db --since @257.9627816001 '$T' > /dev/null 2>&1"
# the page's seconds (kma-report-html.js secs()) round the same way
if command -v node > /dev/null; then
	sed -n '/^\tfunction secs(ns) {$/,/^\t}$/p' "$TOP/analyzer/report/kma-report-html.js" \
		> "$S/secs.js"
	echo 'for (const n of [257962781400, 257962781500, 257962782499, 999999500, 0, 499, 500])
		console.log(secs(n));' >> "$S/secs.js"
	check "times: the page's secs() rounds half up" test "$(node "$S/secs.js" | xargs)" = \
		"257.962781 s 257.962782 s 257.962782 s 1.000000 s 0.000000 s 0.000000 s 0.000001 s"
else
	skip "times: the page's secs()" "no node"
fi
