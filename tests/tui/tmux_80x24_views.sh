# Issue 35 item 3, in tmux at 80x24 on the demo: every view other than
# the list (tmux_80x24_list.sh) shows its facts at 80 columns: Summary,
# Trend, Regressions (the keys' shared parts left out, not "llama3-8"),
# Runs (h/l scroll to the hash), Disagreements (the roofline column a
# fraction of speed of light, not 3313%; h/l reach h100-lab and the
# annotation), Help (the marks and the keys).
. "$(dirname "$0")/../tui/libtui.sh"
. "$(dirname "$0")/../tui/libtmux.sh"
command -v tmux >/dev/null || { echo "tmux missing"; exit 77; }
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }
mape() {
	pc compare --model "$1" --ref h100-lab --format json |
		python3 -c 'import json, sys; print("%.1f%%" % (100 * json.load(sys.stdin)["summary"]["mape"]))'
}
m23=$(mape archsim@2.3.0)
m24=$(mape archsim@2.4.0)
moved=$(pc diff --model archsim@2.3.0..2.4.0 --ref h100-lab --format json |
	python3 -c '
import json, sys
p = json.load(sys.stdin)["pairs"]
d = [abs(x["err_after"]) - abs(x["err_before"]) for x in p]
print("%d regressed, %d improved" % (sum(x >= 0.01 for x in d), sum(x <= -0.01 for x in d)))')
sol=$(pc matrix --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = [c for c in [m for m in d["metrics"] if m["metric"] == "time"][0]["cells"]
     if c["model"] == "archsim" and c["ref"] == "roofline"][0]["sol"]
print("%.1f%% SoL, %d over" % (100 * c["fraction"], c["violations"]))')

tmux_start 80 24 NO_COLOR=1 -- --model archsim --ref h100-lab
wait_for "open of"
# Summary
keys 2
wait_for "Summary |"
expect_in "archsim@2.4.0 vs h100-lab@2026-11-24 | by op_class" "$(screen | sed -n 1p)" \
	"summary title: the pair and the grouping"
expect_in "(all)" "$(screen | sed -n 3p)" "the (all) row"
expect_in "$m24" "$(screen | sed -n 3p)" "MAPE of the whole pair ($m24, compare's)"
expect_in "time: model vs ref" "$(screen)" "the scatter of one metric"
# grouped by workload: the keys without their shared parts, each one
# told apart (both serving keys read llama3-8b/max_concurre)
keys b b b
wait_for "by workload"
expect_in "llama3-8b/*" "$(screen | sed -n 2p)" "the shared parts in the heading"
expect_in "max_concurrency=32 " "$(screen)" "serving key c=32"
expect_in "max_concurrency=8 " "$(screen)" "serving key c=8"
expect_in "prefill/bs=32" "$(screen)" "a kernel key without its shared parts"
# Trend, then its Regressions
keys 3
wait_for "Trend |"
expect_in "$m23" "$(screen | grep '^  2.3.0 ')" "2.3.0's MAPE ($m23)"
expect_in "better" "$(screen | grep '^  2.4.0 ')" "2.4.0 better, its verdict"
keys j Enter
wait_for "Regressions |"
expect_in "$moved" "$(screen | sed -n 2p)" "diff's counts ($moved)"
expect_in "llama3-8b/*" "$(screen | sed -n 3p)" "the shared parts once, in the heading"
expect_in "prefill/bs=8" "$(screen | sed -n 5p)" "the key without them (was llama3-8)"
for h in before after "|err| d" annotation; do
	expect_in "$h" "$(screen | sed -n 3p)" "regressions column $h"
done
keys q
# Runs: the platform cut with ~, h/l reach the hash
keys 4
wait_for "Runs | 16 runs"
expect_in "H100-SXM~" "$(screen | sed -n 3p)" "a cut says so"
expect_in ">" "$(screen | sed -n 2p)" "more columns to the right"
keys l l l l l l l l
wait_for "sha256"
expect_in "run_id source" "$(screen | sed -n 2p)" "run id and source stay"
# Disagreements
keys 5
wait_for "Disagreements |"
expect_in "$sol" "$(screen | grep '^  archsim ')" \
	"archsim vs the roofline: $sol (perfcorr matrix's), not an error"
expect_not_in "3313%" "$(screen)" "no 3000% error"
expect_in "suggested" "$(screen)" "the suggested column at 80"
expect_in "annotation" "$(screen)" "the annotation column at 80"
keys l l l
sleep 0.3
expect_in "h100-lab" "$(screen | sed -n 3p)" "l reaches the h100-lab column"
expect_in "<" "$(screen | sed -n 3p)" "columns to the left said"
keys h h h
# Help
keys ?
wait_for "Flags (the flag column)"
expect_in "~ cut" "$(screen)" "the cut mark explained"
expect_in "! changed" "$(screen)" "the changed mark explained"
keys Q
wait_exit
finish
