#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Allocations and bytes per slab cache, from `trace-cmd report` text on stdin, for
tests/t-kcache.sh: independent of kma (no libtraceevent tables, only the text).

A kmem_cache_alloc counts under its name=; a kmalloc under the kmalloc cache its
size and gfp_flags text pick, by the kernel's kmalloc_type() for RELEASE (argv[1]):
__GFP_DMA (also in GFP_DMA) -> dma-kmalloc-N; from 4.20 __GFP_RECLAIMABLE ->
kmalloc-rcl-N; from 5.14 __GFP_ACCOUNT (also in GFP_KERNEL_ACCOUNT) -> kmalloc-cg-N;
else kmalloc-N. N: 8..512 as is, 1k..8k, over 8192 kmalloc-large. Failed allocations
(ptr 0) are not allocations. Output: "CACHE ALLOCS BYTES", sorted."""
import re
import sys

ALLOC_RE = re.compile(r"\s(kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node):\s")
FIELD_RE = re.compile(r"\b(ptr|name|bytes_alloc|gfp_flags)=(\S+)")
DMA = {"__GFP_DMA", "GFP_DMA"}
RECLAIMABLE = {"__GFP_RECLAIMABLE"}
ACCOUNT = {"__GFP_ACCOUNT", "GFP_KERNEL_ACCOUNT"}


def release(s):
    m = re.match(r"(\d+)\.(\d+)", s)
    return int(m.group(1)) * 100 + int(m.group(2)) if m else 9999


def kmalloc_cache(size, flags, rel):
    names = set(flags.split("|"))
    if names & DMA:
        prefix = "dma-kmalloc-"
    elif rel >= 420 and names & RECLAIMABLE:
        prefix = "kmalloc-rcl-"
    elif rel >= 514 and names & ACCOUNT:
        prefix = "kmalloc-cg-"
    else:
        prefix = "kmalloc-"
    if size > 8192:
        return "kmalloc-large"
    if size >= 1024:
        return "%s%dk" % (prefix, size // 1024)
    return "%s%d" % (prefix, size)


def main():
    rel = release(sys.argv[1])
    counts = {}
    for line in sys.stdin:
        m = ALLOC_RE.search(line)
        if not m:
            continue
        f = dict(FIELD_RE.findall(line[m.end():]))
        if f.get("ptr") in ("0x0", "(nil)", "0"):
            continue
        size = int(f["bytes_alloc"])
        if m.group(1).startswith("kmem_cache") and "name" in f:
            cache = f["name"]
        else:
            cache = kmalloc_cache(size, f.get("gfp_flags", ""), rel)
        n, b = counts.get(cache, (0, 0))
        counts[cache] = (n + 1, b + size)
    for cache in sorted(counts):
        print(cache, counts[cache][0], counts[cache][1])


main()
