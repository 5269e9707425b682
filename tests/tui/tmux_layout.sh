# The list and the form at 80x24, 200x50 and 320 columns, in tmux: the
# workload column leaves out the parts every row shares and keeps phase
# and batch; a wide screen keeps the values next to the names; values
# carry their units; the note shows the terminal's cursor and scrolls; the
# form's keys fit at 80 and 160 columns.
. "$(dirname "$0")/../tui/libtui.sh"
. "$(dirname "$0")/../tui/libtmux.sh"
command -v tmux >/dev/null || { echo "tmux missing"; exit 1; }

# one model: llama3-8b, seq=2048 and bf16 shared by every row
cat > "$T/sil.csv" <<CSV
workload,op,metric,value,unit
llama3-8b/decode/bs=32/seq=2048/bf16,flash_attn,time,186.4,us
llama3-8b/decode/bs=8/seq=2048/bf16,flash_attn,time,42.47,us
llama3-8b/prefill/bs=1/seq=2048/bf16,lm_head,time,423.5,us
llama3-8b/decode/bs=8/seq=2048/bf16,e2e,power,380,W
llama3-8b/decode/bs=8/seq=2048/bf16,e2e,throughput,2400,tokens/s
CSV
cat > "$T/sim.csv" <<CSV
workload,op,metric,value,unit
llama3-8b/decode/bs=32/seq=2048/bf16,flash_attn,time,102.2,us
llama3-8b/decode/bs=8/seq=2048/bf16,flash_attn,time,29.78,us
llama3-8b/prefill/bs=1/seq=2048/bf16,lm_head,time,442.8,us
llama3-8b/decode/bs=8/seq=2048/bf16,e2e,power,400,W
llama3-8b/decode/bs=8/seq=2048/bf16,e2e,throughput,2510,tokens/s
CSV
pc init >/dev/null
pc import --source lab --kind silicon --version 1 "$T/sil.csv" >/dev/null
pc import --source sim --kind perfsim --version 1 "$T/sim.csv" >/dev/null

tmux_start 80 24 LC_ALL=C.UTF-8 --
wait_for "row 1/5"
# the shared parts once, in the heading; the rows keep phase and batch
expect_in "  llama3-8b/*~ op" "$(screen | sed -n 3p)" "shared parts in the heading"
wait_for "  decode/bs=32 "
wait_for "  prefill/bs=1 "
expect_eq "$(screen | grep -c 'seq=2048')" 0 "no row repeats seq=2048"
# units (sim 102.2 us vs lab 186.4 us: -45.2%; 400 W; 2510 tokens/s)
expect_in "102.2 µs     186.4 µs -45.2%" "$(screen | sed -n 4p)" "µs"
wait_for "400 W"
wait_for "2.51 ktok/s"
# search: the match is highlighted in every row that has it (an SGR
# sequence starts right before it; plain rows carry none), the count said
keys / prefill Enter
wait_for "'prefill': match 1/1"
expect_eq "$(TM capture-pane -e -p -t tui | grep -c $'\e\\[[0-9;]*mprefill')" 1 \
	"the match highlighted"
keys / decode Enter
wait_for "'decode': match"
[ "$(TM capture-pane -e -p -t tui | grep -c $'\e\\[[0-9;]*mdecode')" -ge 3 ] && ok ||
	fail "every decode row highlighted"
keys g
# the note: a long line wraps at a blank onto the note's next row (a
# paragraph, not one line that scrolls behind "~"; issue 35), and the
# terminal's cursor sits right after the text; the form has a border
# (glyphs, not colour)
keys a Tab Tab
keys -l "0123456789 abcdefghij 0123456789 abcdefghij 0123456789 abcdefghij 0123456789 END"
wait_for "0123456789 END"
line=$(screen | grep -n "note " | head -1)
expect_in "note       0123456789 abcdefghij" "$line" "the note's first row"
expect_not_in "~" "$line" "no scrolled line"
row=$(screen | grep -n "0123456789 END" | head -1)
row=$(( ${row%%:*} - 1 ))
[ "$row" -gt "$(( ${line%%:*} - 1 ))" ] && ok || fail "END wrapped onto a later row"
expect_eq "$(TM display -p -t tui '#{cursor_y}')" "$row" "cursor on the last row"
# characters (the border is UTF-8 here) before END, plus END's 3
col=$(screen | sed -n "$((row + 1))p" | sed 's/END.*//' |
	python3 -c 'import sys; print(len(sys.stdin.buffer.read().decode().rstrip("\n")))')
expect_eq "$(TM display -p -t tui '#{cursor_x}')" "$((col + 3))" \
	"cursor right after END"
expect_in "┌─" "$(screen | grep -F 'Annotate')" "the form's top border"
expect_in "│" "$(screen | grep 'note ')" "the form's side border"
# the form's keys fit at 80 columns
wait_for "^D save  Esc cancel"
keys Escape
wait_for "row 1/5"
# 200x50: full names, the values right after them
TM resize-window -t tui -x 200 -y 50
wait_for "llama3-8b/decode/bs=32/seq=2048/bf16"
expect_in "workload" "$(screen | sed -n 3p)" "full names need no template"
# 320 columns: the workload column is as wide as the longest key (36)
TM resize-window -t tui -x 320 -y 50
sleep 0.5
wait_for "llama3-8b/prefill/bs=1/seq=2048/bf16"
pos=$(screen | sed -n 4p | sed 's/102\.2.*//' | wc -m)
[ "$pos" -lt 100 ] && ok || fail "values start at column $pos at 320 columns"
# 160 columns: the form's keys in full
TM resize-window -t tui -x 160 -y 40
keys a
wait_for "Enter save, in the note a new line  ^D save  Esc cancel"
keys Escape Q
wait_exit
finish
