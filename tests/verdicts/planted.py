#!/usr/bin/env python3
# planted.py LEAK.json NOLEAK.json [MIN]: the call sites of the planted leak, from
# kma-expect.py's documents of the two recordings (trace-cmd report's events, never
# kma): those whose allocations made in each iteration and still live at the end
# outnumber, in every iteration, the same count in the leak-free recording by at
# least MIN (default 15; the planted process keeps 20 more pipes and sockets per
# iteration). One call site a line, sorted, with the per-iteration excess.
import json, sys

def per_iter(path):
    d = json.load(open(path))
    gens = {i: g["label"] for i, g in enumerate(d["generations"])}
    it = {i: int(l.split()[1]) for i, l in gens.items()
          if l.startswith("iteration ") and l.split()[1].isdigit()}
    out = {}
    for key, n in d["live_by_generation_caller"].items():
        g, caller = key.split(" ", 1)
        if int(g) in it:
            out.setdefault(caller, {})[it[int(g)]] = n
    return out, sorted(it.values())

leak, iters = per_iter(sys.argv[1])
noleak, _ = per_iter(sys.argv[2])
least = int(sys.argv[3]) if len(sys.argv) > 3 else 15
for caller in sorted(leak):
    extra = [leak[caller].get(i, 0) - noleak.get(caller, {}).get(i, 0) for i in iters]
    if iters and min(extra) >= least:
        print(caller, " ".join(map(str, extra)))
