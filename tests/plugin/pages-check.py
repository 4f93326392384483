#!/usr/bin/env python3
# pages-check.py PLUGIN_OUT RAW_OUT DB LONG
#
# plugin_kma.so's page annotations against an independent pairing and against
# kma-analyze --pages. PLUGIN_OUT is `trace-cmd report -t -O kma:ns=1` with the
# plugin, RAW_OUT `trace-cmd report -t -R` of the same file (the fields as
# recorded), DB kma-analyze --pages's report.db, LONG the traced kernel's long
# size (4: a 32-bit pfn of all ones is -1UL). The pairing here is written from
# the rules of kma-analyze(1), PAGES, not from kma's code: mm_page_alloc and
# mm_page_free pair by pfn (or page pointer); pfn -1 / page NULL failed; an
# alloc at a live pfn frees it implicitly; a free of a pfn not live is unknown;
# mm_page_free_batched and the buddy-list events free nothing. Prints what
# disagrees; exit 1 if anything does.
import re
import sqlite3
import sys

plug, raw, db, long_size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
LINE = re.compile(r"^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(mm_page_\w+):\s*(.*)$")
errors = []


def err(msg):
	if len(errors) < 20:
		errors.append(msg)


def events(path):
	out = []
	with open(path, errors="replace") as f:
		for line in f:
			m = LINE.match(line)
			if m:
				ts = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0"))
				out.append((ts, int(m.group(3)), m.group(6), m.group(7).rstrip(),
					    m.group(1).strip(), int(m.group(2))))
	return out


def pages(order):
	n = 1 << order
	return f"{n} page" + ("" if n == 1 else "s")


p, r = events(plug), events(raw)
if len(p) != len(r) or not r:
	err(f"{len(p)} page lines with the plugin, {len(r)} in the raw output")
live = {}
freed, implicit, unknown, failed = set(), set(), 0, 0
for (pts, pcpu, pkind, ptext, _, _), (ts, cpu, kind, rtext, comm, pid) in zip(p, r):
	where = f"{kind} at {ts} cpu {cpu}"
	if (pts, pcpu, pkind) != (ts, cpu, kind):
		err(f"line order differs: {pkind} at {pts} vs {where}")
		break
	m = re.search(r"\b(pfn|page)=(?:0x)?([0-9a-f]+)", rtext)
	name, val = m.group(1), int(m.group(2), 16)
	om = re.search(r"\border=(\d+)", rtext)
	order = int(om.group(1)) if om else None
	if kind not in ("mm_page_alloc", "mm_page_free"):
		if re.search(r" (freed|implicitly frees|unknown|failed)", ptext):
			err(f"{where}: annotated, but frees nothing: {ptext}")
		continue
	head = f"{name}=0x{val:x} order={order}"
	if not ptext.startswith(head):
		err(f"{where}: want it to start '{head}': {ptext}")
	want = ""
	if kind == "mm_page_alloc":
		mt = re.search(r"\bmigratetype=(-?\d+)", rtext).group(1)
		if f" migratetype={mt} " not in ptext:
			err(f"{where}: migratetype={mt} missing: {ptext}")
		if (val == 0 if name == "page" else val == (1 << 8 * long_size) - 1):
			failed += 1
			want = " failed"
		else:
			old = live.pop(val, None)
			if old:
				want = (f" implicitly frees order-{old[2]} ({pages(old[2])}) allocated by "
					f"{old[3]}/{old[4]}, lived {ts - old[0]}ns")
				implicit.add((ts, val, old[2], old[4]))
			live[val] = (ts, val, order, comm, pid)
		if not want and re.search(r" (freed|implicitly frees|unknown|failed)", ptext):
			err(f"{where}: a new allocation annotated: {ptext}")
	else:
		old = live.pop(val, None)
		if old:
			want = (f" freed order-{old[2]} ({pages(old[2])}) allocated by {old[3]}/{old[4]}, "
				f"lived {ts - old[0]}ns")
			freed.add((ts, val, old[2], old[4]))
		else:
			unknown += 1
			want = " unknown"
	if want and not ptext.endswith(want):
		err(f"{where}: want it to end '{want}': {ptext}")

# kma-analyze --pages paired the same records the same way.
con = sqlite3.connect(db)
key = "page" if any(e[3].startswith("page=") for e in r) else "pfn"
# the view renders a struct page pointer as hex text
q = lambda kind: {(a, int(k, 16) if isinstance(k, str) else k, o, p) for a, k, o, p in con.execute(
	f"SELECT free_ts, {key}, page_order, pid FROM page_allocations WHERE free_kind = '{kind}'")}
for what, mine, kind in (("freed", freed, "mm_page_free"), ("implicit", implicit, "implicit")):
	theirs = q(kind)
	for row in sorted(mine - theirs)[:5]:
		err(f"{what}: the plugin has {row}, report.db does not")
	for row in sorted(theirs - mine)[:5]:
		err(f"{what}: report.db has {row}, the plugin does not")
db_failed, db_unknown = con.execute("SELECT failed_allocs, unknown_frees FROM page_trace").fetchone()
if (failed, unknown) != (db_failed, db_unknown):
	err(f"failed/unknown: plugin {failed}/{unknown}, report.db {db_failed}/{db_unknown}")
if not freed:
	err("no matched page free at all")
for e in errors:
	print(e)
print(f"{len(freed)} freed, {len(implicit)} implicit, {unknown} unknown, {failed} failed, "
      f"{len(live)} live", file=sys.stderr)
sys.exit(1 if errors else 0)
