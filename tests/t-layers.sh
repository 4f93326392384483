# The layers of docs/architecture.md hold: every #include "..." of lib/, analyzer/, plugin/
# and tools/ points into the same folder, lib/, or a folder its layer may use. lib/ is pure
# C (no trace library, no SQLite); only the reader includes libtracecmd/libtracefs.
declare -A MAY=(
	[lib]="lib"
	[analyzer/reader]="lib"
	[analyzer/sites]="lib reader"
	[analyzer/match]="lib"
	[analyzer/store]="lib match reader sites"
	[analyzer/report]="lib match reader sites"
	[analyzer]="lib reader sites match store report"
	[plugin]="lib"
	[tools]=""
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
			*) [ -f "$(dirname "$f")/$inc" ] || { [ "$d" != tools ] && [ -f "$TOP/lib/$inc" ] &&
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
