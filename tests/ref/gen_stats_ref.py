#!/usr/bin/env python3
"""Reference values for tests/unit/test_stats.c, computed independently
with numpy/scipy (run offline; its output is committed, never run at test
time). Writes tests/data/stats_<name>.csv (model,ref,ref_sd) and
tests/data/stats_ref.json ({name: {statistic: value or null}}).

Definitions: ../shared/DOMAIN.md and docs/statistics.md.
  python3 tests/ref/gen_stats_ref.py   (from the repository root)
"""
import json
import math
import os

import numpy as np
from scipy import stats

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def datasets():
    rng = np.random.default_rng(20261130)
    d = {}
    # a realistic kernel-time set: ref in seconds, model within +-30%,
    # every ref with a stddev -> weighted fit
    r = rng.lognormal(mean=-9, sigma=1.5, size=40)
    m = r * rng.lognormal(mean=0.05, sigma=0.15, size=40)
    m[3] = r[3] * 1.9                      # an outlier
    sd = r * rng.uniform(0.005, 0.05, size=40)
    d["basic"] = (m, r, sd)
    # no stddev -> ordinary least squares
    r = rng.uniform(10, 1000, size=25)
    m = 0.8 * r + rng.normal(0, 40, size=25) + 30
    d["ols"] = (m, r, None)
    # heavy ties in both series (Spearman, Kendall tau-b, MAD)
    r = np.array([1, 1, 1, 2, 2, 3, 3, 3, 3, 4, 5, 5, 6, 7, 7, 8], float)
    m = np.array([1, 2, 1, 2, 2, 2, 4, 3, 3, 3, 6, 5, 6, 6, 9, 8], float)
    d["ties"] = (m * 1.5, r, None)
    # a negative reference: MAPE undefined, NRMSE still defined
    r = np.array([2.0, -1.0, 3.0, 4.5, 5.0, 7.25])
    m = np.array([2.2, -0.9, 2.7, 4.4, 5.5, 7.0])
    d["negref"] = (m, r, None)
    # a zero reference: relative errors undefined for that pair
    r = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    m = np.array([0.1, 1.1, 1.9, 3.3, 4.0])
    d["zeroref"] = (m, r, None)
    # constant model: correlations and fit undefined
    r = np.array([1.0, 2.0, 3.0, 4.0])
    d["const"] = (np.full(4, 2.5), r, None)
    d["n0"] = (np.array([]), np.array([]), None)
    d["n1"] = (np.array([1.2]), np.array([1.0]), None)
    d["n2"] = (np.array([1.2, 1.9]), np.array([1.0, 2.0]), None)
    # huge and tiny magnitudes (scale must not overflow or underflow)
    r = rng.uniform(1, 10, size=12)
    m = r * rng.uniform(0.8, 1.3, size=12)
    sd = r * 0.02
    d["huge"] = (m * 1e100, r * 1e100, sd * 1e100)
    d["tiny"] = (m * 1e-100, r * 1e-100, sd * 1e-100)
    # exact (model == ref): zero errors, perfect ranking
    r = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    d["exact"] = (r.copy(), r, None)
    # a larger set with repeated values (Kendall's merge-sort path)
    r = np.round(rng.uniform(1, 50, size=500))
    m = np.round(r * rng.uniform(0.7, 1.4, size=500))
    d["large"] = (m, r, None)
    return d


def write_csv(name, m, r, sd):
    path = os.path.join(OUT, "stats_%s.csv" % name)
    with open(path, "w") as f:
        f.write("model,ref,ref_sd\n")
        for i in range(len(m)):
            s = "" if sd is None else repr(float(sd[i]))
            f.write("%r,%r,%s\n" % (float(m[i]), float(r[i]), s))


def num(v):
    v = float(v)
    return v if math.isfinite(v) else None


def pm_weights(x, y, se):
    """Issue 34: w_i = 1 / (tau^2 + b^2 se_i^2), tau^2 >= 0 the root of
    chi^2(tau^2) = n - 2 (Paule-Mandel), b the weighted slope at those
    weights (fixed point); found here by scipy's brentq on tau^2 with the
    slope iterated to convergence at each tau^2 (the C code: Newton)."""
    from scipy.optimize import brentq
    S = max(np.max(np.abs(x)), np.max(np.abs(y)))
    x, y, se = x / S, y / S, se / S
    X = np.column_stack([np.ones_like(x), x])

    def fitw(t2):
        b = np.polyfit(x, y, 1)[0]
        for _ in range(200):
            w = 1.0 / (t2 + b * b * se ** 2)
            A = X.T @ (w[:, None] * X)
            coef = np.linalg.solve(A, X.T @ (w * y))
            if abs(coef[1] - b) <= 1e-15 * abs(b):
                break
            b = coef[1]
        res = y - X @ coef
        return w, np.sum(w * res ** 2)

    n = len(x)
    w0, c0 = fitw(0.0)
    if c0 <= n - 2:
        return w0
    hi = 1e-300
    while fitw(hi)[1] > n - 2:
        hi *= 10
    t2 = brentq(lambda t: fitw(t)[1] - (n - 2), 0.0, hi, xtol=1e-300,
                rtol=1e-15)
    return fitw(t2)[0]


def wfit(x, y, sd):
    """Weighted fit y = a + b x with relative weights pm_weights (covariance
    scaled by the residual variance chi^2 / (n - 2), docs/statistics.md),
    via the normal equations in numpy. gen_wfit_exact.py checks it in
    exact rational arithmetic."""
    w = pm_weights(x, y, sd)
    X = np.column_stack([np.ones_like(x), x])
    A = X.T @ (w[:, None] * X)
    coef = np.linalg.solve(A, X.T @ (w * y))
    res = y - X @ coef
    chisq = np.sum(w * res ** 2)
    cov = np.linalg.inv(A) * chisq / (len(x) - 2)
    yw = np.sum(w * y) / np.sum(w)
    r2 = 1 - chisq / np.sum(w * (y - yw) ** 2)
    return coef[0], coef[1], r2, math.sqrt(cov[0, 0]), math.sqrt(cov[1, 1])


def compute(m, r, sd):
    n = len(m)
    out = {"n": n}
    keys = ["mape", "bias", "median_abs_err", "p90_abs_err", "p95_abs_err",
            "max_abs_err", "geomean_ratio", "agg_err", "rpd", "rmse",
            "nrmse", "pearson", "pearson_log", "spearman", "kendall_tau_b",
            "intercept", "slope", "r2", "se_intercept", "se_slope",
            "loa_low", "loa_high"]
    for k in keys:
        out[k] = None
    for k in ["within_1pct", "within_5pct", "within_10pct", "under", "over",
              "outliers"]:
        out[k] = 0
    out["weighted"] = 0
    if n == 0:
        return out
    ok = r != 0
    # issue 34: the error on |ref| (a negative reference keeps the sign
    # of m - r); no over / under within 1e-12
    e = (m[ok] - r[ok]) / np.abs(r[ok])
    a = np.abs(e)
    out["within_1pct"] = int(np.sum(a <= 0.01))
    out["within_5pct"] = int(np.sum(a <= 0.05))
    out["within_10pct"] = int(np.sum(a <= 0.10))
    out["under"] = int(np.sum(e < -1e-12))
    out["over"] = int(np.sum(e > 1e-12))
    if ok.all():
        if (r > 0).all():
            out["mape"] = num(np.mean(a))
        out["bias"] = num(np.mean(e))
        out["median_abs_err"] = num(np.median(a))
        out["p90_abs_err"] = num(np.percentile(a, 90))
        out["p95_abs_err"] = num(np.percentile(a, 95))
        out["max_abs_err"] = num(np.max(a))
        med = np.median(e)
        mad = np.median(np.abs(e - med))
        # issue 34: MAD 0 -> 1.2533 x mean absolute deviation (modified
        # z-score); never below one point of error
        scale = 1.4826 * mad if mad > 0 else \
            1.2533 * np.mean(np.abs(e - med))
        lim = max(3 * scale, 0.01)
        out["outliers"] = int(np.sum(np.abs(e - med) > lim))
    if ((m > 0) & (r > 0)).all():
        d = np.log(m / r)
        out["geomean_ratio"] = num(math.exp(np.mean(d)))
        if n >= 2:
            s = np.std(d, ddof=1)
            out["loa_low"] = num(np.mean(d) - 1.96 * s)
            out["loa_high"] = num(np.mean(d) + 1.96 * s)
    if np.sum(r) != 0:
        out["agg_err"] = num(np.sum(np.abs(m - r)) / np.sum(r))
    if ((m + r) != 0).all():
        out["rpd"] = num(np.mean(2 * np.abs(m - r) / (m + r)))
    scale = np.max(np.abs(m - r))
    rmse = 0.0 if scale == 0 else scale * math.sqrt(
        np.mean(((m - r) / scale) ** 2))
    out["rmse"] = rmse
    if np.mean(r) != 0:
        out["nrmse"] = num(rmse / np.mean(r))
    const = len(set(m)) == 1 or len(set(r)) == 1
    if n >= 3 and not const:
        sc = lambda v: v / np.max(np.abs(v))   # scipy needs no overflow
        out["pearson"] = num(stats.pearsonr(sc(m), sc(r))[0])
        out["spearman"] = num(stats.spearmanr(m, r)[0])
        out["kendall_tau_b"] = num(stats.kendalltau(m, r, variant="b")[0])
        if ((m > 0) & (r > 0)).all():
            out["pearson_log"] = num(stats.pearsonr(np.log(m),
                                                    np.log(r))[0])
        if sd is not None and (sd > 0).all():
            a0, b1, r2, se0, se1 = wfit(r, m, sd)
            out["weighted"] = 1
        else:
            lr = stats.linregress(r, m)
            a0, b1, r2 = lr.intercept, lr.slope, lr.rvalue ** 2
            se0, se1 = lr.intercept_stderr, lr.stderr
        out.update(intercept=num(a0), slope=num(b1), r2=num(r2),
                   se_intercept=num(se0), se_slope=num(se1))
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    ref = {}
    for name, (m, r, sd) in datasets().items():
        write_csv(name, m, r, sd)
        # recompute from what the CSV holds (repr round-trips exactly)
        ref[name] = compute(np.asarray(m, float), np.asarray(r, float),
                            None if sd is None else np.asarray(sd, float))
    with open(os.path.join(OUT, "stats_ref.json"), "w") as f:
        json.dump(ref, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
