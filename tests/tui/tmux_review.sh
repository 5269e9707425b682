# End to end in tmux: open, navigate, sort, filter, search, detail,
# annotate (and check the database), resize to 80x24, quit.
. "$(dirname "$0")/../tui/libtui.sh"
. "$(dirname "$0")/../tui/libtmux.sh"
command -v tmux >/dev/null || { echo "tmux missing"; exit 1; }
build_db

tmux_start 100 30 --
wait_for "row 1/12 | archsim@2.4.0 (perfsim) vs h100-lab@2026.11"
wait_for "n 12  MAPE 11.4%  bias -3.0%  r - (several metrics)"	# time and throughput: no pooled r
# navigate
keys j j
wait_for "row 3/12"
keys G
wait_for "row 12/12"
keys g
wait_for "row 1/12"
# sort by the model column (h h from err), then reverse
keys h h s
wait_for "sorted by model descending"
keys s
wait_for "sorted by model ascending"
wait_for "model ^"
# filter as you type
keys f
keys -l "op~gemm"
wait_for "filter 'op~gemm': 5 rows"
keys Enter
wait_for "5 of 12 rows match 'op~gemm'"
keys F
wait_for "filter cleared"
# search
keys / mixtral Enter
wait_for "mixtral-8x7b/decode/bs=8/seq=4096/fp8"
keys n
keys N
# detail of the worst discrepancy
keys g 1 l l s
wait_for "sorted by err descending"
keys g Enter
wait_for "Pairwise errors (metric time"
wait_for "t100-rtl              h100-lab@2026.11"
keys q
wait_for "Discrepancies"
# annotate the worst row and check the database
keys g a
wait_for "Annotate llama3-8b/decode/bs=32/seq=2048/bf16 gemm_qkv time"
keys Tab Tab	# the form starts on status; the note is the third field
keys -l "tile shape not modelled"
keys BTab
keys s
keys C-d
wait_for "annotated 1 row: explained (specification-error)"
expect_eq "$(pcsql "SELECT op || '|' || status || '|' || \
category || '|' || note || '|' || author FROM annotations")" \
	"gemm_qkv|explained|specification-error|tile shape not modelled|tester" \
	"annotation row"
# resize down to 80x24: still drawn, footer and status intact
TM resize-window -t tui -x 80 -y 24
wait_for "row 1/12 | archsim@2.4.0"
wait_for "Enter detail  a annotate"
[ "$(screen | wc -l)" -eq 24 ] && ok || fail "pane is not 24 rows"
keys j
wait_for "row 2/12"
# help, then quit
keys '?'
wait_for "Discrepancies       Show the discrepancies"
keys q q
wait_exit
expect_eq "$tui_rc" 0 "quit exit status"
finish
