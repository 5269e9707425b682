# perfcorr report: every format's numbers equal `compare`'s, the HTML is
# well-formed with its figures, untrusted names are escaped, usage errors.
. "$(dirname "$0")/../cli/lib.sh"
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
pc annotate --workload tiny/decode/bs=8/seq=128/fp16 --op e2e --metric power \
	--status accepted --category measurement-issue --note "meter offset" \
	--model sim --ref lab \
	--author bob >/dev/null

pc compare --model sim --ref lab --format json --points --group-by metric \
	--group-by op_class >"$T/cmp.json"
for m in time power; do
	pc compare --model sim --ref lab --metric $m --format json \
		>"$T/cmp-$m.json"
	pc compare --model sim@1.0 --ref lab --metric $m --format json \
		>"$T/cmp-1.0-$m.json"
done
CHECK="python3 $TESTS/cli/report_check.py"

# --- json: the summary, every group and every point equal compare's
run pc report --model sim --ref lab --format json
expect_rc 0 "report json"
printf '%s\n' "$out" >"$T/rep.json"
run $CHECK json "$T"
expect_rc 0 "json equals compare: $out"
run python3 - "$T" <<'EOF'
import json, sys
t = sys.argv[1]
rep = json.load(open(t + "/rep.json"))
bad = []
for m in ("time", "power"):
    c = json.load(open("%s/cmp-1.0-%s.json" % (t, m)))
    i = rep["trend"]["versions"].index("1.0")
    if rep["trend"]["mape"][m][i] != c["summary"]["mape"]:
        bad.append("trend 1.0 " + m)
if rep["trend"]["versions"] != ["1.0", "1.1"]:
    bad.append("trend versions %r" % rep["trend"]["versions"])
if rep["discrepancies"] != 4:
    bad.append("discrepancies %r" % rep["discrepancies"])
if [r["id"] for r in rep["model"]["runs"]] != [3]:
    bad.append("model runs")
if rep["ref"]["runs"][0]["file"] != "lab.csv" or \
        len(rep["ref"]["runs"][0]["sha256"]) != 64:
    bad.append("ref provenance %r" % rep["ref"]["runs"])
p = [p for p in rep["points"] if p["op"] == "gemm_qkv" and
     p["workload"].startswith("tiny/decode")][0]
if p["annotation"]["status"] != "investigating" or \
        p["annotation"]["author"] != "alice" or not p["discrepancy"]:
    bad.append("annotated point %r" % p)
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
expect_rc 0 "json specifics: $out"

# --- csv: one row per pair, the same numbers, flags and annotation
run pc report --model sim --ref lab --format csv
expect_rc 0 "report csv"
printf '%s\n' "$out" >"$T/rep.csv"
run $CHECK csv "$T"
expect_rc 0 "csv equals compare: $out"
run python3 - "$T" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/rep.csv", newline="")))
by = {(r["workload"], r["op"], r["metric"]): r for r in rows}
r = by[("tiny/decode/bs=8/seq=128/fp16", "gemm_qkv", "time")]
ok = r["annotation_status"] == "investigating" and r["discrepancy"] == "1" \
    and r["annotation_note"] == "qkv tiling <misses> L2 & co"
ok = ok and by[("tiny/prefill/bs=1/seq=128/fp16", "rmsnorm",
                "time")]["noisy_ref"] == "1"
ok = ok and ("tiny/decode/bs=8/seq=128/fp16", "evil<b>&|x_op", "time") in by
r = by[("tiny/decode/bs=8/seq=128/fp16", "e2e", "power")]
ok = ok and r["waived"] == "1" and r["annotation_status"] == "accepted"
sys.exit(0 if ok else 1)
EOF
expect_rc 0 "csv specifics"

# --- md: the headline and top-N numbers are compare's, rounded
run pc report --model sim --ref lab --format md --top 3
expect_rc 0 "report md"
printf '%s\n' "$out" >"$T/rep.md"
run $CHECK md "$T" 3
expect_rc 0 "md equals compare: $out"
M=$(cat "$T/rep.md")
expect_in '**investigating** modeling-error | qkv tiling \<misses\> L2 \& co | alice |' \
	"$M" "md annotation, note escaped"
expect_in '| evil\<b\>\&\|x | 1 |' "$M" "md hostile op class escaped"
expect_not_in 'evil<b>' "$M" "no raw hostile name in md"
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
bad=$(grep -E 'parser (error|warning) :' "$T/lint" | grep -vE 'Tag (section|header|nav|footer|figure|figcaption|details|summary|svg|rect|text|path|circle|wbr|g) invalid' || true)
expect_eq "$bad" "" "no html error beyond HTML5 element names"
# time (10 rows, 5 pairs or more): a scatter, an error plot and a Bland-Altman panel;
# power (2 pairs, fixtures/report/lab.csv): a table of its pairs, no
# figure; then the histogram, the trend, the disagreement heatmaps of
# power (its grid: sim and lab, the roofline holds none, said) and time
expect_eq "$(grep -c '<svg ' "$T/rep.html")" 7 \
	"time's three figures; histogram, trend, two disagreement heatmaps"
expect_in "roofline: no power results, left out of the power grid." \
	"$(cat "$T/rep.html")" "the roofline left out of the power grid, said"
expect_eq "$(grep -c 'class="fig fig-scatter"' "$T/rep.html")" 1 "scatters"
expect_in "power: 2 pairs with a valid reference, too few for a scatter" "$H" \
	"power: a table of its 2 pairs"
expect_in 'class="fig fig-hist"' "$H" "histogram"
expect_in 'class="fig fig-trend"' "$H" "trend"
expect_in '<tr class="all"><td>1.1</td>' "$H" "trend table, current version"
expect_in 'class="bd"' "$H" "the +-10% band"
expect_in '>investigating<' "$H" "annotation shown"
expect_in '>investigating</text>' "$H" "scatter legend shape (the triangle: investigating, since open is the unannotated circle)"
expect_in '<td>evil&lt;b&gt;&amp;|x</td>' "$H" "hostile op class escaped"
expect_not_in 'evil<b>' "$H" "no raw hostile name"
expect_not_in '<script' "$H" "no script"
expect_not_in 'src="' "$H" "no external asset"
expect_not_in 'href="http' "$H" "no external link"
expect_in '@media print' "$H" "print styles"
# the print sheet's key rules (issue 20; the pages were looked at as
# PDF from headless Chromium): A4, navigation hidden, figures, cards and
# rows never cut, headings kept with what follows, table heads repeated,
# colours printed, links written out, figures within the page's width
pr=$(printf '%s\n' "$H" | sed -n 's/.*\(@media print{.*}\)$/\1/p')
for rule in '@page{size:A4' 'nav{display:none}' \
	'tr,figure,.card,.cards{break-inside:avoid}' \
	'h2,h3,h4,h2+p,h3+p{break-after:avoid}' \
	'thead{display:table-header-group}' 'print-color-adjust:exact' \
	'a[href^="http"]::after{content:" (" attr(href) ")"' \
	'svg.fig{max-width:100%;height:auto}'; do
	expect_in "$rule" "$pr" "print rule $rule"
done
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
expect_in "- WARN worst-point: " "$out" "gate rule line"
expect_in "max_abs_err 25% \\> 20% (1 waived)" \
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

# --- control characters and bytes that are not UTF-8 in names
printf 'workload,op,metric,value,unit\nw/bs=1,bad\033[31mop\377,time,1,ms\n' \
	>"$T/h_ref.csv"
printf 'workload,op,metric,value,unit\nw/bs=1,bad\033[31mop\377,time,2,ms\n' \
	>"$T/h_mod.csv"
pc import -q --source hr --kind silicon --version 1 "$T/h_ref.csv"
pc import -q --source hm --kind perfsim --version 1 "$T/h_mod.csv"
pc report --model hm --ref hr -o "$T/h.html" && ok || fail "hostile html"
run xmllint --noout "$T/h.html"
expect_rc 0 "html with control bytes is well-formed: $err"
expect_in 'bad\x1b[31mop'$'\xef\xbf\xbd' "$(cat "$T/h.html")" "html: visible"
run pc report --model hm --ref hr --format md
expect_in 'bad\\x1b\[31mop'$'\xef\xbf\xbd' "$out" "md: visible and escaped"
case "$out" in *$'\033'*|*$'\377'*) fail "raw control byte in md" ;; *) ok ;; esac
run pc report --model hm --ref hr --format json
printf '%s\n' "$out" | python3 -c 'import json, sys; json.load(sys.stdin)' &&
	ok || fail "json with control bytes parses"

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
