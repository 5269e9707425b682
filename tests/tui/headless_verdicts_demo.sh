#!/usr/bin/env bash
# make demo's path to the Verdicts view (issue 38): scripts/demo.sh opens
# `perfcorr tui --model archsim --slo mlperf:llama3.1-8b-interactive`: it
# starts on archsim vs h100-lab as before, p turns to archsim vs
# h100-cloud, 6 shows its serving sweep's verdicts and tails (the numbers
# of fixtures/demo/README.md).
. "$(dirname "$0")/../tui/libtui.sh"
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }
grep -q 'exec "$PC" tui --model archsim --slo mlperf:llama3.1-8b-interactive' \
	"$FIXTURES/../scripts/demo.sh" && ok || fail "demo.sh opens the TUI with the limits"
tui_script 80 40 --model archsim --slo mlperf:llama3.1-8b-interactive <<KEYS
:save-screen $T/start.screen
p
:save-screen $T/cloud.screen
6
:save-screen $T/v.screen
q
q
KEYS
expect_rc 0 "open, cycle, verdicts, quit"
expect_in "vs h100-lab@2026-11-24" \
	"$(screen_line "$T/start.screen" 1)" "starts on archsim vs h100-lab"
expect_in "vs h100-cloud@2026-11-26" \
	"$(screen_line "$T/cloud.screen" 1)" "p turns to the cloud"
v=$(cat "$T/v.screen")
expect_in "  ttft_p99<=500ms                    4     1     1     1     0     1   66.7%" "$v" "TTFT p99 row"
expect_in "  all                                8     4     1     2     0     1   71.4%" "$v" "all: 2 flips, 1 near"
expect_in "  M+R-    ttft_p99     model 480 ms (+4.0%)  ref 640 ms (-28.0%)
        e2e llama3-8b/max_concurrency=96/num_prompts=200/request_rate=inf/bf16" "$v" \
	"the worst flip, in the list's units (480 ms, not 0.48 s), its key whole at 80 columns"
expect_in "  near M+ ttft_p99     model 400 ms (+20.0%)  ref 492 ms (+1.6%)" "$v" "the near key"
expect_in "  ttft           p99        4   19.05%   -19.1%     25.0%" "$v" "the TTFT tail"
expect_in "  ttft           p50        4    1.58%    -1.6%      1.7%" "$v" "its median agrees"

# archsim vs h100-lab states no percentile: the refusal's reason and its
# cure wrap at 80x24 (the line ended at the edge: "... 'time', 'ttf")
tui_script 80 24 --model archsim --slo mlperf:llama3.1-8b-interactive <<KEYS
6
:save-screen $T/lab.screen
KEYS
expect_rc 0 "verdicts of archsim vs h100-lab"
v=$(sed -n '2,22p' "$T/lab.screen" | tr -s ' \n' '  ')
expect_in "no pair has metric 'ttft_p99' (the pairs' metrics: 'time', 'ttft', 'tpot', 'output_throughput', 'power'): a limit can only judge pairs of its metric" \
	"$v" "the whole refusal, wrapped"
finish
