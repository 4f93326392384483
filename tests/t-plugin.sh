# plugin_kma.so under the real trace-cmd report: every kmem line of the real
# fixtures against the raw (-R) fields of the same file, and every free
# annotation against kma-analyze's matching in report.db.
FIX=$TOP/tests/fixtures
PLUGIN_DIR=$TOP/$B/plugin

if ! command -v trace-cmd > /dev/null; then
	skip "plugin" "trace-cmd is not installed"
	return 0 2> /dev/null || exit 0
fi
if [ ! -f "$PLUGIN_DIR/plugin_kma.so" ]; then
	# Not built by the top Makefile (yet): build a private copy.
	PLUGIN_DIR=$TMP/plugin
	if ! make -s -C "$TOP/plugin" O="$PLUGIN_DIR" > "$TMP/build.txt" 2>&1; then
		fail "plugin builds" "$(tail -5 "$TMP/build.txt")"
		return 0 2> /dev/null || exit 0
	fi
fi

# Only our directory: HOME points at an empty directory so that a copy in
# ~/.local/lib/traceevent/plugins (loaded after TRACEEVENT_PLUGIN_DIR) cannot
# stand in for the one under test.
mkdir -p "$TMP/home"
report() {
	HOME=$TMP/home TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report "$@"
}

# plugin_check DAT PLUGIN_OUT RAW_OUT DB: prints what disagrees, exits 1 if anything
plugin_check() {
	python3 - "$@" <<'EOF'
import re, sqlite3, sys

dat, plug, raw, db = sys.argv[1:5]
LINE = re.compile(r"^\s*(?:\S+:\s+)?(.*?)\s*\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):\s*(.*)$")
KINDS = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node",
	 "kfree", "kmem_cache_free"}
ALLOCS = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
errors = []

def err(msg):
	if len(errors) < 20:
		errors.append(msg)
	else:
		errors.append(None)

def events(path):
	out = []
	with open(path, errors="replace") as f:
		for line in f:
			m = LINE.match(line)
			if not m or m.group(5) not in KINDS:
				continue
			ts = int(m.group(3)) * 10**9 + int(m.group(4).ljust(9, "0"))
			out.append((ts, int(m.group(2)), m.group(5), m.group(6)))
	return out

def ptr_of(text):
	m = re.search(r"\bptr=(0x[0-9a-f]+|\(nil\))", text)
	if not m:
		return None
	return 0 if m.group(1) == "(nil)" else int(m.group(1), 16)

p, r = events(plug), events(raw)
if len(p) != len(r):
	err(f"{len(p)} kmem lines with the plugin, {len(r)} in the raw output")
freed, implicit, unknown, null = set(), set(), set(), 0
for (pts, pcpu, pkind, ptext), (rts, rcpu, rkind, rtext) in zip(p, r):
	where = f"{pkind} at {pts} cpu {pcpu}"
	if (pts, pcpu, pkind) != (rts, rcpu, rkind):
		err(f"line order differs: {where} vs {rkind} at {rts}")
		break
	if "!" in ptext:
		err(f"{where}: a field printed as '!': {ptext}")
	ptr = ptr_of(ptext)
	if ptr != ptr_of(rtext):
		err(f"{where}: ptr differs from raw: {ptext} / {rtext}")
	site = re.search(r"call_site=(\S+)", rtext).group(1)
	if not ptext.startswith(f"({site}) "):
		err(f"{where}: caller is not ({site}): {ptext}")
	if pkind in ALLOCS:
		req = int(re.search(r"bytes_req=(\d+)", rtext).group(1))
		alloc = int(re.search(r"bytes_alloc=(\d+)", rtext).group(1))
		want = f"bytes_req={req} bytes_alloc={alloc} slack={alloc - req} gfp_flags="
		if want not in ptext:
			err(f"{where}: want '{want}': {ptext}")
		name = re.search(r"\bname=(\S+)", rtext)
		if name and f" name={name.group(1)} " not in ptext:
			err(f"{where}: cache name {name.group(1)} missing: {ptext}")
		m = re.search(r" implicitly frees (\d+) bytes from (\S+), lived \S+$", ptext)
		if m:
			implicit.add((pts, hex(ptr), int(m.group(1)), m.group(2)))
		elif "implicitly" in ptext:
			err(f"{where}: malformed implicit annotation: {ptext}")
		continue
	if ptr is not None and ptr <= 0x10:
		null += 1
		if not ptext.endswith(" null"):
			err(f"{where}: null free not annotated 'null': {ptext}")
		continue
	m = re.search(r" freed (\d+) bytes from (\S+), lived (-?[0-9.]+)(ns|us|ms|s)$", ptext)
	if m:
		freed.add((pts, hex(ptr), int(m.group(1)), m.group(2)))
	elif ptext.endswith(" unknown"):
		unknown.add((pts, hex(ptr)))
	else:
		err(f"{where}: free with no annotation: {ptext}")

con = sqlite3.connect(db)
q = lambda sql: set(con.execute(sql).fetchall())
db_freed = q("SELECT free_ts, ptr, bytes_alloc, caller FROM allocations "
	     "WHERE free_kind IN ('kfree', 'kmem_cache_free')")
db_implicit = q("SELECT free_ts, ptr, bytes_alloc, caller FROM allocations WHERE free_kind = 'implicit'")
db_unknown = q("SELECT ts, ptr FROM unknown_frees")
db_null = con.execute("SELECT null_frees FROM trace").fetchone()[0]
db_unknown_n = con.execute("SELECT unknown_frees FROM summary").fetchone()[0]

def compare(what, mine, theirs):
	for row in sorted(mine - theirs)[:5]:
		err(f"{what}: plugin has {row}, report.db does not")
	for row in sorted(theirs - mine)[:5]:
		err(f"{what}: report.db has {row}, the plugin does not")

compare("matched frees", freed, db_freed)
compare("implicit frees", implicit, db_implicit)
compare("unknown frees", unknown, db_unknown)
if len(unknown) != db_unknown_n:
	err(f"{len(unknown)} 'unknown' annotations, report.db unknown_frees = {db_unknown_n}")
if null != db_null:
	err(f"{null} null frees, report.db null_frees = {db_null}")
if not freed:
	err("no matched free at all")
for e in errors:
	print(e if e else "...")
sys.exit(1 if errors else 0)
EOF
}

for f in basic basic-v6 markers lost lost-mid; do
	dat=$FIX/$f.dat
	[ -f "$dat" ] || { fail "plugin $f" "missing $dat"; continue; }
	if ! report -t -i "$dat" > "$TMP/$f.plug" 2> "$TMP/$f.err"; then
		fail "plugin $f: trace-cmd report" "$(tail -3 "$TMP/$f.err")"
		continue
	fi
	if ! grep -q ' slack=' "$TMP/$f.plug"; then
		fail "plugin $f: plugin loaded" "no slack= in the report: $(grep -m1 kmem "$TMP/$f.plug")"
		continue
	fi
	report -t -R -i "$dat" > "$TMP/$f.raw" 2> /dev/null
	if ! "$KMA" -q -o "$TMP/$f.db" "$dat" 2> "$TMP/$f.kerr"; then
		fail "plugin $f" "kma-analyze failed: $(cat "$TMP/$f.kerr")"
		continue
	fi
	check "plugin $f: lines match -R fields and kma-analyze's matching" \
		plugin_check "$dat" "$TMP/$f.plug" "$TMP/$f.raw" "$TMP/$f.db"
	# gfp flags spelled as the kernel's print fmt does (-N: no plugins at all)
	report -N -i "$dat" 2> /dev/null | grep -o 'gfp_flags=[^ ]*' > "$TMP/$f.gfp-kernel"
	grep -o 'gfp_flags=[^ ]*' "$TMP/$f.plug" > "$TMP/$f.gfp-plugin"
	check "plugin $f: gfp flags as the kernel prints them" \
		sh -c "test -s '$TMP/$f.gfp-kernel' && cmp '$TMP/$f.gfp-kernel' '$TMP/$f.gfp-plugin'"
	# every field of the stock line (-N: the kernel's print fmt alone) kept, with its value
	report -N -t -i "$dat" > "$TMP/$f.stock" 2> /dev/null
	check "plugin $f: every field the stock line shows (accounted= too)" python3 -c '
import re, sys
LINE = re.compile(r"\[(\d+)\]\s+(\d+\.\d+):\s+(kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node|kfree|kmem_cache_free):\s*(.*)$")
def kmem(path):
	return [m.groups() for m in map(LINE.search, open(path, errors="replace")) if m]
stock, plug = kmem(sys.argv[1]), kmem(sys.argv[2])
assert stock and len(stock) == len(plug), (len(stock), len(plug))
seen = set()
for (c1, t1, k1, s), (c2, t2, k2, p) in zip(stock, plug):
	assert (c1, t1, k1) == (c2, t2, k2), (t1, t2)
	for kv in re.findall(r"(?<!\S)(\w+=\S+)", s):
		if kv.startswith("call_site="):
			continue
		seen.add(kv.split("=")[0])
		assert " " + kv in " " + p, f"{k1} at {t1}: {kv} missing from: {p}"
assert "accounted" in seen or "accounted=" not in open(sys.argv[1]).read(), seen
' "$TMP/$f.stock" "$TMP/$f.plug"
done

dat=$FIX/basic.dat
if [ -f "$TMP/basic.plug" ]; then
	# Options. "-O kma:free" with no value toggles, as for every plugin.
	for opt in kma:free=0 kma:free; do
		report -O "$opt" -i "$dat" > "$TMP/o.txt" 2>&1
		check "plugin -O $opt: no free annotation" sh -c "
			grep -q ' kmem_cache_free: ' '$TMP/o.txt' &&
			! grep -E -q ' (freed|implicitly frees) [0-9]+ bytes| (unknown|null)\$' '$TMP/o.txt'"
	done
	# With ages in ns, each age is free_ts - alloc_ts of report.db.
	report -t -O kma:ns=1 -i "$dat" > "$TMP/ns.txt" 2>&1
	sed -n 's/^.* \([0-9]*\)\.\([0-9]*\): .* ptr=\(0x[0-9a-f]*\).* freed [0-9]* bytes from .*, lived \(-*[0-9]*\)ns$/\1\2 \3 \4/p' \
		"$TMP/ns.txt" | sort > "$TMP/ns-plugin.txt"
	sqlite3 -separator ' ' "$TMP/basic.db" "SELECT free_ts, ptr, free_ts - alloc_ts FROM allocations
		WHERE free_kind IN ('kfree', 'kmem_cache_free')" | sort > "$TMP/ns-db.txt"
	check "plugin -O kma:ns=1: ages in ns equal free_ts - alloc_ts" sh -c "
		test -s '$TMP/ns-plugin.txt' && cmp '$TMP/ns-plugin.txt' '$TMP/ns-db.txt'"
	check "plugin: human ages by default" grep -q -E 'lived [0-9]+\.[0-9](us|ms)$' "$TMP/basic.plug"
	# Ages are kma-analyze's durations (kma_fmt_dur): milliseconds with two decimals.
	check "plugin: ages as kma-analyze prints them" sh -c "
		grep -q -E 'lived [0-9]+\.[0-9]{2}ms\$' '$TMP/basic.plug' &&
		! grep -q -E 'lived [0-9]+\.[0-9]ms\$' '$TMP/basic.plug'"
	check "plugin lists its options (trace-cmd list -O)" sh -c "
		HOME='$TMP/home' TRACEEVENT_PLUGIN_DIR='$PLUGIN_DIR' trace-cmd list -O 2>&1 |
		grep -A1 'plugin:[[:space:]]*kma' | grep -q 'option:[[:space:]]*ns'"
	# Two files in one report: each keeps its own live set, so the matched
	# frees are those of each file alone.
	if [ -f "$TMP/markers.plug" ]; then
		report -i "$dat" -i "$FIX/markers.dat" > "$TMP/two.txt" 2>&1
		check "plugin: two files in one report keep separate state" test \
			"$(grep -c ' freed [0-9]* bytes from ' "$TMP/two.txt")" = \
			"$(cat "$TMP/basic.plug" "$TMP/markers.plug" | grep -c ' freed [0-9]* bytes from ')"
	fi
fi

# Page events (mm_page_alloc / mm_page_free): the annotations against a
# pairing of the raw fields written from the rules (tests/plugin/pages-check.py)
# and against kma-analyze --pages's report.db, on the recorded fixture and on
# tests/pages/basic.seq in several layouts (pfn or the old struct page pointer,
# 64 or 32 bits, both byte orders); on the newest layout, line by line against
# lines worked by hand (tests/plugin/pages-basic.expect).
MKTRACE=$TOP/$B/tests/tools/mktrace
page_case() { # page_case NAME DAT LONG
	report -t -O kma:ns=1 -i "$2" > "$TMP/$1.plug" 2> "$TMP/$1.err" &&
		report -t -R -i "$2" > "$TMP/$1.raw" 2>> "$TMP/$1.err" &&
		"$KMA" -q --pages -o "$TMP/$1.db" "$2" > /dev/null 2>> "$TMP/$1.err" ||
		{ fail "plugin pages $1" "$(tail -3 "$TMP/$1.err")"; return; }
	check "plugin pages $1: annotations as paired from the raw fields and by kma-analyze" \
		python3 "$TOP/tests/plugin/pages-check.py" "$TMP/$1.plug" "$TMP/$1.raw" "$TMP/$1.db" "$3"
}
[ -f "$FIX/pages.dat" ] && page_case fixture "$FIX/pages.dat" 8
if [ -x "$MKTRACE" ]; then
	{ echo "pagelayout page"; cat "$TOP/tests/pages/basic.seq"; } > "$TMP/page-ptr.seq"
	for v in "pfn:6.18:8:little" "pfn:5.10:4:big" "ptr:6.18:8:little" "ptr:5.10:4:little"; do
		IFS=: read -r lay gen long endian <<< "$v"
		seq=$TOP/tests/pages/basic.seq
		[ "$lay" = ptr ] && seq=$TMP/page-ptr.seq
		name=basic-$lay-$gen-$long-$endian
		if "$MKTRACE" -g "$gen" -l "$long" -E "$endian" -o "$TMP/$name.dat" "$seq" \
			> "$TMP/mk.txt" 2>&1; then
			page_case "$name" "$TMP/$name.dat" "$long"
		else
			fail "plugin pages $name: mktrace" "$(cat "$TMP/mk.txt")"
		fi
	done
	sed -n 's/^ *.*\] *\([0-9.]*\): \(mm_page_alloc:\|mm_page_free:\) *\(.*\)$/\1 \2 \3/p' \
		"$TMP/basic-pfn-6.18-8-little.plug" > "$TMP/pages-basic.got"
	check "plugin pages: basic.seq line by line as worked by hand" \
		cmp "$TMP/pages-basic.got" <(grep -v '^#' "$TOP/tests/plugin/pages-basic.expect")
	report -t -O kma:free=0 -i "$TMP/basic-pfn-6.18-8-little.dat" > "$TMP/pages-nofree.txt" 2>&1
	check "plugin pages -O kma:free=0: no page annotation, failed still said" sh -c "
		grep -q 'mm_page_free: *pfn=0x1000 order=0\$' '$TMP/pages-nofree.txt' &&
		grep -q ' failed\$' '$TMP/pages-nofree.txt' &&
		! grep -E -q ' (freed|implicitly frees) order-| unknown\$' '$TMP/pages-nofree.txt'"
else
	fail "plugin pages: mktrace" "$MKTRACE is not built"
fi
if [ -f "$TMP/fixture.plug" ]; then
	report -N -i "$FIX/pages.dat" 2> /dev/null | grep ' mm_page_alloc: ' |
		grep -o 'gfp_flags=[^ ]*' > "$TMP/pages.gfp-kernel"
	grep ' mm_page_alloc: ' "$TMP/fixture.plug" | grep -o 'gfp_flags=[^ ]*' > "$TMP/pages.gfp-plugin"
	check "plugin pages: gfp flags as the kernel prints them" \
		sh -c "test -s '$TMP/pages.gfp-kernel' && cmp '$TMP/pages.gfp-kernel' '$TMP/pages.gfp-plugin'"
fi

# Formats no real trace has (missing fields, short records, time going
# backwards, a handle closed and a new one opened), through libtraceevent
# directly. Under the sanitizer build, plugin and driver are sanitized too.
SANFLAGS=
[ "$LABEL" = asan+ubsan ] && SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
mkdir -p "$TMP/tf"
# shellcheck disable=SC2086,SC2046
if cc -O1 -g $SANFLAGS -fPIC -shared -fvisibility=hidden -std=gnu11 -D_GNU_SOURCE \
	$(pkg-config --cflags libtraceevent) -I"$TOP/lib" -o "$TMP/tf/plugin_kma.so" "$TOP/plugin/plugin_kma.c" "$TOP"/lib/*.c -lm \
	> "$TMP/tf.err" 2>&1 &&
   cc -O1 -g $SANFLAGS -std=gnu11 $(pkg-config --cflags libtraceevent) -o "$TMP/test-fields" \
	"$TOP/tests/plugin/test-fields.c" $(pkg-config --libs libtraceevent) >> "$TMP/tf.err" 2>&1; then
	HOME=$TMP/home "$TMP/test-fields" "$TMP/tf" > "$TMP/tf.txt" 2>> "$TMP/tf.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "plugin: odd formats" "test-fields exit $rc: $(tail -5 "$TMP/tf.err")"
	else
		tf() { # tf NAME CASE WANT: every round's CASE line equals WANT
			local got
			got=$(sed -n "s/^$2: //p" "$TMP/tf.txt" | sort -u)
			if [ "$got" = "$3" ]; then pass "plugin: $1"
			else fail "plugin: $1" "got '$got', want '$3'"; fi
		}
		tf "missing fields print !" missing-req-gfp \
			"(alloc_thing+0x10) ptr=0xffff888000001000 bytes_req=! bytes_alloc=64 slack=! gfp_flags=!"
		tf "free without ptr" missing-ptr "(free_thing+0x10) ptr=!"
		tf "alloc without call_site" missing-call-site \
			"(!) ptr=0xffff888000001000 bytes_req=10 bytes_alloc=16 slack=6 gfp_flags=0xcc0"
		tf "short record reads nothing past its end" short-record \
			"(alloc_thing+0x40) ptr=0xffff888000003000 name=! bytes_req=0 bytes_alloc=! slack=! gfp_flags=!"
		tf "cache name, symbolic gfp flags, node" cache-alloc \
			"(alloc_thing+0x20) ptr=0xffff888000002000 name=kmalloc bytes_req=100 bytes_alloc=128 slack=28 gfp_flags=GFP_KERNEL|__GFP_ZERO node=-1"
		tf "alloc at a live ptr is an implicit free" implicit \
			"(alloc_thing+0x30) ptr=0xffff888000002000 name=kmalloc bytes_req=100 bytes_alloc=128 slack=28 gfp_flags=none node=-1 implicitly frees 128 bytes from alloc_thing+0x20, lived 1.0us"
		tf "matched free" matched-free \
			"(free_thing+0x20) ptr=0xffff888000002000 freed 128 bytes from alloc_thing+0x30, lived 200ns"
		tf "second free of a ptr is unknown" unknown-free "(free_thing+0x20) ptr=0xffff888000002000 unknown"
		tf "ptr 0x10 is a null free" null-free "(free_thing+0x20) ptr=0x10 null"
		tf "records out of time order: no annotation" after-backwards \
			"(free_thing+0x20) ptr=0xffff888000004000"
		tf "page alloc without order" page-alloc-no-order "pfn=0x5 order=! gfp_flags=GFP_KERNEL"
		tf "page pfn 5 is a page, not a null free" page-free-small-pfn \
			"pfn=0x5 order=0 freed order-! allocated by <...>/42, lived 100ns"
		tf "second free of a page is unknown" page-free-again "pfn=0x5 order=0 unknown"
		tf "short page record reads nothing past its end" page-free-short "pfn=! order=!"
		check "plugin: a new handle starts with no live allocations" \
			test "$(grep -c 'implicitly frees' "$TMP/tf.txt")" = 2
	fi
else
	fail "plugin: odd formats" "cannot build test-fields: $(tail -5 "$TMP/tf.err")"
fi
