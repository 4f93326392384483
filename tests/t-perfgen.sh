# The perf.data generator tests/tools/mkperf (the peak RSS benchmark's input, the fuzz
# seeds') against perf itself: kma-analyze on a generated file must give what
# tests/tools/perf-script-expect.py computes from `perf script` of it (per caller
# total, slack, net, allocs, frees, implicit frees, the summary, lost events, with -g
# the folded sums), for each kind of file mkperf writes: plain, callchains and lost
# records, zstd-compressed with the small tracing data, many CPUs with short rounds,
# pipe mode (callers compared by address: perf script names none in a pipe-mode file).
# The generated file's record order is read here on its own (a walk of the perf.data
# records in Python): samples out of time order inside a round and across one
# FINISHED_ROUND, never across two (what perf promises and kma's reordering relies on).
MKPERF=$TOP/$B/tests/tools/mkperf
FX=$TOP/tests/fixtures
PSC=$TOP/tests/tools/perf-script-check.py
K=$TMP/perf-kallsyms

if [ ! -x "$MKPERF" ]; then
	fail "perfgen: mkperf" "not built ($MKPERF)"
	return 0
fi
if ! command -v perf > /dev/null || ! perf script -i "$FX/perf-slab.data" -F event \
     > /dev/null 2>&1; then
	skip "perfgen: every check" "no perf that reads the fixtures (package linux-perf)"
	return 0
fi
if ! xz -dc "$FX/perf-kallsyms.xz" > "$K"; then
	fail "perfgen: perf-kallsyms.xz" "xz -d failed"
	return 0
fi

gen() {
	local out=$1
	shift
	"$MKPERF" -t "$FX/perf-slab.data" -k "$K" -o "$out" "$@"
}

zopt=-z
pkg-config --exists libzstd 2> /dev/null || zopt=

i=0
for args in "-n 20000" "-n 20000 -g -L -s 7" "-n 20000 $zopt -x -g -L -c 4 -s 3" \
	    "-n 30000 -c 8 -r 40000 -l 64 -s 11"; do
	i=$((i + 1))
	mkdir -p "$TMP/c$i"
	# shellcheck disable=SC2086
	if ! gen "$TMP/g$i.data" $args > "$TMP/gen$i.err" 2>&1; then
		fail "perfgen: mkperf $args" "$(cat "$TMP/gen$i.err")"
		continue
	fi
	check "perfgen: mkperf $args: kma-analyze = perf script's figures" \
		python3 "$PSC" --kallsyms "$K" "$KMA" "$TMP/g$i.data" "$TMP/c$i"
done

# perf record -z compresses a ring buffer's worth at a time (-Z: 512 KB of records a
# flush, each compressed record inflating to many times its size), and may leave its
# last flush's output unwritten, the stream ending inside a record (-E 40: the last
# record's last 40 bytes never written), which perf reads up to the partial record
if [ -n "$zopt" ]; then
	mkdir -p "$TMP/cz" "$TMP/ce"
	if gen "$TMP/bigz.data" -n 60000 -z -x -Z 524288 -r 20000000 -c 1 -s 13 \
	       > "$TMP/genz.err" 2>&1; then
		check "perfgen: mkperf -z -Z 524288 (big flushes): kma-analyze = perf script's figures" \
			python3 "$PSC" --kallsyms "$K" "$KMA" "$TMP/bigz.data" "$TMP/cz"
	else
		fail "perfgen: mkperf -Z" "$(cat "$TMP/genz.err")"
	fi
	if gen "$TMP/cut.data" -n 20000 -z -x -E 40 -s 17 > "$TMP/gene.err" 2>&1; then
		check "perfgen: mkperf -z -E 40 (the stream ends inside a record): kma-analyze = perf script's figures" \
			python3 "$PSC" --kallsyms "$K" "$KMA" "$TMP/cut.data" "$TMP/ce"
		"$KMA" -q --no-db --kallsyms "$K" "$TMP/cut.data" > /dev/null 2> "$TMP/cut.err"; rc=$?
		check "perfgen: -E 40: exit 0 and one warning naming the partial record (its size less 40 bytes)" \
			python3 - "$rc" "$TMP/cut.err" "$TMP/cut.data" <<'EOF'
import re, sys
rc, err, path = sys.argv[1], open(sys.argv[2]).read().splitlines(), sys.argv[3]
print(rc, err)
assert rc == "0" and len(err) == 1, "want exit 0 and one line"
m = re.fullmatch(r"kma-analyze: (.*): warning: the compressed records end inside a record "
                 r"\((\d+) of its (\d+) bytes; perf record left the rest unwritten\): "
                 r"it is left out, as perf does", err[0])
assert m and m.group(1) == path, "not the warning"
assert int(m.group(2)) + 40 == int(m.group(3)), "not 40 bytes short"
EOF
	else
		fail "perfgen: mkperf -E" "$(cat "$TMP/gene.err")"
	fi
fi

# pipe mode (-p): perf script names no call site of a pipe-mode file, so the callers
# are compared by address (an empty --kallsyms)
mkdir -p "$TMP/cp"
if gen "$TMP/pipe.data" -n 20000 -p -g -L -c 3 -s 5 > "$TMP/genp.err" 2>&1; then
	check "perfgen: mkperf -p (pipe mode): kma-analyze = perf script's figures" \
		python3 "$PSC" --kallsyms /dev/null "$KMA" "$TMP/pipe.data" "$TMP/cp"
else
	fail "perfgen: mkperf -p" "$(cat "$TMP/genp.err")"
fi

# the comparison can fail: one free short of perf script's count
check "perfgen: the comparison fails when a figure differs" sh -c \
	"! KMA_PERF_CHECK_DROP=1 python3 '$PSC' --kallsyms '$K' '$KMA' '$TMP/g1.data' \
	  '$TMP/c1' > /dev/null"

# the same seed writes the same bytes; another seed other ones
gen "$TMP/again.data" -n 20000 2> /dev/null
gen "$TMP/other.data" -n 20000 -s 2 2> /dev/null
check "perfgen: mkperf is deterministic for a seed" cmp "$TMP/g1.data" "$TMP/again.data"
check "perfgen: another seed, other samples" sh -c "! cmp -s '$TMP/g1.data' '$TMP/other.data'"

# the record order, from the file's bytes: header (data offset and size at 40 and 48),
# records (u32 type, u16 misc, u16 size); a sample's time after its id, ip, pid/tid
check "perfgen: samples out of time order within a round and across one, not two" \
	python3 - "$TMP/g4.data" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
off, size = struct.unpack_from("<QQ", b, 40)
pos, end, rounds, cur = off, off + size, [], []
while pos < end:
    typ, misc, sz = struct.unpack_from("<IHH", b, pos)
    if typ == 9:
        cur.append(struct.unpack_from("<Q", b, pos + 32)[0])
    elif typ == 68:
        rounds.append(cur)
        cur = []
    pos += sz
assert pos == end, "records overrun the data section"
rounds = [r for r in rounds if r]
inside = sum(any(r[j] < r[j - 1] for j in range(1, len(r))) for r in rounds)
across = sum(min(rounds[k]) < max(rounds[k - 1]) for k in range(1, len(rounds)))
broken = sum(min(rounds[k]) < max(rounds[k - 2]) for k in range(2, len(rounds)))
print(len(rounds), "rounds;", inside, "out of order inside,", across, "across one,",
      broken, "across two")
assert len(rounds) > 10 and inside > len(rounds) // 2 and across > len(rounds) // 2
assert broken == 0
EOF

# -x: a tracing-data section of a few KB (the fuzz seeds'), the full one ~100 KB
check "perfgen: -x writes a small tracing-data section" python3 - "$TMP/g3.data" \
	"$TMP/g1.data" <<'EOF'
import struct, sys
def tracing(path):
    b = open(path, "rb").read()
    off, size = struct.unpack_from("<QQ", b, 40)
    assert b[72] & 2, "no tracing data"
    return struct.unpack_from("<QQ", b, off + size)[1]  # bit 1: the table's first entry
small, full = tracing(sys.argv[1]), tracing(sys.argv[2])
print("tracing data: -x", small, "bytes, whole", full)
assert small < 8192 < full
EOF
