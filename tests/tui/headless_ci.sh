# Headless: the header shows the intervals of the cached summary (issue
# 19): MAPE's and r's, equal to what compare prints for the same sides,
# where the line has room; with fewer than 5 workloads (issue 34) that
# they are unknown and why, as compare says; "few pairs" when the
# policy's min_pairs asks for more pairs than the summary has.
. "$(dirname "$0")/../tui/libtui.sh"
build_db
# 6 workloads x 2 ops (fixtures/corr/ci6-*.csv): intervals
pc import -q -s lab6 -k silicon -V w47 "$FIXTURES/corr/ci6-lab.csv"
pc import -q -s sim6 -k perfsim -V 2.0 "$FIXTURES/corr/ci6-sim.csv"

tui_script 170 30 --model sim6 --ref lab6 <<KEYS
:save-screen $T/six.screen
KEYS
expect_rc 0 "open at 170 columns, 6 workloads"
# compare's interval for the same sides, formatted as the header does
# (percent with one decimal)
want=$("$PERFCORR" compare --model sim6 --ref lab6 --format json | python3 -c '
import json, sys
s = json.load(sys.stdin)["summary"]
c, r = s["mape_ci"], s["pearson_ci"]
print("95%% CI MAPE [%.1f%%,%.1f%%] r [%.3f,%.3f]" % (c[0] * 100, c[1] * 100, r[0], r[1]))')
expect_in "95% CI MAPE [" "$want" "compare has the intervals"
expect_in "$want" "$(screen_line "$T/six.screen" 2)" "header interval equals compare's"

# the review's sides: 3 workloads, unknown, as compare says
tui_script 170 30 <<KEYS
:save-screen $T/wide.screen
KEYS
expect_rc 0 "open at 170 columns"
want=$("$PERFCORR" compare --model archsim@2.4.0 --ref h100-lab@2026.11 --format json | python3 -c '
import json, sys
s = json.load(sys.stdin)["summary"]
print(s["workloads"], s["mape_ci"], s["ci_unknown"])')
expect_eq "$want" "3 None only 3 workloads; an interval needs >= 5 (2 more would decide)" "compare: unknown"
expect_in "| CI unknown: only 3 workloads; an interval needs >= 5 (2 more would decide)" "$(screen_line "$T/wide.screen" 2)" "header: unknown, why"
expect_not_in "CI MAPE" "$(screen_line "$T/wide.screen" 2)" "header: no interval"
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
