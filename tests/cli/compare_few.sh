# Intervals with few workloads (issue 34, docs/statistics.md "How few
# workloads"): the old code printed impossible ones. 5 workloads whose
# MAPE interval reached 0.271 where the largest |error| is 0.2 (the python
# reference of the intervals as computed, tests/ref/stats_ci_ref.py, says
# so below): now cut to [0, max |e|]. 3 of those workloads: every interval
# unknown, with the reason, in JSON, the table, the report (md, html, json)
# and the group rows; 2 workloads of equal error ("CI [4.17%, 4.17%]" on
# the demo): unknown. The release-change test over 3 workloads: trend says
# unknown, and the gate's max_mape_increase with significance is UNKNOWN
# (exit 3), never pass or fail on it, saying how many more would decide.
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }

# tests/unit/test_stats_ci.c's pairs: 5 workloads of 1-4 pairs
cat >"$T/ref.csv" <<'EOF'
workload,op,metric,value,unit
w/a,op1,time,1.00,us
w/a,op2,time,2.10,us
w/b,op1,time,1.00,us
w/b,op2,time,3.00,us
w/b,op3,time,1.00,us
w/c,op1,time,1.00,us
w/c,op2,time,1.10,us
w/c,op3,time,2.00,us
w/c,op4,time,0.55,us
w/d,op1,time,5.00,us
w/e,op2,time,4.40,us
EOF
cat >"$T/m1.csv" <<'EOF'
workload,op,metric,value,unit
w/a,op1,time,1.10,us
w/a,op2,time,2.00,us
w/b,op1,time,0.95,us
w/b,op2,time,3.30,us
w/b,op3,time,1.00,us
w/c,op1,time,0.80,us
w/c,op2,time,1.21,us
w/c,op3,time,2.40,us
w/c,op4,time,0.50,us
w/d,op1,time,5.50,us
w/e,op2,time,4.00,us
EOF
# release 1.1: |error| up by 2 to 9 points on every pair
cat >"$T/m2.csv" <<'EOF'
workload,op,metric,value,unit
w/a,op1,time,1.15,us
w/a,op2,time,1.90,us
w/b,op1,time,0.90,us
w/b,op2,time,3.60,us
w/b,op3,time,1.03,us
w/c,op1,time,0.75,us
w/c,op2,time,1.30,us
w/c,op3,time,2.45,us
w/c,op4,time,0.46,us
w/d,op1,time,5.70,us
w/e,op2,time,3.80,us
EOF
# 2 workloads of one pair each, both 4.17% over
cat >"$T/two-ref.csv" <<'EOF'
workload,op,metric,value,unit
t/a,e2e,time,2.40,us
t/b,e2e,time,4.80,us
EOF
cat >"$T/two-m.csv" <<'EOF'
workload,op,metric,value,unit
t/a,e2e,time,2.50,us
t/b,e2e,time,5.00,us
EOF
pc init >/dev/null
pc import -q -s lab -k silicon -V 1 "$T/ref.csv"
pc import -q -s sim -k perfsim -V 1.0 "$T/m1.csv"
pc import -q -s sim -k perfsim -V 1.1 "$T/m2.csv"
pc import -q -s lab2 -k silicon -V 1 "$T/two-ref.csv"
pc import -q -s sim2 -k perfsim -V 1 "$T/two-m.csv"
# the 3 workloads alone, for the report (which has no --workload)
grep -v '^w/[de],' "$T/ref.csv" >"$T/ref3.csv"
grep -v '^w/[de],' "$T/m1.csv" >"$T/m3.csv"
pc import -q -s lab3 -k silicon -V 1 "$T/ref3.csv"
pc import -q -s sim3 -k perfsim -V 1.0 "$T/m3.csv"
WHY3='only 3 workloads; an interval needs >= 5 (2 more would decide)'

# 5 workloads: cut to the range; the python reference as computed (the old
# code's interval) went past it
run pc compare --model sim@1.0 --ref lab --format json --points
expect_rc 0 "5 workloads"
got=$(printf '%s' "$out" | REF="$TESTS/ref" python3 -c '
import json, os, sys
sys.path.insert(0, os.environ["REF"])
import stats_ci_ref as R
d = json.load(sys.stdin); s = d["summary"]; P = d["points"]
k = sorted({p["workload"] for p in P})
X = ([p["model"] for p in P], [p["ref"] for p in P],
     [k.index(p["workload"]) for p in P])
raw = R.boot(*X, 1000, 20261201, 0.95, [p["op"] for p in P])
print(s["workloads"], s["ci_basis"], s["ci_unknown"], round(s["max_abs_err"], 12))
print("raw above max:", raw["mape"][1] > s["max_abs_err"] + 0.05)
print("cut:", s["mape_ci"][1] == s["max_abs_err"],
      abs(s["mape_ci"][0] - raw["mape"][0]) < 1e-11)
m = s["max_abs_err"]
print("in range:", 0 <= s["median_abs_err_ci"][0] <= s["median_abs_err_ci"][1] <= m,
      -m <= s["bias_ci"][0] <= s["bias_ci"][1] <= m)
')
expect_eq "$got" "5 workload+op None 0.2
raw above max: True
cut: True True
in range: True True" "5 workloads: MAPE's interval cut at max |e| (was 0.271 > 0.2)"

# 3 workloads: unknown, everywhere (as computed, the old code's MAPE
# interval reached 0.66 where the largest |error| is 0.2)
run pc compare --model sim@1.0 --ref lab --workload 'w/[abc]' --format json --points
expect_rc 0 "3 workloads"
expect_eq "$(printf '%s' "$out" | REF="$TESTS/ref" python3 -c '
import json, os, sys
sys.path.insert(0, os.environ["REF"])
import stats_ci_ref as R
d = json.load(sys.stdin); P = d["points"]
k = sorted({p["workload"] for p in P})
raw = R.boot([p["model"] for p in P], [p["ref"] for p in P],
             [k.index(p["workload"]) for p in P], 1000, 20261201, 0.95,
             [p["op"] for p in P])
print(len(k), raw["mape"][1] > 3 * d["summary"]["max_abs_err"])
')" "3 True" "3 workloads: the interval as computed was impossible (MAPE above 3 x max |e|)"
expect_eq "$(printf '%s' "$out" | j "[d['summary'][k] for k in ('workloads', 'mape_ci', 'bias_ci', 'median_abs_err_ci', 'geomean_ratio_ci', 'pearson_ci', 'fit_slope_ci', 'loa_low_ci', 'ccc_ci', 'ci_unknown')]")" \
	"[3, None, None, None, None, None, None, None, None, '$WHY3']" \
	"3 workloads: every interval null, ci_unknown says why"
run pc compare --model sim@1.0 --ref lab --workload 'w/[abc]'
expect_eq "$(printf '%s\n' "$out" | awk '$1 == "mape" || $1 == "pearson" || $1 == "fit.slope" { print $1, $3, $4 }' | tr '\n' ';')" \
	"mape CI unknown;pearson CI unknown;fit.slope CI unknown;" "table: CI unknown"
expect_in "unknown  $WHY3" "$out" "table: the reason"
expect_not_in "CI [" "$out" "table: no interval"
run pc compare --model sim@1.0 --ref lab --workload 'w/[abc]' --group-by op --min-pairs 5
expect_in "few pairs: MAPE CI unknown (3 workloads)" "$out" "group row: unknown"

# the report: md, html, json
run pc report --model sim3 --ref lab3
expect_rc 0 "report md"
expect_in "**Intervals unknown:** ${WHY3/>=/\\>=}." "$out" "md: the reason"
expect_eq "$(printf '%s\n' "$out" | grep '^| MAPE | `mape`' | cut -d'|' -f5 | tr -d ' ')" "unknown" "md: All statistics says unknown"
# html prints no overall interval; a few-pairs row its MAPE's
printf '%s\n' '{"name": "p3", "model": "sim3", "ref": "lab3", "rules": [{"name": "all", "min_pairs": 50}]}' >"$T/p3.json"
run pc report --model sim3 --ref lab3 --format html --policy "$T/p3.json"
expect_in "few pairs: MAPE CI unknown, 3 workloads" "$out" "html: a few-pairs row says unknown"
run pc report --model sim3 --ref lab3 --format json
expect_eq "$(printf '%s' "$out" | j "d['summary']['ci_unknown'], d['summary']['mape_ci']")" "('$WHY3', None)" "report json: the reason"

# 2 workloads of equal error: was CI [4.17%, 4.17%]
run pc compare --model sim2 --ref lab2 --format json
expect_eq "$(printf '%s' "$out" | j "d['summary']['workloads'], d['summary']['mape_ci'], d['summary']['ci_unknown']")" \
	"(2, None, 'only 2 workloads; an interval needs >= 5 (3 more would decide)')" "2 workloads: no zero-width interval"

# the release-change test over 3 workloads: no test, unknown
run pc trend --model sim --ref lab --workload 'w/[abc]' --format json
expect_rc 0 "trend"
expect_eq "$(printf '%s' "$out" | j "[((v['change'] or {}).get('paired') or {}).get('verdict') for v in d['versions']], d['versions'][1]['change']['paired']['delta_ci']")" "([None, 'unknown'], None)" "trend: unknown, no interval"
cat >"$T/p.json" <<'JSON'
{"name": "few", "model": "sim", "ref": "lab", "rules": [
  {"name": "abc", "workload": "w/[abc]", "max_mape": 0.5,
   "max_mape_increase": "0.5%", "significance": 0.05}]}
JSON
run pc gate --policy "$T/p.json" --model sim@1.0
expect_rc 0 "1.0 passes and becomes the baseline"
run pc gate --policy "$T/p.json" --model sim@1.1 --dry-run
expect_rc 3 "1.1 over 3 workloads: unknown (exit 3), not fail"
expect_in "fewer than 5 workloads: too few for an interval" "$out" "gate: why"
expect_in "about 2 more workloads would decide it" "$out" "gate: what would decide"
run pc gate --policy "$T/p.json" --model sim@1.1 --dry-run --format json
expect_rc 3 "json: unknown (exit 3)"
expect_eq "$(printf '%s' "$out" | j "d['rules'][0]['status'], d['rules'][0]['paired']['ci'], d['rules'][0]['paired']['why'][:52], [c['more_workloads'] for c in d['rules'][0]['checks'] if c.get('unknown')]")" \
	"('unknown', [None, None], 'fewer than 5 workloads: too few for an interval that', [2])" "gate json: unknown, no interval, why, more_workloads"
finish
