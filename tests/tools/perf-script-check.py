#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kma-analyze on a perf.data against perf-script-expect.py (perf script's text).

usage: perf-script-check.py [--convert MKTRACE] [--perf-kmem] --kallsyms FILE
                            KMA PERF_DATA TMPDIR

Runs KMA --no-db --kallsyms FILE on PERF_DATA (-f json: every caller row, summed by
caller name, and the summary with the lost events; with callchains -f folded for
every --weight: bytes, net, slack, allocs) and compares each figure with the
expectation. --convert: the events go first through perf-script-expect.py --seq and
MKTRACE into a trace.dat, which kma reads instead (the path perf.data took before kma
read it; the call sites and stacks as addresses, named by --kallsyms). --perf-kmem:
also perf kmem stat --caller --raw-ip's Total_alloc, Total_req and Hit per call site
against the expectation's total, total - slack and allocs where perf kmem counts as
kma does (no failed allocations; call sites matched by address, names that kallsyms
holds more than once left out), and its summary's bytes allocated and requested.

Prints one line per figure that differs and a last line "N figures compared, M
differ"; exit 1 when one differs, 2 on a setup error. KMA_PERF_CHECK_DROP=1 drops
one free from the expectation, so that a test can see the check fail.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("pse", os.path.join(HERE, "perf-script-expect.py"))
pse = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pse)

WEIGHTS = {"bytes": "total", "net": "net", "slack": "slack", "allocs": "allocs"}


class Cmp:
    def __init__(self):
        self.n = self.bad = 0

    def eq(self, what, want, got):
        self.n += 1
        if want != got:
            self.bad += 1
            if self.bad <= 30:
                print("DIFFERS %s: expected %r, kma %r" % (what, want, got))


def kma(kma_bin, args, path, kallsyms):
    res = subprocess.run([kma_bin, "--no-db", "--kallsyms", kallsyms] + args + [path],
                         capture_output=True, text=True)
    if res.returncode:
        sys.stderr.write(res.stderr)
        sys.exit(2)
    return res.stdout


def by_name(rows):
    out = {}
    for r in rows:
        o = out.setdefault(r["caller"], dict.fromkeys(pse.KEYS, 0))
        for k in pse.KEYS:
            o[k] += r[k]
    return out


def check_kma(c, exp, kma_bin, path, kallsyms):
    got = json.loads(kma(kma_bin, ["-f", "json"], path, kallsyms))
    for k in pse.SUMMARY:
        c.eq("summary " + k, exp["summary"][k], got["summary"][k])
    rows = by_name(got["rows"])
    for name in sorted(set(rows) | set(exp["callers"])):
        w, g = exp["callers"].get(name), rows.get(name)
        for k in pse.KEYS:
            c.eq("caller %s %s" % (name, k), w and w[k], g and g[k])
    if exp["folded"] is None:
        return
    for weight, key in WEIGHTS.items():
        out = kma(kma_bin, ["-f", "folded", "--weight", weight], path, kallsyms)
        got = {}
        for line in out.splitlines():
            stack, _, n = line.rpartition(" ")
            got[stack] = got.get(stack, 0) + int(n)
        want = {s: r[key] for s, r in exp["folded"].items() if r[key]}
        got = {s: n for s, n in got.items() if n}
        for s in sorted(set(want) | set(got)):
            c.eq("folded --weight %s %s" % (weight, s), want.get(s), got.get(s))


def check_perf_kmem(c, exp, perf_data, kallsyms):
    """perf kmem stat --caller --raw-ip against the expectation, by address."""
    if exp["summary"]["failed_allocs"]:
        print("perf kmem: failed allocations, which perf kmem counts: not compared")
        return
    out = subprocess.run(["perf", "kmem", "-i", perf_data, "--caller", "--raw-ip", "stat"],
                         capture_output=True, text=True, check=True).stdout
    syms = pse.symbol_table(kallsyms)
    want = {}
    for name, r in exp["callers"].items():
        base = name.rpartition("+")[0]
        if not name.startswith("0x") and len(syms.get(base, [])) != 1:
            continue        # a static name kallsyms has more than once
        want[pse.address(syms, name)] = (name, r)
    seen = 0
    for line in out.splitlines():
        m = re.match(r"^\s*(0x[0-9a-f]+)\s*\|\s*(\d+)/\d+\s*\|\s*(\d+)/\d+\s*\|\s*(\d+)\s*\|",
                     line)
        if m:
            a = int(m.group(1), 16)
            if a not in want:
                continue
            name, r = want[a]
            seen += 1
            c.eq("perf kmem %s Total_alloc" % name, int(m.group(2)), r["total"])
            c.eq("perf kmem %s Total_req" % name, int(m.group(3)), r["total"] - r["slack"])
            c.eq("perf kmem %s Hit" % name, int(m.group(4)), r["allocs"])
            continue
        m = re.match(r"^Total bytes (requested|allocated):\s+(\d+)", line)
        if m:
            s = exp["summary"]
            c.eq("perf kmem Total bytes " + m.group(1), int(m.group(2)),
                 s["total"] if m.group(1) == "allocated" else s["total"] - s["slack"])
    c.eq("perf kmem call sites compared", len(want), seen)


def last_alias_first(kallsyms, out):
    """kallsyms with every run of lines at one address reversed: perf names an address
    by the last symbol there (each symbol ends where the next starts, the empty ones
    are dropped), kma on a trace.dat, as trace-cmd, by the first."""
    lines = open(kallsyms, encoding="latin-1").read().splitlines()
    res, i = [], 0
    while i < len(lines):
        a = lines[i].split(" ", 1)[0]
        j = i + 1
        while j < len(lines) and lines[j].split(" ", 1)[0] == a:
            j += 1
        res.extend(reversed(lines[i:j]))
        i = j
    with open(out, "w", encoding="latin-1") as o:
        o.write("\n".join(res) + "\n")


def main(argv):
    mktrace, perf_kmem, kallsyms = None, False, None
    while argv and argv[0].startswith("--"):
        if argv[0] == "--perf-kmem":
            perf_kmem, argv = True, argv[1:]
        elif argv[0] == "--convert" and len(argv) > 1:
            mktrace, argv = argv[1], argv[2:]
        elif argv[0] == "--kallsyms" and len(argv) > 1:
            kallsyms, argv = argv[1], argv[2:]
        else:
            break
    if len(argv) != 3 or not kallsyms:
        print(__doc__, file=sys.stderr)
        return 2
    kma_bin, perf_data, tmp = argv
    exp = pse.compute(perf_data, kallsyms)
    if os.environ.get("KMA_PERF_CHECK_DROP") == "1":
        exp["summary"]["frees"] -= 1	# the test of this script: one free short
    path, names = perf_data, kallsyms
    if mktrace:
        seq, path = os.path.join(tmp, "perf.seq"), os.path.join(tmp, "perf.dat")
        pse.write_seq(perf_data, kallsyms, seq)
        subprocess.run([mktrace, "-g", "6.18", "-o", path, seq], check=True,
                       stdout=subprocess.DEVNULL)
        names = os.path.join(tmp, "perf-order-kallsyms")
        last_alias_first(kallsyms, names)
    c = Cmp()
    check_kma(c, exp, kma_bin, path, names)
    if perf_kmem:
        check_perf_kmem(c, exp, perf_data, kallsyms)
    print("%d figures compared, %d differ (%d callers, %s stacks, %d lost events)" % (
        c.n, c.bad, len(exp["callers"]), "no" if exp["folded"] is None else
        len(exp["folded"]), exp["summary"]["lost_events"]))
    return 1 if c.bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
