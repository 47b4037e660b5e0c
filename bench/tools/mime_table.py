#!/usr/bin/env python3
"""Turns JMH CSV results of MimeParseBenchmark / MimeWriteBenchmark into Markdown tables.

Usage: python3 bench/tools/mime_table.py bench/results/mime-parse.csv bench/results/mime-write.csv
Ratios carry JMH's 99.9% error, propagated in quadrature from both scores.
"""
import csv
import math
import sys
from collections import defaultdict

PEERS = ["mime4j", "mimepull", "cxf", "fileupload", "angus"]
SIZES = {"32768": "32 KiB", "1048576": "1 MiB", "12582912": "12 MiB"}
BODIES = ["random", "adversarial", "adversarial-early"]


def load(path):
    rows = defaultdict(dict)  # (size, body) -> impl -> {metric: (score, err)}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            full, _, metric = r["Benchmark"].partition(":")
            impl = full.rsplit(".", 1)[1]
            metric = metric or "time"
            key = (r.get("Param: size"), r.get("Param: body", "random"))
            err = r["Score Error (99.9%)"]
            err = float(err) if err not in ("", "NaN") else float("nan")
            rows[key][impl] = rows[key].get(impl, {})
            rows[key][impl][metric] = (float(r["Score"]), err)
    return rows


def ratio(a, b):
    (x, ex), (y, ey) = a, b
    r = x / y
    e = r * math.sqrt((ex / x) ** 2 + (ey / y) ** 2) if x and y else float("nan")
    return r, e


def fmt_t(v):
    s, e = v
    return f"{s:,.1f} ± {e:,.1f}" if s >= 10 else f"{s:,.2f} ± {e:,.2f}"


def fmt_r(v):
    r, e = v
    return f"{r:.2f} ± {e:.2f}" if r < 10 else f"{r:.1f} ± {e:.1f}"


def fmt_alloc(m):
    a = m.get("gc.alloc.rate.norm")
    if not a:
        return "n/a"
    return f"{a[0]:,.0f}"


def parse_tables(rows):
    out = []
    summary = []
    for size in SIZES:
        for body in BODIES:
            impls = rows.get((size, body))
            if not impls:
                continue
            raw = impls["rawRead"]["time"]
            peers = [p for p in PEERS if p in impls]
            fastest = min(peers, key=lambda p: impls[p]["time"][0])
            out.append(f"\n#### {SIZES[size]} attachment, {body} body\n")
            out.append("| implementation | µs/op (± 99.9%) | × raw read | alloc B/op |")
            out.append("|---|---:|---:|---:|")
            for impl in ["rawRead", "ferry"] + sorted(peers, key=lambda p: impls[p]["time"][0]):
                m = impls[impl]
                out.append(f"| {impl} | {fmt_t(m['time'])} | {fmt_r(ratio(m['time'], raw))} "
                           f"| {fmt_alloc(m)} |")
            f = impls["ferry"]["time"]
            summary.append((SIZES[size], body, fmt_t(f), fmt_r(ratio(f, raw)), fastest,
                            fmt_r(ratio(impls[fastest]["time"], f)), fmt_alloc(impls["ferry"]),
                            ratio(f, raw), ratio(impls[fastest]["time"], f),
                            impls["ferry"].get("gc.alloc.rate.norm", (float("nan"), 0))[0]))
    head = ["| size | body | Ferry µs/op | Ferry × raw read | fastest peer | peer ÷ Ferry "
            "(speed-up) | Ferry alloc B/op |", "|---|---|---:|---:|---|---:|---:|"]
    head += [f"| {s[0]} | {s[1]} | {s[2]} | {s[3]} | {s[4]} | {s[5]} | {s[6]} |" for s in summary]
    return head, out, summary


def adversarial_table(rows):
    """Each adversarial body's time over the random body's, for the implementations measured."""
    impls = [i for i in ["ferry"] + PEERS + ["rawRead"]
             if any(i in v for v in rows.values())]
    out = ["| size | body | " + " | ".join(impls) + " |",
           "|---|---|" + "---:|" * len(impls)]
    for size in SIZES:
        r = rows.get((size, "random"))
        for body in BODIES[1:]:
            a = rows.get((size, body))
            if not r or not a:
                continue
            cells = [fmt_r(ratio(a[i]["time"], r[i]["time"])) if i in a and i in r else "n/a"
                     for i in impls]
            out.append(f"| {SIZES[size]} | {body} | " + " | ".join(cells) + " |")
    return out


def write_table(rows):
    out = ["| size | implementation | µs/op (± 99.9%) | × raw write | alloc B/op |",
           "|---|---|---:|---:|---:|"]
    for size in SIZES:
        impls = rows.get((size, "random"))
        if not impls:
            continue
        raw = impls["rawWrite"]["time"]
        for impl in ["rawWrite", "ferry", "cxf", "angus"]:
            if impl in impls:
                m = impls[impl]
                out.append(f"| {SIZES[size]} | {impl} | {fmt_t(m['time'])} | "
                           f"{fmt_r(ratio(m['time'], raw))} | {fmt_alloc(m)} |")
    return out


def main():
    parse = load(sys.argv[1])
    head, detail, _ = parse_tables(parse)
    print("\n".join(head))
    print("\nAdversarial ÷ random (time per op, same size):\n")
    print("\n".join(adversarial_table(parse)))
    print("\n".join(detail))
    if len(sys.argv) > 2:
        print()
        print("\n".join(write_table(load(sys.argv[2]))))


if __name__ == "__main__":
    main()
