#!/usr/bin/env bash
# Headless: the Tiers view (8, issue 38 item 5) on fixtures/tiers/ (the
# database of tests/cli/tiers.sh): every class x tier row (status, MAPE
# and bias, a roofline's fraction of speed of light and pairs over it,
# the cost per workload) and the cheapest tier per class equal `perfcorr
# tiers --format json` on the same database, formatted as the view's
# columns say (python3 stdlib); fits 80 columns; one tier only and no
# cost recorded say why and the cure; q goes back.
. "$(dirname "$0")/../tui/libtui.sh"
F=$FIXTURES/tiers
pc init >/dev/null
pc import -q -s lab -k silicon --cost 1h "$F/silicon_a.csv"
pc import -q -s lab -k silicon "$F/silicon_b.csv"
pc import -q -s rl -k roofline --cost 4s "$F/roofline.csv"
pc import -q -s sim -k perfsim --cost 2h "$F/sim.csv"
pc import -q -s rtl -k rtl --cost 40h "$F/rtl.csv"
pc import -q -s emu -k emulation --cost 6 --cost-unit emu-h "$F/emu.csv"

# The view's rows from the command's JSON: class, tier, source, status,
# MAPE and bias (one decimal, the TUI's percents; a bound: SoL and the
# pairs over), cost per workload as the CLI writes it (import_cost_fmt:
# s, min or h as fits, else the unit); then the cheapest per class.
want() {
	python3 -c '
import json, math, sys
d = json.load(sys.stdin)
def cut(s, w): return s if len(s) <= w else s[:w - 1] + "~"
def pct(x, sign=False):
    if x is None: return "-"
    v = 100 * x
    if abs(v) > 99999: v = math.copysign(99999, v)
    return ("%+.1f%%" if sign else "%.1f%%") % v
def g(x): return ("%.4g" % x)
def cost(c):
    v, u = c["per_workload"], c["unit"]
    if v is None:
        if c["mixed_units"]: return "- (units differ)"
        if c["runs_without_cost"]: return "- (%d of %d runs)" % (c["runs_without_cost"], c["runs"])
        return "-"
    if u == "s":
        if v >= 3600: return g(v / 3600) + " h"
        if v >= 60: return g(v / 60) + " min"
        return g(v) + " s"
    return g(v) + " " + u
ref = d["ref"]
for c in d["classes"]:
    for r in c["rows"]:
        if r["status"] == "bound":
            m, b = pct(r["sol_fraction"]) + " SoL", "%d over" % r["sol_over"]
        else:
            m, b = pct(r["mape"]), pct(r["bias"], True)
        print("  %-12s %-9s %-9s %-9s %9s %7s %s" % (cut(c["class"], 12), r["kind"],
              cut(r["source"], 9), r["status"], m, b, cost(r["cost"])))
    print("  %-12s %-9s %-9s %-9s %9s %7s %s" % (cut(c["class"], 12), ref["kind"],
          cut(ref["source"], 9), "reference", "", "", cost(c["ref_cost"])))
for c in d["classes"]:
    ch = c["cheapest"]
    print("CHEAP", c["class"], ch["status"], ch["source"] or "-")
'
}
run pc tiers --ref lab --policy "$F/policy.json" --format json
expect_rc 0 "tiers json"
printf '%s' "$out" | want > "$T/want.txt"
grep -v '^CHEAP' "$T/want.txt" > "$T/rows.txt"
grep '^CHEAP' "$T/want.txt" > "$T/cheap.txt"
expect_eq "$(wc -l < "$T/rows.txt")" 17 "13 tier rows and 4 reference rows in the fixture"

tui_script 80 60 --model sim --ref lab --policy "$F/policy.json" <<KEYS
8
:save-screen $T/v.screen
q
:save-screen $T/back.screen
q
KEYS
expect_rc 0 "open the view and quit"
v=$(cat "$T/v.screen")
expect_in "Tiers | below lab@unversioned: 4 classes, 13 rows" \
	"$(screen_line "$T/v.screen" 1)" "title: the reference, the counts"
expect_in "Reference lab@unversioned (silicon); classes by op_class; limits: tiers-fixture" \
	"$v" "heading: the reference, the class key, the policy"
# the table's rows, in the command's order, each line as the JSON says
run python3 - "$T/v.screen" "$T/rows.txt" <<'EOF'
import sys
screen = open(sys.argv[1]).read().split("\n")
want = open(sys.argv[2]).read().rstrip("\n").split("\n")
at = next(i for i, l in enumerate(screen) if l.startswith("  class        tier"))
got = [l.rstrip() for l in screen[at + 1:at + 1 + len(want)]]
bad = [(g, w) for g, w in zip(got, want) if g != w.rstrip()]
print("equal" if not bad and len(got) == len(want) else "differ", *bad[:3], sep="\n")
EOF
expect_in "equal" "$out" "every class x tier row equals perfcorr tiers --format json, unwrapped at 80 columns"
expect_in "  gemm         roofline  rl        bound     49.9% SoL  0 over 1 s" "$v" \
	"the roofline graded as a bound, not by its MAPE"
expect_in "  attention    rtl       rtl       meets" "$v" "rtl meets for attention"
# the cheapest per class, as the command says (CHEAP lines below)
expect_in "  gemm         perfsim sim (30 min per workload; by the tier order)" "$v" \
	"gemm: the cheapest that meets is perfsim, as the command says"
expect_in "  attention    rtl rtl (10 h per workload; by cost)" "$v" \
	"attention: rtl, by measured cost"
expect_in "  norm         unknown; the first that meets: emulation emu" "$v" \
	"norm: undecided, the first that meets"
expect_in "  copy         none below the reference meets: lab itself" "$v" "copy: none"
expect_eq "$(cat "$T/cheap.txt" | tr '\n' ' ')" \
	"CHEAP attention meets rtl CHEAP copy fails - CHEAP gemm meets sim CHEAP norm unknown emu " \
	"the command agrees on the cheapest per class"
expect_in "Discrepancies" "$(screen_line "$T/back.screen" 1)" "q goes back"

# one tier only, no cost recorded: says why and the cure
export PERFCORR_DB="$T/one.db"
pc init >/dev/null
pc import -q -s lab -k silicon "$F/silicon_a.csv"
pc import -q -s sim -k perfsim "$F/sim.csv"
tui_script 80 24 --model sim --ref lab <<KEYS
8
:save-screen $T/one.screen
q
q
KEYS
expect_rc 0 "one tier: the review goes on"
one=$(cat "$T/one.screen")
expect_in "Only one tier below the reference: import another (perfcorr import --cost T)" \
	"$one" "one tier: why and the cure, one line"
expect_in "No cost recorded: perfcorr import --cost TIME [--cost-unit core-h|emu-h]" \
	"$one" "no cost: why and the cure, one line"
expect_in "No limits, no cheapest tier: perfcorr tui --policy FILE" "$one" "no policy"
expect_in "  attention    perfsim   sim       -             20.0%  -20.0% - (1 of 1 runs)" \
	"$one" "the accuracy is still shown, its cost unknown"
# no tier below the reference (a perfsim reference): the core's refusal
# and the cure
tui_script 80 24 --model lab --ref sim <<KEYS
8
:save-screen $T/none.screen
q
q
KEYS
expect_rc 0 "no tier below: the review goes on"
none=$(cat "$T/none.screen")
expect_in "no source of a tier below the reference 'sim' (perfsim)" "$none" "says why"
expect_in "Nothing to weigh: import a cheaper tier (perfcorr import -k KIND --cost T)" \
	"$none" "and the cure"
finish
