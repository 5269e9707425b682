# An annotation undone in the TUI is gone in every output (issue 35 QA 1):
# the undo of a first annotation appends a row meaning "no annotation"
# (src/corr/annot.h, ANNOT_UNDO_NONE_NOTE); report (markdown and HTML),
# gate and the TUI's E export read the pair as never annotated, as the TUI
# list does, and an annotation of a lower tier (a pattern) added later
# applies. Before, those outputs showed "open/unknown: undo: it had no
# annotation before" as the current explanation.
. "$(dirname "$0")/../tui/libtui.sh"
export NO_COLOR=1
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }
KEY='llama3-8b/decode/bs=8/seq=2048/bf16'

# row 2 of the archsim review: decode bs=8 flash_attn, annotated, undone
tui_script 140 40 --model archsim --ref h100-lab <<KEYS
j
a<Tab><Tab>too slow in the sim<C-d>
U
E<C-u>$T/rows.csv<Enter>
KEYS
expect_rc 0 "annotate, undo, export"
expect_eq "$(pcsql "SELECT note FROM annotations ORDER BY id DESC LIMIT 1")" \
	"undo: it had no annotation before" "the undo's row is stored"
row=$(grep "^$KEY,flash_attn," "$T/rows.csv")
expect_eq "$(echo "$row" | cut -d, -f9-)" "open,,,," \
	"E: open, no category, since, note or link"

run pc report --model archsim --ref h100-lab
expect_rc 0 "report"
expect_not_in "undo: it had" "$out" "report (markdown): the undo's row is no annotation"
line=$(echo "$out" | grep "| $KEY | flash_attn | time |" | head -1)
expect_in "| open |" "$line" "report: the pair is open"
expect_not_in "unknown" "$line" "report: no category"
run pc report --model archsim --ref h100-lab --format html
expect_not_in "undo: it had" "$out" "report (HTML): the undo's row is no annotation"

run pc gate --model archsim --ref h100-lab --policy "$FIXTURES/policy/example.json"
expect_not_in "undo: it had" "$out" "gate: the undo's row is no annotation"
line=$(echo "$out" | grep "$KEY flash_attn time:" | head -1)
expect_in ") - open" "$line" "gate: the pair is open"
expect_not_in "open/unknown" "$line" "gate: no category or author"

# a pattern annotation added later applies to the undone pair (the
# undo hides only the exact key's older rows)
pc annotate --pattern --workload 'llama3-8b/decode/*' --op flash_attn \
	--metric time --status investigating --note 'attention tiles' \
	>/dev/null 2>&1 || fail "annotate --pattern"
run pc report --model archsim --ref h100-lab
line=$(echo "$out" | grep "| $KEY | flash_attn | time |" | head -1)
expect_in "investigating" "$line" "report: the later pattern applies"
tui_script 140 40 --model archsim --ref h100-lab <<KEYS
E<C-u>$T/rows2.csv<Enter>
KEYS
expect_in ",investigating,unknown," "$(grep "^$KEY,flash_attn," "$T/rows2.csv")" \
	"E: the later pattern applies"
finish
