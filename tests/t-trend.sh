# kma-trend (kma-trend(1)) on a private PostgreSQL 15 cluster (tests/lib-pg.sh): runs
# pushed by kma-push from traces written by mktrace whose per-caller numbers are set by
# hand in the table below (growing, flat, jumping, appearing, disappearing keys, the
# jump thresholds' edges, a hostile name), and the series and verdicts in text, CSV,
# JSON and the --html page's DOM compared with what a separate Python model of the
# documented rules makes of that table; the selectors; the run selector unit tests
# against the server; bad input.
TREND=$TOP/$B/analyzer/kma-trend
PUSH=$TOP/$B/analyzer/kma-push
MKTRACE=$TOP/$B/tests/tools/mktrace
. "$TOP/tests/lib-pg.sh"

trend_main() {
	if [ ! -x "$TREND" ] || [ ! -x "$PUSH" ]; then
		fail "trend: kma-trend and kma-push built" "no $TREND or $PUSH"
		return
	fi
	need_mktrace
	[ -x "$MKTRACE" ] || return
	trend_usage
	if ! pg_start; then
		skip "trend: every check on the server" "$PG_WHY"
		return
	fi
	export KMA_ANALYZE=$KMA
	T=$TMP/trend
	mkdir -p "$T"
	trend_unit
	trend_gen || return
	trend_push || return
	trend_outputs
	trend_options
	trend_selectors
	trend_html
	trend_faults
	trend_kinds
	pg_stop
}

# rc2 NAME PATTERN ARGS...: kma-trend ARGS is a usage error (exit 2) saying PATTERN
rc2() {
	local name=$1 pattern=$2 rc
	shift 2
	"$TREND" "$@" > "$TMP/u.out" 2> "$TMP/u.err"
	rc=$?
	if [ $rc = 2 ] && grep -q -- "$pattern" "$TMP/u.err" && [ ! -s "$TMP/u.out" ]; then
		pass "trend: $name"
	else
		fail "trend: $name" "exit $rc: $(cat "$TMP/u.err")"
	fi
}

trend_usage() {
	rc2 "no URL is a usage error" "no URL"
	rc2 "a bad selector is a usage error" "'hots=web1' is not a run selector" x hots=web1
	rc2 "a bad date is a usage error" "'since=2026-02-30' is not" x since=2026-02-30
	rc2 "last=0 is a usage error" "'last=0' is not" x last=0
	rc2 "an unknown key is a usage error" "--key 'task'" -k task x
	rc2 "an unknown metric is a usage error" "--metric 'live'" -m live x
	rc2 "an unknown format is a usage error" "--format 'xml'" -f xml x
	rc2 "a negative --jump-pct is a usage error" "--jump-pct '-1'" --jump-pct -1 x
	rc2 "--jump-min 0 is a usage error" "--jump-min '0'" --jump-min 0 x
	rc2 "--top x is a usage error" "--top 'x'" -n x x
	rc2 "an unknown --kind is a usage error" "--kind 'slub'" --kind slub x
	rc2 "--kind vmalloc -k cache is a usage error naming the key" \
		"--kind vmalloc: no key cache: only the slab allocator has caches" -k cache \
		--kind vmalloc x
	rc2 "--kind page -k cache is a usage error naming the key" \
		"--kind page: no key cache: only the slab allocator has caches" -k cache --kind page x
	"$TREND" --help > "$TMP/help.txt"
	check "trend: --help ends with EXAMPLES" sh -c \
		"awk '/^EXAMPLES\$/ { f = 1 } END { exit !f }' '$TMP/help.txt' &&
		 tail -1 '$TMP/help.txt' | grep -q '^  kma-trend '"
	local missing= o
	for o in $(grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' "$TMP/help.txt" | grep -oE -- '--[a-z-]+'); do
		groff -man -Tascii -P-cbu "$TOP/docs/kma-trend.1" 2> /dev/null | grep -q -- "$o" ||
			missing="$missing $o"
	done
	check "trend: kma-trend(1) has every option of --help" test -z "$missing"
	check "trend: kma-trend(1) renders without warnings" sh -c \
		"groff -man -Tutf8 -ww -z '$TOP/docs/kma-trend.1' 2>&1 | (! grep .)"
}

# The selector unit tests (tests/unit/test-fleet-select) against a database of their own.
trend_unit() {
	pg_q postgres -c 'CREATE DATABASE kma_sel' > /dev/null
	KMA_TEST_PG_URL="host=$PG_SOCK user=kma_admin dbname=kma_sel" \
		"$TOP/$B/tests/unit/test-fleet-select" > "$T/unit.txt" 2>&1
	local rc=$?
	if [ $rc = 0 ] && grep -q 'OK \] test_query' "$T/unit.txt"; then
		pass "trend: run selector unit tests against the server"
	else
		fail "trend: run selector unit tests against the server" "$(tail -8 "$T/unit.txt")"
	fi
}

# The runs, by hand: per run, each caller's live bytes at the end (net; - : no
# allocation of it in that run) and the freed 64-byte allocations beside them.
# Run 5 (job=other) is outside every selection with label:job=nightly.
trend_gen() {
	cat > "$T/spec.py" <<'EOF'
HOSTS = ["web1", "web1", "web2", "web1", "web1"]
KERNELS = ["6.18.0", "6.18.0", "6.19.0", "6.19.0", "6.18.0"]
JOBS = ["nightly", "nightly", "nightly", "nightly", "other"]
EVIL = "ev\"il<script>x'\\"
# caller: ([net per run], freed 64-byte allocations per run)
SPEC = {
    "grow_a":  ([1000, 2000, 3000, 4000, 999999], 1),
    "flat_b":  ([8192, 8192, 8192, 8192, 8192], 0),
    "jump_c":  ([100, 100, 10000, 10000, 1], 0),
    "gone_d":  ([500, 500, None, None, None], 0),
    "new_e":   ([None, None, None, 5000, None], 0),
    "edge_f":  ([10000, 15000, 22499, 22499, None], 0),
    "small_g": ([None, None, 4095, 8190, None], 0),
    EVIL:      ([1, 2, 3, 4, None], 0),
    "freed_h": ([0, 0, 0, 0, None], 2),
}
EOF
	cat > "$T/gen.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from spec import *
out = sys.argv[2]
names = list(SPEC)
for run in range(5):
    L = ["cpus 1", "uname Linux %s %s x86_64" % (HOSTS[run], KERNELS[run]),
         "kallsyms ffffffff81000000 T _stext"]
    for i, n in enumerate(names):
        L.append("kallsyms %x t %s" % (0xffffffff81100000 + i * 0x100, n))
    L += ["kallsyms ffffffff81200000 t free_x", "kallsyms ffffffff81400000 T _etext",
          "cmdline 100 work"]
    ts, ptr = 1000, 0xffff888100000000
    for n in names:
        net, freed = SPEC[n][0][run], SPEC[n][1]
        if net is None:
            continue
        if net:
            L.append("event 0 %d 100 kmalloc call_site=%s+0x10 ptr=0x%x bytes_req=%d bytes_alloc=%d"
                     % (ts, n, ptr, net, net))
            ts += 1000; ptr += 0x100000
        for k in range(freed):
            L.append("event 0 %d 100 kmalloc call_site=%s+0x10 ptr=0x%x bytes_req=64 bytes_alloc=64"
                     % (ts, n, ptr))
            L.append("event 0 %d 100 kfree call_site=free_x+0x8 ptr=0x%x" % (ts + 500, ptr))
            ts += 1000; ptr += 0x100000
    open("%s/run%d.seq" % (out, run + 1), "w").write("\n".join(L) + "\n")
EOF
	python3 "$T/gen.py" "$T" "$T" || { fail "trend: the traces' descriptions" "gen.py"; return 1; }
	local i
	for i in 1 2 3 4 5; do
		if ! "$MKTRACE" -o "$T/run$i.dat" "$T/run$i.seq" > "$T/mk.txt" 2>&1; then
			fail "trend: mktrace run$i" "$(tail -3 "$T/mk.txt")"
			return 1
		fi
	done
	pass "trend: five traces written by mktrace"
}

trend_push() {
	URL=$PG_URL
	"$PUSH" -q --init "$URL" > /dev/null 2> "$T/err" || {
		fail "trend: kma-push --init" "$(cat "$T/err")"; return 1; }
	local i job evil
	evil=$(printf 'v'\''"\\<script>&x')
	RUNS=
	for i in 1 2 3 4 5; do
		job=nightly
		[ $i = 5 ] && job=other
		if ! "$PUSH" -l job=$job -l "ev=$evil" "$URL" "$T/run$i.dat" > "$T/out" 2> "$T/err"; then
			fail "trend: kma-push run$i" "$(cat "$T/err")"
			return 1
		fi
		RUNS="$RUNS $(sed -n 's/.*pushed as run \([0-9]*\) .*/\1/p' "$T/out")"
		sleep 0.01
	done
	set -- $RUNS
	R1=$1 R2=$2 R3=$3 R4=$4 R5=$5
	check "trend: five runs pushed" test $# = 5
}

# model ARGS...: what kma-trend should print, from spec.py and the documented rules
model() {
	python3 "$TOP/tests/tools/trend-model.py" "$T" "$RUNS" "$@"
}

# same NAME WANT GOT: the two files are equal
same() {
	if cmp -s "$2" "$3"; then
		pass "trend: $1"
	else
		fail "trend: $1" "$(diff "$2" "$3" | head -20)"
	fi
}

trend_outputs() {
	local f
	"$TREND" -f csv "$URL" label:job=nightly > "$T/csv" 2> "$T/err"
	model -f csv > "$T/csv.want"
	same "CSV: series, change and verdicts of every caller" "$T/csv.want" "$T/csv"
	# by hand: the verdicts the table above was made for
	check "trend: by hand: grow_a and the hostile name grow, in the order of change" \
		test "$(awk -F, '$(NF-1) == 1 { print $1 }' "$T/csv" | tr '\n' ' ')" = \
		"grow_a+0x10 \"ev\"\"il<script>x'\\+0x10\" "
	check "trend: by hand: jump_c at run 3, new_e at 4, edge_f at 2 (50 % exactly)" \
		test "$(awk -F, 'NR > 1 && $NF != "" { print $1 "@" $NF }' "$T/csv" | sort | tr '\n' ' ')" = \
		"edge_f+0x10@$R2 jump_c+0x10@$R3 new_e+0x10@$R4 "
	check "trend: by hand: gone_d absent in runs 3 and 4, change -500" \
		grep -qx "gone_d+0x10,500,500,,,-500,0," "$T/csv"
	"$TREND" -f json "$URL" label:job=nightly > "$T/json" 2> "$T/err"
	model -f json > "$T/json.want"
	check "trend: JSON: runs, series and verdicts" python3 -c "
import json, re, sys
got = json.load(open('$T/json')); want = json.load(open('$T/json.want'))
# the push times: UTC, in push order; then compared without them
at = [r.pop('pushed_at') for r in got['runs']]
if sorted(at) != at or not all(re.fullmatch(r'\d{4}-\d\d-\d\d \d\d:\d\d:\d\d', t) for t in at):
    print(at); sys.exit(1)
if got != want:
    print(json.dumps(got)[:600]); print(json.dumps(want)[:600]); sys.exit(1)"
	"$TREND" "$URL" label:job=nightly > "$T/text" 2> "$T/err"
	model -f text > "$T/text.want"
	# the rows of the key table: from the header line "caller  run N..." on
	awk '/^caller / { f = 1 } f' "$T/text" > "$T/text.rows"
	same "text: the key table" "$T/text.want" "$T/text.rows"
	check "trend: text: the runs table names hosts, kernels and labels" grep -qE \
		"^$R3 +[0-9-]+ [0-9:]+  web2  6\.19\.0  ev=v'\"\\\\<script>&x job=nightly\$" "$T/text"
	for f in total allocs; do
		"$TREND" -m $f -f csv "$URL" label:job=nightly > "$T/csv.$f"
		model -m $f -f csv > "$T/csv.$f.want"
		same "CSV -m $f" "$T/csv.$f.want" "$T/csv.$f"
	done
	for f in function stack; do
		"$TREND" -k $f -f csv "$URL" label:job=nightly > "$T/csv.$f"
		model -k $f -f csv > "$T/csv.$f.want"
		same "CSV -k $f" "$T/csv.$f.want" "$T/csv.$f"
	done
	# caches: per run, their net bytes add up to the callers' (kma names the caches)
	"$TREND" -k cache -f csv "$URL" label:job=nightly > "$T/csv.cache"
	check "trend: -k cache: per run the caches' net adds up to the callers'" python3 -c "
import csv, sys
def sums(p):
    rows = list(csv.reader(open(p)))
    return rows[0][1:5], [sum(int(r[i] or 0) for r in rows[1:]) for i in range(1, 5)]
c, k = sums('$T/csv'), sums('$T/csv.cache')
want = [1000 + 8192 + 100 + 500 + 10000 + 1, 2000 + 8192 + 100 + 500 + 15000 + 2,
        3000 + 8192 + 10000 + 22499 + 4095 + 3, 4000 + 8192 + 10000 + 5000 + 22499 + 8190 + 4]
sys.exit(not (c == k and c[1] == want and len(open('$T/csv.cache').readlines()) > 3))"
}

trend_options() {
	"$TREND" -f csv --jump-pct 100 --jump-min 1 "$URL" label:job=nightly > "$T/o1"
	model -f csv --jump-pct 100 --jump-min 1 > "$T/o1.want"
	same "--jump-pct 100 --jump-min 1" "$T/o1.want" "$T/o1"
	check "trend: by hand: with them grow_a jumps at run 2 only (+100 %), not 3 (+50 %)" \
		grep -q "^grow_a+0x10,1000,2000,3000,4000,3000,1,$R2\$" "$T/o1"
	"$TREND" -f csv --jump-pct 0 --jump-min 4095 "$URL" label:job=nightly > "$T/o2"
	model -f csv --jump-pct 0 --jump-min 4095 > "$T/o2.want"
	same "--jump-pct 0 --jump-min 4095 (small_g's rises of 4095)" "$T/o2.want" "$T/o2"
	check "trend: by hand: small_g jumps at runs 3 and 4 with --jump-min 4095" \
		grep -q "^small_g+0x10,,,4095,8190,8190,0,$R3 $R4\$" "$T/o2"
	"$TREND" -f csv --flagged -n 3 "$URL" label:job=nightly > "$T/o3"
	model -f csv --flagged -n 3 > "$T/o3.want"
	same "--flagged -n 3" "$T/o3.want" "$T/o3"
}

# sel NAME WANT-RUNS SELECTORS...: kma-trend selects exactly those runs, in that order
sel() {
	local name=$1 want=$2 got
	shift 2
	got=$("$TREND" -f csv "$URL" "$@" 2> "$T/err" | head -1 | tr ',' '\n' |
		sed -n 's/^run_//p' | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		pass "trend: selectors $name"
	else
		fail "trend: selectors $name" "got '$got' want '$want' $(cat "$T/err")"
	fi
}

trend_selectors() {
	local today yesterday
	today=$(date -u +%F)
	yesterday=$(date -u -d yesterday +%F)
	sel "none: every run, oldest first" "$R1 $R2 $R3 $R4 $R5 "
	sel "host=web1" "$R1 $R2 $R4 $R5 " host=web1
	sel "kernel=6.19.0" "$R3 $R4 " kernel=6.19.0
	sel "label:job=nightly last=2" "$R3 $R4 " label:job=nightly last=2
	sel "latest" "$R5 " latest
	sel "run=R4,R1 (time order)" "$R1 $R4 " run=$R4,$R1
	sel "host=web1 kernel=6.18.0 label:job=nightly" "$R1 $R2 " host=web1 kernel=6.18.0 \
		label:job=nightly
	sel "a hostile label value" "$R1 $R2 $R3 $R4 $R5 " "label:ev=$(printf 'v'\''"\\<script>&x')"
	sel "since=today" "$R1 $R2 $R3 $R4 $R5 " since=$today
	sel "until=today" "$R1 $R2 $R3 $R4 $R5 " until=$today
	"$TREND" "$URL" until=$yesterday > "$T/out" 2> "$T/err"
	local rc=$?
	check "trend: an empty selection: one line, exit 1" sh -c \
		"[ $rc = 1 ] && [ \$(wc -l < '$T/err') = 1 ] && grep -q 'no run matches the selectors' '$T/err' &&
		 grep -qF '$PG_SOCK' '$T/err' && [ ! -s '$T/out' ]"
	"$TREND" "$URL" run=999999 > "$T/out" 2> "$T/err"
	rc=$?
	check "trend: no such run: one line naming it, exit 1" sh -c \
		"[ $rc = 1 ] && [ \$(wc -l < '$T/err') = 1 ] && grep -q 'no run 999999' '$T/err'"
	"$TREND" "$URL" run=$R1 > "$T/out" 2> "$T/err"
	check "trend: one run: its series, no verdict" sh -c \
		"[ \$(grep -c 'grows\\|jumped at' '$T/out') = 0 ] && grep -q '^flat_b+0x10  *8192  *+0 *\$' '$T/out'"
}

trend_html() {
	local page=$T/trend.html
	"$TREND" --html "$page" -f csv "$URL" label:job=nightly > "$T/h.csv" 2> "$T/err"
	check "trend: --html: the report on stdout as without it" cmp -s "$T/h.csv" "$T/csv"
	check "trend: --html: no temporary left" sh -c "! ls '$T'/trend.html.tmp-* 2> /dev/null"
	check "trend: --html: Chart.js inlined, no external resource" sh -c \
		"grep -q 'Chart.js v' '$page' && ! grep -qiE '<script[^>]* src=|<link ' '$page'"
	if [ -z "$CHROMIUM" ]; then
		skip "trend: --html DOM" "no chromium"
	elif dump_dom "$page" > "$T/dom.html" 2> /dev/null && [ -s "$T/dom.html" ]; then
		model -f dom > "$T/dom.want"
		python3 "$TOP/tests/tools/trend-model.py" --read-dom "$T/dom.html" > "$T/dom.got"
		same "--html DOM: the key table as the model has it" "$T/dom.want" "$T/dom.got"
		check "trend: --html DOM: drawn without a script error, a series per key" python3 -c "
import sys
d = open('$T/dom.html').read()
sys.exit(not ('data-kma-ready=\"1\"' in d and 'data-kma-error=\"' not in d and 'id=\"kma-errors\"' not in d and
              'data-series=\"9\"' in d))"
		# the page's own four scripts, no other; the label as text
		check "trend: --html DOM: hostile names stay text" python3 -c "
import sys
d = open('$T/dom.html').read()
sys.exit(not (d.count('<script') == 4 and d.count('ev=v\'\"\\\\&lt;script&gt;&amp;x job=nightly') == 4
              and d.count('ev\"il&lt;script&gt;x\'\\\\+0x10') == 1))"
	else
		fail "trend: --html DOM" "chromium: $(tail -3 "$TMP/chr.err" 2>/dev/null)"
	fi
	echo "not a page" > "$T/foreign.html"
	"$TREND" --html "$T/foreign.html" "$URL" > /dev/null 2> "$T/err"
	local rc=$?
	check "trend: --html does not replace a file kma did not write" sh -c \
		"[ $rc = 1 ] && grep -q 'foreign.html: not' '$T/err' && grep -qx 'not a page' '$T/foreign.html'"
	"$TREND" --html "$T/foreign.html" --force "$URL" > /dev/null 2> "$T/err"
	check "trend: --html --force replaces it" grep -q 'kma-trend' "$T/foreign.html"
	"$TREND" --html "$page" "$URL" latest > /dev/null 2> "$T/err"
	check "trend: --html replaces its own page" sh -c "[ \$? = 0 ] && grep -q '\"run\":$R5' '$page'"
}

trend_faults() {
	local rc
	"$TREND" "host=$T/nosuchdir user=kma_admin dbname=kma" > "$T/out" 2> "$T/err"
	rc=$?
	check "trend: server down: one line naming it, exit 1" sh -c \
		"[ $rc = 1 ] && [ \$(wc -l < '$T/err') = 1 ] && grep -qF '$T/nosuchdir' '$T/err' && [ ! -s '$T/out' ]"
	"$TREND" "host=$PG_SOCK user=kma_admin dbname=postgres" > "$T/out" 2> "$T/err"
	rc=$?
	check "trend: a database without the fleet schema: one line, exit 1" sh -c \
		"[ $rc = 1 ] && [ \$(wc -l < '$T/err') = 1 ] && grep -q 'not a kma fleet store' '$T/err'"
	"$TREND" --html /nonexistent-dir/x.html "$URL" > "$T/out" 2> "$T/err"
	rc=$?
	check "trend: an --html FILE that cannot be written: one line, exit 1" sh -c \
		"[ $rc = 1 ] && [ \$(wc -l < '$T/err') = 1 ] && grep -q '/nonexistent-dir/x.html' '$T/err'"
}

# kseq N: run N (1 to 3) of the allocators beside slab, worked by hand below
kseq() {
	cat <<'EOF'
cpus 2
kallsyms ffffffff81000000 T _stext
kallsyms ffffffff81100000 t alloc_a
kallsyms ffffffff81180000 t trace_event_raw_event_alloc_vmap_area
kallsyms ffffffff81190000 t trace_event_raw_event_percpu_alloc_percpu
kallsyms ffffffff81200000 t alloc_vmap_area
kallsyms ffffffff81200400 t __get_vm_area_node
kallsyms ffffffff81200800 T __vmalloc_node_range_noprof
kallsyms ffffffff81200c00 T __vmalloc_node_noprof
kallsyms ffffffff81280000 T pcpu_alloc_noprof
kallsyms ffffffff81300000 T bpf_map_area_alloc
kallsyms ffffffff81300800 T mem_cgroup_css_alloc
kallsyms ffffffff81300c00 T alloc_netdev_mqs
kallsyms ffffffff81380000 T entry_SYSCALL_64
kallsyms ffffffff81400000 T _etext
cmdline 100 bash
event 0 500 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100100000 bytes_req=40 bytes_alloc=64
EOF
	case $1 in
	1) cat <<'EOF'
event 0 1000 100 percpu_alloc_percpu call_site=mem_cgroup_css_alloc+0x20 size=16 bytes_alloc=96 ptr=0x1000
event 0 2000 100 percpu_alloc_percpu call_site=alloc_netdev_mqs+0x40 size=8 bytes_alloc=32 ptr=0x2000
event 0 3000 100 percpu_free_percpu ptr=0x2000
event 0 4000 100 alloc_vmap_area addr=0xffffc90000100000 size=16384 align=4096
event 0 5000 100 mm_page_alloc pfn=0x1000 order=0 gfp_flags=GFP_KERNEL migratetype=0
EOF
	;;
	2) cat <<'EOF'
event 0 1000 100 percpu_alloc_percpu call_site=mem_cgroup_css_alloc+0x20 size=16 bytes_alloc=96 ptr=0x1000
event 0 1100 100 percpu_alloc_percpu call_site=mem_cgroup_css_alloc+0x20 size=16 bytes_alloc=96 ptr=0x1100
event 0 2000 100 percpu_alloc_percpu call_site=alloc_netdev_mqs+0x40 size=8 bytes_alloc=32 ptr=0x2000
event 0 4000 100 alloc_vmap_area addr=0xffffc90000100000 size=16384 align=4096
event 0 4500 100 alloc_vmap_area addr=0xffffc90000200000 size=8192 align=4096
stack 0 4500 100 trace_event_raw_event_alloc_vmap_area+0x10 alloc_vmap_area+0x20 __get_vm_area_node+0x30 __vmalloc_node_range_noprof+0x40 __vmalloc_node_noprof+0x50 bpf_map_area_alloc+0x60 entry_SYSCALL_64+0x70
event 0 4700 100 free_vmap_area_noflush va_start=0xffffc90000200000 nr_lazy=4 nr_lazy_max=32768
event 0 5000 100 mm_page_alloc pfn=0x1000 order=1 gfp_flags=GFP_KERNEL migratetype=0
EOF
	;;
	3) cat <<'EOF'
event 0 1000 100 percpu_alloc_percpu call_site=mem_cgroup_css_alloc+0x20 size=16 bytes_alloc=96 ptr=0x1000
event 0 1100 100 percpu_alloc_percpu call_site=mem_cgroup_css_alloc+0x20 size=16 bytes_alloc=96 ptr=0x1100
event 0 1200 100 percpu_alloc_percpu call_site=mem_cgroup_css_alloc+0x20 size=16 bytes_alloc=96 ptr=0x1200
stack 0 1200 100 trace_event_raw_event_percpu_alloc_percpu+0x10 pcpu_alloc_noprof+0x20 mem_cgroup_css_alloc+0x20 entry_SYSCALL_64+0x30
event 0 2000 100 percpu_alloc_percpu call_site=alloc_netdev_mqs+0x80 size=16 bytes_alloc=64 ptr=0x2000
event 0 4000 100 alloc_vmap_area addr=0xffffc90000100000 size=65536 align=4096
event 0 5000 100 mm_page_alloc pfn=0x1000 order=2 gfp_flags=GFP_KERNEL migratetype=0
EOF
	;;
	esac
}

# kwant NAME ARGS...: kma-trend -f csv ARGS over the three kinds runs prints the CSV on
# stdin (run_A, run_B, run_C: the runs' columns; @B, @C: the runs jumped at)
kwant() {
	local name=$1
	shift
	sed "s/run_A/run_$K1/; s/run_B/run_$K2/; s/run_C/run_$K3/; s/@B/$K2/; s/@C/$K3/" \
		> "$T/k.want"
	"$TREND" -f csv "$@" "$URL" label:job=kinds > "$T/k.got" 2> "$T/err"
	same "$name" "$T/k.want" "$T/k.got"
}

# The allocators beside slab: three runs whose per-caller numbers kseq sets: percpu
# mem_cgroup_css_alloc+0x20 1, 2, 3 live allocations of 96 bytes; alloc_netdev_mqs+0x40
# 32 bytes freed, then live, then gone, +0x80 64 bytes live in run 3; vmalloc without a
# stack ([no stack]) 16384, 16384, 65536 live, bpf_map_area_alloc+0x60 (the stack frame
# outside vmalloc, offset kept as report.db keeps it) 8192 freed in run 2;
# pages (4096 bytes, no stack) of order 0, 1, 2 live. Per stack (the tracing frame
# dropped, outermost first): percpu's third mem_cgroup_css_alloc allocation of run 3 has
# one, vmalloc's bpf_map_area_alloc one, the rest none. The series, changes, growth and
# jumps (at least 4096 and 50 %) below are worked from that by hand.
trend_kinds() {
	local i K
	K=
	for i in 1 2 3; do
		kseq $i > "$T/k$i.seq"
		"$MKTRACE" -o "$T/k$i.dat" "$T/k$i.seq" > "$T/mk.txt" 2>&1 &&
		"$KMA" -q --pages -o "$T/k$i.db" "$T/k$i.dat" 2> "$T/err" &&
		"$PUSH" -l job=kinds "$URL" "$T/k$i.db" > "$T/out" 2>> "$T/err" || {
			fail "trend: kinds run $i written, analyzed, pushed" "$(cat "$T/mk.txt" "$T/err")"
			return
		}
		K="$K $(sed -n 's/.*pushed as run \([0-9]*\) .*/\1/p' "$T/out")"
	done
	set -- $K
	K1=$1 K2=$2 K3=$3
	kwant "--kind percpu: the callers' net series, by hand" --kind percpu <<'EOF'
caller,run_A,run_B,run_C,change,grows,jumped_at
mem_cgroup_css_alloc+0x20,96,192,288,192,1,
alloc_netdev_mqs+0x80,,,64,64,0,
alloc_netdev_mqs+0x40,0,32,,0,0,
EOF
	kwant "--kind percpu -k function: offsets summed, by hand" --kind percpu -k function <<'EOF'
function,run_A,run_B,run_C,change,grows,jumped_at
mem_cgroup_css_alloc,96,192,288,192,1,
alloc_netdev_mqs,0,32,64,64,1,
EOF
	kwant "--kind percpu -m total, by hand" --kind percpu -m total <<'EOF'
caller,run_A,run_B,run_C,change,grows,jumped_at
mem_cgroup_css_alloc+0x20,96,192,288,192,1,
alloc_netdev_mqs+0x80,,,64,64,0,
alloc_netdev_mqs+0x40,32,32,,-32,0,
EOF
	kwant "--kind percpu -m allocs, by hand" --kind percpu -m allocs <<'EOF'
caller,run_A,run_B,run_C,change,grows,jumped_at
mem_cgroup_css_alloc+0x20,1,2,3,2,1,
alloc_netdev_mqs+0x80,,,1,1,0,
alloc_netdev_mqs+0x40,1,1,,-1,0,
EOF
	kwant "--kind vmalloc: a jump at run 3, by hand" --kind vmalloc <<'EOF'
caller,run_A,run_B,run_C,change,grows,jumped_at
[no stack],16384,16384,65536,49152,0,@C
bpf_map_area_alloc+0x60,,0,,0,0,
EOF
	kwant "--kind vmalloc -m total, by hand" --kind vmalloc -m total <<'EOF'
caller,run_A,run_B,run_C,change,grows,jumped_at
[no stack],16384,16384,65536,49152,0,@C
bpf_map_area_alloc+0x60,,8192,,0,0,@B
EOF
	kwant "--kind page -k function: grows, jumps at runs 2 and 3, by hand" --kind page \
		-k function <<'EOF'
function,run_A,run_B,run_C,change,grows,jumped_at
[no stack],4096,8192,16384,12288,1,@B @C
EOF
	kwant "--kind percpu -k stack: grows without a stack, a stack new in run 3, by hand" \
		--kind percpu -k stack <<'EOF'
stack,run_A,run_B,run_C,change,grows,jumped_at
[no stack],96,224,256,160,1,
entry_SYSCALL_64;mem_cgroup_css_alloc;pcpu_alloc_noprof,,,96,96,0,
EOF
	kwant "--kind percpu -k stack -m allocs, by hand" --kind percpu -k stack -m allocs <<'EOF'
stack,run_A,run_B,run_C,change,grows,jumped_at
[no stack],2,3,3,1,0,
entry_SYSCALL_64;mem_cgroup_css_alloc;pcpu_alloc_noprof,,,1,1,0,
EOF
	kwant "--kind vmalloc -k stack: a jump at run 3, by hand" --kind vmalloc -k stack <<'EOF'
stack,run_A,run_B,run_C,change,grows,jumped_at
[no stack],16384,16384,65536,49152,0,@C
entry_SYSCALL_64;bpf_map_area_alloc;__vmalloc_node_noprof;__vmalloc_node_range_noprof;__get_vm_area_node;alloc_vmap_area,,0,,0,0,
EOF
	kwant "--kind vmalloc -k stack -m total, by hand" --kind vmalloc -k stack -m total <<'EOF'
stack,run_A,run_B,run_C,change,grows,jumped_at
[no stack],16384,16384,65536,49152,0,@C
entry_SYSCALL_64;bpf_map_area_alloc;__vmalloc_node_noprof;__vmalloc_node_range_noprof;__get_vm_area_node;alloc_vmap_area,,8192,,0,0,@B
EOF
	kwant "--kind page -k stack: no stacks, by hand" --kind page -k stack <<'EOF'
stack,run_A,run_B,run_C,change,grows,jumped_at
[no stack],4096,8192,16384,12288,1,@B @C
EOF
	trend_kind_old
	kwant "--kind slab: the slab callers, as without --kind" --kind slab <<'EOF'
caller,run_A,run_B,run_C,change,grows,jumped_at
alloc_a+0x10,64,64,64,0,0,
EOF
	"$TREND" -f json --kind vmalloc "$URL" label:job=kinds > "$T/k.json" 2> "$T/err"
	check "trend: --kind vmalloc -f json: the kind and the series, by hand" python3 -c "
import json, sys
d = json.load(open('$T/k.json'))
sys.exit(not (d['kind'] == 'vmalloc' and d['key'] == 'caller' and
              [(k['name'], k['values'], k['jumped_at']) for k in d['keys']] ==
              [('[no stack]', [16384, 16384, 65536], [$K3]), ('bpf_map_area_alloc+0x60', [None, 0, None], [])]))"
	"$TREND" --kind percpu --html "$T/k.html" "$URL" label:job=kinds > "$T/k.txt" 2> "$T/err"
	check "trend: --kind percpu text: the kind in the header, a row by hand" sh -c "
		grep -q '^kma-trend: 3 runs (.*), key caller, kind percpu, net bytes;' '$T/k.txt' &&
		grep -qE '^mem_cgroup_css_alloc\\+0x20 +96 +192 +288 +\\+192  grows\$' '$T/k.txt'"
	check "trend: --kind percpu --html: the page's data name the kind" \
		grep -q '"kind":"percpu"' "$T/k.html"
}

# A run pushed before schema version 4 (an upgraded store: no kind_stacks partition of
# it): -k stack of a kind refused in one line naming the run, not read as zeros.
trend_kind_old() {
	local id rc

	cp "$T/k1.db" "$T/kold.db"
	sqlite3 "$T/kold.db" "UPDATE trace SET file = 'old'"
	"$PUSH" -l job=kinds-old "$URL" "$T/kold.db" > "$T/out" 2> "$T/err" ||
		{ fail "trend: the old kinds run pushed" "$(cat "$T/err")"; return; }
	id=$(sed -n 's/.*pushed as run \([0-9]*\) .*/\1/p' "$T/out")
	psql -X -q "$URL" -c "DROP TABLE kma_fleet.kind_stacks_r$id" > /dev/null
	"$TREND" --kind vmalloc -k stack "$URL" label:job=kinds-old > "$T/out" 2> "$T/err"
	rc=$?
	check "trend: --kind vmalloc -k stack of a run pushed before version 4: one line, exit 1" \
		sh -c "[ $rc = 1 ] && [ \$(wc -l < '$T/err') = 1 ] && [ ! -s '$T/out' ] &&
		grep -q 'run $id was pushed by a kma-push before fleet schema version 4' '$T/err'"
}

trend_main
