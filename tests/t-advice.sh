# --advice: dedicated-cache suggestions per caller and range of kmalloc request sizes,
# ranked by the bytes saved at the peak. Numbers are checked against report.db's
# allocations by tests/tools/advice-from-db.py (brute force over every partition of a
# caller's sizes), and one small sequence is worked out by hand below.
ADV=$TOP/tests/tools/advice-from-db.py
MK=$TOP/$B/tests/tools/mktrace

# against report.db: the fixtures, and a random trace of callers with many sizes
advice_ok() {	# NAME TRACE
	if "$KMA" -q -o "$TMP/a.db" "$2" 2> "$TMP/err.txt" &&
	   "$KMA" --no-db -f csv --advice "$2" > "$TMP/a.csv" 2>> "$TMP/err.txt"; then
		check "--advice $1: rows = best partition from report.db" \
			python3 "$ADV" "$TMP/a.db" "$TMP/a.csv"
	else
		fail "--advice $1" "$(cat "$TMP/err.txt")"
	fi
}
for f in markers stacks basic modules; do
	[ -f "$TOP/tests/fixtures/$f.dat" ] && advice_ok "$f.dat" "$TOP/tests/fixtures/$f.dat"
done
python3 - > "$TMP/rand.seq" <<'PY'
import random
rnd = random.Random(14)
print("cpus 2\nkallsyms ffffffff81000000 T _stext")
for i in range(6):
    print("kallsyms %x t site_%d" % (0xffffffff81100000 + i * 0x100, i))
print("kallsyms ffffffff81400000 T _etext\ncmdline 100 task")
classes = [8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192]
live, ts, ptr = [], 1000, 0xffff888100000000
for n in range(3000):
    ts += rnd.randint(1, 50)
    if live and rnd.random() < 0.45:
        p = live.pop(rnd.randrange(len(live)))
        print("event %d %d 100 kfree call_site=site_5+0x8 ptr=0x%x" % (rnd.randrange(2), ts, p))
        continue
    site = rnd.randrange(5)
    # each site draws from its own few request sizes, some spread, some close together
    req = rnd.choice([[40, 50, 60, 69, 70], [100, 120, 130, 200], [8, 24, 33],
                      [600, 640, 700, 1000, 1100, 3000], [72]][site])
    ptr += 0x1000
    live.append(ptr)
    print("event %d %d 100 kmalloc call_site=site_%d+0x%x ptr=0x%x bytes_req=%d bytes_alloc=%d"
          % (rnd.randrange(2), ts, site, 0x10, ptr, req, next(c for c in classes if c >= req)))
PY
if "$MK" -g 6.18 -o "$TMP/rand.dat" "$TMP/rand.seq" 2> "$TMP/err.txt"; then
	advice_ok "random sizes" "$TMP/rand.dat"
	"$KMA" --no-db --advice "$TMP/rand.dat" > "$TMP/rand.txt"
	check "--advice text: every line fits 100 columns" \
		awk 'length($0) > 100 { print; bad = 1 } END { exit bad }' "$TMP/rand.txt"
	"$KMA" --no-db -f json --advice "$TMP/rand.dat" > "$TMP/rand.json"
	check "--advice -f json: the CSV's rows" python3 -c "
import csv, json
js = json.load(open('$TMP/rand.json'))
assert js['report'] == 'advice', js['report']
cs = list(csv.DictReader(open('$TMP/a.csv')))
assert [{k: str(v) for k, v in r.items()} for r in js['rows']] == cs, (js['rows'][:2], cs[:2])"
else
	fail "--advice random sizes: mktrace" "$(cat "$TMP/err.txt")"
fi

# By hand. alloc_name kmallocs 50 (kmalloc-64), 60 (kmalloc-64), 69 twice (kmalloc-96)
# and 8 (kmalloc-8); all five are live at the peak (1400, 328 bytes), the first is freed
# at 2000. Per allocation a cache of object size D saves bytes_alloc - D:
#   [50..69] D=72: 2*(64-72) + 2*(96-72) = 32 at the peak; over the trace the same
#   [50] D=56: 64-56 = 8 (peak 8, trace 8); [60] D=64: 0, no advice; [69] D=72: 2*24 = 48
#   [60..69] D=72: -8 + 48 = 40; [50..60] D=64: 0; [8]: 8-8 = 0, no advice
# best: [50] + [69] = 56 > [50] + [60..69] = 48 > [50..69] = 32. Ranked by the peak:
#   69-69: 48 48, dedicated 72, 2 allocs, 2 live at the peak and at the end
#   50-50:  8  8, dedicated 56, 1 alloc, live at the peak, freed at the end
cat > "$TMP/hand.seq" <<'SEQ'
cpus 1
kallsyms ffffffff81000000 T _stext
kallsyms ffffffff81100000 t alloc_name
kallsyms ffffffff81100300 t free_x
kallsyms ffffffff81400000 T _etext
cmdline 100 bash
event 0 1000 100 kmalloc call_site=alloc_name+0x10 ptr=0xffff888100001000 bytes_req=50 bytes_alloc=64
event 0 1100 100 kmalloc call_site=alloc_name+0x10 ptr=0xffff888100001100 bytes_req=60 bytes_alloc=64
event 0 1200 100 kmalloc call_site=alloc_name+0x10 ptr=0xffff888100001200 bytes_req=69 bytes_alloc=96
event 0 1300 100 kmalloc call_site=alloc_name+0x10 ptr=0xffff888100001300 bytes_req=69 bytes_alloc=96
event 0 1400 100 kmalloc call_site=alloc_name+0x10 ptr=0xffff888100001400 bytes_req=8 bytes_alloc=8
event 0 2000 100 kfree call_site=free_x+0x8 ptr=0xffff888100001000
SEQ
if "$MK" -g 6.18 -o "$TMP/hand.dat" "$TMP/hand.seq" 2> "$TMP/err.txt"; then
	check "--advice by hand: two ranges of alloc_name, ranked by the saving at the peak" test \
		"$("$KMA" --no-db -f csv --advice "$TMP/hand.dat" | tail -n +2)" = \
"alloc_name+0x10,69,69,1,kmalloc-96,kmalloc-96,72,2,2,2,48,48
alloc_name+0x10,50,50,1,kmalloc-64,kmalloc-64,56,1,1,0,8,8"
	"$KMA" --no-db --advice "$TMP/hand.dat" > "$TMP/hand.txt"
	check "--advice by hand: text rows" test "$(tail -n 2 "$TMP/hand.txt" | tr -s ' ')" = \
" 48 48 2 2 69 96 72 alloc_name+0x10
 8 8 1 1 50 64 56 alloc_name+0x10"
	check "--advice by hand: the header says when the peak was (1400 ns after 1000)" \
		grep -q '(0.000000s into the trace)' "$TMP/hand.txt"
	check "--advice -n 1: one row" test "$("$KMA" --no-db -f csv -n 1 --advice "$TMP/hand.dat" |
		wc -l)" = 2
else
	fail "--advice by hand: mktrace" "$(cat "$TMP/err.txt")"
fi

# a caller name that does not fit goes to a line of its own, indented
LONG=a_very_long_function_name_that_a_driver_might_well_have_for_its_allocations_of_names
sed "s/alloc_name/$LONG/" "$TMP/hand.seq" > "$TMP/long.seq"
if "$MK" -g 6.18 -o "$TMP/long.dat" "$TMP/long.seq" 2> "$TMP/err.txt"; then
	"$KMA" --no-db --advice "$TMP/long.dat" > "$TMP/long.txt"
	check "--advice: a long caller wraps, lines fit 100 columns" sh -c \
		"awk 'length(\$0) > 100 { exit 1 }' '$TMP/long.txt' &&
		 grep -q '^      $LONG+0x10\$' '$TMP/long.txt'"
else
	fail "--advice long names: mktrace" "$(cat "$TMP/err.txt")"
fi
