# perfcorr report: every format's numbers equal `compare`'s, the HTML is
# well-formed with its figures, untrusted names are escaped, usage errors.
. "$TESTS/cli/lib.sh"
F=$FIXTURES/report

pc import -q --source lab --kind silicon --version 2026-01 "$F/lab.csv"
pc import -q --source sim --kind perfsim --version 1.0 "$F/sim-1.0.csv"
pc import -q --source sim --kind perfsim --version 1.1 "$F/sim-1.1.csv"
pc import -q --source roofline --kind roofline --version v1 "$F/roofline.csv"
# an annotation on one discrepancy
pc annotate --workload tiny/decode/bs=8/seq=128/fp16 --op gemm_qkv \
	--metric time --model sim --ref lab --status investigating \
	--category modeling-error --note 'qkv tiling <misses> L2 & co' \
	--author alice >/dev/null

pc compare --model sim --ref lab --format json --points --group-by metric \
	--group-by op_class >"$T/cmp.json"
for m in time power; do
	pc compare --model sim@1.0 --ref lab --metric $m --format json \
		>"$T/cmp-1.0-$m.json"
	pc compare --model sim --ref lab --metric $m --format json \
		>"$T/cmp-$m.json"
done

# --- json: the summary, every group and every point equal compare's
run pc report --model sim --ref lab --format json
expect_rc 0 "report json"
printf '%s\n' "$out" >"$T/rep.json"
run python3 - "$T" <<'EOF'
import json, sys
t = sys.argv[1]
rep = json.load(open(t + "/rep.json"))
cmp = json.load(open(t + "/cmp.json"))
bad = []
def same(a, b, where):
    if a != b:
        bad.append("%s: report %r != compare %r" % (where, a, b))
for k, v in cmp["summary"].items():
    same(rep["summary"][k], v, "summary." + k)
for s in ("model", "ref"):
    for k in ("source", "version", "kind"):
        same(rep[s][k], cmp[s][k], s + "." + k)
groups = {(g["key"]["metric"], g["key"]["op_class"]): g for g in rep["groups"]}
for g in cmp["groups"]:
    key = (g["key"]["metric"], g["key"]["op_class"])
    if key not in groups:
        bad.append("group %r missing" % (key,)); continue
    for k, v in g.items():
        if k != "key":
            same(groups[key][k], v, "group %r.%s" % (key, k))
for m in ("time", "power"):
    c = json.load(open("%s/cmp-%s.json" % (t, m)))
    for k, v in c["summary"].items():
        same(groups[(m, None)][k], v, "metric %s.%s" % (m, k))
    c = json.load(open("%s/cmp-1.0-%s.json" % (t, m)))
    i = rep["trend"]["versions"].index("1.0")
    same(rep["trend"]["mape"][m][i], c["summary"]["mape"], "trend 1.0 " + m)
pts = {(p["workload"], p["op"], p["metric"]): p for p in rep["points"]}
same(len(rep["points"]), len(cmp["points"]), "number of points")
for p in cmp["points"]:
    q = pts[(p["workload"], p["op"], p["metric"])]
    for k in ("model", "ref", "err", "ref_stddev", "within_noise",
              "sol_violation"):
        same(q[k], p[k], "point %s/%s.%s" % (p["workload"], p["op"], k))
    same(q["annotation"] is None, p["annotation"] is None, "annotation")
same(rep["discrepancies"], 4, "discrepancies")
same([r["id"] for r in rep["model"]["runs"]], [3], "model runs")
same(rep["ref"]["runs"][0]["file"], "lab.csv", "ref file")
same(len(rep["ref"]["runs"][0]["sha256"]), 64, "sha256")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
expect_rc 0 "json equals compare: $out"

# --- csv: one row per pair, the same numbers, flags and annotation
run pc report --model sim --ref lab --format csv
expect_rc 0 "report csv"
printf '%s\n' "$out" >"$T/rep.csv"
run python3 - "$T" <<'EOF'
import csv, json, sys
t = sys.argv[1]
cmp = json.load(open(t + "/cmp.json"))
rows = list(csv.DictReader(open(t + "/rep.csv", newline="")))
bad = []
if len(rows) != len(cmp["points"]):
    bad.append("rows %d != points %d" % (len(rows), len(cmp["points"])))
by = {(r["workload"], r["op"], r["metric"]): r for r in rows}
for p in cmp["points"]:
    r = by[(p["workload"], p["op"], p["metric"])]
    for k in ("model", "ref", "err"):
        if float(r[k]) != p[k]:
            bad.append("%s %s: %s != %r" % (p["op"], k, r[k], p[k]))
    if (r["within_noise"] == "1") != p["within_noise"]:
        bad.append("within_noise of " + p["op"])
r = by[("tiny/decode/bs=8/seq=128/fp16", "gemm_qkv", "time")]
if r["annotation_status"] != "investigating" or "<misses>" not in \
        r["annotation_note"] or r["discrepancy"] != "1":
    bad.append("annotated row: %r" % r)
if by[("tiny/prefill/bs=1/seq=128/fp16", "rmsnorm", "time")]["noisy_ref"] != "1":
    bad.append("noisy flag")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
expect_rc 0 "csv equals compare: $out"

# --- md: the headline and top-N numbers are compare's, rounded
run pc report --model sim --ref lab --format md --top 3
expect_rc 0 "report md"
printf '%s\n' "$out" >"$T/rep.md"
run python3 - "$T" <<'EOF'
import json, re, sys
t = sys.argv[1]
md = open(t + "/rep.md").read()
cmp = json.load(open(t + "/cmp.json"))
bad = []
pct = lambda v: "n/a" if v is None else "%.2f%%" % (v * 100)
num = lambda v: "n/a" if v is None else "%.4f" % v
for m in ("time", "power"):
    s = json.load(open("%s/cmp-%s.json" % (t, m)))["summary"]
    sec = md.split("### " + m, 1)[1]
    row = [c.strip() for c in re.search(r"^\| \*\*all\*\* \|.*$", sec,
                                        re.M).group(0).split("|")[1:-1]]
    want = ["**all**", str(s["n"]), pct(s["mape"]), pct(s["bias"]),
            pct(s["p95_abs_err"]), num(s["pearson"]), num(s["spearman"]),
            num(s["fit"]["slope"])]
    if row != want:
        bad.append("%s headline %r != %r" % (m, row, want))
worst = sorted((p for p in cmp["points"] if not (p["ref_stddev"] and
               p["ref_stddev"] / p["ref"] > 0.3)), key=lambda p: -abs(p["err"]))
sec = md.split("## Top 3 discrepancies", 1)[1].split("\n## ", 1)[0]
rows = re.findall(r"^\| (\d+) \|(.*)$", sec, re.M)
if len(rows) != 3:
    bad.append("top rows: %r" % rows)
for (rank, rest), p in zip(rows, worst):
    cells = [c.strip() for c in rest.split("|")]
    if cells[5] != pct(p["err"]):
        bad.append("top %s error %s != %s" % (rank, cells[5], pct(p["err"])))
if "**investigating** modeling-error" not in md:
    bad.append("annotation missing")
if "qkv tiling \\<misses\\> L2 \\& co" not in md:
    bad.append("note not escaped for markdown")
if "| evil\\<b\\>\\&\\|x | 1 |" not in md:      # its op class row
    bad.append("hostile op name not escaped")
if "evil<b>" in md:
    bad.append("raw hostile name in md")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
expect_rc 0 "md equals compare: $out"
expect_in "## Provenance" "$(cat "$T/rep.md")" "md provenance"
expect_in "sim-1.1.csv" "$(cat "$T/rep.md")" "md file name"
expect_in "## Excluded as noisy (1)" "$(cat "$T/rep.md")" "md noisy"
expect_in "| 1.0 |" "$(cat "$T/rep.md")" "md trend row"

# --- speed-of-light violations of a roofline model
run pc report --model roofline --ref lab --format md
expect_in "## Speed-of-light violations (1)" "$out" "md sol section"
run pc report --model roofline --ref lab --format json
expect_in '"sol_violations":1,' "$out" "json sol count"

# --- html: well-formed, self-contained, the figures, escaped names
run pc report --model sim --ref lab -o "$T/rep.html"
expect_rc 0 "report html to file"
expect_eq "$out" "" "nothing on stdout with -o"
H=$(cat "$T/rep.html")
run xmllint --noout "$T/rep.html"
expect_rc 0 "html is well-formed XML: $err"
# xmllint's HTML parser knows HTML 4 only: HTML5 and SVG element names
# are its only complaints (exit status 0); anything else is a real error
xmllint --html --noout "$T/rep.html" 2>"$T/lint" && rc=0 || rc=$?
expect_rc 0 "xmllint --html"
bad=$(grep -E 'parser (error|warning) :' "$T/lint" | grep -vE 'Tag (section|header|nav|footer|figure|figcaption|svg|rect|text|path|circle|wbr) invalid' || true)
expect_eq "$bad" "" "no html error beyond HTML5 element names"
expect_eq "$(grep -c '<svg ' "$T/rep.html")" 4 "two scatters, histogram, trend"
expect_eq "$(grep -c 'class="fig fig-scatter"' "$T/rep.html")" 2 "scatters"
expect_in 'class="fig fig-hist"' "$H" "histogram"
expect_in 'class="fig fig-trend"' "$H" "trend"
expect_in 'class="bd"' "$H" "the +-10% band"
expect_in '>investigating<' "$H" "annotation shown"
expect_in 'open/investigating</text>' "$H" "scatter legend shape"
expect_in 'evil&lt;b&gt;&amp;|x_op' "$H" "hostile name escaped"
expect_not_in 'evil<b>' "$H" "no raw hostile name"
expect_not_in '<script' "$H" "no script"
expect_not_in 'src="' "$H" "no external asset"
expect_not_in 'href="http' "$H" "no external link"
expect_in '@media print' "$H" "print styles"
expect_in '<h2>Provenance</h2>' "$H" "provenance section"
[ "$(stat -c %a "$T/rep.html")" != 600 ] && ok || fail "report file mode"

# -o infers the format; an existing non-regular target is written in place
pc report --model sim --ref lab -o "$T/rep.csv2.csv" && ok || fail "-o csv"
expect_in "workload,op,op_class" "$(head -1 "$T/rep.csv2.csv")" "csv by ext"
run pc report --model sim --ref lab -o /dev/stdout --format json
expect_in '"summary":{' "$out" "-o /dev/stdout"
[ -c /dev/null ] && ok || fail "/dev/null is still a device"

# --- policy: the verdict is the gate's (a dry run), nothing recorded
pc gate --policy "$F/policy.json" --dry-run --format json >"$T/gate.json"
before=$(db_digest)
run pc report --model sim --ref lab --policy "$F/policy.json"
expect_rc 0 "report --policy"
expect_in "## Gate" "$out" "gate section"
expect_in "**WARN: 1 of 2 rules passed, 1 warned, 0 failed (policy 'sim-weekly'" \
	"$out" "gate verdict line"
expect_in "- WARN worst-point: min_pairs 10 \\>= 1; max_abs_err 25% \\> 20%" \
	"$out" "gate rule line"
expect_eq "$(db_digest)" "$before" "report --policy records nothing"
run pc report --model sim --ref lab --policy "$F/policy.json" --format json
printf '%s\n' "$out" >"$T/rg.json"
run python3 -c 'import json, sys
g = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2]))
sys.exit(0 if g["verdict"] == r["gate"]["verdict"] == "warn" else 1)' \
	"$T/gate.json" "$T/rg.json"
expect_rc 0 "json gate verdict equals gate's"
run pc report --model sim --ref lab --policy "$F/policy.json" -o "$T/g.html"
expect_in '<p class="verdict g-warn">WARN: 1 of 2' "$(cat "$T/g.html")" \
	"html gate verdict"
run pc report --model sim --ref lab --policy "$F/nosuch.json"
expect_rc 1 "missing policy"
expect_in "nosuch.json" "$err" "missing policy named"

# --- errors
run pc report --ref lab
expect_rc 2 "missing --model"
expect_in "--model and --ref are required" "$err" "missing --model message"
run pc report --model sim --ref lab --format pdf
expect_rc 2 "unknown format"
expect_in "unknown format 'pdf'" "$err" "unknown format message"
run pc report --model sim --ref lab --top 0
expect_rc 2 "--top 0"
run pc report --model nosuch --ref lab
expect_rc 1 "unknown source"
expect_in "nosuch" "$err" "unknown source named"
before=$(db_digest)
run pc report --model sim --ref lab -o "$T/nodir/x.html"
expect_rc 1 "unwritable output"
expect_eq "$(db_digest)" "$before" "a failed report changes nothing"
run pc report --help
expect_rc 0 "help"
expect_in "--since-last-review" "$out" "help lists options"

finish
