#!/usr/bin/env python3
# ks-expect.py [--subset] STOCK ROWS...
#
# The kmem rows KernelShark printed with plugin_kma.so (ROWS: ks-rows output,
# "<ts> <cpu> <system/event>: <info>") against what they must say, worked out
# here from STOCK, `trace-cmd report -N -t` of the same trace (the kernel's
# own print formats, no plugin), with the pairing rules as kma-analyze(1) and
# the plugin's README document them, not from kma's code:
#
#   slab: kmalloc/kmalloc_node/kmem_cache_alloc/kmem_cache_alloc_node at ptr 0
#   "failed"; at a live ptr "implicitly frees B bytes from CALLER, lived T";
#   kfree/kmem_cache_free of ptr <= 0x10 "null", of a live ptr (any kind)
#   "freed B bytes from CALLER, lived T", of any other "unknown".
#   pages: mm_page_alloc at pfn -1 (page NULL) "failed"; at a live pfn "implicitly frees
#   order-N (P pages) allocated by COMM/PID, lived T"; mm_page_free of a live
#   pfn "freed order-N (...)", of any other "unknown". Everything in the
#   order trace-cmd report prints it (time order).
#
# T as kma-analyze prints durations: <1us "Nns", <1ms "%.1fus", <1s
# "%.2fms", else "%.3fs". ROWS has every kmem row once, unless --subset:
# then any rows, any number of times (what the KernelShark GUI asked for, as
# tests/plugin/ks-info-log.c logs it). Prints what disagrees and what was
# right; exit 1 if anything disagrees or no free was matched.
import re
import sys

subset = sys.argv[1] == "--subset"
if subset:
	del sys.argv[1]
stock = sys.argv[1]
LINE = re.compile(r"^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):\s*(.*?)\s*$")
SLAB_ALLOC = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
SLAB_FREE = {"kfree", "kmem_cache_free"}
PAGE = {"mm_page_alloc", "mm_page_free"}
errors = []


def err(msg):
	"""one disagreement of the ROWS file being checked"""
	errors.append(msg)


def dur(ns):
	if ns < 1000:
		return f"{ns}ns"
	if ns < 1000000:
		return "%.1fus" % (ns / 1e3)
	if ns < 1000000000:
		return "%.2fms" % (ns / 1e6)
	return "%.3fs" % (ns / 1e9)


def field(text, name):
	m = re.search(r"(?:^|\s)" + name + r"=(\S+)", text)
	return m.group(1) if m else None


# (ts, cpu, event) -> [(head, annotation or ""), ...] in file order
want = {}
live, live_pages = {}, {}
with open(stock, errors="replace") as f:
	for line in f:
		m = LINE.match(line)
		if not m or m.group(6) not in SLAB_ALLOC | SLAB_FREE | PAGE:
			continue
		comm, pid, cpu = m.group(1).strip(), int(m.group(2)), int(m.group(3))
		ts = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0"))
		ev, text = m.group(6), m.group(7)
		note = ""
		if ev in PAGE:
			# the old layout has the struct page pointer (%p: no 0x) instead
			by_ptr = field(text, "pfn") is None
			v = field(text, "page" if by_ptr else "pfn")
			pfn = 0 if v == "(nil)" else int(v, 16)
			head = f"{'page' if by_ptr else 'pfn'}=0x{pfn:x} "
			if ev == "mm_page_alloc":
				if pfn in (2**64 - 1, 2**32 - 1) or (by_ptr and not pfn):
					note = " failed"
				else:
					old = live_pages.get(pfn)
					if old:
						note = " implicitly frees " + old[0] + f", lived {dur(ts - old[1])}"
					order = int(field(text, "order"))
					n = 1 << order
					live_pages[pfn] = (f"order-{order} ({n} page{'' if n == 1 else 's'}) "
							   f"allocated by {comm}/{pid}", ts)
			else:
				old = live_pages.pop(pfn, None)
				note = (" freed " + old[0] + f", lived {dur(ts - old[1])}") if old else " unknown"
		else:
			site, p = field(text, "call_site"), field(text, "ptr")
			ptr = 0 if p == "(nil)" else int(p, 16)
			head = f"({site}) ptr={p}"
			if ev in SLAB_ALLOC:
				if not ptr:
					note = " failed"
				else:
					old = live.get(ptr)
					if old:
						note = " implicitly frees " + old[0] + f", lived {dur(ts - old[1])}"
					live[ptr] = (f"{field(text, 'bytes_alloc')} bytes from {site}", ts)
			elif ptr <= 0x10:
				note = " null"
			else:
				old = live.pop(ptr, None)
				note = (" freed " + old[0] + f", lived {dur(ts - old[1])}") if old else " unknown"
		want.setdefault((ts, cpu, ev), []).append((head, note))

ROW = re.compile(r"^(\d+) (\d+) kmem/(\w+): (.*)$")
ANNOTATION = re.compile(r" (freed|implicitly frees) | (unknown|null|failed)$")


def right(head, note, info):
	"""'' when info is the row (head, note) must print, else what is wrong"""
	if head not in info:
		return f"row is not '{head}...': {info}"
	if note and not info.endswith(note):
		return f"want '...{note}', got: {info}"
	if not note and ANNOTATION.search(info):
		return f"new allocation annotated: {info}"
	return ""


def tally(counts, key, note):
	kind = ("page-" if key[2] in PAGE else "") + (note.split()[0] if note else "new")
	counts[kind] = counts.get(kind, 0) + 1


def check_subset(got, counts):
	"""the rows a viewer asked for, as often and in whatever order it did"""
	for key in sorted(got):
		for info in got[key]:
			where = f"{key[2]} at {key[0]} cpu {key[1]}"
			ws = [(h, n) for h, n in want.get(key, []) if h in info]
			why = [right(h, n, info) for h, n in ws]
			if not ws:
				err(f"{where}: no such event in trace-cmd report: {info}")
			elif all(why):
				err(f"{where}: {why[0]}")
			else:
				tally(counts, key, ws[why.index("")][1])


def check_all(got, counts):
	"""every kmem row once"""
	if sorted(want) != sorted(got):
		err(f"{len(want)} kmem (ts, cpu, event) in trace-cmd report, {len(got)} in the rows")
	for key in sorted(set(want) & set(got)):
		w, g = want[key], got[key]
		if len(w) != len(g):
			err(f"{key}: {len(w)} events in trace-cmd report, {len(g)} rows")
			continue
		for (head, note), info in zip(w, g):
			why = right(head, note, info)
			if why:
				err(f"{key[2]} at {key[0]} cpu {key[1]}: {why}")
			else:
				tally(counts, key, note)


failed = 0
for rows in sys.argv[2:]:
	got, counts, errors = {}, {}, []
	with open(rows, errors="replace") as f:
		for line in f:
			m = ROW.match(line.rstrip("\n"))
			if m and m.group(3) in SLAB_ALLOC | SLAB_FREE | PAGE:
				key = (int(m.group(1)), int(m.group(2)), m.group(3))
				got.setdefault(key, []).append(m.group(4))
	(check_subset if subset else check_all)(got, counts)
	for kind, events in (("freed", SLAB_FREE), ("page-freed", {"mm_page_free"})):
		if any(k[2] in events for k in (got if subset else want)) and not counts.get(kind):
			err(f"no {kind} row at all")
	print(f"{rows}: {len(errors)} wrong; right:", " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
	for e in errors[:20]:
		print("  " + e)
	failed += bool(errors)
sys.exit(1 if failed else 0)
