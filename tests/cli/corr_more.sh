#!/usr/bin/env bash
# perfcorr trend, diff, explain, and --pool (fixtures/corr/*.csv).
. "$(dirname "$0")/../cli/lib.sh"
C=$FIXTURES/corr
pc init >/dev/null 2>&1
pc import -q -s lab -k silicon -V w47 "$C/lab.csv"
pc import -q -s sim -k perfsim -V 1.0 "$C/sim-1.csv"
pc import -q -s sim -k perfsim -V 2.0 "$C/sim-2.csv"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }

# --- trend: every version in release order
run pc trend --model sim --ref lab --format json
expect_rc 0 "trend"
expect_eq "$(printf '%s' "$out" | j "[(v['version'], v['summary']['n'], round(v['summary']['mape'], 9)) for v in d['versions']]")" \
	"[('1.0', 3, 0.068333333), ('2.0', 3, 0.011666667)]" "trend versions and mape"
run pc trend --model sim --ref lab
expect_in "-5.67 pt" "$out" "trend change column"
run pc trend --model sim@1.0 --ref lab
expect_rc 2 "trend takes no version"

# --- diff over model versions: only the model changed
run pc diff --model sim@1.0..2.0 --ref lab --format json
expect_rc 0 "diff model"
expect_eq "$(printf '%s' "$out" | j "d['common'], d['moved'], d['causes'], d['only_before'], d['only_after']")" \
	"(4, 3, {'model': 3, 'reference': 0, 'both': 0, 'none': 1}, 0, 0)" "diff counts"
expect_eq "$(printf '%s' "$out" | j "[(p['op'], round(p['delta'], 9), p['cause']) for p in d['pairs']]")" \
	"[('attn', -0.225, 'model'), ('gemm', 0.09, 'model'), ('gemm', -0.08, 'model')]" "diff pairs"
expect_eq "$(printf '%s' "$out" | j "round(d['before']['mape'], 9), round(d['after']['mape'], 9)")" "(0.068333333, 0.011666667)" "diff before/after"
run pc diff --model sim@1.0..2.0 --ref lab
expect_in "only the model changed" "$out" "diff verdict (model)"

# --- diff over reference versions: new hardware data, same model
pc import -q -s lab -k silicon -V w48 "$C/lab-w48.csv"
run pc diff --model sim@2.0 --ref lab@w47..w48 --format json
expect_eq "$(printf '%s' "$out" | j "d['causes'], d['ref']['from'], d['ref']['to']")" \
	"({'model': 0, 'reference': 1, 'both': 0, 'none': 3}, 'w47', 'w48')" "diff reference causes"
expect_eq "$(printf '%s' "$out" | j "round(d['mape_model_only'], 9), round(d['mape_ref_only'], 9)")" "(0.011666667, 0.011410256)" "diff split"
run pc diff --model sim@2.0 --ref lab@w47..w48
expect_in "only the reference changed" "$out" "diff verdict (reference)"
run pc diff --model sim --ref lab
expect_rc 2 "diff needs a range"
expect_in "give a range" "$err" "diff range message"
run pc diff --model sim@1.0.. --ref lab
expect_in "bad range 'sim@1.0..'" "$err" "bad range"

# --- pool: two runs of one version, mean and stddev across runs
pc import -q -s lab -k silicon -V w48 "$C/lab-w48b.csv"
run pc compare --model sim@2.0 --ref lab@w48 --format json --points --op gemm --workload '*bs=1*'
expect_eq "$(printf '%s' "$out" | j "[round(p['ref'] * 1e6, 9) for p in d['points']]")" "[100.0]" "latest run wins"
run pc compare --model sim@2.0 --ref lab@w48 --format json --points --op gemm --workload '*bs=1*' --pool
expect_eq "$(printf '%s' "$out" | j "[(round(p['ref'] * 1e6, 9), round(p['ref_stddev'] * 1e6, 9)) for p in d['points']]")" \
	"[(102.0, 2.828427125)]" "pooled mean and stddev"

# --- explain against numpy/scipy reference values (tests/ref/gen_explain_ref.py)
pc import -q -s xm -k perfsim -V 1 "$C/explain-model.csv"
pc import -q -s xr -k silicon -V 1 "$C/explain-ref.csv"
run pc explain --model xm --ref xr --features op,param.bs,param.seq --format json
expect_rc 0 "explain"
cmp=$(printf '%s' "$out" | python3 -c '
import json, sys
got = json.load(sys.stdin)
ref = json.load(open(sys.argv[1]))
def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
bad = [k for k in ("n", "r2", "adj_r2", "residual_sd") if not close(got[k], ref[k])]
if [t["term"] for t in got["terms"]] != [t["term"] for t in ref["terms"]]:
    bad.append("terms")
else:
    for g, r in zip(got["terms"], ref["terms"]):
        # the OLS standard errors are se_ols etc. (issue 19: se, t, p
        # are cluster-robust by workload, checked below)
        bad += ["%s.%s" % (r["term"], k) for k in ("estimate", "se", "t", "p")
                if not close(g[k if k == "estimate" else k + "_ols"], r[k])]
print(",".join(bad) or "ok")
' "$TESTS/data/explain_ref.json")
expect_eq "$cmp" "ok" "explain matches numpy/scipy"
# cluster-robust by workload (CR1) against plain python with exact sums
python3 "$TESTS/ref/explain_cluster_ref.py" "$C/explain-model.csv" "$C/explain-ref.csv" bs seq > cr1.json
cmp=$(printf '%s' "$out" | python3 -c '
import json, sys
got = json.load(sys.stdin)
ref = json.load(open(sys.argv[1]))
def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
bad = [] if got["clusters"] == ref["clusters"] == 14 else ["clusters"]
for g, r in zip(got["terms"], ref["terms"]):
    bad += ["%s.%s" % (r["term"], k) for k in ("se", "t", "p") if not close(g[k], r[k])]
print(",".join(bad) or "ok", got["se_method"])
' cr1.json)
expect_eq "$cmp" "ok cluster-robust by workload (CR1, t with clusters - 1 dof)" "explain: cluster-robust se equal the python reference"
run pc explain --model xm --ref xr --features op,param.bs,param.seq
expect_in "standard errors: cluster-robust by workload" "$out" "explain says so"
# an exact fit (model = 1.2 ref: ln(m/r) constant up to rounding) gives no
# t statistics made of round-off
python3 -c '
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
with open("exact.csv", "w") as f:
    f.write("workload,op,metric,value,unit\n")
    for x in r:
        f.write("%s,%s,%s,%r,%s\n" % (x["workload"], x["op"], x["metric"], float(x["value"]) * 1.2, x["unit"]))
' "$C/explain-ref.csv"
pc import -q -s xe -k perfsim -V 1 exact.csv
run pc explain --model xe --ref xr --features op,param.bs --format json
expect_rc 0 "explain exact fit"
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = d["terms"]
print(d["se_method"], round(t[0]["estimate"], 12), all(x[k] is None for x in t for k in ("se", "t", "p", "se_ols", "t_ols", "p_ols")))
')" "none: exact fit (the residuals are round-off) 0.182321556794 True" "exact fit: no t statistics"
run pc explain --model xm --ref xr
expect_in "dropped: param.phase (constant)" "$out" "constant feature dropped"
# aliased columns (issue 35): op_class is a function of op here, so its
# indicators are left out and named; the fit is the one over op alone
run pc explain --model xm --ref xr --features op --format json
printf '%s\n' "$out" >op.json
run pc explain --model xm --ref xr --features op,op_class --format json
expect_rc 0 "aliased features are dropped, not a refusal ($err)"
printf '%s\n' "$out" >alias.json
expect_eq "$(python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
same = [(x["term"], round(x["estimate"], 12)) for x in a["terms"]] == \
       [(x["term"], round(x["estimate"], 12)) for x in b["terms"]]
print(same, b["r2"] == a["r2"], b["dropped"])
' op.json alias.json)" "True True ['op_class=gemm (aliased: = +1 op=gemm: left out)', 'op_class=norm (aliased: = +1 op=norm: left out)']" \
	"aliased: the op-only fit, the dropped indicators named"
run pc explain --model xm --ref xr --features op,op_class
expect_in "dropped: op_class=gemm (aliased: = +1 op=gemm: left out)" "$out" \
	"the table names the aliased column"
run pc explain --model sim@1.0 --ref lab --features op,param.bs
expect_rc 1 "too few pairs"
expect_in "pairs cannot fit" "$err" "too few pairs message"
finish
