# Headless: the header shows the intervals of the cached summary (issue
# 19): MAPE's workload bootstrap and r's Fisher-z, equal to what compare
# prints for the same sides, where the line has room; "few pairs" when
# the policy's min_pairs asks for more pairs than the summary has.
. "$(dirname "$0")/../tui/libtui.sh"
build_db

tui_script 170 30 <<KEYS
:save-screen $T/wide.screen
KEYS
expect_rc 0 "open at 170 columns"
# compare's interval for the same sides, formatted as the header does
# (percent with one decimal)
want=$("$PERFCORR" compare --model archsim@2.4.0 --ref h100-lab@2026.11 --format json | python3 -c '
import json, sys
c = json.load(sys.stdin)["summary"]["mape_ci"]
print("95%% CI MAPE [%.1f%%,%.1f%%]" % (c[0] * 100, c[1] * 100))')
expect_in "$want" "$(screen_line "$T/wide.screen" 2)" "header interval equals compare's"
expect_in "n 12  MAPE 11.4%  bias -3.0%" "$(screen_line "$T/wide.screen" 2)" "figures unchanged"
# at 80 columns there is no room: the line is as before
tui_script 80 24 <<KEYS
:save-screen $T/narrow.screen
KEYS
expect_not_in "CI MAPE" "$(screen_line "$T/narrow.screen" 2)" "no interval without room"

cat > "$T/p.json" <<'JSON'
{"name": "p", "model": "archsim", "ref": "h100-lab",
 "rules": [{"name": "all", "max_mape": "50%", "min_pairs": 20}]}
JSON
tui_script 170 30 --policy "$T/p.json" <<KEYS
:save-screen $T/few.screen
KEYS
expect_rc 0 "policy with min_pairs 20"
expect_in "n 12 (few pairs)  MAPE 11.4%" "$(screen_line "$T/few.screen" 2)" "few pairs in the header"
finish
