#!/usr/bin/env bash
# The demo's serving sweep (issue 38, fixtures/demo/README.md "Verdicts
# against limits, and tails"): archsim 2.4.0 against h100-cloud under
# MLPerf's llama3.1-8b-interactive limits: two flips (c=96 TTFT p99 the
# worst), one near-limit key, the tail diverging while the median agrees;
# the counts against tests/ref/slo_ref.py and tail_ref.py over the demo's
# own files; the gate policy fails on the flips; and what the demo showed
# before stays: archsim vs h100-lab pairs 51, the matrix's patterns.
. "$(dirname "$0")/lib.sh"
D=$FIXTURES/demo
cd "$FIXTURES/.."
run bash scripts/demo.sh "$PERFCORR" "$T/demo.db" </dev/null
expect_rc 0 "demo script"
expect_in "pairs: 51" "$out" "archsim vs h100-lab pairs what it did"
export PERFCORR_DB="$T/demo.db"

run pc compare --model archsim --ref h100-cloud --slo mlperf:llama3.1-8b-interactive \
	--format json --no-ci
expect_rc 0 "compare --slo on the demo"
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
s, t = d["slo"], d["tails"]
cells = ("both_meet", "both_miss", "model_meets_ref_misses",
         "model_misses_ref_meets", "near_limit", "no_spread")
for b in s["by_limit"]:
    print("count", b["metric"], b["keys"], *(b[c] for c in cells))
print("count all", s["keys"], *(s[c] for c in cells))
for k in s["flipped"]:
    print("flip", k["workload"], k["op"], k["metric"], "%.12g" % k["ref_margin"],
          "%.12g" % k["model_margin"], "model_meets" if k["model_meets"] else "model_misses")
for k in s["near"]:
    print("near", k["workload"], k["op"], k["metric"], "%.12g" % k["ref_margin"],
          "%.12g" % k["model_margin"])
for p in t["percentiles"]:
    print("pct", p["metric"], p["level"], p["n"], *("%.12g" % p[k] for k in
          ("mape", "bias", "median_abs_err", "max_abs_err")))
for k in sorted(t["worst"], key=lambda k: (k["workload"], k["op"], k["metric"])):
    print("w1", k["workload"], k["op"], k["metric"], "%.12g" % k["w1_log"])')
want=$(python3 "$TESTS/ref/slo_ref.py" "$D/archsim-2.4.0.csv" "$D/h100-cloud.csv" \
	'ttft_p99:<=:0.5' 'tpot_p99:<=:0.03'
	python3 "$TESTS/ref/tail_ref.py" "$D/archsim-2.4.0.csv" "$D/h100-cloud.csv")
expect_eq "$got" "$want" "every verdict, percentile error and W1 equals the references"
expect_in "count all 8 4 1 2 0 1 0" "$want" "8 keys: 4 both meet, 1 both miss, 2 flips, 1 near"
expect_in "flip llama3-8b/max_concurrency=96/num_prompts=200/request_rate=inf/bf16 e2e ttft_p99 -0.28" \
	"$(printf '%s\n' "$want" | grep -m1 '^flip')" "the worst flip: c=96 TTFT p99, silicon 28% over"
expect_in "pct ttft p50 4 0.0157" "$want" "the median of TTFT agrees (1.6%)"
expect_in "pct ttft p99 4 0.1905" "$want" "its p99 does not (19%)"

run pc gate --policy "$D/serving_policy.json" --dry-run
expect_rc 1 "the demo's serving policy fails"
expect_in "FAIL  slo-verdicts  n=8  max_verdict_flips 2 > 0 (and 1 near the limit" "$out" \
	"on the two flips"

# the matrix (who disagrees with whom) is what it was: the sweep's keys have
# two sources, never three
run pc matrix --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = {x["label"]: x["count"] for x in d["patterns"]}
t = [m for m in d["metrics"] if m["metric"] == "time"][0]
print(len(d["sources"]), p.get("agree"), t["metric"], t["common_keys"])')" \
	"5 12 time 17" "5 sources, 12 agree, the time grid on 17 keys"
finish
