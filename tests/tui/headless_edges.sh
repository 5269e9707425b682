# Headless: hostile names never drive the terminal, resizing (down to
# 80x24 and below the minimum), the :prompt and unbound keys.
. "$(dirname "$0")/../tui/libtui.sh"

# names with escape sequences and bells are drawn as '?'
pc init >/dev/null
printf 'workload,op,metric,value,unit\nevil\033[31m/decode,gemm_\007x,time,1,ms\n' \
	> "$T/m.csv"
printf 'workload,op,metric,value,unit\nevil\033[31m/decode,gemm_\007x,time,2,ms\n' \
	> "$T/r.csv"
pc import --source m --kind perfsim --version 1 "$T/m.csv" >/dev/null
pc import --source r --kind silicon --version 1 "$T/r.csv" >/dev/null
tui_script 100 12 <<KEYS
:save-screen $T/evil.screen
<Enter>
:save-screen $T/evil_detail.screen
KEYS
expect_rc 0 "hostile names"
expect_in "evil?[31m/decode" "$(screen_line "$T/evil.screen" 4)" "escape shown as ?"
expect_in "gemm_?x" "$(screen_line "$T/evil.screen" 4)" "bell shown as ?"
if grep -q $'\033\|\007' "$T/evil.screen" "$T/evil_detail.screen"; then
	fail "control characters reached the screen"; else ok; fi

# resize: 100x30 -> 80x24 -> 30x6 (too small) -> 80x24
rm -f "$PERFCORR_DB"*
build_db
tui_script 100 30 <<KEYS
G
:resize 80 24
:save-screen $T/r80.screen
:resize 30 6
:save-screen $T/tiny.screen
j
:resize 80 24
:save-screen $T/back.screen
:bogus-command
:save-screen $T/bogus.screen
Z
:save-screen $T/unbound.screen
:move-first
:save-screen $T/first.screen
KEYS
expect_rc 0 "resize"
expect_eq "$(wc -l < "$T/r80.screen")" 24 "24 rows after resize"
expect_in "row 12/12" "$(screen_line "$T/r80.screen" 1)" "cursor kept"
[ "$(awk '{ if (length($0) > 80) n++ } END { print n + 0 }' "$T/r80.screen")" \
	-eq 0 ] && ok || fail "a line is wider than 80 columns"
expect_in "Enter detail  a annotate" "$(screen_line "$T/r80.screen" 23)" \
	"footer on row 23"
expect_in "terminal too small" "$(cat "$T/tiny.screen")" "too small"
expect_in "row 12/12" "$(screen_line "$T/back.screen" 1)" "keys work after"
expect_in "unknown command 'bogus-command'" "$(tail -1 "$T/bogus.screen")" \
	"unknown command"
expect_in "key 'Z' is not bound (? for help)" "$(tail -1 "$T/unbound.screen")" \
	"unbound key"
expect_in "row 1/12" "$(screen_line "$T/first.screen" 1)" ":action-name"
finish
