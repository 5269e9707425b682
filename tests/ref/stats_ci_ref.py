#!/usr/bin/env python3
"""Independent reference for src/stats_ci.c (pure python3, no numpy).

The intervals of MAPE, bias, the geomean and the median |error| from
their documented definitions (docs/statistics.md, "Confidence
intervals", "What each interval resamples"), the slow way:

- MAPE, bias, geomean: t intervals of delete-one jackknife variances,
  each leave-one-workload-out (and, two-way, leave-one-op-out) sample
  built as an explicit list of pairs and summarised with the textbook
  formulas; two-way, the pairs' residual term from each pair's values
  less its workload's and op's means; Student's t quantile by numerical
  integration (tests/ref/stats_change_ref.py), not GSL;
- median |error|: the workload bootstrap, each resample an explicit list
  of pairs (every pair of each drawn workload, once per draw),
  statistics.median, the expanded percentile's quantiles, not per-workload
  sums or a weighted walk as the C code does. The draws follow the
  documented definition: a Poisson(1) base count per workload from 32
  bits of a splitmix64 hash of (seed, resample, key >> 1), by a table
  computed here to 60 digits, fixed up to exactly as many draws as
  workloads.
Prints the intervals the unit test tests/unit/test_stats_ci.c pastes;
--multinomial checks the draws' distribution (chi-square).
"""
import math
import os
import statistics
import sys
from decimal import Decimal, getcontext

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats_change_ref import tq  # noqa: E402

MASK = (1 << 64) - 1


class SplitMix:
    def __init__(self, seed):
        self.s = seed & MASK

    def next(self):
        self.s = (self.s + GAMMA) & MASK
        return mix(self.s)

    def draw(self, n):
        u = (self.next() >> 11) * 2.0 ** -53
        return min(int(u * n), n - 1)


GAMMA = 0x9e3779b97f4a7c15
FIX = 0x5851f42d4c957f2d        # the fix-up stream's state: row key ^ FIX


def mix(z):  # splitmix64's output function
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK
    return z ^ (z >> 31)


def poisson_thresholds():
    """T_j = round(2^32 P(X <= j)), X ~ Poisson(1), computed to 60 digits;
    the ones below 2^32 (j = 0..11)."""
    getcontext().prec = 60
    e = Decimal(-1).exp()
    out, cdf, term = [], Decimal(0), Decimal(1)
    for j in range(40):
        if j:
            term /= j
        cdf += e * term
        t = int((cdf * 2 ** 32 + Decimal("0.5")) // 1)
        if t >= 2 ** 32:
            break
        out.append(t)
    return out


THRESH = poisson_thresholds()


def counts(seed, b, keys):
    """How often resample b draws each workload of keys (ascending): a
    Poisson(1) count per workload from a hash of (row key, workload key),
    then fixed up to exactly len(keys) draws (docs/statistics.md)."""
    rk = mix((seed + (b + 1) * GAMMA) & MASK)
    w = []
    for k in keys:
        k &= MASK               # the key as 64 bits (two's complement)
        z = mix((rk + (k >> 1) * GAMMA) & MASK)
        p = z & 0xffffffff if k & 1 else z >> 32
        w.append(sum(1 for t in THRESH if p >= t))
    nc, tot = len(keys), sum(w)
    fix = SplitMix(rk ^ FIX)
    while tot < nc:             # too few: add uniform draws
        w[fix.draw(nc)] += 1
        tot += 1
    while tot > nc:             # too many: remove a uniformly chosen draw
        j = fix.draw(nc)
        if fix.draw(len(THRESH)) < w[j]:   # 12: the largest base count
            w[j] -= 1
            tot -= 1
    return w


def quantile(v, q):  # numpy's default (linear)
    v = sorted(v)
    h = (len(v) - 1) * q
    lo = math.floor(h)
    if lo + 1 >= len(v):
        return v[-1]
    return v[lo] + (h - lo) * (v[lo + 1] - v[lo])


def kish(w):
    """Kish's effective number of clusters of weights w."""
    return sum(w) ** 2 / sum(x * x for x in w)


def err_stats(model, ref, pairs):
    """ln MAPE, bias, mean ln(model / ref) of the listed pairs."""
    e = [(model[i] - ref[i]) / ref[i] for i in pairs]
    return (math.log(sum(abs(x) for x in e) / len(e)), sum(e) / len(e),
            sum(math.log(model[i] / ref[i]) for i in pairs) / len(pairs))


def jack_var(model, ref, key):
    """Delete-one-cluster jackknife variances of err_stats over the
    clusters of key, and Kish's effective number of them (by pairs)."""
    keys = sorted(set(key))
    vals = [err_stats(model, ref, [i for i in range(len(model))
                                   if key[i] != k]) for k in keys]
    g = len(keys)
    v = []
    for j in range(3):
        m = sum(x[j] for x in vals) / g
        v.append((g - 1) / g * sum((x[j] - m) ** 2 for x in vals))
    return v, kish([key.count(k) for k in keys]), g


def err_var(model, ref, wkey, okey=None):
    """The variance and degrees of freedom of each of err_stats: one-way
    (okey None) the workloads' jackknife, t on G* - 1; two-way V_w + V_o
    - V_e (at least the larger of V_w, V_o), V_e = (N - 1) / N sum of
    the squared residuals r_i = x_i - mean of its workload - mean of its
    op + mean, times the statistic's gradient (1 / sum |e| for ln MAPE,
    1 / N for the means), on the Satterthwaite df of V_w + V_o."""
    n = len(model)
    vw, gw, nw = jack_var(model, ref, wkey)
    if okey is None:
        return [(v, max(1.0, min(gw, nw) - 1)) for v in vw]
    vo, go, no = jack_var(model, ref, okey)
    e = [(model[i] - ref[i]) / ref[i] for i in range(n)]
    x = [[abs(t) for t in e], e, [math.log(model[i] / ref[i])
                                  for i in range(n)]]
    grad = [1 / sum(x[0]), 1 / n, 1 / n]
    out = []
    for j in range(3):
        mw = {k: statistics.fmean(x[j][i] for i in range(n) if wkey[i] == k)
              for k in set(wkey)}
        mo = {k: statistics.fmean(x[j][i] for i in range(n) if okey[i] == k)
              for k in set(okey)}
        mean = statistics.fmean(x[j])
        r2 = sum((x[j][i] - mw[wkey[i]] - mo[okey[i]] + mean) ** 2
                 for i in range(n))
        ve = r2 * grad[j] ** 2 * (n - 1) / n
        v = max(vw[j] + vo[j] - ve, vw[j], vo[j])
        dw, do = max(1.0, min(gw, nw) - 1), max(1.0, min(go, no) - 1)
        s = vw[j] + vo[j]
        df = s * s / (vw[j] ** 2 / dw + vo[j] ** 2 / do)
        out.append((v, max(1.0, min(df, nw + no - 2))))
    return out


def jack(model, ref, wkey, level, okey=None):
    """The jackknife t intervals of MAPE (log scale), bias, the geomean
    (log scale)."""
    n = len(model)
    est = err_stats(model, ref, range(n))
    out = {}
    for j, k in enumerate(("mape", "bias", "geo")):
        v, df = err_var(model, ref, wkey, okey)[j]
        h = tq((1 + level) / 2, df) * math.sqrt(v)
        lo, hi = est[j] - h, est[j] + h
        out[k] = (lo, hi) if k == "bias" else (math.exp(lo), math.exp(hi))
    return out


def boot(model, ref, wkey, resamples, seed, level, okey=None):
    """Every interval of the four: jack()'s and the median's: the
    percentile interval at a = Phi(-sqrt(G / (G - 1)) t_df), df that of
    MAPE's variance; two-way, its arms scaled on the log scale by the
    ratio of MAPE's two-way to one-way standard error."""
    keys = sorted(set(wkey))
    groups = [[i for i in range(len(model)) if wkey[i] == k] for k in keys]
    med = []
    for b in range(resamples):
        pairs = []
        for g, c in zip(groups, counts(seed, b, keys)):
            pairs += g * c
        med.append(statistics.median(abs((model[i] - ref[i]) / ref[i])
                                     for i in pairs))
    g = len(keys)
    v, df = err_var(model, ref, wkey, okey)[0]
    a = statistics.NormalDist().cdf(-math.sqrt(g / (g - 1)) *
                                    tq((1 + level) / 2, df))
    out = jack(model, ref, wkey, level, okey)
    lo, hi = quantile(med, a), quantile(med, 1 - a)
    if okey is not None:
        f = math.sqrt(v / err_var(model, ref, wkey)[0][0])
        m = statistics.median(abs((model[i] - ref[i]) / ref[i])
                              for i in range(len(model)))
        lo, hi = m * (lo / m) ** f, m * (hi / m) ** f
    out["med"] = (lo, hi)
    return out


MIN_WORKLOADS = 5  # src/stats/stats_summary.h, STATS_CI_MIN_WORKLOADS


def bound(out, model, ref, wkey):
    """What compare prints of boot()'s intervals (issue 34): none with
    fewer than MIN_WORKLOADS workloads (2 or more); else each cut to the
    range its statistic takes on these errors, m = max |e|: MAPE and the
    median |e| to [0, m], bias to [-m, m], the geomean to
    [max(0, 1 - m), 1 + m]."""
    if 2 <= len(set(wkey)) < MIN_WORKLOADS:
        return {k: None for k in out}
    m = max(abs((a - b) / b) for a, b in zip(model, ref))
    rng = {"mape": (0, m), "med": (0, m), "bias": (-m, m),
           "geo": (max(0, 1 - m), 1 + m)}
    res = {}
    for k, (lo, hi) in out.items():
        a, b = rng.get(k, (-math.inf, math.inf))
        res[k] = (min(max(lo, a), b), min(max(hi, a), b))
    return res


# the unit test's data: 5 workloads (keys 7, 3, 11, 5, 9) of 1-4 pairs
MODEL = [1.10, 2.00, 0.95, 3.30, 1.00, 5.50, 0.80, 1.21, 2.40, 0.50, 4.00]
REF = [1.00, 2.10, 1.00, 3.00, 1.00, 5.00, 1.00, 1.10, 2.00, 0.55, 4.40]
WKEY = [7, 7, 3, 3, 3, 11, 5, 5, 5, 5, 9]
# ... and ops crossed with them (ops 1-3 in several workloads)
OKEY = [1, 2, 1, 2, 3, 1, 1, 2, 3, 4, 2]

def multinomial_check(resamples=30000, seed=99):
    """The draws' distribution: chi-square of the count vectors of
    `resamples` resamples against multinomial(nc, 1/nc), nc = 2, 3, 5
    (every composition of nc into nc parts is a cell); keys apart, and
    neighbours (which share a hash)."""
    for nc, step in ((2, 7), (3, 7), (5, 7), (2, 1), (5, 1)):
        # step 1: neighbouring keys, which share a hash
        keys = [10 + step * i for i in range(nc)]
        seen = {}
        for b in range(resamples):
            v = tuple(counts(seed, b, keys))
            seen[v] = seen.get(v, 0) + 1
        chi, cells = 0.0, 0

        def comps(n, k):
            if k == 1:
                yield (n,)
                return
            for i in range(n + 1):
                for rest in comps(n - i, k - 1):
                    yield (i,) + rest
        for v in comps(nc, nc):
            p = math.factorial(nc) / math.prod(math.factorial(x) for x in v)
            p /= nc ** nc
            chi += (seen.get(v, 0) - resamples * p) ** 2 / (resamples * p)
            cells += 1
        print("nc %d, keys %r: chi2 %.1f on %d df" % (nc, keys, chi,
                                                   cells - 1))


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--multinomial"]:
        multinomial_check()
        sys.exit(0)
    for res, seed, level, okey in ((200, 20261201, 0.95, None),
                                   (1000, 42, 0.90, None),
                                   (200, 20261201, 0.95, OKEY)):
        r = boot(MODEL, REF, WKEY, res, seed, level, okey)
        print(res, seed, level, "two-way" if okey else "")
        for k in ("mape", "bias", "med", "geo"):
            print("  %s (%r, %r)" % (k, r[k][0], r[k][1]))
