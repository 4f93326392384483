#!/usr/bin/env python3
# What kma-trend should print for tests/t-trend.sh's runs, worked out from the hand-made
# table (spec.py, which the test writes) and the rules kma-trend(1) documents, without
# kma's code: a key's value per run (net: the live bytes; total: net and the freed
# 64-byte allocations; allocs: their count), absent counted 0, change = last - first,
# grows = rose between every two consecutive runs of three or more, a jump = a rise of
# at least --jump-min and at least --jump-pct % of the previous value's magnitude;
# rows by change, largest first, then the key's bytes.
#
#   trend-model.py DIR "RUN-IDS" [-f csv|json|text|dom] [-k caller|function|stack]
#                  [-m net|total|allocs] [--jump-pct P] [--jump-min N] [--flagged] [-n N]
#   trend-model.py --read-dom DOM.html   (the key table of a page's DOM, as -f dom prints)
import argparse
import json
import sys
from html.parser import HTMLParser


def read_dom(path):
    class P(HTMLParser):
        def __init__(self):
            super().__init__()
            self.depth = 0
            self.rows = []
            self.cell = None

        def handle_starttag(self, tag, attrs):
            if tag == "table" and ("id", "kma-trend-keys") in attrs:
                self.depth = 1
            elif self.depth and tag == "tr":
                self.rows.append([])
            elif self.depth and tag in ("td", "th"):
                self.cell = ""

        def handle_endtag(self, tag):
            if tag == "table":
                self.depth = 0
            elif self.depth and tag in ("td", "th") and self.cell is not None:
                self.rows[-1].append(self.cell)
                self.cell = None

        def handle_data(self, data):
            if self.cell is not None:
                self.cell += data

    p = P()
    p.feed(open(path, encoding="utf-8").read())
    for r in p.rows:
        print("\t".join(r))


def main():
    if sys.argv[1] == "--read-dom":
        read_dom(sys.argv[2])
        return
    sys.path.insert(0, sys.argv[1])
    import spec
    ids = [int(x) for x in sys.argv[2].split()]
    ap = argparse.ArgumentParser()
    ap.add_argument("-f", default="text")
    ap.add_argument("-k", default="caller")
    ap.add_argument("-m", default="net")
    ap.add_argument("--jump-pct", type=int, default=50)
    ap.add_argument("--jump-min", type=int, default=4096)
    ap.add_argument("--flagged", action="store_true")
    ap.add_argument("-n", type=int, default=0)
    a = ap.parse_args(sys.argv[3:])
    runs = [0, 1, 2, 3]  # label:job=nightly: the first four
    series = {}
    for name, (nets, freed) in spec.SPEC.items():
        vals = []
        for r in runs:
            net = nets[r]
            if net is None:
                vals.append(None)
                continue
            vals.append({"net": net, "total": net + 64 * freed,
                         "allocs": (1 if net else 0) + freed}[a.m])
        key = {"caller": name + "+0x10", "function": name, "stack": "[no stack]"}[a.k]
        old = series.get(key)
        if old:  # summed: every allocation has the same (no) stack
            vals = [None if x is None and y is None else (x or 0) + (y or 0)
                    for x, y in zip(old, vals)]
        series[key] = vals
    rows = []
    for key, vals in series.items():
        v = [x or 0 for x in vals]
        change = v[-1] - v[0]
        grows = len(v) >= 3 and all(v[i] > v[i - 1] for i in range(1, len(v)))
        jumps = [ids[runs[i]] for i in range(1, len(v))
                 if v[i] - v[i - 1] >= a.jump_min and
                 (v[i] - v[i - 1]) * 100 >= a.jump_pct * abs(v[i - 1])]
        if a.flagged and not grows and not jumps:
            continue
        rows.append((key, vals, change, grows, jumps))
    rows.sort(key=lambda r: (-r[2], r[0].encode()))
    if a.n:
        rows = rows[:a.n]
    sel = [ids[r] for r in runs]
    if a.f == "csv":
        def q(s):
            return '"' + s.replace('"', '""') + '"' if any(c in s for c in ',"\r\n') else s
        print(",".join([a.k] + ["run_%d" % i for i in sel] + ["change", "grows", "jumped_at"]))
        for key, vals, change, grows, jumps in rows:
            print(",".join([q(key)] + ["" if x is None else str(x) for x in vals] +
                           [str(change), str(int(grows)), " ".join(map(str, jumps))]))
    elif a.f == "json":
        evil = "v'\"\\<script>&x"
        print(json.dumps({
            "key": a.k, "kind": "slab", "metric": a.m, "jump_pct": a.jump_pct, "jump_min": a.jump_min,
            "runs": [{"run": ids[r], "host": spec.HOSTS[r], "kernel": spec.KERNELS[r],
                      "labels": {"job": spec.JOBS[r], "ev": evil}} for r in runs],
            "keys": [{"name": k, "values": v, "change": c, "grows": g, "jumped_at": j}
                     for k, v, c, g, j in rows]}))
    elif a.f == "dom":
        print("\t".join([a.k] + ["run %d" % i for i in sel] + ["change", "verdict"]))
        for key, vals, change, grows, jumps in rows:
            verdict = "grows" if grows else ""
            if jumps:
                verdict += ("; " if verdict else "") + "jumped at run " + ", ".join(map(str, jumps))
            print("\t".join([key] + ["-" if x is None else str(x) for x in vals] +
                            [("+" if change > 0 else "") + str(change), verdict]))
    else:
        cells = [[key] + ["-" if x is None else str(x) for x in vals] + ["%+d" % change]
                 for key, vals, change, grows, jumps in rows]
        head = [a.k] + ["run %d" % i for i in sel] + ["change"]
        w = [max(len(c[i]) for c in cells + [head]) for i in range(len(head))]
        w[-1] = max(w[-1], 6)
        print(head[0].ljust(w[0]) + "".join("  " + h.rjust(w[i + 1])
                                          for i, h in enumerate(head[1:])) + "  verdict")
        for c, (key, vals, change, grows, jumps) in zip(cells, rows):
            verdict = "grows" if grows else ""
            if jumps:
                verdict += ("; jumped at run " if verdict else "jumped at run ") + \
                    ", ".join(map(str, jumps))
            print(c[0].ljust(w[0]) + "".join("  " + x.rjust(w[i + 1])
                                           for i, x in enumerate(c[1:])) + "  " + verdict)
        print()
        print("%d key%s shown: %d grew in every run, %d jumped" % (
            len(rows), "" if len(rows) == 1 else "s", sum(r[3] for r in rows),
            sum(1 for r in rows if r[4])))


main()
