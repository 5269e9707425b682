#!/usr/bin/python3
"""The peer for `perfcorr compare`: pandas + scipy computing the same
summaries (docs/statistics.md) from the same perfcorr database: one over
all pairs and one per metric (`by_metric`), as compare -f json does (no
bootstrap intervals).
usage: peer_compare.py DB MODEL_SOURCE REF_SOURCE  (latest run of each)
Prints {"summary": ..., "by_metric": [{"metric_id": ..., ...}]} as JSON."""
import json
import sqlite3
import sys

import numpy as np
import pandas as pd
from scipy import stats

db, msrc, rsrc = sys.argv[1:4]
con = sqlite3.connect(db)
latest = ("SELECT max(r.id) FROM runs r JOIN sources s ON s.id = r.source_id "
          "WHERE s.name = ?")
mrun = con.execute(latest, (msrc,)).fetchone()[0]
rrun = con.execute(latest, (rsrc,)).fetchone()[0]
q = ("SELECT workload_id, op_id, metric_id, value, stddev, flags "
     "FROM results WHERE run_id = ?")
m = pd.read_sql_query(q, con, params=(mrun,))
r = pd.read_sql_query(q, con, params=(rrun,))
p = m.merge(r, on=["workload_id", "op_id", "metric_id"], suffixes=("_m", "_r"))
invalid = ((p.flags_m | p.flags_r) & 1) != 0
noisy = (p.stddev_r / p.value_r) > 0.30
excluded_noisy = int(noisy.sum())
p = p[~invalid & ~noisy]


def summary(p):
    mv, rv = p.value_m.to_numpy(), p.value_r.to_numpy()
    e = (mv - rv) / rv
    ae = np.abs(e)
    lr = np.log(mv / rv)
    sd = p.stddev_r.to_numpy()
    if np.all(sd > 0):
        slope, intercept = np.polyfit(rv, mv, 1, w=1.0 / sd)
    else:
        slope, intercept = np.polyfit(rv, mv, 1)
    mad = np.median(np.abs(e - np.median(e)))
    return {
        "n": int(len(e)),
        "mape": float(ae.mean()), "bias": float(e.mean()),
        "median_abs_err": float(np.median(ae)),
        "p90_abs_err": float(np.percentile(ae, 90)),
        "p95_abs_err": float(np.percentile(ae, 95)),
        "max_abs_err": float(ae.max()),
        "geomean_ratio": float(np.exp(lr.mean())),
        "agg_err": float(np.abs(mv - rv).sum() / rv.sum()),
        "rpd": float(np.mean(2 * np.abs(mv - rv) / (mv + rv))),
        "rmse": float(np.sqrt(np.mean((mv - rv) ** 2))),
        "nrmse": float(np.sqrt(np.mean((mv - rv) ** 2)) / rv.mean()),
        "within_1pct": int((ae <= 0.01).sum()),
        "within_5pct": int((ae <= 0.05).sum()),
        "within_10pct": int((ae <= 0.10).sum()),
        "under": int((e < 0).sum()), "over": int((e > 0).sum()),
        "pearson": float(stats.pearsonr(mv, rv)[0]),
        "pearson_log": float(stats.pearsonr(np.log(mv), np.log(rv))[0]),
        "spearman": float(stats.spearmanr(mv, rv)[0]),
        "kendall_tau_b": float(stats.kendalltau(mv, rv)[0]),
        "fit": {"intercept": float(intercept), "slope": float(slope)},
        "loa_low": float(lr.mean() - 1.96 * lr.std(ddof=1)),
        "loa_high": float(lr.mean() + 1.96 * lr.std(ddof=1)),
        "outliers": int((np.abs(e - np.median(e)) > 3 * 1.4826 * mad).sum()),
    }


out = {"summary": summary(p), "by_metric": []}
out["summary"]["excluded_noisy"] = excluded_noisy
names = dict(con.execute("SELECT id, name FROM metrics").fetchall())
for mid, g in p.groupby("metric_id"):
    s = summary(g)
    s["metric"] = names.get(mid, str(mid))
    out["by_metric"].append(s)
print(json.dumps(out))
