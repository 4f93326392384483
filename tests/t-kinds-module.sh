# kma-diff --kind percpu|vmalloc -g module on every operand type (kma-diff(1)):
# - tests/kindmodule/base.seq and new.seq (callers in vmlinux, in [nf_conntrack] and
#   [kvm], at an address no symbol names, without a stack) against the per-module sums
#   worked out by hand in expect.rows: the whole trace, --generation g1 and --comm, from
#   trace operands, from their report.db files and from kma-analyze --kind K -g module
#   (the matcher's own grouping; the trace operands' scopes in the plain pass only),
#   the report.db's kind_callers.module as written;
# - a report.db written before kind_callers.module: refused in one line saying so;
# - the fleet store (a private PostgreSQL 15 cluster, tests/lib-pg.sh): runs pushed from
#   those report.db files print what the files print (every scope, format and gate); the
#   module pushed with each caller, runs.kind_modules; a run pushed from the older
#   report.db, and one whose modules are unknown (pushed before fleet schema version 5),
#   refused in one line naming the run; two modules sharing a caller name: the whole
#   run by module, but no filter (its allocation rows keep the name alone).
MKTRACE=$TOP/$B/tests/tools/mktrace
DIFF=$TOP/$B/analyzer/kma-diff
PUSH=$TOP/$B/analyzer/kma-push
EXP=$TOP/tests/kindmodule
. "$TOP/tests/lib-pg.sh"

# scope_args SCOPE: the options of expect.rows' scope
scope_args() {
	case $1 in
	g1) echo "--generation g1" ;;
	kworker) echo "--comm kworker/1:0" ;;
	esac
}

# want KIND SCOPE: expect.rows' lines of the kind and scope as "SIDE MODULE total net
# allocs frees", sorted
want() {
	awk -v k="$1" -v s="$2" '!/^#/ && $2 == s && $3 == k { print $1, $4, $5, $6, $7, $8 }' \
		"$EXP/expect.rows" | LC_ALL=C sort
}

# got_diff: kma-diff -f csv on stdin as want's lines (a side without the key prints none)
got_diff() {
	awk -F, 'NR > 1 {
		if ($2 != "") print "base", $1, $2, $8, $11, $14
		if ($3 != "") print "new", $1, $3, $9, $12, $15 }' | LC_ALL=C sort
}

# got_analyze SIDE: kma-analyze -f csv --kind K -g module on stdin as want's lines
got_analyze() {
	awk -F, -v side="$1" 'NR > 1 { print side, $2, $3, $4, $5, $6 }'
}

km_files() {
	local k s a
	for k in percpu vmalloc; do
		for s in all g1 kworker; do
			a=$(scope_args $s)
			want $k $s > "$TMP/want.txt"
			# shellcheck disable=SC2086
			"$DIFF" --kind $k -g module $a -f csv "$TMP/base.db" "$TMP/new.db" \
				> "$TMP/db.csv" 2> "$TMP/err.txt"
			got_diff < "$TMP/db.csv" > "$TMP/got.txt"
			check "kinds module: --kind $k -g module $a of two report.db files: the hand-worked sums" \
				sh -c "test -s '$TMP/want.txt' && diff '$TMP/want.txt' '$TMP/got.txt'"
			# a trace operand is analyzed into a report.db, then read as one: the
			# whole trace in every pass, the scopes (the same reading) in the plain one
			if [ "$s" = all ] || [ "$SWEEP" = full ]; then
				# shellcheck disable=SC2086
				"$DIFF" --kind $k -g module $a -f csv "$TMP/base.dat" "$TMP/new.dat" \
					> "$TMP/trace.csv" 2> "$TMP/err.txt"
				check "kinds module: --kind $k -g module $a of their traces: the same" \
					cmp "$TMP/db.csv" "$TMP/trace.csv"
			else
				drop "kinds module: --kind $k -g module $a of the traces" \
					"the report.db files' reading, checked above; run in the plain pass"
			fi
			# shellcheck disable=SC2086
			{ "$KMA" --no-db -f csv --kind $k -g module $a "$TMP/base.dat" |
				got_analyze base
			  "$KMA" --no-db -f csv --kind $k -g module $a "$TMP/new.dat" |
				got_analyze new; } 2> /dev/null | LC_ALL=C sort > "$TMP/an.txt"
			check "kinds module: kma-analyze --kind $k -g module $a: the same sums" \
				diff "$TMP/want.txt" "$TMP/an.txt"
		done
	done
	for f in text json; do
		"$DIFF" --kind vmalloc -g module -f $f "$TMP/base.dat" "$TMP/new.dat" 2> /dev/null |
			sed "s|$TMP/base.dat|BASE|g; s|$TMP/new.dat|NEW|g" > "$TMP/a.out"
		"$DIFF" --kind vmalloc -g module -f $f "$TMP/base.db" "$TMP/new.db" 2> /dev/null |
			sed "s|$TMP/base.db|BASE|g; s|$TMP/new.db|NEW|g" > "$TMP/b.out"
		check "kinds module: -f $f of report.db files = of the traces" \
			sh -c "grep -q kvm '$TMP/a.out' && cmp '$TMP/a.out' '$TMP/b.out'"
	done
	# the gates on a module: nf_conntrack's percpu net grew by 96 bytes (64 -> 160)
	"$DIFF" -q --kind percpu -g module --key nf_conntrack --fail-if 'net>+64' \
		"$TMP/base.db" "$TMP/new.db" 2> /dev/null
	rc=$?
	"$DIFF" -q --kind percpu -g module --key nf_conntrack --fail-if 'net>+96' \
		"$TMP/base.db" "$TMP/new.db" 2> /dev/null
	check "kinds module: --key nf_conntrack --fail-if net>+64 holds (exit 3), net>+96 not" \
		test "$rc $?" = "3 0"
	# kind_callers.module as written: NULL in vmlinux and where no symbol names the caller
	check "kinds module: report.db's kind_callers.module" test "$(sqlite3 "$TMP/base.db" \
		"SELECT c.caller || ' ' || COALESCE(c.module, 'NULL') FROM kind_callers AS c
		 ORDER BY c.kind, c.caller")" = "0xffffffffa0000010 NULL
mem_cgroup_css_alloc+0x20 NULL
nf_ct_alloc+0x10 nf_conntrack
nf_ct_hash_alloc+0x8 nf_conntrack
[no stack] NULL
bpf_map_area_alloc+0x60 NULL
kvm_mmu_create+0x30 kvm"
	# a report.db of version 7 written before the column: -g module refused, the rest read
	cp "$TMP/base.db" "$TMP/old.db"
	sqlite3 "$TMP/old.db" "ALTER TABLE kind_callers DROP COLUMN module; UPDATE trace SET file = 'old'"
	"$DIFF" --kind percpu -g module "$TMP/old.db" "$TMP/new.db" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	check "kinds module: a report.db before kind_callers.module: exit 1, one line saying so" \
		sh -c "test $rc = 1 && test ! -s '$TMP/out.txt' && test \$(wc -l < '$TMP/err.txt') = 1 &&
		grep -qx 'kma-diff: $TMP/old.db: report.db written before kind_callers had the callers. module, so no -g module of the percpu callers (analyze the trace again with this kma-analyze)' '$TMP/err.txt'"
	check "kinds module: ... and -g function of it as of the newer file" sh -c "
		'$DIFF' --kind percpu -g function -f csv '$TMP/old.db' '$TMP/new.db' > '$TMP/a.csv' &&
		'$DIFF' --kind percpu -g function -f csv '$TMP/base.db' '$TMP/new.db' > '$TMP/b.csv' &&
		test \$(wc -l < '$TMP/a.csv') -gt 1 && cmp '$TMP/a.csv' '$TMP/b.csv'"
}

# norm FILE BASE NEW: FILE with the operands' names as BASE and NEW, a run's id dropped
norm() {
	sed "s|$2|BASE|g; s|$3|NEW|g; s/: run [0-9]*: /: /" "$1"
}

# km_same NAME [B N] ARGS...: kma-diff ARGS of the store runs km-B and km-N (km-base and
# km-new without B N) prints what it prints of B.db and N.db, and exits the same
km_same() {
	local name=$1 rf rp b=base n=new
	shift
	case $1 in -*) ;; *) b=$1 n=$2; shift 2 ;; esac
	"$DIFF" "$@" "$TMP/$b.db" "$TMP/$n.db" > "$TMP/f.out" 2>&1
	rf=$?
	"$DIFF" "$@" "pg:$U#label:name=km-$b" "pg:$U#label:name=km-$n" > "$TMP/p.out" 2>&1
	rp=$?
	norm "$TMP/f.out" "$TMP/$b.db" "$TMP/$n.db" > "$TMP/f.norm"
	norm "$TMP/p.out" "pg:$SRV#label:name=km-$b" "pg:$SRV#label:name=km-$n" > "$TMP/p.norm"
	if [ "$rf" != "$rp" ]; then
		fail "kinds module: store: $name" "exit $rp, files $rf: $(head -3 "$TMP/p.out")"
	elif [ "$rf" = 0 ] && ! grep -q '[a-z]' "$TMP/f.norm"; then
		fail "kinds module: store: $name" "nothing from the files, exit $rf"
	else
		check "kinds module: store: $name" diff "$TMP/f.norm" "$TMP/p.norm"
	fi
}

# km_refused NAME PATTERN ARGS...: kma-diff ARGS exits 1 with one line matching PATTERN
km_refused() {
	local name=$1 pattern=$2
	shift 2
	"$DIFF" "$@" > "$TMP/out.txt" 2> "$TMP/err.txt"
	rc=$?
	check "kinds module: store: $name" sh -c "test $rc = 1 && test ! -s '$TMP/out.txt' &&
		test \$(wc -l < '$TMP/err.txt') = 1 && grep -q '$pattern' '$TMP/err.txt' ||
		{ echo 'exit $rc'; cat '$TMP/err.txt'; false; }"
}

km_store() {
	local k s f r
	if ! pg_start; then
		skip "kinds module: the store's checks" "$PG_WHY"
		return
	fi
	U="host=$PG_SOCK user=kma_admin dbname=kma"
	SRV="$PG_SOCK:5432/kma"
	"$PUSH" -q --init "$U" > /dev/null 2>&1 || { fail "kinds module: kma-push --init"; return; }
	for f in base new old; do
		"$PUSH" -q --allocations --label name=km-$f "$U" "$TMP/$f.db" > /dev/null 2>&1 ||
			{ fail "kinds module: push $f.db"; return; }
	done
	for k in percpu vmalloc; do
		for s in all g1 kworker; do
			# shellcheck disable=SC2046
			km_same "--kind $k -g module $(scope_args $s): the files' rows" \
				--kind $k -g module $(scope_args $s) -f csv
		done
		km_same "--kind $k -g module -f text" --kind $k -g module
		km_same "--kind $k -g module -f json" --kind $k -g module -f json
	done
	km_same "--kind percpu -g module --key nf_conntrack --fail-if net>+64 (exit 3)" \
		--kind percpu -g module -q --key nf_conntrack --fail-if 'net>+64'
	km_same "--kind vmalloc -g module --caller ^kvm_ --pid 200" \
		--kind vmalloc -g module -f csv --caller '^kvm_' --pid 200
	check "kinds module: store: kind_callers.module and runs.kind_modules as pushed" \
		test "$(pg_q kma -c "SELECT l.value || ' ' || COALESCE(r.kind_modules::text, 'NULL')
			|| ' ' || COALESCE(string_agg(c.kind || ':' || c.caller || ':' ||
			COALESCE(c.module, 'NULL'), ' ' ORDER BY c.kind, c.caller), '')
			FROM kma_fleet.runs AS r JOIN kma_fleet.run_labels AS l ON l.run_id = r.run_id
			AND l.key = 'name' LEFT JOIN kma_fleet.kind_callers AS c ON c.run_id = r.run_id
			AND c.caller IN ('nf_ct_alloc+0x10', 'kvm_mmu_create+0x30', '[no stack]')
			GROUP BY l.value, r.kind_modules ORDER BY 1")" = "km-base true percpu:nf_ct_alloc+0x10:nf_conntrack vmalloc:[no stack]:NULL vmalloc:kvm_mmu_create+0x30:kvm
km-new true percpu:nf_ct_alloc+0x10:nf_conntrack vmalloc:kvm_mmu_create+0x30:kvm
km-old false percpu:nf_ct_alloc+0x10:NULL vmalloc:[no stack]:NULL vmalloc:kvm_mmu_create+0x30:NULL"
	# a run of the older report.db: NULL modules that mean unknown, not vmlinux
	r=$(pg_q kma -c "SELECT run_id FROM kma_fleet.run_labels WHERE key = 'name' AND
		value = 'km-old'")
	km_refused "a run pushed from a report.db before kind_callers.module: -g module refused" \
		"kma-diff: pg:$SRV#label:name=km-old: run $r was pushed from a report.db written before kind_callers had the callers. module, so no -g module of the vmalloc callers (analyze the trace again and push it with --replace)" \
		--kind vmalloc -g module "pg:$U#label:name=km-old" "$TMP/new.db"
	km_same "... its -g caller read as the file's" old new --kind vmalloc -f csv
	# a run pushed before fleet schema version 5 (as --init's upgrade leaves it): unknown
	pg_q kma -c "UPDATE kma_fleet.runs SET kind_modules = NULL WHERE run_id = $r" > /dev/null
	km_refused "a run pushed before fleet schema version 5: -g module refused" \
		"kma-diff: pg:$SRV#label:name=km-old: run $r was pushed by a kma-push before fleet schema version 5, which kept no module of the percpu callers (push it again with --replace)" \
		--kind percpu -g module --comm bash "pg:$U#label:name=km-old" "$TMP/new.db"
	km_shared
	pg_stop
}

# Two modules with a function of one name (dup_alloc in [moda] and [modb]): the whole
# run by module is the file's; with a filter the store's allocation rows keep the caller
# name alone, so it is refused rather than guessed.
km_shared() {
	local r
	printf '%s\n' 'cpus 1' 'kallsyms ffffffff81000000 T _stext' \
		'kallsyms ffffffff81400000 T _etext' \
		'kallsyms ffffffffc0100000 t dup_alloc [moda]' 'kallsyms ffffffffc0100400 t a_end [moda]' \
		'kallsyms ffffffffc0200000 t dup_alloc [modb]' 'kallsyms ffffffffc0200400 t b_end [modb]' \
		'cmdline 100 bash' \
		'event 0 1000 100 percpu_alloc_percpu call_site=0xffffffffc0100010 size=8 bytes_alloc=64 ptr=0x1000' \
		'event 0 2000 100 percpu_alloc_percpu call_site=0xffffffffc0200010 size=8 bytes_alloc=32 ptr=0x2000' \
		> "$TMP/shared.seq"
	"$MKTRACE" -o "$TMP/shared.dat" "$TMP/shared.seq" > /dev/null &&
	"$KMA" -q -o "$TMP/shared.db" "$TMP/shared.dat" &&
	"$PUSH" -q --allocations --label name=km-shared "$U" "$TMP/shared.db" > /dev/null 2>&1 ||
		{ fail "kinds module: store: push shared.db"; return; }
	"$DIFF" --kind percpu -g module -f csv "pg:$U#label:name=km-shared" "$TMP/new.db" \
		> "$TMP/p.csv" 2>&1
	"$DIFF" --kind percpu -g module -f csv "$TMP/shared.db" "$TMP/new.db" > "$TMP/f.csv" 2>&1
	check "kinds module: store: two modules' dup_alloc+0x10, whole run: moda 64, modb 32" \
		sh -c "grep -q '^moda,64,' '$TMP/f.csv' && grep -q '^modb,32,' '$TMP/f.csv' &&
		cmp '$TMP/f.csv' '$TMP/p.csv'"
	r=$(pg_q kma -c "SELECT run_id FROM kma_fleet.run_labels WHERE key = 'name' AND
		value = 'km-shared'")
	km_refused "... with --comm: refused, naming the run" \
		"kma-diff: pg:$SRV#label:name=km-shared: run $r: call sites in different modules share a percpu caller name, which its allocation rows keep alone: no -g module with a filter or --generation" \
		--kind percpu -g module --comm bash "pg:$U#label:name=km-shared" "$TMP/new.db"
}

if need_mktrace && "$MKTRACE" -o "$TMP/base.dat" "$EXP/base.seq" > "$TMP/mk.txt" 2>&1 &&
   "$MKTRACE" -o "$TMP/new.dat" "$EXP/new.seq" >> "$TMP/mk.txt" 2>&1 &&
   "$KMA" -q -o "$TMP/base.db" "$TMP/base.dat" 2>> "$TMP/mk.txt" &&
   "$KMA" -q -o "$TMP/new.db" "$TMP/new.dat" 2>> "$TMP/mk.txt"; then
	km_files
	km_store
else
	fail "kinds module: mktrace and kma-analyze of tests/kindmodule/*.seq" "$(cat "$TMP/mk.txt")"
fi
