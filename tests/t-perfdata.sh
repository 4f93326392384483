# kma-analyze on perf.data files against perf's own text: the fixtures
# perf-slab.data (perf kmem record -z), perf-kmem-g.data (perf record -a -g -z of the
# slab and page events) and perf-kmem.data (perf kmem --page record), with this boot's
# kallsyms (perf-kallsyms.xz) for names. tests/tools/perf-script-expect.py computes
# every figure from perf script's text: per caller (name as perf script prints it)
# total, slack, net, allocs, frees and implicit frees, the summary, lost events, and
# with callchains the folded sums of every --weight; perf-script-check.py compares
# kma's -f json and -f folded with it, and both with perf kmem stat --caller;
# perf-kmem-check.py compares --pages with perf kmem --page stat.
#
# Each fixture is checked twice: through a trace.dat made of perf script's text
# (perf-script-expect.py --seq, mktrace; kma names its addresses with --kallsyms),
# and, in a tree with the perf.data reader (analyzer/reader/kma-perf*.c), directly,
# with the symbol sources too: --kallsyms, --symbols with a System.map whose KASLR
# slide the kernel MMAP record gives, the running kernel, and the one hint line.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
FX=$TOP/tests/fixtures
PSC=$TOP/tests/tools/perf-script-check.py
PKC=$TOP/tests/tools/perf-kmem-check.py
K=$TMP/perf-kallsyms
KDIFF=$TOP/$B/analyzer/kma-diff

if ! command -v perf > /dev/null || ! perf script -i "$FX/perf-slab.data" -F event \
     > /dev/null 2>&1; then
	skip "perf.data: every check" "no perf that reads the fixtures (package linux-perf)"
	return 0
fi
if ! xz -dc "$FX/perf-kallsyms.xz" > "$K"; then
	fail "perf.data: perf-kallsyms.xz" "xz -d failed"
	return 0
fi

# through a trace.dat: the expectation and the conversion, each figure compared
for f in perf-slab perf-kmem-g; do
	mkdir -p "$TMP/conv-$f"
	check "perf.data: $f.data through a trace.dat = perf script's figures and perf kmem's" \
		python3 "$PSC" --convert "$MKTRACE" --perf-kmem --kallsyms "$K" "$KMA" \
		"$FX/$f.data" "$TMP/conv-$f"
done
check "perf.data: perf-kmem-g.data --pages through a trace.dat = perf kmem --page stat" \
	python3 "$PKC" "$FX/perf-kmem-g.data" "$KMA" "$MKTRACE" "$TMP/conv-perf-kmem-g"
# the check itself: one free short of perf script's count must fail it
check "perf.data: the comparison fails when a figure differs" sh -c \
	"! KMA_PERF_CHECK_DROP=1 python3 '$PSC' --convert '$MKTRACE' --kallsyms '$K' '$KMA' \
	  '$FX/perf-slab.data' '$TMP/conv-perf-slab' > /dev/null"

# kma-diff hands --kallsyms to kma-analyze for its trace operands, a second one NEW's:
# BASE's keys must be kma-analyze's callers with the first, NEW's with the second
B0=$FX/basic.dat
"$KMA" --no-db -f csv --kallsyms "$K" "$B0" > "$TMP/a-base.csv"
"$KMA" --no-db -f csv --kallsyms /dev/null "$B0" > "$TMP/a-new.csv"
"$KDIFF" -f csv --kallsyms "$K" --kallsyms /dev/null "$B0" "$B0" > "$TMP/diff.csv"
check "perf.data: kma-diff --kallsyms A --kallsyms B names BASE by A and NEW by B" \
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
side = lambda f: sorted(r["caller"] for r in csv.DictReader(open(f)))
base = sorted(r["key"] for r in rows if r["base_total"])
new = sorted(r["key"] for r in rows if r["new_total"])
assert base == side(sys.argv[2]) and new == side(sys.argv[3]) and base != new, (base, new)
' "$TMP/diff.csv" "$TMP/a-base.csv" "$TMP/a-new.csv"

# symbol files that cannot serve: one line naming the file, exit 1, no report.db left
for opt in "--kallsyms $TMP/missing" "--symbols $TMP/System.map.none"; do
	rm -f "$TMP/bad.db"
	# shellcheck disable=SC2086
	"$KMA" -q -o "$TMP/bad.db" $opt "$B0" > "$TMP/bad.out" 2> "$TMP/bad.err"
	rc=$?
	check "perf.data: ${opt%% *} that cannot serve: exit 1, one line naming it, no output" \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l < '$TMP/bad.err') -eq 1 ] &&
		       grep -q '${opt#* }' '$TMP/bad.err' && [ ! -s '$TMP/bad.out' ] &&
		       [ ! -e '$TMP/bad.db' ]"
done

if ! ls "$TOP"/analyzer/reader/kma-perf*.c > /dev/null 2>&1; then
	skip "perf.data: kma-analyze reading perf.data itself" "no perf.data reader in this tree"
	return 0
fi

# directly: the same figures from the perf.data (perf-kmem.data has page events only:
# its figures are the --pages ones below)
for f in perf-slab perf-kmem-g; do
	mkdir -p "$TMP/dir-$f"
	check "perf.data: $f.data read directly = perf script's figures and perf kmem's" \
		python3 "$PSC" --perf-kmem --kallsyms "$K" "$KMA" "$FX/$f.data" "$TMP/dir-$f"
done
for f in perf-kmem perf-kmem-g; do
	mkdir -p "$TMP/dir-$f"
	check "perf.data: $f.data --pages read directly = perf kmem --page stat" \
		python3 "$PKC" --direct "$FX/$f.data" "$KMA" "$MKTRACE" "$TMP/dir-$f"
done

# symbols: a System.map of the same kernel linked 2 MiB lower must name every call
# site as the kallsyms does, moved by the slide of the kernel MMAP record
D=$FX/perf-slab.data
python3 -c 'import sys
for l in open(sys.argv[1]):
    p = l.split()
    if len(p) == 3 and p[1] not in "aA":
        print("%016x %s %s" % (int(p[0], 16) - 0x200000, p[1], p[2]))' "$K" > "$TMP/System.map"
"$KMA" --no-db -f csv --kallsyms "$K" "$D" > "$TMP/by-kallsyms.csv" 2> "$TMP/sym.err"
"$KMA" --no-db -f csv --symbols "$TMP/System.map" "$D" > "$TMP/by-map.csv" 2>> "$TMP/sym.err"
check "perf.data: --symbols System.map (KASLR slide) names call sites as --kallsyms" \
	cmp "$TMP/by-kallsyms.csv" "$TMP/by-map.csv"
check "perf.data: the names are symbols, not addresses" \
	sh -c "[ \$(grep -c '^0x' '$TMP/by-kallsyms.csv') -eq 0 ]"

# another boot's kallsyms (_text elsewhere): refused in one line naming the file
sed 's/^ffffffff81000000 \(T _text\)$/ffffffff9a000000 \1/' "$K" > "$TMP/other-kallsyms"
if "$KMA" --no-db --kallsyms "$TMP/other-kallsyms" "$D" > /dev/null 2> "$TMP/other.err"; then
	fail "perf.data: another boot's --kallsyms is refused" "exit 0"
else
	check "perf.data: another boot's --kallsyms is refused in one line naming it" sh -c \
		"[ \$(wc -l < '$TMP/other.err') -eq 1 ] && grep -q 'other-kallsyms: not the recording boot' '$TMP/other.err'"
fi

# no option: this boot's kallsyms when it is the recording's, else addresses and one hint
"$KMA" --no-db -f csv "$D" > "$TMP/none.csv" 2> "$TMP/none.err"
text=$(xz -dc "$FX/perf-kallsyms.xz" | awk '$3 == "_text" { print $1; exit }')
rel=$(perf report -i "$D" --header-only 2> /dev/null | sed -n 's/^# os release : //p')
if [ "$rel" = "$(uname -r)" ] && grep -q "^$text T _text$" /proc/kallsyms; then
	check "perf.data: the running kernel's kallsyms names the recording boot's sites" \
		cmp "$TMP/by-kallsyms.csv" "$TMP/none.csv"
else
	rows=$(($(wc -l < "$TMP/by-kallsyms.csv") - 1))
	check "perf.data: another boot: call sites as addresses and one hint line" sh -c \
		"[ \$(grep -c 'note: call sites shown as addresses' '$TMP/none.err') -eq 1 ] &&
		 grep -q -- '--kallsyms' '$TMP/none.err' &&
		 [ \$(grep -c '^0x' '$TMP/none.csv') -eq $rows ]"
fi
