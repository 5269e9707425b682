# Headless: the Disagreements view (5) on the demo study: the matrix of
# the current metric at the top, keys grouped by pattern with counts,
# Enter to the key's detail, `a` with the suggested category preselected.
. "$TESTS/tui/libtui.sh"
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }
count() { pcsql "SELECT count(*) FROM annotations"; }

tui_script 140 40 --model archsim --ref h100-lab <<KEYS
5
:save-screen $T/view.screen
j
:save-screen $T/second.screen
<Enter>
:save-screen $T/detail.screen
q
:save-screen $T/back.screen
KEYS
expect_rc 0 "disagreements view"
S=$(cat "$T/view.screen")
expect_in "Disagreements | 5 sources, 20 keys held by 3+ of them" "$S" "title"
expect_in "time: MAPE, concordance (log); row model, column reference; 17 keys" \
	"$S" "the matrix of the current metric"
# archsim vs h100-lab on the 17 keys: the cell equals `perfcorr matrix`
cell=$(pc matrix --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = [c for c in [m for m in d["metrics"] if m["metric"] == "time"][0]["cells"] if c["model"] == "archsim" and c["ref"] == "h100-lab"][0]
print("%.1f%% %.3f" % (100 * c["mape"], c["ccc_log"]))')
expect_in "archsim" "$(grep '^  archsim ' "$T/view.screen")" "archsim row"
expect_in "$cell" "$(grep '^  archsim ' "$T/view.screen")" "cell = perfcorr matrix ($cell)"
expect_in "odd:t100-rtl 3, split:archsim+t100-rtl|h100-cloud+h100-lab 2, odd:archsim 1, odd:h100-cloud 1, scattered 1, agree 12" \
	"$S" "counts per pattern"
expect_in "odd:t100-rtl (3 keys)" "$S" "pattern heading"
expect_in "agree (12 keys)" "$S" "agree last"
expect_in "odd:t100-rtl: rtl-bug by the rule: odd rtl: the RTL alone disagrees" \
	"$S" "the rule of the cursor's key"
expect_in "llama3-8b/decode/bs=32/seq=2048/bf16  gemm_o" \
	"$(grep -A2 'odd:t100-rtl (3 keys)' "$T/view.screen" | sed -n 3p)" \
	"second key of the pattern"
expect_in "Detail | gemm_o time" "$(screen_line "$T/detail.screen" 1)" "Enter opens the detail"
expect_in "llama3-8b/decode/bs=32/seq=2048/bf16" "$(screen_line "$T/detail.screen" 2)" \
	"the detail of the key under the cursor"
expect_in "Disagreements" "$(screen_line "$T/back.screen" 1)" "q comes back"

# `a`: the form starts with the suggested category; Esc writes nothing
before=$(count)
tui_script 140 40 --model archsim --ref h100-lab <<KEYS
5
/flash<Enter>
:save-screen $T/found.screen
a
:save-screen $T/form.screen
<Esc>
KEYS
expect_rc 0 "annotate cancelled"
expect_in "Annotate llama3-8b/decode/bs=8/seq=2048/bf16 flash_attn time" \
	"$(cat "$T/form.screen")" "form title names the key"
expect_in "suggested: modeling-error (odd perfsim: the simulator alone" \
	"$(cat "$T/form.screen")" "the form shows the suggestion and its rule"
expect_in "category   < modeling-error >" "$(cat "$T/form.screen")" \
	"suggested category preselected"
expect_eq "$(count)" "$before" "Esc: nothing written"

# saved: one row keyed to the odd source, no reference
tui_script 140 40 --model archsim --ref h100-lab <<KEYS
5
/split<Enter>
j
a
<Tab><Tab>spec v0.7 counts two passes over the activations
<C-d>
:save-screen $T/saved.screen
KEYS
expect_rc 0 "annotate"
expect_eq "$(sqlite3 -separator '|' "$PERFCORR_DB" "SELECT workload, op, \
metric, coalesce(model_source, '-'), coalesce(ref_source, '-'), status, category, note \
FROM annotations")" "llama3-8b/decode/bs=32/seq=2048/bf16|rmsnorm|time|-|-|\
explained|specification-error|spec v0.7 counts two passes over the activations" \
	"annotation row (a split names no source)"
expect_in "explained/specification-error" "$(grep 'bs=32.*rmsnorm' "$T/saved.screen")" \
	"the annotation shows beside the key"
note=$(pc matrix --format json | python3 -c '
import json, sys
k = [k for k in json.load(sys.stdin)["keys"] if k["op"] == "rmsnorm" and "bs=32" in k["workload"]][0]
print(k["annotation"]["category"], k["annotation"]["note"])')
expect_eq "$note" "specification-error spec v0.7 counts two passes over the activations" \
	"perfcorr matrix shows it"
finish
