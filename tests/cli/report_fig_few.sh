# The HTML report draws a metric's scatter, error plot and Bland-Altman
# panel only when it has enough pairs (5); a metric with fewer gets a
# table of its pairs instead (issue 20: a table row is better than a
# 2-point scatter). Here: time has 6 pairs (figures), power 2 (a table).
. "$(dirname "$0")/../cli/lib.sh"

python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
with open(t + "/ref.csv", "w") as r, open(t + "/model.csv", "w") as m:
    r.write("workload,op,metric,value,unit\n")
    m.write("workload,op,metric,value,unit\n")
    for i in range(1, 7):
        r.write("m/w%d,gemm,time,100,us\n" % i)
        m.write("m/w%d,gemm,time,%d,us\n" % (i, 100 + 3 * i))
    for i in range(1, 3):
        r.write("m/p%d,gemm,power,400,W\n" % i)
        m.write("m/p%d,gemm,power,%d,W\n" % (i, 400 + 60 * i))
PY
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
pc import -q --source sim --kind perfsim --version 1 "$T/model.csv"

run pc report --model sim --ref lab --format html
expect_rc 0 "report html"
expect_in "time: model vs reference (log-log)" "$out" "time (6 pairs): scatter"
expect_not_in "power: model vs reference" "$out" "power (2 pairs): no scatter"
expect_in "power: 2 pairs with a valid reference, too few for a scatter (5 needed)" \
	"$out" "power: the table's caption says why"
few=$(printf '%s\n' "$out" | sed -n '/<figure class="few">/,/<\/figure>/p')
expect_eq "$(printf '%s\n' "$few" | grep -c '<tr><td class="wl">m/<wbr/>p')" 2 \
	"power: one row per pair"
# issue 35: model before reference, and no cell that cannot wrap (a
# nowrap cell in a fixed grid overflowed into the next figure)
expect_in "<th>workload</th><th>op</th><th class=\"n\">model</th><th class=\"n\">reference</th>" \
	"$few" "power: model before reference"
expect_in "<td class=\"n\">460 W</td><td class=\"n\">400 W</td>" "$few" \
	"power: m/p1's model, then its reference"
expect_not_in 'class="nw"' "$few" "power: no nowrap cell"
# m/p1: model 460 W vs 400 W = +15.00%; m/p2: 520 W vs 400 W = +30.00%
expect_in "+15.00%" "$few" "power: m/p1's error"
expect_in "+30.00%" "$few" "power: m/p2's error"
finish
