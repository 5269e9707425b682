#!/usr/bin/env python3
"""Expected cells of `perfcorr matrix` on tests/data/matrix/ (pure Python,
independent of perfcorr's C code): writes tests/data/matrix/matrix_ref.json.

Sources (tier order): roof (roofline), sim (perfsim), rtl (rtl, cycles at
1000 MHz, so cycles / 1e9 = seconds), lab and lab2 (silicon). A cell is
model row i against reference column j over the keys every source holds:
e = (m - r) / r, MAPE = mean |e|, bias = mean e, Lin's concordance
ccc = 2 s_xy / (s_x^2 + s_y^2 + (mean x - mean y)^2) with 1/n moments
(Lin 1989), and the same on natural logs.
A cell whose row or column is the roofline (issue 35) is also given its
fraction of speed of light ("sol"): over the keys the roofline and the
other source both hold (their own keys, not only the common ones),
f = roofline time / achieved time per key, the geometric mean of f (as
compare's efficiency of a roofline model), the smallest and largest, and
the violations: achieved time below roofline * (1 - 1e-9).
Run: python3 tests/ref/gen_matrix_ref.py
"""
import csv
import json
import math
import os

D = os.path.join(os.path.dirname(__file__), "..", "data", "matrix")
SRC = [("roof", "roof.csv"), ("sim", "sim.csv"), ("rtl", "rtl.csv"),
       ("lab", "lab.csv"), ("lab2", "lab2.csv")]
SCALE = {"us": 1e-6, "cycles": 1e-9, "W": 1.0}


def load(name):
    out = {}
    with open(os.path.join(D, name)) as f:
        for r in csv.DictReader(f):
            metric = "time" if r["metric"] == "cycles" else r["metric"]
            out[(r["workload"], r["op"], metric)] = \
                float(r["value"]) * SCALE[r["unit"]]
    return out


def ccc(x, y):
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x) / n
    syy = sum((b - my) ** 2 for b in y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y)) / n
    return 2 * sxy / (sxx + syy + (mx - my) ** 2)


def main():
    vals = [load(f) for _, f in SRC]
    keys = sorted(k for k in vals[0] if k[2] == "time" and
                  all(k in v for v in vals))
    cells = []
    for i, (mi, _) in enumerate(SRC):
        for j, (rj, _) in enumerate(SRC):
            if i == j:
                continue
            m = [vals[i][k] for k in keys]
            r = [vals[j][k] for k in keys]
            e = [(a - b) / b for a, b in zip(m, r)]
            cells.append({"model": mi, "ref": rj, "n": len(keys),
                          "mape": sum(abs(x) for x in e) / len(e),
                          "bias": sum(e) / len(e), "ccc": ccc(m, r),
                          "ccc_log": ccc([math.log(a) for a in m],
                                         [math.log(b) for b in r])})
    sol = []
    for i, (mi, _) in enumerate(SRC):
        for j, (rj, _) in enumerate(SRC):
            if i == j or "roof" not in (mi, rj):
                continue
            other = vals[j] if mi == "roof" else vals[i]
            both = sorted(k for k in vals[0] if k[2] == "time" and
                          k in other)
            f = sorted(vals[0][k] / other[k] for k in both)
            n = len(f)
            med = math.exp(sum(math.log(x) for x in f) / n)
            sol.append({"model": mi, "ref": rj, "n": n, "fraction": med,
                        "min": f[0], "max": f[-1],
                        "violations": sum(other[k] < vals[0][k] *
                                          (1 - 1e-9) for k in both)})
    with open(os.path.join(D, "matrix_ref.json"), "w") as f:
        json.dump({"common_keys": len(keys), "cells": cells, "sol": sol},
                  f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
