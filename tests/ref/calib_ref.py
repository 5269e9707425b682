#!/usr/bin/env python3
"""Independent reference for calibration and held-out points
(src/corr/corr_calib.c, src/gate/gate_calib.c), plain python3.

usage: calib_ref.py MODEL.csv MARKS.json POLICY.json REF.csv...
The reference runs are numbered from 1 in the order given after the
model's run (the model's run has its own id: MARKS names runs by their
position: "ref:2" is the second REF file). MARKS is a JSON list, oldest
first, of {"state": "calibration"|"held-out", "run": "ref:N" or null,
"workload", "op", "metric": exact or null, "pattern": bool}. Prints

  calibration N MAPE BIAS
  held_out N MAPE BIAS
  rule NAME ALL_MAPE CALIB HELD HELD_MAPE VERDICT

(VERDICT pass, or warn-none when none of a rule's pairs is held out, or
warn-held when its held-out pairs exceed the limit; a rule without
calibration pairs is judged on all alone). Rules: metric, op (fnmatch
glob), max_mape ("4%").
"""
import csv
import fnmatch
import json
import sys


def read(path):
    with open(path) as f:
        return {(r["workload"], r["op"], r["metric"]): float(r["value"])
                for r in csv.DictReader(f)}


def main():
    model = read(sys.argv[1])
    marks = json.load(open(sys.argv[2]))
    policy = json.load(open(sys.argv[3]))
    refs = [read(p) for p in sys.argv[4:]]
    pts = []
    for k, mv in model.items():
        for i, r in enumerate(refs):
            if k in r:
                pts.append((k, mv, r[k], "ref:%d" % (i + 1)))
    cal = []
    for k, mv, rv, run in pts:
        state = "held-out"
        for m in reversed(marks):
            ok = m.get("run") in (None, run)
            for part, val in zip(("workload", "op", "metric"), k):
                want = m.get(part)
                if want is None:
                    continue
                ok &= fnmatch.fnmatchcase(val, want) if m.get("pattern") else val == want
            if ok:
                state = m["state"]
                break
        cal.append(state == "calibration")
    err = [(mv - rv) / rv for _, mv, rv, _ in pts]

    def summ(sel):
        e = [x for x, s in zip(err, sel) if s]
        if not e:
            return 0, float("nan"), float("nan")
        return len(e), sum(abs(x) for x in e) / len(e), sum(e) / len(e)

    n, m, b = summ(cal)
    print("calibration", n, "%.9g" % m, "%.9g" % b)
    n, m, b = summ([not c for c in cal])
    print("held_out", n, "%.9g" % m, "%.9g" % b)
    for rule in policy["rules"]:
        lim = float(rule["max_mape"].rstrip("%")) / 100
        sel = [(rule.get("metric") in (None, k[2])) and
               fnmatch.fnmatchcase(k[1], rule.get("op", "*")) for k, _, _, _ in pts]
        _, allm, _ = summ(sel)
        nc = sum(1 for s, c in zip(sel, cal) if s and c)
        nh, hm, _ = summ([s and not c for s, c in zip(sel, cal)])
        verdict = "fail" if allm > lim + 1e-9 else "pass"
        if verdict == "pass" and nc:
            if nh == 0:
                verdict = "warn-none"
            elif hm > lim + 1e-9:
                verdict = "warn-held"
        print("rule", rule["name"], "%.9g" % allm, nc, nh,
              "%.9g" % hm if nh else "-", verdict)


main()
