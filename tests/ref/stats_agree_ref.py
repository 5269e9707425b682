#!/usr/bin/env python3
"""Independent reference for src/stats_agree.c and Kendall's p (plain
python3, no numpy): every statistic the slow, textbook way, with
fractions.Fraction sums where it matters and a jackknife that refits
every leave-one-out sample from scratch (the C code updates sums).

  - Kendall tau-b and p: O(n^2) pair counting, tie terms by counting,
    normal approximation (scipy.stats.kendalltau method='asymptotic'),
    exact for n <= 50 without ties (Mahonian numbers; method='exact').
  - t quantiles and p-values: a regularised incomplete beta by Lentz's
    continued fraction (Numerical Recipes betacf), quantile by bisection.
  - OLS fit t intervals, Bland-Altman 1999 limit intervals, Lin 1989
    concordance and its z interval, Deming with the jackknife Wald test,
    proportional bias.
Prints the values tests/unit/test_stats_agree.c pastes.
"""
import math
from fractions import Fraction as F
from statistics import NormalDist

LOA_Z = 1.96


def mean(v):
    return float(sum(F(x) for x in v) / len(v))


def betacf(a, b, x):
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1) < 1e-16:
            break
    return h


def betai(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) +
           a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1 - math.exp(lbt) * betacf(b, a, 1 - x) / b


def t_p2(t, dof):
    return betai(dof / 2, 0.5, dof / (dof + t * t))


def t_cdf(t, dof):
    p = 0.5 * t_p2(t, dof)
    return 1 - p if t > 0 else p


def t_q(q, dof):
    lo, hi = 0.0, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, dof) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def kendall(x, y):
    n = len(x)
    s = 0
    for i in range(n):
        for j in range(i + 1, n):
            a = (x[i] > x[j]) - (x[i] < x[j])
            b = (y[i] > y[j]) - (y[i] < y[j])
            s += a * b
    def ties(v):
        cnt = {}
        for e in v:
            cnt[e] = cnt.get(e, 0) + 1
        t = [c for c in cnt.values() if c > 1]
        return (sum(c * (c - 1) // 2 for c in t),
                sum(c * (c - 1) * (c - 2) for c in t),
                sum(c * (c - 1) * (2 * c + 5) for c in t))
    xt, x0, x1 = ties(x)
    yt, y0, y1 = ties(y)
    n0 = n * (n - 1) // 2
    tau = s / math.sqrt((n0 - xt) * (n0 - yt))
    m = n * (n - 1)
    if xt == 0 and yt == 0 and n <= 50:
        # issue 34: exact without ties (scipy method='exact')
        dis = (n0 - s) // 2
        return tau, kendall_p_exact(n, min(dis, n0 - dis))
    var = ((m * (2 * n + 5) - x1 - y1) / 18 + 2 * xt * yt / m +
           x0 * y0 / (9 * m * (n - 2)))
    return tau, math.erfc(abs(s) / math.sqrt(var) / math.sqrt(2))


def kendall_p_exact(n, c):
    """2 P(D <= c), D the inversions of a uniform random permutation of n:
    the Mahonian numbers I(n, k) in exact integers (I(j, k) = sum of
    I(j - 1, k - i), i < j), divided by n!."""
    if 2 * c >= n * (n - 1) // 2:
        return 1.0
    row = [1] + [0] * c
    for j in range(2, n + 1):
        new = []
        for k in range(c + 1):
            new.append(sum(row[k - i] for i in range(min(j, k + 1))))
        row = new
    return min(1.0, float(F(2 * sum(row), math.factorial(n))))


def wls(x, y, w):
    sw = sum(w)
    xb = sum(a * b for a, b in zip(w, x)) / sw
    yb = sum(a * b for a, b in zip(w, y)) / sw
    sxx = sum(a * (b - xb) ** 2 for a, b in zip(w, x))
    sxy = sum(a * (b - xb) * (c - yb) for a, b, c in zip(w, x, y))
    b = sxy / sxx
    a0 = yb - b * xb
    chi2 = sum(wi * (yi - a0 - b * xi) ** 2 for wi, xi, yi in zip(w, x, y))
    return a0, b, chi2, sw, xb, sxx


def wfit_pm(x, y, se):
    """Issue 34's weighted fit y = a + b x: w = 1 / (tau^2 + b^2 se^2),
    tau^2 >= 0 the root of chi^2 = n - 2 (Paule-Mandel), found here by
    plain bisection (the C code: Newton in a bracket); b at each tau^2
    iterated to its fixed point. Returns a, b, r2, se_a, se_b (SEs
    scaled by chi^2 / (n - 2), as docs/statistics.md says)."""
    n = len(x)
    S = max(max(abs(v) for v in x), max(abs(v) for v in y))
    xs = [v / S for v in x]
    ys = [v / S for v in y]
    us = [v / S for v in se]

    def at(t2):
        b = wls(xs, ys, [1.0] * n)[1]
        for _ in range(500):
            w = [1 / (t2 + b * b * u * u) for u in us]
            r = wls(xs, ys, w)
            if abs(r[1] - b) <= 1e-16 * abs(b):
                break
            b = r[1]
        return w, r[2]

    w, c = at(0.0)
    if c > n - 2:
        lo, hi = 0.0, 1e-30
        while at(hi)[1] > n - 2:
            lo, hi = hi, hi * 2
        for _ in range(200):
            mid = (lo + hi) / 2
            if at(mid)[1] > n - 2:
                lo = mid
            else:
                hi = mid
        w = at((lo + hi) / 2)[0]
    a0, b, chi2, sw, xb, sxx = wls(x, y, w)
    yb = sum(a * v for a, v in zip(w, y)) / sw
    r2 = 1 - chi2 / sum(a * (v - yb) ** 2 for a, v in zip(w, y))
    s2 = chi2 / (n - 2)
    return a0, b, r2, math.sqrt(s2 * (1 / sw + xb * xb / sxx)), \
        math.sqrt(s2 / sxx)


def ols(x, y):
    n = len(x)
    mx, my = mean(x), mean(y)
    sxx = sum((a - mx) ** 2 for a in x)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    b = sxy / sxx
    a = my - b * mx
    sse = sum((yy - a - b * xx) ** 2 for xx, yy in zip(x, y))
    s2 = sse / (n - 2)
    return a, b, math.sqrt(s2 * (1 / n + mx * mx / sxx)), math.sqrt(s2 / sxx), sse, sxx


def ccc(x, y):
    n = len(x)
    mx, my = mean(x), mean(y)
    vx = sum((a - mx) ** 2 for a in x) / n
    vy = sum((a - my) ** 2 for a in y) / n
    cxy = sum((a - mx) * (b - my) for a, b in zip(x, y)) / n
    c = 2 * cxy / (vx + vy + (mx - my) ** 2)
    r = cxy / math.sqrt(vx * vy)
    u = (mx - my) / math.sqrt(math.sqrt(vx) * math.sqrt(vy))
    return c, r, u


def lin_ci(x, y, level):
    n = len(x)
    c, r, u = ccc(x, y)
    var = ((1 - r * r) * c * c / ((1 - c * c) * r * r)
           + 2 * c ** 3 * (1 - c) * u * u / (r * (1 - c * c) ** 2)
           - c ** 4 * u ** 4 / (2 * r * r * (1 - c * c) ** 2)) / (n - 2)
    zq = NormalDist().inv_cdf((1 + level) / 2)
    z = math.atanh(c)
    return c, math.tanh(z - zq * math.sqrt(var)), math.tanh(z + zq * math.sqrt(var))


def deming_fit(x, y, lam):
    mx, my = mean(x), mean(y)
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((a - my) ** 2 for a in y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    b = (syy - lam * sxx + math.sqrt((syy - lam * sxx) ** 2 +
                                     4 * lam * sxy * sxy)) / (2 * sxy)
    return my - b * mx, b


def deming(model, ref, sd):
    n = len(ref)
    if sd:
        d = [m - r for m, r in zip(model, ref)]
        md = mean(d)
        vd = sum((e - md) ** 2 for e in d) / (n - 1)
        vx = sum(s * s for s in sd) / n
        lam = max(0.0, vd - vx) / vx
    else:
        lam = 1.0
    a, b = deming_fit(ref, model, lam)
    ja, jb = [], []
    for i in range(n):
        xa, xb = deming_fit(ref[:i] + ref[i + 1:], model[:i] + model[i + 1:], lam)
        ja.append(xa)
        jb.append(xb)
    ma, mb = sum(ja) / n, sum(jb) / n
    k = (n - 1) / n
    caa = k * sum((v - ma) ** 2 for v in ja)
    cbb = k * sum((v - mb) ** 2 for v in jb)
    cab = k * sum((p - ma) * (q - mb) for p, q in zip(ja, jb))
    det = caa * cbb - cab * cab
    da, db = a, b - 1
    w = (da * da * cbb - 2 * da * db * cab + db * db * caa) / det
    p = (1 + w / (n - 2)) ** (-(n - 2) / 2)
    return a, b, lam, p


def prop_bias(model, ref):
    d = [math.log(m) - math.log(r) for m, r in zip(model, ref)]
    a = [(math.log(m) + math.log(r)) / 2 for m, r in zip(model, ref)]
    _, b, _, se, _, _ = ols(a, d)
    return b, t_p2(b / se, len(d) - 2)


def report(name, model, ref, sd, level):
    n = len(ref)
    print(name, "level", level)
    tau, p = kendall(model, ref)
    print("  kendall", repr(tau), repr(p))
    if sd is None:
        a, b, sea, seb, _, _ = ols(ref, model)
        t = t_q((1 + level) / 2, n - 2)
        print("  fit_intercept_ci", repr(a - t * sea), repr(a + t * sea))
        print("  fit_slope_ci", repr(b - t * seb), repr(b + t * seb))
    lr = [math.log(m / r) for m, r in zip(model, ref)]
    md = mean(lr)
    s = math.sqrt(sum((v - md) ** 2 for v in lr) / (n - 1))
    se = s * math.sqrt(1 / n + LOA_Z ** 2 / (2 * (n - 1)))
    t = t_q((1 + level) / 2, n - 1)
    lo, hi = md - LOA_Z * s, md + LOA_Z * s
    print("  loa_low_ci", repr(lo - t * se), repr(lo + t * se))
    print("  loa_high_ci", repr(hi - t * se), repr(hi + t * se))
    print("  ccc", *map(repr, lin_ci(ref, model, level)))
    print("  ccc_log", *map(repr, lin_ci([math.log(v) for v in ref],
                                         [math.log(v) for v in model], level)))
    print("  deming", *map(repr, deming(model, ref, sd)))
    print("  prop_bias", *map(repr, prop_bias(model, ref)))


MODEL = [1.10, 2.00, 0.95, 3.30, 1.00, 5.50, 0.80, 1.21, 2.40, 0.50, 4.00]
REF = [1.00, 2.10, 1.00, 3.00, 1.00, 5.00, 1.00, 1.10, 2.00, 0.55, 4.40]
SD = [0.05, 0.10, 0.02, 0.20, 0.05, 0.30, 0.04, 0.05, 0.10, 0.02, 0.25]

if __name__ == "__main__":
    report("plain", MODEL, REF, None, 0.95)
    report("plain", MODEL, REF, None, 0.90)
    report("sd", MODEL, REF, SD, 0.95)
    # scipy.stats.kendalltau documentation example (ties: asymptotic)
    print("scipy-doc kendall", *map(repr, kendall([12, 2, 1, 12, 2],
                                                  [1, 4, 7, 1, 0])))
