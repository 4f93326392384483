# The slack% column (perf kmem's Frag: 100 - 100 * bytes_req / bytes_alloc of a row,
# here 100 * slack / total, 3 decimals rounded half up) and the slab groupings
# -g gfp and -g accounted: on a hand-built sequence rendered for kernels before and
# after the accounted field (numbers worked out below), and on the real fixture
# against a script over `trace-cmd report`.
MKTRACE=$TOP/$B/tests/tools/mktrace
S=$TMP/slackg
mkdir -p "$S"
cat > "$S/a.seq" <<'EOF'
cpus 1
kallsyms ffffffff81000000 T _stext
kallsyms ffffffff81100000 t alloc_a
kallsyms ffffffff81100100 t alloc_b
kallsyms ffffffff81100200 t alloc_c
kallsyms ffffffff81100400 t free_x
kallsyms ffffffff81400000 T _etext
cmdline 100 tar
event 0 1000 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100001000 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL|__GFP_ACCOUNT
event 0 2000 100 kmalloc call_site=alloc_a+0x10 ptr=0xffff888100002000 bytes_req=10 bytes_alloc=16 gfp_flags=GFP_KERNEL
event 0 3000 100 kmem_cache_alloc call_site=alloc_b+0x20 ptr=0xffff888100003000 bytes_req=184 bytes_alloc=192 name=filp gfp_flags=GFP_KERNEL accounted=1
event 0 4000 100 kmem_cache_alloc call_site=alloc_b+0x20 ptr=0xffff888100004000 bytes_req=200 bytes_alloc=256 name=dentry gfp_flags=GFP_KERNEL accounted=0
event 0 5000 100 kmem_cache_alloc call_site=alloc_c+0x30 ptr=0xffff888100005000 bytes_req=7999 bytes_alloc=8000 name=big gfp_flags=GFP_KERNEL accounted=0
event 0 6000 100 kfree call_site=free_x+0x8 ptr=0xffff888100002000
EOF
# rows: "total slack slack% net allocs frees name" of the text table, sorted by name
rows() {
	"$KMA" --no-db -s caller "$@" | sed -n '/alloc\/free/,$p' | tail -n +2 |
		awk '{ split($5, af, "/"); name = $6; for (i = 7; i <= NF; i++) name = name " " $i
		       print $1, $2, $3, $4, af[1], af[2], name }' | sort -k7 | paste -sd ';'
}
# callers: alloc_a 128+16 = 144, slack 28+6 = 34: 23.611; alloc_b 192+256 = 448, slack
# 8+56 = 64: 14.286; alloc_c 8000, slack 1: 0.0125 rounds half up to 0.013
CALLERS="144 34 23.611 128 2 1 alloc_a+0x10;448 64 14.286 448 2 0 alloc_b+0x20;8000 1 0.013 8000 1 0 alloc_c+0x30"
# 6.0 on, what the events print as accounted=: kmalloc from __GFP_ACCOUNT, the caches'
# field; accounted: 128 (slack 28) + filp 192 (8) = 320, 36: 11.250;
# not: 16 (6, freed) + dentry 256 (56) + big 8000 (1) = 8272, 63: 0.762, net 8256
ACC="320 36 11.250 320 2 0 accounted;8272 63 0.762 8256 3 1 not accounted"
# before 6.0 only __GFP_ACCOUNT: 128 (28): 21.875; the rest 8464, 71: 0.839, net 8448
GFPACC="128 28 21.875 128 1 0 __GFP_ACCOUNT;8464 71 0.839 8448 4 1 no __GFP_ACCOUNT"
for gen in 5.10 6.0 6.1 6.18; do
	"$MKTRACE" -g $gen -o "$S/a-$gen.dat" "$S/a.seq" > "$S/mk.txt" 2>&1 ||
		fail "slack: mktrace -g $gen" "$(cat "$S/mk.txt")"
	check "slack: slack% per caller ($gen)" test "$(rows "$S/a-$gen.dat")" = "$CALLERS"
	want=$ACC
	[ $gen = 5.10 ] && want=$GFPACC
	check "slack: -g accounted ($gen)" test "$(rows -g accounted "$S/a-$gen.dat")" = "$want"
done
# CSV and JSON: slack_pct after slack, a number
check "slack: CSV slack_pct" test \
	"$("$KMA" --no-db -f csv -g accounted "$S/a-6.18.dat" | cut -d, -f1-4 | paste -sd ';')" = \
	"accounted,total,slack,slack_pct;not accounted,8272,63,0.762;accounted,320,36,11.250"
check "slack: JSON slack_pct is a number" test "$("$KMA" --no-db -f json "$S/a-6.18.dat" |
	python3 -c 'import json, sys
print(" ".join(repr(r["slack_pct"]) for r in sorted(json.load(sys.stdin)["rows"], key=lambda r: r["caller"])))')" = \
	"23.611 14.286 0.013"

# The fixture against trace-cmd report: per call site and per gfp_flags text, the
# bytes and perf kmem's Frag from bytes_req and bytes_alloc; per accounted= value
F=$TOP/tests/fixtures/basic.dat
if ! command -v trace-cmd > /dev/null; then
	skip "slack: against trace-cmd report" "no trace-cmd"
else
	trace-cmd report "$F" 2> /dev/null > "$S/report.txt"
	# KEY: call_site, gfp_flags or accounted; "name total frag allocs" sorted by name
	tc_rows() {
		python3 - "$S/report.txt" "$1" <<'PY'
import re, sys
from fractions import Fraction
key = sys.argv[2]
tot, req, n = {}, {}, {}
for line in open(sys.argv[1]):
    m = re.search(r' (kmalloc|kmem_cache_alloc|kmalloc_node|kmem_cache_alloc_node): ', line)
    if not m:
        continue
    f = dict(x.split('=', 1) for x in line[m.end():].split() if '=' in x)
    if int(f['ptr'], 16) == 0:
        continue          # a failed allocation is no allocation
    k = f[key]
    tot[k] = tot.get(k, 0) + int(f['bytes_alloc'])
    req[k] = req.get(k, 0) + int(f['bytes_req'])
    n[k] = n.get(k, 0) + 1
for k in sorted(tot):
    # perf kmem's fragmentation(), exactly, rounded half up to 3 decimals
    frag = 100 - Fraction(100 * req[k], tot[k])
    m = int(frag * 1000 * 2 + 1) // 2
    print('%s %d %d.%03d %d' % (k, tot[k], m // 1000, m % 1000, n[k]))
PY
	}
	# kma's "name total slack% allocs", sorted by name
	kma_rows() {
		"$KMA" --no-db -f csv "$@" "$F" | python3 -c '
import csv, sys
r = list(csv.DictReader(sys.stdin))
key = list(r[0].keys())[0]
for x in sorted(r, key=lambda x: x[key]):
    print(x[key], x["total"], x["slack_pct"], x["allocs"])'
	}
	tc_rows call_site > "$S/tc-callers.txt"
	# kma's caller rows are per address; the fixture has one address per name
	check "slack: slack% per caller = perf kmem's Frag over trace-cmd report" \
		diff "$S/tc-callers.txt" <(kma_rows)
	check "slack: the fixture has callers with slack" \
		test "$(awk '$3 != "0.000"' "$S/tc-callers.txt" | wc -l)" -gt 5
	tc_rows gfp_flags > "$S/tc-gfp.txt"
	check "slack: -g gfp = trace-cmd report's gfp_flags" diff "$S/tc-gfp.txt" <(kma_rows -g gfp)
	tc_rows accounted | sed 's/^true/accounted/; s/^false/not accounted/' | sort > "$S/tc-acc.txt"
	check "slack: -g accounted = trace-cmd report's accounted=" \
		diff "$S/tc-acc.txt" <(kma_rows -g accounted | sort)
fi
check "slack: --pages -g accounted is refused" sh -c \
	"'$KMA' --no-db --pages -g accounted '$F' > /dev/null 2>&1; test \$? = 2"
check "slack: kma-diff refuses -g gfp" sh -c \
	"'$TOP/$B/analyzer/kma-diff' -g gfp a.db b.db > /dev/null 2>&1; test \$? = 2"
