# The README's path, in tmux: build the demo database (scripts/demo.sh),
# open the TUI, find the worst GEMM discrepancy, read its detail, record
# an explanation, quit, and see it in the next `perfcorr report`.
. "$(dirname "$0")/../tui/libtui.sh"
. "$(dirname "$0")/../tui/libtmux.sh"
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }

tmux_start 110 30 -- --model archsim --ref h100-lab
wait_for "archsim@2.4.0 (perfsim) vs h100-lab@2026-11-24 (silicon)"
keys f
keys -l "class=gemm"
keys Enter
wait_for "rows match 'class=gemm'"
worst=$(screen | sed -n 4p)
op=$(echo "$worst" | awk '{ print $2 }')
case "$op" in gemm*|lm_head) ok ;; *) fail "first row is not a GEMM: $worst" ;; esac
keys Enter
wait_for "Pairwise errors"
keys / "Raw names" Enter	# below the values and pairwise errors
wait_for "Raw names mapped to '$op'"
wait_for "sm90_xmma_gemm"
keys a
wait_for "Annotate"
keys Tab Tab	# the form starts on status; the note is the third field
keys -l "tile scheduler not modelled for this shape"
keys BTab Right Right Right
keys C-d
wait_for "annotated 1 row: explained (abstraction-error)"
keys G
wait_for "tile scheduler not modelled for this shape"
keys q q
wait_exit
expect_eq "$tui_rc" 0 "quit"
run pc report --model archsim --ref h100-lab --format md
expect_rc 0 "report"
expect_in "tile scheduler not modelled for this shape" "$out" \
	"the explanation is in the report"
expect_in "$op" "$out" "the op is in the report"
finish
