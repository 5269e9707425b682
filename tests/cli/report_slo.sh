#!/bin/bash
# report --slo and the report's tails (issue 38 items 1 and 2): the
# sections equal what compare gives on the same pairs (one core), the
# counts and flips equal tests/ref/slo_ref.py's, md/html/json; no section
# and no key without limits or stated percentiles.
. "$(dirname "$0")/../cli/lib.sh"
S=$FIXTURES/slo

pc import -q -s servesim -k perfsim "$S/model.csv"
pc import -q -s lab -k silicon "$S/silicon.csv"
SLO='mlperf:llama2-70b'
run pc report --model servesim --ref lab --slo "$SLO" --format json --no-matrix
expect_rc 0 "report json"
rep=$out
run pc compare --model servesim --ref lab --slo "$SLO" --format json --no-ci
expect_eq "$(printf '%s' "$rep" | python3 -c '
import json, sys; d = json.load(sys.stdin); print(json.dumps([d["slo"], d["tails"]], sort_keys=True))')" \
	"$(printf '%s' "$out" | python3 -c '
import json, sys; d = json.load(sys.stdin); print(json.dumps([d["slo"], d["tails"]], sort_keys=True))')" \
	"the report's slo and tails objects are compare's"
want=$(python3 "$TESTS/ref/slo_ref.py" "$S/model.csv" "$S/silicon.csv" 'ttft_p99:<=:2' 'tpot_p99:<=:0.2')
expect_in "count all 14 9 1 2 1 1 13" "$want" "the reference's counts (both meet 9, both miss 1, 2 + 1 flips, 1 near)"

run pc report --model servesim --ref lab --slo "$SLO" --no-matrix --top 2
expect_rc 0 "report md"
expect_in "## Verdicts against the limits" "$out" "md section"
expect_in "| all | 14 | 9 | 1 | 2 | 1 | 1 | 76.92% |" "$out" "md counts equal the reference's (agreement 10/13)"
expect_in "Verdict flips (3), the reference furthest across the limit first" "$out" "the flips"
expect_in "| llama2-70b/concurrency=64/fp8 | e2e | tpot_p99 | tpot_p99\\<=200ms | 200 ms | 260 ms | +0.00% | -30.00% | model meets, reference misses |" \
	"$out" "the worst flip first: the model exactly at the limit"
expect_in "... and 1 more (the JSON report lists every one)." "$out" "--top bounds the list"
expect_in "| llama2-70b/concurrency=16/fp8 | e2e | ttft_p99 | ttft_p99\\<=2000ms | 1.7 s | 1.97 s | +15.00% | +1.50% | near; model meets |" \
	"$out" "the near-limit key, not a flip"
expect_in "## Tails and distributions" "$out" "tails section"
expect_in "| tpot | p99 | 7 | 7.24% | -2.61% | 23.08% |" "$out" "the error at p99 (tail_ref.py: 0.0724, -0.0261, 0.2308)"
expect_in "| llama2-70b/concurrency=64/fp8 | e2e | ttft | p50,p90,p99 | 0.1967 | 1.217 | -15.00% | -21.95% |" \
	"$out" "the largest distance first (tail_ref.py: 0.196650410778)"

run pc report --model servesim --ref lab --slo "$SLO" --no-matrix --format html
expect_in '<section id="slo">' "$out" "html verdicts"
expect_in '<section id="tails">' "$out" "html tails"
expect_in "<td>model meets, reference misses</td>" "$out" "html flips"

# no limits: no verdict section, no slo key; no percentiles: no tails
run pc report --model servesim --ref lab --no-matrix
expect_not_in "## Verdicts against the limits" "$out" "no verdicts without --slo"
run pc report --model servesim --ref lab --no-matrix --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; d = json.load(sys.stdin); print("slo" in d, "tails" in d)')" "False True" "json: tails without --slo"
pc import -q -s ksim -k perfsim "$FIXTURES/sens/model.csv"
pc import -q -s klab -k silicon "$FIXTURES/sens/silicon.csv"
run pc report --model ksim --ref klab --no-matrix --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; d = json.load(sys.stdin); print("slo" in d, "tails" in d)')" "False False" "json: no tails without stated percentiles"
run pc report --model ksim --ref klab --no-matrix
expect_not_in "## Tails" "$out" "md: no tails section either"
run pc report --model servesim --ref lab --slo "$SLO" --format csv
expect_rc 2 "csv (one row per pair) has nowhere to put the verdicts"
expect_in "--slo: the verdicts are in the md, html and json reports, not csv" "$err" "says so"
run pc report --model servesim --ref lab --slo e2el_p99=10s --no-matrix
expect_rc 1 "a limit on a metric the pairs do not have"
expect_in "no pair has metric 'e2el_p99'" "$err" "names it"

# limits on percentiles where no pair states one (ksim/klab: per-kernel
# times only): nothing to assess, said in the section and on stderr, the
# report written, exit 0, as compare --slo (was exit 1, no report)
nothing="nothing to assess: the limits are on percentiles (ttft_p99, tpot_p99) and no pair states a percentile (the pairs' metrics: 'time')"
run pc report --model ksim --ref klab --slo "$SLO" --no-matrix
expect_rc 0 "no percentile at all: the report is written"
expect_in "## Verdicts against the limits

$nothing" "$out" "the section says there is nothing to assess"
expect_in "perfcorr report: --slo: $nothing" "$err" "and stderr says it (-o hides the report)"
run pc report --model ksim --ref klab --slo "$SLO" --no-matrix --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; print(json.load(sys.stdin)["slo"]["why"][:17])')" "nothing to assess" "json: slo.why"
run pc compare --model ksim --ref klab --slo "$SLO" --no-ci
expect_rc 0 "compare --slo: the same convention"
expect_in "verdicts against the limits: $nothing" "$out" "compare says it in its place"
run pc compare --model ksim --ref klab --slo "$SLO" --no-ci --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; print(json.load(sys.stdin)["slo"]["why"][:17])')" "nothing to assess" "compare json: slo.why"
run pc compare --model ksim --ref klab --slo time=1s --no-ci
expect_rc 0 "a limit on a metric that is not a percentile is judged as before"
run pc compare --model ksim --ref klab --slo e2el=1s --no-ci
expect_rc 1 "and one on a metric no pair has is still refused"
finish
