#!/usr/bin/env python3
"""The weighted fits of tests/data/stats_ref.json in exact rational
arithmetic (fractions; plain python3, no numpy), as a second, independent
check of gen_stats_ref.py's wfit and of docs/statistics.md's definition:
model = a + b ref, weights w = 1/sd^2, normal equations, covariance
(X'WX)^-1 scaled by s^2 = chi^2 / (n - 2) (relative weights).
  python3 tests/ref/gen_wfit_exact.py          prints the values
  python3 tests/ref/gen_wfit_exact.py --write  updates stats_ref.json
"""
import json
import math
import os
import sys
from fractions import Fraction as F

D = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def sqrt(q):
    # correctly rounded enough: float sqrt of the nearest double of q
    # (q itself is exact; the only rounding is here)
    return math.sqrt(float(q))


def wfit(x, y, sd):
    w = [1 / (s * s) for s in sd]
    sw = sum(w)
    sx = sum(wi * xi for wi, xi in zip(w, x))
    sy = sum(wi * yi for wi, yi in zip(w, y))
    sxx = sum(wi * xi * xi for wi, xi in zip(w, x))
    sxy = sum(wi * xi * yi for wi, xi, yi in zip(w, x, y))
    det = sw * sxx - sx * sx
    b = (sw * sxy - sx * sy) / det
    a = (sy - b * sx) / sw
    chi2 = sum(wi * (yi - a - b * xi) ** 2 for wi, xi, yi in zip(w, x, y))
    yw = sy / sw
    tss = sum(wi * (yi - yw) ** 2 for wi, yi in zip(w, y))
    s2 = chi2 / (len(x) - 2)
    return {"intercept": float(a), "slope": float(b),
            "r2": float(1 - chi2 / tss),
            "se_intercept": sqrt(s2 * sxx / det),
            "se_slope": sqrt(s2 * sw / det)}


def main():
    path = os.path.join(D, "stats_ref.json")
    ref = json.load(open(path))
    for name in sorted(ref):
        rows = open(os.path.join(D, "stats_%s.csv" % name)).read().split()[1:]
        cols = [r.split(",") for r in rows]
        if not cols or any(c[2] == "" for c in cols):
            continue
        m = [F(c[0]) for c in cols]
        r = [F(c[1]) for c in cols]
        sd = [F(c[2]) for c in cols]
        if len(m) < 3:
            continue
        out = wfit(r, m, sd)
        print(name, json.dumps(out))
        if "--write" in sys.argv:
            ref[name].update(out)
    if "--write" in sys.argv:
        with open(path, "w") as f:
            json.dump(ref, f, indent=1, sort_keys=True)
            f.write("\n")


main()
