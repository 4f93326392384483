#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent --counters rows (tests/t-counters.sh), as kma-analyze --counters -f csv.

usage: counters-expect.py --seq NAME.seq          (the mktrace description itself)
       trace-cmd report -i T.dat | counters-expect.py --report

Reads the kmem events and the kma-record counter markers (kma-slabinfo:, kma-meminfo:,
kma-allocinfo:; /work spec "the leak experiment in a trace") and works out, without kma:
which snapshots are complete (every PART/PARTS once, none malformed), the interval of
each kind (its start snapshot's first part to its end snapshot's first part, in stream
order), and over it, pairing allocations and frees by pointer over the whole trace:
per slab cache allocations, frees, implicit frees; the slab bytes; per function the net
bytes. Prints the CSV kma prints, then, on stderr, "unknown_frees N mem_unknown_frees N".
"""
import re
import sys

ALLOC = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
FREE = {"kfree", "kmem_cache_free"}
KINDS = ("slabinfo", "meminfo", "allocinfo")
PREFIX = {"kma-slabinfo:": "slabinfo", "kma-meminfo:": "meminfo", "kma-allocinfo:": "allocinfo"}


def unescape(s):
    return re.sub(r"\\x([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), s)


def func_of(cs):
    """A call site as printed (SYM+0xOFF[/0xSIZE] [mod]) -> its function."""
    return cs.split()[0].split("+")[0]


def from_seq(path):
    evs = []
    for n, line in enumerate(open(path, encoding="latin-1")):
        line = line.rstrip("\n")
        w = line.split(None, 4)
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "marker":
            evs.append((int(w[2]), int(w[1]), n, "print", unescape(w[4].strip())))
        elif w[0] == "event":
            rest = w[4].split()
            f = dict(kv.split("=", 1) for kv in rest[1:] if "=" in kv)
            evs.append((int(w[2]), int(w[1]), n, rest[0], f))
    evs.sort(key=lambda e: (e[0], e[1], e[2]))
    return [(e[3], e[4]) for e in evs]


LINE = re.compile(r"\[(\d+)\]\s+[\d.]+: (\w+):\s+(.*)$")


def from_report(lines):
    evs = []
    for line in lines:
        mo = LINE.search(line)
        if not mo:
            continue
        ev, rest = mo.group(2), mo.group(3)
        if ev == "print":
            evs.append(("print", rest.split(": ", 1)[1] if ": " in rest else rest))
        elif ev in ALLOC or ev in FREE:
            f = {}
            for kv in re.findall(r"(\w+)=(\S+(?: \[\w+\])?)", rest):
                f[kv[0]] = kv[1]
            evs.append((ev, f))
    return evs


def num(s):
    return 0 if s == "(nil)" else int(s, 0)


def kmalloc_cache(f):
    b = num(f["bytes_alloc"])
    if b > 8192:
        return None
    toks = set(f.get("gfp_flags", "").split("|"))
    acc = f.get("accounted")
    if "__GFP_DMA" in toks or "GFP_DMA" in toks:
        pre = "dma-kmalloc-"
    elif "__GFP_RECLAIMABLE" in toks:
        pre = "kmalloc-rcl-"
    elif toks & {"__GFP_ACCOUNT", "GFP_KERNEL_ACCOUNT"} and acc not in ("0", "false"):
        pre = "kmalloc-cg-"
    else:
        pre = "kmalloc-"
    return pre + ("%dk" % (b // 1024) if b >= 1024 else str(b))


def parse_marker(kind, body):
    """(phase, part, parts, entries) or None when malformed."""
    w = body.split()
    if not w or w[0] not in ("start", "end"):
        return None
    phase = w[0]
    if kind == "meminfo":
        ents = []
        for t in w[1:]:
            k, eq, v = t.partition("=")
            if not eq or not k or not v.isdigit():
                return None
            ents.append((k, int(v)))
        return phase, 1, 1, ents
    if len(w) < 2 or not re.fullmatch(r"\d+/\d+", w[1]):
        return None
    part, parts = map(int, w[1].split("/"))
    if part < 1 or part > parts:
        return None
    if kind == "slabinfo":
        t = w[2:]
        if len(t) % 3 or not all(x.isdigit() for i, x in enumerate(t) if i % 3):
            return None
        return phase, part, parts, [(t[i], int(t[i + 1]), int(t[i + 2]))
                                    for i in range(0, len(t), 3)]
    rest = body.strip()[len(phase):].strip()[len(w[1]):]
    ents = []
    for e in rest.split(";"):
        e = e.strip()
        if not e:
            continue
        m = re.fullmatch(r"(\d+)\s+(\d+)\s+(.+)", e)
        if not m:
            return None
        tag = m.group(3).strip()
        fm = re.search(r"(?:^|\s)func:(\S+)", tag)
        ents.append((tag, fm.group(1) if fm else tag, int(m.group(1)), int(m.group(2))))
    return phase, part, parts, ents


class Snap:
    def __init__(self):
        self.seen, self.parts, self.have, self.bad, self.ents = 0, None, set(), False, []


def main():
    evs = from_seq(sys.argv[2]) if sys.argv[1] == "--seq" else from_report(sys.stdin)
    snaps = {(k, p): Snap() for k in KINDS for p in ("start", "end")}
    iv = {k: "before" for k in KINDS}
    end_first = set()
    live = {}
    caches = {}          # name -> [objsize, allocs, frees, implicit]  (insertion order)
    sites = {}           # func -> [net, allocs]
    slab_bytes = 0
    unknown_frees = mem_unknown = 0

    def cache(name):
        return caches.setdefault(name, [0, 0, 0, 0])

    def close(obj, implicit):
        nonlocal slab_bytes
        cname, fn, b = obj
        if iv["slabinfo"] == "in" and cname is not None:
            cache(cname)[3 if implicit else 2] += 1
        if iv["meminfo"] == "in" and cname is not None:
            slab_bytes -= b
        if iv["allocinfo"] == "in":
            sites.setdefault(fn, [0, 0])[0] -= b

    for ev, f in evs:
        if ev == "print":
            kind = next((PREFIX[p] for p in PREFIX if f.startswith(p)), None)
            if kind is None:
                continue
            m = parse_marker(kind, f[len("kma-" + kind + ":"):])
            if m is None:
                w = f.split()
                ph = w[1] if len(w) > 1 and w[1] in ("start", "end") else None
                if ph:
                    s = snaps[(kind, ph)]
                    if not s.seen:
                        s.seen = 1
                        iv_step(iv, end_first, kind, ph)
                    s.bad = True
                continue
            ph, part, parts, ents = m
            s = snaps[(kind, ph)]
            if not s.seen:
                s.parts = parts
                iv_step(iv, end_first, kind, ph)
            s.seen += 1
            if parts != s.parts or part in s.have:
                s.bad = True
                continue
            s.have.add(part)
            s.ents += ents
            continue
        if ev in ALLOC:
            ptr = num(f["ptr"])
            if ptr == 0:
                continue
            b = num(f["bytes_alloc"])
            if "name" in f:
                cname = f["name"]
            elif ev.startswith("kmalloc"):
                cname = kmalloc_cache(f)
            else:
                cname = None
            if cname is not None:
                c = cache(cname)
                c[0] = max(c[0], b)
            fn = func_of(f["call_site"])
            if ptr in live:
                close(live[ptr], True)
            live[ptr] = (cname, fn, b)
            if iv["slabinfo"] == "in" and cname is not None:
                cache(cname)[1] += 1
            if iv["meminfo"] == "in" and cname is not None:
                slab_bytes += b
            if iv["allocinfo"] == "in":
                s = sites.setdefault(fn, [0, 0])
                s[0] += b
                s[1] += 1
        elif ev in FREE:
            ptr = num(f["ptr"])
            if ptr <= 0x10:
                continue
            if ptr in live:
                close(live.pop(ptr), False)
                continue
            if iv["slabinfo"] == "in":
                if "name" in f:
                    cache(f["name"])[2] += 1
                else:
                    unknown_frees += 1
            if iv["meminfo"] == "in":
                mem_unknown += 1

    def complete(s):
        return s.seen and not s.bad and len(s.have) == s.parts

    def usable(k):
        return complete(snaps[(k, "start")]) and complete(snaps[(k, "end")]) and \
            k not in end_first

    out = []
    if usable("slabinfo"):
        out += slab_rows(snaps, caches)
    if usable("meminfo"):
        out += mem_rows(snaps, slab_bytes)
    if usable("allocinfo"):
        out += alloc_rows(snaps, sites)
    print("kind,name,state,target,objsize,kernel_start,kernel_end,kernel_delta,"
          "kernel_calls_delta,trace_allocs,trace_frees,trace_implicit,trace_delta,untraced")
    for r in out:
        print(",".join("" if v is None else str(v) for v in r))
    print("unknown_frees %d mem_unknown_frees %d" % (unknown_frees, mem_unknown), file=sys.stderr)
    print("usable " + " ".join(k for k in KINDS if usable(k)), file=sys.stderr)


def iv_step(iv, end_first, kind, ph):
    if ph == "start" and iv[kind] == "before":
        iv[kind] = "in"
    elif ph == "end" and iv[kind] != "after":
        if iv[kind] == "before":
            end_first.add(kind)
        iv[kind] = "after"


def slab_rows(snaps, caches):
    k = {}
    for ph in ("start", "end"):
        for name, active, size in snaps[("slabinfo", ph)].ents:
            r = k.setdefault(name, {"start": 0, "end": 0, "size": {}})
            r[ph] += active
            r["size"][ph] = size
    size = {n: r["size"].get("end", r["size"].get("start")) for n, r in k.items()}
    tdelta = {n: 0 for n in k}
    rows = {}
    for name, (osz, a, fr, im) in caches.items():
        d = a - fr - im
        if name in k:
            tdelta[name] += d
            rows[name] = ["slabinfo", name, "slabinfo", None, size[name], None, None, None,
                          None, a, fr, im, None, None]
            continue
        if not (a or fr or im):
            continue
        cands = [n for n in k if osz and size[n] == osz]
        if len(cands) == 1:
            tdelta[cands[0]] += d
            rows[name] = ["slabinfo", name, "merged", cands[0], osz or None, None, None,
                          None, None, a, fr, im, d, None]
        else:
            rows[name] = ["slabinfo", name, "merged-unknown", None, osz or None, None, None,
                          None, None, a, fr, im, d, None]
    for n, r in k.items():
        row = rows.setdefault(n, ["slabinfo", n, "slabinfo", None, size[n], None, None, None,
                                  None, 0, 0, 0, None, None])
        kd = r["end"] - r["start"]
        row[4] = size[n] or None
        row[5], row[6], row[7] = r["start"], r["end"], kd
        row[12] = tdelta[n]
        row[13] = kd - tdelta[n]
    shown = [r for r in rows.values()
             if r[2] != "slabinfo" or r[7] or r[9] or r[10] or r[11] or r[12]]
    shown.sort(key=lambda r: (-abs(r[13] or 0), r[1].encode("latin-1", "replace")))
    return shown


def mem_rows(snaps, slab_bytes):
    f = {}
    for ph in ("start", "end"):
        for name, kb in snaps[("meminfo", ph)].ents:
            f.setdefault(name, {"start": 0, "end": 0})[ph] = kb
    rows = []
    for n, v in f.items():
        kd = (v["end"] - v["start"]) * 1024
        t = slab_bytes if n == "Slab" else None
        rows.append(["meminfo", n, None, None, None, v["start"] * 1024, v["end"] * 1024, kd,
                     None, None, None, None, t, None if t is None else kd - t])
    return rows


def alloc_rows(snaps, sites):
    fn = {}
    for ph in ("start", "end"):
        for tag, func, b, calls in snaps[("allocinfo", ph)].ents:
            r = fn.setdefault(func, {"start": 0, "end": 0, "calls": 0, "tags": set()})
            r[ph] += b
            r["calls"] += calls if ph == "end" else -calls
            r["tags"].add(tag)
    for func, (net, allocs) in sites.items():
        r = fn.setdefault(func, {"start": 0, "end": 0, "calls": 0, "tags": set()})
        r["net"] = r.get("net", 0) + net
        r["allocs"] = r.get("allocs", 0) + allocs
    rows = []
    for func in sorted(fn, key=lambda s: s.encode("latin-1", "replace")):
        r = fn[func]
        kd, net, allocs = r["end"] - r["start"], r.get("net", 0), r.get("allocs", 0)
        if not (kd or r["calls"] or net or allocs):
            continue
        rows.append(["allocinfo", func, None, None, None, r["start"], r["end"], kd, r["calls"],
                     allocs, None, None, net, kd - net])
    return rows


if __name__ == "__main__":
    main()
