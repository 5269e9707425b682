#!/usr/bin/env python3
"""Independent reference for the clustered intervals of the correlations
and agreement statistics (src/stats/stats_cijack.c, issue 34), pure
python3: every statistic is a weighted textbook formula over the listed
pairs (weights 1; 0 for a left-out cluster), recomputed on each
leave-one-workload-out and leave-one-op-out sample (not from per-cluster
sums of centred series as the C code does); the pairs' residual term from
each pair's influence, the derivative of the statistic in the pair's
weight by central differences (not the gradient in the sums); Student's t
from tests/ref/stats_agree_ref.py (incomplete beta), not GSL.
docs/statistics.md, "What each interval resamples", defines:

  V_w, V_o   delete-one jackknife variances over workloads, ops:
             (G - 1) / G sum (theta_-g - mean)^2, on atanh for a correlation;
             Spearman's leave-one-out samples ranked among themselves
  V_e        (N - 1) / N sum e_i^2, e_i = psi_i - its workload's mean of psi
             - its op's + the mean, psi_i the pair's influence
  one-way    V = V_w, df = G* - 1; two-way V = max(V_w + V_o - V_e, V_w,
             V_o), df the Satterthwaite df of V_w + V_o (at most G + O - 2)
  G*         Kish's effective number of clusters: (sum q)^2 / sum q^2, q a
             cluster's sum of squared centred references (values, logs or
             ranks: the statistic's series) or its pairs (the intercept,
             the limits' parts)
  Deming     its (intercept, slope) covariance: CR2 (each leave-one-out
             deviation shrunk by the square root of one less the cluster's
             leverage on the line through the references) over workloads,
             plus over ops two-way (no V_e taken off); F(2, df), df the
             slope's
Used by tests/cli/compare_agree.sh on compare's own points.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats_agree_ref as A  # noqa: E402

Z = 1.96
LEV_FLOOR = 0.05
CORR = ("pearson", "pearson_log", "spearman", "ccc", "ccc_log")


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def wmom(x, y, w):
    W = sum(w)
    mx = sum(a * b for a, b in zip(w, x)) / W
    my = sum(a * b for a, b in zip(w, y)) / W
    vx = sum(a * (b - mx) ** 2 for a, b in zip(w, x)) / W
    vy = sum(a * (b - my) ** 2 for a, b in zip(w, y)) / W
    c = sum(a * (b - mx) * (d - my) for a, b, d in zip(w, x, y)) / W
    return W, mx, my, vx, vy, c


class Study:
    def __init__(self, model, ref, wkey, okey, lam):
        self.m, self.r, self.lam = model, ref, lam
        self.lm = [math.log(v) for v in model]
        self.lr = [math.log(v) for v in ref]
        self.km, self.kr = ranks(model), ranks(ref)
        self.w, self.o, self.n = wkey, okey, len(model)
        one = [1.0] * self.n
        _, self.mx, self.my, _, _, _ = wmom(ref, model, one)
        self.sx = max(abs(v - self.mx) for v in ref)
        self.sy = max(abs(v - self.my) for v in model)

    def stats(self, w):
        """Every statistic of the pairs with weights w."""
        out = {}
        W, mx, my, vx, vy, c = wmom(self.r, self.m, w)
        out["pearson"] = c / math.sqrt(vx * vy)
        out["ccc"] = 2 * c / (vx + vy + (mx - my) ** 2)
        out["slope"] = c / vx
        out["intercept"] = my - c / vx * mx
        if self.lam is not None:
            a_ = vy - self.lam * vx
            b = (a_ + math.sqrt(a_ * a_ + 4 * self.lam * c * c)) / (2 * c)
            # in the sample's centred, scaled units (as the C code)
            out["dem_b"] = b * self.sx / self.sy
            out["dem_a"] = ((my - self.my) - b * (mx - self.mx)) / self.sy
        _, lx, ly, lvx, lvy, lc = wmom(self.lr, self.lm, w)
        out["pearson_log"] = lc / math.sqrt(lvx * lvy)
        out["ccc_log"] = 2 * lc / (lvx + lvy + (lx - ly) ** 2)
        md = ly - lx
        vd = lvx + lvy - 2 * lc
        out["lmean"] = md
        out["lsd"] = math.log(math.sqrt(vd * W / (W - 1)))
        va = (lvx + lvy + 2 * lc) / 4
        out["prop"] = (lvy - lvx) / 2 / va
        # Spearman: a leave-one-out sample (weights 0) ranked among
        # itself; weights 1 -+ h (the residual term) keep the sample's
        kr, km = self.kr, self.km
        keep = [i for i in range(self.n) if w[i] > 0]
        if len(keep) < self.n:
            kr, km = [0.0] * self.n, [0.0] * self.n
            for i, a, b in zip(keep, ranks([self.r[i] for i in keep]),
                               ranks([self.m[i] for i in keep])):
                kr[i], km[i] = a, b
        _, _, _, rvx, rvy, rc = wmom(kr, km, w)
        out["spearman"] = rc / math.sqrt(rvx * rvy)
        return {k: (math.atanh(v) if k in CORR and abs(v) < 1 else
                    math.copysign(math.inf, v) if k in CORR else v)
                for k, v in out.items()}

    def kish(self, key, what):
        keys = sorted(set(key))
        if what == "count":
            q = [key.count(k) for k in keys]
        else:
            x = {"val": self.r, "log": self.lr, "rank": self.kr}[what]
            m = sum(x) / len(x)
            q = [sum((x[i] - m) ** 2 for i in range(self.n) if key[i] == k)
                 for k in keys]
        return sum(q) ** 2 / sum(v * v for v in q), len(keys)

    def jack(self, key):
        keys = sorted(set(key))
        vals = [self.stats([0.0 if key[i] == k else 1.0
                            for i in range(self.n)]) for k in keys]
        g = len(keys)
        mean = {s: sum(v[s] for v in vals) / g for s in vals[0]}
        var = {s: (g - 1) / g * sum((v[s] - mean[s]) ** 2 for v in vals)
               for s in vals[0]}
        cov = (g - 1) / g * sum((v["dem_a"] - mean["dem_a"]) *
                                (v["dem_b"] - mean["dem_b"])
                                for v in vals) if "dem_a" in vals[0] else 0
        return var, mean, cov, g

    def dem_cr2(self, key):
        """Deming's (intercept, slope) covariance over the clusters of
        key, each leave-one-out deviation d taken to A^1/2 (I - S)^1/2
        A^-1/2 d (CR2), S = A^1/2 X_g'X_g A^1/2, X = (1, centred ref), A
        = (X'X)^-1; (I - S)'s eigenvalues at least LEV_FLOOR. Returns
        (aa, bb, ab)."""
        keys = sorted(set(key))
        vals = [self.stats([0.0 if key[i] == k else 1.0
                            for i in range(self.n)]) for k in keys]
        g = len(keys)
        ma = sum(v["dem_a"] for v in vals) / g
        mb = sum(v["dem_b"] for v in vals) / g
        x = [(v - self.mx) / self.sx for v in self.r]  # u, as (a, b)
        N = float(self.n)
        Sxx = sum(v * v for v in x)
        out = [0.0, 0.0, 0.0]
        for k, v in zip(keys, vals):
            idx = [i for i in range(self.n) if key[i] == k]
            s11 = len(idx) / N
            s12 = sum(x[i] for i in idx) / math.sqrt(N * Sxx)
            s22 = sum(x[i] * x[i] for i in idx) / Sxx
            # (I - S) = Q diag(l) Q', a rotation by theta (Jacobi)
            p, q, r = 1 - s11, -s12, 1 - s22
            th = 0.5 * math.atan2(2 * q, p - r)
            c, s = math.cos(th), math.sin(th)
            l1 = c * c * p + 2 * c * s * q + s * s * r
            l2 = s * s * p - 2 * c * s * q + c * c * r
            r1, r2 = math.sqrt(max(l1, LEV_FLOOR)), math.sqrt(max(l2, LEV_FLOOR))
            R11 = r1 * c * c + r2 * s * s
            R12 = (r1 - r2) * c * s
            R22 = r1 * s * s + r2 * c * c
            da = (v["dem_a"] - ma) * math.sqrt(N)
            db = (v["dem_b"] - mb) * math.sqrt(Sxx)
            ea = (R11 * da + R12 * db) / math.sqrt(N)
            eb = (R12 * da + R22 * db) / math.sqrt(Sxx)
            out[0] += ea * ea
            out[1] += eb * eb
            out[2] += ea * eb
        return [(g - 1) / g * v for v in out]

    def resid(self):
        """V_e of each statistic, and of Deming's (a, b) covariance."""
        h = 1e-5
        psi = []
        for i in range(self.n):
            up = [1.0] * self.n
            dn = [1.0] * self.n
            up[i] += h
            dn[i] -= h
            su, sd = self.stats(up), self.stats(dn)
            psi.append({k: (su[k] - sd[k]) / (2 * h) for k in su})
        ve, eps = {}, {}
        for k in psi[0]:
            p = [x[k] for x in psi]
            mw = {c: sum(p[i] for i in range(self.n) if self.w[i] == c) /
                  self.w.count(c) for c in set(self.w)}
            mo = {c: sum(p[i] for i in range(self.n) if self.o[i] == c) /
                  self.o.count(c) for c in set(self.o)}
            m = sum(p) / self.n
            eps[k] = [p[i] - mw[self.w[i]] - mo[self.o[i]] + m
                      for i in range(self.n)]
            ve[k] = (self.n - 1) / self.n * sum(e * e for e in eps[k])
        ce = (self.n - 1) / self.n * sum(a * b for a, b in
                                         zip(eps["dem_a"], eps["dem_b"])) \
            if "dem_a" in eps else 0
        return ve, ce


KISH = {"pearson": "val", "ccc": "val", "slope": "val", "dem_a": "val",
        "dem_b": "val", "intercept": "count", "pearson_log": "log",
        "ccc_log": "log", "prop": "log", "spearman": "rank",
        "lmean": "count", "lsd": "count"}


def intervals(model, ref, wkey, okey=None, level=0.95, lam=None):
    """The intervals (est lo hi, back on the statistic's scale), and
    Deming's and the proportional bias's p; okey None: one-way."""
    ops = okey if okey is not None else wkey
    st = Study(model, ref, wkey, ops, lam)
    full = st.stats([1.0] * st.n)
    vw, mw, cw, gw_n = st.jack(wkey)
    if okey is not None:
        vo, mo, co, go_n = st.jack(okey)
        ve, ce = st.resid()
    q = (1 + level) / 2
    parts = {}
    for k in full:
        gw, nw = st.kish(wkey, KISH[k])
        dw = max(1.0, min(gw, nw) - 1)
        if okey is None:
            parts[k] = (vw[k], dw)
            continue
        go, no = st.kish(okey, KISH[k])
        do = max(1.0, min(go, no) - 1)
        v = max(vw[k] + vo[k] - ve[k], vw[k], vo[k])
        s = vw[k] + vo[k]
        df = s * s / (vw[k] ** 2 / dw + vo[k] ** 2 / do)
        parts[k] = (v, max(1.0, min(df, nw + no - 2)))
    out = {}
    for k in ("pearson", "pearson_log", "spearman", "ccc", "ccc_log",
              "slope", "intercept"):
        v, df = parts[k]
        c = full[k]
        if math.isinf(c):               # |r| = 1: [r, r]
            out[k] = (math.tanh(c), math.tanh(c))
            continue
        if k in ("pearson_log", "ccc_log"):   # jackknife bias-corrected
            c = full[k] - (gw_n - 1) * (mw[k] - full[k])
            if okey is not None:
                c -= (go_n - 1) * (mo[k] - full[k])
        h = A.t_q(q, df) * math.sqrt(v)
        lo, hi = c - h, c + h
        if k in CORR:
            lo, hi = math.tanh(lo), math.tanh(hi)
        out[k] = (lo, hi)
    # the limits: MOVER around the bias-corrected sd
    vm, dm = parts["lmean"]
    vl, dl = parts["lsd"]
    n = st.n
    sd = math.exp(full["lsd"])
    sc = math.sqrt(sd * sd * (n - 1) / n + vm)
    am = A.t_q(q, dm) ** 2 * vm
    slo = sc * math.exp(-A.t_q(q, dl) * math.sqrt(vl))
    shi = sc * math.exp(A.t_q(q, dl) * math.sqrt(vl))
    c = Z * (sc - sd)
    high, low = full["lmean"] + Z * sd, full["lmean"] - Z * sd
    out["loa_high"] = (high + c - math.sqrt(am + (Z * (sc - slo)) ** 2),
                       high + c + math.sqrt(am + (Z * (shi - sc)) ** 2))
    out["loa_low"] = (low - c - math.sqrt(am + (Z * (shi - sc)) ** 2),
                      low - c + math.sqrt(am + (Z * (sc - slo)) ** 2))
    v, df = parts["prop"]
    out["prop_p"] = A.t_p2(full["prop"] / math.sqrt(v), df)
    if lam is not None:
        cw = st.dem_cr2(wkey)
        _, nw = st.kish(wkey, "val")
        gw, _ = st.kish(wkey, "val")
        dw = max(1.0, min(gw, nw) - 1)
        caa, cbb, cxy = cw
        df = dw
        if okey is not None:
            co = st.dem_cr2(okey)
            go, no = st.kish(okey, "val")
            do = max(1.0, min(go, no) - 1)
            s_ = cw[1] + co[1]
            df = s_ * s_ / (cw[1] ** 2 / dw + co[1] ** 2 / do)
            df = max(1.0, min(df, nw + no - 2))
            caa, cbb, cxy = cw[0] + co[0], cw[1] + co[1], cw[2] + co[2]
        da = full["dem_a"] - (st.mx - st.my) / st.sy
        db = full["dem_b"] - st.sx / st.sy
        det = caa * cbb - cxy * cxy
        w = (da * da * cbb - 2 * da * db * cxy + db * db * caa) / det
        out["deming_p"] = (1 + w / df) ** (-df / 2)
    return out
