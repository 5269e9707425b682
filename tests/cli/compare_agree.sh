#!/usr/bin/env bash
# compare's agreement statistics (issue 19): Kendall's p, the fit's t
# intervals, Bland-Altman limit intervals, Lin's concordance (values and
# logs) with intervals, Deming (lambda from the reference stddev) with the
# joint test, the proportional bias, MAPE with the noisy references kept,
# all equal to tests/ref/stats_agree_ref.py fed with compare's own points;
# the clustered intervals and tests (issue 34: two-way here, 3 ops crossed
# with 12 workloads; and --cluster workload) equal
# tests/ref/stats_jack_ref.py's;
# --min-pairs marks groups "few pairs" in JSON and the table; the CSV has
# the new columns; several metrics null them with the reason.
. "$TESTS/cli/lib.sh"
pc init >/dev/null 2>&1
# 12 workloads x 3 ops; reference stddev 2% (one noisy reference: 50%)
python3 - "$PWD" <<'PY'
import sys, os
d = sys.argv[1]
with open(os.path.join(d, "ref.csv"), "w") as r, open(os.path.join(d, "mod.csv"), "w") as m:
    r.write("workload,op,metric,value,unit,n,stddev\n")
    m.write("workload,op,metric,value,unit\n")
    k = 0
    for w in range(12):
        for op, base in (("gemm", 100.0), ("attn", 37.0), ("norm", 5.0)):
            k += 1
            ref = base * (1 + w) * (1 + 0.05 * ((k * 7) % 5))
            sd = ref * (0.5 if k == 5 else 0.02)
            mod = ref * (1 + 0.03 * (((k * 11) % 9) - 3) / 3)
            r.write("net/bs=%d,%s,time,%r,us,5,%r\n" % (w + 1, op, ref, sd))
            m.write("net/bs=%d,%s,time,%r,us\n" % (w + 1, op, mod))
PY
pc import -q -s lab -k silicon -V 1 ref.csv
pc import -q -s sim -k perfsim -V 1 mod.csv
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }

run pc compare --model sim --ref lab --format json --points
expect_rc 0 "compare json"
got=$(printf '%s' "$out" | REF="$TESTS/ref" python3 -c '
import json, math, os, sys
sys.path.insert(0, os.environ["REF"])
import stats_agree_ref as R
d = json.load(sys.stdin)
s = d["summary"]
P = [p for p in d["points"] if p["ref_stddev"] / p["ref"] <= 0.3]
N = [p for p in d["points"] if p["ref_stddev"] / p["ref"] > 0.3]
assert len(P) == s["n"] == 35 and len(N) == 1 == s["excluded_noisy"]
m = [p["model"] for p in P]; r = [p["ref"] for p in P]; sd = [p["ref_stddev"] for p in P]
bad = []
def near(name, a, b, tol=1e-9):
    if not abs(a - b) <= tol * max(abs(a), abs(b), 1e-300):
        bad.append("%s %r != %r" % (name, a, b))
tau, p = R.kendall(m, r)
near("kendall", s["kendall_tau_b"], tau); near("kendall_p", s["kendall_p"], p)
# issue 34: 12 workloads of 3 pairs, each op in every workload: the
# intervals and the Deming and proportional-bias p are two-way
# jackknife variances (ci_basis); the pair-level references (Lin z,
# Bland-Altman, t, jackknife) are not what is printed: each interval
# holds its estimate and differs from them
assert s["ci_basis"] == "workload+op", s["ci_basis"]
def holds(name, ci, est, pl):
    if not (ci[0] <= est <= ci[1]) or (abs(ci[0] - pl[0]) < 1e-12 and abs(ci[1] - pl[1]) < 1e-12):
        bad.append("%s %r %r %r" % (name, ci, est, pl))
c, lo, hi = R.lin_ci(r, m, 0.95)
near("ccc", s["ccc"], c); holds("ccc", s["ccc_ci"], c, (lo, hi))
lm = [math.log(v) for v in m]; lr = [math.log(v) for v in r]
c, lo, hi = R.lin_ci(lr, lm, 0.95)
near("ccc_log", s["ccc_log"], c); holds("ccc_log", s["ccc_log_ci"], c, (lo, hi))
# the reference error of a mean of 5 repetitions: sd^2 / 5 (issue 34)
a, b, lam, pi = R.deming(m, r, [v / math.sqrt(5) for v in sd])
D = s["deming"]
near("deming a", D["intercept"], a, 1e-7); near("deming b", D["slope"], b)
near("lambda", D["lambda"], lam)
assert 0 < D["p_identity"] < 1 and abs(D["p_identity"] - pi) > 1e-6
assert D["lambda_from"] == "reference stddev", D
b, pb = R.prop_bias(m, r)
near("prop slope", s["prop_bias_slope"], b)
assert 0 < s["prop_bias_p"] < 1 and abs(s["prop_bias_p"] - pb) > 1e-6
n = len(r)
lg = [math.log(x / y) for x, y in zip(m, r)]
md = R.mean(lg); sdv = math.sqrt(sum((v - md) ** 2 for v in lg) / (n - 1))
se = sdv * math.sqrt(1 / n + 1.96 ** 2 / (2 * (n - 1))); t = R.t_q(0.975, n - 1)
holds("loa_low", s["loa_low_ci"], s["loa_low"], (md - 1.96 * sdv - t * se, md - 1.96 * sdv + t * se))
holds("loa_high", s["loa_high_ci"], s["loa_high"], (md + 1.96 * sdv - t * se, md + 1.96 * sdv + t * se))
t2 = R.t_q(0.975, n - 2)
f = s["fit"]
holds("fit slope", s["fit_slope_ci"], f["slope"], (f["slope"] - t2 * f["se_slope"], f["slope"] + t2 * f["se_slope"]))
holds("fit icpt", s["fit_intercept_ci"], f["intercept"], (f["intercept"] - t2 * f["se_intercept"], f["intercept"] + t2 * f["se_intercept"]))
allp = P + N
mwn = sum(abs(p["model"] - p["ref"]) / p["ref"] for p in allp) / len(allp)
near("mape_with_noisy", s["mape_with_noisy"], mwn, 1e-12)
assert s["mape_with_noisy"] != s["mape"]
assert s["few_pairs"] is False
print("ok" if not bad else bad)
')
expect_eq "$got" "ok" "agreement statistics equal the python reference"

# the clustered intervals and p (issue 34) equal tests/ref/stats_jack_ref.py
# on compare's points: two-way (auto) and workloads only
for c in auto workload; do
	run pc compare --model sim --ref lab --format json --points --cluster $c
	got=$(printf '%s' "$out" | REF="$TESTS/ref" python3 -c '
import json, math, os, sys
sys.path.insert(0, os.environ["REF"])
import stats_jack_ref as J
d = json.load(sys.stdin)
s = d["summary"]
P = [p for p in d["points"] if p["ref_stddev"] / p["ref"] <= 0.3]
m = [p["model"] for p in P]; r = [p["ref"] for p in P]
w = [p["workload"] for p in P]; o = [p["op"] for p in P]
two = s["ci_basis"] == "workload+op"
R = J.intervals(m, r, w, o if two else None, 0.95, s["deming"]["lambda"])
bad = []
for k in ("pearson", "pearson_log", "spearman", "ccc", "ccc_log", "loa_low", "loa_high"):
    if not all(abs(a - b) <= 1e-8 for a, b in zip(R[k], s[k + "_ci"])):
        bad.append("%s %r %r" % (k, R[k], s[k + "_ci"]))
for a, b in ((R["prop_p"], s["prop_bias_p"]), (R["deming_p"], s["deming"]["p_identity"])):
    if not abs(a - b) <= 1e-8:
        bad.append("p %r %r" % (a, b))
print(s["ci_basis"], "ok" if not bad else bad)
')
	expect_eq "$got" "$([ $c = auto ] && echo workload+op || echo workload) ok" "--cluster $c: intervals and p equal the jackknife reference"
done

# Spearman's leave-one-out samples are ranked among themselves (issue 34:
# stats_cirank.c): a study whose ranks cross (the one above has Spearman
# 1) and whose references tie, 12 workloads x 3 ops, against the
# reference's re-ranking
python3 - "$PWD" <<'PY'
import sys, os
d = sys.argv[1]
with open(os.path.join(d, "ref2.csv"), "w") as r, open(os.path.join(d, "mod2.csv"), "w") as m:
    for f in (r, m):
        f.write("workload,op,metric,value,unit\n")
    k = 0
    for w in range(12):
        for op, base in (("gemm", 100.0), ("attn", 37.0), ("norm", 5.0)):
            k += 1
            ref = base * (1 + w % 5) * (1 + 0.05 * ((k * 7) % 5))
            mod = round(ref * (1 + 0.35 * (((k * 11) % 9) - 4) / 4 + 0.1 * (w % 3)), 0)
            r.write("net/bs=%d,%s,time,%r,us\n" % (w + 1, op, ref))
            m.write("net/bs=%d,%s,time,%r,us\n" % (w + 1, op, mod))
PY
pc import -q -s lab2 -k silicon -V 1 ref2.csv
pc import -q -s sim2 -k perfsim -V 1 mod2.csv
for c in auto workload; do
	run pc compare --model sim2 --ref lab2 --format json --points --cluster $c
	got=$(printf '%s' "$out" | REF="$TESTS/ref" python3 -c '
import json, os, sys
sys.path.insert(0, os.environ["REF"])
import stats_jack_ref as J
d = json.load(sys.stdin)
s = d["summary"]
P = d["points"]
m = [p["model"] for p in P]; r = [p["ref"] for p in P]
w = [p["workload"] for p in P]; o = [p["op"] for p in P]
two = s["ci_basis"] == "workload+op"
R = J.intervals(m, r, w, o if two else None, 0.95, None)
ok = s["n"] == 36 and s["spearman"] < 0.99 and len(set(r)) < 36 and \
    all(abs(a - b) <= 1e-8 for a, b in zip(R["spearman"], s["spearman_ci"]))
print(s["ci_basis"], "ok" if ok else (s["spearman"], R["spearman"], s["spearman_ci"]))
')
	expect_eq "$got" "$([ $c = auto ] && echo workload+op || echo workload) ok" "--cluster $c: Spearman re-ranked as the reference"
done

# --min-pairs: groups of 12 (attn: 11) pairs with --min-pairs 13 are "few pairs"
run pc compare --model sim --ref lab --format json --group-by op --min-pairs 13
expect_rc 0 "--min-pairs"
expect_eq "$(printf '%s' "$out" | j "[(g['key']['op'], g['n'], g['few_pairs']) for g in d['groups']], d['summary']['few_pairs']")" "([('attn', 11, True), ('gemm', 12, True), ('norm', 12, True)], False)" "few_pairs per group"
run pc compare --model sim --ref lab --group-by op --min-pairs 12
expect_in "attn  11" "$out" "attn has 11 pairs"
expect_eq "$(printf '%s\n' "$out" | grep -c 'few pairs: MAPE CI \[')" "1" "only attn is few pairs, with its interval"
run pc compare --model sim --ref lab --min-pairs 40
expect_in "few pairs" "$out" "summary table marks few pairs"
run pc compare --model sim --ref lab --min-pairs -1
expect_rc 2 "--min-pairs -1 is a usage error"

# the table names where Deming's lambda came from; CSV carries the columns
run pc compare --model sim --ref lab
expect_in "lambda" "$out" "deming lambda shown"
expect_in "from reference stddev" "$out" "lambda source said"
expect_in "joint test of slope 1, intercept 0" "$out" "joint test named"
run pc compare --model sim --ref lab --format csv
expect_in ",kendall_p,ccc,ccc_log,deming_intercept,deming_slope,deming_lambda,deming_p_identity,prop_bias_slope,prop_bias_p,mape_with_noisy,few_pairs" "$out" "csv header"

# --no-ci: the point estimates stay, the intervals go
run pc compare --model sim --ref lab --format json --no-ci
expect_eq "$(printf '%s' "$out" | j "d['summary']['ccc'] is not None, d['summary']['ccc_ci'], d['summary']['fit_slope_ci'], d['summary']['loa_low_ci']")" "(True, None, None, None)" "--no-ci"
finish
