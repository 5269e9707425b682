#!/bin/bash
# gate rule max_verdict_flips (issue 38 item 1): the keys of a rule's own
# points whose verdict against the policy's slo flips, against its limit;
# near-limit keys are no confident flip: within the limit only if they
# all could flip and it still holds, else unknown (rule 2); a rule whose
# points hold no limited metric is n/a and fails; the slo block's forms
# and refusals. The counts equal tests/ref/slo_ref.py's.
. "$(dirname "$0")/../cli/lib.sh"
S=$FIXTURES/slo

pc import -q -s servesim -k perfsim "$S/model.csv"
pc import -q -s lab -k silicon "$S/silicon.csv"
want=$(python3 "$TESTS/ref/slo_ref.py" "$S/model.csv" "$S/silicon.csv" \
	'ttft_p99:<=:2' 'tpot_p99:<=:0.2')

run pc gate --policy "$S/policy.json" --dry-run
expect_rc 1 "a failing rule fails the gate"
expect_in "FAIL  no-flips          n=14  max_verdict_flips 3 > 0 (and 1 near the limit, within the reference's spread: not counted)" \
	"$out" "3 flips > 0; the near key not counted"
expect_in "UNKNOWN  ttft-one-flip     n=7  max_verdict_flips 1 <= 1 (and 1 near the limit, within the reference's spread: with them it could be over: unknown)" \
	"$out" "1 flip within 1, but the near key could be a second: unknown"
expect_in "PASS  few-flips         n=14  min_pairs 14 >= 1; max_verdict_flips 3 <= 5 (and 1 near the limit, within the reference's spread: within it even if they all flip)" \
	"$out" "3 + 1 near within 5: a pass"
expect_in "WARN  throughput-flips  n=0  min_pairs 0 < 1; max_verdict_flips n/a (no pair of the rule's has a metric the policy's slo limits), limit 0" \
	"$out" "no limited metric among the rule's pairs: n/a (warn severity)"
expect_in "  verdicts of 'no-flips' against the slo (14 keys: 9 both meet, 1 both miss, 3 flips, 1 near the limit):" \
	"$out" "the verdict counts"
expect_in "    model meets, reference misses  llama2-70b/concurrency=64/fp8 e2e tpot_p99: model 200 ms (+0.0% of the limit), reference 260 ms (-30.0%)" \
	"$out" "the worst flip first"
expect_in "    near the limit, model meets    llama2-70b/concurrency=16/fp8 e2e ttft_p99" "$out" "the near key"
expect_in "  worst points of 'no-flips':
    llama2-70b/concurrency=64/fp8 e2e tpot_p99" "$out" "a verdict rule's offenders are its flips"

run pc gate --policy "$S/policy.json" --dry-run --format json
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = {x["name"]: x for x in d["rules"]}
v = r["no-flips"]["verdicts"]
print("count all", v["keys"], v["both_meet"], v["both_miss"], v["model_meets_ref_misses"],
      v["model_misses_ref_meets"], v["near_limit"], v["no_spread"])
for k in v["flipped"]:
    print("flip", k["workload"], k["op"], k["metric"], "%.12g" % k["ref_margin"])
print([(n, r[n]["status"]) for n in r])
c = [c for c in r["ttft-one-flip"]["checks"] if c["limit"] == "max_verdict_flips"][0]
print(c["value"], c["unknown"], r["throughput-flips"]["verdicts"])')
expect_eq "$(printf '%s\n' "$got" | head -4)" \
	"$(printf '%s\n' "$want" | grep '^count all'; printf '%s\n' "$want" | grep '^flip' | cut -d' ' -f1-5)" \
	"the JSON counts and flips equal the reference's"
expect_in "[('no-flips', 'fail'), ('ttft-one-flip', 'unknown'), ('few-flips', 'pass'), ('throughput-flips', 'warn')]" \
	"$got" "statuses"
expect_in "1 True None" "$got" "the unknown check; verdicts null without a limited metric"

run pc gate --policy "$S/policy.json" --dry-run --junit - -o /dev/null
expect_in "verdicts of &apos;no-flips&apos; against the slo (14 keys" "$out" "JUnit body lists the verdicts"

# the policy's "unknown": counted as fail
sed 's/"slo": "mlperf:llama2-70b",/"slo": "mlperf:llama2-70b", "unknown": "fail",/' \
	"$S/policy.json" >"$T/ufail.json"
run pc gate --policy "$T/ufail.json" --dry-run
expect_in "FAIL  ttft-one-flip" "$out" "unknown counted as fail"

# the object form, and a metric these pairs do not have
cat >"$T/obj.json" <<'J'
{"name": "o", "model": "servesim", "ref": "lab",
 "slo": {"ttft_p99": "2.5s", "output_throughput": ">=1500tokens/s"},
 "rules": [{"name": "r", "max_verdict_flips": 0}]}
J
run pc gate --policy "$T/obj.json" --dry-run --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; v = json.load(sys.stdin)["rules"][0]["verdicts"]
print(v["keys"], v["model_meets_ref_misses"] + v["model_misses_ref_meets"], v["near_limit"])')" \
	"14 0 1" "object form: ttft_p99 <= 2.5 s and a throughput floor (one near by min..max)"
cat >"$T/absent.json" <<'J'
{"name": "a", "model": "servesim", "ref": "lab", "slo": "e2el_p99=10s",
 "rules": [{"name": "r", "max_verdict_flips": 0}]}
J
run pc gate --policy "$T/absent.json" --dry-run
expect_rc 1 "an slo these pairs cannot judge fails its rules"
expect_in "max_verdict_flips n/a (the policy's slo: no pair has metric 'e2el_p99' (the pairs' metrics: " \
	"$out" "n/a naming the metric and those present"
cat >"$T/noslo.json" <<'J'
{"name": "n", "model": "servesim", "ref": "lab",
 "rules": [{"name": "r", "max_verdict_flips": 0}]}
J
run pc gate --policy "$T/noslo.json" --dry-run
expect_rc 2 "max_verdict_flips without an slo is a policy error"
expect_in "rule 'r' has max_verdict_flips and the policy no 'slo'" "$err" "says so"

# n counts what the rule counted (its keys, not every pair it selects:
# no-flips above says n=14 where it said n=47) and its movers are its
# flipped keys, not every pair that moved since the baseline release: a
# model's 1.0 with every value 10% lower, then 2.0 = model.csv (issue 38 QA)
awk -F, 'BEGIN { OFS = "," } NR > 1 { $4 = $4 * 0.9 } { print }' \
	"$S/model.csv" >"$T/m10.csv"
pc import -q -s moving -k perfsim -V 1.0 "$T/m10.csv"
pc import -q -s moving -k perfsim -V 2.0 "$S/model.csv"
sed 's/"model": "servesim"/"model": "moving"/' "$S/policy.json" >"$T/moving.json"
run pc gate --policy "$T/moving.json" --dry-run --format json
got=$(printf '%s' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)["rules"][0]
flips = sorted((k["workload"], k["metric"]) for k in r["verdicts"]["flipped"])
mov = sorted((m["workload"], m["metric"]) for m in r["movers"]["points"])
print(r["pairs"], [c["value"] for c in r["checks"] if c["limit"] == "min_pairs"],
      r["movers"].get("among"), r["movers"]["common"], len(flips), mov == flips)')
expect_eq "$got" "14 [14] flipped_keys 3 3 True" \
	"n = the 14 keys judged; the movers are the 3 flipped keys"
run pc gate --policy "$T/moving.json" --dry-run
expect_in "  moved since 1.0 in 'no-flips' (its flipped keys: 3 of 3 in common, largest change of |error| first):" \
	"$out" "the text says the movers are the flipped keys"

# the report with --policy shows the policy's limits
run pc report --model servesim --ref lab --policy "$S/policy.json" --no-matrix
expect_in "| ttft_p99\\<=2000ms (mlperf:llama2-70b) | 7 | 4 | 1 | 1 | 0 | 1 | 83.33% |" \
	"$out" "the report judges against the policy's slo"
run pc report --model servesim --ref lab --policy "$T/absent.json" --no-matrix
expect_rc 0 "a policy slo the pairs cannot judge does not block the report"
expect_in "the policy's slo: no pair has metric 'e2el_p99'" "$out" "the section says why"
finish
