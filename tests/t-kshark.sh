# plugin_kma.so under KernelShark (libkshark 2.x): rows print in whatever
# order they are displayed, so the free annotations must not depend on print
# order. (1) tests/plugin/ks-rows loads each trace through libkshark with the
# plugin, as KernelShark does, and asks for every row's info string in the
# reverse order and in shuffled orders; tests/plugin/ks-expect.py checks each
# kmem row against a pairing of `trace-cmd report -N` (no plugin) written from
# the documented rules. (2) the kernelshark GUI under Xvfb on basic.dat: the
# rows it displays (logged from its own calls into libkshark by
# tests/plugin/ks-info-log.so, no OCR here) carry the same right annotations,
# and its screenshot is a picture, not a blank screen.
FIX=$TOP/tests/fixtures
PLUGIN_DIR=$TOP/$B/plugin
KS_ROWS=$TOP/$B/tests/plugin/ks-rows
KS_LOG=$TOP/$B/tests/plugin/ks-info-log.so

if ! pkg-config --exists libkshark 2> /dev/null; then
	skip "kshark" "libkshark-dev is not installed (sh scripts/install-deps.sh)"
	return 0 2> /dev/null || exit 0
fi
if ! command -v trace-cmd > /dev/null; then
	skip "kshark" "trace-cmd is not installed"
	return 0 2> /dev/null || exit 0
fi
if [ ! -x "$KS_ROWS" ] || [ ! -f "$PLUGIN_DIR/plugin_kma.so" ]; then
	fail "kshark: built" "no $KS_ROWS or $PLUGIN_DIR/plugin_kma.so: make all unit"
	return 0 2> /dev/null || exit 0
fi
# Under the sanitizer build, the plugin is sanitized too (the build's own
# copy never is: the system trace-cmd loads it), as ks-rows is.
if [ "$LABEL" = asan+ubsan ]; then
	PLUGIN_DIR=$TMP/plugin
	mkdir -p "$PLUGIN_DIR"
	# shellcheck disable=SC2046
	if ! cc -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
		-fPIC -shared -fvisibility=hidden -pthread -std=gnu11 -D_GNU_SOURCE -DKMA_KSHARK \
		$(pkg-config --cflags libtraceevent) \
		$(pkg-config --cflags libkshark | sed 's/-I/-isystem /g') -I"$TOP/lib" \
		-o "$PLUGIN_DIR/plugin_kma.so" "$TOP/plugin/plugin_kma.c" "$TOP/plugin/kma-kshark.c" \
		"$TOP"/lib/*.c -lm > "$TMP/build.txt" 2>&1; then
		fail "kshark: sanitized plugin builds" "$(tail -5 "$TMP/build.txt")"
		return 0 2> /dev/null || exit 0
	fi
fi

# Only our plugin directory: HOME is empty, so no ~/.local/lib/traceevent/plugins
# copy (loaded after TRACEEVENT_PLUGIN_DIR) stands in for the one under test.
mkdir -p "$TMP/home"
# libkshark 2.2.1 leaks a stream's name (kshark_add_stream): not ours.
{ cat "$TOP/tests/lsan.supp"; echo "leak:libkshark.so"; } > "$TMP/lsan.supp"
ks_rows() { # ks_rows TRACE ORDER
	HOME=$TMP/home TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR \
		LSAN_OPTIONS=suppressions=$TMP/lsan.supp:print_suppressions=0 \
		"$KS_ROWS" "$PLUGIN_DIR/plugin_kma.so" "$@"
}
stock() { # stock TRACE: the kernel's own lines, no plugin at all
	memo "$TMP/$(basename "$1").stock" "trace-cmd-report-N-t $1" \
		env HOME="$TMP/home" trace-cmd report -N -t "$1" 2> /dev/null
}

# ks_case NAME TRACE ORDER...: every kmem row right, read in each ORDER
ks_case() {
	local name=$1 dat=$2 order rows=()
	shift 2
	if ! stock "$dat"; then
		fail "kshark $name: trace-cmd report -N" "cannot read $dat"
		return
	fi
	for order in "$@"; do
		if ! ks_rows "$dat" "$order" > "$TMP/$name.$order" 2> "$TMP/$name.err"; then
			fail "kshark $name: rows read in $order order" "ks-rows: $(tail -3 "$TMP/$name.err")"
			return
		fi
		rows+=("$TMP/$name.$order")
	done
	check "kshark $name: every kmem row right, read in the orders $*" \
		python3 "$TOP/tests/plugin/ks-expect.py" "$TMP/$(basename "$dat").stock" "${rows[@]}"
}

# Recorded traces: slab events (basic; lost: with lost events), page events (pages).
# Orders: reversed, and shuffles with fixed seeds (tests/plugin/ks-rows.c).
ks_case basic "$FIX/basic.dat" reverse 42 7
ks_case pages "$FIX/pages.dat" reverse 42
ks_case lost "$FIX/lost.dat" reverse 42
# Built ones: frees on the other CPU at the same time (cross-cpu: trace-cmd
# report's merge order, lower CPU first, decides), implicit frees, and the
# page cases a recording lacks (failed allocations, pfn 0..16, old layout).
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
GEN=$TOP/tests/gen
{ echo "pagelayout page"; cat "$TOP/tests/pages/basic.seq"; } > "$TMP/page-ptr.seq"
for c in cross-cpu:$GEN/cross-cpu.seq implicit:$GEN/implicit.seq \
	pages-pfn:$TOP/tests/pages/basic.seq pages-ptr:$TMP/page-ptr.seq; do
	if "$MKTRACE" -o "$TMP/${c%%:*}.dat" "${c#*:}" > "$TMP/mk.txt" 2>&1; then
		ks_case "${c%%:*}" "$TMP/${c%%:*}.dat" reverse 42
	else
		fail "kshark ${c%%:*}: mktrace" "$(cat "$TMP/mk.txt")"
	fi
done

# The same rows in three orders print the same.
if [ -s "$TMP/basic.reverse" ]; then
	check "kshark basic: the rows print the same in any order" sh -c "
		cmp '$TMP/basic.reverse' '$TMP/basic.42' && cmp '$TMP/basic.reverse' '$TMP/basic.7'"
fi

# The GUI. Xvfb's screen is large enough for the Info column and the first
# freed rows; KS_USER_CACHE_DIR holds the setting that skips the root warning.
if ! command -v kernelshark > /dev/null || ! command -v xvfb-run > /dev/null ||
   ! command -v xwd > /dev/null; then
	skip "kshark gui" "kernelshark, xvfb-run (xvfb) or xwd (x11-apps) is not installed"
	return 0 2> /dev/null || exit 0
fi
if [ ! -f "$KS_LOG" ]; then
	fail "kshark gui" "no $KS_LOG: make unit"
	return 0 2> /dev/null || exit 0
fi
mkdir -p "$TMP/kscache"
printf '[General]\nnoRootWarn=true\n' > "$TMP/kscache/setting.ini"
cat > "$TMP/gui.sh" <<'EOF'
# in xvfb-run: kernelshark until its rows stop coming (at most 20 s), then the screen
LD_PRELOAD=$KS_LOG kernelshark -p "$PLUGIN_DIR/plugin_kma.so" "$FIX/basic.dat" \
	-qwindowgeometry 1900x1150+0+0 > "$TMP/gui.out" 2>&1 &
pid=$!
last=-1
for i in $(seq 40); do
	sleep 0.5
	n=$(cat "$KMA_KS_INFO_LOG" 2> /dev/null | wc -l)
	[ "$n" -gt 0 ] && [ "$n" = "$last" ] && break
	last=$n
done
xwd -root -silent > "$TMP/gui.xwd"
kill "$pid"
wait "$pid" 2> /dev/null
exit 0
EOF
# the GUI's own libraries are not sanitized: no sanitized plugin in it
PLUGIN_DIR=$TOP/$B/plugin
if ! HOME=$TMP/home TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR KS_USER_CACHE_DIR=$TMP/kscache \
	KMA_KS_INFO_LOG=$TMP/gui.log KS_LOG=$KS_LOG PLUGIN_DIR=$PLUGIN_DIR FIX=$FIX TMP=$TMP \
	ASAN_OPTIONS= timeout 60 xvfb-run -a -s "-screen 0 1920x1200x24" sh "$TMP/gui.sh" \
	> "$TMP/xvfb.txt" 2>&1; then
	fail "kshark gui: kernelshark under xvfb-run" "$(tail -5 "$TMP/xvfb.txt" "$TMP/gui.out")"
	return 0 2> /dev/null || exit 0
fi
check "kshark gui: the rows KernelShark displayed carry the right annotations" \
	python3 "$TOP/tests/plugin/ks-expect.py" --subset "$TMP/basic.dat.stock" "$TMP/gui.log"
# the row the bare screenshot once showed with nothing after name=names_cache
check "kshark gui: the open_exec free row says what it freed" grep -q -E \
	'kmem_cache_free: \(open_exec\+0x31\) ptr=0x[0-9a-f]+ name=names_cache freed 4096 bytes from getname_kernel\+0x25, lived [0-9.]+us$' \
	"$TMP/gui.log"
# The screenshot stays as the build's artefact, for a human to look at.
SHOT=$TOP/$B/tests/plugin/kshark-basic.png
if python3 "$TOP/tests/plugin/xwd2png.py" "$TMP/gui.xwd" "$SHOT" > "$TMP/png.txt" 2>&1; then
	read -r size colours < "$TMP/png.txt"
	check "kshark gui: screenshot $size is a picture, not a blank screen ($SHOT)" \
		test "${colours:-0}" -ge 20
else
	fail "kshark gui: screenshot" "$(cat "$TMP/png.txt")"
fi
