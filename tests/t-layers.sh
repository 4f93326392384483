# The layers of docs/architecture.md hold: every #include "..." of lib/, analyzer/, plugin/
# and tools/ points into the same folder, lib/, or a folder its layer may use. lib/ is pure
# C (no trace library, no SQLite); only the reader includes libtracecmd/libtracefs.
declare -A MAY=(
	[lib]="lib"
	[analyzer/reader]="lib"
	[analyzer/sites]="lib"
	[analyzer/match]="lib"
	[analyzer/store]="lib match reader sites"
	[analyzer/report]="lib match reader"
	[analyzer]="lib reader sites match store report"
	[plugin]="lib"
	[tools]="lib"
)
bad=
for d in "${!MAY[@]}"; do
	for f in "$TOP/$d"/*.[ch]; do
		[ -f "$f" ] || continue
		rel=${f#"$TOP"/}
		while read -r inc; do
			case $inc in
			*/*) dir=${inc%%/*}
			     case " ${MAY[$d]} " in *" $dir "*) ;; *) bad="$bad $rel->$inc" ;; esac ;;
			*) [ -f "$(dirname "$f")/$inc" ] || { [ -f "$TOP/lib/$inc" ] &&
			     case " ${MAY[$d]} " in *" lib "*) true ;; *) false ;; esac; } ||
			     bad="$bad $rel->$inc" ;;
			esac
		done < <(sed -n 's/^#include "\(.*\)".*/\1/p' "$f")
	done
done
if [ -z "$bad" ]; then
	pass "layers: every include goes down the layers of docs/architecture.md"
else
	fail "layers: every include goes down the layers of docs/architecture.md" "wrong-way:$bad"
fi
check "layers: lib/ is pure C (no trace library, SQLite, stdio streams or exit)" \
	sh -c "! grep -nE '#include <(trace|sqlite|dwarf|elfutils)|(^|[^a-z_])(exit|printf|puts)\\(|fprintf\\(std' '$TOP'/lib/*.[ch]"
check "layers: only the reader includes libtracecmd/libtracefs" \
	sh -c "! grep -lE '#include <(trace-cmd|tracefs)' '$TOP'/lib/*.[ch] '$TOP'/analyzer/*.[ch] \
		'$TOP'/analyzer/{sites,match,store,report}/*.[ch]"
# No two files of one folder call each other, directly or round a circle: a file split for
# size keeps one direction (a function pointer or a shared lower file, not a call back).
# Read from the objects' symbols: each function defined in one file and used in another.
cycles=$(for d in lib analyzer/reader analyzer/sites analyzer/match analyzer/store \
		analyzer/report analyzer; do
	for c in "$TOP/$d"/*.c; do
		o="$B/$d/$(basename "$c" .c).o"
		[ -f "$o" ] && nm "$o" | awk -v f="${c#"$TOP"/}" \
			'NF == 3 && $2 ~ /^[TDBR]$/ { print "D", f, $3 } $1 == "U" { print "U", f, $2 }'
	done | awk '$1 == "D" { def[$3] = $2; next } { use[NR] = $2 " " $3 }
		END { for (i in use) { split(use[i], u, " ")
			if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]] } }' |
		sort -u | tsort 2>&1 > /dev/null | sed -n 's/^tsort: \([^ ]*\.c\)$/\1/p'
done)
nobj=$(ls "$B"/analyzer/reader/*.o 2> /dev/null | wc -l)
if [ "$nobj" -lt 10 ]; then
	fail "layers: no circle of calls between the files of a folder" "no objects in $B"
elif [ -z "$cycles" ]; then
	pass "layers: no circle of calls between the files of a folder"
else
	fail "layers: no circle of calls between the files of a folder" "in a circle: $(echo $cycles)"
fi
# make install puts the same commands, plugin and pages in the same places as before the
# build folder (plain pass: the sanitizer build is not for installing)
if [ "$LABEL" != asan+ubsan ]; then
	if make -s -C "$TOP" O="$B" install DESTDIR="$TMP/inst" prefix=/usr/local \
		plugin_dir=/usr/lib/traceevent/plugins > "$TMP/inst.txt" 2>&1; then
		check "make install: commands, plugin and man pages where they were" test \
			"$(cd "$TMP/inst" && find . -type f | sort | tr '\n' ' ')" = \
			"./usr/lib/traceevent/plugins/plugin_kma.so ./usr/local/bin/kma-analyze ./usr/local/bin/kma-diff ./usr/local/bin/kma-mark ./usr/local/bin/kma-push ./usr/local/bin/kma-record ./usr/local/bin/kma-trend ./usr/local/share/man/man1/kma-analyze.1 ./usr/local/share/man/man1/kma-diff.1 ./usr/local/share/man/man1/kma-mark.1 ./usr/local/share/man/man1/kma-push.1 ./usr/local/share/man/man1/kma-record.1 ./usr/local/share/man/man1/kma-trend.1 ./usr/local/share/man/man5/kma-fleet.5 ./usr/local/share/man/man5/kma-report.db.5 "
	else
		fail "make install" "$(tail -5 "$TMP/inst.txt")"
	fi
fi
