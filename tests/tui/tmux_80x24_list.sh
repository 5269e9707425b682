# Issue 35 item 3, in tmux at 80x24 on the demo: the Discrepancies view,
# its detail and the annotation form say what matters at 80 columns.
# Column priority (docs/tui.md): err > status > flag > ref > model >
# names: the state word is never cut ("investigating", not "investig")
# while the values keep their width, and at 50 columns model goes first,
# err never. The header keeps "N open of M" (the report's count). The
# form has a border in glyphs (NO_COLOR, ASCII) and a long note wraps.
. "$(dirname "$0")/../tui/libtui.sh"
. "$(dirname "$0")/../tui/libtmux.sh"
command -v tmux >/dev/null || { echo "tmux missing"; exit 77; }
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }
BS32=llama3-8b/decode/bs=32/seq=2048/bf16
pc annotate --workload "$BS32" --op flash_attn --metric time --model archsim \
	--ref h100-lab --status explained --category modeling-error \
	--note "split-kv combine" >/dev/null
open=$(pc report --model archsim --ref h100-lab --format md |
	sed -n 's/.*\*\*\([0-9]* open of [0-9]*\) discrepancies\*\*.*/\1/p')
[ -n "$open" ] && ok || fail "the report's count"

tmux_start 80 24 NO_COLOR=1 -- --model archsim --ref h100-lab
wait_for "open of"
expect_in "archsim@2.4.0 vs h100-lab@2026-11-24" "$(screen | sed -n 1p)" \
	"the title names the pair in full"
expect_in "$open discrepancies" "$(screen | sed -n 2p)" \
	"N open of M at 80 columns (the report's $open)"
heads=$(screen | sed -n 3p)
for h in op model ref err flag status; do
	expect_in " $h" "$heads" "column $h at 80"
done
row=$(screen | sed -n 4p)
expect_in "decode/bs=32" "$row" "the workload keeps phase and batch"
expect_in "flash_attn" "$row" "the op"
expect_in "102.2 us" "$row" "model value"
expect_in "166.4 us" "$row" "reference value"
expect_in "-38.6%" "$row" "the error"
expect_in "explained" "$row" "the state word whole (not explaine)"
expect_in "open" "$(screen | sed -n 5p)" "not annotated: open"

# the form: bordered without colour, a long note wraps
keys j a Tab Tab
keys -l "the simulator counts the split-kv combine as free but on H100 it is a third of the kernel"
wait_for "third of the kernel"
form=$(screen)
expect_in "+- Annotate $(echo "$BS32" | sed 's/32/8/') flash_attn time" "$form" \
	"the form's title in its top border"
expect_in "| note       the simulator counts the split-kv" "$form" "bordered note"
expect_in "|            " "$(screen | grep -A1 '| note ' | tail -1)" \
	"the note's second row (wrapped, not scrolled)"
expect_not_in "~" "$(screen | grep -A3 '| note ')" "no scrolled line"
keys Escape
wait_for "annotation cancelled"

# 50 columns: model and ref go, err and status stay
TM resize-window -t tui -x 50 -y 24
sleep 0.5
wait_for "err"
heads=$(screen | sed -n 3p)
expect_in " err" "$heads" "err at 50 columns"
expect_in " status" "$heads" "status at 50 columns"
expect_not_in "model" "$heads" "model left out first"
expect_in "-38.6%" "$(screen | sed -n 4p)" "the error at 50"
expect_in "explained" "$(screen | sed -n 4p)" "the state at 50"

# the detail at 80x24: every line fits (wrapped, not cut)
TM resize-window -t tui -x 80 -y 24
sleep 0.5
keys g Enter
wait_for "Detail | flash_attn time"
expect_in "model 102.2 us  ref 166.4 us  err -38.6%" "$(screen)" \
	"the pair's values on one line"
keys q Q
wait_exit
finish
