#!/usr/bin/env python3
"""Compare kma-analyze's results with the independent expectation of
kma-expect.py (computed from trace-cmd report output only).

usage: kma-check-db.py [--kmalloc-only] [--buffer NAME] TRACE.dat REPORT.db [TEXT_REPORT_FILE]

Checks REPORT.db (sqlite): the summary row, per-caller sums of caller_stats,
and the number of rows of allocations; and, if given, the header lines and
the caller table of kma-analyze's text output.  Prints the first mismatches
and exits 1, or prints "OK TRACE" and exits 0.
"""
import importlib.util
import os
import re
import sqlite3
import sys

_spec = importlib.util.spec_from_file_location(
    "kma_expect", os.path.join(os.path.dirname(os.path.abspath(__file__)), "kma-expect.py"))
kma_expect = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kma_expect)

MAX_SHOWN = 20

# text report header label -> summary key
HEADER_LABELS = {
    "total bytes allocated": "total",
    "slack bytes allocated": "slack",
    "net bytes allocated": "net",
    "number of allocs": "allocs",
    "number of frees": "frees",
    "number of callers": "callers",
    "number of unknown frees": "unknown_frees",
    "number of null frees": "null_frees",
    "number of implicit frees": "implicit_frees",
    "number of failed allocs": "failed_allocs",
    "number of lost events": "lost_events",
}
# total slack slack% net alloc/free caller
ROW_RE = re.compile(r"^\s*(-?\d+)\s+(-?\d+)\s+(\d+\.\d{3}|-)\s+(-?\d+)\s+(\d+)/(\d+)\s+(\S+)\s*$")


def pct(part, whole):
    """100 * part / whole, 3 decimals rounded half up, exactly; '-' for 0."""
    if not whole:
        return "-"
    m = (part * 200000 + whole) // (whole * 2)
    return "%d.%03d" % (m // 1000, m % 1000)


def check_db(exp, db, problems):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    cur = con.execute("SELECT * FROM summary")
    cols = [d[0] for d in cur.description]
    rows = cur.fetchall()
    if len(rows) != 1:
        problems.append(f"db summary: expected 1 row, got {len(rows)}")
    else:
        got = dict(zip(cols, rows[0]))
        for k, want in exp["summary"].items():
            if k not in got:
                problems.append(f"db summary: missing column {k} (expected {want})")
            elif got[k] != want:
                problems.append(f"db summary.{k}: got {got[k]}, expected {want}")
        extra = sorted(set(cols) - set(exp["summary"]))
        if extra:
            print(f"note: extra summary columns not checked: {', '.join(extra)}")

    got_callers = {}
    for r in con.execute(
            "SELECT caller, SUM(total), SUM(slack), SUM(net), SUM(allocs),"
            " SUM(frees), SUM(implicit_frees) FROM caller_stats GROUP BY caller"):
        got_callers[r[0]] = dict(zip(kma_expect.CALLER_KEYS, r[1:]))
    for caller in sorted(set(exp["callers"]) | set(got_callers)):
        want, got = exp["callers"].get(caller), got_callers.get(caller)
        if want is None:
            problems.append(f"db caller {caller}: unexpected row {got}")
        elif got is None:
            problems.append(f"db caller {caller}: missing, expected {want}")
        else:
            for k in kma_expect.CALLER_KEYS:
                if got[k] != want[k]:
                    problems.append(f"db caller {caller}.{k}: got {got[k]}, expected {want[k]}")

    # stack_stats (schema version 3): however the allocations split by call stack,
    # the sums are the summary's, and frees those of the callers (traced frees)
    if con.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'stack_stats'").fetchone()[0]:
        keys = ("total", "slack", "net", "allocs", "implicit_frees", "frees")
        got = con.execute("SELECT " + ", ".join(f"COALESCE(SUM({k}), 0)" for k in keys)
                          + " FROM stack_stats").fetchone()
        want = [exp["summary"][k] for k in keys[:-1]]
        want.append(sum(c["frees"] for c in exp["callers"].values()))
        for k, g, w in zip(keys, got, want):
            if g != w:
                problems.append(f"db stack_stats SUM({k}): got {g}, expected {w}")

    (n,), = con.execute("SELECT COUNT(*) FROM allocations").fetchall()
    if n != exp["allocations"]:
        problems.append(f"db allocations: got {n} rows, expected {exp['allocations']}")

    # generations: marker labels and per-generation counts, in order
    got = [dict(zip(("label", "allocs", "bytes", "live", "live_bytes", "frees"), r))
           for r in con.execute("SELECT label, allocs, bytes, live, live_bytes, frees "
                                "FROM generations ORDER BY id")]
    if got != exp["generations"]:
        problems.append(f"db generations: got {got}, expected {exp['generations']}")
    got = {f"{g} {c}": n for g, c, n in con.execute(
        "SELECT generation, caller, COUNT(*) FROM allocations WHERE free_ts IS NULL "
        "GROUP BY generation, caller")}
    if got != exp["live_by_generation_caller"]:
        diff = sorted(set(got.items()) ^ set(exp["live_by_generation_caller"].items()))
        problems.append(f"db live allocations by generation and caller differ: {diff[:5]}")

    # per-CPU losses (schema/kma.sql table lost_events), one row per CPU
    lost_cols = ("page_missed", "missed_unknown", "overrun", "commit_overrun", "dropped", "lost")
    got_lost = {str(r[0]): dict(zip(lost_cols, r[1:])) for r in con.execute(
        f"SELECT cpu, {', '.join(lost_cols)} FROM lost_events")}
    for cpu in sorted(set(exp["lost_per_cpu"]) | set(got_lost), key=int):
        want, got = exp["lost_per_cpu"].get(cpu), got_lost.get(cpu)
        if want is None or got is None:
            problems.append(f"db lost_events cpu {cpu}: got {got}, expected {want}")
        elif got != want:
            problems.append(f"db lost_events cpu {cpu}: got {got}, expected {want}")
    con.close()


def check_text(exp, path, problems):
    lines = open(path).read().splitlines()
    seen = {}
    table_at = None
    for i, line in enumerate(lines):
        label, sep, value = line.partition(":")
        key = HEADER_LABELS.get(label.strip())
        if sep and key and key not in seen:
            seen[key] = value.strip()
        if table_at is None and line.lstrip().startswith("total") and "caller" in line:
            table_at = i
    for label, key in HEADER_LABELS.items():
        want = exp["summary"][key]
        if key not in seen:
            problems.append(f"text: missing header line '{label}: {want}'")
        elif seen[key] != str(want):
            problems.append(f"text {label}: got {seen[key]}, expected {want}")
    if table_at is None:
        problems.append("text: no caller table header (line starting with 'total' containing 'caller')")
        return
    nrows = 0
    for line in lines[table_at + 1:]:
        if not line.strip():
            if nrows:
                break
            continue
        m = ROW_RE.match(line)
        if not m:
            if nrows:
                break           # end of the table
            problems.append(f"text: unparsable table row: {line!r}")
            continue
        nrows += 1
        caller = m.group(7)
        got = dict(zip(("total", "slack", "net", "allocs", "frees"),
                       map(int, m.group(1, 2, 4, 5, 6))))
        want = exp["callers"].get(caller)
        if want is None:
            problems.append(f"text row for unknown caller {caller}: {line.strip()}")
            continue
        if m.group(3) != pct(want["slack"], want["total"]):
            problems.append(f"text caller {caller}.slack%: got {m.group(3)}, expected "
                            f"{pct(want['slack'], want['total'])}")
        for k, v in got.items():
            if v != want[k]:
                problems.append(f"text caller {caller}.{k}: got {v}, expected {want[k]}")
    if nrows == 0 and exp["callers"]:
        problems.append("text: caller table has no rows")


def main(argv):
    kmalloc_only = "--kmalloc-only" in argv
    args = [a for a in argv if a != "--kmalloc-only"]
    buffer = "top"
    if len(args) > 2 and args[0] == "--buffer":
        buffer, args = args[1], args[2:]
    if len(args) not in (2, 3):
        sys.exit("usage: kma-check-db.py [--kmalloc-only] [--buffer NAME] TRACE.dat REPORT.db "
                 "[TEXT_REPORT_FILE]")
    trace, db = args[0], args[1]
    exp = kma_expect.expect(trace, kmalloc_only, buffer)
    problems = []
    check_db(exp, db, problems)
    if len(args) == 3:
        check_text(exp, args[2], problems)
    if problems:
        print(f"MISMATCH {trace} ({len(problems)} differences)")
        for p in problems[:MAX_SHOWN]:
            print("  " + p)
        if len(problems) > MAX_SHOWN:
            print(f"  ... {len(problems) - MAX_SHOWN} more")
        return 1
    print(f"OK {trace}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
