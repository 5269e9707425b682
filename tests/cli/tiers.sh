#!/bin/bash
# perfcorr tiers (issue 38 item 5): per op class and tier, the error, the
# cost per workload and the cheapest tier that meets the policy's limits,
# against tests/ref/tiers_ref.py on fixtures/tiers/ (fixtures/tiers/gen.py:
# perfsim cheapest for gemm, rtl the cheapest that meets for attention,
# norm unknown because rtl has 2 points, copy met by no tier).
. "$(dirname "$0")/../cli/lib.sh"
F=$FIXTURES/tiers

pc import -q -s lab -k silicon --cost 1h "$F/silicon_a.csv"
pc import -q -s lab -k silicon "$F/silicon_b.csv"
pc import -q -s rl -k roofline --cost 4s "$F/roofline.csv"
pc import -q -s sim -k perfsim --cost 2h "$F/sim.csv"
pc import -q -s rtl -k rtl --cost 40h "$F/rtl.csv"
pc import -q -s emu -k emulation --cost 6 --cost-unit emu-h "$F/emu.csv"

want=$(python3 "$TESTS/ref/tiers_ref.py" 0.10 3 \
	"lab:silicon:$F/silicon_a.csv@3600:s+$F/silicon_b.csv" \
	"rl:roofline:$F/roofline.csv@4:s" "sim:perfsim:$F/sim.csv@7200:s" \
	"rtl:rtl:$F/rtl.csv@144000:s" "emu:emulation:$F/emu.csv@6:emu-h")
run pc tiers --ref lab --policy "$F/policy.json" --format json
expect_rc 0 "tiers json"
# the rows as tiers_ref.py prints them
rows() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
g = lambda x: "-" if x is None else "%.9g" % x
for c in d["classes"]:
    for r in c["rows"]:
        print("row", c["class"], r["kind"], r["source"], r["n"], g(r["mape"]), g(r["bias"]),
              g(r["cost"]["per_workload"]), r["cost"]["unit"] or "-", r["status"],
              g(r["sol_fraction"]), "-" if r["sol_over"] is None else r["sol_over"])
    ch = c["cheapest"]
    print("cheapest", c["class"], ch["status"] if ch["status"] != "-" else "none",
          ch["source"] or "-", "cost" if ch["by"] == "cost" else "tier-order")'
}
got=$(printf '%s' "$out" | rows)
expect_eq "$got" "$want" "every class and tier: n, MAPE, bias (a roofline: the fraction of speed of light, the pairs over it), cost per workload, status, cheapest"
expect_in "row gemm roofline rl 4 - - 1 s bound 0.498682734 0" "$want" \
	"the roofline is graded as a bound (50% of speed of light), not by its MAPE"
# the cases the fixture was built for
expect_in "cheapest gemm meets sim tier-order" "$want" \
	"gemm: perfsim, the cheapest, meets (the one candidate: a bound is none)"
expect_in "cheapest attention meets rtl cost" "$want" "attention: rtl meets, cheaper tiers fail"
expect_in "cheapest norm unknown emu tier-order" "$want" "norm: rtl undecided (2 points)"
expect_in "cheapest copy fails -" "$want" "copy: no tier meets"

run pc tiers --ref lab --policy "$F/policy.json"
expect_rc 0 "tiers table"
expect_in "reference: lab@unversioned (silicon); classes by op_class; limits: tiers-fixture" \
	"$out" "heading"
expect_in "  attention      rtl rtl@unversioned (10 h per workload; by measured cost)" \
	"$out" "the cheapest that meets, by measured cost"
expect_in "  norm           unknown: rtl (rtl) is cheaper and undecided (too few points to decide: 2 < 3); the first that meets: emulation emu@unversioned (1.5 emu-h per workload; by the tier order)" \
	"$out" "undecided: says which tier and why, then the first that meets"
expect_in "  copy           none below the reference meets: lab (silicon) itself" \
	"$out" "none meets: the reference"
expect_in "- (1 of 2 runs)  reference" "$out" "a run without a cost: the reference's cost unknown, said"
expect_in "  attention sim: kernel-time: max_mape 20.14% > 10%" "$out" "why it fails"

# a roofline graded as a bound (QA finding: tiers graded it by MAPE, as if
# a bound were a prediction): 95% of the lab's speed on attention (MAPE
# 5%: the old code said it "meets" kernel-time's 10% and named this
# 4-second roofline the cheapest tier for attention) and beaten by the
# lab's gemm (10% over the lab's time): the fraction of speed of light,
# the pairs over it, never the cheapest
python3 - "$F/roofline.csv" "$F/silicon_a.csv" "$F/silicon_b.csv" >"$T/rl2.csv" <<'EOF'
import csv, sys
lab = {}
for f in sys.argv[2:]:
    lab.update({(r["workload"], r["op"]): float(r["value"]) for r in csv.DictReader(open(f))})
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(["workload", "op", "metric", "value", "unit"])
for r in csv.DictReader(open(sys.argv[1])):
    ref, v = lab.get((r["workload"], r["op"])), float(r["value"])
    if ref and r["op"].startswith("attn"):
        v = ref * 0.95
    elif ref and r["op"].startswith("gemm"):
        v = ref * 1.1
    w.writerow([r["workload"], r["op"], r["metric"], "%.9e" % v, r["unit"]])
EOF
pc import -q -s rl2 -k roofline --cost 4s "$T/rl2.csv"
want2=$(python3 "$TESTS/ref/tiers_ref.py" 0.10 3 \
	"lab:silicon:$F/silicon_a.csv@3600:s+$F/silicon_b.csv" \
	"rl2:roofline:$T/rl2.csv@4:s" "sim:perfsim:$F/sim.csv@7200:s")
run pc tiers --ref lab --policy "$F/policy.json" --source rl2 --source sim --format json
expect_rc 0 "a roofline near the lab and one the lab beats"
expect_eq "$(printf '%s' "$out" | rows)" "$want2" "graded as a bound, against tiers_ref.py"
expect_in "row attention roofline rl2 4 - - 1 s bound 0.95 0" "$want2" "attention: 95% of speed of light"
expect_in "cheapest attention fails - tier-order" "$want2" "a bound is never the cheapest"
expect_in "row gemm roofline rl2 4 - - 1 s bound 1.1 4" "$want2" "gemm: the lab beats it on 4 pairs"
run pc tiers --ref lab --policy "$F/policy.json" --source rl2 --source sim
expect_in "95.0% SoL   0 over" "$(grep "^attention  roofline" <<<"$out")" "text: SoL and over, no MAPE"
expect_in "  attention      none below the reference meets: lab (silicon) itself" "$out" \
	"text: the roofline is not the cheapest"
expect_in "  gemm rl2: 4 of 4 pairs beat the bound" "$out" "why: the pairs over the bound"
expect_in "a roofline is a bound, not a prediction" "$out" "the table says how a bound is read"
run pc tiers --ref lab --source rl2 --format csv
expect_in "class,kind,source,version,n,mape,bias,cost_per_workload,cost_unit,status,why,cheapest,sol_fraction,sol_over" \
	"$out" "csv: the bound's columns"
expect_in "attention,roofline,rl2,unversioned,4,,,1,s,bound,,,0.9" "$out" "csv: no MAPE for a bound"

# no policy: the table, no verdicts
run pc tiers --ref lab
expect_rc 0 "without a policy"
expect_in "limits: none (--policy FILE)" "$out" "says there are no limits"
expect_in "  gemm           - (no limits (--policy))" "$out" "no cheapest without limits"
# the policy's ref is the default reference; --min-points 2 decides norm
run pc tiers --policy "$F/policy.json" --min-points 2 --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["ref"]["source"], [(c["class"], c["cheapest"]["status"], c["cheapest"]["source"]) for c in d["classes"] if c["class"] == "norm"])')" \
	"lab [('norm', 'meets', 'rtl')]" "--min-points 2: rtl decides norm (policy's ref)"
# a tier without a cost: the order falls back to the ladder
pc import -q -s sim2 -k perfsim "$F/sim.csv"
run pc tiers --ref lab --policy "$F/policy.json" --source rl --source sim2 --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = [c for c in d["classes"] if c["class"] == "gemm"][0]
print([t["source"] for t in d["tiers"]], c["rows"][1]["cost"]["per_workload"], c["rows"][1]["cost"]["runs_without_cost"], c["cheapest"]["source"], c["cheapest"]["by"])')" \
	"['rl', 'sim2'] None 1 sim2 tier order" "--source picks the tiers; no cost: the ladder decides"
# a tier that pairs nothing with the reference is left out, saying why
printf 'workload,op,metric,value,unit\nz/bs=1,gemm_a,time,1e-5,s\n' >"$T/other.csv"
pc import -q -s other -k rtl "$T/other.csv"
run pc tiers --ref lab --policy "$F/policy.json"
expect_rc 0 "a tier without a pair does not stop the table"
expect_in "left out: other (rtl): " "$out" "says which tier was left out"
# classes by a parameter
run pc tiers --ref lab --class-by param.bs --format csv
expect_rc 0 "--class-by param.bs"
expect_eq "$(printf '%s\n' "$out" | cut -d, -f1 | sort -u | tr '\n' ' ')" "1 2 4 8 class " "one class per bs"

# refusals
run pc tiers --ref nosuch
expect_rc 1 "unknown reference"
expect_in "no source named 'nosuch'" "$err" "names it"
run pc tiers --ref rl
expect_rc 1 "nothing below a roofline"
expect_in "no source of a tier below the reference 'rl' (roofline)" "$err" "says why"
run pc tiers
expect_rc 2 "no reference"
expect_in "--ref SRC[@V] is required" "$err" "says what is missing"
run pc tiers --ref lab --class-by nosuch
expect_rc 1 "unknown class key"
run pc tiers --ref lab --format xml
expect_rc 2 "unknown format"
run pc tiers --help
expect_rc 0 "help"
expect_in "cheapest tier" "$out" "help explains"
finish
