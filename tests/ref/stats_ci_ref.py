#!/usr/bin/env python3
"""Independent reference for src/stats_ci.c (pure python3, no numpy).

The workload bootstrap re-implemented from its documented definition
(docs/statistics.md, "Confidence intervals"), the slow way: each resample
is built as an explicit list of pairs (every pair of each drawn workload,
once per draw) and the statistics are computed from that list with the
textbook formulas (statistics.median, mean, exp of mean log), not from
per-workload sums or a weighted walk as the C code does. Workloads are
numbered by ascending key; draws are splitmix64 as in stats_paired.h.
Prints the intervals the unit test tests/unit/test_stats_ci.c pastes.
"""
import math
import statistics

MASK = (1 << 64) - 1


class SplitMix:
    def __init__(self, seed):
        self.s = seed & MASK

    def next(self):
        self.s = (self.s + 0x9e3779b97f4a7c15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK
        return z ^ (z >> 31)

    def draw(self, n):
        u = (self.next() >> 11) * 2.0 ** -53
        return min(int(u * n), n - 1)


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
    rng = SplitMix(seed)
    out = {"mape": [], "bias": [], "geo": [], "med": []}
    for _ in range(resamples):
        pairs = []
        for _ in range(len(keys)):
            pairs += groups[rng.draw(len(keys))]
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

if __name__ == "__main__":
    for res, seed, level in ((200, 20261201, 0.95), (1000, 42, 0.90)):
        r = boot(MODEL, REF, WKEY, res, seed, level)
        print(res, seed, level)
        for k in ("mape", "bias", "med", "geo"):
            print("  %s (%r, %r)" % (k, r[k][0], r[k][1]))
