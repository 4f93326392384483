# Cache names that the decoder's cache of interned names files under one slot (same
# length, same first and last 8 bytes) must stay apart: each -g cache row is worked out
# by hand from the sequence below, not taken from kma's output.
MKTRACE=$TOP/$B/tests/tools/mktrace
need_mktrace
N1=abcdefgh_1_stuvwxyz
N2=abcdefgh_2_stuvwxyz
N3=abcdefgh_3_stuvwxyz
cat > "$TMP/names.seq" <<SEQ
cpus 1
kallsyms ffffffff81000000 T _stext
kallsyms ffffffff81100000 t alloc_a
kallsyms ffffffff81100300 t free_x
kallsyms ffffffff81400000 T _etext
cmdline 100 bash
event 0 1000 100 kmem_cache_alloc call_site=alloc_a+0x10 ptr=0xffff888100001000 bytes_req=192 bytes_alloc=192 name=$N1
event 0 2000 100 kmem_cache_alloc call_site=alloc_a+0x10 ptr=0xffff888100002000 bytes_req=64 bytes_alloc=64 name=$N2
event 0 3000 100 kmem_cache_alloc call_site=alloc_a+0x10 ptr=0xffff888100003000 bytes_req=32 bytes_alloc=32 name=$N1
event 0 4000 100 kmem_cache_alloc call_site=alloc_a+0x10 ptr=0xffff888100004000 bytes_req=128 bytes_alloc=128 name=$N3
event 0 5000 100 kmem_cache_free call_site=free_x+0x8 ptr=0xffff888100002000 name=$N2
event 0 6000 100 kmem_cache_alloc call_site=alloc_a+0x10 ptr=0xffff888100005000 bytes_req=16 bytes_alloc=16 name=$N2
SEQ
# "cache total allocs frees net": N1 192 + 32, 2 allocs, none freed; N2 64 (freed) + 16,
# 2 allocs, 1 free, net 16; N3 128, 1 alloc, live
want="$N1 224 2 0 224
$N2 80 2 1 16
$N3 128 1 0 128"
if "$MKTRACE" -g 6.18 -o "$TMP/names.dat" "$TMP/names.seq" > "$TMP/mk.txt" 2>&1; then
	got=$("$KMA" --no-db -g cache -f csv "$TMP/names.dat" 2> "$TMP/names.err" |
	      awk -F, 'NR > 1 && $1 != "" { print $1, $2, $6, $7, $5 }' | LC_ALL=C sort)
	if [ "$got" = "$want" ]; then
		pass "names: cache names alike at both ends stay apart"
	else
		fail "names: cache names alike at both ends stay apart" \
		     "want: $want / got: $got $(head -3 "$TMP/names.err")"
	fi
else
	fail "names: mktrace" "$(tail -5 "$TMP/mk.txt")"
fi
