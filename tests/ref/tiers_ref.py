#!/usr/bin/env python3
"""Independent reference for perfcorr tiers (src/gate/tiers.c), plain
python3 (no numpy): reads perfcorr-csv files per source, pairs each tier
source with the reference by (workload, op, metric), groups the pairs by
op class (the prefix rules of db/writer_dict.c for the ops the fixtures
use), and prints per class and tier

  row CLASS KIND SOURCE N MAPE BIAS COST_PER_WORKLOAD UNIT STATUS SOL OVER

(MAPE, bias: mean |e| and mean e of e = (model - ref) / ref; SOL, OVER
'-'. A roofline is a bound, not a prediction: MAPE and BIAS '-', STATUS
'bound', SOL the geometric mean of the fraction of speed of light the
reference reaches (roofline / ref for a time, ref / roofline for a rate:
a unit ending in /s), OVER the pairs whose reference beats the roofline
by more than a relative 1e-9; never a candidate for the cheapest. Cost per
workload: the mean over the class's workloads of the cost of the run
(file) that holds it divided by that file's workload count, '-' when a
run has no cost or the units differ; status: fails when MAPE > the
limit, meets when within it, unknown when fewer than MIN pairs), then per
class

  cheapest CLASS STATUS SOURCE BY

(the first tier that meets in the order of cost per workload when every
candidate has one in one unit, else in the ladder order roofline <
perfsim < rtl < emulation < silicon; unknown when a tier before it is
unknown; fails, source '-', when none meets).

usage: tiers_ref.py LIMIT MIN REF_SPEC TIER_SPEC...
  a SPEC is NAME:KIND:FILE[+FILE...] and each FILE may end in
  @COST:UNIT (the run's cost)."""
import csv
import math
import sys

LADDER = ["roofline", "perfsim", "rtl", "emulation", "silicon"]
RATE = {}


def op_class(op):
    for needle, cls in (("gemm", "gemm"), ("attn", "attention"),
                        ("norm", "norm")):
        if needle in op:
            return cls
    return op.split("_")[0]


def read_spec(spec):
    name, kind, files = spec.split(":", 2)
    runs = []
    for f in files.split("+"):
        cost = unit = None
        if "@" in f:
            f, c = f.split("@")
            cost, unit = c.split(":")
            cost = float(cost)
        vals = {}
        with open(f) as fh:
            for r in csv.DictReader(fh):
                vals[(r["workload"], r["op"], r["metric"])] = float(r["value"])
                RATE[r["metric"]] = r.get("unit", "").endswith("/s")
        nwl = len({k[0] for k in vals})
        runs.append((vals, cost, unit, nwl))
    return name, kind, runs


def cost_of(entries):
    """entries: set of (workload, run index, cost, unit, nwl)."""
    if not entries:
        return None, None
    units = {e[3] for e in entries}
    if any(e[2] is None for e in entries) or len(units) != 1:
        return None, None
    return sum(e[2] / e[4] for e in entries) / len(entries), units.pop()


def main():
    limit, need = float(sys.argv[1]), int(sys.argv[2])
    ref = read_spec(sys.argv[3])
    tiers = sorted((read_spec(s) for s in sys.argv[4:]),
                   key=lambda t: (LADDER.index(t[1]), t[0]))
    refval = {}
    for i, (vals, cost, unit, nwl) in enumerate(ref[2]):
        for k, v in vals.items():
            refval[k] = (v, (k[0], i, cost, unit, nwl))
    classes = {}
    for name, kind, runs in tiers:
        for i, (vals, cost, unit, nwl) in enumerate(runs):
            for k, v in vals.items():
                if k not in refval:
                    continue
                r, rentry = refval[k]
                c = classes.setdefault(op_class(k[1]), {})
                cell = c.setdefault(name, {"kind": kind, "err": [],
                                           "cost": set(), "ref": set(),
                                           "sol": [], "over": 0})
                cell["err"].append((v - r) / r)
                rate = RATE[k[2]]
                cell["sol"].append(math.log(r / v if rate else v / r))
                cell["over"] += (r > v * (1 + 1e-9) if rate else
                                 r < v * (1 - 1e-9))
                cell["cost"].add((k[0], i, cost, unit, nwl))
                cell["ref"].add(rentry)
    for cls in sorted(classes):
        cands = []
        for name, kind, runs in tiers:
            cell = classes[cls].get(name)
            if not cell:
                continue
            e = cell["err"]
            mape = sum(abs(x) for x in e) / len(e)
            bias = sum(e) / len(e)
            cost, unit = cost_of(cell["cost"])
            cstr = "-" if cost is None else "%.9g" % cost
            if kind == "roofline":
                sol = math.exp(sum(cell["sol"]) / len(cell["sol"]))
                print("row", cls, kind, name, len(e), "-", "-", cstr,
                      unit or "-", "bound", "%.9g" % sol, cell["over"])
                continue
            status = ("unknown" if len(e) < need else
                      "fails" if mape > limit + 1e-9 else "meets")
            print("row", cls, kind, name, len(e), "%.9g" % mape,
                  "%.9g" % bias, cstr, unit or "-", status, "-", "-")
            cands.append((name, status, cost, unit))
        comparable = (len(cands) > 1 and all(c[2] is not None for c in cands)
                      and len({c[3] for c in cands}) == 1)
        if comparable:
            cands.sort(key=lambda c: c[2])
        verdict, src, undecided = "fails", "-", False
        for name, status, cost, unit in cands:
            if status == "unknown":
                undecided = True
            if status == "meets":
                src = name
                verdict = "unknown" if undecided else "meets"
                break
        else:
            if undecided:
                verdict = "unknown"
        print("cheapest", cls, verdict, src,
              "cost" if comparable else "tier-order")


main()
