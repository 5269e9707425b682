# Space in the Detail view marks the row, as in the list (issue 35 QA 7):
# the key table bound Space (mark) in the list only, so in the detail it
# did nothing while ]/[ walked the same rows. Now Space marks the row
# shown and shows the next one (the list's Space marks and moves down),
# again unmarks; back in the list the rows carry their '*' and `a`
# annotates every marked row at once. tui --help lists Space for both.
. "$(dirname "$0")/../tui/libtui.sh"
build_db
P="--model archsim --ref h100-lab"
# the list's first three rows, |err| descending (hand, from the fixture:
# gemm_qkv decode -28.6%, flash_attn prefill +26.8%, allreduce -25.0%)
tui_script 120 30 $P <<KEYS
<Enter>
:save-screen $T/d1.screen
<Space>
:save-screen $T/d2.screen
<Space>
:save-screen $T/d3.screen
q
:save-screen $T/list.screen
a<Tab><Tab>tiles, both<C-d>
KEYS
expect_rc 0 "detail, Space, Space, back, annotate"
expect_in "gemm_qkv" "$(sed -n 1,3p "$T/d1.screen")" "the detail opens on row 1"
expect_in "flash_attn" "$(sed -n 1,3p "$T/d2.screen")" "Space: the next row shows"
expect_in "marked: 1 row marked" "$(tail -1 "$T/d2.screen")" "Space: said"
expect_in "allreduce" "$(sed -n 1,3p "$T/d3.screen")" "Space again: the row after"
expect_in "marked: 2 rows marked" "$(tail -1 "$T/d3.screen")" "two marked"
expect_eq "$(grep -c '^\*' "$T/list.screen")" 2 "the list shows two marks"
expect_eq "$(grep '^\*' "$T/list.screen" | awk '{ print $3 }' | tr '\n' ' ')" \
	"gemm_qkv flash_attn " "on the rows marked in the detail"
expect_eq "$(pcsql "SELECT op || '|' || note FROM annotations ORDER BY op")" \
"flash_attn|tiles, both
gemm_qkv|tiles, both" "a annotates both marked rows"

# again on a marked row unmarks it
tui_script 120 30 $P <<KEYS
<Enter>
<Space>
[
<Space>
:save-screen $T/u.screen
KEYS
expect_in "unmarked: 0 rows marked" "$(tail -1 "$T/u.screen")" "Space again unmarks"

# the generated key reference: Space is bound in the detail
run pc tui --help
expect_in "[discrepancies, detail]" "$(printf '%s\n' "$out" | grep -A1 '^  Space  *mark')" \
	"tui --help: Space marks in the list and the detail"
finish
