# Pipe-mode perf.data (perf record -o -): tests/fixtures/perf-pipe.data, recorded by
# tests/fixtures/scripts/record-perf-pipe.sh. kma-analyze on it against
# tests/tools/perf-script-expect.py (perf script's text): per caller total, slack, net,
# allocs, frees, implicit frees, the summary. perf script names no call site of a
# pipe-mode file (it prints their addresses), so kma runs with an empty --kallsyms and
# the callers are compared by address; with the recording boot's kallsyms, each name
# must be the kallsyms' symbol at its address. (perf 6.1's perf inject cannot rewrite
# the file in file mode: it reads the event formats as a record.) Cut copies of the fixture (inside
# the event formats, inside a sample, before the attributes): refused in one line.
FX=$TOP/tests/fixtures
P=$FX/perf-pipe.data
PSC=$TOP/tests/tools/perf-script-check.py
K=$TMP/perf-kallsyms

if ! command -v perf > /dev/null || ! perf script -i "$P" -F event > /dev/null 2>&1; then
	skip "perf pipe mode: every check" "no perf that reads the fixture (package linux-perf)"
	return 0
fi
xz -dc "$FX/perf-kallsyms.xz" > "$K" || fail "perf pipe mode: perf-kallsyms.xz" "xz -d failed"

check "perf pipe mode: the fixture is a pipe-mode file (header size 16)" python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(16)
assert b[:8] == b"PERFILE2" and struct.unpack("<Q", b[8:])[0] == 16' "$P"

mkdir -p "$TMP/c"
check "perf pipe mode: kma-analyze = perf script's figures (callers by address)" \
	python3 "$PSC" --kallsyms /dev/null "$KMA" "$P" "$TMP/c"

# the names: with this boot's kallsyms, each caller is symbol+off of the kallsyms at its
# address, and the rows are the same as with no names
"$KMA" --no-db -f csv --kallsyms "$K" "$P" > "$TMP/named.csv"
"$KMA" --no-db -f csv --kallsyms /dev/null "$P" > "$TMP/hex.csv"
check "perf pipe mode: call sites named by --kallsyms, the same rows" python3 - \
	"$TOP/tests/tools/perf-script-expect.py" "$K" "$TMP/named.csv" "$TMP/hex.csv" <<'PY'
import csv, importlib.util, sys
spec = importlib.util.spec_from_file_location("pse", sys.argv[1])
pse = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pse)
syms = pse.symbol_table(sys.argv[2])
named, hexed = (list(csv.DictReader(open(f))) for f in sys.argv[3:5])
for r in named:
    name, _, off = r["caller"].rpartition("+")
    assert any(a + int(off, 16) == int(r["address"], 16) for a, _ in syms.get(name, [])), r
key = lambda r: (r["address"], [v for k, v in r.items() if k != "caller"])
assert sorted(map(key, named)) == sorted(map(key, hexed)) and len(named) > 10
assert all(r["caller"] == r["address"] for r in hexed)
print(len(named), "callers")
PY

# cut copies: the offsets from the file's records (u32 type, u16 misc, u16 size; the
# tracing-data record, type 66, is followed by its u32 size's bytes)
python3 - "$P" "$TMP" <<'EOF' || fail "perf pipe mode: cut copies" "the walk failed"
import struct, sys
b = open(sys.argv[1], "rb").read()
pos, samples, tracing = 16, [], None
while pos + 8 <= len(b):
    typ, misc, size = struct.unpack_from("<IHH", b, pos)
    nxt = pos + size
    if typ == 66:
        tracing = pos + size
        nxt += struct.unpack_from("<I", b, pos + 8)[0]
    elif typ == 9:
        samples.append(pos)
    pos = nxt
assert pos == len(b) and tracing and samples
cuts = {"formats": tracing + 500, "sample": samples[len(samples) // 2] + 20, "attrs": 24}
for name, at in cuts.items():
    open("%s/cut-%s.data" % (sys.argv[2], name), "wb").write(b[:at])
EOF
for c in "formats:truncated perf.data: the tracing data after the record at" \
	 "sample:truncated perf.data: the record at [0-9]+ \\([0-9]+ bytes\\) runs past" \
	 "attrs:corrupt perf.data: a pipe-mode file without event attributes"; do
	f=$TMP/cut-${c%%:*}.data
	rm -f "$TMP/cut.db"
	"$KMA" -q -o "$TMP/cut.db" "$f" > "$TMP/cut.out" 2> "$TMP/cut.err"
	rc=$?
	check "perf pipe mode: cut inside the ${c%%:*}: exit 1, one line naming it, no output" \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l < '$TMP/cut.err') -eq 1 ] &&
		       grep -qE 'kma-analyze: $f: ${c#*:}' '$TMP/cut.err' &&
		       [ ! -s '$TMP/cut.out' ] && [ ! -e '$TMP/cut.db' ]"
done
