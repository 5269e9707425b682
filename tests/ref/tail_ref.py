#!/usr/bin/env python3
"""Independent reference for tails and distributions
(src/corr/corr_tail.c, src/stats/stats_dist.c), plain python3. Reads two
perfcorr-csv files (model, reference) and prints, by the definitions of
docs/statistics.md ("Tails and distributions"):
  pct  BASE LEVEL n mape bias median_abs_err max_abs_err
       over the pairs of metric BASE_pLEVEL (errors (m - r) / r)
  w1   WORKLOAD OP BASE W    (or 'none' when it has no distance)
       W = 1/(u_k - u_1) * integral over [u_1, u_k] of |ln QA - ln QB|,
       each quantile function linear in u between the stated levels; the
       integral is summed segment by segment, a segment whose ends differ
       in sign split at its zero u0 = u_j + w d_j / (d_j - d_j+1)."""
import csv
import math
import re
import sys
from collections import defaultdict

SCALE = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "tokens/s": 1.0}
PCT = re.compile(r"^(.+)_p([0-9]+(\.[0-9]+)?)$")


def read(path):
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["unit"] in SCALE and PCT.match(r["metric"]):
                out[(r["workload"], r["op"], r["metric"])] = \
                    float(r["value"]) * SCALE[r["unit"]]
    return out


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def w1(u, a, b):
    d = [math.log(x) - math.log(y) for x, y in zip(a, b)]
    total = 0.0
    for j in range(len(u) - 1):
        w, d0, d1 = u[j + 1] - u[j], d[j], d[j + 1]
        if d0 * d1 < 0:
            z = w * d0 / (d0 - d1)          # where the line crosses 0
            total += abs(d0) * z / 2 + abs(d1) * (w - z) / 2
        else:
            total += (abs(d0) + abs(d1)) * w / 2
    return total / (u[-1] - u[0])


def main():
    model, ref = read(sys.argv[1]), read(sys.argv[2])
    levels = defaultdict(list)
    keys = defaultdict(list)
    for k in ref:
        if k not in model:
            continue
        m = PCT.match(k[2])
        if not m:
            continue
        base, lv = m.group(1), m.group(2)
        e = (model[k] - ref[k]) / abs(ref[k])
        levels[(base, float(lv))].append(e)
        keys[(k[0], k[1], base)].append((float(lv) / 100, model[k], ref[k]))
    for (base, lv), es in sorted(levels.items()):
        a = [abs(x) for x in es]
        print("pct", base, "p%g" % lv, len(es), "%.12g" % (sum(a) / len(a)),
              "%.12g" % (sum(es) / len(es)), "%.12g" % median(a),
              "%.12g" % max(a))
    for (w, op, base), pts in sorted(keys.items()):
        pts.sort()
        u = [p[0] for p in pts]
        a = [p[1] for p in pts]
        b = [p[2] for p in pts]
        ok = len(pts) >= 2 and all(x <= y for x, y in zip(a, a[1:])) and \
            all(x <= y for x, y in zip(b, b[1:]))
        print("w1", w, op, base, "%.12g" % w1(u, a, b) if ok else "none")


main()
