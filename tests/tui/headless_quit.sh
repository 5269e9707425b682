# Headless: `q` on the start view quits in one press however many views
# were visited; digits and Tab switch views without growing a history;
# `q` on another top-level view goes to the start view, on a child view
# (detail, help) back where it came from. The footer says "q quit" on the
# start view and "q back" elsewhere.
. "$(dirname "$0")/../tui/libtui.sh"
build_db

tui_script 100 30 <<KEYS
2
3
4
<Tab>
1
2
1
:save-screen $T/start.screen
q
:save-screen $T/notquit.screen
KEYS
expect_rc 0 "quit"
expect_in "q quit" "$(screen_line "$T/start.screen" 29)" "start view footer"
[ ! -e "$T/notquit.screen" ] && ok ||
	fail "q on the start view after 6 view switches did not quit at once"
# on closing, stderr says where the review is and what to run next
db=$(cd "$(dirname "$PERFCORR_DB")" && pwd -P)/$(basename "$PERFCORR_DB")
expect_eq "$err" "perfcorr tui: the review is in $db
next:
  perfcorr --db $db report --model archsim@2.4.0 --ref h100-lab@2026.11 -o review.html
  perfcorr --db $db gate --policy POLICY.json --model archsim@2.4.0" \
	"next steps on stderr"

tui_script 100 30 <<KEYS
2
3
:save-screen $T/trend.screen
q
:save-screen $T/back.screen
<Enter>
?
:save-screen $T/help.screen
q
:save-screen $T/detail.screen
q
:save-screen $T/list.screen
q
:save-screen $T/notquit2.screen
KEYS
expect_rc 0 "back then quit"
expect_in "q back" "$(screen_line "$T/trend.screen" 29)" "trend footer"
expect_in "perfcorr | Trend" "$(screen_line "$T/trend.screen" 1)" "on trend"
expect_in "perfcorr | Discrepancies" "$(screen_line "$T/back.screen" 1)" \
	"q on trend goes to the start view, not to summary"
expect_in "perfcorr | Help" "$(screen_line "$T/help.screen" 1)" "on help"
expect_in "perfcorr | Detail" "$(screen_line "$T/detail.screen" 1)" \
	"q on help goes back to the detail"
expect_in "perfcorr | Discrepancies" "$(screen_line "$T/list.screen" 1)" \
	"q on the detail goes back to the list"
expect_in "q quit" "$(screen_line "$T/list.screen" 29)" "list footer"
[ ! -e "$T/notquit2.screen" ] && ok || fail "q on the list did not quit"
finish
