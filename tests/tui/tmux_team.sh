# tmux: another process annotates while the TUI is open (PRAGMA
# data_version): the TUI reloads and keeps the cursor; colours follow
# the terminal and NO_COLOR.
. "$(dirname "$0")/../tui/libtui.sh"
. "$(dirname "$0")/../tui/libtmux.sh"
build_db

tmux_start 100 30 --
wait_for "row 1/12"
keys j j j
wait_for "row 4/12"
wait_for "mixtral-8x7b/decode/bs=8/seq=4096/fp8 e2e"
# a colleague explains the mixtral e2e row from another process
pc annotate --workload mixtral-8x7b/decode/bs=8/seq=4096/fp8 --op e2e \
	--metric itl --status wontfix --note "scheduler overhead" >/dev/null
wait_for "the database changed: reloaded"
wait_for "wontfix"
wait_for "row 4/12"
expect_in "wontfix" "$(screen | sed -n 7p)" "the cursor row got the new status"
# a new import that changes the order keeps the cursor on its row
cat > "$T/extra.csv" <<CSV
workload,op,metric,value,unit
tiny/decode/bs=1/seq=128/fp16,e2e,itl,0.5,s
CSV
cat > "$T/extra_ref.csv" <<CSV
workload,op,metric,value,unit
tiny/decode/bs=1/seq=128/fp16,e2e,itl,0.25,s
CSV
pc import --source archsim --kind perfsim --version 2.4.0 "$T/extra.csv" >/dev/null
pc import --source h100-lab --kind silicon --version 2026.11 \
	"$T/extra_ref.csv" >/dev/null
wait_for "row 5/13"
expect_in "mixtral-8x7b/decode/bs=8/seq=4096/fp8 e2e" "$(screen | sed -n 8p)" \
	"cursor stayed on the mixtral row"
# colours: SGR colour codes on screen when allowed
[ -n "$(TM capture-pane -p -e -t tui | grep -E $'\e\\[(3[0-7]|4[0-7])m')" ] &&
	ok || fail "no colours without NO_COLOR"
keys Q
wait_exit
expect_eq "$tui_rc" 0 "Q quits"
TM kill-session -t tui 2>/dev/null

tmux_start 100 30 NO_COLOR=1 --
wait_for "row 1/13"
[ -z "$(TM capture-pane -p -e -t tui | grep -E $'\e\\[(3[0-7]|4[0-7])m')" ] &&
	ok || fail "colours despite NO_COLOR"
[ -n "$(TM capture-pane -p -e -t tui | grep -E $'\e\\[[0-9;]*7m')" ] &&
	ok || fail "monochrome has no reverse video for the cursor"
keys q
wait_exit
finish
