#!/usr/bin/env bash
# perfcorr compare: pairing, JSON contract, noise, speed of light, clocks,
# nothing-matched error. Fixtures: fixtures/corr/*.csv (values in us).
. "$(dirname "$0")/../cli/lib.sh"
C=$FIXTURES/corr
pc init >/dev/null 2>&1
pc import -q -s lab -k silicon -V w47 "$C/lab.csv"
pc import -q -s sim -k perfsim -V 1.0 "$C/sim-1.csv"
pc import -q -s sim -k perfsim -V 2.0 "$C/sim-2.csv"
pc import -q -s roof -k roofline -V 1 "$C/roof.csv"
pc import -q -s rtl -k rtl -V r1 "$C/rtl.csv"

# json field access: jq-like helper on stdin
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }

# --- the JSON contract, exactly these keys
run pc compare --model sim@1.0 --ref lab --format json --points --group-by op
expect_rc 0 "compare json"
keys=$(printf '%s' "$out" | j "','.join(d.keys())")
# every key of the contract in its order; additions (issue 15) after
expect_eq "$keys" "model,ref,ci,summary,groups,superseded,speed_of_light,discrepancies,not_comparable,unverified,allow_mismatch,mismatch_admitted,by_metric,points" "top-level keys (speed_of_light and discrepancies by issue 35; ci added by issue 19, not_comparable, unverified, allow_mismatch, mismatch_admitted by issue 37)"
keys=$(printf '%s' "$out" | j "','.join(d['summary'].keys())")
expect_eq "$keys" "n,mape,mape_ci,bias,bias_ci,median_abs_err,median_abs_err_ci,p90_abs_err,p95_abs_err,max_abs_err,geomean_ratio,geomean_ratio_ci,agg_err,rpd,rmse,nrmse,within_1pct,within_5pct,within_10pct,under,over,pearson,pearson_ci,pearson_log,pearson_log_ci,spearman,spearman_ci,kendall_tau_b,fit,loa_low,loa_high,outliers,excluded_noisy,sol_violations,excluded_zero_ref,optimistic,pessimistic,efficiency,workloads,kendall_p,fit_intercept_ci,fit_slope_ci,loa_low_ci,loa_high_ci,ccc,ccc_ci,ccc_log,ccc_log_ci,deming,prop_bias_slope,prop_bias_p,mape_with_noisy,few_pairs,ci_basis,ci_unknown,why" "summary keys (the *_ci, workloads and the keys after it added by issue 19; ci_unknown by issue 34)"
keys=$(printf '%s' "$out" | j "','.join(d['summary']['fit'].keys())")
expect_eq "$keys" "intercept,slope,r2,se_intercept,se_slope,weighted" "fit keys"
keys=$(printf '%s' "$out" | j "','.join(d['points'][0].keys())")
expect_eq "$keys" "workload,op,metric,model,ref,err,ref_stddev,within_noise,sol_violation,annotation" "point keys"
keys=$(printf '%s' "$out" | j "','.join(d['model'].keys())")
expect_eq "$keys" "source,version,kind" "side keys"
expect_eq "$(printf '%s' "$out" | j "d['model']['version'],d['ref']['kind']")" "('1.0', 'silicon')" "sides"

# --- numbers: 3 pairs in statistics (+10%, +0.5%, -10%), one noisy ref
expect_eq "$(printf '%s' "$out" | j "d['summary']['n'], d['summary']['excluded_noisy']")" "(3, 1)" "n and excluded_noisy"
expect_eq "$(printf '%s' "$out" | j "round(d['summary']['mape'], 12)")" "0.068333333333" "mape"
expect_eq "$(printf '%s' "$out" | j "round(d['summary']['bias'], 12)")" "0.001666666667" "bias"
expect_eq "$(printf '%s' "$out" | j "[d['summary'][k] for k in ('within_1pct','within_5pct','within_10pct','under','over')]")" "[1, 1, 3, 1, 2]" "counts"
# fewer than 3 pairs in a group: correlation is null, not NaN
expect_eq "$(printf '%s' "$out" | j "[(g['key']['op'], g['n'], g['pearson']) for g in d['groups']]")" "[('attn', 1, None), ('gemm', 2, None)]" "groups"
expect_not_in "NaN" "$out" "no NaN in json"
expect_not_in "nan" "$out" "no nan in json"
# points: sorted by |err|, within_noise and the noisy reference
expect_eq "$(printf '%s' "$out" | j "[(p['op'], round(p['err'],6), p['within_noise']) for p in d['points']]")" "[('attn', 0.25, True), ('gemm', 0.1, False), ('gemm', -0.1, False), ('attn', 0.005, True)]" "points"
expect_eq "$(printf '%s' "$out" | j "d['points'][3]['ref_stddev'], d['points'][3]['annotation']")" "(2e-06, None)" "point stddev in SI, no annotation"

# --- latest version by default; --max-ref-cv brings the noisy ref back
run pc compare --model sim --ref lab --format json
expect_eq "$(printf '%s' "$out" | j "d['model']['version'], d['summary']['n']")" "('2.0', 3)" "latest version"
run pc compare --model sim@1.0 --ref lab --format json --max-ref-cv 0.6
expect_eq "$(printf '%s' "$out" | j "d['summary']['n'], d['summary']['excluded_noisy']")" "(4, 0)" "max-ref-cv"

# --- filters
run pc compare --model sim@1.0 --ref lab --format json --op 'g*' --where param.bs=8
expect_eq "$(printf '%s' "$out" | j "d['summary']['n'], round(d['summary']['bias'], 9)")" "(1, -0.1)" "op glob and where"
run pc compare --model sim@1.0 --ref lab --format json --workload '*bs=1*'
expect_eq "$(printf '%s' "$out" | j "d['summary']['n']")" "2" "workload glob"

# --- table: undefined with reasons; csv: one row per group and one for all
run pc compare --model sim@1.0 --ref lab --group-by op
expect_rc 0 "table"
expect_in "undefined: fewer than 3 pairs" "$out" "table reason"
expect_in "sim@1.0 (perfsim, run 2)" "$out" "provenance"
run pc compare --model sim@1.0 --ref lab --group-by op --format csv
expect_eq "$(printf '%s\n' "$out" | wc -l)" "4" "csv rows"
expect_in "scope,op,n,mape," "$out" "csv header"
expect_eq "$(printf '%s\n' "$out" | sed -n 3p | cut -d, -f1-3)" "group,attn,1" "csv group row"

# --- speed of light: roofline above measured
run pc compare --model roof --ref lab --format json --points
expect_eq "$(printf '%s' "$out" | j "d['summary']['sol_violations'], [p['op'] for p in d['points'] if p['sol_violation']]")" "(1, ['attn'])" "sol violation"
run pc compare --model roof --ref lab
expect_in "efficiency" "$out" "roofline efficiency line"

# --- cycles vs time: an absent clock names the run, a clock converts
run pc compare --model rtl --ref lab
expect_rc 1 "missing clock"
expect_in "run 5 ('rtl.csv') of source 'rtl' has no clock" "$err" "missing clock message"
pc import -q -s rtl2 -k rtl -V r1 --clock-mhz 1500 "$C/rtl.csv"
run pc compare --model rtl2 --ref lab --format json --points
expect_rc 0 "clock"
expect_eq "$(printf '%s' "$out" | j "sorted((p['metric'], round(p['err'], 9) + 0.0) for p in d['points'])")" "[('time', 0.0), ('time', 0.1)]" "cycles -> time"

# --- nothing matched: exit 1, says what exists on each side
run pc compare --model sim@1.0 --ref lab --op nothing
expect_rc 1 "nothing matched"
expect_in "nothing matched: model 'sim@1.0' has 5 results: 2 workloads, 3 ops, metrics 'time'" "$err" "model side described"
expect_in "reference 'lab@w47' has 5 results: 2 workloads, 3 ops" "$err" "ref side described"
expect_in "after the --metric/--op/--workload/--where filters" "$err" "filters named"
expect_eq "$out" "" "nothing on stdout"
run pc compare --model sim@9 --ref lab
expect_rc 1 "unknown version"
expect_in "source 'sim' has no version '9' (versions: '1.0', '2.0')" "$err" "versions listed"
run pc compare --model nope --ref lab
expect_in "no source named 'nope'" "$err" "unknown source"
run pc compare --model sim
expect_rc 2 "usage"
run pc compare --model sim --ref lab --group-by bogus
expect_rc 1 "bad group key"
expect_in "unknown group key 'bogus'" "$err" "bad group key message"
run pc compare --model sim --ref lab --where bs
expect_in "bad --where 'bs'" "$err" "bad where"
# --- annotations: the current one is attached; accepted = waived
pcsql "INSERT INTO annotations (workload, op, metric, status, category, note, author, created_at) VALUES
	('m/decode/bs=1/fp16', 'gemm', 'time', 'open', 'unknown', 'first look', 't', '2026-01-01T00:00:00Z'),
	('m/decode/bs=1/fp16', 'gemm', 'time', 'accepted', 'abstraction-error', 'no L2 model', 't', '2026-01-02T00:00:00Z'),
	('m/*', 'attn', NULL, 'investigating', 'unknown', 'pattern', 't', '2026-01-03T00:00:00Z');
UPDATE annotations SET is_pattern = 1 WHERE workload = 'm/*';"
run pc compare --model sim@1.0 --ref lab --format json --points
expect_eq "$(printf '%s' "$out" | j "sorted((p['op'], p['workload'][9:13], p['annotation'] and (p['annotation']['status'], p['annotation']['waived'])) for p in d['points'])")" \
	"[('attn', 'bs=1', ('investigating', False)), ('attn', 'bs=8', ('investigating', False)), ('gemm', 'bs=1', ('accepted', True)), ('gemm', 'bs=8', None)]" "annotations attached"
run pc compare --model sim@1.0 --ref lab --format json --skip-waived
expect_eq "$(printf '%s' "$out" | j "d['summary']['n']")" "2" "skip-waived"
run pc compare --model sim@1.0 --ref lab --points
expect_in "accepted/abstraction-error: no L2 model" "$out" "annotation in table"
expect_in "waived" "$out" "waived flag in table"

# --- --metric selects the reference's metric; cycles pair as time
run pc compare --model rtl2 --ref lab --format json --metric time
expect_eq "$(printf '%s' "$out" | j "d['summary']['n']")" "2" "metric time pairs cycles"
run pc compare --model rtl2 --ref lab --metric cycles
expect_rc 1 "metric cycles: nothing"
run pc compare --model rtl2 --ref lab --metric nosuch
expect_in "no metric named 'nosuch'" "$err" "unknown metric"
finish
