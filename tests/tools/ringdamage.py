#!/usr/bin/env python3
"""ringdamage.py: damaged copies of a v6 trace.dat (little-endian, 8-byte longs), and
the numbers kma-analyze must give for them, for tests/t-ringdamage.sh.

  ringdamage.py make SRC OUT KIND ARGS...
      zero CPU PAGE [CPU PAGE...]   every byte of these pages zeroed
      short CPU PAGE                the page's last record cut to 8 bytes of payload
                                    (its type_len field) and the page's commit with it
      long CPU PAGE                 the page's last record given a length (type_len 0,
                                    the length in its first word) that runs past the page
      time CPU PAGE DELTA_NS        the page's timestamp moved by DELTA_NS
      overlap                       CPU 1's data made to start inside CPU 0's (at its
                                    page 10, or its last page when it has fewer)
    Prints what the damaged parts held, one line "skip CPU FIRST N" per run of records
    (the CPU's records FIRST .. FIRST+N-1, counted from 0 in the CPU's own order) and,
    for a page, "page CPU OFFSET".

  ringdamage.py check SRC DB TEXT [CPU:FIRST:N...]
      kma-check-db.py's comparison of report DB and text report TEXT with the expectation
      of kma-expect.py for SRC whole, without those records: trace-cmd report's lines
      of them are left out before the expectation is computed. With RD_REPORT and
      RD_STAT set, the outputs of `trace-cmd report -R` and `--stat` of SRC are read
      from those files (made once by the test) instead of running trace-cmd again.

The file layout is read here as trace-cmd.dat.v6(5) and the kernel's ring buffer
(include/linux/ring_buffer.h) describe it; kma's code is neither imported nor run.
"""
import importlib.util
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMMIT_MASK = (1 << 27) - 1
PAD, EXTEND, STAMP = 29, 30, 31


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def header(d):
    """Page size and the flyrecord table: its offset and [(offset, size)] per CPU."""
    assert d[:10] == b'\x17\x08Dtracing' and d[10:12] == b'6\0', "not a v6 trace.dat"
    assert d[12] == 0 and d[13] == 8, "want little-endian, 8-byte longs"
    page_size = struct.unpack_from('<I', d, 14)[0]
    at = d.index(b'flyrecord\0') + 10
    cpus, i = [], at
    # the table ends where the padding before the first CPU's data starts
    while i + 16 <= len(d):
        off, size = struct.unpack_from('<QQ', d, i)
        if off == 0 or off % page_size or off + size > len(d):
            break
        cpus.append((off, size))
        i += 16
    assert cpus, "no CPU data found"
    return page_size, at, cpus


def records(d, page):
    """The data records of the page at @page: [(offset in page, payload length)]."""
    commit = struct.unpack_from('<Q', d, page + 8)[0] & COMMIT_MASK
    out, at, end = [], 16, 16 + commit
    while at < end:
        h = struct.unpack_from('<I', d, page + at)[0]
        type_len, delta = h & 31, h >> 5
        if type_len == PAD:
            if delta == 0:
                break                       # the rest of the page is padding
            at += 4 + struct.unpack_from('<I', d, page + at + 4)[0]
        elif type_len in (EXTEND, STAMP):
            at += 8
        elif type_len == 0:
            length = struct.unpack_from('<I', d, page + at + 4)[0]
            out.append((at, length - 4))
            at += 4 + length
        else:
            out.append((at, type_len * 4))
            at += 4 + type_len * 4
    return out


def page_of(d, cpu, index):
    """Offset of the CPU's page @index and the number of records before it on the CPU."""
    page_size, _, cpus = header(d)
    off, size = cpus[cpu]
    assert (index + 1) * page_size <= size, f"CPU {cpu} has no page {index}"
    before = sum(len(records(d, off + i * page_size)) for i in range(index))
    return off + index * page_size, before


def make(src, out, kind, args):
    d = bytearray(open(src, 'rb').read())
    page_size, table, cpus = header(d)
    said = []
    if kind == 'zero':
        for cpu, index in zip(args[0::2], args[1::2]):
            page, before = page_of(d, int(cpu), int(index))
            said.append(f"skip {cpu} {before} {len(records(d, page))}")
            said.append(f"page {cpu} {page}")
            d[page:page + page_size] = bytes(page_size)
    elif kind == 'short':
        cpu, index = int(args[0]), int(args[1])
        page, before = page_of(d, cpu, index)
        recs = records(d, page)
        at, length = recs[-1]
        h = struct.unpack_from('<I', d, page + at)[0]
        assert 1 <= h & 31 <= 28 and length > 8, "want a short-form record of more than 8 bytes"
        cut = length - 8
        struct.pack_into('<I', d, page + at, (h & ~31) | 2)
        commit = struct.unpack_from('<Q', d, page + 8)[0]
        struct.pack_into('<Q', d, page + 8, commit - cut)
        said.append(f"skip {cpu} {before + len(recs) - 1} 1")
    elif kind == 'long':
        cpu, index = int(args[0]), int(args[1])
        page, before = page_of(d, cpu, index)
        recs = records(d, page)
        at, length = recs[-1]
        h = struct.unpack_from('<I', d, page + at)[0]
        assert 1 <= h & 31 <= 28, "want a short-form record"
        struct.pack_into('<II', d, page + at, h & ~31, page_size)
        said.append(f"skip {cpu} {before + len(recs) - 1} 1")
    elif kind == 'time':
        cpu, index, delta = int(args[0]), int(args[1]), int(args[2])
        page, before = page_of(d, cpu, index)
        ts = struct.unpack_from('<Q', d, page)[0]
        struct.pack_into('<Q', d, page, ts + delta)
        said.append(f"skip {cpu} {before} {len(records(d, page))}")
        said.append(f"page {cpu} {page}")
    elif kind == 'overlap':
        pages0 = cpus[0][1] // page_size
        assert pages0 > 1, "CPU 0 has one page"
        struct.pack_into('<Q', d, table + 16, cpus[0][0] + min(10, pages0 - 1) * page_size)
    else:
        sys.exit(f"unknown damage {kind}")
    open(out, 'wb').write(d)
    print("\n".join(said))


def check(src, db, text, skips):
    expect = load("kma_expect", "kma-expect.py")
    checker = load("kma_check_db", "kma-check-db.py")
    checker.kma_expect = expect
    ranges = [tuple(map(int, s.split(':'))) for s in skips]
    real = expect.trace_cmd

    def without(*args):
        saved = os.environ.get("RD_REPORT" if "-R" in args else "RD_STAT")
        out = open(saved).read() if saved else real(*args)
        if "-R" not in args:
            return out
        seen, kept = {}, []
        for line in out.splitlines(keepends=True):
            m = expect.EVENT_RE.search(line)
            if m:
                cpu = int(m.group(1))
                n = seen.get(cpu, 0)
                seen[cpu] = n + 1
                if any(cpu == c and first <= n < first + k for c, first, k in ranges):
                    continue
            kept.append(line)
        return "".join(kept)

    expect.trace_cmd = without
    exp = expect.compute(src)
    problems = []
    checker.check_db(exp, db, problems)
    checker.check_text(exp, text, problems)
    for p in problems[:20]:
        print("  " + p)
    print(f"{'MISMATCH' if problems else 'OK'} {src} without {' '.join(skips) or 'nothing'}")
    return 1 if problems else 0


if __name__ == '__main__':
    if len(sys.argv) >= 5 and sys.argv[1] == 'make':
        make(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif len(sys.argv) >= 5 and sys.argv[1] == 'check':
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
    else:
        sys.exit(__doc__)
