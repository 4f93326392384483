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

trend_main
