# The HTML report's figures per metric (issue 20):
# - speed-of-light violations (a roofline slower than the measurement)
#   are starred on the scatter, the error plot and the Bland-Altman
#   panel: one <path class="sol"> per violation in the figures, a legend
#   entry (class "soll") only where a point is starred, the tooltip says
#   so; a noisy reference is left out of the figures, star included;
# - one histogram of signed errors per metric (a histogram pooling time
#   and throughput errors would mix metrics), each counting exactly its
#   metric's pairs.
. "$(dirname "$0")/../cli/lib.sh"

# time (lower is better; ref 100 us): the roofline is above the
#   measurement for w1..w3 (105, 110, 115 us: SoL), below for w4..w8
#   (80, 75, 70, 65, 60 us); w9's reference is noisy (stddev 50 of 100,
#   CV 0.5 > 0.30) and its roofline 150 us: SoL, but not in the figures.
# throughput (higher is better; ref 1000 tokens/s): w1 at 900 (the
#   roofline below the measurement: SoL), w2..w6 at 1040..1120.
# So the figures star 3 time pairs and 1 throughput pair; the JSON
# counts 5 violations, 4 of them outside a noisy reference.
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
with open(t + "/ref.csv", "w") as r, open(t + "/roof.csv", "w") as m:
    r.write("workload,op,metric,value,unit,n,stddev\n")
    m.write("workload,op,metric,value,unit\n")
    for i in range(1, 9):
        r.write("m/w%d,gemm,time,100,us,10,1\n" % i)
        m.write("m/w%d,gemm,time,%d,us\n" % (i, 100 + 5 * i if i <= 3 else 100 - 5 * i))
    r.write("m/w9,gemm,time,100,us,10,50\n")
    m.write("m/w9,gemm,time,150,us\n")
    for i in range(1, 7):
        r.write("m/w%d,attn,throughput,1000,tokens/s,10,1\n" % i)
        m.write("m/w%d,attn,throughput,%d,tokens/s\n" % (i, 900 if i == 1 else 1000 + 20 * i))
PY
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
pc import -q --source roof --kind roofline --version 1 "$T/roof.csv"

run pc report --model roof --ref lab --format json
expect_rc 0 "report json"
printf '%s\n' "$out" > "$T/r.json"
run pc report --model roof --ref lab --format html
expect_rc 0 "report html"
printf '%s\n' "$out" > "$T/r.html"

run python3 - "$T" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
t = sys.argv[1]
S = "{http://www.w3.org/2000/svg}"
j = json.load(open(t + "/r.json"))
root = ET.parse(t + "/r.html").getroot()
bad = []
if j["sol_violations"] != 5:
    bad.append("json sol_violations %r, want 5" % j["sol_violations"])
# the violations the figures show: not noisy, not invalid
want = {}
for p in j["points"]:
    if p["sol_violation"] and not p["noisy_ref"] and not p["invalid"]:
        want[p["metric"]] = want.get(p["metric"], 0) + 1
if want != {"time": 3, "throughput": 1}:
    bad.append("json violations in the figures %r" % want)
def classes(e):
    return e.get("class", "").split()
svgs = [s for s in root.iter(S + "svg") if "fig" in classes(s)]
for kind in ("scatter", "err", "ba"):
    figs = [s for s in svgs if "fig-" + kind in classes(s)]
    if len(figs) != 2:
        bad.append("%d %s figures, want 2" % (len(figs), kind))
    for s in figs:
        metric = s.get("aria-label").split(":")[0]
        stars = [e for e in s.iter(S + "path") if classes(e) == ["sol"]]
        legend = [e for e in s.iter(S + "path") if classes(e) == ["soll"]]
        tips = [g.find(S + "title").text for g in s.iter(S + "g")
                if g.find(S + "title") is not None]
        said = [x for x in tips if "speed-of-light violation" in x]
        if len(stars) != want.get(metric, 0):
            bad.append("%s %s: %d stars, want %d" % (kind, metric, len(stars),
                                                    want.get(metric, 0)))
        if len(legend) != 1:
            bad.append("%s %s: %d legend stars" % (kind, metric, len(legend)))
        if len(said) != want.get(metric, 0):
            bad.append("%s %s: %d tooltips say SoL" % (kind, metric, len(said)))
        if "speed-of-light violation" not in "".join(s.itertext()):
            bad.append("%s %s: no legend text" % (kind, metric))
# one histogram per metric, each over its own pairs (bars' titles are
# the counts): time 8 (w9 noisy, left out), throughput 6
hists = [s for s in svgs if "fig-hist" in classes(s)]
got = {}
for s in hists:
    bars = [int(r.find(S + "title").text) for r in s.iter(S + "rect")
            if r.find(S + "title") is not None]
    got[s.get("aria-label")] = sum(bars)
if got != {"time: signed error": 8, "throughput: signed error": 6}:
    bad.append("histograms %r, want one per metric (time 8, throughput 6)" % got)
if "every metric" in ET.tostring(root, encoding="unicode"):
    bad.append("a histogram over every metric is left")
print("\n".join(bad), end="")
sys.exit(1 if bad else 0)
PY
expect_rc 0 "figures: $out"

# a study without violations has no star and no legend entry for it
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
with open(t + "/sim.csv", "w") as m:
    m.write("workload,op,metric,value,unit\n")
    for i in range(1, 9):
        m.write("m/w%d,gemm,time,%d,us\n" % (i, 100 + 5 * i))
PY
pc import -q --source sim --kind perfsim --version 1 "$T/sim.csv"
# the roofline bounds a simulator's pairs too (issue 35): the reference
# beats it on w1..w3 (100 us against 105, 110, 115), sim never (105..140
# us against 105, 110, 115, 80..60: equal is no violation)
run pc report --model sim --ref lab --format html
expect_rc 0 "report html, perfsim"
figs=$(printf '%s\n' "$out" | sed -n '/<section id="figures">/,/<\/section>/p')
expect_in 'class="fig fig-scatter"' "$figs" "perfsim: figures drawn"
expect_eq "$(printf '%s\n' "$figs" | grep -o '<path class="sol"' | wc -l)" 9 \
	"perfsim: the reference's 3 violations starred in 3 figures"
# without a roofline in the database nothing is starred
export PERFCORR_DB="$T/plain.db"
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
pc import -q --source sim --kind perfsim --version 1 "$T/sim.csv"
run pc report --model sim --ref lab --format html
expect_rc 0 "report html, no roofline"
figs=$(printf '%s\n' "$out" | sed -n '/<section id="figures">/,/<\/section>/p')
expect_not_in 'class="sol' "$figs" "no roofline: no speed-of-light star"
expect_not_in "speed-of-light" "$figs" "no roofline: no legend entry, no caption"
expect_in "Not applicable: no roofline value bounds these pairs" "$out" \
	"no roofline: the section says why"
finish
