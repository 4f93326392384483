# kma-diff with runs of the fleet store as operands (pg:CONNINFO#SELECTORS), on a private
# PostgreSQL 15 cluster (tests/lib-pg.sh). Runs are pushed from hand-built mktrace
# sequences (tests/diff/scope-*.seq, whose comments work the numbers out) and the
# fixtures; the numbers of a store operand are checked against the hand-worked rows of
# those sequences, and for every key, filter, generation, format and gate kma-diff's
# output with store operands is the output with the report.db files (whose numbers
# t-diff and t-diff-scope check against trace-cmd report), names aside; store and file
# operands mixed; the faults: no '#', a word that is no selector, the server down, a
# wrong password (never echoed), no such run, several runs matching, a filter on a run
# pushed without --allocations.
PUSH=$TOP/$B/analyzer/kma-push
DIFF=$TOP/$B/analyzer/kma-diff
MKTRACE=$TOP/$B/tests/tools/mktrace
KMA_A=$TOP/$B/analyzer/kma-analyze
FIX=$TOP/tests/fixtures
. "$TOP/tests/lib-pg.sh"

fdiff_main() {
	if [ ! -x "$PUSH" ] || [ ! -x "$DIFF" ]; then
		fail "fleet-diff: kma-push and kma-diff built" "no $PUSH or $DIFF"
		return
	fi
	need_mktrace || return 0
	if ! pg_start; then
		skip "fleet-diff: every check" "$PG_WHY"
		return
	fi
	pass "fleet-diff: private PostgreSQL 15 cluster started in $PG_START_MS ms"
	F=$TMP/fleet-diff
	mkdir -p "$F"
	fdiff_setup || return 0
	fdiff_known
	fdiff_same
	fdiff_mixed
	fdiff_gates
	fdiff_faults
	fdiff_kinds
	pg_stop
}

# The runs: the scope sequences and the fixtures with --allocations, each with a label
# name=...; basic.db (the report.db file: another trace id) without --allocations.
fdiff_setup() {
	local n

	"$MKTRACE" -o "$F/sb.dat" "$TOP/tests/diff/scope-base.seq" > /dev/null &&
	"$MKTRACE" -o "$F/sn.dat" "$TOP/tests/diff/scope-new.seq" > /dev/null &&
	"$MKTRACE" -o "$F/gens.dat" "$TOP/tests/kindstore/gens.seq" > /dev/null || {
		fail "fleet-diff: mktrace of tests/diff/scope-*.seq, tests/kindstore/gens.seq"
		return 1
	}
	cp "$FIX/basic.dat" "$FIX/markers.dat" "$FIX/stacks.dat" "$F/"
	for n in sb sn basic markers gens stacks; do
		"$KMA_A" -q -o "$F/$n.db" "$F/$n.dat" || { fail "fleet-diff: analyze $n.dat"; return 1; }
	done
	U="host=$PG_SOCK user=kma_admin dbname=kma"
	# what kma-diff prints for the server: socket directory, port, database
	SRV="$PG_SOCK:5432/kma"
	"$PUSH" --init "$U" > /dev/null 2>&1 || { fail "fleet-diff: kma-push --init"; return 1; }
	for n in sb sn basic markers gens stacks; do
		"$PUSH" --allocations --label name=$n --label group=all "$U" "$F/$n.db" \
			> /dev/null 2>&1 || { fail "fleet-diff: push $n.db"; return 1; }
	done
	"$PUSH" --label name=basic-agg "$U" "$F/basic.dat" > /dev/null 2>&1 ||
		{ fail "fleet-diff: push basic.dat"; return 1; }
	check "fleet-diff: 7 runs pushed" test "$(pg_q kma -c 'SELECT count(*) FROM kma_fleet.runs')" = 7
}

# op NAME: the store operand of the run labelled name=NAME
op() { echo "pg:$U#label:name=$1"; }

# The hand-worked numbers of tests/diff/scope-*.seq (as t-diff-scope checks them on the
# files) from store operands: --comm tar per caller, and per cache.
fdiff_known() {
	local head=key,base_total,new_total,delta_total,base_slack,new_slack,delta_slack,base_net,new_net,delta_net,base_allocs,new_allocs,delta_allocs,base_frees,new_frees,delta_frees

	{ echo "$head"; cat <<'END'
alloc_c+0x30,,1024,1024,,24,24,,1024,1024,,1,1,,0,0
alloc_a+0x10,640,640,0,40,40,0,0,512,512,2,2,0,2,1,-1
alloc_b+0x20,192,192,0,8,8,0,192,192,0,1,1,0,0,0,0
END
	} > "$F/want.csv"
	"$DIFF" -f csv --comm tar "$(op sb)" "$(op sn)" > "$F/got.csv" 2> "$F/err"
	check "fleet-diff: --comm tar per caller from the store: the hand-worked rows" \
		diff "$F/want.csv" "$F/got.csv"
	check "fleet-diff: the run of a label, no password or user in the report" \
		sh -c "! grep -q kma_admin '$F/got.csv' && \
		       '$DIFF' '$(op sb)' '$(op sn)' | head -2 | grep -qF 'pg:$SRV#label:name=sb'"
}

# norm OUT BASE_NAME NEW_NAME: OUT with the operands' names as BASE and NEW
norm() {
	python3 -c '
import sys
t = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read()
sys.stdout.write(t.replace(sys.argv[2], "BASE").replace(sys.argv[3], "NEW"))' "$@"
}

# same NAME BASE NEW ARGS...: kma-diff ARGS on the store runs labelled BASE and NEW
# prints what it prints on BASE.db and NEW.db (stdout and stderr; a store run's error
# names its run id after the operand), and exits the same
same() {
	local name=$1 b=$2 n=$3 rf rp

	shift 3
	"$DIFF" "$@" "$F/$b.db" "$F/$n.db" > "$F/f.out" 2> "$F/f.err"
	rf=$?
	"$DIFF" "$@" "$(op "$b")" "$(op "$n")" > "$F/p.out" 2> "$F/p.err"
	rp=$?
	norm "$F/f.out" "$F/$b.db" "$F/$n.db" > "$F/f.norm"
	norm "$F/p.out" "pg:$SRV#label:name=$b" "pg:$SRV#label:name=$n" > "$F/p.norm"
	norm "$F/f.err" "$F/$b.db" "$F/$n.db" > "$F/f.enorm"
	norm "$F/p.err" "pg:$SRV#label:name=$b" "pg:$SRV#label:name=$n" |
		sed 's/: run [0-9]*: /: /' > "$F/p.enorm"
	if [ "$rf" != "$rp" ]; then
		fail "fleet-diff: $name" "exit $rp, files $rf: $(cat "$F/p.err")"
	elif [ ! -s "$F/f.out" ] && [ ! -s "$F/f.err" ] && [ "$rf" != 0 ]; then
		fail "fleet-diff: $name" "nothing from the files, exit $rf"
	elif ! diff "$F/f.norm" "$F/p.norm" > "$F/d" || ! diff "$F/f.enorm" "$F/p.enorm" >> "$F/d"
	then
		fail "fleet-diff: $name" "$(head -8 "$F/d")"
	else
		pass "fleet-diff: $name"
	fi
}

fdiff_same() {
	local g f fmt

	for g in caller function module cache; do
		for f in "" "--comm tar" "--pid 100,102" "--caller ^alloc_(a|c)" "--cache kmalloc-*" \
			 "--cache !kmalloc-64" "--exclude-self" "--comm !tar --caller alloc_b"; do
			# shellcheck disable=SC2086
			same "-g $g $f: store runs as the files" sb sn -f csv -g "$g" $f
		done
	done
	# a run with percpu and vmalloc allocations: filtered, its slab rows only, as the file's
	for g in caller function; do
		same "-g $g --comm bash, a run with other kinds: its slab rows, as the files" \
			gens sb -f csv -g "$g" --comm bash
	done
	for fmt in text json; do
		same "-f $fmt -g cache --comm tar: store runs as the files" sb sn -f "$fmt" -g cache \
			--comm tar
		same "-f $fmt basic -> markers: store runs as the files" basic markers -f "$fmt"
	done
	same "-g stack: store runs as the files" stacks stacks -g stack
	same "-g stack --comm: store runs as the files" stacks stacks -f csv -g stack \
		--comm "$(sqlite3 "$F/stacks.db" 'SELECT comm FROM tasks LIMIT 1')"
	same "--rate -s total -n 3: store runs as the files" basic markers --rate -s total -n 3
	same "--generation 2: store runs as the files" markers markers --generation 2
	same "--base-generation 1 --new-generation 3 -g function" markers markers \
		--base-generation 1 --new-generation 3 -g function -f csv
	same "--generation gen1 --rate" markers markers --generation gen1 --rate
	same "--generation 99: the same error" markers markers --generation 99
	same "-g stack of a run without stacks: the same error" basic basic -g stack
}

# A store run against a file, both ways round: the files' report, names aside.
fdiff_mixed() {
	"$DIFF" -f csv -g function "$F/sb.db" "$F/sn.db" > "$F/ff.csv"
	"$DIFF" -f csv -g function "$(op sb)" "$F/sn.db" > "$F/pf.csv"
	"$DIFF" -f csv -g function "$F/sb.db" "$(op sn)" > "$F/fp.csv"
	check "fleet-diff: store run vs file, file vs store run: the files' rows" \
		sh -c "test -s '$F/ff.csv' && cmp '$F/ff.csv' '$F/pf.csv' && cmp '$F/ff.csv' '$F/fp.csv'"
	"$DIFF" -f csv "$(op sb)" "$F/sn.dat" > "$F/pt.csv" 2> "$F/err"
	"$DIFF" -f csv "$F/sb.db" "$F/sn.db" > "$F/ff2.csv"
	check "fleet-diff: store run vs a trace.dat analyzed on the fly" cmp "$F/ff2.csv" "$F/pt.csv"
	"$DIFF" -f csv "pg:$U#run=$(pg_q kma -c "SELECT run_id FROM kma_fleet.run_labels WHERE \
		key = 'name' AND value = 'sb'")" "$F/sn.db" > "$F/pr.csv"
	check "fleet-diff: run=ID selects the same run as its label" cmp "$F/ff2.csv" "$F/pr.csv"
	"$DIFF" -f csv "pg:$U#group=x,label:group=all,latest" "$F/sb.db" > /dev/null 2>&1
	rc=$?
	check "fleet-diff: a bad word among selectors: usage error" test "$rc" = 2
	"$DIFF" -f csv "pg:$U#label:group=all latest" "$F/stacks.db" > "$F/l.csv" 2> "$F/err"
	"$DIFF" -f csv "$F/stacks.db" "$F/stacks.db" > "$F/s.csv"
	check "fleet-diff: label:group=all latest (blank-separated): the last run pushed of them" \
		cmp "$F/s.csv" "$F/l.csv"
	"$DIFF" -f csv "pg:$U#label:group=all,latest" "$F/stacks.db" > "$F/l2.csv" 2> "$F/err"
	check "fleet-diff: label:group=all,latest (comma-separated): the same" cmp "$F/s.csv" "$F/l2.csv"
}

# --fail-if and --key on store runs: the files' verdicts and exit status.
fdiff_gates() {
	same "--fail-if 'net>+0' holds: exit 3" sb sn -q --fail-if 'net>+0'
	same "--fail-if 'net>+10MiB' does not hold: exit 0" sb sn -q --fail-if 'net>+10MiB'
	same "--key alloc_c+0x30 --fail-if 'allocs>0' --comm tar" sb sn -q --fail-if 'allocs>0' \
		--key alloc_c+0x30 --comm tar
	same "--key of no such key: the same error" sb sn -q --fail-if 'allocs>0' --key nosuch+0x1
}

# fault NAME RC PATTERN OPERAND [ARGS...]: kma-diff ARGS OPERAND sb.db exits RC with
# one line (two for a usage error: the line and "Try") matching PATTERN
fault() {
	local name=$1 want=$2 pattern=$3 operand=$4 lines

	shift 4
	"$DIFF" "$@" "$operand" "$F/sb.db" > "$F/out" 2> "$F/err"
	rc=$?
	lines=$([ "$want" = 2 ] && echo 2 || echo 1)
	if [ "$rc" != "$want" ]; then
		fail "fleet-diff: $name" "exit $rc, want $want: $(head -3 "$F/err")"
	elif [ "$(wc -l < "$F/err")" != "$lines" ] || ! head -1 "$F/err" | grep -q -- "$pattern" ||
	     [ -s "$F/out" ]; then
		fail "fleet-diff: $name" "want $lines line(s) matching '$pattern': $(cat "$F/err")"
	else
		pass "fleet-diff: $name"
	fi
}

fdiff_faults() {
	local down=$F/nosrv

	fault "no '#': usage error" 2 "pg:#: no '#'" "pg:$U"
	fault "nothing after '#': usage error" 2 "no run selector after '#'" "pg:$U#"
	fault "a word that is no selector: usage error" 2 "'bogus' is not a run selector" \
		"pg:$U#bogus"
	mkdir -p "$down"
	fault "server down: one line naming it, exit 1" 1 "^kma-diff: pg:#run=1: $down:5432/kma: cannot connect" \
		"pg:host=$down user=kma_admin dbname=kma#run=1"
	fault "no such run: one line, exit 1" 1 "pg:$SRV#run=999: no run matches 'run=999'" \
		"pg:$U#run=999"
	fault "several runs match: how many, exit 1" 1 "6 runs match 'label:group=all', one is needed" \
		"pg:$U#label:group=all"
	fault "a filter on a run pushed without --allocations: exit 1" 1 \
		"run [0-9]* was pushed without --allocations, so no filter" \
		"$(op basic-agg)" --comm tar
	fault "--generation on it: exit 1" 1 "so no --generation" "$(op basic-agg)" --generation 1
	fault "a database that is no fleet store: exit 1" 1 "not a kma fleet store" \
		"pg:host=$PG_SOCK user=kma_admin dbname=postgres#run=1"
	pg_q kma -c "CREATE ROLE kma_pw LOGIN PASSWORD 'right-pw'" \
		-c 'GRANT USAGE ON SCHEMA kma_fleet TO kma_pw' \
		-c 'GRANT SELECT ON ALL TABLES IN SCHEMA kma_fleet TO kma_pw' > /dev/null
	fault "wrong password: one line, the password not in it" 1 "password authentication failed" \
		"pg:host=$PG_SOCK user=kma_pw password=Wrong-Secret dbname=kma#run=1"
	check "fleet-diff: ... and the password is not echoed" sh -c "! grep -q Wrong-Secret '$F/err'"
	PGPASSWORD=right-pw "$DIFF" "pg:host=$PG_SOCK user=kma_pw dbname=kma#label:name=sb" \
		"$F/sn.db" > "$F/out" 2> "$F/err"
	check "fleet-diff: PGPASSWORD the libpq way, a read-only role: a report" \
		sh -c "test -s '$F/out' && ! grep -q right-pw '$F/out' '$F/err'"
	"$DIFF" "pg:host=$PG_SOCK user=kma_pw password=right-pw dbname=kma#label:name=sb" \
		"$F/sn.db" > "$F/out" 2> "$F/err"
	check "fleet-diff: a password in the operand is not in the report" \
		sh -c "test -s '$F/out' && ! grep -q right-pw '$F/out' '$F/err'"
}

# The allocators beside slab: runs of tests/kinds/basic.seq and tests/kindstore/gens.seq
# (percpu, vmalloc), tests/pages/basic.seq, gens.seq and tests/diff-page/new.seq (page,
# analyzed with --pages), each pushed with --allocations; kb also without. For every key
# the store keeps, each filter and generation and format: kma-diff --kind K on the store
# runs prints what it prints on their report.db files (whose numbers t-diff-kind and
# t-diff-page check by hand; -g module t-kinds-module); the keys it does not keep are
# refused in one line.
fdiff_kinds() {
	local n k g

	"$MKTRACE" -o "$F/kb.dat" "$TOP/tests/kinds/basic.seq" > /dev/null &&
	"$MKTRACE" -o "$F/pb.dat" "$TOP/tests/pages/basic.seq" > /dev/null &&
	"$MKTRACE" -o "$F/pgens.dat" "$TOP/tests/pages/gens.seq" > /dev/null &&
	"$MKTRACE" -o "$F/pn.dat" "$TOP/tests/diff-page/new.seq" > /dev/null &&
	"$KMA_A" -q -o "$F/kb.db" "$F/kb.dat" || { fail "fleet-diff: kinds traces"; return; }
	for n in pb pn pgens; do
		"$KMA_A" -q --pages -o "$F/$n.db" "$F/$n.dat" ||
			{ fail "fleet-diff: analyze $n.dat --pages"; return; }
	done
	for n in kb pb pn pgens; do
		"$PUSH" --allocations --label name=$n --label group=kinds "$U" "$F/$n.db" \
			> /dev/null 2> "$F/err" || { fail "fleet-diff: push $n.db" "$(cat "$F/err")"; return; }
	done
	"$PUSH" --label name=kb-agg "$U" "$F/kb.dat" > /dev/null 2>&1 ||
		{ fail "fleet-diff: push kb.dat"; return; }
	for k in percpu vmalloc; do
		for g in caller function stack module; do
			same "--kind $k -g $g: store runs as the files" kb gens -f csv --kind $k -g $g
			same "--kind $k -g $g, new -> base: store runs as the files" gens kb -f csv \
				--kind $k -g $g
		done
		same "--kind $k --comm bash: store runs as the files" kb gens -f csv --kind $k \
			--comm bash
		same "--kind $k -g module --comm bash: store runs as the files" kb gens -f csv \
			--kind $k -g module --comm bash
		same "--kind $k --caller !^__ioremap: store runs as the files" gens kb -f csv \
			--kind $k --caller '!^__ioremap'
		same "--kind $k --generation 1 -g stack: store runs as the files" gens gens -f csv \
			--kind $k --base-generation 0 --new-generation 1 -g stack
		same "--kind $k -f text: store runs as the files" kb gens --kind $k
		same "--kind $k -f json --rate: store runs as the files" kb gens -f json --rate \
			--kind $k
		same "--kind $k on a run without $k: the same error" sb gens --kind $k
	done
	for g in function comm pid generation order migrate gfp stack; do
		same "--kind page -g $g: store runs as the files" pb pn -f csv --kind page -g $g
		same "--kind page -g $g, generations: store runs as the files" pgens pn -f csv \
			--kind page -g $g
	done
	same "--kind page --comm bash: store runs as the files" pb pn -f csv --kind page --comm bash
	same "--kind page --caller: store runs as the files" pn pgens -f csv --kind page -g comm \
		--caller '!^kmalloc'
	same "--kind page --generation 1: store runs as the files" pgens pgens --kind page \
		--base-generation 0 --new-generation 1 -f csv
	same "--kind page -f json: store runs as the files" pb pn -f json --kind page
	same "--kind page --fail-if: the files' verdict" pb pn -q --kind page -g comm \
		--fail-if 'net>+0'
	fdiff_page_keys
	"$DIFF" -f csv --kind percpu -g module "$(op kb-agg)" "$F/gens.db" > "$F/agg.csv" 2> "$F/err" &&
	"$DIFF" -f csv --kind percpu -g module "$F/kb.db" "$F/gens.db" > "$F/file.csv"
	check "fleet-diff: --kind percpu -g module of a run pushed without --allocations" \
		sh -c "grep -q '^vmlinux,' '$F/file.csv' && cmp '$F/file.csv' '$F/agg.csv'"
	fault "--kind page on a run without page rows: exit 1" 1 \
		"run [0-9]*: no page allocator rows" "$(op sb)" --kind page
	"$DIFF" -f csv --kind vmalloc "$(op kb-agg)" "$F/gens.db" > "$F/agg.csv" 2> "$F/err" &&
	"$DIFF" -f csv --kind vmalloc "$F/kb.db" "$F/gens.db" > "$F/file.csv"
	check "fleet-diff: --kind vmalloc by caller of a run pushed without --allocations" \
		sh -c "test -s '$F/agg.csv' && cmp '$F/file.csv' '$F/agg.csv'"
	for k in percpu vmalloc; do
		"$DIFF" -f csv --kind $k -g stack "$(op kb-agg)" "$F/gens.db" > "$F/agg.csv" \
			2> "$F/err" &&
		"$DIFF" -f csv --kind $k -g stack "$F/kb.db" "$F/gens.db" > "$F/file.csv"
		check "fleet-diff: --kind $k -g stack of a run without --allocations (kind_stacks)" \
			sh -c "test -s '$F/agg.csv' && cmp '$F/file.csv' '$F/agg.csv'"
	done
	fault "--kind vmalloc -g stack --comm of a run without --allocations: exit 1" 1 \
		"pushed without --allocations, so no filter" "$(op kb-agg)" --kind vmalloc -g stack \
		--comm bash
}

# The page allocator's order, migrate type, gfp names and stack (schema version 4):
# with a filter or a generation, store runs as the files (above: each key whole); -g
# stack of a run pushed without --allocations from kind_stacks; the other keys refused
# on such a run, and on a run whose page rows have no order (as a store upgraded from
# version 3 holds the runs pushed before), in one line naming the key.
fdiff_page_keys() {
	same "--kind page -g order --generation 1: store runs as the files" pgens pgens -f csv \
		--kind page -g order --base-generation 0 --new-generation 1
	same "--kind page -g migrate --comm bash: store runs as the files" pb pn -f csv \
		--kind page -g migrate --comm bash
	same "--kind page -g gfp --caller: store runs as the files" pn pgens -f csv --kind page \
		-g gfp --caller '!^kmalloc'
	same "--kind page -g stack --generation 1: store runs as the files" pb pb -f csv \
		--kind page -g stack --base-generation 0 --new-generation 1
	same "--kind page -g stack --comm bash: store runs as the files" pb pn -f csv \
		--kind page -g stack --comm bash
	same "--kind page -g gfp -f text: store runs as the files" pb pgens --kind page -g gfp
	same "--kind page -g stack -f json --rate: store runs as the files" pn pb -f json \
		--rate --kind page -g stack
	cp "$F/pb.db" "$F/pg-agg.db"
	sqlite3 "$F/pg-agg.db" "UPDATE trace SET file = 'agg'"
	"$PUSH" --label name=pg-agg "$U" "$F/pg-agg.db" > /dev/null 2>&1 ||
		{ fail "fleet-diff: push pg-agg.db"; return; }
	"$DIFF" -f csv --kind page -g stack "$(op pg-agg)" "$F/pn.db" > "$F/agg.csv" 2> "$F/err" &&
	"$DIFF" -f csv --kind page -g stack "$F/pb.db" "$F/pn.db" > "$F/file.csv"
	check "fleet-diff: --kind page -g stack of a run without --allocations (kind_stacks)" \
		sh -c "test -s '$F/agg.csv' && cmp '$F/file.csv' '$F/agg.csv'"
	fault "--kind page -g order of a run without --allocations: exit 1" 1 \
		"pushed without --allocations, so no -g order of the page allocator" "$(op pg-agg)" \
		--kind page -g order
	cp "$F/pb.db" "$F/pb-old.db"
	sqlite3 "$F/pb-old.db" "UPDATE trace SET file = 'old'"
	"$PUSH" --allocations --label name=pb-old "$U" "$F/pb-old.db" > /dev/null 2>&1 ||
		{ fail "fleet-diff: push pb-old.db"; return; }
	pg_q kma -c "UPDATE kma_fleet.allocations SET page_order = NULL, migratetype = NULL,
		gfp = NULL, page_stack = NULL WHERE kind = 'page' AND run_id = (SELECT run_id FROM
		kma_fleet.run_labels WHERE key = 'name' AND value = 'pb-old')" > /dev/null
	fault "--kind page -g migrate of a run pushed before version 4: exit 1" 1 \
		"run [0-9]* was pushed by a kma-push before fleet schema version 4, which kept no page migrate" \
		"$(op pb-old)" --kind page -g migrate
	fdiff_kind_query
}

# kma-fleet(5)'s kind-stack-releases for pb.db's costliest page stack: the sums over the
# report.db files of the runs with page rows (pb, pn, pgens, pg-agg and pb-old: pb.db
# thrice), worked by sqlite3 from page_alloc_rows and page_shapes
fdiff_kind_query() {
	local folded want got n

	folded=$(sqlite3 "$F/pb.db" "SELECT sh.stack FROM page_alloc_rows AS r JOIN page_shapes
		AS sh ON sh.id = r.shape_id, page_trace AS pt WHERE sh.stack IS NOT NULL GROUP BY 1
		ORDER BY sum((1 << sh.page_order) * pt.page_size) DESC, 1 LIMIT 1")
	want=$(for n in pb pn pgens pb pb; do
		sqlite3 -separator '|' "$F/$n.db" "SELECT t.kernel_release,
			sum((1 << sh.page_order) * pt.page_size),
			sum(CASE WHEN r.free_ts IS NULL THEN (1 << sh.page_order) * pt.page_size ELSE 0 END),
			count(*) FROM page_alloc_rows AS r JOIN page_shapes AS sh ON sh.id = r.shape_id,
			page_trace AS pt, trace AS t WHERE sh.stack = '$folded' GROUP BY 1"
	done | awk -F'|' '{ t[$1] += $2; n[$1] += $3; a[$1] += $4; r[$1]++ }
		END { for (k in t) print k "|" t[k] "|" n[k] "|" a[k] "|" r[k] }' | sort)
	sed -n '/^\.\\" query-begin kind-stack-releases$/,/^\.\\" query-end$/p' \
		"$TOP/docs/kma-fleet.5" | sed '1d;$d' |
		sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" > "$F/q.sql"
	got=$(psql -X -q -A -t -v ON_ERROR_STOP=1 -v kind=page -v folded="$folded" "$U" \
		-f "$F/q.sql" 2>&1)
	check "fleet-diff: kma-fleet(5) kind-stack-releases: a page stack's bytes, by sqlite3" \
		sh -c "[ -n '$folded' ] && [ -n '$want' ] && [ '$want' = '$got' ]"
}

fdiff_main
