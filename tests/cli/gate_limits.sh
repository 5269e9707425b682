# perfcorr gate: every limit on both sides of its threshold, end to end
# (measured values are read back from a dry run, then each limit is set
# just above and just below them).
. "$(dirname "$0")/../cli/lib.sh"
G="$FIXTURES/gate"

pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null
pc import --source archsim --kind perfsim --version 1.0 "$G/model-1.0.csv" \
	2>/dev/null
pc import --source roof --kind roofline --version 1 "$G/roof.csv" 2>/dev/null

run python3 - "$PERFCORR" "$T" <<'PY'
import json, subprocess, sys
exe, tmp = sys.argv[1], sys.argv[2]
fails = []

def gate(rule, model="archsim"):
    rule = dict({"name": "r", "metric": "time", "op": "e2e"}, **rule)
    path = f"{tmp}/p.json"
    with open(path, "w") as f:
        json.dump({"name": "limits", "model": model, "ref": "h100",
                   "rules": [rule]}, f)
    p = subprocess.run([exe, "gate", "--policy", path, "--dry-run",
                        "--format", "json"], capture_output=True, text=True)
    return p.returncode, (json.loads(p.stdout) if p.stdout else None), p.stderr

loose = {"max_mape": 1, "max_abs_err": 1, "max_p95_abs_err": 1,
         "max_bias": 1, "min_pearson": -1, "min_spearman": -1,
         "min_kendall": -1, "slope_range": [0, 100], "max_nrmse": 1}
rc, d, err = gate(loose)
assert rc == 0, (rc, err)
val = {c["limit"]: c["value"] for c in d["rules"][0]["checks"]}
assert abs(val["max_mape"] - 0.05) < 1e-12, val
assert val["min_pairs"] == 4, val
assert val["min_spearman"] < 1 and val["min_kendall"] < 1, val
rc, d, err = gate({"max_sol_violations": 10}, model="roof")
assert rc == 0, (rc, err)
val["max_sol_violations"] = d["rules"][0]["checks"][1]["value"]
assert val["max_sol_violations"] == 2, val

eps = 1e-6
cases = []   # (limit, passing threshold, failing threshold)
for k in ["max_mape", "max_abs_err", "max_p95_abs_err", "max_bias",
          "max_nrmse"]:
    cases.append((k, val[k] + eps, val[k] - eps))
for k in ["min_pearson", "min_spearman", "min_kendall"]:
    cases.append((k, val[k] - eps, val[k] + eps))
s = val["slope_range"]
cases.append(("slope_range", [s - eps, s + eps], [s + eps, s + 1]))
cases.append(("slope_range", [s - eps, s + eps], [s - 1, s - eps]))
cases.append(("min_pairs", 4, 5))
cases.append(("max_sol_violations", 2, 1))

for k, good, bad in cases:
    model = "roof" if k == "max_sol_violations" else "archsim"
    rc, d, err = gate({k: good}, model)
    if rc != 0:
        fails.append(f"{k}={good}: exit {rc}, expected 0 ({err})")
    rc, d, err = gate({k: bad}, model)
    name = "slope" if k == "slope_range" else k
    if rc != 1 or not d or not d["rules"][0]["message"].startswith(name):
        fails.append(f"{k}={bad}: exit {rc}, expected 1 ({err}, {d and d['rules'][0]['message']})")
    # the same failure with severity warn passes the gate with a warning
    rc, d, err = gate({k: bad, "severity": "warn"}, model)
    if rc != 0 or d["verdict"] != "warn":
        fails.append(f"{k}={bad} warn: exit {rc}")
print("\n".join(fails) if fails else f"ok {len(cases)}")
PY
expect_rc 0 "driver ran"
expect_eq "$out" "ok 12" "every limit on both sides"

finish
