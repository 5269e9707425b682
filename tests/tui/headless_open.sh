# Headless: the start view, the views by digit and Tab, help, quit.
. "$(dirname "$0")/../tui/libtui.sh"
build_db

tui_script 80 24 <<KEYS
:save-screen $T/start.screen
?
:save-screen $T/help.screen
q
4
:save-screen $T/runs.screen
<Tab>
:save-screen $T/tab5.screen
<Tab>
:save-screen $T/tab.screen
q
q
q
q
KEYS
expect_rc 0 "open and quit"
expect_eq "$out" "" "nothing on stdout"
expect_screen "$T/start.screen" start_80x24.screen
expect_screen "$T/help.screen" help_80x24.screen
# runs carry import times: check the content, not the layout
expect_in "Runs | 5 runs" "$(cat "$T/runs.screen")" "runs title"
expect_in "archsim_v1.csv" "$(cat "$T/runs.screen")" "runs file"
expect_in "Disagreements" "$(screen_line "$T/tab5.screen" 1)" "tab: runs, then disagreements"
expect_in "Discrepancies" "$(screen_line "$T/tab.screen" 1)" "tab wraps"

# q on the start view quits even with nothing else typed
tui_script 80 24 <<KEYS
q
:save-screen $T/never.screen
KEYS
expect_rc 0 "q quits"
[ ! -e "$T/never.screen" ] && ok || fail "keys ran after quit"

# no terminal and not headless: a clear error, exit 1
run "$PERFCORR" tui </dev/null
expect_rc 1 "no terminal"
expect_in "not a terminal" "$err" "no terminal message"

# an empty database has nothing to pair
PERFCORR_DB="$T/empty.db" pc init >/dev/null
PERFCORR_DB="$T/empty.db" tui_script 80 24 </dev/null
expect_rc 1 "empty database"
expect_in "no model/reference pair" "$err" "empty database message"

# --help, usage errors, a missing database
run pc tui --help
expect_rc 0 "--help"
expect_in "usage: perfcorr [--db PATH] tui [--model SRC[@V]]" "$out" "usage line"
run pc tui --bogus
expect_rc 2 "unknown option"
run pc tui extra
expect_rc 2 "no positional arguments"
run "$PERFCORR" --db "$T/missing.db" tui
expect_rc 1 "missing database"
[ ! -e "$T/missing.db" ] && ok || fail "tui created a database"

# a bad script key fails the run with file:line
tui_script 80 24 <<KEYS
j
<Nope>
KEYS
expect_rc 1 "bad script key"
expect_in "keys:2: unknown key '<Nope>'" "$err" "bad key message"
finish
