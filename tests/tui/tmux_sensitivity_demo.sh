# The demo's blind knob in tmux at 80x24 (issue 38 item 3,
# fixtures/demo/README.md "Sensitivity to each knob"): t100-rtl against
# h100-cloud, 7 opens the Sensitivity view; the RTL's attention tile is
# flagged blind along seq first, its elasticities those of perfcorr
# sensitivity --format json, its sparkline flat beside the cloud's climbing
# one (ASCII under LC_ALL=C); every line fits 80 columns; q goes back.
. "$(dirname "$0")/../tui/libtui.sh"
. "$(dirname "$0")/../tui/libtmux.sh"
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }

run pc sensitivity --model t100-rtl --ref h100-cloud --format json
want=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
w = [(k, w) for k in d["knobs"] for w in k["sweeps"] if w["flag"] != "ok"]
print(d["sweeps"], d["blind"], len(w))
k, w = w[0]
print(k["knob"], k["op"], k["metric"], "%+.3f" % w["e_model"], "%+.3f" % w["e_ref"],
      "%.2f" % w["tau"], w["fixed"], "%g..%g" % (w["x"][0], w["x"][-1]), len(w["x"]))')
expect_eq "$(head -1 <<<"$want")" "6 1 1" "the demo: 6 sweeps, one blind"
set -- $(sed -n 2p <<<"$want")

tmux_start 80 24 -- --model t100-rtl --ref h100-cloud
wait_for "t100-rtl@rtl-0.9"
keys 7
wait_for "Flagged sweeps (1)"
s=$(screen)
expect_in "Sensitivity | t100-rtl@rtl-0.9 vs h100-cloud@2026-11-26: 1/6 flagged" "$s" "title"
expect_in "6 sweeps: 1 blind, 0 wrong direction" "$s" "the counts"
expect_in "$(printf '  %-5s %-10s %-19s %7s %7s %5s  ' blind "$1" "$2 $3" "$4" "$5" "$6")" \
	"$s" "the blind sweep first, its elasticities and tau as perfcorr sensitivity's"
line=$(grep "^  blind $1 " <<<"$s")
model=$(awk '{ print $(NF - 1) }' <<<"$line")
ref=$(awk '{ print $NF }' <<<"$line")
expect_eq "${#model} ${#ref}" "4 4" "a sparkline of each side, one glyph per point"
case $model in *_*|*#*) fail "the RTL's sparkline is not flat: $model" ;; *) ok ;; esac
expect_eq "${ref:0:1}${ref:3:1}" "_#" "the cloud's climbs from the bottom to the top"
expect_in "        $1 $8 ($9): $7" "$s" "the sweep's range, points and fixed key"
long=$(screen | awk 'length > 80' | wc -l)
expect_eq "$long" 0 "every line fits 80 columns"
keys q
wait_for "Discrepancies"
keys Q
wait_exit
expect_eq "$tui_rc" 0 "quit"
finish
