# perfcorr gate on the demo study with the shipped example policy:
# archsim 2.3.0 is blocked; 2.4.0, judged after it, passes every limit it
# can evaluate with two warnings (a known gap and the three lm_head pairs
# faster than the roofline) but is unknown on gemm-per-kernel, whose only
# limit has no baseline release (2.3.0 was blocked): a rule that
# evaluated nothing never passes (issue 35 QA); an accepted annotation
# waives the known gap. A first release's nothing-evaluated unknown does
# not keep it from being the next release's baseline.
. "$(dirname "$0")/../cli/lib.sh"
cd "$FIXTURES/.."
bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB" </dev/null >/dev/null 2>&1 ||
	fail "demo import"
P="$FIXTURES/policy/example.json"

run pc gate --policy "$P" --model archsim@2.3.0
expect_rc 1 "2.3.0 is blocked"
expect_in "FAIL  gemm-kernels      n=24  max_mape 11.86% > 8%" "$out" "gemm kernels"
expect_in "FAIL  serving-latency   n=2  max_mape 12% > 10%" "$out" "serving latency"
expect_in "WARN  power" "$out" "power warns"
expect_in "UNKNOWN  gemm-per-kernel   n=24  nothing evaluated, no baseline release: max_abs_err_increase n/a (the first release of the model in the database: nothing to compare with), limit +10 pp" \
	"$out" "a first release: the per-kernel increase evaluated nothing, unknown (it said PASS)"
expect_in "verdict: FAIL (2 fail, 1 unknown, 4 warn, 1 pass)" "$out" "verdict"

run pc gate --policy "$P"
expect_rc 3 "2.4.0 (latest): unknown, gemm-per-kernel has no baseline"
expect_in "model archsim@2.4.0 vs reference h100-lab@2026-11-24, 51 pairs" "$out" \
	"latest version by default"
expect_in "max_mape_increase n/a (no earlier release passed this policy; the previous one failed it or was unknown)" \
	"$out" "2.3.0 failed: no baseline"
expect_in "baseline: none (no earlier release passed this policy; the previous one failed it or was unknown)" \
	"$out" "the baseline line says why there is none"
expect_in "WARN  decode-attention  n=3  max_abs_err 38.58% > 25%" "$out" "known gap warns"
expect_in "UNKNOWN  gemm-per-kernel   n=24  nothing evaluated, no baseline release: max_abs_err_increase n/a (no earlier release passed this policy; the previous one failed it or was unknown), limit +10 pp" \
	"$out" "2.3.0 blocked: the per-kernel increase has no baseline"
expect_in "verdict: UNKNOWN (0 fail, 1 unknown, 2 warn, 5 pass)" "$out" "verdict"
# the roofline is a bound for every model (issue 35): archsim and
# h100-lab both beat it on the three prefill lm_head keys
expect_in "WARN  speed-of-light    n=50 (0 waived, 1 noisy)  max_sol_violations 3 > 0" \
	"$out" "speed-of-light rule fails on a simulator"
expect_eq "$(printf '%s\n' "$out" | grep -A3 "worst points of 'speed-of-light'" |
	grep -c 'prefill/bs=.*lm_head time')" 3 "the three lm_head violations listed"

# the team accepts the known gap: the waiver turns the warning into a pass
run pc annotate --op flash_attn --metric time --workload 'llama3-8b/decode/*' \
	--pattern --model archsim --ref h100-lab --status accepted \
	--category abstraction-error --note "KV-cache bandwidth not modelled" \
	--author alice
expect_rc 0 "annotate"
run pc gate --policy "$P" --format json
expect_rc 3 "waived gate (still unknown on gemm-per-kernel)"
v=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); r=[x for x in d["rules"] if x["name"]=="decode-attention"][0]; print(d["verdict"], r["status"], r["waived"])')
expect_eq "$v" "unknown pass 3" "decode attention waived (speed of light still warns)"
v=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); r=[x for x in d["rules"] if x["name"]=="gemm-per-kernel"][0]; c=[x for x in r["checks"] if x["limit"]=="max_abs_err_increase"][0]; print(r["status"], r["message"][:39], c["applicable"], c["unknown"], c["failed"])')
expect_eq "$v" "unknown nothing evaluated, no baseline release: False True False" \
	"JSON: the rule unknown, its check n/a and unknown"
v=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); r=[x for x in d["rules"] if x["name"]=="speed-of-light"][0]; c=[x for x in r["checks"] if x["limit"]=="max_sol_violations"][0]; print(r["status"], c["value"], c["applicable"], sorted(p["op"] for p in r["offending"]))')
expect_eq "$v" "warn 3 True ['lm_head', 'lm_head', 'lm_head']" "speed of light in the JSON"
run pc gate --policy "$P" --junit - -o /dev/null
printf '%s\n' "$out" >"$T/j.xml"
run python3 -c 'import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); c=[c for c in r.iter("testcase") if c.get("name")=="gemm-per-kernel"][0]; print(c.find("skipped").get("message")[:48], {p.get("name"): p.get("value") for p in c.findall("properties/property")}["status"])' "$T/j.xml"
expect_eq "$out" "unknown: nothing evaluated, no baseline release: unknown" \
	"JUnit: skipped, unknown, saying why"

# a policy of that rule alone: the first release is unknown (recorded),
# and still the next release's baseline (else no later release has one)
printf '{"name": "per-kernel", "model": "archsim", "ref": "h100-lab", "rules": [{"name": "gemm-per-kernel", "metric": "time", "op": "gemm_*", "max_abs_err_increase": "10%%"}]}\n' \
	>"$T/pk.json"
run pc gate --policy "$T/pk.json" --model archsim@2.3.0
expect_rc 3 "first release: unknown, exit 3"
expect_in "verdict: UNKNOWN (0 fail, 1 unknown, 0 warn, 0 pass)" "$out" "first release verdict"
run pc gate --policy "$T/pk.json" --model archsim@2.4.0
expect_rc 0 "2.4.0 judged against 2.3.0"
expect_in "baseline: archsim@2.3.0" "$out" "the unknown first release is the baseline"
expect_in "PASS  gemm-per-kernel  n=24  min_pairs 24 >= 1; max_abs_err_increase " "$out" \
	"the per-kernel increase evaluated"
finish
