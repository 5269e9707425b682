# Undo refreshes everything that shows the annotation (issue 35 item 4):
# after `a` ... ^D and `U`, the detail's history ends with the undo's
# row (also after `r`), the Disagreements view's annotation column says
# the key is open again, and `a` starts empty (no "undo: it had no
# annotation before" pre-filled into the note).
. "$(dirname "$0")/../tui/libtui.sh"
export NO_COLOR=1
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }

# row 2 of the archsim review: decode bs=8 flash_attn, the odd:archsim
# key of view 5
tui_script 140 40 --model archsim --ref h100-lab <<KEYS
j
a<Tab><Tab>too slow in the sim<C-d>
5
:save-screen $T/dis_saved.screen
1
<Enter>
U
G
:save-screen $T/detail_undone.screen
r
G
:save-screen $T/detail_reloaded.screen
q
5
:save-screen $T/dis_undone.screen
1
a
:save-screen $T/form.screen
<Esc>
KEYS
expect_rc 0 "annotate, undo, look"
key() { grep 'bs=8/seq=2048/bf16 *flash_attn' "$1"; }
expect_in "explained/unknown" "$(key "$T/dis_saved.screen")" "view 5 shows the save"
expect_not_in "explained" "$(key "$T/dis_undone.screen")" \
	"view 5 after the undo: not still explained"
expect_in "open" "$(key "$T/dis_undone.screen")" "view 5 after the undo: open"
for s in detail_undone detail_reloaded; do
	last=$(grep -B1 'undo: it had no annotation before' "$T/$s.screen" | head -1)
	expect_in "  open  " "$last" "$s: the history's last row is the undo"
	expect_eq "$(grep -A3 'undo: it had no annotation before' "$T/$s.screen" |
		grep -c '  explained  ')" 0 "$s: no explained after the undo"
done
expect_in "Annotate llama3-8b/decode/bs=8/seq=2048/bf16 flash_attn time" \
	"$(cat "$T/form.screen")" "the form opened on the row"
expect_not_in "undo: it had" "$(cat "$T/form.screen")" "the form starts empty"
expect_in "< explained >" "$(cat "$T/form.screen")" "a fresh form's status"
expect_eq "$(pcsql "SELECT status || '|' || category || '|' || note FROM annotations ORDER BY id")" \
"explained|unknown|too slow in the sim
open|unknown|undo: it had no annotation before" "two rows, nothing deleted"
finish
