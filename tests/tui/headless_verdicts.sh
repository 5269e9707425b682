#!/usr/bin/env bash
# Headless at 80x24: the Verdicts view (6, issue 38 items 1 and 2) on
# fixtures/slo/: the confusion counts per limit, the flips worst first
# and the near-limit key, the error at each stated percentile and the
# keys with the largest W1, each the numbers `perfcorr compare --slo
# --format json` gives (one core); limits from --slo or the --policy's
# slo; a view that says how to give limits when there are none, and
# what a refused limit lacks; q goes back where it came from.
. "$(dirname "$0")/../tui/libtui.sh"
S=$FIXTURES/slo
pc init >/dev/null
pc import -q -s servesim -k perfsim "$S/model.csv"
pc import -q -s lab -k silicon "$S/silicon.csv"
run pc compare --model servesim --ref lab --slo mlperf:llama2-70b --format json --no-ci
want=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
s, t = d["slo"], d["tails"]
for b in s["by_limit"] + [dict(s, metric="all")]:
    print(b["metric"], b["keys"], b["both_meet"], b["both_miss"], b["model_meets_ref_misses"],
          b["model_misses_ref_meets"], b["near_limit"], "%.1f%%" % (100 * b["agreement"]))
def si(v):  # seconds as the list shows them (fmt_si_unit, ASCII)
    for f, p in ((1, ""), (1e-3, "m"), (1e-6, "u"), (1e-9, "n")):
        if abs(v) >= f:
            return "%.4g %ss" % (v / f, p)
    return "%.4g s" % v
k = s["flipped"][0]
print("flip", k["metric"], si(k["model"]).replace(" ", "_"), "%+.1f%%" % (100 * k["ref_margin"]),
      k["workload"], si(k["ref"]).replace(" ", "_"))
k = s["near"][0]
print("near", k["metric"], si(k["ref"]).replace(" ", "_"), k["workload"])
p = [p for p in t["percentiles"] if p["metric"] == "tpot" and p["level"] == "p99"][0]
print("p99", p["n"], "%.2f%%" % (100 * p["mape"]), "%+.1f%%" % (100 * p["bias"]))
k = t["worst"][0]
print("w1", "%.4f" % k["w1_log"], k["metric"], k["workload"])')

tui_script 80 24 --model servesim --ref lab --slo mlperf:llama2-70b <<KEYS
6
:save-screen $T/v.screen
G
:save-screen $T/end.screen
q
:save-screen $T/back.screen
q
KEYS
expect_rc 0 "open the view and quit"
v=$(cat "$T/v.screen")
expect_in "Verdicts | servesim@unversioned vs lab@unversioned; limits: --slo" \
	"$(screen_line "$T/v.screen" 1)" "title: the pair and where the limits come from"
row() { # metric keys meet miss m+r- m-r+ near agree
	printf '  %-30.30s %5s %5s %5s %5s %5s %5s %7s' "$@"
}
while read -r m k a b c d e g; do
	case $m in
	ttft_p99) name='ttft_p99<=2000ms' ;;
	tpot_p99) name='tpot_p99<=200ms' ;;
	all) name=all ;;
	*) continue ;;
	esac
	expect_in "$(row "$name" "$k" "$a" "$b" "$c" "$d" "$e" "$g")" "$v" \
		"the $m row equals compare's counts"
done <<<"$want"
set -- $(printf '%s\n' "$want" | grep '^flip')
expect_in "  M+R-    $2     model ${3/_/ } (+0.0%)  ref ${6/_/ } ($4)" "$v" \
	"the worst flip first, compare's first, in the list's units (200 ms, not 0.2 s)"
expect_in "        e2e $5" "$v" "its key on the next line"
set -- $(printf '%s\n' "$want" | grep '^near')
expect_in "  near M+ $2     model 1.7 s (+15.0%)  ref ${3/_/ } (+1.5%)" "$v" "the near-limit key"
expect_in "13 of 14 verdicts rest on references that state no spread" "$v" "no-spread count"
expect_in "Discrepancies" "$(screen_line "$T/back.screen" 1)" "q goes back"

# tails: the p99 row, scrolled into view
tui_script 80 40 --model servesim --ref lab --slo mlperf:llama2-70b <<KEYS
6
:save-screen $T/v40.screen
q
q
KEYS
set -- $(printf '%s\n' "$want" | grep '^p99')
expect_in "$(printf '  %-14.14s %-6s %5s %8s %8s %9s' tpot p99 "$2" "$3" "$4" 23.1%)" \
	"$(cat "$T/v40.screen")" "the error at p99 equals compare's"
set -- $(printf '%s\n' "$want" | grep '^w1')
expect_in "   $2  1.217   -15.0%   -22.0%  p50..p99    $3 e2e
          $4" "$(cat "$T/v40.screen")" "the largest W1 first, compare's"
expect_in "          llama2-70b/concurrency=16/fp8" "$(cat "$T/end.screen")" \
	"G scrolls to the last distances"

# the policy's limits; no limits; a limit the pairs cannot judge
tui_script 80 24 --model servesim --ref lab --policy "$S/policy.json" <<KEYS
6
:save-screen $T/p.screen
q
q
KEYS
expect_in "limits: policy" "$(screen_line "$T/p.screen" 1)" "the policy's slo"
expect_in "$(row 'ttft_p99<=2000ms' 7 4 1 1 0 1 83.3%)" "$(cat "$T/p.screen")" "same counts"
tui_script 80 24 --model servesim --ref lab <<KEYS
6
:save-screen $T/none.screen
q
q
KEYS
expect_in "no limits: perfcorr tui --slo ttft_p99=2s,tpot_p99=100ms" \
	"$(cat "$T/none.screen")" "says how to give limits"
expect_in "tpot           p50        6    2.30%" "$(cat "$T/none.screen")" "the tails without limits"
tui_script 80 24 --model servesim --ref lab --slo e2el_p99=10s <<KEYS
6
:save-screen $T/bad.screen
q
q
KEYS
expect_rc 0 "a refused limit does not end the review"
expect_in "limits: --slo: no pair has metric 'e2el_p99'" "$(cat "$T/bad.screen")" "says why"
finish
