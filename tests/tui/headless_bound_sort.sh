# A roofline pairing is a bound: its list's heading says 'SoL v' and the
# rows are in that order (QA finding: they stayed in the core's |err|
# order, so 0.2%, 1.9%, 6.6%, ... 38.6%, 156.3%, 155.6%, 47.5% under
# 'SoL v', the violations in the middle). Checked on the demo at 80x24:
# the SoL column falls down the screen with the three lm_head
# violations first, and `s` turns it into a rising one.
. "$(dirname "$0")/../tui/libtui.sh"
export NO_COLOR=1
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }

tui_script 80 24 --model roofline --ref h100-lab <<KEYS
:save-screen $T/desc.screen
g
s
g
:save-screen $T/asc.screen
KEYS
expect_rc 0 "open the roofline pairing, sort"
# the SoL cells (the number before '%' at the end of a row, flag after)
sol() { sed -n '4,22p' "$1" | sed -nE 's/.* ([0-9.]+)% ?[A-Z?]*$/\1/p'; }
expect_in "SoL v" "$(sed -n 3p "$T/desc.screen")" "the heading says SoL, descending"
expect_eq "$(sol "$T/desc.screen" | wc -l)" 19 "19 SoL cells on the first screen"
expect_eq "$(sol "$T/desc.screen")" "$(sol "$T/desc.screen" | sort -gr)" \
	"the rows fall in SoL"
expect_eq "$(sed -n '4,6p' "$T/desc.screen" | grep -c ' lm_head .*% S$')" 3 \
	"the three lm_head violations (over 100%) first"
expect_in "SoL ^" "$(sed -n 3p "$T/asc.screen")" "s: ascending"
expect_eq "$(sol "$T/asc.screen")" "$(sol "$T/asc.screen" | sort -g)" \
	"s: the rows rise in SoL"
expect_in "0.2% X" "$(sed -n 4p "$T/asc.screen")" \
	"s: the furthest from speed of light first (decode bs=1 rmsnorm)"
finish
