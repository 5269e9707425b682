# Headless: the Disagreements view (5) when a source holds no time result
# (tests/data/matrix_grid/servesim.csv, serving metrics only, beside the
# five sources of tests/data/matrix/): the time grid is the five others',
# servesim left out of it and said so under the grid. On the old code the
# view said 'no metric is held by all sources' and drew no grid.
. "$TESTS/tui/libtui.sh"
D="$TESTS/data/matrix"
G="$TESTS/data/matrix_grid"
pc import -q -s roof -k roofline -V r1 "$D/roof.csv" &&
pc import -q -s sim -k perfsim -V 1.0 "$D/sim.csv" &&
pc import -q -s rtl -k rtl -V r1 --clock-mhz 1000 "$D/rtl.csv" &&
pc import -q -s lab -k silicon -V w1 "$D/lab.csv" &&
pc import -q -s lab -k silicon -V w1 "$G/lab_serve.csv" &&
pc import -q -s lab2 -k silicon -V w1 "$D/lab2.csv" &&
pc import -q -s servesim -k perfsim -V s1 "$G/servesim.csv" && ok ||
	fail "import"

tui_script 120 40 --model sim --ref lab <<KEYS
5
:save-screen $T/view.screen
KEYS
expect_rc 0 "disagreements view"
S=$(cat "$T/view.screen")
expect_in "time: MAPE, concordance (log); row model, column reference; 7 keys" \
	"$S" "the time grid"
expect_eq "$(grep -c '^  servesim ' "$T/view.screen")" 0 "no servesim row"
expect_eq "$(grep 'model \\ ref' "$T/view.screen" | tr -s ' ')" \
	" model \\ ref roof sim rtl lab lab2" "the grid's columns, no servesim"
expect_in "  servesim: no time results, left out of the time grid" "$S" "said under the grid"
# sim vs lab: the cell equals perfcorr matrix
cell=$(pc matrix --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = [m for m in d["metrics"] if m["metric"] == "time"][0]
c = [c for c in t["cells"] if c["model"] == "sim" and c["ref"] == "lab"][0]
print("%.1f%% %.3f" % (100 * c["mape"], c["ccc_log"]))')
expect_in "$cell" "$(grep '^  sim ' "$T/view.screen")" "sim/lab cell = perfcorr matrix ($cell)"
finish
