#!/bin/bash
# The report's "Accuracy against cost per tier" (issue 38 item 5): the
# table and the cheapest tier per class as perfcorr tiers gives them (the
# json member is the command's object), the html figure (one marker per
# class and tier with a cost in the figure's unit, the rest counted), and
# no section at all when no run has a cost.
. "$(dirname "$0")/../cli/lib.sh"
F=$FIXTURES/tiers

pc import -q -s lab -k silicon --cost 1h "$F/silicon_a.csv"
pc import -q -s lab -k silicon "$F/silicon_b.csv"
pc import -q -s rl -k roofline --cost 4s "$F/roofline.csv"
pc import -q -s sim -k perfsim --cost 2h "$F/sim.csv"
pc import -q -s rtl -k rtl --cost 40h "$F/rtl.csv"
pc import -q -s emu -k emulation --cost 6 --cost-unit emu-h "$F/emu.csv"

run pc tiers --ref lab --policy "$F/policy.json" --format json
tiers=$out
run pc report --model sim --ref lab --policy "$F/policy.json" --format json
expect_rc 0 "report json"
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; print(json.dumps(json.load(sys.stdin)["tiers"], sort_keys=True))')" \
	"$(printf '%s' "$tiers" | python3 -c '
import json, sys; print(json.dumps(json.load(sys.stdin), sort_keys=True))')" \
	"json 'tiers' is perfcorr tiers' object"

run pc report --model sim --ref lab --policy "$F/policy.json" --format md
expect_rc 0 "report md"
expect_in "## Accuracy against cost per tier" "$out" "md section"
expect_in "its error (a roofline, a bound: the fraction of speed of light the reference reaches and the pairs over it)" \
	"$out" "the headline says how a roofline is read"
expect_in "| attention | rtl | rtl | 4 | 3.86% | +3.86% | 10 h | meets |" "$out" \
	"a row: n, MAPE, bias, cost per workload, limits"
expect_in "| norm | rtl | rtl | 2 | 2.24% | +2.24% | 10 h | unknown: too few points to decide: 2 \\< 3 |" \
	"$out" "an undecided row says why"
expect_in "- **gemm**: perfsim sim@unversioned (30 min per workload; by the tier order)" \
	"$out" "the cheapest tier per class (the one candidate: the roofline is a bound)"
expect_in "| gemm | roofline | rl | 4 | 49.9% SoL | 0 over | 1 s | bound |" "$out" \
	"the roofline's row: a bound, the fraction of speed of light and the pairs over it"
expect_in "- **copy**: none below the reference meets: lab (silicon) itself" "$out" \
	"none meets: the reference"

pc report --model sim --ref lab --policy "$F/policy.json" -o "$T/r.html" 2>/dev/null
python3 - "$T/r.html" >"$T/fig.txt" <<'EOF'
import re, sys
h = open(sys.argv[1]).read()
s = h[h.index('<section id="tiers">'):]
s = s[:s.index('</section>')]
svg = s[s.index('<svg'):s.index('</svg>') + 6]
import xml.dom.minidom
xml.dom.minidom.parseString(svg)
print("marks", len(re.findall(r'<g><title>', svg)))
print(re.search(r'(\d+) points? \(class x tier\); (\d+) left out', svg).group(1, 2))
print("limit", "limit 10%" in svg)
print("table", s.count("<tr><td>"))
EOF
expect_eq "$(cat "$T/fig.txt")" "marks 7
('7', '6')
limit True
table 13" "html: 7 marks (s costs; the roofline, a bound, has no error to plot), 6 left out (emu-h, the reference's unknown cost), the limit, 13 rows"

# no cost anywhere: no section, no json member
export PERFCORR_DB="$T/nocost.db"
pc init >/dev/null 2>&1
pc import -q -s lab -k silicon "$F/silicon_a.csv"
pc import -q -s sim -k perfsim "$F/sim.csv"
run pc report --model sim --ref lab --format md
expect_not_in "Accuracy against cost per tier" "$out" "no section without a cost"
run pc report --model sim --ref lab --format json
expect_not_in '"tiers"' "$out" "no json member without a cost"
finish
