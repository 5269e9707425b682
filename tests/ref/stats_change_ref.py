#!/usr/bin/env python3
"""Independent reference for src/stats_change.c (issue 34), pure python3
(no numpy here): the cluster-robust variances written from their
definitions with explicit per-cluster loops, Student's t CDF by
numerical integration of its density (Simpson, 20k intervals) and its
quantile by bisection. Output pasted into tests/unit/test_stats_change.c."""
import math

def tpdf(x, df):
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    return c * (1 + x * x / df) ** (-(df + 1) / 2)

def tcdf(x, df):  # P(T <= x)
    if x < 0:
        return 1 - tcdf(-x, df)
    n = 20000
    h = x / n
    s = tpdf(0, df) + tpdf(x, df)
    for i in range(1, n):
        s += (4 if i % 2 else 2) * tpdf(i * h, df)
    return 0.5 + s * h / 3

def tq(p, df):
    lo, hi = 0.0, 50.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if tcdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2

def change(before, after, w, o):
    d = [a - b for a, b in zip(after, before)]
    n = len(d)
    delta = sum(d) / n
    def v(keys):
        g = {}
        for k, di in zip(keys, d):
            g[k] = g.get(k, 0.0) + (di - delta)
        G = len(g)
        return G / (G - 1) * sum(s * s for s in g.values()) / n ** 2, G
    vw, gw = v(w)
    vo, go = v(o)
    ops_in = {}
    for wi, oi in zip(w, o):
        ops_in.setdefault(oi, set()).add(wi)
    crossed = sum(1 for s in ops_in.values() if len(s) >= 2)
    if crossed >= 3:
        var = vw + vo
        df = (vw + vo) ** 2 / (vw ** 2 / (gw - 1) + vo ** 2 / (go - 1))
    else:
        var = vw
        df = gw - 1
    se = math.sqrt(var)
    q = tq(0.975, df)
    t = delta / se
    return dict(delta=delta, se=se, df=df, lo=delta - q * se, hi=delta + q * se,
                p_inc=1 - tcdf(t, df), p_two=2 * (1 - tcdf(abs(t), df)),
                p_above=1 - tcdf((delta - 0.01) / se, df),
                p_dec=tcdf(t, df), workloads=gw, ops=go, two_way=crossed >= 3)

if __name__ == "__main__":
  # one-way: 4 workloads, ops unique per workload
  b1 = [0.10, 0.12, 0.05, 0.07, 0.20, 0.22, 0.15, 0.11]
  a1 = [0.13, 0.14, 0.05, 0.10, 0.21, 0.27, 0.15, 0.16]
  w1 = [1, 1, 2, 2, 3, 3, 4, 4]
  o1 = [1, 2, 3, 4, 5, 6, 7, 8]
  print("one-way", change(b1, a1, w1, o1))
  # two-way: 4 workloads x 3 ops
  b2 = [0.10, 0.12, 0.05, 0.07, 0.20, 0.22, 0.15, 0.11, 0.09, 0.30, 0.02, 0.04]
  a2 = [0.13, 0.14, 0.05, 0.10, 0.21, 0.27, 0.15, 0.16, 0.08, 0.36, 0.03, 0.09]
  w2 = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
  o2 = [7, 8, 9] * 4
  print("two-way", change(b2, a2, w2, o2))
