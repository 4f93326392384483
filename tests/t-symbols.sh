# Symbols. kma-symtab against trace-cmd on the real fixtures: the kallsyms
# text, the parsed symbols and every call_site's sym+0xoff. kma-dwarf against
# addr2line on a small kernel-like ELF and module built from tests/elf/.
SYMDUMP=$TOP/$B/tests/elf/kma-symdump
ELFSRC=$TOP/tests/elf

# Text symbols of a kallsyms text as kma-symtab keeps them (kma-symtab.h):
# t/T/w/W, no section markers, the first of several at one address.
MARKERS='^(_stext|_text|_etext|_sinittext|_einittext|_sdata|_edata|_end|__start_rodata|'
MARKERS=$MARKERS'__end_rodata|__init_begin|__init_end|__bss_start|__bss_stop|'
MARKERS=$MARKERS'__.*_text_(start|end))$'
text_syms() {
	awk -v m="$MARKERS" '$2 ~ /^[tTwW]$/ && $3 !~ m {
		mod = "-"; if (NF >= 4) { mod = $4; gsub(/[][]/, "", mod) }
		print $1, mod, $3 }' "$1" |
		LC_ALL=C sort -s -k1,1 | awk '$1 != last { print; last = $1 }'
}

for f in basic basic-v6 markers lost lost-mid; do
	dat=$TOP/tests/fixtures/$f.dat
	[ -f "$dat" ] || { fail "symtab $f" "missing $dat"; continue; }
	if ! "$SYMDUMP" text "$dat" > "$TMP/kma.txt" 2> "$TMP/err.txt"; then
		fail "symtab $f" "$(cat "$TMP/err.txt")"
		continue
	fi
	# trace-cmd dump prints "[Section ...]" and "[Kallsyms, N bytes]" lines, the
	# text, then one more newline
	trace-cmd dump --kallsyms -i "$dat" 2> /dev/null > "$TMP/dump.txt"
	sed '/^\t\[/d' "$TMP/dump.txt" > "$TMP/tc.txt"
	echo >> "$TMP/kma.txt"
	check "symtab $f: kallsyms text = trace-cmd dump --kallsyms" \
		cmp "$TMP/tc.txt" "$TMP/kma.txt"
	n=$(sed -n 's/^\t\[Kallsyms, \([0-9]*\) bytes\]$/\1/p' "$TMP/dump.txt")
	check "symtab $f: kallsyms size = trace-cmd's ($n bytes)" \
		test "$(($(wc -c < "$TMP/kma.txt") - 1))" = "$n"
	text_syms "$TMP/tc.txt" > "$TMP/tc-syms.txt"
	"$SYMDUMP" syms "$dat" | awk '{ print $1, $3, $4 }' > "$TMP/kma-syms.txt"
	check "symtab $f: parsed text symbols = trace-cmd dump's" \
		cmp "$TMP/tc-syms.txt" "$TMP/kma-syms.txt"
	# Every call site of every record, in report order. The fixtures' reduced
	# kallsyms keeps the symbol after each call-site function (fixtures README),
	# so trace-cmd's answer is always within kma's bounded size: all must match.
	trace-cmd report -R -i "$dat" 2> /dev/null | grep -o 'call_site=[^ ]*' | cut -d= -f2 \
		> "$TMP/tc-sites.txt"
	"$SYMDUMP" sites "$dat" > "$TMP/kma-sites.txt"
	check "symtab $f: $(wc -l < "$TMP/tc-sites.txt") call sites = trace-cmd report -R" \
		cmp "$TMP/tc-sites.txt" "$TMP/kma-sites.txt"
	"$SYMDUMP" text "$dat" > "$TMP/ks.txt"
	check "symtab $f: every symbol = libtraceevent's lookup within kma's bounds" \
		"$SYMDUMP" tep "$TMP/ks.txt"
done
# v7 without compression (trace-cmd 3.1 writes zstd by default): same text.
if trace-cmd convert --file-version 7 --compression none -i "$TOP/tests/fixtures/basic.dat" \
	-o "$TMP/v7none.dat" > /dev/null 2>&1; then
	"$SYMDUMP" text "$TMP/v7none.dat" > "$TMP/v7none.txt" 2>&1
	"$SYMDUMP" text "$TOP/tests/fixtures/basic.dat" > "$TMP/v7zstd.txt" 2>&1
	check "symtab v7 uncompressed: same text as the zstd original" \
		cmp "$TMP/v7none.txt" "$TMP/v7zstd.txt"
else
	skip "symtab v7 uncompressed" "trace-cmd convert failed"
fi
# The same on this machine's full kallsyms, when it shows addresses (root).
if awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms 2> /dev/null; then
	cp /proc/kallsyms "$TMP/kallsyms"
	check "symtab /proc/kallsyms: every symbol = libtraceevent's lookup within kma's bounds" \
		"$SYMDUMP" tep "$TMP/kallsyms"
else
	skip "symtab /proc/kallsyms" "no addresses shown (not root, or kptr_restrict)"
fi

# kma-dwarf on a kernel-like ELF and module, shifted as KASLR and a module load would.
E=$TMP/elf
SHIFT=0x1e00000
MODBASE=0xffffffffc0a01000
CFL="-g -O1 -ffreestanding -nostdlib -fno-pie -mcmodel=kernel -fno-optimize-sibling-calls
     -fno-asynchronous-unwind-tables -fcf-protection=none"
mkdir -p "$E/mods/kernel/drivers/misc"
# shellcheck disable=SC2086
if ! { gcc $CFL -c -o "$E/v1.o" "$ELFSRC/fake-vmlinux.c" &&
       gcc $CFL -c -o "$E/v2.o" "$ELFSRC/fake-vmlinux2.c" &&
       gcc -nostdlib -static -no-pie -Wl,-T,"$ELFSRC/kernel.lds" -Wl,--build-id=none \
	   -o "$E/vmlinux" "$E/v1.o" "$E/v2.o" &&
       gcc $CFL -c -o "$E/mods/kernel/drivers/misc/fake-mod.ko" "$ELFSRC/fake-mod.c" &&
       strip -g -o "$E/vmlinux.nodebug" "$E/vmlinux"; } > "$TMP/build.txt" 2>&1; then
	fail "dwarf: build the test ELF files" "$(tail -5 "$TMP/build.txt")"
else
	KO=$E/mods/kernel/drivers/misc/fake-mod.ko
	# kallsyms: vmlinux at +SHIFT, the module's .text at MODBASE
	nm -n "$E/vmlinux" | while read -r a t n; do
		printf '%016x %s %s\n' $((0x$a + SHIFT)) "$t" "$n"
	done > "$E/kallsyms"
	nm -n "$KO" | awk 'NF == 3' | while read -r a t n; do
		printf '%016x %s %s\t[fake_mod]\n' $((0x$a + MODBASE)) "$t" "$n"
	done >> "$E/kallsyms"

	# Return addresses: the instruction after each call, with the function it is in.
	ret_addrs() {
		objdump -d --no-show-raw-insn "$1" | awk '
			/^[0-9a-f]+ <.*>:$/ {
				fa = $1; fn = substr($2, 2, length($2) - 3); call = 0; next
			}
			/^ *[0-9a-f]+:\t/ {
				a = $1; sub(":", "", a)
				if (call)
					print a, fn, fa
				call = ($2 ~ /^call/)
			}'
	}
	# addr2line -f -i: "FILE LINE INLINED" of the first (innermost) location
	a2l() {
		addr2line -f -i "$@" | sed 's/ (discriminator [0-9]*)//' | awk '
			NR == 1 { f1 = $0 } NR == 2 { split($0, p, ":"); file = p[1]; line = p[2] }
			END { print file, line, (NR > 2 ? f1 : "-") }'
	}
	{
		ret_addrs "$E/vmlinux" | while read -r r fn fa; do
			off=$((0x$r - 0x$fa))
			# a static name defined twice, both long enough: kma must say unknown
			cover=0
			for sz in $(nm -S "$E/vmlinux" | awk -v n="$fn" '$4 == n { print $2 }'); do
				[ "$((0x$sz))" -ge "$off" ] && cover=$((cover + 1))
			done
			if [ "$cover" -gt 1 ]; then
				exp="? 0 -"
			else
				exp=$(a2l -e "$E/vmlinux" "$(printf '%x' $((0x$r - 1)))")
			fi
			printf '%016x - %s %x %s\n' $((0x$r + SHIFT)) "$fn" "$off" "$exp"
		done
		ret_addrs "$KO" | while read -r r fn fa; do
			exp=$(a2l -e "$KO" -j .text "$(printf '%x' $((0x$r - 1)))")
			off=$((0x$r - 0x$fa))
			printf '%016x fake_mod %s %x %s\n' $((0x$r + MODBASE)) "$fn" "$off" "$exp"
		done
	} > "$E/expected"
	check "dwarf: addr2line gave answers for every call site" \
		sh -c "test \$(wc -l < '$E/expected') -ge 8 && ! grep -q ' ?? ' '$E/expected'"
	check "unit test-dwarf (file:line = addr2line, KASLR-shifted)" \
		env KMA_TEST_ELF="$E" "$TOP/$B/tests/unit/test-dwarf"
fi
check "unit test-symtab" env KMA_FIXTURES="$TOP/tests/fixtures" "$TOP/$B/tests/unit/test-symtab"
