#!/bin/bash
# gate rule max_blind_knobs (issue 38 item 3): the number of sweeps of the
# rule's own points flagged blind or wrong direction (corr_sens) against
# its limit; the flagged sweeps listed in text, JSON and JUnit; a rule
# whose points hold no sweep says n/a and fails (never PASS). The flags
# are checked against the independent tests/ref/sens_ref.py.
. "$(dirname "$0")/../cli/lib.sh"
S=$FIXTURES/sens

pc import -q -s sim -k perfsim "$S/model.csv"
pc import -q -s lab -k silicon "$S/silicon.csv"
policy() { # name json-of-the-rule...
	local f="$T/$1.json" n=$1
	shift
	printf '{"name": "%s", "model": "sim", "ref": "lab", "rules": [%s]}\n' \
		"$n" "$(IFS=,; echo "$*")" >"$f"
}

# the whole fixture: 3 blind (attn along bs) + 3 wrong (norm along bs)
policy zero '{"name": "knobs", "max_blind_knobs": 0}'
run pc gate --policy "$T/zero.json" --dry-run
expect_rc 1 "6 flagged sweeps fail a limit of 0"
expect_in "FAIL  knobs  n=60  max_blind_knobs 6 > 0" "$out" "the count against the limit"
expect_in "flagged sweeps of 'knobs' (3 blind, 3 wrong direction, of 32 sweeps):" \
	"$out" "counts named"
expect_in "    blind           bs attn time m/decode/seq=512: elasticity model -0.001, reference +0.801 over 5 points" \
	"$out" "a blind sweep listed: knob, op, metric, fixed key"
expect_in "    wrong direction bs norm time m/decode/seq=2048:" "$out" \
	"a wrong-direction sweep listed"
expect_in "... and 1 more (--top)" "$out" "--top bounds the list (default 5)"

policy six '{"name": "knobs", "max_blind_knobs": 6}'
run pc gate --policy "$T/six.json" --dry-run
expect_rc 0 "6 flagged sweeps pass a limit of 6"
expect_in "PASS  knobs  n=60  min_pairs 60 >= 1; max_blind_knobs 6 <= 6" "$out" "pass line"
expect_in "flagged sweeps of 'knobs'" "$out" "flagged sweeps listed on a pass too"

# JSON: the counts and every flagged sweep, equal to the reference's
run pc gate --policy "$T/zero.json" --dry-run --format json --top 100
expect_rc 1 "json exit"
got=$(printf '%s' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)["rules"][0]
s = r["sensitivity"]
c = [c for c in r["checks"] if c["limit"] == "max_blind_knobs"][0]
print(s["sweeps"], s["blind"], s["wrong_direction"], c["value"], c["threshold"], c["failed"])
for w in s["flagged"]:
    f = {"wrong direction": "wrong"}.get(w["flag"], w["flag"])
    print(w["knob"], w["op"], w["metric"], w["fixed"], f, w["points"],
          "%.9g" % w["e_model"], "%.9g" % w["e_ref"])')
expect_eq "$(printf '%s\n' "$got" | head -1)" "32 3 3 6 0 True" "json counts and check"
want=$(python3 "$TESTS/ref/sens_ref.py" "$S/model.csv" "$S/silicon.csv" |
	python3 -c '
import sys
for l in sys.stdin:
    k, op, m, fx, em, er, t, f = l.split()
    if f != "ok":
        print(k, op, m, fx, f, 5, "%.9g" % float(em), "%.9g" % float(er))' | sort)
expect_eq "$(printf '%s\n' "$got" | tail -n +2 | sort)" "$want" \
	"the flagged sweeps are the reference's"
expect_eq "$(printf '%s\n' "$got" | sed -n 2p | cut -d' ' -f1-4)" \
	"bs attn time m/decode/seq=512" "worst (largest elasticity gap) first"

# the rule's own points: seq fixed at 512 leaves the 4 bs sweeps there
policy sel '{"name": "s512", "param.seq": 512, "max_blind_knobs": 1}' \
	'{"name": "attn", "op": "attn", "max_blind_knobs": 3}'
run pc gate --policy "$T/sel.json" --dry-run --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["rules"]:
    s = r["sensitivity"]
    print(r["name"], r["status"], s["sweeps"], s["blind"], s["wrong_direction"],
          sorted({(w["op"], w["fixed"]) for w in s["flagged"]}))')" \
"s512 fail 4 1 1 [('attn', 'm/decode/seq=512'), ('norm', 'm/decode/seq=512')]
attn pass 8 3 0 [('attn', 'm/decode/seq=1024'), ('attn', 'm/decode/seq=2048'), ('attn', 'm/decode/seq=512')]" \
	"the sweeps are over the rule's selected points only"

# no sweep among the rule's points: n/a with the reason, and not a pass
policy none '{"name": "one", "param.bs": 1, "param.seq": 512, "max_blind_knobs": 6}'
run pc gate --policy "$T/none.json" --dry-run
expect_rc 1 "no sweep is not a pass"
expect_in "FAIL  one  n=4  max_blind_knobs n/a (no sweep among the rule's pairs: a sweep is one op and metric over >= 3 positive values" \
	"$out" "n/a says why"
expect_not_in "flagged sweeps" "$out" "nothing listed"
run pc gate --policy "$T/none.json" --dry-run --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)["rules"][0]
c = [c for c in r["checks"] if c["limit"] == "max_blind_knobs"][0]
print(r["status"], r["sensitivity"], c["value"], c["why"][:31])')" \
	"fail None None no sweep among the rule's pairs" "json: sensitivity null, value null, why"

# JUnit: the failure names the count, the body the sweeps; a passing rule
# with flagged sweeps keeps them in system-out
policy ju '{"name": "zero", "max_blind_knobs": 0}' '{"name": "six", "max_blind_knobs": 6}'
run pc gate --policy "$T/ju.json" --dry-run --junit "$T/j.xml"
expect_rc 1 "junit exit"
run python3 - "$T/j.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
cases = {c.get("name"): c for c in suite.findall("testcase")}
f = cases["zero"].find("failure")
assert f.get("message") == "max_blind_knobs 6 > 0", f.get("message")
assert "blind           bs attn time m/decode/seq=512" in f.text, f.text
assert cases["six"].find("failure") is None
assert "wrong direction bs norm time" in cases["six"].find("system-out").text
print("ok")
PY
expect_eq "$out" "ok" "JUnit lists the flagged sweeps ($err)"

# the limit is a count
policy bad '{"name": "k", "max_blind_knobs": -1}'
run pc gate --policy "$T/bad.json" --dry-run
expect_rc 2 "negative limit refused"
expect_in "rules[0].max_blind_knobs" "$err" "names the key"
policy bad2 '{"name": "k", "max_blind_knobs": 1.5}'
run pc gate --policy "$T/bad2.json" --dry-run
expect_rc 2 "fractional limit refused"
expect_in "whole number" "$err" "says a count"
finish
