# The report ordered for the meeting (issue 35 item 6), on the review of
# lib_meeting.sh: the verdict and the cards (open, new since the last
# review, regressions, speed of light: the JSON's numbers), then the open
# discrepancies (the settled ones folded), new/resolved since the last
# review, the regressions (the improvements folded), speed of light,
# figures, accuracy tables, and the provenance last (one line per side,
# the files in a fold: no sha256 row before the discrepancies). Model
# before reference in every table; the error plots' range covers the
# largest |error| (nothing clipped onto an edge); values in the metric's
# unit print with it (RMSE, the fit's intercept).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_meeting.sh"
meeting_db
P="$FIXTURES/policy/example.json"
pc report --model archsim --ref h100-lab --since-last-review --policy "$P" \
	-o "$T/r.json" && ok || fail "json"
pc report --model archsim --ref h100-lab --since-last-review --policy "$P" \
	-o "$T/r.html" && ok || fail "html"
pc report --model archsim --ref h100-lab --since-last-review --policy "$P" \
	-o "$T/r.md" && ok || fail "md"
run xmllint --noout "$T/r.html"
expect_rc 0 "html well-formed: $err"

run python3 - "$T" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
t = sys.argv[1]
H, S = "{http://www.w3.org/1999/xhtml}", "{http://www.w3.org/2000/svg}"
rep = json.load(open(t + "/r.json"))
root = ET.parse(t + "/r.html").getroot()
body = root.find(H + "body")
bad = []
def text(e):
    return re.sub(r"\s+", " ", "".join(e.itertext())).strip()
# the sections in the meeting's order
ids = [s.get("id") or s.get("class") for s in body.findall(H + "section")]
want = ["cards", "gate", "top", "review", "previous", "sol", "figures",
        "accuracy", "calibration", "ops", "trend", "tiers", "matrix", "noisy",
        "provenance"]
if ids != want:
    bad.append("sections %r" % ids)
# the cards: verdict, open, new, regressions, speed of light first
cards = [(text(c.find(H + "b")), text(c.find(H + "span")))
         for c in body.find(H + "section").findall(H + "div")]
opn = rep["open"]
want = [("FAIL", "gate verdict"),
        (str(opn), "open of %d discrepancies" % rep["discrepancies"]),
        (str(len(rep["review"]["new"])), "new since the last review"),
        (str(rep["previous"]["regressed"]), "regressions vs 2.4.0"),
        (str(rep["sol_violations"]), "speed-of-light violations")]
if cards[:5] != want:
    bad.append("cards %r, want %r" % (cards[:5], want))
if not (opn == 9 and rep["discrepancies"] == 10 and rep["previous"]["regressed"] == 4
        and len(rep["review"]["new"]) == 4 and rep["sol_violations"] == 3):
    bad.append("the scenario moved: %r" % ((opn, rep["discrepancies"],
               rep["previous"]["regressed"], len(rep["review"]["new"])),))
def sec(i):
    return [s for s in body.findall(H + "section") if s.get("id") == i][0]
# open first; the explained one in a fold
top = sec("top")
if text(top.find(H + "h2")) != "Open discrepancies (9 of 10)":
    bad.append("top heading %r" % text(top.find(H + "h2")))
fold = top.find(H + "details")
if fold is None or text(fold.find(H + "summary")) != "Explained, accepted, fixed or wontfix (1)":
    bad.append("the settled discrepancy is not folded")
# the improvements folded, the regressions worst first
prev = sec("previous")
reg = [t for t in prev.findall(H + "table")]
imp = prev.find(H + "details")
if len(reg) != 1 or imp is None or not text(imp.find(H + "summary")).startswith("Improvements ("):
    bad.append("previous: regressions then improvements folded")
else:
    ch = [float(text(tr[5]).split()[0]) for tr in reg[0].find(H + "tbody")]
    if ch != sorted(ch, reverse=True):
        bad.append("regressions not worst first %r" % ch)
# provenance: one line per side, the files in a fold
prov = sec("provenance")
lines = [text(li) for li in prov.find(H + "ul").findall(H + "li")]
if len(lines) != 2 or not lines[0].startswith("model archsim 2.5.0 (perfsim)") \
        or "reference h100-lab 2026-11-24 (silicon) on H100-SXM5-80GB: 11 files" not in lines[1]:
    bad.append("provenance lines %r" % lines)
if prov.find(H + "table") is not None or prov.find(H + "details").find(H + "table") is None:
    bad.append("provenance files not folded")
# model before reference in every table of the page
for tb in root.iter(H + "table"):
    th = [text(x).lower() for x in tb.iter(H + "th")]
    m = [i for i, x in enumerate(th) if x == "model"]
    r = [i for i, x in enumerate(th) if x in ("ref", "reference")]
    if m and r and m[0] > r[0]:
        bad.append("reference before model: %r" % th)
# the error plots cover the largest |error| of their metric: the top
# tick is at least it, and no mark is clipped onto an edge ("cr")
for svg in root.iter(S + "svg"):
    if "fig-err" not in svg.get("class", "").split():
        continue
    metric = text(svg.find(S + "title")).split(":")[0]
    errs = [abs(p["err"]) for p in rep["points"] if p["metric"] == metric
            and p["err"] is not None and not p["noisy_ref"] and not p["invalid"]]
    ticks = [float(text(x).rstrip("%").replace("\u2212", "-")) / 100
             for x in svg.iter(S + "text") if re.fullmatch(r"[+-]?[0-9.]+%", text(x))]
    if not ticks or max(ticks) < max(errs):
        bad.append("%s error plot to %s, the largest |error| is %.4f" %
                   (metric, ticks and max(ticks), max(errs)))
    if any("cr" in (e.get("class") or "").split() for e in svg.iter()):
        bad.append("%s: a mark clipped onto the edge" % metric)
print("\n".join(bad), end="")
sys.exit(1 if bad else 0)
PY
expect_rc 0 "html in the meeting's order: $out"

# markdown: the same order; no sha256 row before the discrepancies
heads=$(grep -E '^## |^<details><summary>' "$T/r.md" | sed 's/ ([^)]*)//g' | tr '\n' ';')
expect_eq "$heads" "## Gate;## Open discrepancies;<details><summary>Explained, accepted, fixed or wontfix</summary>;## Since the last review;## Against the previous model version;<details><summary>Improvements</summary>;## Speed-of-light violations;## Accuracy by metric and op class;## Calibration and held out;## All statistics;## Accuracy by op;## MAPE by model version;## Accuracy against cost per tier;## Who disagrees with whom;## Excluded as noisy;## Provenance;<details><summary>The 12 files and their sha256</summary>;" \
	"md: the meeting's order"
first_sha=$(grep -n '`[0-9a-f]\{64\}`' "$T/r.md" | head -1 | cut -d: -f1)
fold=$(grep -n '^<details><summary>The 12 files' "$T/r.md" | cut -d: -f1)
[ -n "$first_sha" ] && [ -n "$fold" ] && [ "$first_sha" -gt "$fold" ] && ok ||
	fail "md: a sha256 row at line $first_sha, outside the files' fold (line $fold)"
expect_in "**Gate: FAIL** · **9 open** of 10 discrepancies · **4 new** since the last review · **4 regressions** vs 2.4.0 · **3 speed-of-light violations**" \
	"$(cat "$T/r.md")" "md: the cards' line"
expect_in "| workload | op | metric | model | ref | ref stddev | n |" "$(cat "$T/r.md")" \
	"md: the noisy table, model first"

# a value in the metric's unit prints with it (one metric: t100-rtl
# holds time only); json keeps the raw SI number
run pc report --model t100-rtl --ref h100-lab --no-matrix --no-trend --format md
rmse=$(pc report --model t100-rtl --ref h100-lab --no-matrix --no-trend --format json |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["rmse"])')
want=$(python3 -c "print('%.3g µs' % ($rmse * 1e6))")
expect_in "| RMSE | \`rmse\` | $want |" "$out" "md: RMSE $want (json $rmse s)"
expect_not_in "| \`fit.intercept\` | 0.0000 |" "$out" "md: the intercept is not 0.0000"
finish
