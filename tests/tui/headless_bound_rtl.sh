# Issue 35 items 2 and 5 on the demo at 80x24.
# A roofline is a bound, not a model: roofline vs h100-lab lists the
# fraction of speed of light each reference value reaches (roofline /
# measured for a time) and the violations, never "41 open of 41"; the
# header's fraction is the geomean over the pairs in the statistics.
# The detail of a key whose reference is the RTL: archsim vs t100-rtl
# pairs (it said "nothing matched": --metric time converts a model's
# cycles, not a reference's) and the RTL's cycles show the time its
# clock makes of them, the time t100-rtl vs h100-lab pairs.
. "$(dirname "$0")/../tui/libtui.sh"
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }
json() { pc compare --model "$1" --ref "$2" --points --format json; }

# --- the bound
tui_script 80 24 --model roofline --ref h100-lab <<KEYS
:save-screen $T/bound.screen
o
:save-screen $T/bound_o.screen
<Enter>
:save-screen $T/bound_detail.screen
KEYS
expect_rc 0 "roofline vs h100-lab"
json roofline h100-lab > "$T/b.json"
want=$(python3 - "$T/b.json" <<'PY'
import json, math, sys
pts = json.load(open(sys.argv[1]))["points"]
# the statistics leave out noisy references (stddev/value > 0.3)
keep = [p for p in pts if not (p["ref_stddev"] and p["ref_stddev"] / p["ref"] > 0.3)]
g = math.exp(sum(math.log(p["model"] / p["ref"]) for p in keep) / len(keep))
over = sum(1 for p in pts if p["ref"] < p["model"] * (1 - 1e-9))
# the list falls in SoL (roofline / measured for a time): the largest first
first = max(pts, key=lambda p: p["model"] / p["ref"])
print("n %d  reaches %.1f%% of speed of light (geomean)  %d beat it|%.1f%%"
      % (len(keep), 100 * g, over, 100 * first["model"] / first["ref"]))
PY
)
expect_in "bound: ${want%|*}" "$(screen_line "$T/bound.screen" 2)" \
	"header: the fraction of speed of light and the violations"
expect_in "(bound) vs h100-lab" "$(screen_line "$T/bound.screen" 1)" "title: a bound"
expect_not_in "open" "$(cat "$T/bound.screen")" "no 'N open of M', no status column"
expect_in "SoL" "$(screen_line "$T/bound.screen" 3)" "the column is the fraction of SoL"
expect_in " ${want#*|}" "$(screen_line "$T/bound.screen" 4)" \
	"row 1: roofline / measured, the largest"
expect_eq "$(grep -c ' S *$' "$T/bound.screen")" 3 "three rows beat the bound"
expect_in "a roofline is a bound, not a model" "$(tail -2 "$T/bound_o.screen" | tr "\n" " ")" \
	"o: nothing to review"
expect_in "reaches ${want#*|} of speed of light" "$(cat "$T/bound_detail.screen")" \
	"the detail says the fraction, not an error"

# --- the RTL as a reference in the detail of decode bs=32 flash_attn
tui_script 80 60 --model archsim --ref h100-lab <<KEYS
<Enter>
:save-screen $T/detail.screen
KEYS
expect_rc 0 "detail"
S=$(cat "$T/detail.screen")
expect_in "Detail | flash_attn time" "$(screen_line "$T/detail.screen" 1)" "the key"
expect_not_in "nothing matched" "$S" "every pair that holds the key pairs"
rtl=$(json archsim t100-rtl | python3 -c '
import json, sys
p = [p for p in json.load(sys.stdin)["points"] if p["op"] == "flash_attn"
     and "/decode/bs=32/" in p["workload"]][0]
print("%+.1f%%" % (100 * p["err"]))')
expect_in "$rtl" "$(grep '^  archsim@2.4.0 *t100-rtl ' "$T/detail.screen")" \
	"archsim vs t100-rtl: compare's error ($rtl)"
# the RTL's cycles as the time t100-rtl vs h100-lab pairs
t=$(json t100-rtl h100-lab | python3 -c '
import json, sys
p = [p for p in json.load(sys.stdin)["points"] if p["op"] == "flash_attn"
     and "/decode/bs=32/" in p["workload"]][0]
print("%.1f" % (p["model"] * 1e6))')
expect_in "= $t us at " "$(grep ' cycles ' "$T/detail.screen")" \
	"249.6 kcycles = $t us, the time the pairing uses"
expect_in "$t us" "$(grep '^  archsim@2.4.0 *t100-rtl ' "$T/detail.screen")" \
	"the RTL's time in the pairwise line"
finish
