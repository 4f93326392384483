# DWARF end to end: the small kernel-like ELF and module of tests/elf/
# (built as t-symbols.sh builds them), a trace written by mktrace whose kallsyms are
# the ELF's symbols shifted as KASLR and a module load would, and kmalloc events at
# the ELF's real return addresses (shifted). kma-analyze --vmlinux/--modules must give
# callers.file/line/inlined as addr2line -f -i gives them for the unshifted address - 1;
# -g file groups by those files; without debug info file is NULL and -g file says
# [unknown]; a missing --vmlinux is a one-line error, exit 1.
ELFSRC=$TOP/tests/elf
E=$TMP/elf
SHIFT=0x1e00000
MODBASE=0xffffffffc0a01000
RELEASE=6.18.0-kma-dwarf-e2e	# a release no Debian -dbg package has
MKTRACE=$TOP/$B/tests/tools/mktrace
if [ ! -x "$MKTRACE" ]; then
	MKTRACE=$TMP/mktrace
	make -s -C "$TOP/tests/tools" O="$TMP" > "$TMP/build.txt" 2>&1 ||
		fail "dwarf e2e: build mktrace" "$(tail -5 "$TMP/build.txt")"
fi
CFL="-g -O1 -ffreestanding -nostdlib -fno-pie -mcmodel=kernel -fno-optimize-sibling-calls
     -fno-asynchronous-unwind-tables -fcf-protection=none"
mkdir -p "$E/mods/kernel/drivers/misc"
KO=$E/mods/kernel/drivers/misc/fake-mod.ko
# shellcheck disable=SC2086
if [ ! -x "$MKTRACE" ]; then
	:
elif ! { gcc $CFL -c -o "$E/v1.o" "$ELFSRC/fake-vmlinux.c" &&
	 gcc $CFL -c -o "$E/v2.o" "$ELFSRC/fake-vmlinux2.c" &&
	 gcc -nostdlib -static -no-pie -Wl,-T,"$ELFSRC/kernel.lds" -Wl,--build-id=none \
	     -o "$E/vmlinux" "$E/v1.o" "$E/v2.o" &&
	 gcc $CFL -c -o "$KO" "$ELFSRC/fake-mod.c"; } > "$TMP/build.txt" 2>&1; then
	fail "dwarf e2e: build the test ELF files" "$(tail -5 "$TMP/build.txt")"
elif [ -e "/usr/lib/debug/boot/vmlinux-$RELEASE" ] ||
     [ -e "/usr/lib/debug/lib/modules/$RELEASE" ]; then
	skip "dwarf e2e" "this machine has debug files for the made-up release $RELEASE"
else
	# Return addresses: the instruction after each call, with its function's start.
	ret_addrs() {
		objdump -d --no-show-raw-insn "$1" | awk '
			/^[0-9a-f]+ <.*>:$/ { fa = $1; call = 0; next }
			/^ *[0-9a-f]+:\t/ {
				a = $1; sub(":", "", a)
				if (call)
					print a, fa
				call = ($2 ~ /^call/)
			}'
	}
	# addr2line -f -i: "FILE LINE INLINED" of the innermost location
	a2l() {
		addr2line -f -i "$@" | sed 's/ (discriminator [0-9]*)//' | awk '
			NR == 1 { f1 = $0 } NR == 2 { split($0, p, ":"); file = p[1]; line = p[2] }
			END { print file, line, (NR > 2 ? f1 : "-") }'
	}
	# sites: "ADDRESS FILE LINE INLINED" per call site, at its runtime address;
	# FILE "?" where kma must not answer (a static name defined twice whose two
	# copies both cover the offset: rebasing by name is ambiguous)
	{
		ret_addrs "$E/vmlinux" | while read -r r fa; do
			fn=$(nm "$E/vmlinux" | awk -v a="$fa" '$1 == a && $2 ~ /^[tT]$/ &&
				$3 !~ /^_s?text$/ { print $3; exit }')
			off=$((0x$r - 0x$fa))
			cover=0
			for sz in $(nm -S "$E/vmlinux" | awk -v n="$fn" '$4 == n { print $2 }'); do
				[ "$((0x$sz))" -ge "$off" ] && cover=$((cover + 1))
			done
			if [ "$cover" -gt 1 ]; then
				exp="? 0 -"
			else
				exp=$(a2l -e "$E/vmlinux" "$(printf '%x' $((0x$r - 1)))")
			fi
			printf '0x%x %s\n' $((0x$r + SHIFT)) "$exp"
		done
		ret_addrs "$KO" | while read -r r fa; do
			exp=$(a2l -e "$KO" -j .text "$(printf '%x' $((0x$r - 1)))")
			printf '0x%x %s\n' $((0x$r + MODBASE)) "$exp"
		done
	} > "$E/sites"

	# The description: kallsyms of both ELF files, shifted; a symbol of another
	# module after fake_mod's; one kmalloc per call site, bytes 32 * (i + 1),
	# slack i; every third one freed.
	{
		echo "cpus 1"
		echo "uname Linux kma-e2e $RELEASE #1 SMP x86_64"
		nm -n "$E/vmlinux" | while read -r a t n; do
			printf 'kallsyms %016x %s %s\n' $((0x$a + SHIFT)) "$t" "$n"
		done
		nm -n "$KO" | awk 'NF == 3' | while read -r a t n; do
			printf 'kallsyms %016x %s %s [fake_mod]\n' $((0x$a + MODBASE)) "$t" "$n"
		done
		printf 'kallsyms %016x t other_mod_fn [other_mod]\n' $((MODBASE + 0x10000))
		printf 'kallsyms %016x t other_mod_end [other_mod]\n' $((MODBASE + 0x10100))
		echo "cmdline 100 insmod"
		i=0
		while read -r addr _; do
			printf 'event 0 %d 100 kmalloc call_site=%s ptr=0xffff8881000%02x000 bytes_req=%d bytes_alloc=%d\n' \
				$((1000 * (i + 1))) "$addr" "$i" $((32 * (i + 1) - i)) $((32 * (i + 1)))
			i=$((i + 1))
		done < "$E/sites"
		i=0
		while read -r addr _; do
			[ $((i % 3)) = 0 ] &&
				printf 'event 0 %d 100 kfree call_site=%s ptr=0xffff8881000%02x000\n' \
					$((100000 + i)) "$addr" "$i"
			i=$((i + 1))
		done < "$E/sites"
	} > "$E/trace.seq"
	# expected rows per site: "ADDRESS FILE LINE INLINED TOTAL SLACK NET ALLOCS FREES"
	awk '{ i = NR - 1; b = 32 * (i + 1); f = (i % 3 == 0)
	       print $1, $2, $3, $4, b, i, (f ? 0 : b), 1, f }' "$E/sites" > "$E/expected"

	n_sites=$(wc -l < "$E/sites")
	check "dwarf e2e: call sites with answers from addr2line (>= 8, inlined, module, ambiguous)" \
		sh -c "test $n_sites -ge 8 && ! grep -q ' ?? ' '$E/sites' &&
		       awk '\$4 != \"-\"' '$E/sites' | grep -q . && grep -q ' ? 0 -$' '$E/sites' &&
		       grep -q '^0xffffffffc0a0' '$E/sites'"
	if ! "$MKTRACE" -o "$E/trace.dat" "$E/trace.seq" > "$TMP/mk.txt" 2>&1; then
		fail "dwarf e2e: mktrace" "$(cat "$TMP/mk.txt")"
	elif ! "$KMA" -q --vmlinux "$E/vmlinux" --modules "$E/mods" -o "$E/dbg.db" "$E/trace.dat" \
		> "$TMP/kma.txt" 2>&1; then
		fail "dwarf e2e: kma-analyze --vmlinux --modules" "$(tail -3 "$TMP/kma.txt")"
	else
		# callers: file, line, inlined ("?" rows: file and line NULL)
		sqlite3 -separator ' ' "$E/dbg.db" "
			SELECT address, COALESCE(file, '?'), COALESCE(line, 0), COALESCE(inlined, '-')
			FROM callers" | LC_ALL=C sort > "$TMP/got.txt"
		LC_ALL=C sort "$E/sites" > "$TMP/want.txt"
		check "dwarf e2e: callers.file/line/inlined = addr2line on the unshifted address - 1" \
			diff "$TMP/want.txt" "$TMP/got.txt"
		check "dwarf e2e: rebased through the trace's symbols (symbol, module)" test \
			"$(sqlite3 "$E/dbg.db" "SELECT COUNT(*) FROM callers WHERE symbol IS NULL
				OR (address LIKE '0xffffffffc0a0%') != (module IS 'fake_mod')")" = 0
		check "dwarf e2e: only the ambiguous call sites have no file" \
			test "$(sqlite3 "$E/dbg.db" "SELECT COUNT(*) FROM callers WHERE file IS NULL")" = \
			"$(grep -c ' ? 0 -$' "$E/sites")"
		check "dwarf e2e: a call site without a line says why (line_note)" test \
			"$(sqlite3 "$E/dbg.db" "SELECT COUNT(*) FROM callers WHERE (file IS NULL) !=
				(line_note LIKE 'no line: % more than once%')")" = 0

		# -g file: per file sums of the expected rows; the ambiguous ones are [unknown]
		awk '{ f = ($2 == "?") ? "[unknown]" : $2
		       t[f] += $5; s[f] += $6; n[f] += $7; a[f] += $8; fr[f] += $9 }
		     END { for (f in t) print f, t[f], s[f], n[f], a[f], fr[f] }' "$E/expected" |
			LC_ALL=C sort > "$TMP/want-files.txt"
		check "dwarf e2e: file_stats view = sums per addr2line file" test \
			"$(sqlite3 -separator ' ' "$E/dbg.db" \
				'SELECT file, total, slack, net, allocs, frees FROM file_stats' |
			   LC_ALL=C sort)" = "$(cat "$TMP/want-files.txt")"
		"$KMA" --no-db --vmlinux "$E/vmlinux" --modules "$E/mods" -g file "$E/trace.dat" \
			> "$TMP/g.txt" 2>&1
		check "dwarf e2e: -g file rows = sums per addr2line file" test \
			"$(awk '$5 ~ /^[0-9]+\/[0-9]+$/ && NF == 6 { split($5, af, "/")
				print $6, $1, $2, $4, af[1], af[2] }' "$TMP/g.txt" | LC_ALL=C sort)" = \
			"$(cat "$TMP/want-files.txt")"
		check "dwarf e2e: -g file groups: the three source files" test \
			"$(awk '{ print $1 }' "$TMP/want-files.txt" | sed 's|.*/||' | tr '\n' ' ')" = \
			"fake-mod.c fake-vmlinux.c fake-vmlinux2.c [unknown] "
		"$KMA" --no-db --vmlinux "$E/vmlinux" --modules "$E/mods" -g file -f json \
			"$E/trace.dat" > "$TMP/g.json" 2>&1
		check "dwarf e2e: -g file -f json = sums per addr2line file" test "$(python3 -c "
import json
for r in json.load(open('$TMP/g.json'))['rows']:
    print(r['file'], r['total'], r['slack'], r['net'], r['allocs'], r['frees'])" |
			LC_ALL=C sort)" = "$(cat "$TMP/want-files.txt")"
	fi

	if [ -f "$E/trace.dat" ]; then
		# --vmlinux only: the module's call sites have no file
		"$KMA" -q --vmlinux "$E/vmlinux" -o "$E/vm.db" "$E/trace.dat" > "$TMP/vm.txt" 2>&1
		check "dwarf e2e: --vmlinux alone: vmlinux sites resolved, module sites NULL" test \
			"$(sqlite3 "$E/vm.db" "SELECT COUNT(*) FROM callers WHERE
				(module IS NULL) != (file IS NOT NULL)")|$(sqlite3 "$E/vm.db" "
				SELECT COUNT(*) FROM callers WHERE file IS NOT NULL")" = \
			"$(grep -c ' ? 0 -$' "$E/sites")|$(grep -v ' ? 0 -$' "$E/sites" |
				grep -vc '^0xffffffffc0a0')"

		# no debug information: no --vmlinux, no -dbg package for the release
		"$KMA" -o "$E/nodbg.db" "$E/trace.dat" > "$TMP/nodbg.txt" 2>&1
		rc=$?
		check "dwarf e2e: without --vmlinux: exit 0, the release is the trace's" test \
			"$rc|$(sqlite3 "$E/nodbg.db" 'SELECT kernel_release FROM trace')" = "0|$RELEASE"
		check "dwarf e2e: without --vmlinux: every callers.file and line is NULL" test \
			"$(sqlite3 "$E/nodbg.db" "SELECT COUNT(*), COUNT(file), COUNT(line),
				COUNT(inlined), COUNT(line_note) FROM callers")" = "$n_sites|0|0|0|0"
		"$KMA" --no-db -g file "$E/trace.dat" > "$TMP/g0.txt" 2>&1
		check "dwarf e2e: without --vmlinux: -g file has one row, [unknown], with every byte" \
			test "$(awk '$5 ~ /^[0-9]+\/[0-9]+$/ { print $6, $1 }' "$TMP/g0.txt")" = \
			"[unknown] $(awk '{ t += $5 } END { print t }' "$E/expected")"
		check "dwarf e2e: without --vmlinux: file_stats = [unknown]" test \
			"$(sqlite3 "$E/nodbg.db" 'SELECT file, allocs FROM file_stats')" = "[unknown]|$n_sites"

		# a --vmlinux or --modules that is not there: one line naming it, exit 1, no db
		bad_debug() {
			local missing=$1 rc
			shift
			"$KMA" -o "$TMP/bad.db" "$@" "$E/trace.dat" > "$TMP/out.txt" 2> "$TMP/err.txt"
			rc=$?
			if [ $rc = 1 ] && [ "$(wc -l < "$TMP/err.txt")" = 1 ] &&
			   grep -q "^kma-analyze: $missing: " "$TMP/err.txt" && [ ! -e "$TMP/bad.db" ]; then
				pass "dwarf e2e: $*: exit 1, one line naming $missing, no db"
			else
				fail "dwarf e2e: $*: exit 1, one line naming $missing, no db" \
					"exit $rc: $(head -3 "$TMP/err.txt")"
			fi
		}
		bad_debug /nonexistent --vmlinux /nonexistent
		bad_debug /nonexistent --modules /nonexistent
		bad_debug "$E/missing" --vmlinux "$E/missing" --modules "$E/mods"
	fi
fi
