# Module leftovers end to end: tests/gen/modleft.seq, rendered by
# mktrace with module:module_load / module_free events, against the numbers worked out
# by hand in tests/gen/modleft.expect: --leftovers (text, JSON, CSV), report.db's
# modules table, module_leftovers view and callers.module, and -g module.
MKTRACE=$TOP/$B/tests/tools/mktrace
if [ ! -x "$MKTRACE" ]; then
	MKTRACE=$TMP/mktrace
	make -s -C "$TOP/tests/tools" O="$TMP" > "$TMP/build.txt" 2>&1 ||
		fail "modules: build mktrace" "$(tail -5 "$TMP/build.txt")"
fi
SEQ=$TOP/tests/gen/modleft.seq
EXP=$TOP/tests/gen/modleft.expect

# exp KIND: the expectation's KIND lines, without the keyword
exp() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$EXP"; }
# short32: 0x<hex> cut to its low 32 bits (what a 32-bit trace holds)
short32() { sed -E 's/0x[0-9a-f]*([0-9a-f]{8})/0x\1/g'; }

# modules_variant GEN LONG ENDIAN: every module check on one rendering
modules_variant() {
	local gen=$1 long=$2 endian=$3 v dat db cut=cat
	v="$gen${long:+:$long}${endian:+:$endian}"
	[ "$long" = 4 ] && cut=short32
	dat=$TMP/modleft-$gen-$long$endian.dat
	db=${dat%.dat}.db
	if ! "$MKTRACE" -g "$gen" ${long:+-l $long} ${endian:+-E $endian} -o "$dat" "$SEQ" \
		> "$TMP/mk.txt" 2>&1; then
		fail "modules [$v]: mktrace" "$(cat "$TMP/mk.txt")"
		return
	fi
	# the events as the kernel's format has them: trace-cmd prints them with the flags
	trace-cmd report -i "$dat" 2> /dev/null |
		sed -n 's/.*\(module_load\|module_free\): *\(.*\)$/\1 \2/p' > "$TMP/tc.txt"
	check "modules [$v]: trace-cmd report shows module_load/module_free (taints as flags)" \
		test "$(tr '\n' '|' < "$TMP/tc.txt")" = \
		"module_load mymod O|module_free mymod|module_load mymod O|module_free othermod|"
	if ! "$KMA" -q -o "$db" "$dat" > "$TMP/kma.txt" 2>&1; then
		fail "modules [$v]: kma-analyze" "$(tail -3 "$TMP/kma.txt")"
		return
	fi

	# report.db
	check "modules [$v]: modules table = modleft.expect" test \
		"$(sqlite3 "$db" "SELECT name, COALESCE(load_ts, '-'), COALESCE(free_ts, '-'),
				left_allocs, left_bytes, left_live, left_live_bytes
				FROM modules ORDER BY id" | tr '|' ' ')" = "$(exp module)"
	check "modules [$v]: module_leftovers view = modleft.expect" test \
		"$(sqlite3 "$db" "SELECT module, caller, address, allocs, bytes, still_live,
				still_live_bytes FROM module_leftovers ORDER BY module, caller" |
		   tr '|' ' ')" = "$(exp leftover | $cut | LC_ALL=C sort)"
	check "modules [$v]: callers.module (NULL for vmlinux)" test \
		"$(sqlite3 "$db" "SELECT caller, COALESCE(module, '-') FROM callers ORDER BY caller" |
		   tr '|' ' ')" = "$(exp callermodule | LC_ALL=C sort)"
	check "modules [$v]: module_stats view = modleft.expect" test \
		"$(sqlite3 "$db" "SELECT * FROM module_stats ORDER BY module" | tr '|' ' ')" = \
		"$(exp group_module | LC_ALL=C sort)"
	# the module rows are the sums of their callers' rows in module_leftovers
	check "modules [$v]: modules.left_* = sums of module_leftovers" test "$(sqlite3 "$db" "
		SELECT COUNT(*) FROM modules AS m WHERE m.free_ts IS NOT NULL AND
		(m.left_allocs, m.left_bytes, m.left_live, m.left_live_bytes) IS NOT
		(SELECT SUM(allocs), SUM(bytes), SUM(still_live), SUM(still_live_bytes)
		 FROM module_leftovers WHERE module = m.name)")" = 0

	# --leftovers, text: a row per unload (caller -), then its callers
	"$KMA" --no-db --leftovers "$dat" > "$TMP/left.txt" 2>&1
	awk '$1 == "module" && $2 == "unloaded" { on = 1; next } on && NF == 7' "$TMP/left.txt" |
		tr -s ' ' > "$TMP/left-rows.txt"
	{
		exp module | awk '$3 != "-" { printf "%s %.6fs %s %s %s %s -\n", $1, $3 / 1e9, $4, $5, $6, $7 }'
	} > "$TMP/want-mods.txt"
	check "modules [$v]: --leftovers text: one row per unload = modleft.expect" test \
		"$(awk '$7 == "-"' "$TMP/left-rows.txt")" = "$(cat "$TMP/want-mods.txt")"
	exp leftover | $cut | while read -r m c a n b l lb; do
		ts=$(exp module | awk -v m="$m" '$1 == m && $3 != "-" { printf "%.6fs", $3 / 1e9 }')
		echo "$m $ts $n $b $l $lb $c"
	done | LC_ALL=C sort > "$TMP/want-callers.txt"
	check "modules [$v]: --leftovers text: caller rows = modleft.expect" test \
		"$(awk '$7 != "-"' "$TMP/left-rows.txt" | LC_ALL=C sort)" = \
		"$(cat "$TMP/want-callers.txt")"
	check "modules [$v]: --leftovers text: no row for the reload or vmlinux" sh -c \
		"! grep -q 'kernel_alloc\|13000\|0\\.000013' '$TMP/left-rows.txt'"

	# --leftovers -f json: the same rows, unloaded_ns in ns, caller null on module rows
	"$KMA" --no-db --leftovers -f json "$dat" > "$TMP/left.json" 2>&1
	check "modules [$v]: --leftovers -f json = modleft.expect" python3 - "$TMP/left.json" \
		"$EXP" "$long" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["report"] == "leftovers", doc.get("report")
mods, left = [], []
for line in open(sys.argv[2]):
    w = line.split()
    if w and w[0] == "module" and w[3] != "-":
        mods.append(w[1:])
    elif w and w[0] == "leftover":
        left.append(w[1:])
free_ts = {m[0]: int(m[2]) for m in mods}
want = []
for m in mods:
    want.append({"module": m[0], "unloaded_ns": int(m[2]), "allocs": int(m[3]),
                 "bytes": int(m[4]), "still_live": int(m[5]),
                 "still_live_bytes": int(m[6]), "caller": None})
    for l in left:
        if l[0] == m[0]:
            want.append({"module": l[0], "unloaded_ns": free_ts[l[0]], "allocs": int(l[3]),
                         "bytes": int(l[4]), "still_live": int(l[5]),
                         "still_live_bytes": int(l[6]), "caller": l[1]})
got = doc["rows"]
key = lambda r: (r["module"], r["unloaded_ns"], r["caller"] or "")
if sorted(got, key=key) != sorted(want, key=key):
    sys.exit("got %s\nwant %s" % (sorted(got, key=key), sorted(want, key=key)))
EOF
	"$KMA" --no-db --leftovers -f csv "$dat" > "$TMP/left.csv" 2>&1
	check "modules [$v]: --leftovers -f csv: header + the JSON's rows" python3 -c "
import csv, json, sys
rows = list(csv.DictReader(open('$TMP/left.csv')))
js = json.load(open('$TMP/left.json'))['rows']
norm = lambda r: tuple(str(r[k]) if r[k] is not None else '' for k in
    ('module', 'unloaded_ns', 'allocs', 'bytes', 'still_live', 'still_live_bytes', 'caller'))
assert sorted(map(norm, rows)) == sorted(map(norm, js)), (rows, js)"

	# -g module: text rows and JSON
	"$KMA" --no-db -g module "$dat" > "$TMP/g.txt" 2>&1
	check "modules [$v]: -g module rows = modleft.expect" test \
		"$(awk '$NF ~ /^(mymod|othermod|vmlinux)$/ { split($5, af, "/")
			print $6, $1, $2, $4, af[1], af[2] }' "$TMP/g.txt" | LC_ALL=C sort)" = \
		"$(exp group_module | cut -d' ' -f1-6 | LC_ALL=C sort)"
	"$KMA" --no-db -g module -f json "$dat" > "$TMP/g.json" 2>&1
	check "modules [$v]: -g module -f json = modleft.expect" test "$(python3 -c "
import json
d = json.load(open('$TMP/g.json'))
for r in sorted(d['rows'], key=lambda r: r['module']):
    print(r['module'], r['total'], r['slack'], r['net'], r['allocs'], r['frees'])")" = \
		"$(exp group_module | cut -d' ' -f1-6 | LC_ALL=C sort)"
}

if [ -x "$MKTRACE" ]; then
	modules_variant 6.18 "" ""
	modules_variant 5.10 4 big

	# A description's module event needs its module's name; taints only where it exists
	printf '%s\n' "cpus 1" "event 0 100 1 module_free" |
		"$MKTRACE" -o "$TMP/bad.dat" - > "$TMP/bad.txt" 2>&1
	check "mktrace rejects a module event without name=" \
		grep -q "line 2: module_free needs name=MODULE" "$TMP/bad.txt"
	# descriptions without module events get no module system (as before)
	"$MKTRACE" -o "$TMP/nomod.dat" "$TOP/tests/gen/module.seq" > /dev/null 2>&1
	check "mktrace writes the module system only when used" sh -c \
		"! trace-cmd dump --events -i '$TMP/nomod.dat' 2> /dev/null | grep -q module_load"

	# Without module events: --leftovers says so; -g module still has the kallsyms modules
	if "$KMA" -q -o "$TMP/nomod.db" "$TMP/nomod.dat" > "$TMP/nomod.txt" 2>&1; then
		check "modules: without module events --leftovers says so" sh -c \
			"'$KMA' --no-db --leftovers '$TMP/nomod.dat' | grep -q 'No module load/unload events'"
		check "modules: without module events the modules table is empty" test \
			"$(sqlite3 "$TMP/nomod.db" 'SELECT COUNT(*) FROM modules')" = 0
		# module.expect: mod_alloc+0x1c 512 freed, mod_alloc+0x40 80 live
		check "modules: without module events -g module has mymod from kallsyms" test \
			"$("$KMA" --no-db -g module "$TMP/nomod.dat" | awk '$NF == "mymod" { print $1, $4 }')" \
			= "592 80"
	else
		fail "modules: kma-analyze on module.seq" "$(tail -3 "$TMP/nomod.txt")"
	fi
fi

# A module unloaded twice: each unload's leftovers are its own (the second unload at 15000
# leaves only the reloaded module's 512-byte allocation at 0x...9000, still live at the end).
MKT=$TOP/$B/tests/tools/mktrace
[ -x "$MKT" ] || MKT=$TOP/tests/tools/mktrace
sed 's/^event 0 16000 302 module_free name=othermod/event 0 15000 302 module_free name=mymod\n&/' \
	"$TOP/tests/gen/modleft.seq" > "$TMP/twice.seq"
if "$MKT" -g newest -o "$TMP/twice.dat" "$TMP/twice.seq" 2> "$TMP/err.txt" &&
   "$KMA" -q -o "$TMP/twice.db" "$TMP/twice.dat"; then
	check "module unloaded twice: second unload left exactly the reloaded allocation" test \
		"$(sqlite3 "$TMP/twice.db" "SELECT l.caller, l.allocs, l.bytes, l.still_live
			FROM module_leftovers l JOIN modules m ON m.id = l.module_id
			WHERE m.free_ts = 15000")" = "mod_init+0x20|1|512|1"
	check "module unloaded twice: each unload = sum of its own leftovers" test \
		"$(sqlite3 "$TMP/twice.db" "SELECT COUNT(*) FROM modules AS m WHERE m.free_ts IS NOT NULL AND
			(m.left_allocs, m.left_bytes, m.left_live, m.left_live_bytes) IS NOT
			(SELECT SUM(allocs), SUM(bytes), SUM(still_live), SUM(still_live_bytes)
			 FROM module_leftovers WHERE module_id = m.id)")" = 0
	check "module unloaded twice: --leftovers rows per unload" test \
		"$("$KMA" --no-db -f csv --leftovers "$TMP/twice.dat" | awk -F, '$2 == 15000 && $7 != ""' |
		   cut -d, -f3,7)" = "1,mod_init+0x20"
else
	fail "module unloaded twice" "$(cat "$TMP/err.txt")"
fi
