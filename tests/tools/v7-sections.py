#!/usr/bin/env python3
"""v7-sections.py FILE: the contents of a v7 trace.dat, inflated independently.

Walks the file as Documentation/trace-cmd/trace-cmd.dat.v7.5.txt describes it,
without libtracecmd: the header, the chain of options sections, the sections
they point to (header info, ftrace and event formats, kallsyms, printk,
cmdlines) and every BUFFER option's per-CPU flyrecord data. Compressed data
is inflated with Python's zlib module (zlib files) or the zstd command (zstd
files). Prints one line per piece, its SHA-256 after inflating:

    compression NAME VERSION
    section ID compressed|plain SHA256 LENGTH
    cpu BUFFER CPU chunks=N SHA256 LENGTH

Offsets and the options sections themselves are left out: they differ between
two encodings of the same trace, the lines above must not. Exits 1 with a
message on anything it cannot follow.

v7-sections.py --layout FILE prints instead where each CPU's data lies, for
tests that damage it: "layout BUFFER CPU OFFSET SIZE CHUNK_OFFSET..." (the
chunk offsets of compressed data: each chunk's u32 csize, u32 size, data).
"""
import hashlib
import struct
import subprocess
import sys
import zlib

DATA_SECTIONS = {16, 17, 18, 19, 20, 21}  # HEADER_INFO .. CMDLINES options
OPT_DONE, OPT_BUFFER = 0, 3


class V7:
    def __init__(self, path):
        self.d = open(path, 'rb').read()
        d = self.d
        if d[:10] != b'\x17\x08Dtracing':
            sys.exit(f'{path}: not a trace.dat')
        p = d.index(b'\0', 10)
        if d[10:p] != b'7':
            sys.exit(f'{path}: version {d[10:p]!r}, not 7')
        p += 1
        self.e = '>' if d[p] else '<'
        self.page_size = self.num(p + 2, 4)
        p += 6
        self.cname, p = self.cstr(p)
        self.cver, p = self.cstr(p)
        self.first_options = self.num(p, 8)

    def num(self, off, size):
        fmt = {2: 'H', 4: 'I', 8: 'Q'}[size]
        if off + size > len(self.d):
            sys.exit(f'number at {off} past the end of the file')
        return struct.unpack(self.e + fmt, self.d[off:off + size])[0]

    def cstr(self, off):
        end = self.d.index(b'\0', off)
        return self.d[off:end].decode(), end + 1

    def inflate(self, data):
        if self.cname == 'zlib':
            return zlib.decompress(data)
        if self.cname == 'zstd':
            return subprocess.run(['zstd', '-dcq'], input=data, check=True,
                                  stdout=subprocess.PIPE).stdout
        sys.exit(f'cannot inflate {self.cname}')

    def block(self, off):
        """u32 compressed size, u32 size, data: the inflated data."""
        csize, usize = self.num(off, 4), self.num(off + 4, 4)
        out = self.inflate(self.d[off + 8:off + 8 + csize])
        if len(out) != usize:
            sys.exit(f'block at {off}: inflates to {len(out)} bytes, header says {usize}')
        return out, 8 + csize

    def section(self, off, want):
        sid, flags = self.num(off, 2), self.num(off + 2, 2)
        size = self.num(off + 8, 8)
        if sid != want:
            sys.exit(f'section at {off}: id {sid}, expected {want}')
        if flags & 1:
            return self.block(off + 16)[0], True
        return self.d[off + 16:off + 16 + size], False

    def cpu_data(self, off, size):
        if self.cname == 'none' or not size:
            return self.d[off:off + size], 0
        count, p, out = self.num(off, 4), off + 4, b''
        for _ in range(count):
            data, used = self.block(p)
            out += data
            p += used
        return out, count


def sha(b):
    return hashlib.sha256(b).hexdigest()


def chunk_offsets(f, off, size):
    if f.cname == 'none' or not size:
        return []
    count, p, offs = f.num(off, 4), off + 4, []
    for _ in range(count):
        offs.append(p)
        p += 8 + f.num(p, 4)
    return offs


def main():
    layout = sys.argv[1] == '--layout'
    f = V7(sys.argv[2] if layout else sys.argv[1])
    if not layout:
        print('compression', f.cname, f.cver)
    off, seen = f.first_options, 0
    while off:
        seen += 1
        if seen > 1000:
            sys.exit('options sections loop')
        opts, _ = f.section(off, 0)
        p, off = 0, 0
        while p + 6 <= len(opts):
            oid = struct.unpack(f.e + 'H', opts[p:p + 2])[0]
            osize = struct.unpack(f.e + 'I', opts[p + 2:p + 6])[0]
            data = opts[p + 6:p + 6 + osize]
            p += 6 + osize
            if oid == OPT_DONE:
                off = struct.unpack(f.e + 'Q', data[:8])[0]
                break
            if oid in DATA_SECTIONS:
                soff = struct.unpack(f.e + 'Q', data[:8])[0]
                body, comp = f.section(soff, oid)
                if not layout:
                    print('section', oid, 'compressed' if comp else 'plain', sha(body),
                          len(body))
            elif oid == OPT_BUFFER:
                q = 8
                name_end = data.index(b'\0', q)
                name = data[q:name_end].decode() or '(top)'
                q = data.index(b'\0', name_end + 1) + 1   # skip the clock
                cpus = struct.unpack(f.e + 'I', data[q + 4:q + 8])[0]
                q += 8
                for _ in range(cpus):
                    cpu, coff, csize = struct.unpack(f.e + 'IQQ', data[q:q + 20])
                    q += 20
                    if layout:
                        print('layout', name, cpu, coff, csize,
                              *chunk_offsets(f, coff, csize))
                        continue
                    body, chunks = f.cpu_data(coff, csize)
                    print('cpu', name, cpu, f'chunks={chunks}', sha(body), len(body))


if __name__ == '__main__':
    main()
