# Independent reference for tests/unit/test_stats_cpd.c (pure python3, no
# numpy): E-Divisive with means and its permutation test written from the
# definitions of src/stats_cpd.h (Matteson & James 2014), every Q summed
# afresh from the distance definition (no running sums), with the same
# documented generator and shuffle. Run: python3 tests/ref/stats_cpd_ref.py
import math

M = (1 << 64) - 1


def sm(st):
    st = (st + 0x9e3779b97f4a7c15) & M
    z = st
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return st, z ^ (z >> 31)


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)) / len(a))


def q(obs, tau):
    L, R = obs[:tau], obs[tau:]
    m1, m2 = len(L), len(R)
    between = sum(dist(x, y) for x in L for y in R)
    wl = sum(dist(L[i], L[j]) for i in range(m1) for j in range(i + 1, m1))
    wr = sum(dist(R[i], R[j]) for i in range(m2) for j in range(i + 1, m2))
    e = 2 * between / (m1 * m2)
    if m1 > 1:
        e -= wl / (m1 * (m1 - 1) / 2)
    if m2 > 1:
        e -= wr / (m2 * (m2 - 1) / 2)
    return m1 * m2 / (m1 + m2) * e


def qk(obs, tau, mn):
    # the largest over the right part's end kappa
    return max(q(obs[:k], tau) for k in range(tau + mn, len(obs) + 1))


def best(obs, mn):
    b, at = -math.inf, None
    for tau in range(mn, len(obs) - mn + 1):
        v = qk(obs, tau, mn)
        if v > b:
            b, at = v, tau
    return at, b


class Rng:
    def __init__(self, seed):
        self.st = seed

    def shuffle(self, v):
        for i in range(len(v) - 1, 0, -1):
            self.st, x = sm(self.st)
            u = (x >> 11) * 2.0 ** -53
            j = min(int(u * (i + 1)), i)
            v[i], v[j] = v[j], v[i]


def edivisive(x, alpha=0.05, perms=199, seed=20261204, mn=2):
    rng = Rng(seed)
    bounds = [0, len(x)]
    found = []
    stop = None
    while True:
        cand = None
        for s in range(len(bounds) - 1):
            a, b = bounds[s], bounds[s + 1]
            if b - a < 2 * mn:
                continue
            t, v = best(x[a:b], mn)
            if cand is None or v > cand[1]:
                cand = (a + t, v, s)
        if cand is None:
            break
        at, obs, s = cand
        a, b = bounds[s], bounds[s + 1]
        hits = 0
        for r in range(perms):
            idx = list(range(a, b))
            rng.shuffle(idx)
            _, v = best([x[i] for i in idx], mn)
            if v >= obs - 1e-9 * abs(obs):
                hits += 1
        p = (1 + hits) / (perms + 1)
        if not p <= alpha:
            stop = (at, obs, p)
            break
        found.append((at, obs, p))
        bounds.insert(s + 1, at)
        bounds.sort()
    return sorted(found), stop


def lcg(seed):
    # a fixed, documented pseudo-noise for the cases (not the tested rng)
    st = seed
    while True:
        st = (st * 6364136223846793005 + 1442695040888963407) & M
        yield ((st >> 11) * 2.0 ** -53) - 0.5


def series(vals):
    return [[v] for v in vals]


if __name__ == "__main__":
    step = [0, 0, 0, 0, 1, 1, 1, 1]
    print("step8 q", [round(qk(series(step), t, 2), 15) for t in range(2, 7)])
    g = lcg(7)
    noisy = [next(g) * 0.2 + (1.0 if i >= 7 else 0.0) for i in range(12)]
    print("noisy12", [repr(v) for v in noisy])
    print("noisy12 q", [repr(qk(series(noisy), t, 2)) for t in range(2, 11)])
    print("noisy12 ediv", edivisive(series(noisy)))
    g = lcg(11)
    two = [next(g) * 0.3 + (2.0 if 5 <= i < 11 else 0.0) for i in range(16)]
    print("two16", [repr(v) for v in two])
    print("two16 ediv", edivisive(series(two)))
    g = lcg(3)
    flat = [next(g) for i in range(10)]
    print("flat10", [repr(v) for v in flat])
    print("flat10 ediv", edivisive(series(flat)))
    vec = [[next(g) * 0.1 + (0.5 if i >= 4 and k == 1 else 0.0)
            for k in range(3)] for i in range(9)]
    print("vec9", [[repr(v) for v in row] for row in vec])
    print("vec9 ediv", edivisive(vec))
