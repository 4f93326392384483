#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kma-encoding.py KMA MKTRACE DIR: names that are not clean UTF-8 in every report and format.

Writes a description for tests/tools/mktrace whose symbols, module, cache names, task names
and marker labels hold ill-formed UTF-8, control bytes (ESC, newline, tab, DEL, C1), CSV
metacharacters and well-formed multi-byte UTF-8; renders it; runs kma-analyze for each report
in JSON, CSV and text; and checks every output against names and numbers worked out here from
the raw bytes, by Python's own UTF-8 decoder:

  JSON and CSV: strict UTF-8; a well-formed sequence is itself, each byte 0xNN of an
                ill-formed one is U+00NN (its Latin-1 reading)
  text:         strict UTF-8, no control byte but the line ends; C0 controls, DEL and
                ill-formed bytes shown as \\xNN, C1 controls (U+0080..U+009F) as \\uNNNN

Prints one line per check, "ok NAME" or "not ok NAME<tab>WHY", for tests/t-encoding.sh.
"""
import csv
import io
import json
import os
import subprocess
import sys

KMA, MKTRACE, DIR = sys.argv[1:4]

# --- the names, as raw bytes -------------------------------------------------------------

SYMS = [  # (address, name): text symbols of vmlinux
    (0xffffffff81000100, b"bad\xe9name"),               # Latin-1, not UTF-8
    (0xffffffff81000200, b"esc\x1b[31mred"),            # a terminal escape
    (0xffffffff81000300, b"utf\xc3\xa9\xe2\x82\xac"),   # well-formed: e-acute, euro
    (0xffffffff81000400, b"c1\xc2\x9bx\x7f"),           # well-formed C1 CSI, then DEL
    (0xffffffff81000500, b'quo"te,comma'),              # CSV metacharacters
    (0xffffffff81000600, b"trunc\xe2\x82\xff\xfe\xc0\xaf\xed\xa0\x80"),  # truncated,
    (0xffffffff81000700, b"free_x"),                    # never-used, overlong, surrogate
]
MOD = b"m\xf0d\x1b"
MOD_SYM = (0xffffffffc0a01000, b"mod_alloc")
COMMS = {100: b"t\xe9sk", 200: b'sp\x1bq,"x', 300: b"caf\xc3\xa9"}
CACHE_A = b"c\xe9che\x0anl"
CACHE_B = b"caf\xc3\xa9_cache"
LABELS = [b"g\xe9n\x0atwo", b"\xe2\x82\xac\x1b\x09end"]
FILE_NAME = b"tr\xe9\x1bce.dat"

# allocations: (ts, pid, symbol index or 'mod', offset, ptr, req, alloc, cache or None)
ALLOCS = [
    (1000, 100, 0, 0x10, 0xffff888100001000, 100, 128, None),
    (2000, 200, 1, 0x20, 0xffff888100002000, 72, 80, CACHE_A),
    (3000, 300, 2, 0x8, 0xffff888100003000, 40, 64, CACHE_B),
    (4000, 100, 3, 0x4, 0xffff888100004000, 20, 32, None),
    (5000, 200, 4, 0x4, 0xffff888100005000, 8, 8, None),
    (6000, 300, 5, 0x4, 0xffff888100006000, 16, 16, None),
    (6500, 100, "mod", 0x1c, 0xffff888100007000, 500, 512, None),
]
FREED = {0xffff888100001000}  # by free_x at 7000
MARKERS = [(1500, LABELS[0]), (3500, LABELS[1])]


def esc(b):
    """A name in the description: \\xNN for every byte that is not plain printable ASCII."""
    return "".join(chr(c) if 0x21 <= c < 0x7f and c not in b"#\\" else "\\x%02x" % c for c in b)


def sym_name(a):
    return MOD_SYM[1] if a[2] == "mod" else SYMS[a[2]][1]


def caller(a):
    return sym_name(a) + b"+0x%x" % a[3]


def cache(a):
    # kmalloc's caches are kmalloc-<size> (every size here is a kmalloc class)
    return a[7] if a[7] is not None else b"kmalloc-%d" % a[6]


# --- the mappings, from Python's decoder ---------------------------------------------------

def u8(b):
    """JSON/CSV: well-formed UTF-8 as is, each byte of an ill-formed sequence U+00NN."""
    s = b.decode("utf-8", "surrogateescape")
    return "".join(chr(ord(ch) - 0xdc00) if 0xdc80 <= ord(ch) <= 0xdcff else ch for ch in s)


def shown(b):
    """text: the display form."""
    out = []
    for ch in b.decode("utf-8", "surrogateescape"):
        o = ord(ch)
        if 0xdc80 <= o <= 0xdcff:
            out.append("\\x%02x" % (o - 0xdc00))
        elif o < 0x20 or o == 0x7f:
            out.append("\\x%02x" % o)
        elif 0x80 <= o < 0xa0:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return "".join(out)


# --- the trace ------------------------------------------------------------------------------

def description():
    lines = ["generation 6.18", "cpus 1", "kallsyms ffffffff81000000 T _stext"]
    lines += ["kallsyms %x t %s" % (addr, esc(n)) for addr, n in SYMS]
    lines += ["kallsyms ffffffff81400000 T _etext",
              "kallsyms %x t %s [%s]" % (MOD_SYM[0], esc(MOD_SYM[1]), esc(MOD)),
              "kallsyms ffffffffc0a02000 t mod_end [%s]" % esc(MOD)]
    lines += ["cmdline %d %s" % (pid, esc(c)) for pid, c in COMMS.items()]
    ev = [(500, "event 0 500 100 module_load name=%s" % esc(MOD))]
    for a in ALLOCS:
        kind = "kmalloc" if a[7] is None else "kmem_cache_alloc"
        line = "event 0 %d %d %s call_site=%s+0x%x ptr=0x%x bytes_req=%d bytes_alloc=%d" % (
            a[0], a[1], kind, esc(sym_name(a)), a[3], a[4], a[5], a[6])
        if a[7] is not None:
            line += " name=" + esc(a[7])
        ev.append((a[0], line))
    ev.append((7000, "event 0 7000 100 kfree call_site=free_x+0x8 ptr=0xffff888100001000"))
    ev.append((8000, "event 0 8000 100 module_free name=%s" % esc(MOD)))
    ev += [(ts, "marker 0 %d 100 kma: %s" % (ts, esc(label))) for ts, label in MARKERS]
    return "\n".join(lines + [l for _, l in sorted(ev)]) + "\n"


# --- what each report must hold -------------------------------------------------------------

def totals(key):
    t = {}
    for a in ALLOCS:
        k = key(a)
        t[k] = t.get(k, 0) + a[6]
    return t


def live(a):
    return a[4] not in FREED


def generation(a):
    return sum(1 for ts, _ in MARKERS if ts <= a[0])


def aligned8(n):
    return (n + 7) // 8 * 8


# report args -> (columns holding names, rows as a sorted list of tuples of raw bytes/None/ints)
EXPECT = {
    "": (["caller", "total"], sorted((caller(a), a[6]) for a in ALLOCS)),
    "-g function": (["function", "total"], sorted(totals(sym_name).items())),
    "-g module": (["module", "total"],
                  sorted(totals(lambda a: MOD if a[2] == "mod" else b"vmlinux").items())),
    "-g cache": (["cache", "total"], sorted(totals(cache).items())),
    "-g comm": (["comm", "total"], sorted(totals(lambda a: COMMS[a[1]]).items())),
    "--generations": (["label", "gen"],
                      [(b"start", 0)] + [(label, i + 1) for i, (_, label) in enumerate(MARKERS)]),
    "--list": (["caller", "cache", "comm", "bytes"],
               sorted((caller(a), cache(a), COMMS[a[1]], a[6]) for a in ALLOCS)),
    "--leaks --all": (["caller", "net"], sorted((caller(a), a[6]) for a in ALLOCS if live(a))),
    "--lifetimes": (["caller", "frees"], sorted((caller(a), 1) for a in ALLOCS if not live(a))),
    # the peak is after the last allocation, before the only free: everything is held
    "--peak": (["caller", "held"], sorted((caller(a), a[6]) for a in ALLOCS)),
    # kmalloc slack only: allocations from a cache of their own are not advised on
    "--advice": (["caller", "saved"], sorted((caller(a), a[6] - aligned8(a[5])) for a in ALLOCS
                                             if a[7] is None and a[6] > aligned8(a[5]))),
    # one row for the unload, one per call site it left live allocations of
    "--leftovers": (["module", "caller", "still_live_bytes"],
                    sorted([(MOD, None, 512), (MOD, caller(ALLOCS[6]), 512)],
                           key=lambda r: (r[1] is not None, r))),
}


def as_json(v):
    return None if v is None else u8(v) if isinstance(v, bytes) else v


def as_csv(v):
    return "" if v is None else u8(v) if isinstance(v, bytes) else str(v)


def key(r):
    return tuple((x is not None, x) for x in r)


results = []


def check(name, ok, why=""):
    results.append("ok " + name if ok else "not ok %s\t%s" % (name, " ".join(why.split("\n"))))


def run(args, path):
    p = subprocess.run([KMA, "--no-db"] + args + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode:
        raise RuntimeError("kma-analyze %s: exit %d: %s" % (" ".join(args), p.returncode,
                                                            p.stderr.decode(errors="replace")))
    return p.stdout


def check_json(rep, dat):
    cols, rows = EXPECT[rep]
    raw = run(rep.split() + ["-f", "json"], dat)
    name = "json %s" % (rep or "callers")
    try:
        d = json.loads(raw.decode("utf-8"))  # strict: fails on any ill-formed byte
    except (UnicodeDecodeError, ValueError) as e:
        return check(name, False, "not valid UTF-8 JSON: %s" % e)
    got = sorted((tuple(r[c] for c in cols) for r in d["rows"]), key=key)
    want = sorted((tuple(as_json(v) for v in r) for r in rows), key=key)
    check(name, got == want, "rows %r, want %r" % (got, want))


def check_csv(rep, dat):
    cols, rows = EXPECT[rep]
    raw = run(rep.split() + ["-f", "csv"], dat)
    name = "csv %s" % (rep or "callers")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return check(name, False, "not valid UTF-8: %s" % e)
    got = sorted(tuple(r[c] for c in cols) for r in csv.DictReader(io.StringIO(text, newline="")))
    want = sorted(tuple(as_csv(v) for v in r) for r in rows)
    check(name, got == want, "rows %r, want %r" % (got, want))


def check_text(rep, dat):
    cols, rows = EXPECT[rep]
    raw = run(rep.split(), dat)
    name = "text %s" % (rep or "callers")
    bad = sorted({"%#04x" % c for c in raw if (c < 0x20 and c != 0x0a) or c == 0x7f})
    if bad:
        return check(name, False, "control bytes %s" % " ".join(bad))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return check(name, False, "not valid UTF-8: %s" % e)
    c1 = sorted({"U+%04X" % ord(ch) for ch in text if 0x80 <= ord(ch) < 0xa0})
    if c1:
        return check(name, False, "C1 controls %s" % " ".join(c1))
    missing = [shown(v) for r in rows for v in r if isinstance(v, bytes) and
               shown(v) not in text]
    check(name, not missing, "lacks %r" % missing)


def check_list_columns(dat):
    """--list text: the columns after the names line up on their display form."""
    text = run(["--list"], dat).decode("utf-8").splitlines()
    head = text[1]
    at = head.index("caller")
    want = sorted(shown(caller(a)) for a in ALLOCS)
    got = sorted(l[at:] for l in text[2:])
    check("text --list: columns line up after escaped and multi-byte names", got == want,
          "%r, want %r" % (got, want))


def main():
    seq = os.path.join(DIR, "names.seq")
    with open(seq, "w") as f:
        f.write(description())
    dat = os.path.join(DIR, "names.dat")
    p = subprocess.run([MKTRACE, "-o", dat, seq], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if p.returncode:
        print("not ok mktrace\t%s" % p.stdout.decode(errors="replace").replace("\n", " "))
        return
    for rep in EXPECT:
        try:
            check_json(rep, dat)
            check_csv(rep, dat)
            check_text(rep, dat)
        except RuntimeError as e:
            check(rep or "callers", False, str(e))
    try:
        check_list_columns(dat)
        # well-formed UTF-8 passes unchanged: raw bytes, not \u escapes
        raw = run(["-f", "json"], dat)
        check("json: well-formed UTF-8 names as they are", caller(ALLOCS[2]) in raw,
              "no %r in the output" % caller(ALLOCS[2]))
        # the input file name in the JSON header
        path = os.path.join(os.fsencode(DIR), FILE_NAME)
        os.symlink(os.fsencode(dat), path)
        d = json.loads(run(["-f", "json"], path).decode("utf-8"))
        check("json: the file name", d["file"] == u8(path), "%r, want %r" % (d["file"], u8(path)))
    except (RuntimeError, ValueError, UnicodeDecodeError, IndexError) as e:
        check("json and text extras", False, str(e))
    # report.db keeps the bytes as the trace has them
    db = os.path.join(DIR, "names.db")
    subprocess.run([KMA, "-q", "-o", db, dat], check=True)
    got = subprocess.run(["sqlite3", db, "SELECT DISTINCT hex(comm) FROM allocations"],
                         stdout=subprocess.PIPE, check=True).stdout.decode().split()
    want = sorted(c.hex().upper() for c in COMMS.values())
    check("report.db: comm holds the raw bytes", sorted(got) == want, "%r, want %r" % (got, want))
    print("\n".join(results))


main()
