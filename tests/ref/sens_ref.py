#!/usr/bin/env python3
"""Independent reference for perfcorr sensitivity (src/corr/corr_sens.c),
plain python3: reads two perfcorr-csv files (model, reference), forms the
sweeps (one op, metric and workload key but for one parameter, >= 3
positive values), and prints one line per sweep:
  knob op metric fixed e_model e_ref tau flag
with e_* the least-squares slope of ln(value) on ln(knob) (textbook sums),
tau Kendall's tau-b by O(n^2) pair counting, and the flag by the rule of
docs/statistics.md ("Sensitivity": the reference moves >= 20%; the model
is flat under 1/4 of the reference's log range; wrong direction when the
slopes' signs differ)."""
import csv
import math
import sys
from collections import defaultdict


def read(path):
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            out[(r["workload"], r["op"], r["metric"])] = float(r["value"])
    return out


def slope(x, y):
    lx = [math.log(v) for v in x]
    ly = [math.log(v) for v in y]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    sxx = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sxx


def tau_b(x, y):
    c = d = tx = ty = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            a = (x[i] > x[j]) - (x[i] < x[j])
            b = (y[i] > y[j]) - (y[i] < y[j])
            if a == 0 and b == 0:
                continue
            if a == 0:
                tx += 1
            elif b == 0:
                ty += 1
            elif a == b:
                c += 1
            else:
                d += 1
    den = math.sqrt((c + d + tx) * (c + d + ty))
    return (c - d) / den if den else float("nan")


def main():
    model, ref = read(sys.argv[1]), read(sys.argv[2])
    sweeps = defaultdict(list)
    for (w, op, m), mv in model.items():
        if (w, op, m) not in ref:
            continue
        parts = w.split("/")
        for i, p in enumerate(parts):
            if "=" not in p:
                continue
            k, v = p.split("=", 1)
            fixed = "/".join(parts[:i] + parts[i + 1:])
            sweeps[(k, op, m, fixed)].append((float(v), mv, ref[(w, op, m)]))
    for key in sorted(sweeps):
        pts = sorted(sweeps[key])
        if len({p[0] for p in pts}) < 3:
            continue
        x = [p[0] for p in pts]
        mv = [p[1] for p in pts]
        rv = [p[2] for p in pts]
        em, er = slope(x, mv), slope(x, rv)
        mmove = math.log(max(mv) / min(mv))
        rmove = math.log(max(rv) / min(rv))
        flag = "ok"
        if rmove >= math.log(1.2):
            if mmove < 0.25 * rmove:
                flag = "blind"
            elif em * er < 0:
                flag = "wrong"
        print(*key, "%.12g" % em, "%.12g" % er, "%.12g" % tau_b(mv, rv), flag)


main()
