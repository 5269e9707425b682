#!/bin/bash
# Calibration and held out (issue 38 item 4, schema 10): import
# --calibration marks a run, perfcorr mark marks keys (and holds one out
# again); compare (text, json, csv), the report and the TUI's Summary give
# the error on each part as tests/ref/calib_ref.py computes it on
# fixtures/calib/; the gate warns on a rule that passes only on
# calibration points (fails, or has none, held out); refusals write
# nothing; a schema-9 database migrates (both engines).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../tui/libtui.sh"
F=$FIXTURES/calib

pc import -q -s lab -k silicon "$F/lab.csv"
pc import -q -s sim -k perfsim "$F/sim.csv"
# no mark: compare is as it was
run pc compare --model sim --ref lab --format json
expect_not_in '"calibration"' "$out" "no mark, no calibration member"
run pc compare --model sim --ref lab --format csv
expect_not_in "held_out" "$out" "no mark, no calibration rows"
run pc import -s lab -k silicon --calibration "$F/lab_train.csv"
expect_rc 0 "import --calibration"
run pc mark --calibration --model sim --op gemm_a --note "fitted on gemm_a"
expect_rc 0 "mark the fitted op"
expect_in "calibration for sim, 5 stored keys" "$err" "says what it covers"
run pc mark --held-out --model sim --workload m/bs=16 --op norm
expect_rc 0 "hold one key out again"
cat > "$T/marks.json" <<'EOF'
[{"state": "calibration", "run": "ref:2"},
 {"state": "calibration", "op": "gemm_a"},
 {"state": "held-out", "workload": "m/bs=16", "op": "norm"}]
EOF
want=$(python3 "$TESTS/ref/calib_ref.py" "$F/sim.csv" "$T/marks.json" "$F/policy.json" \
	"$F/lab.csv" "$F/lab_train.csv")

run pc compare --model sim --ref lab --format json --no-ci
expect_rc 0 "compare json"
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys
c = json.load(sys.stdin)["calibration"]
for k in ("calibration", "held_out"):
    print(k, c[k]["n"], "%.9g" % c[k]["mape"], "%.9g" % c[k]["bias"])
print(c["marks"], c["points"], c["held_out_points"])')" \
	"$(grep -E '^(calibration|held_out) ' <<<"$want")
3 7 13" "compare json: each part's n, MAPE and bias as the reference; 3 marks"
run pc compare --model sim --ref lab --format csv
expect_eq "$(printf '%s\n' "$out" | cut -d, -f1-2 | tail -2)" "calibration,7
held_out,13" "compare csv: a row per part"
run pc compare --model sim --ref lab
expect_in "calibration and held out (3 marks; perfcorr mark --list):" "$out" "compare text"
expect_in "  calibration       7      7     0.35%" "$out" "the calibration row"
run pc compare --model sim --ref lab --points
expect_in "calibration" "$(grep 'm/bs=1 .*gemm_a' <<<"$out")" "--points flags a calibration pair"

# the gate: 'gemm' passes on all but not held out; 'gemm-a' holds none out
run pc gate --policy "$F/policy.json" --dry-run --format json
expect_rc 0 "gate: warnings do not block"
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["rules"]:
    c = r.get("calibration") or {}
    v = r["status"]
    if c.get("passes_only_on_calibration"):
        v = "warn-none" if not c["held_out_points"] else "warn-held"
    print("rule", r["name"], "%.9g" % r["mape"], c.get("calibration_points", 0),
          c.get("held_out_points", "-"), v)')
expect_eq "$got" "$(grep '^rule' <<<"$want" | awk '{ print $1, $2, $3, $4, $5, $7 }')" \
	"every rule's calibration and held-out counts and verdict as the reference"
run pc gate --policy "$F/policy.json" --dry-run
expect_in "WARN  gemm" "$out" "the rule that fails held out warns"
expect_in "passes only on calibration points: on the 4 held out (6 calibration left out) max_mape 5.974% > 4%" \
	"$out" "and says what the held-out pairs gave"
expect_in "passes only on calibration points: none of its 5 pairs is held out" "$out" \
	"a rule with no pair held out warns"
expect_in "PASS  all" "$out" "a rule that passes held out too is not warned about"
expect_in "verdict: WARN" "$out" "the verdict"

# the report: the section, the json, the gate section's warning
run pc report --model sim --ref lab --policy "$F/policy.json" --format md
expect_in "## Calibration and held out" "$out" "report section"
expect_in "| calibration | 7 | 7 | 0.35% |" "$out" "report: the calibration row"
expect_in "passes only on calibration points" "$out" "report's gate section warns too"
run pc report --model sim --ref lab --format json
expect_eq "$(printf '%s' "$out" | python3 -c '
import json, sys; c = json.load(sys.stdin)["calibration"]
print(c["calibration"]["n"], c["held_out"]["n"])')" "7 13" "report json"

# the TUI's Summary: one line under the table
tui_script 80 24 --model sim --ref lab <<KEYS
2
:save-screen $T/s.screen
q
q
KEYS
set -- $(grep -E '^(calibration|held_out) ' <<<"$want" | awk '{ printf "%s %.1f%% %+.1f%% ", $2, 100 * $3, 100 * $4 }')
expect_in "  calibration $1 MAPE $2 bias $3 | held out $4 MAPE $5 bias $6" \
	"$(cat "$T/s.screen")" "the Summary view's calibration line"

# the list, and refusals that write nothing
run pc mark --list --format csv
expect_eq "$(printf '%s\n' "$out" | cut -d, -f4-8)" "state,model,run,workload,op
calibration,,3,,
calibration,sim,,,gemm_a
held-out,sim,,m/bs=16,norm" "mark --list: every mark, oldest first"
before=$(db_digest)
run pc mark --calibration --model sim --op nosuch
expect_rc 1 "a key that matches nothing"
expect_in "the mark matches no stored result of sim; nothing written" "$err" "says so"
run pc mark --calibration --model sim --op 'gemm_*'
expect_rc 2 "a glob without --pattern"
run pc mark --calibration --model nosuch --op gemm_a
expect_rc 1 "an unknown model"
run pc mark --calibration
expect_rc 2 "no selector"
expect_in "name what was used" "$err" "says what is missing"
run pc mark --calibration --run 999
expect_rc 1 "an unknown run"
run pc mark --op gemm_a
expect_rc 2 "neither --calibration nor --held-out"
expect_eq "$(db_digest)" "$before" "refusals write nothing"

# a schema-9 database (no calibration table) migrates to 10
if pc_db_is_server; then
	pcsql "DROP TABLE calibration" "UPDATE schema_version SET version = 9" >/dev/null
else
	pcsql "DROP TABLE calibration; PRAGMA user_version = 9"
fi
V=$(sed -n 's/^#define DB_SCHEMA_VERSION \([0-9]*\)$/\1/p' "$TESTS"/../db/engine.h)
run pc compare --model sim --ref lab
expect_rc 1 "a read-only command on schema 9"
expect_in "schema 9 needs migrating to $V" "$err" "says so"
run pc init
expect_rc 0 "a writable open migrates"
run pc mark --calibration --model sim --op gemm_a
expect_rc 0 "after the migration a mark is written"
finish
