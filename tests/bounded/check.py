#!/usr/bin/env python3
"""check.py WHAT EXPECT.json FILE... - t-bounded.sh's checks of kma's output
against what mkseq.py worked out from the events. Prints nothing and exits 0
when the check holds, else one line per difference and exits 1.

  lifetimes EXPECT CSV BUCKETED   --lifetimes -f csv: count, min, max always
        exact; median and p99 exact for rows of at most 256 frees, or for
        every row when BUCKETED is 0; else within 1 % of the exact value
  list EXPECT CSV N OUTSTANDING    --list [-n N] -f csv: the first N of the
        (time, ptr) order (N 0: all), or of the live ones
  html EXPECT PAGE                 --html: every series at most 2048 points,
        and the timeline's allocations add up to the trace's
"""
import csv
import json
import sys

what, exp = sys.argv[1], json.load(open(sys.argv[2]))
bad = []

if what == "lifetimes":
    rows = list(csv.DictReader(open(sys.argv[3])))
    bucketed = sys.argv[4] == "1"
    want = exp["lifetimes"]
    if sorted(r["caller"] for r in rows) != sorted(want):
        bad.append("callers %s, want %s" % (sorted(r["caller"] for r in rows), sorted(want)))
    for r in rows:
        w = want.get(r["caller"])
        if not w:
            continue
        for col, key in (("frees", "frees"), ("min_ns", "min"), ("max_ns", "max")):
            if int(r[col]) != w[key]:
                bad.append("%s %s %s, want %d" % (r["caller"], col, r[col], w[key]))
        for col, key in (("median_ns", "median"), ("p99_ns", "p99")):
            got, e = int(r[col]), w[key]
            if not bucketed or w["frees"] <= 256:
                if got != e:
                    bad.append("%s %s %d, want exactly %d" % (r["caller"], col, got, e))
            elif abs(got - e) * 100 > e:
                bad.append("%s %s %d, want %d within 1%% (off by %.3f%%)" %
                           (r["caller"], col, got, e, abs(got - e) * 100.0 / e))
elif what == "list":
    rows = list(csv.DictReader(open(sys.argv[3])))
    n, live = int(sys.argv[4]), sys.argv[5] == "1"
    want = exp["live" if live else "list"]
    want = want[:n] if n else want
    got = [[int(r["time_ns"]), int(r["ptr"], 16)] for r in rows]
    if got != want:
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b),
                     min(len(got), len(want)))
        bad.append("%d rows, want %d; first difference at row %d: %s, want %s" %
                   (len(got), len(want), first, got[first:first + 1], want[first:first + 1]))
elif what == "html":
    page = open(sys.argv[3]).read()
    tag = '<script id="kma-data" type="application/json">'
    i = page.index(tag) + len(tag)
    data = json.loads(page[i:page.index("</script>", i)])
    tl = data["timeline"]
    series = [(k, v) for k, v in tl.items() if isinstance(v, list) and k != "series"]
    series += [("series %d" % k, s["live"]) for k, s in enumerate(tl["series"])]
    if not series:
        bad.append("no timeline series")
    for name, v in series:
        if len(v) > 2048:
            bad.append("timeline %s: %d points, over 2048" % (name, len(v)))
    if sum(tl["allocs"]) != exp["allocs"]:
        bad.append("timeline allocs add up to %d, want %d" % (sum(tl["allocs"]), exp["allocs"]))
    if len(tl["allocs"]) < 1024:
        bad.append("timeline has %d bins: the trace should fill over 1024" % len(tl["allocs"]))
else:
    bad.append("unknown check " + what)
for b in bad[:20]:
    print(b)
sys.exit(1 if bad else 0)
