#!/usr/bin/env python3
"""Independent reference for explain's cluster-robust standard errors
(src/explain.c; plain python3, no numpy): OLS by the normal equations
solved with Fractions (exact), residuals, the CR1 sandwich
V = G/(G-1) (n-1)/(n-p) (X'X)^-1 [sum_g s_g s_g'] (X'X)^-1 with s_g the
sum of x_i u_i over workload g, t = b / se with G - 1 dof, p from the
incomplete beta of tests/ref/stats_agree_ref.py.
Reads a model and a reference CSV (native format), features op and every
numeric parameter named on the command line (ln of the value):
  python3 tests/ref/explain_cluster_ref.py MODEL.csv REF.csv bs seq
Prints one JSON object: {"clusters": G, "terms": [{term, se, t, p}]}.
"""
import csv
import json
import math
import os
import sys
from fractions import Fraction as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats_agree_ref as R  # noqa: E402


def load(path):
    with open(path) as f:
        return {(r["workload"], r["op"], r["metric"]): float(r["value"])
                for r in csv.DictReader(f)}


def param(wl, name):
    for part in wl.split("/"):
        if part.startswith(name + "="):
            return float(part.split("=", 1)[1])
    raise KeyError(name)


def inverse(a):
    n = len(a)
    m = [[F(x) for x in row] + [F(int(i == j)) for j in range(n)]
         for i, row in enumerate(a)]
    for c in range(n):
        piv = next(r for r in range(c, n) if m[r][c] != 0)
        m[c], m[piv] = m[piv], m[c]
        pv = m[c][c]
        m[c] = [x / pv for x in m[c]]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [row[n:] for row in m]


def main():
    mod, ref = load(sys.argv[1]), load(sys.argv[2])
    params = sys.argv[3:]
    keys = sorted(set(mod) & set(ref))
    ops = sorted({k[1] for k in keys})
    names = ["(intercept)"] + ["op=%s" % o for o in ops[1:]] + \
        ["ln param.%s" % p for p in params]
    X, y, g = [], [], []
    for k in keys:
        row = [1.0] + [float(k[1] == o) for o in ops[1:]] + \
            [math.log(param(k[0], p)) for p in params]
        X.append([F(v) for v in row])
        y.append(F(math.log(mod[k] / ref[k])))
        g.append(k[0])
    n, p = len(X), len(X[0])
    xtx = [[sum(X[i][a] * X[i][b] for i in range(n)) for b in range(p)]
           for a in range(p)]
    B = inverse(xtx)
    xty = [sum(X[i][a] * y[i] for i in range(n)) for a in range(p)]
    beta = [sum(B[a][b] * xty[b] for b in range(p)) for a in range(p)]
    u = [y[i] - sum(X[i][a] * beta[a] for a in range(p)) for i in range(n)]
    groups = sorted(set(g))
    G = len(groups)
    s = {w: [F(0)] * p for w in groups}
    for i in range(n):
        for a in range(p):
            s[g[i]][a] += X[i][a] * u[i]
    M = [[sum(s[w][a] * s[w][b] for w in groups) for b in range(p)]
         for a in range(p)]
    c = F(G, G - 1) * F(n - 1, n - p)
    out = []
    for a in range(p):
        v = c * sum(B[a][k] * M[k][l] * B[l][a] for k in range(p)
                    for l in range(p))
        se = math.sqrt(float(v))
        t = float(beta[a]) / se
        out.append({"term": names[a], "se": se, "t": t,
                    "p": R.t_p2(t, G - 1)})
    print(json.dumps({"clusters": G, "terms": out}))


if __name__ == "__main__":
    main()
