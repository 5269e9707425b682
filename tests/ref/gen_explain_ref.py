#!/usr/bin/env python3
"""Reference values for `perfcorr explain` (tests/cli/explain.sh), computed
independently with numpy/scipy (run offline; output committed):
fixtures/corr/explain-{model,ref}.csv and tests/data/explain_ref.json.
Model: ln(model/ref) = b0 + b1 ln(bs) + op indicators (first level sorted
is the baseline) + noise.
  python3 tests/ref/gen_explain_ref.py   (from the repository root)
"""
import json
import math
import os

import numpy as np
from scipy import stats

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def main():
    rng = np.random.default_rng(7)
    rows = []
    for bs in (1, 2, 4, 8, 16, 32, 64):
        for seq in (128, 1024):
            for op in ("attn", "gemm", "norm"):
                ref = float(rng.uniform(1e-5, 1e-3))
                ln = (0.05 - 0.03 * math.log(bs) +
                      {"attn": 0.0, "gemm": 0.12, "norm": -0.2}[op] +
                      rng.normal(0, 0.02))
                model = float(ref * math.exp(ln))
                rows.append((bs, seq, op, model, ref))
    wl = lambda bs, seq: "x/decode/bs=%d/seq=%d/fp16" % (bs, seq)
    with open(os.path.join(ROOT, "fixtures/corr/explain-model.csv"), "w") as f:
        f.write("workload,op,metric,value,unit\n")
        for bs, seq, op, m, r in rows:
            f.write("%s,%s,time,%r,s\n" % (wl(bs, seq), op, m))
    with open(os.path.join(ROOT, "fixtures/corr/explain-ref.csv"), "w") as f:
        f.write("workload,op,metric,value,unit\n")
        for bs, seq, op, m, r in rows:
            f.write("%s,%s,time,%r,s\n" % (wl(bs, seq), op, r))
    # features op, param.bs (numeric: ln), param.seq (numeric: ln)
    y = np.array([math.log(m / r) for _, _, _, m, r in rows])
    X = np.array([[1.0, op == "gemm", op == "norm", math.log(bs),
                   math.log(seq)] for bs, seq, op, _, _ in rows], float)
    names = ["(intercept)", "op=gemm", "op=norm", "ln param.bs",
             "ln param.seq"]
    n, p = X.shape
    beta, rss, _, _ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ beta
    rss = float(resid @ resid)
    s2 = rss / (n - p)
    cov = s2 * np.linalg.inv(X.T @ X)
    se = np.sqrt(np.diag(cov))
    t = beta / se
    pv = 2 * stats.t.sf(np.abs(t), n - p)
    r2 = 1 - rss / float(((y - y.mean()) ** 2).sum())
    out = {"n": n, "r2": r2, "adj_r2": 1 - (1 - r2) * (n - 1) / (n - p),
           "residual_sd": math.sqrt(s2),
           "terms": [{"term": names[i], "estimate": float(beta[i]),
                      "se": float(se[i]), "t": float(t[i]),
                      "p": float(pv[i])} for i in range(p)]}
    with open(os.path.join(ROOT, "tests/data/explain_ref.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
