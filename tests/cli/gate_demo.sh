# perfcorr gate on the demo study with the shipped example policy:
# archsim 2.3.0 is blocked (decode latency), 2.4.0 passes.
. "$TESTS/cli/lib.sh"
D="$FIXTURES/demo"

pc init >/dev/null
pc import -q --source archsim --kind perfsim --version 2.3.0 "$D/archsim-2.3.0.csv"
pc import -q --source archsim --kind perfsim --version 2.4.0 "$D/archsim-2.4.0.csv"
pc import -q --source h100-lab --kind silicon --version 2026-11-24 "$D/h100-lab.csv"

run pc gate --policy "$FIXTURES/policy/example.json" --model archsim@2.3.0
expect_rc 1 "2.3.0 is blocked"
expect_in "FAIL  decode-latency  n=3  max_mape 16.97% > 12%" "$out" "decode latency"
expect_in "WARN  throughput" "$out" "throughput warns"
expect_in "verdict: FAIL (1 fail, 1 warn, 3 pass)" "$out" "verdict"

run pc gate --policy "$FIXTURES/policy/example.json"
expect_rc 0 "2.4.0 (latest) passes"
expect_in "model archsim@2.4.0 vs reference h100-lab@2026-11-24, 54 pairs" "$out" \
	"latest version by default"
expect_in "max_mape_increase n/a (no earlier release passed this policy)" "$out" \
	"2.3.0 failed: no baseline"
expect_in "verdict: PASS (0 fail, 0 warn, 5 pass)" "$out" "verdict"

finish
