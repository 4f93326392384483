# Generated traces: every tests/gen/*.seq, rendered by tests/tools/mktrace into each kmem
# format generation, 32-bit and big-endian, must be accepted by trace-cmd, and kma-analyze
# must give the hand-worked numbers of tests/gen/*.expect, agree with kma-check-db.py
# (independent, from trace-cmd report output; on two renderings of each sequence) and give
# the same numbers and rows for every variant.
# Stacks (kernel_stack records, stack lines): the per-stack numbers of `kma-analyze -g stack`
# against the .expect's stack lines (or, without any, everything under one key: [no stack]),
# -f folded against its folded lines and the summary; and every sequence without stacks
# rendered again with a stack after each event must give its numbers unchanged.
# kma-test: long tracefs
GEN=$TOP/tests/gen
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace

# GEN[:LONG][:big]
VARIANTS="5.10 5.12 5.16 6.0 6.1 6.18 5.10:4 6.18:4 5.10:big 6.18:big 6.1:4:big"
# stacks: LAYOUT for mktrace -S after the variant
STACKED="6.18/modern 5.10:4/old 6.1:4:big/stale"
# The short sweep (sanitizer and fresh passes) reads every sequence in the newest
# 64-bit little-endian format and as a 32-bit big-endian 6.1 kernel writes it: the
# same reader code, both word sizes and both byte orders. The other variants only
# vary field sizes and layouts that the plain pass proves.
if [ "$SWEEP" = short ]; then
	drop "kernel formats: variants 5.10 5.12 5.16 6.0 6.1 5.10:4 6.18:4 5.10:big 6.18:big" \
		"format sweep, run in the plain pass; here 6.18 and 6.1:4:big"
	drop "stacks: the old and stale kernel_stack layouts" \
		"format sweep, run in the plain pass; here the modern layout"
	VARIANTS="6.18 6.1:4:big"
	STACKED="6.18/modern"
fi

SUMMARY_COLS="total slack net allocs frees unknown_frees null_frees implicit_frees failed_allocs"
SUMMARY_COLS="$SUMMARY_COLS callers lost_events"

# expected EXPECT_FILE LONG: the .expect file in the form of the queries below. With
# long 4 an unresolved caller 0x<hex> keeps only its low 32 bits, as the addresses do.
expected() {
	awk -v l="$2" -v cols="$SUMMARY_COLS" '
	$1 == "summary" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		n = split(cols, k, " ")
		s = "summary"
		for (i = 1; i <= n; i++) {
			if (!(k[i] in v)) { print "expect file lacks " k[i]; exit 1 }
			s = s (i > 1 ? "|" : " ") v[k[i]]
		}
		print s
	}
	$1 == "caller" {
		name = $2
		if (l == 4 && name ~ /^0x[0-9a-f]+$/ && length(name) > 10) {
			name = substr(name, length(name) - 7)
			sub(/^0+/, "", name)
			name = "0x" name
		}
		print "caller " name "|" $3 "|" $4 "|" $5 "|" $6 "|" $7 "|" $8
	}' "$1" | LC_ALL=C sort
}

# The key of a folded stack with long 4: every 0x<hex> frame keeps its low 32 bits.
SHORT_AWK='
function short(name) {
	if (l == 4 && name ~ /^0x[0-9a-f]+$/ && length(name) > 10) {
		name = substr(name, length(name) - 7)
		sub(/^0+/, "", name)
		name = "0x" name
	}
	return name
}
function shortkey(key,    n, i, f, r) {
	n = split(key, f, ";")
	r = ""
	for (i = 1; i <= n; i++)
		r = r (i > 1 ? ";" : "") short(f[i])
	return r
}'

# expected_stacks EXPECT_FILE LONG [KEY]: the stack lines, "stack FOLDED|total|slack|net|
# allocs|frees"; the folded string may hold blanks ([no stack]), the numbers are the last
# five fields. A file without stack lines has every allocation under KEY (default
# [no stack]): the sums of its caller lines.
expected_stacks() {
	awk -v l="$2" -v key="${3:-[no stack]}" "$SHORT_AWK"'
	$1 == "stack" {
		k = $2
		for (i = 3; i <= NF - 5; i++)
			k = k " " $i
		print "stack " shortkey(k) "|" $(NF-4) "|" $(NF-3) "|" $(NF-2) "|" $(NF-1) "|" $NF
		n++
	}
	$1 == "caller" {
		for (i = 3; i <= 7; i++)
			sum[i] += $i
		callers++
	}
	END {
		if (!n && callers)
			print "stack " shortkey(key) "|" sum[3] "|" sum[4] "|" sum[5] "|" sum[6] "|" sum[7]
	}' "$1" | LC_ALL=C sort
}

# expected_folded EXPECT_FILE LONG KIND: the folded lines of that weight, "FOLDED WEIGHT"
expected_folded() {
	awk -v l="$2" -v kind="$3" "$SHORT_AWK"'
	$1 == "folded" && $2 == kind {
		k = $3
		for (i = 4; i < NF; i++)
			k = k " " $i
		print shortkey(k) " " $NF
	}' "$1" | LC_ALL=C sort
}

# actual_stacks DAT [OPTION...]: kma-analyze -g stack -f csv in the form of
# expected_stacks, rows of one folded string added up (the table may list stacks that
# differ only in offsets apart)
actual_stacks() {
	local dat="$1"
	shift
	# folded strings hold no comma nor quote: plain comma splitting reads the CSV
	"$KMA" --no-db "$@" -g stack -f csv "$dat" 2> "$t.stack-err" | awk -F, '
	NR == 1 {
		for (i = 1; i <= NF; i++)
			col[$i] = i
		if (!("stack" in col)) { print "no stack column in: " $0; exit 1 }
		split("total slack net allocs frees", names, " ")
		next
	}
	{
		k = $col["stack"]
		if (!(k in seen)) { seen[k] = 1; keys[++n] = k }
		for (j = 1; j <= 5; j++)
			sum[k, j] += $col[names[j]]
	}
	END {
		for (i = 1; i <= n; i++) {
			k = keys[i]
			line = "stack " k
			for (j = 1; j <= 5; j++)
				line = line "|" sum[k, j]
			print line
		}
	}' | LC_ALL=C sort
}

# check_folded DAT DB EXPECT LONG: -f folded of each weight is well formed (one
# "FOLDED WEIGHT" per line, no weight 0, sorted by strcmp, no folded string twice), the
# default weight is bytes, bytes add up to the summary total and net to its net, and the
# .expect's folded lines of a weight are its lines
check_folded() {
	local dat="$1" db="$2" expect="$3" long="$4" kind sum want bad
	# bytes and net always, slack and allocs where the .expect has lines of them
	for kind in bytes net $(awk '$1 == "folded" && $2 != "bytes" && $2 != "net" { print $2 }' \
			"$expect" | sort -u); do
		if ! "$KMA" --no-db -f folded --weight "$kind" "$dat" > "$t.folded-$kind" 2> "$t.err"; then
			echo "-f folded --weight $kind failed: $(tail -3 "$t.err")"
			return 1
		fi
		bad=$(awk '!/^.+ [1-9][0-9]*$/ { print "bad line: " $0 }
			{ k = substr($0, 1, length($0) - length($NF) - 1)
			  if (k in seen) print "twice: " k
			  seen[k] = 1 }' "$t.folded-$kind" | head -3)
		if [ -n "$bad" ]; then
			echo "-f folded --weight $kind: $bad"
			return 1
		fi
		# whole lines sort as their folded strings do: the blank before the weight sorts
		# below every character a folded string continues with
		if ! LC_ALL=C sort -c "$t.folded-$kind" 2> /dev/null; then
			echo "-f folded --weight $kind: lines not in strcmp order of their folded strings"
			return 1
		fi
		want=$(expected_folded "$expect" "$long" "$kind")
		if [ -n "$want" ] && [ "$want" != "$(LC_ALL=C sort "$t.folded-$kind")" ]; then
			echo "-f folded --weight $kind differs from the folded $kind lines (- expected, + got):"
			diff -u <(echo "$want") <(LC_ALL=C sort "$t.folded-$kind") | tail -n +3
			return 1
		fi
	done
	# one rendering is enough for the default
	if [ "${t##*-}" = 6.18 ]; then
		"$KMA" --no-db -f folded "$dat" > "$t.folded-default" 2> /dev/null
		if ! cmp -s "$t.folded-default" "$t.folded-bytes"; then
			echo "-f folded without --weight is not --weight bytes"
			return 1
		fi
	fi
	# both sums against the summary's total and net (one awk, one sqlite3)
	sum=$(awk '{ s[FILENAME == ARGV[1]] += $NF } END { print s[1] + 0 "|" s[0] + 0 }' \
		"$t.folded-bytes" "$t.folded-net")
	want=$(sqlite3 "$db" "SELECT total, net FROM summary")
	if [ "${sum%|*}" != "${want%|*}" ]; then
		echo "-f folded --weight bytes adds up to ${sum%|*}, the summary total is ${want%|*}"
		return 1
	fi
	if [ "${sum#*|}" != "${want#*|}" ]; then
		echo "-f folded --weight net adds up to ${sum#*|}, the summary net is ${want#*|}"
		return 1
	fi
}

# actual DB: summary and caller_stats of a report.db, in the same form (one sqlite3:
# the line's word is part of its first column, as a sed after it would write it)
actual() {
	local first=${SUMMARY_COLS%% *} rest=${SUMMARY_COLS#* }
	sqlite3 -separator '|' "$1" "SELECT 'summary ' || IFNULL($first, ''), ${rest// /, } FROM summary;
		SELECT 'caller ' || IFNULL(caller, ''), total, slack, net, allocs, frees,
		       implicit_frees FROM caller_stats" | LC_ALL=C sort
}

# check_variant SEQ VARIANT [EXPECT [STACK_KEY [LAYOUT]]]: prints nothing and returns 0,
# or prints why not. EXPECT defaults to SEQ's .expect, STACK_KEY (the folded string of
# the allocations an .expect without stack lines has) to [no stack]; LAYOUT is mktrace -S.
check_variant() {
	local seq="$1" v="$2" expect="${3:-${1%.seq}.expect}" key="${4:-}" layout="${5:-}"
	local gen long=8 endian=little dat db nev nrep t rc opt
	gen=${v%%:*}
	case $v in *:4*) long=4;; esac
	case $v in *:big) endian=big;; esac
	dat=${seq##*/}
	dat=$TMP/${dat%.seq}-${v//:/-}.dat
	db=${dat%.dat}.db
	t=${dat%.dat}	# scratch files of this variant: variants run in parallel
	"$MKTRACE" -g "$gen" -l "$long" -E "$endian" ${layout:+-S "$layout"} -o "$dat" "$seq" 2>&1 ||
		return 1
	if ! memo "$t.report" "trace-cmd-report $dat" \
		sh -c 'trace-cmd report -i "$1" 2>&1' sh "$dat"; then
		echo "trace-cmd report failed: $(tail -3 "$t.report")"
		return 1
	fi
	# every event, marker and stack line of the description is one record in the report
	nev=$(grep -cE '^(event|marker|stack) ' "$seq")
	nrep=$(grep -cE '^ .*\[[0-9]+\] +[0-9]+\.[0-9]+: ' "$t.report")
	if [ "$nev" != "$nrep" ]; then
		echo "trace-cmd report shows $nrep records, the description has $nev"
		return 1
	fi
	if ! memo "$t.valid" "trace-cmd-validate $dat" \
		sh -c 'trace-cmd dump --validate -i "$1" 2>&1' sh "$dat" ||
	   ! grep -q 'is a valid trace-cmd file' "$t.valid"; then
		echo "trace-cmd dump --validate: $(trace-cmd dump --validate -i "$dat" 2>&1 | tail -3)"
		return 1
	fi
	"$KMA" -q -o "$db" "$dat" > "$t.kma" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		echo "kma-analyze failed (exit $rc): $(tail -5 "$t.kma")"
		return 1
	fi
	expected "$expect" "$long" > "$t.want"
	actual "$db" > "$t.got.tmp"
	if ! cmp -s "$t.want" "$t.got.tmp"; then
		echo "report.db differs from $(basename "$expect") (- expected, + got):"
		diff -u "$t.want" "$t.got.tmp" | tail -n +3
		return 1
	fi
	expected_stacks "$expect" "$long" "$key" > "$t.swant"
	actual_stacks "$dat" > "$t.sgot" 2>&1
	if ! cmp -s "$t.swant" "$t.sgot"; then
		echo "-g stack differs from the stack lines of $(basename "$expect") (- expected, + got):"
		diff -u "$t.swant" "$t.sgot" | tail -n +3
		return 1
	fi
	# the same pairing through libtracecmd and with one reading thread (6.18, big-endian)
	if grep -q '^stack ' "$seq" && { [ "${t##*-}" = 6.18 ] || [ "${t##*-}" = big ]; }; then
		for opt in --libtracecmd "-j 1"; do
			actual_stacks "$dat" $opt > "$t.sgot2" 2>&1
			if ! cmp -s "$t.sgot" "$t.sgot2"; then
				echo "-g stack with $opt differs (- without, + with):"
				diff -u "$t.sgot" "$t.sgot2" | tail -n +3
				return 1
			fi
		done
	fi
	check_folded "$dat" "$db" "$expect" "$long" || return 1
	# kma-check-db.py (trace-cmd report's reading of the file) on the 64-bit little-endian
	# and the 32-bit big-endian rendering of each sequence: every other variant is held to
	# the same hand-worked .expect here and to 6.18's rows below, so its verdict would
	# repeat theirs (the stacked renderings: their .expect is the stronger check)
	if [ -z "$key" ] && { [ "$v" = 6.18 ] || [ "$v" = 6.1:4:big ]; } &&
	   ! python3 "$TOP/tests/tools/kma-check-db.py" "$dat" "$db" > "$t.check" 2>&1; then
		cat "$t.check"
		return 1
	fi
	if [ "$(sqlite3 "$db" 'SELECT long_size, big_endian, kernel_release FROM trace')" != \
	     "$long|$([ $endian = big ] && echo 1 || echo 0)|$gen.0-mktrace" ]; then
		echo "trace row: $(sqlite3 "$db" 'SELECT * FROM trace')"
		return 1
	fi
	cp "$t.got.tmp" "${dat%.dat}.got"
	rows "$db" > "${dat%.dat}.rows"
}

# rows DB: the tables below the numbers, less what a generation may lack (event names,
# node, cache, accounted), with every 0x<hex> cut to its low 32 bits so that 32-bit
# renderings compare too
rows() {
	sqlite3 -separator '|' "$1" "
		SELECT 'alloc', ptr, caller, bytes_req, bytes_alloc, gfp_flags, alloc_ts, alloc_cpu,
		       pid, comm, free_ts, free_cpu, free_pid, free_caller, free_kind
		FROM allocations ORDER BY alloc_ts, alloc_cpu, ptr;
		SELECT 'unknown', ts, cpu, pid, comm, ptr, caller, free_kind
		FROM unknown_frees ORDER BY ts, cpu, ptr;
		SELECT 'lost', * FROM lost_events ORDER BY cpu;
		SELECT 'caller', caller, allocs, failed_allocs, live FROM callers ORDER BY caller;
		SELECT 'trace', cpus, events, kmem_events, frees, matched_frees FROM trace" | short32
}

# short32: every 0x<hex> cut to its low 32 bits, without leading zeros
short32() {
	sed -E 's/0x[0-9a-f]*([0-9a-f]{8})/0x\1/g; s/0x0+([0-9a-f])/0x\1/g'
}

if [ -x "$MKTRACE" ]; then
	for seq in "$GEN"/*.seq; do
		name=$(basename "$seq" .seq)
		if [ ! -f "$GEN/$name.expect" ]; then
			fail "kernel formats: $name" "no $name.expect"
			continue
		fi
		# the variants in parallel, reported in order
		for v in $VARIANTS; do
			o=$TMP/$name-${v//:/-}.out
			( check_variant "$seq" "$v" > "$o" 2>&1; echo $? >> "$o.rc" ) &
		done
		wait
		for v in $VARIANTS; do
			o=$TMP/$name-${v//:/-}.out
			if [ "$(cat "$o.rc" 2>/dev/null)" = 0 ]; then
				pass "kernel formats: $name [$v]"
			else
				fail "kernel formats: $name [$v]" "$(cat "$o")"
			fi
		done
		# every variant gives the same numbers and rows (32-bit: low 32 bits of addresses)
		ref=$TMP/$name-6.18
		for v in $VARIANTS; do
			got=$TMP/$name-${v//:/-}
			if [ ! -f "$got.rows" ] || [ ! -f "$ref.rows" ]; then
				continue
			fi
			short32 < "$ref.got" > "$TMP/ref.short"
			short32 < "$got.got" | cmp -s "$TMP/ref.short" - ||
				echo "$v (summary or caller_stats)"
			cmp -s "$ref.rows" "$got.rows" ||
				echo "$v: $(diff "$ref.rows" "$got.rows" | grep -m2 '^[<>]' | tr '\n' ' ')"
		done > "$TMP/differ.txt"
		if [ ! -f "$ref.rows" ]; then
			fail "kernel formats: $name: same report.db for every format" "the 6.18 rendering failed"
		elif [ -s "$TMP/differ.txt" ]; then
			fail "kernel formats: $name: same report.db for every format" \
				"differ from 6.18: $(cat "$TMP/differ.txt")"
		else
			pass "kernel formats: $name: same report.db for every format"
		fi
	done

	# Every sequence without stacks, rendered again with a kernel_stack record right after
	# each event and marker (same CPU and time, as record -T writes them; two frames no
	# symbol covers): every number as before, all allocations under that one stack. In the
	# three layouts: modern, old (pre-3.2: ULONG_MAX ended), stale (5.6 - 5.12).
	STACK_KEY="0xffffffff80000200;0xffffffff80000100"
	for seq in "$GEN"/*.seq; do
		name=$(basename "$seq" .seq)
		grep -q '^stack ' "$seq" && continue
		[ -f "$GEN/$name.expect" ] || continue
		awk '{ print }
		     /^(event|marker) / { print "stack " $2 " " $3 " " $4 " 0xffffffff80000100 0xffffffff80000200" }' \
			"$seq" > "$TMP/$name+stacks.seq"
		for vl in $STACKED; do
			l=${vl%/*}
			o=$TMP/$name+stacks-${l//:/-}.out
			( check_variant "$TMP/$name+stacks.seq" "${vl%/*}" "$GEN/$name.expect" "$STACK_KEY" \
				"${vl#*/}" > "$o" 2>&1; echo $? >> "$o.rc" ) &
		done
		wait
		for vl in $STACKED; do
			l=${vl%/*}
			o=$TMP/$name+stacks-${l//:/-}.out
			if [ "$(cat "$o.rc" 2>/dev/null)" = 0 ]; then
				pass "stacks: $name with a stack after every event, same numbers [$vl]"
			else
				fail "stacks: $name with a stack after every event, same numbers [$vl]" "$(cat "$o")"
			fi
		done
	done

	# mktrace refuses what it cannot write faithfully, naming the line
	mk_rejects() {
		local name="$1" want="$2"
		shift 2
		if printf '%s\n' "$@" | "$MKTRACE" -o "$TMP/bad.dat" - > "$TMP/bad.txt" 2>&1; then
			fail "mktrace rejects $name" "exit 0"
		elif ! grep -q -- "$want" "$TMP/bad.txt"; then
			fail "mktrace rejects $name" "message lacks '$want': $(cat "$TMP/bad.txt")"
		else
			pass "mktrace rejects $name"
		fi
	}
	mk_rejects "time going backwards on a CPU" "line 3: time goes backwards" "cpus 1" \
		"event 0 100 1 kfree call_site=1 ptr=0x1000" "event 0 50 1 kfree call_site=1 ptr=0x2000"
	mk_rejects "an allocation without sizes" "line 2: kmalloc needs a value for bytes_req" \
		"cpus 1" "event 0 100 1 kmalloc call_site=1 ptr=0x1000"
	mk_rejects "an unknown field" "line 2: unknown field 'bytes'" "cpus 1" \
		"event 0 100 1 kfree call_site=1 ptr=0x1000 bytes=3"
	mk_rejects "an unknown symbol" "line 2: 'nosuch+0x4' is neither" "cpus 1" \
		"event 0 100 1 kfree call_site=nosuch+0x4 ptr=0x1000"
	mk_rejects "a CPU out of range" "line 2: CPU 2 out of range" "cpus 2" \
		"event 2 100 1 kfree call_site=1 ptr=0x1000"
	mk_rejects "an unknown symbol in a stack" "line 2: 'nosuch+0x4' is neither" "cpus 1" \
		"stack 0 100 1 0x1000 nosuch+0x4"
	mk_rejects "a stack of 65 frames" "line 2: more than 64 frames" "cpus 1" \
		"stack 0 100 1 $(seq -s ' ' 1 65)"
	mk_rejects "an unknown stack layout" "bad stack layout 'new'" "stacklayout new"

	# The kernel_stack format of each layout: field name:offset:size, 64- and 32-bit
	stack_fields() {
		trace-cmd dump --ftrace -i "$1" 2>/dev/null | awk '
			/^name: / { on = $2 == "kernel_stack" }
			on && /field:/ && !/common_/ {
				f = $0; sub(/;.*/, "", f); n = split(f, w, /[ \t]+/); f = w[n]
				o = $0; sub(/.*offset:/, "", o); sub(/;.*/, "", o)
				s = $0; sub(/.*size:/, "", s); sub(/;.*/, "", s)
				line = line " " f ":" o ":" s
			}
			END { print line }'
	}
	for lay in "modern 8 size:8:4 caller[8]:16:64" "modern 4 size:8:4 caller[8]:12:32" \
		   "old 8 caller[8]:8:64" "old 4 caller[8]:8:32" "stale 8 size:8:4 caller[8]:16:64"; do
		read -r lname llong lwant <<< "$lay"
		"$MKTRACE" -l "$llong" -S "$lname" -o "$TMP/layout.dat" "$GEN/reuse.seq" > /dev/null 2>&1
		got=$(stack_fields "$TMP/layout.dat")
		if [ "$got" = " $lwant" ]; then
			pass "kernel_stack format: $lname layout, long $llong"
		else
			fail "kernel_stack format: $lname layout, long $llong" "want ' $lwant', got '$got'"
		fi
	done
	# every kernel since 5.6 prints the modern format: this machine's must be mktrace's
	if [ -r /sys/kernel/tracing/events/ftrace/kernel_stack/format ] && [ -f "$TMP/reuse-6.18.dat" ]; then
		grep -E 'field:|print fmt' /sys/kernel/tracing/events/ftrace/kernel_stack/format \
			> "$TMP/kernel.txt" 2>/dev/null
		trace-cmd dump --ftrace -i "$TMP/reuse-6.18.dat" 2>/dev/null |
			awk '/^name: / { on = $2 == "kernel_stack" } on && /field:|print fmt/' > "$TMP/ours.txt"
		if [ -s "$TMP/kernel.txt" ] && [ "$(uname -m)" = x86_64 ]; then
			check "kernel_stack format: mktrace's as on this kernel" \
				diff "$TMP/kernel.txt" "$TMP/ours.txt"
		fi
	fi

	# The formats mktrace writes for each generation: event -> field:size, 64-bit.
	fields_of() {
		trace-cmd dump --events -i "$1" 2>/dev/null | awk '
			/^name: / { if (ev != "") print ev line; ev = $2; line = "" }
			/field:/ && !/common_/ {
				f = $0; sub(/;.*/, "", f); n = split(f, w, /[ \t]+/); f = w[n]
				sub(/\[\]$/, "", f)
				s = $0; sub(/.*size:/, "", s); sub(/;.*/, "", s)
				line = line " " f ":" s
			}
			END { if (ev != "") print ev line }' | LC_ALL=C sort
	}
	want_fields() {
		local a="call_site:8 ptr:8" r="bytes_req:8 bytes_alloc:8" g=gfp_flags:8 c n=node:4
		local ac
		case $1 in
		5.10|5.12) g=gfp_flags:4;;
		esac
		case $1 in
		5.10) c="$a";;
		*) c="$a name:4";;
		esac
		case $1 in
		5.10|5.12|5.16)
			printf '%s\n' "kfree $a" "kmalloc $a $r $g" "kmalloc_node $a $r $g $n" \
				"kmem_cache_alloc $a $r $g" "kmem_cache_alloc_node $a $r $g $n" \
				"kmem_cache_free $c";;
		6.0)
			ac=accounted:1
			printf '%s\n' "kfree $a" "kmalloc $a $r $g $ac" "kmalloc_node $a $r $g $n $ac" \
				"kmem_cache_alloc $a $r $g $ac" \
				"kmem_cache_alloc_node $a $r $g $n $ac" "kmem_cache_free $c";;
		6.1)
			printf '%s\n' "kfree $a" "kmalloc $a $r $g $n" \
				"kmem_cache_alloc $a $r $g $n accounted:1" "kmem_cache_free $c";;
		6.18)
			printf '%s\n' "kfree $a" "kmalloc $a $r $g $n" \
				"kmem_cache_alloc $a name:4 $r $g $n accounted:1" "kmem_cache_free $c";;
		esac | LC_ALL=C sort
	}
	for gen in 5.10 5.12 5.16 6.0 6.1 6.18; do
		dat=$TMP/reuse-$gen.dat
		[ -f "$dat" ] || continue
		fields_of "$dat" | grep -v '^print ' > "$TMP/fields.txt"
		if want_fields "$gen" | cmp -s - "$TMP/fields.txt"; then
			pass "kernel formats $gen: mktrace writes the kmem events and fields"
		else
			fail "kernel formats $gen: mktrace writes the kmem events and fields" \
				"$(want_fields "$gen" | diff - "$TMP/fields.txt" | tail -n +2)"
		fi
	done
	# the kernel's own formats, where this machine has them: mktrace's newest must match
	if [ -r /sys/kernel/tracing/events/kmem/kmalloc/format ] && [ -f "$TMP/reuse-6.18.dat" ]; then
		for ev in kmalloc kfree kmem_cache_alloc kmem_cache_free; do
			grep 'field:' /sys/kernel/tracing/events/kmem/$ev/format > "$TMP/kernel.txt" 2>/dev/null
			trace-cmd dump --events -i "$TMP/reuse-6.18.dat" 2>/dev/null |
				awk -v ev="$ev" '/^name: / { on = $2 == ev } on && /field:/' > "$TMP/ours.txt"
			if [ "$(uname -r | cut -d. -f1,2)" = 6.18 ] && [ -s "$TMP/kernel.txt" ]; then
				check "kernel formats 6.18: mktrace $ev fields as on this kernel" \
					diff "$TMP/kernel.txt" "$TMP/ours.txt"
			fi
		done
	fi
fi
