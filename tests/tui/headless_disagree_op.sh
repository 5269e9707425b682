# The Disagreements view's key table keeps the op when h/l scroll it
# (QA finding): a key is its workload and op, and at 80x24 after `l`
# the op scrolled out with the metric, so the odd:t100-rtl rows read
# 'decode/bs=1  27.0% rtl-bug', three rows told apart by the batch only.
. "$(dirname "$0")/../tui/libtui.sh"
export NO_COLOR=1
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }

tui_script 80 24 --model archsim --ref h100-lab <<KEYS
5
:save-screen $T/v0.screen
l
:save-screen $T/v1.screen
l
l
l
l
l
l
:save-screen $T/v7.screen
h
h
h
h
h
h
h
:save-screen $T/back.screen
KEYS
expect_rc 0 "view 5, scroll right and back"
keyrows() { grep -E '^  decode/bs=(1|8|32) ' "$1"; }
for s in v0 v1 v7 back; do
	expect_eq "$(keyrows "$T/$s.screen" | grep -cE ' gemm_o( |$)')" 3 \
		"$s: the three odd:t100-rtl rows name their op"
done
expect_in "op         metric spread" "$(cat "$T/v0.screen")" "unscrolled: op, metric, spread"
expect_in " op        <spread" "$(cat "$T/v1.screen")" \
	"l: the metric scrolled out, '<' after the op"
expect_not_in " time " "$(keyrows "$T/v1.screen")" "l: no metric cells"
expect_in " op        <roofline" "$(cat "$T/v7.screen")" \
	"scrolled to the end: the last column stays"
expect_eq "$(cat "$T/back.screen")" "$(cat "$T/v0.screen")" "h back: as it was"
finish
