#!/usr/bin/env python3
# A v6 trace.dat whose kmem:kmalloc print fmt nests its argument in DEPTH
# parentheses: libtraceevent's parser recurses once per parenthesis, so a
# deep one overflows its stack (trace-cmd report dies on 100000), a shallow
# one parses. The format grows by whole pages and the CPU data offsets of
# the flyrecord section move with it, so the rest of the file stays valid.
#   deep-format.py IN.dat OUT.dat DEPTH
import struct
import sys

src, out, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = open(src, 'rb').read()
p = d.index(b'\0', 10) + 1          # magic, version string
E = '>' if d[p] == 1 else '<'
p += 1 + 1 + 4                      # byte order, long size, page size


def num(n):
    global p
    v = struct.unpack(E + {4: 'I', 8: 'Q'}[n], d[p:p + n])[0]
    p += n
    return v


for name in (b'header_page\0', b'header_event\0'):
    assert d[p:p + len(name)] == name
    p += len(name)
    size = num(8)
    p += size
for _ in range(num(4)):             # ftrace formats
    size = num(8)
    p += size
for _ in range(num(4)):             # systems
    e = d.index(b'\0', p)
    system, p = d[p:e], e + 1
    for _ in range(num(4)):
        at, size = p, num(8)
        text = d[p:p + size]
        if system != b'kmem' or b'name: kmalloc\n' not in text:
            p += size
            continue
        new = text[:text.index(b'print fmt: ')] + b'print fmt: "x", ' + \
            b'(' * depth + b'REC->ptr' + b')' * depth
        new += b' ' * ((size - len(new) - 1) % 4096) + b'\n'
        delta = len(new) - size
        rest = bytearray(d[p + size:])
        q = rest.index(b'flyrecord\0') + 10
        while q + 16 <= len(rest):  # (offset, size) per CPU, page-aligned offsets
            off, _ = struct.unpack(E + 'QQ', rest[q:q + 16])
            if off == 0 or off % 4096:
                break
            rest[q:q + 8] = struct.pack(E + 'Q', off + delta)
            q += 16
        open(out, 'wb').write(d[:at] + struct.pack(E + 'Q', len(new)) + new + bytes(rest))
        sys.exit(0)
sys.exit('deep-format.py: no kmem:kmalloc format in ' + src)
