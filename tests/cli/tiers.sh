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
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
g = lambda x: "-" if x is None else "%.9g" % x
for c in d["classes"]:
    for r in c["rows"]:
        print("row", c["class"], r["kind"], r["source"], r["n"], g(r["mape"]), g(r["bias"]),
              g(r["cost"]["per_workload"]), r["cost"]["unit"] or "-", r["status"])
    ch = c["cheapest"]
    print("cheapest", c["class"], ch["status"] if ch["status"] != "-" else "none",
          ch["source"] or "-", "cost" if ch["by"] == "cost" else "tier-order")')
expect_eq "$got" "$want" "every class and tier: n, MAPE, bias, cost per workload, status, cheapest"
# the cases the fixture was built for
expect_in "cheapest gemm meets sim cost" "$want" "gemm: perfsim, the cheapest, meets"
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
