#!/bin/bash
# perfcorr sensitivity (issue 38 item 3): elasticities along every knob
# sweep against an independent computation (tests/ref/sens_ref.py), the
# blind and wrong-direction flags on fixtures built to show each
# (fixtures/sens/gen.py), and the refusals.
. "$(dirname "$0")/../cli/lib.sh"
S=$FIXTURES/sens

pc import -q -s sim -k perfsim "$S/model.csv"
pc import -q -s lab -k silicon "$S/silicon.csv"
run pc sensitivity --model sim --ref lab --format json
expect_rc 0 "sensitivity json"
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for k in d["knobs"]:
    for w in k["sweeps"]:
        f = {"wrong direction": "wrong"}.get(w["flag"], w["flag"])
        print(k["knob"], k["op"], k["metric"], w["fixed"], "%.9g" % w["e_model"],
              "%.9g" % w["e_ref"], "%.9g" % w["tau"], f)' | sort)
want=$(python3 "$TESTS/ref/sens_ref.py" "$S/model.csv" "$S/silicon.csv" |
	python3 -c '
import sys
for l in sys.stdin:
    k, op, m, fx, em, er, t, f = l.split()
    print(k, op, m, fx, "%.9g" % float(em), "%.9g" % float(er), "%.9g" % float(t), f)' | sort)
expect_eq "$got" "$want" "every sweep's elasticities, tau and flag equal the reference"
expect_eq "$(printf '%s\n' "$want" | grep -c .)" 32 "5 x 3 grid, 4 ops: 4 x (3 bs + 5 seq) sweeps"
# the flags the fixtures were built to show
expect_eq "$(printf '%s' "$want" | awk '$8 == "blind" {print $1, $2}' | sort -u)" \
	"bs attn" "attn is blind along bs (and only there)"
expect_eq "$(printf '%s' "$want" | awk '$8 == "wrong" {print $1, $2}' | sort -u)" \
	"bs norm" "norm goes the wrong way along bs"
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; d = json.load(sys.stdin)
print(d["sweeps"], d["blind"], d["wrong_direction"])')" "32 3 3" "totals"
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; d = json.load(sys.stdin)
print(d["knobs"][0]["knob"], d["knobs"][0]["op"], d["knobs"][0]["blind"] + d["knobs"][0]["wrong_direction"])')" \
	"bs attn 3" "the most flagged knob first"

run pc sensitivity --model sim --ref lab
expect_rc 0 "sensitivity table"
expect_in "32 sweeps: 3 blind, 3 wrong direction" "$out" "summary line"
expect_in "$(printf '%-15s %s' blind 'bs  attn time  m/decode/seq=512')" "$out" "flagged sweep listed"
expect_not_in "  ok   " "$out" "only flagged sweeps without --all"
run pc sensitivity --model sim --ref lab --all
expect_in "$(printf '%-15s %s' ok 'seq  attn time  m/decode/bs=1')" "$out" "--all lists the rest"

run pc sensitivity --model sim --ref lab --knob seq --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; d = json.load(sys.stdin)
print(sorted({k["knob"] for k in d["knobs"]}), d["sweeps"], d["blind"])')" \
	"['seq'] 20 0" "--knob restricts to one parameter"
run pc sensitivity --model sim --ref lab --knob tp
expect_rc 1 "a knob no workload has"
expect_in "tp" "$err" "names the knob"
run pc sensitivity --model sim --ref lab --where param.bs=1 --knob bs
expect_rc 1 "no sweep left"
expect_in "no sweep to measure: a sweep is one op and metric over >= 3 positive values" \
	"$err" "says what a sweep needs"
run pc sensitivity --help
expect_rc 0 "help"
expect_in "elasticity" "$out" "help explains"

# one sweep, one pair left out (a reference of 0): singular (QA finding:
# the TUI's view said "1 pairs"; the command the same)
printf 'workload,op,metric,value,unit\nb/bs=1,gemm,time,1.0,ms\nb/bs=2,gemm,time,2.0,ms\nb/bs=4,gemm,time,4.0,ms\nb/bs=8,gemm,time,8.0,ms\n' >"$T/m1.csv"
sed 's/,8.0,/,0,/' "$T/m1.csv" >"$T/r1.csv"
pc import -q -s m1 -k perfsim "$T/m1.csv"
pc import -q -s r1 -k silicon "$T/r1.csv"
run pc sensitivity --model m1 --ref r1
expect_in "1 sweep: 0 blind, 0 wrong direction (1 pair left out" "$out" "singular counts"
finish
