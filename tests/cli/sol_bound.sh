# The roofline is a bound for every pairing (issue 35): a pair whose
# model or reference value beats the stored roofline of its key (a time
# below it, a rate above it, beyond a relative 1e-9) is a speed-of-light
# violation whatever the model's kind; equality is not; roofline times
# bound cycles through the reference's clock; two roofline sources on a
# key are refused until --roofline chooses; a gate rule no roofline
# bounds is n/a, never a pass.
. "$(dirname "$0")/../cli/lib.sh"

# times in us, lab the reference, sim a simulator, roof the roofline:
#   w1: roof 100, sim  90 (beats), lab 110          -> SoL, by the model
#   w2: roof 100, sim 120,          lab  95 (beats) -> SoL, by the ref
#   w3: roof 100, sim 100 (equal),  lab 100 (equal) -> none
#   w4: roof 100, sim 100*(1-1e-12), lab 130       -> none (tolerance)
#   w5: no roofline                                 -> none, unbounded
# throughput (higher is better, tokens/s):
#   w1: roof 1000, sim 1100 (beats), lab 900        -> SoL, by the model
#   w2: roof 1000, sim  900,         lab 950        -> none
cat >"$T/roof.csv" <<EOF
workload,op,metric,value,unit
m/w1,gemm,time,100,us
m/w2,gemm,time,100,us
m/w3,gemm,time,100,us
m/w4,gemm,time,100,us
m/w1,attn,throughput,1000,tokens/s
m/w2,attn,throughput,1000,tokens/s
EOF
cat >"$T/sim.csv" <<EOF
workload,op,metric,value,unit
m/w1,gemm,time,90,us
m/w2,gemm,time,120,us
m/w3,gemm,time,100,us
m/w4,gemm,time,99.9999999999,us
m/w5,gemm,time,50,us
m/w1,attn,throughput,1100,tokens/s
m/w2,attn,throughput,900,tokens/s
EOF
cat >"$T/lab.csv" <<EOF
workload,op,metric,value,unit
m/w1,gemm,time,110,us
m/w2,gemm,time,95,us
m/w3,gemm,time,100,us
m/w4,gemm,time,130,us
m/w5,gemm,time,60,us
m/w1,attn,throughput,900,tokens/s
m/w2,attn,throughput,950,tokens/s
EOF
pc import -q --source lab --kind silicon --version 1 "$T/lab.csv" &&
pc import -q --source sim --kind perfsim --version 1 "$T/sim.csv" ||
	fail "imports"

# without a roofline: nothing is bounded, the gate rule is n/a (fails)
run pc compare --model sim --ref lab --format json
expect_rc 0 "compare without a roofline"
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["speed_of_light"], d["summary"]["sol_violations"])')" \
	"{'roofline': None, 'bounded': 0, 'violations': 0, 'by_model': 0, 'by_ref': 0} 0" \
	"no roofline: nothing bounded"
cat >"$T/p.json" <<EOF
{"name": "sol", "model": "sim", "ref": "lab",
 "rules": [{"name": "speed-of-light", "max_sol_violations": 0, "severity": "fail"}]}
EOF
run pc gate --policy "$T/p.json" --dry-run
expect_rc 1 "an unbounded speed-of-light rule does not pass"
expect_in "FAIL  speed-of-light" "$out" "the rule fails"
expect_in "max_sol_violations n/a (no roofline value bounds these pairs" "$out" \
	"n/a with the reason"
run pc gate --policy "$T/p.json" --dry-run --format json
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); c=[x for x in d["rules"][0]["checks"] if x["limit"]=="max_sol_violations"][0]; print(d["verdict"], c["applicable"], c["failed"], c["why"][:30])')" \
	"fail False True no roofline value bounds these" "JSON: not applicable, failed"

pc import -q --source roof --kind roofline --version 1 "$T/roof.csv" || fail "roofline"
run pc compare --model sim --ref lab --format json --points
expect_rc 0 "compare with a roofline"
printf '%s' "$out" >"$T/c.json"
run python3 - "$T/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
got = {(p["workload"], p["op"]): p.get("sol_by") for p in d["points"]
       if p["sol_violation"]}
want = {("m/w1", "gemm"): "model", ("m/w2", "gemm"): "ref",
        ("m/w1", "attn"): "model"}
bad = []
if got != want:
    bad.append("violations %r, want %r" % (got, want))
s = d["speed_of_light"]
if s != {"roofline": "roof@1", "bounded": 6, "violations": 3,
         "by_model": 2, "by_ref": 1}:
    bad.append("speed_of_light %r" % s)
if d["summary"]["sol_violations"] != 3:
    bad.append("summary sol_violations %r" % d["summary"]["sol_violations"])
print("; ".join(bad), end="")
sys.exit(1 if bad else 0)
PY
expect_rc 0 "violations by side, equality and tolerance none: $out"
run pc compare --model sim --ref lab --points
expect_in "speed of light: roof@1 bounds 6 of 7 pairs; 3 violations (beaten by the model 2, by the reference 1)" \
	"$out" "compare text names the bound"
expect_in "SoL!(model)" "$out" "text flags the model side"
expect_in "SoL!(ref)" "$out" "text flags the reference side"
run pc gate --policy "$T/p.json" --dry-run
expect_rc 1 "three violations fail the rule"
expect_in "max_sol_violations 3 > 0" "$out" "counted for a simulator"

# the report lists them for a simulator
run pc report --model sim --ref lab
expect_in "## Speed-of-light violations (3)" "$out" "report section"
expect_in "roof@1 bounds 6 of 7 pairs." "$out" "report names the bound"
expect_not_in "the model is not a roofline" "$out" "no 'not applicable'"

# cycles: the roofline's 100 us bounds an RTL's cycles at the reference's
# 1 GHz clock (100,000 cycles): 90,000 beats it, 100,000 does not
cat >"$T/rtl.csv" <<EOF
workload,op,metric,value,unit
m/w1,gemm,cycles,90000,cycles
m/w3,gemm,cycles,100000,cycles
EOF
cat >"$T/emu.csv" <<EOF
workload,op,metric,value,unit
m/w1,gemm,cycles,120000,cycles
m/w3,gemm,cycles,100000,cycles
EOF
pc import -q --source rtl --kind rtl --version 1 --clock-mhz 1000 "$T/rtl.csv" &&
pc import -q --source emu --kind emulation --version 1 --clock-mhz 1000 "$T/emu.csv" ||
	fail "cycles imports"
run pc compare --model rtl --ref emu --format json --points
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted((p["workload"], p.get("sol_by")) for p in d["points"]), d["speed_of_light"]["bounded"])')" \
	"[('m/w1', 'model'), ('m/w3', None)] 2" "roofline time bounds cycles"

# a second roofline on the same keys: refused until one is chosen
pc import -q --source roof2 --kind roofline --version 1 "$T/roof.csv" || fail "roof2"
run pc compare --model sim --ref lab
expect_rc 1 "two bounds refused"
expect_in "several roofline sources bound (m/w1, gemm): 'roof@1', 'roof2@1'" "$err" \
	"names the key and the sources"
expect_in "choose one with --roofline SOURCE" "$err" "names the cure"
run pc compare --model sim --ref lab --roofline roof2 --format json
expect_rc 0 "--roofline chooses"
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["speed_of_light"]["roofline"], d["speed_of_light"]["violations"])')" \
	"roof2@1 3" "the chosen bound"
run pc compare --model sim --ref lab --roofline lab
expect_rc 2 "a silicon source is no roofline"
expect_in "source 'lab' is a silicon, not a roofline" "$err" "says why"
# a roofline side of the pairing is its own bound: no ambiguity
run pc compare --model roof --ref lab --format json
expect_rc 0 "roofline model: its own bound"
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["speed_of_light"]["roofline"], d["speed_of_light"]["violations"], d["speed_of_light"]["by_ref"])')" \
	"roof@1 1 1" "the reference beats the roofline model on w2 only"
finish
