#!/usr/bin/env python3
# xwd2png.py IN.xwd OUT.png - a TrueColor 24- or 32-bit XWD screen dump (xwd -root)
# as a PNG; prints "WIDTHxHEIGHT COLOURS": how many distinct colours the
# picture has (1 for a blank screen). The standard library only: no PIL here.
import os
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
hdr = struct.unpack(">25I", data[:100])
(size, version, _fmt, _depth, width, height, _xoff, byte_order, _unit, _bit_order, _pad,
 bpp, bpl, _vclass, rmask, gmask, bmask, _bits, _cmap, ncolors) = hdr[:20]
if version != 7 or bpp not in (24, 32):
	sys.exit(f"xwd2png: {sys.argv[1]}: version {version}, {bpp} bits per pixel: not a TrueColor XWD")
pix = data[size + 12 * ncolors:]
if len(pix) < bpl * height:
	sys.exit(f"xwd2png: {sys.argv[1]}: truncated")
n = bpp // 8


def index(mask):
	"""The byte of a pixel that holds the 8-bit channel of mask."""
	s = (mask & -mask).bit_length() - 1
	if s % 8 or mask >> s != 0xff:
		sys.exit(f"xwd2png: {sys.argv[1]}: channel mask {mask:#x} is not a whole byte")
	return s // 8 if byte_order == 0 else n - 1 - s // 8


ri, gi, bi = index(rmask), index(gmask), index(bmask)
rows, colours = [], set()
for y in range(height):
	src = pix[y * bpl:y * bpl + width * n]
	line = bytearray(3 * width)
	line[0::3], line[1::3], line[2::3] = src[ri::n], src[gi::n], src[bi::n]
	colours.update(bytes(line[i:i + 3]) for i in range(0, len(line), 3 * 7))
	rows.append(b"\0" + bytes(line))	# PNG filter type 0


def chunk(kind, body):
	return (struct.pack(">I", len(body)) + kind + body +
		struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))


png = (b"\x89PNG\r\n\x1a\n" +
       chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
       chunk(b"IDAT", zlib.compress(b"".join(rows), 6)) + chunk(b"IEND", b""))
with open(sys.argv[2] + ".tmp", "wb") as f:
	f.write(png)
os.replace(sys.argv[2] + ".tmp", sys.argv[2])
print(f"{width}x{height} {len(colours)}")
