#!/bin/bash
# report's "Sensitivity to each knob" (issue 38 item 3): the knob sweeps
# flagged blind or wrong direction, worst first, in md, html and json,
# equal to the independent tests/ref/sens_ref.py; no section (and no json
# key) when nothing is flagged.
. "$(dirname "$0")/../cli/lib.sh"
S=$FIXTURES/sens

pc import -q -s sim -k perfsim "$S/model.csv"
pc import -q -s lab -k silicon "$S/silicon.csv"
pc import -q -s twin -k perfsim "$S/silicon.csv"

run pc report --model sim --ref lab --format json
expect_rc 0 "report json"
got=$(printf '%s' "$out" | python3 -c '
import json, sys
s = json.load(sys.stdin)["sensitivity"]
print(s["sweeps"], s["blind"], s["wrong_direction"], len(s["flagged"]))
gaps = [abs(w["e_model"] - w["e_ref"]) for w in s["flagged"]]
print(gaps == sorted(gaps, reverse=True))
for w in s["flagged"]:
    f = {"wrong direction": "wrong"}.get(w["flag"], w["flag"])
    print(w["knob"], w["op"], w["metric"], w["fixed"], f, w["points"],
          "%.9g" % w["e_model"], "%.9g" % w["e_ref"], "%.9g" % w["tau"])')
expect_eq "$(printf '%s\n' "$got" | head -2)" "32 3 3 6
True" "counts; worst (largest elasticity gap) first"
want=$(python3 "$TESTS/ref/sens_ref.py" "$S/model.csv" "$S/silicon.csv" |
	python3 -c '
import sys
for l in sys.stdin:
    k, op, m, fx, em, er, t, f = l.split()
    if f != "ok":
        print(k, op, m, fx, f, 5, "%.9g" % float(em), "%.9g" % float(er), "%.9g" % float(t))' | sort)
expect_eq "$(printf '%s\n' "$got" | tail -n +3 | sort)" "$want" \
	"every flagged sweep equals the reference's"

run pc report --model sim --ref lab --format md --top 4
expect_rc 0 "report md"
expect_in "## Sensitivity to each knob" "$out" "md section"
expect_in "6 of 32 knob sweeps flagged (3 blind, 3 wrong direction)" "$out" "md headline"
expect_in "| blind | bs | attn | time | m/decode/seq=512 | 5 | -0.001 | +0.801 | 0.000 |" \
	"$out" "worst sweep first in the table"
expect_eq "$(printf '%s\n' "$out" | sed -n '/^## Sensitivity/,/^## /p' | grep -c '^| \(blind\|wrong\)')" \
	4 "--top bounds the rows"
expect_in "... and 2 more" "$out" "the rest counted"

run pc report --model sim --ref lab --format html
expect_in '<section id="sensitivity">' "$out" "html section"
expect_in "<td>wrong direction</td><td>bs</td><td>norm</td>" "$out" "html row"

# a model that follows every knob: no section, no key
run pc report --model twin --ref lab --format md
expect_rc 0 "twin md"
expect_not_in "Sensitivity" "$out" "no section without a flagged sweep"
run pc report --model twin --ref lab --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; print("sensitivity" in json.load(sys.stdin))')" "False" \
	"no json key without a flagged sweep"
finish
