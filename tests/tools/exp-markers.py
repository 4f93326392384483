#!/usr/bin/env python3
"""The leak-experiment markers of a trace, from `trace-cmd report` output
(stdin), without kma: the checker of kma-record's markers (t-record-exp.sh,
t-exp-fixtures.sh). Marker format: docs/kma-record.1, DESCRIPTION.

usage: trace-cmd report T.dat | exp-markers.py MODE [PHASE]
  phases            the "kma:" markers, one a line, in trace order
  order             every marker's kind in order: "kma: LABEL", or
                    "kma-slabinfo: PHASE" etc. once per snapshot
  check             one line per counter snapshot: KIND PHASE complete|incomplete PARTS;
                    exit 1 when a part is missing, doubled or out of range, or a
                    marker is over 1000 bytes (with its newline)
  slabinfo PHASE    the snapshot rebuilt: "name active_objs objsize" lines
  allocinfo PHASE   the snapshot rebuilt: "bytes calls tag" lines
  meminfo PHASE     the kma-meminfo marker's fields, "name value" lines
"""
import re, sys

MARK = re.compile(r" print: +tracing_mark_write: (.*)$")


def markers():
    for line in sys.stdin:
        m = MARK.search(line.rstrip("\n"))
        if m:
            yield m.group(1)


def parts(texts, kind):
    """{phase: {part: (parts, body)}} of the KIND markers; errors as a list"""
    snaps, errs = {}, []
    for t in texts:
        if not t.startswith(kind + ": "):
            continue
        m = re.match(r"(\S+) (\d+)/(\d+) (.*)$", t[len(kind) + 2:])
        if not m:
            errs.append(f"{kind}: bad marker {t[:60]!r}")
            continue
        phase, i, n, body = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        s = snaps.setdefault(phase, {})
        if i in s or not 1 <= i <= n:
            errs.append(f"{kind} {phase}: part {i}/{n} doubled or out of range")
        s[i] = (n, body)
    return snaps, errs


def main():
    mode = sys.argv[1]
    texts = list(markers())
    if mode == "phases":
        for t in texts:
            if t.startswith("kma: "):
                print(t)
    elif mode == "order":
        last = None
        for t in texts:
            if t.startswith("kma: "):
                k = t
            else:
                k = " ".join(t.split()[:2])
            if k != last:
                print(k)
            last = k
    elif mode == "check":
        bad = 0
        for t in texts:
            if len(t.encode()) + 1 > 1000:
                print(f"over 1000 bytes: {t[:60]}")
                bad = 1
        for kind in ("kma-slabinfo", "kma-allocinfo"):
            snaps, errs = parts(texts, kind)
            for e in errs:
                print(e)
                bad = 1
            for phase, s in snaps.items():
                ns = {n for n, _ in s.values()}
                ok = len(ns) == 1 and set(s) == set(range(1, ns.pop() + 1))
                print(f"{kind} {phase} {'complete' if ok else 'incomplete'} {len(s)}")
                bad |= not ok
        for t in texts:
            if t.startswith("kma-meminfo: "):
                print("kma-meminfo " + t.split()[1] + " complete 1")
        sys.exit(bad)
    elif mode in ("slabinfo", "allocinfo"):
        phase = sys.argv[2]
        snaps, errs = parts(texts, "kma-" + mode)
        if errs or phase not in snaps:
            sys.exit("; ".join(errs) or f"no {mode} {phase} snapshot")
        s = snaps[phase]
        for i in sorted(s):
            body = s[i][1]
            if mode == "slabinfo":
                f = body.split(" ")
                if len(f) % 3:
                    sys.exit(f"slabinfo part {i}: not triples")
                for j in range(0, len(f), 3):
                    print(" ".join(f[j:j + 3]))
            else:
                for e in body.split(";"):
                    print(e)
    elif mode == "meminfo":
        for t in texts:
            f = t.split()
            if f[0] == "kma-meminfo:" and f[1] == sys.argv[2]:
                for kv in f[2:]:
                    print(" ".join(kv.split("=", 1)))
    else:
        sys.exit(f"unknown mode {mode}")


main()
