# The report's "Who disagrees with whom" section on tests/data/matrix/
# (five sources, every pattern once): the matrix cells as `perfcorr
# matrix` computes them, the counts per pattern, the top keys of each
# pattern with their suggested cause and annotation, the html heatmap.
. "$(dirname "$0")/lib.sh"
D="$TESTS/data/matrix"
pc import -q -s roof -k roofline -V r1 "$D/roof.csv" &&
pc import -q -s sim -k perfsim -V 1.0 "$D/sim.csv" &&
pc import -q -s rtl -k rtl -V r1 --clock-mhz 1000 "$D/rtl.csv" &&
pc import -q -s lab -k silicon -V w1 "$D/lab.csv" &&
pc import -q -s lab2 -k silicon -V w1 "$D/lab2.csv" && ok || fail "import"
pc annotate -w m/bs=1 --op k3 --metric time --model rtl --ref lab --status explained \
	--category rtl-bug --note "tile writeback stall" --author alice >/dev/null &&
	ok || fail "annotate"

run pc report --model sim --ref lab --format md
expect_rc 0 "md"
sec=$(printf '%s\n' "$out" | sed -n '/^## Who disagrees with whom/,/^## [^W]/p')
expect_in "Every source at its latest version (\`perfcorr matrix\`): roof (roofline), sim (perfsim), rtl (rtl), lab (silicon), lab2 (silicon)." \
	"$sec" "sources in tier order"
expect_in "### time (7 keys every source holds)" "$sec" "the common keys"
# the sim row, lab column: MAPE and ccc_log as tests/data/matrix/matrix_ref.json has them
want=$(python3 -c '
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["cells"] if c["model"] == "sim" and c["ref"] == "lab"][0]
print("%.2f%% (n %d, %.4f)" % (100 * c["mape"], c["n"], c["ccc_log"]))' "$D/matrix_ref.json")
expect_in "| sim | " "$sec" "sim row"
expect_in "$want" "$(printf '%s\n' "$sec" | grep '^| sim |')" "cell = the independent computation ($want)"
for p in "odd:lab | 2" "odd:lab2 | 1" "odd:rtl | 1" "odd:sim | 1" \
	'split:lab+lab2\|rtl+sim | 1' "scattered | 1" "agree | 2"; do
	expect_in "| $p |" "$sec" "count $p"
done
expect_in "| m/bs=1 | k3 | time | 30.00% | rtl-bug (odd rtl: the RTL alone disagrees with sources that agree) |  | explained/rtl-bug: tile writeback stall (alice," \
	"$sec" "top key with its rule and annotation"
expect_in "| m/bs=2 | k1 | time | 4.00% | none (the sources agree: nothing to explain) | sim, rtl, lab, lab2 |" \
	"$sec" "roofline violations beside an agreeing key"
expect_in "#### odd:lab (2 keys)" "$sec" "heading per pattern"
# issue 35: the roofline's row and column are the fraction of speed of
# light (matrix_ref.json's "sol", pure Python), never a MAPE in percent
want=$(python3 -c '
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["sol"] if c["model"] == "sim" and c["ref"] == "roof"][0]
print("%.1f%% SoL, %d over (n %d)" % (100 * c["fraction"], c["violations"], c["n"]))' "$D/matrix_ref.json")
expect_eq "$want" "55.3% SoL, 1 over (n 9)" "the reference's sim/roof cell"
expect_in "| sim | $want |" "$sec" "the roofline column is the fraction of SoL"
expect_in "| roof | - | $want |" "$sec" "and its row"
expect_not_in "84.68%" "$sec" "no MAPE against the roofline"

run pc report --model sim --ref lab -o "$T/r.html"
expect_rc 0 "html"
run xmllint --noout "$T/r.html"
expect_rc 0 "html is well-formed XML: $err"
# two heatmaps: power (sim and lab hold it, the others are left out of
# its grid, said) and time
expect_eq "$(grep -c 'class="fig fig-heatmap"' "$T/r.html")" 2 "a heatmap per metric"
expect_in "roof, rtl, lab2: no power results, left out of the power grid." \
	"$(cat "$T/r.html")" "who is not in the power grid, said"
expect_in '<section id="matrix">' "$(cat "$T/r.html")" "section"
expect_in "odd:lab2</td>" "$(cat "$T/r.html")" "pattern table"
expect_in "tile writeback stall" "$(cat "$T/r.html")" "annotation in html"
hm=$(sed -n '/class="fig fig-heatmap"/,/<\/figure>/p' "$T/r.html" | grep '<figcaption>time:')
expect_eq "$(printf '%s' "$hm" | grep -o '<rect class="sol"[^>]*stroke="#cf222e"' | wc -l)" 8 \
	"heatmap: 8 roofline cells (4 sources x row and column), each outlined: 1 violation"
expect_in ">55.3% SoL</text>" "$hm" "heatmap: sim's fraction of SoL"
expect_not_in ">84.68%</text>" "$hm" "heatmap: no MAPE against the roofline"

run pc report --model sim --ref lab --no-matrix
expect_not_in "Who disagrees" "$out" "--no-matrix leaves it out"
run pc report --model sim --ref lab --format json
expect_not_in '"patterns"' "$out" "json report unchanged"

# two sources: the report is their comparison, the section says so
export PERFCORR_DB="$T/two.db"
pc import -q -s sim -k perfsim -V 1.0 "$D/sim.csv" &&
pc import -q -s lab -k silicon -V w1 "$D/lab.csv" || fail "two"
run pc report --model sim --ref lab
expect_in "The disagreement matrix was not drawn: only two sources hold results" \
	"$out" "two sources"
finish
