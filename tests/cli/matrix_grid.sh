# A source without a metric is absent from that metric's grid, said so,
# and never empties it (rule 1): tests/data/matrix/ (the five sources of
# cli/matrix.sh) plus tests/data/matrix_grid/: servesim, a perfsim that
# holds only serving metrics (ttft, tpot); lab's and sim's serving runs;
# lab2's ttft on a key no other source holds. On the old code every grid
# disappeared ('metric time: no key held by all 6 sources'), the time grid
# that five sources share among them.
. "$(dirname "$0")/lib.sh"
D="$TESTS/data/matrix"
G="$TESTS/data/matrix_grid"
pc import -q -s roof -k roofline -V r1 "$D/roof.csv" &&
pc import -q -s sim -k perfsim -V 1.0 "$D/sim.csv" &&
pc import -q -s sim -k perfsim -V 1.0 "$G/sim_serve.csv" &&
pc import -q -s rtl -k rtl -V r1 --clock-mhz 1000 "$D/rtl.csv" &&
pc import -q -s lab -k silicon -V w1 "$D/lab.csv" &&
pc import -q -s lab -k silicon -V w1 "$G/lab_serve.csv" &&
pc import -q -s lab2 -k silicon -V w1 "$D/lab2.csv" &&
pc import -q -s lab2 -k silicon -V w1 "$G/lab2_serve.csv" &&
pc import -q -s servesim -k perfsim -V s1 "$G/servesim.csv" && ok ||
	fail "import"

# JSON: the time grid is the five sources' (cells = the independent
# computation of matrix_ref.json), servesim left out of it and said; ttft
# is servesim's and lab's (cells computed here from the CSVs), lab2's
# lone ttft key left out; tpot has no key its three sources share: skipped
run pc matrix --format json
expect_rc 0 "matrix json"
printf '%s' "$out" >"$T/m.json"
run python3 - "$T/m.json" "$D/matrix_ref.json" "$G" <<'PY'
import csv, json, os, sys
got = json.load(open(sys.argv[1])); ref = json.load(open(sys.argv[2]))
bad = []
def close(a, b):
    return a is not None and abs(a - b) <= 1e-9 * max(abs(b), 1e-300)
m = {x["metric"]: x for x in got["metrics"]}
if [s["label"] for s in got["sources"]] != ["roof", "servesim", "sim", "rtl", "lab", "lab2"]:
    bad.append("sources %s" % got["sources"])
t = m.get("time")
if not t:
    print("no time grid: %s" % got["skipped"]); sys.exit(1)
if t["sources"] != ["roof", "sim", "rtl", "lab", "lab2"]: bad.append("time sources %s" % t["sources"])
if t["left_out"] != ["servesim: no time results, left out of the time grid"]:
    bad.append("time left_out %s" % t["left_out"])
if t["common_keys"] != ref["common_keys"]: bad.append("common %s" % t["common_keys"])
cells = {(c["model"], c["ref"]): c for c in t["cells"]}
if len(cells) != 20 or any("servesim" in k for k in cells): bad.append("time cells %s" % list(cells))
for r in ref["cells"]:
    c = cells.get((r["model"], r["ref"]), {})
    if c.get("n") != r["n"]: bad.append("n %s" % r)
    for k in ("mape", "bias", "ccc", "ccc_log"):
        if not close(c.get(k), r[k]): bad.append("%s %s/%s" % (k, r["model"], r["ref"]))
# ttft: servesim and lab on the keys both hold
def load(name):
    with open(os.path.join(sys.argv[3], name)) as f:
        return {(r["workload"], r["metric"]): float(r["value"]) for r in csv.DictReader(f)}
sv, lb = load("servesim.csv"), load("lab_serve.csv")
f = m.get("ttft", {})
if f.get("sources") != ["servesim", "lab"]: bad.append("ttft sources %s" % f.get("sources"))
if f.get("left_out") != ["roof: no ttft results, left out of the ttft grid",
                         "sim: no ttft results, left out of the ttft grid",
                         "rtl: no ttft results, left out of the ttft grid",
                         "lab2: no ttft key another source holds, left out of the ttft grid"]:
    bad.append("ttft left_out %s" % f.get("left_out"))
keys = sorted(k for k in sv if k[1] == "ttft" and k in lb)
for a, b, x, y in (("servesim", "lab", sv, lb), ("lab", "servesim", lb, sv)):
    e = [(x[k] - y[k]) / y[k] for k in keys]
    c = [c for c in f.get("cells", []) if c["model"] == a and c["ref"] == b]
    if len(c) != 1 or c[0]["n"] != 3 or not close(c[0]["mape"], sum(map(abs, e)) / 3) \
       or not close(c[0]["bias"], sum(e) / 3):
        bad.append("ttft %s/%s %s" % (a, b, c))
if "tpot" in m: bad.append("tpot has a grid in common mode")
if got["skipped"] != ["metric tpot: no key held by all 3 sources of its grid "
                      "(servesim, sim, lab): --pairwise-keys compares each pair on its own keys"]:
    bad.append("skipped %s" % got["skipped"])
if len(got["keys"]) != 9: bad.append("classified keys %d" % len(got["keys"]))
print("\n".join(bad)); sys.exit(1 if bad else 0)
PY
expect_rc 0 "grids of the sources holding each metric: $out"

# the table says it under the metric's heading; the grids leave servesim out
run pc matrix
expect_rc 0 "table"
expect_in "metric time: 7 keys held by all 5 sources
servesim: no time results, left out of the time grid
n (pairs in the statistics)
model \\ ref  roof  sim  rtl  lab  lab2" "$out" "time grid without servesim, said"
expect_in "metric ttft: 3 keys held by both sources
roof, sim, rtl: no ttft results, left out of the ttft grid
lab2: no ttft key another source holds, left out of the ttft grid" "$out" "ttft: who is left out and why"
expect_in "metric tpot: no key held by all 3 sources of its grid (servesim, sim, lab)" \
	"$out" "tpot skipped, the cure named"

# --pairwise-keys: tpot's grid, sim and servesim share no key: the cell
# says so (JSON keys 0)
run pc matrix --pairwise-keys --metric tpot --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys
t = json.load(sys.stdin)["metrics"][0]
print(t["sources"], [(c["model"], c["ref"], c["keys"]) for c in t["cells"]])')" \
	"['servesim', 'sim', 'lab'] [('servesim', 'sim', 0), ('servesim', 'lab', 3), ('sim', 'servesim', 0), ('sim', 'lab', 1), ('lab', 'servesim', 3), ('lab', 'sim', 1)]" \
	"pairwise tpot cells"
run pc matrix --pairwise-keys --metric tpot
row=$(printf '%s\n' "$out" | grep '^sim ' | sed -n 2p)	# the MAPE grid's
expect_in "no common keys" "$row" "a cell with no common keys says so"
expect_in "10.00%" "$row" "beside sim's cell against lab: (36 - 40) / 40"

# CSV: the grid's cells only; who is left out on stderr
run pc matrix --format csv
expect_rc 0 "csv"
expect_eq "$(printf '%s\n' "$out" | grep -c '^time,')" 20 "20 time cells"
expect_not_in "servesim" "$(printf '%s\n' "$out" | grep '^time,')" "no servesim time row"
expect_in "ttft,servesim,lab,3,3," "$out" "the ttft cell"
expect_in "perfcorr matrix: servesim: no time results, left out of the time grid" "$err" \
	"csv: the leaving-out said on stderr"
expect_in "perfcorr matrix: metric tpot: no key held by all 3 sources" "$err" \
	"csv: the skipped metric said"

# the report: the same grids and sentences
run pc report --model sim --ref lab --no-trend --format md
expect_rc 0 "report md"
sec=$(printf '%s\n' "$out" | sed -n '/^## Who disagrees/,$p')
expect_in "### time (7 keys all 5 sources of the grid hold)

servesim: no time results, left out of the time grid.

MAPE of the model" "$sec" "md: the time grid, servesim left out, said"
expect_in "| model \\\\ reference | roof | sim | rtl | lab | lab2 |" "$sec" "md: the time grid's columns"
expect_in "### ttft (3 keys both sources of the grid hold)" "$sec" "md: the ttft grid"
expect_in "Not drawn: metric tpot: no key held by all 3 sources of its grid" "$sec" \
	"md: the metric without a grid said"
run pc report --model sim --ref lab --no-trend -o "$T/r.html"
expect_rc 0 "report html"
run xmllint --noout "$T/r.html"
expect_rc 0 "html is well-formed: $err"
hm=$(grep '<figcaption>time:' "$T/r.html")
expect_eq "$(printf '%s' "$hm" | grep -o 'text-anchor="end">[a-z0-9]*<' | tr '\n' ' ')" \
	'text-anchor="end">roof< text-anchor="end">sim< text-anchor="end">rtl< text-anchor="end">lab< text-anchor="end">lab2< ' \
	"html: the time heatmap's rows are its five sources"
expect_in "<p class=\"note\">servesim: no time results, left out of the time grid.</p>" \
	"$(cat "$T/r.html")" "html: said"
finish
