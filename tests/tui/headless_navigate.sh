# Headless: navigate, filter as you type, sort by column, search n/N,
# pair cycling, summary and trend views.
. "$(dirname "$0")/../tui/libtui.sh"
build_db

tui_script 100 30 <<KEYS
jjj
:save-screen $T/nav.screen
G
:save-screen $T/last.screen
g
fop~gemm metric=time<Enter>
:save-screen $T/filter.screen
f err>xx
:save-screen $T/filter_bad.screen
<Esc>
:save-screen $T/filter_esc.screen
F
hh
s
:save-screen $T/sort_model.screen
s
:save-screen $T/sort_model_asc.screen
/mixtral<Enter>
:save-screen $T/search1.screen
n
:save-screen $T/search2.screen
N
N
:save-screen $T/search3.screen
/nothing-like-this<Enter>
:save-screen $T/search_none.screen
q
KEYS
expect_rc 0 "navigate"
expect_in "row 4/12" "$(screen_line "$T/nav.screen" 1)" "jjj moves to row 4"
expect_in "row 12/12" "$(screen_line "$T/last.screen" 1)" "G goes last"
expect_screen "$T/filter.screen" filter_100x30.screen
expect_in "'err>xx': expected a number" "$(tail -1 "$T/filter_bad.screen")" \
	"bad filter named on the status line"
# while typing, the last parseable text filters ("err" is a bare word)
expect_in "filter 'op~gemm metric=time err': 0" \
	"$(screen_line "$T/filter_bad.screen" 2)" "last parseable filter applied"
expect_in "filter 'op~gemm metric=time': 5 rows" \
	"$(screen_line "$T/filter_esc.screen" 2)" "Esc restores the filter"
expect_screen "$T/sort_model.screen" sort_model_100x30.screen
expect_in "model ^" "$(screen_line "$T/sort_model_asc.screen" 3)" "s again reverses"
expect_in "   60 us" "$(screen_line "$T/sort_model_asc.screen" 4)" "smallest first"
# the cursor row is where the search landed: its number is in the title,
# and all 12 rows fit, so screen line row+3 is the cursor's row
row_of() { screen_line "$1" 1 | sed 's/.*row \([0-9]*\).*/\1/'; }
r1=$(row_of "$T/search1.screen")
r2=$(row_of "$T/search2.screen")
r3=$(row_of "$T/search3.screen")
expect_in mixtral "$(screen_line "$T/search1.screen" $((r1 + 3)))" "/ lands on mixtral"
expect_in mixtral "$(screen_line "$T/search2.screen" $((r2 + 3)))" "n lands on mixtral"
[ "$r2" -gt "$r1" ] && ok || fail "n moves forward ($r1 -> $r2)"
expect_in mixtral "$(screen_line "$T/search3.screen" $((r3 + 3)))" "N lands on mixtral"
[ "$r3" -gt "$r2" ] && ok || fail "N N goes back past the first, wrapping ($r1 $r2 $r3)"
expect_in "'nothing-like-this' not found" "$(tail -1 "$T/search_none.screen")" \
	"search miss"

# pairs, summary (ASCII and braille) and trend
tui_script 100 30 <<KEYS
p
:save-screen $T/pair2.screen
p
p
p
p
p
:save-screen $T/pair_wrap.screen
2
:save-screen $T/summary.screen
b
:save-screen $T/summary_op.screen
bbb
:save-screen $T/summary_bs.screen
3
:save-screen $T/trend.screen
KEYS
expect_rc 0 "pairs, summary, trend"
expect_in "roofline@1.0 (bound) vs h100-lab@2026.11" \
	"$(screen_line "$T/pair2.screen" 1)" "p: roofline vs silicon next, a bound"
expect_in "archsim@2.4.0 (perfsim) vs h100-lab" \
	"$(screen_line "$T/pair_wrap.screen" 1)" "p wraps around the pairs"
expect_screen "$T/summary.screen" summary_100x30.screen
expect_in "by op" "$(screen_line "$T/summary_op.screen" 1)" "b regroups"
expect_in "gemm_qkv" "$(cat "$T/summary_op.screen")" "ops listed"
expect_in "by param.bs" "$(screen_line "$T/summary_bs.screen" 1)" \
	"b reaches the workload parameters"
expect_eq "$(sed -n 4,6p "$T/summary_bs.screen" | awk '{ print $1 ":" $2 }' |
	tr '\n' ' ')" "1:4 8:3 32:5 " \
	"groups by batch size, numerically, as compare sorts them"
expect_screen "$T/trend.screen" trend_100x30.screen

# the same summary with braille in a UTF-8 locale
LC_ALL=C.UTF-8 tui_script 100 30 <<KEYS
2
:save-screen $T/summary_utf8.screen
KEYS
expect_rc 0 "utf-8 summary"
expect_screen "$T/summary_utf8.screen" summary_utf8_100x30.screen

# --model/--ref choose the pair; --ascii forces ASCII in UTF-8
LC_ALL=C.UTF-8 tui_script 100 30 --model archsim@2.3.0 --ref t100-rtl --ascii <<KEYS
:save-screen $T/chosen.screen
KEYS
expect_rc 0 "chosen pair"
expect_in "archsim@2.3.0 (perfsim) vs t100-rtl@r42 (rtl)" \
	"$(screen_line "$T/chosen.screen" 1)" "--model/--ref"
expect_in "err v" "$(screen_line "$T/chosen.screen" 3)" "--ascii arrow"
tui_script 100 30 --model nosuch --ref h100-lab </dev/null
expect_rc 1 "unknown model source"

# a policy gives the sides (model archsim, ref h100-lab) and the limits
tui_script 100 30 --policy "$FIXTURES/policy/example.json" <<KEYS
:save-screen $T/policy.screen
KEYS
expect_rc 0 "policy"
expect_in "archsim@2.4.0 (perfsim) vs h100-lab@2026.11" \
	"$(screen_line "$T/policy.screen" 1)" "pair from the policy"
tui_script 100 30 --policy "$T/none.json" </dev/null
expect_rc 1 "missing policy"
expect_in "none.json" "$err" "missing policy named"
finish
