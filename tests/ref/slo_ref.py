#!/usr/bin/env python3
"""Independent reference for verdict agreement (src/corr/corr_slo.c),
plain python3. Reads two perfcorr-csv files (model, reference; units
ms/us/s/tokens/s) and limits METRIC:DIR:VALUE (DIR <= or >=, VALUE in SI)
and prints, by the definitions of docs/statistics.md ("Verdict
agreement"):
  count LIMIT keys both_meet both_miss model_meets model_misses near no_spread
  count all   ...
  flip  workload op metric ref_margin model_margin verdict   (worst first)
  near  workload op metric ref_margin model_margin           (worst first)
A verdict: a time meets its limit when value <= limit, a rate when value
>= limit; margin = (limit - v)/limit or (v - limit)/limit. The reference
is near the limit when |ref - limit| <= its stddev, or (no stddev) min <=
limit <= max; near keys are no confident verdict. Worst first: the
largest |reference margin|."""
import csv
import sys

SCALE = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "tokens/s": 1.0}


def num(s):
    return float(s) if s not in (None, "") else None


def read(path):
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["unit"] not in SCALE:      # no limit judges it here
                continue
            k = SCALE[r["unit"]]
            sd, lo, hi = (num(r.get(c)) for c in ("stddev", "min", "max"))
            out[(r["workload"], r["op"], r["metric"])] = (
                float(r["value"]) * k, sd * k if sd is not None else None,
                lo * k if lo is not None else None,
                hi * k if hi is not None else None)
    return out


def main():
    model, ref = read(sys.argv[1]), read(sys.argv[2])
    limits = []
    for a in sys.argv[3:]:
        m, d, v = a.split(":")
        limits.append((m, d, float(v)))
    cells = ("both_meet", "both_miss", "model_meets", "model_misses", "near")
    total = dict.fromkeys(cells + ("no_spread",), 0)
    flips, nears = [], []
    for m, d, lim in limits:
        c = dict.fromkeys(cells + ("no_spread",), 0)
        for key in sorted(k for k in ref if k in model and k[2] == m):
            mv, (rv, sd, lo, hi) = model[key][0], ref[key]
            if d == "<=":
                mm, rm = (lim - mv) / lim, (lim - rv) / lim
            else:
                mm, rm = (mv - lim) / lim, (rv - lim) / lim
            if sd is not None:
                near = abs(rv - lim) <= sd
            elif lo is not None and hi is not None:
                near = lo <= lim <= hi
            else:
                near = False
                c["no_spread"] += 1
            if near:
                cell = "near"
                nears.append((abs(rm), key, rm, mm))
            elif (mm >= 0) == (rm >= 0):
                cell = "both_meet" if rm >= 0 else "both_miss"
            else:
                cell = "model_meets" if mm >= 0 else "model_misses"
                flips.append((abs(rm), key, rm, mm, cell))
            c[cell] += 1
        for k in c:
            total[k] += c[k]
        print("count", m, sum(c[x] for x in cells), *(c[x] for x in cells),
              c["no_spread"])
    print("count all", sum(total[x] for x in cells),
          *(total[x] for x in cells), total["no_spread"])
    for f in sorted(flips, key=lambda t: (-t[0], t[1])):
        print("flip", *f[1], "%.12g" % f[2], "%.12g" % f[3], f[4])
    for f in sorted(nears, key=lambda t: (-t[0], t[1])):
        print("near", *f[1], "%.12g" % f[2], "%.12g" % f[3])


main()
