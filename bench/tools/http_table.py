#!/usr/bin/env python3
"""Tables for docs/performance.md from bench/results/http-echo.csv (JMH -rf csv).

Ratios carry the error of both scores (relative errors added in quadrature), as the other
tables in docs/performance.md do.
"""
import csv
import math
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/http-echo.csv"
rows = list(csv.DictReader(open(path)))


def size_name(n):
    n = int(n)
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def ratio(a, ea, b, eb):
    r = a / b
    return r, r * math.sqrt((ea / a) ** 2 + (eb / b) ** 2)


def pick(bench, **params):
    for r in rows:
        if not r["Benchmark"].endswith(bench):
            continue
        if all(r.get("Param: " + k) == str(v) for k, v in params.items()):
            return float(r["Score"]), float(r["Score Error (99.9%)"])
    return None


sizes = sorted({int(r["Param: size"]) for r in rows if r["Benchmark"].endswith("roundTrip")
                and r.get("Param: stack")})
print("| size | MTOM | Ferry ms | CXF ms | Ferry ÷ CXF | Ferry 8 clients ops/s | CXF 8 clients ops/s | Ferry ÷ CXF |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for mtom in ("true", "false"):
    for s in sizes:
        f = pick("roundTrip", stack="ferry", mtom=mtom, size=s)
        c = pick("roundTrip", stack="cxf", mtom=mtom, size=s)
        ft = pick("concurrent", stack="ferry", mtom=mtom, size=s)
        ct = pick("concurrent", stack="cxf", mtom=mtom, size=s)
        lat = ratio(*f, *c)
        thr = ratio(*ft, *ct)
        print(f"| {size_name(s)} | {'on' if mtom == 'true' else 'off'} | {f[0]:.3g} ± {f[1]:.2g}"
              f" | {c[0]:.3g} ± {c[1]:.2g} | {lat[0]:.2f} ± {lat[1]:.2f} | {ft[0]:,.0f} ± {ft[1]:,.0f}"
              f" | {ct[0]:,.0f} ± {ct[1]:,.0f} | {thr[0]:.1f} ± {thr[1]:.1f} |")
print()
print("| size | Ferry MTOM ms | Ferry base64 ms | base64 ÷ MTOM | CXF MTOM ms | CXF base64 ms | base64 ÷ MTOM |")
print("|---|---:|---:|---:|---:|---:|---:|")
for s in sizes:
    cells = []
    for stack in ("ferry", "cxf"):
        m = pick("roundTrip", stack=stack, mtom="true", size=s)
        b = pick("roundTrip", stack=stack, mtom="false", size=s)
        r = ratio(*b, *m)
        cells.append(f"{m[0]:.3g} ± {m[1]:.2g} | {b[0]:.3g} ± {b[1]:.2g} | {r[0]:.2f} ± {r[1]:.2f}")
    print(f"| {size_name(s)} | " + " | ".join(cells) + " |")
print()
print("| size | path | ms | ÷ direct |")
print("|---|---|---:|---:|")
for s in sorted({int(r["Param: size"]) for r in rows if r["Benchmark"].endswith("roundTrip")
                 and r.get("Param: path") not in (None, "", "N/A")}):
    d = pick("BrokerOverheadBenchmark.roundTrip", path="direct", size=s)
    for p in ("direct", "broker", "nginx", "nginx-default"):
        v = pick("BrokerOverheadBenchmark.roundTrip", path=p, size=s)
        if v:
            r = ratio(*v, *d)
            print(f"| {size_name(s)} | {p} | {v[0]:.3g} ± {v[1]:.2g} | {r[0]:.2f} ± {r[1]:.2f} |")
