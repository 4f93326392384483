#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Damaged copies of a perf.data, for tests/t-perfdata-bad.sh.

Usage: perfdata-damage.py WHAT FILE [ARG] [OUT]

  offsets FILE          the offsets to cut the file at: every section boundary
                        (header, attributes, id sections, data, feature table,
                        each feature section) and, in the data, a record's
                        start, a byte inside its header and its last byte, for
                        the first 16 records, the last 6 and the first of
                        each type
  cut FILE N OUT        the first N bytes
  cuts FILE DIR         DIR/cut-N.data for each N of offsets
  datacuts FILE DIR     DIR/mid-K.data for each record middle K of records
  datacut FILE K OUT    the data section cut to its first K bytes, the feature
                        table and sections moved up after it (a file whose last
                        record was cut as perf writes it), K < data size
  records FILE          data offsets (from the data start) to cut the data at:
                        the start and the middle of the same records
  magic FILE OUT        the first byte changed
  swapped FILE OUT      the magic of a file of the other byte order
  pipe FILE OUT         a pipe-mode header (perf record -o -) and the data
  notracing FILE OUT    the tracing-data feature (bit 1) and its table entry gone
  rectype FILE T OUT    the first record of type T gets type 250 (unknown to perf)
  badcomp FILE OUT      the first compressed record's zstd frame magic changed
  rawbig FILE OUT       the first sample's raw size claims more than its record
  rounds FILE N OUT     N more FINISHED_ROUND records (8 bytes each) at the
                        data's end, the feature table and sections moved down
                        after them (not damage: rounds with nothing left to
                        order)

The file's own layout is read here, from perf's header.h and perf_event.h,
independently of kma.
"""
import struct
import sys

HDR = 104


def header(b):
    magic, size, attr_size = struct.unpack_from('<8sQQ', b, 0)
    attrs = struct.unpack_from('<QQ', b, 24)
    data = struct.unpack_from('<QQ', b, 40)
    feat = b[72:104]
    bits = [i for i in range(256) if feat[i // 8] >> (i % 8) & 1]
    return dict(attr_size=attr_size, attrs=attrs, data=data, bits=bits)


def feat_table(b, h):
    off = h['data'][0] + h['data'][1]
    return off, [struct.unpack_from('<QQ', b, off + 16 * i) for i in range(len(h['bits']))]


def records(b, h):
    """(offset, type, size) of each record of the data section, in the file."""
    off, end = h['data'][0], h['data'][0] + h['data'][1]
    out = []
    while off + 8 <= end:
        typ, misc, size = struct.unpack_from('<IHH', b, off)
        if size < 8:
            break
        out.append((off, typ, size))
        off += size
        if typ == 71 and size >= 16:	# AUXTRACE: its payload follows
            off += struct.unpack_from('<Q', b, off - size + 8)[0]
    return out


def chosen(recs):
    """The records cut at: the first 16, the last 6, the first of each type."""
    first = {}
    for r in recs:
        first.setdefault(r[1], r)
    return sorted(set(recs[:16]) | set(recs[-6:]) | set(first.values()))


def offsets(b):
    h = header(b)
    s = {8, 16, 24, 72, HDR}
    a_off, a_size = h['attrs']
    s |= {a_off, a_off + a_size // 2, a_off + a_size}
    for i in range(a_size // h['attr_size']):
        at = a_off + i * h['attr_size']
        ids = struct.unpack_from('<QQ', b, at + h['attr_size'] - 16)
        s |= {at + 4, ids[0], ids[0] + ids[1] // 2, ids[0] + ids[1]}
    d_off, d_size = h['data']
    s |= {d_off, d_off + d_size}
    for off, typ, size in chosen(records(b, h)):
        s |= {off, off + 4, off + size - 1}
    t_off, table = feat_table(b, h)
    s |= {t_off + 8, t_off + 16 * len(table)}
    for off, size in table:
        s |= {off, off + size // 2, off + size}
    return sorted(x for x in s if 0 < x < len(b))


def datacut(b, k):
    h = header(b)
    d_off, d_size = h['data']
    assert 0 <= k < d_size
    t_off, table = feat_table(b, h)
    shift = d_size - k
    out = bytearray(b[:d_off + k])
    struct.pack_into('<Q', out, 48, k)
    tab = bytearray(b[t_off:t_off + 16 * len(table)])
    for i, (off, size) in enumerate(table):
        struct.pack_into('<Q', tab, 16 * i, off - shift if off >= t_off else off)
    out += tab
    out += b[t_off + 16 * len(table):]
    return bytes(out)


def rounds(b, n):
    h = header(b)
    d_off, d_size = h['data']
    t_off, table = feat_table(b, h)
    extra = struct.pack('<IHH', 68, 0, 8) * n
    out = bytearray(b[:d_off + d_size]) + extra
    struct.pack_into('<Q', out, 48, d_size + len(extra))
    tab = bytearray(b[t_off:t_off + 16 * len(table)])
    for i, (off, size) in enumerate(table):
        struct.pack_into('<Q', tab, 16 * i, off + len(extra) if off >= t_off else off)
    out += tab
    out += b[t_off + 16 * len(table):]
    return bytes(out)


def main():
    what, path = sys.argv[1], sys.argv[2]
    b = open(path, 'rb').read()
    h = header(b)
    out = None
    if what == 'offsets':
        print('\n'.join(str(x) for x in offsets(b)))
        return 0
    if what == 'records':
        d0 = h['data'][0]
        for off, typ, size in chosen(records(b, h)):
            print(off - d0)
            print(off - d0 + size // 2)
        return 0
    if what == 'cuts':
        for off in offsets(b):
            with open('%s/cut-%d.data' % (sys.argv[3], off), 'wb') as f:
                f.write(b[:off])
        return 0
    if what == 'datacuts':
        d0 = h['data'][0]
        for off, typ, size in chosen(records(b, h)):
            k = off - d0 + size // 2
            with open('%s/mid-%d.data' % (sys.argv[3], k), 'wb') as f:
                f.write(datacut(b, k))
        return 0
    if what == 'cut':
        out, dst = b[:int(sys.argv[3])], sys.argv[4]
    elif what == 'rounds':
        out, dst = rounds(b, int(sys.argv[3])), sys.argv[4]
    elif what == 'datacut':
        out, dst = datacut(b, int(sys.argv[3])), sys.argv[4]
    elif what == 'rectype':
        typ, dst = int(sys.argv[3]), sys.argv[4]
        off = next(o for o, t, s in records(b, h) if t == typ)
        out = bytearray(b)
        struct.pack_into('<I', out, off, 250)
    elif what == 'badcomp':
        dst = sys.argv[3]
        off = next(o for o, t, s in records(b, h) if t in (81, 83))
        out = bytearray(b)
        out[off + 8:off + 12] = b'\x00\x00\x00\x00'
    elif what == 'rawbig':
        dst = sys.argv[3]
        off = next(o for o, t, s in records(b, h) if t == 9)
        size = struct.unpack_from('<H', b, off + 6)[0]
        st = struct.unpack_from('<Q', b, h['attrs'][0] + 24)[0]
        if st & (1 << 4) or not st & (1 << 10):	# READ values: not walked here; no RAW
            return 2
        at = off + 8
        for bit in (16, 0, 1, 2, 3, 6, 9, 7, 8):	# perf_event.h's sample order
            at += 8 if st & (1 << bit) else 0
        if st & (1 << 5):	# CALLCHAIN: u64 nr, nr ips
            at += 8 + 8 * struct.unpack_from('<Q', b, at)[0]
        n = struct.unpack_from('<I', b, at)[0]
        out = bytearray(b)
        struct.pack_into('<I', out, at, n + (off + size - at) + 8)
    else:
        dst = sys.argv[3]
        out = bytearray(b)
        if what == 'magic':
            out[0] ^= 0x20
        elif what == 'swapped':
            out[0:8] = b'2ELIFREP'
        elif what == 'pipe':
            d_off, d_size = h['data']
            out = b'PERFILE2' + struct.pack('<Q', 16) + b[d_off:d_off + d_size]
        elif what == 'notracing':
            t_off, table = feat_table(b, h)
            i = h['bits'].index(1)
            out[72] &= ~2 & 0xff
            rest = b''.join(struct.pack('<QQ', *e) for j, e in enumerate(table) if j != i)
            out[t_off:t_off + len(rest)] = rest
        else:
            print(__doc__, file=sys.stderr)
            return 2
    with open(dst, 'wb') as f:
        f.write(out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
