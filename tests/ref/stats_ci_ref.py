#!/usr/bin/env python3
"""Independent reference for src/stats_ci.c (pure python3, no numpy).

The workload bootstrap re-implemented from its documented definition
(docs/statistics.md, "Confidence intervals"), the slow way: each resample
is built as an explicit list of pairs (every pair of each drawn workload,
once per draw) and the statistics are computed from that list with the
textbook formulas (statistics.median, mean, exp of mean log), not from
per-workload sums or a weighted walk as the C code does. The draws follow
the documented definition: a Poisson(1) base count per workload from 32
bits of a splitmix64 hash of (seed, resample, key >> 1), by a table computed
here to 60 digits, fixed up to exactly as many draws as workloads.
Prints the intervals the unit test tests/unit/test_stats_ci.c pastes;
--multinomial checks the draws' distribution (chi-square).
"""
import math
import statistics
from decimal import Decimal, getcontext

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


def boot(model, ref, wkey, resamples, seed, level):
    keys = sorted(set(wkey))
    groups = [[i for i in range(len(model)) if wkey[i] == k] for k in keys]
    out = {"mape": [], "bias": [], "geo": [], "med": []}
    for b in range(resamples):
        pairs = []
        for g, c in zip(groups, counts(seed, b, keys)):
            pairs += g * c
        e = [(model[i] - ref[i]) / ref[i] for i in pairs]
        out["mape"].append(sum(abs(x) for x in e) / len(e))
        out["bias"].append(sum(e) / len(e))
        out["geo"].append(math.exp(sum(math.log(model[i] / ref[i])
                                       for i in pairs) / len(pairs)))
        out["med"].append(statistics.median(abs(x) for x in e))
    a = (1 - level) / 2
    return {k: (quantile(v, a), quantile(v, 1 - a)) for k, v in out.items()}


# the unit test's data: 5 workloads (keys 7, 3, 11, 5, 9) of 1-4 pairs
MODEL = [1.10, 2.00, 0.95, 3.30, 1.00, 5.50, 0.80, 1.21, 2.40, 0.50, 4.00]
REF = [1.00, 2.10, 1.00, 3.00, 1.00, 5.00, 1.00, 1.10, 2.00, 0.55, 4.40]
WKEY = [7, 7, 3, 3, 3, 11, 5, 5, 5, 5, 9]

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
    for res, seed, level in ((200, 20261201, 0.95), (1000, 42, 0.90)):
        r = boot(MODEL, REF, WKEY, res, seed, level)
        print(res, seed, level)
        for k in ("mape", "bias", "med", "geo"):
            print("  %s (%r, %r)" % (k, r[k][0], r[k][1]))
