# The Makefile as a packager drives it, on a copy of the tree (the tree under test is not
# touched): CFLAGS from the command line replaces only the user's flags (the build keeps
# its own), header changes rebuild exactly what includes them (-MMD -MP), V=1 shows every
# command, make -s nothing, make uninstall removes what make install put, make clean
# removes O= and nothing else, and a failed compile is never taken as built.
# Plain pass only: it is about the build, not about sanitized code.
if [ "$LABEL" != plain ]; then
	drop "make: packager builds" "the build is the same in every pass; the plain pass runs it"
	return 0
fi
src=$TMP/src
mkdir -p "$src"
(cd "$TOP" && git ls-files -z 2>/dev/null | xargs -0 cp --parents -t "$src") 2> /dev/null ||
	(cd "$TOP" && tar cf - --exclude=./build --exclude=./.git . | tar xf - -C "$src")
o=$TMP/o
mk() { make --no-print-directory -C "$src" O="$o" "$@"; }

# CFLAGS=-O0: builds, with -O0 and the build's own -Ilib/-std
check "make CFLAGS=-O0: builds kma-analyze and kma-diff" sh -c \
	'make --no-print-directory -s -C "$1" O="$2" CFLAGS="-O0 -g" -j2 all > "$3" 2>&1 &&
	 [ -x "$2/analyzer/kma-analyze" ] && [ -x "$2/analyzer/kma-diff" ]' \
	sh "$src" "$o" "$TMP/b.log"
"$o/analyzer/kma-analyze" --no-db -q "$TOP/tests/fixtures/basic.dat" > "$TMP/o0.txt" 2>&1
"$KMA" --no-db -q "$TOP/tests/fixtures/basic.dat" > "$TMP/o2.txt" 2>&1
check "make CFLAGS=-O0: the -O0 build prints the same report" cmp "$TMP/o0.txt" "$TMP/o2.txt"

check "make: the four commands in O/bin, each runs (--help)" sh -c \
	'for c in kma-analyze kma-diff kma-record kma-mark; do
		"$1/bin/$c" --help > /dev/null 2>&1 || { echo "$c"; exit 1; }
	 done' sh "$o"

# a header change rebuilds the objects that include it, and only those
touch "$src/analyzer/kma-output.h"
mk V=1 CFLAGS="-O0 -g" all > "$TMP/v1.log" 2>&1
built=$(grep -o -- '-c -o [^ ]*\.o' "$TMP/v1.log" | sed 's/.* //; s|.*/||' | sort | tr '\n' ' ')
want=$(cd "$src" && grep -l '#include "kma-output.h"' analyzer/*.c analyzer/*/*.c |
	sed 's|.*/||; s/\.c$/.o/' | sort | tr '\n' ' ')
check "make: touching kma-output.h rebuilds exactly its includers ($want)" \
	test "$built" = "$want"
check "make V=1: full commands, with the command line's CFLAGS and the build's flags" \
	sh -c 'grep -q -- "-O0 -g" "$1" && grep -q -- "-Ilib -Ianalyzer" "$1" &&
	       grep -q -- "-MMD -MP" "$1"' sh "$TMP/v1.log"
touch "$src/lib/kma-grow.h"
# (what it said, when it says something; make's own clock-skew warning is the VM's
# clock, not the build's output)
check "make -s: says nothing when it builds" sh -c \
	'out=$(make --no-print-directory -s -C "$1" O="$2" CFLAGS="-O0 -g" all 2>&1) || exit 1
	 said=$(echo "$out" | grep -v -e "Nothing to be done" -e "Clock skew detected" \
		-e "has modification time .* in the future")
	 [ -z "$said" ] || { echo "$said" | head -3; exit 1; }' sh "$src" "$o"
touch "$src/lib/kma-grow.h"
check "make: one short line per target by default" sh -c \
	'make --no-print-directory -C "$1" O="$2" CFLAGS="-O0 -g" all 2>&1 |
	 grep -qE "^  CC +.*/lib/kma-grow\.o$"' sh "$src" "$o"

# a failed compile: make fails, and fails again the next time (nothing taken as built)
echo 'int kma_broken_build = ;' >> "$src/lib/kma-grow.c"
check "make: a failed compile fails the build, and the next make too" sh -c \
	'! make -s -C "$1" O="$2" CFLAGS="-O0 -g" all > /dev/null 2>&1 &&
	 ! make -s -C "$1" O="$2" CFLAGS="-O0 -g" all > /dev/null 2>&1' sh "$src" "$o"

# install and uninstall under DESTDIR
sed -i '$d' "$src/lib/kma-grow.c"
dest=$TMP/dest
mk -s CFLAGS="-O0 -g" DESTDIR="$dest" prefix=/usr install > "$TMP/inst.log" 2>&1
n=$(find "$dest" -type f | wc -l)
check "make install: the commands, man pages and plugin under DESTDIR ($n files)" \
	test -x "$dest/usr/bin/kma-analyze" -a -f "$dest/usr/share/man/man5/kma-report.db.5" \
		-a "$n" -ge 9
mk -s DESTDIR="$dest" prefix=/usr uninstall > /dev/null 2>&1
check "make uninstall: nothing left of what make install put" \
	sh -c '[ -z "$(find "$1" -type f)" ]' sh "$dest"

# make bench's own tools link against the build's objects: they must keep up with them
check "make -C bench: kma-floor, kma-store-rate and kma-memlat build from O= and run" sh -c \
	'make --no-print-directory -s -C "$1/bench" KMA_BUILD="$2" kma-floor kma-store-rate \
		kma-memlat > "$3/bench.log" 2>&1 &&
	 "$1/bench/kma-floor" "$4" > "$3/floor.txt" 2>&1 &&
	 grep -q "^events [1-9]" "$3/floor.txt" &&
	 "$1/bench/kma-store-rate" -n 20000 -o "$3/rate.db" > "$3/rate.txt" 2>&1 &&
	 grep -q "20000 rows" "$3/rate.txt" &&
	 [ "$(sqlite3 "$3/rate.db" "SELECT COUNT(*) FROM alloc_rows")" = 20000 ] &&
	 "$1/bench/kma-memlat" 4 > "$3/memlat.txt" 2>&1 &&
	 [ "$(awk "\$1 == \"memlat\" && \$3 > 0 { print \$2 }" "$3/memlat.txt" | xargs)" = "1 2 4" ] &&
	 { "$1/bench/kma-memlat" 16x > /dev/null 2>&1; [ $? -eq 2 ]; }' \
	sh "$src" "$o" "$TMP" "$TOP/tests/fixtures/basic.dat"

# clean: O= goes, the tree stays
mkdir -p "$TMP/other"
echo keep > "$TMP/other/keep"
mk -s clean > /dev/null 2>&1
check "make clean: removes O= (and only it)" \
	sh -c '[ ! -e "$1" ] && [ -f "$2/Makefile" ] && [ -f "$3" ]' sh "$o" "$src" "$TMP/other/keep"
