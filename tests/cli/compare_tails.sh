#!/bin/bash
# compare's tails (issue 38 item 2): the error at each stated percentile
# (p50/p90/p99 of ttft and tpot) and the Wasserstein-1 distance of the
# log values per key, on fixtures/slo/ (a tail that diverges while the
# median agrees), against tests/ref/tail_ref.py; a key whose stated
# percentiles decrease, or that shares one level only, gets no distance
# and says why; no tails key or section without stated percentiles.
. "$(dirname "$0")/../cli/lib.sh"
S=$FIXTURES/slo

pc import -q -s servesim -k perfsim "$S/model.csv"
pc import -q -s lab -k silicon "$S/silicon.csv"
run pc compare --model servesim --ref lab --format json --no-ci
expect_rc 0 "compare json"
got=$(printf '%s' "$out" | python3 -c '
import json, sys
t = json.load(sys.stdin)["tails"]
for p in t["percentiles"]:
    print("pct", p["metric"], p["level"], p["n"], *("%.12g" % p[k] for k in
          ("mape", "bias", "median_abs_err", "max_abs_err")))
for k in sorted(t["worst"], key=lambda k: (k["workload"], k["op"], k["metric"])):
    print("w1", k["workload"], k["op"], k["metric"],
          "%.12g" % k["w1_log"] if k["w1_log"] is not None else "none")')
want=$(python3 "$TESTS/ref/tail_ref.py" "$S/model.csv" "$S/silicon.csv")
expect_eq "$got" "$want" "per-percentile errors and every key's W1 equal the reference"
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys
t = json.load(sys.stdin)["tails"]
print(t["keys"], t["with_distance"], t["worst"][0]["workload"], t["worst"][0]["metric"])
w = [k["w1_log"] for k in t["worst"] if k["w1_log"] is not None]
print(w == sorted(w, reverse=True))
for k in t["worst"]:
    if k["w1_log"] is None: print(k["workload"], k["metric"], k["why"])
k = [k for k in t["worst"] if k["workload"].endswith("=64/fp8") and k["metric"] == "tpot"][0]
print(" ".join("%s %+.4f" % (l["level"], l["err"]) for l in k["levels"]))')" \
"14 12 llama2-70b/concurrency=64/fp8 ttft
True
llama2-70b/concurrency=2/fp8 tpot fewer than 2 common percentiles
llama2-70b/concurrency=2/fp8 ttft the model's stated percentiles decrease with the level
p50 +0.0083 p90 -0.1176 p99 -0.2308" \
	"largest distance first; no distance, with the reason, for a decreasing model and one common level; the tail that diverges while the median agrees"

run pc compare --model servesim --ref lab --no-ci
expect_in "tails: the error at each stated percentile" "$out" "table section"
expect_in "the model's stated percentiles decrease with the level" "$out" "the reason in the table"
expect_in "12 of 14 keys have one" "$out" "how many keys have a distance"

# a comparison without stated percentiles has no tails
run pc compare --model servesim --ref lab --metric output_throughput --format json --no-ci
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; print("tails" in json.load(sys.stdin))')" "False" "no tails key without percentiles"
run pc compare --model servesim --ref lab --metric output_throughput --no-ci
expect_not_in "tails:" "$out" "no tails section"
finish
