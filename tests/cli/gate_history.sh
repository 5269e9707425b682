# perfcorr gate: `consecutive` and `max_mape_increase` from the recorded
# evaluation history, across model releases.
. "$(dirname "$0")/../cli/lib.sh"
G="$FIXTURES/gate"

pc init >/dev/null
imp() { pc import --source archsim --kind perfsim --version "$1" "$2" 2>/dev/null; }
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null
imp 1.0 "$G/model-1.0.csv"
imp 1.1 "$G/model-1.1.csv"
imp 2.0 "$G/model-2.0.csv"
# 2.1: the same values as 2.0 in other bytes (a new run)
{ head -1 "$G/model-2.0.csv"; tail -n +2 "$G/model-2.0.csv" | sort; } \
	>"$T/model-2.1.csv"
imp 2.1 "$T/model-2.1.csv"

pol() { # name rule-json
	printf '{"name": "%s", "model": "archsim", "ref": "h100", "rules": [{"name": "e2e", "metric": "time", "op": "e2e", %s}]}\n' \
		"$1" "$2" >"$T/$1.json"
}
gate() { run pc gate --policy "$T/$1.json" --model "archsim@$2"; }

# --- consecutive: e2e MAPE 5%, 9.5%, 13%, 13% against a 10% limit
pol cons '"max_mape": 0.10, "consecutive": 2'
gate cons 1.0
expect_rc 0 "1.0 passes"
gate cons 2.0
expect_rc 0 "first failure only warns"
expect_in "WARN  e2e  n=4 (0 waived, 1 noisy)  max_mape 13% > 10% (failure 1 of 2 in a row before it fails)" \
	"$out" "pending failure"
gate cons 2.0
expect_rc 0 "re-evaluating the same runs is not a second failure"
expect_in "(failure 1 of 2 in a row before it fails)" "$out" "still pending"
gate cons 2.1
expect_rc 1 "second failure in a row fails"
expect_in "FAIL  e2e  n=4 (0 waived, 1 noisy)  max_mape 13% > 10% (failed 2 evaluations in a row)" \
	"$out" "consecutive failure"
gate cons 1.1
expect_rc 0 "a pass breaks the streak"
gate cons 2.0
expect_rc 0 "streak restarts"
expect_in "(failure 1 of 2 in a row" "$out" "restarted streak"
rows=$(pcsql "SELECT group_concat(e.model_version || ':' ||
	r.status || r.failed, ' ') FROM gate_evals e JOIN gate_rule_evals r
	ON r.eval_id = e.id WHERE e.policy_name = 'cons' ORDER BY e.id")
expect_eq "$rows" "1.0:pass0 2.0:warn1 2.0:warn1 2.1:fail1 1.1:pass0 2.0:warn1" \
	"recorded statuses"

# --- max_mape_increase: against the last earlier release that passed
pol inc4 '"max_mape": 0.5, "max_mape_increase": "4%"'
gate inc4 1.0
expect_rc 0 "first release: no baseline"
expect_in "max_mape_increase n/a (the first release of the model in the database: nothing to compare with), limit +4 pp" \
	"$out" "no baseline yet"
gate inc4 1.1
expect_rc 1 "1.1 grew 4.5 points over 1.0"
expect_in "FAIL  e2e  n=4 (0 waived, 1 noisy)  max_mape_increase +4.5 pp > +4 pp" \
	"$out" "increase over 1.0"
gate inc4 2.0
expect_rc 1 "2.0 compared with 1.0 (1.1 failed)"
expect_in "max_mape_increase +8 pp > +4 pp" "$out" "baseline skips the failed release"
run pc gate --policy "$T/inc4.json" --model archsim@2.0 --dry-run --format json
echo "$out" >"$T/i.json"
expect_eq "$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["rules"][0]["baseline"]; print(b["version"], round(b["mape"], 6))' "$T/i.json")" \
	"1.0 0.05" "baseline in JSON"
gate inc4 1.0
expect_rc 0 "re-evaluating 1.0: later releases are no baseline"

pol inc5 '"max_mape": 0.5, "max_mape_increase": "5%"'
gate inc5 1.0
expect_rc 0 "inc5 1.0"
gate inc5 1.1
expect_rc 0 "+4.5 points within 5"
expect_in "max_mape_increase +4.5 pp <= +5 pp" "$out" "pass side"
gate inc5 2.0
expect_rc 0 "2.0 compared with 1.1 (the last that passed)"
expect_in "max_mape_increase +3.5 pp <= +5 pp" "$out" "baseline is 1.1"

# a dry run reads the history but adds nothing to it
n=$(pcsql 'SELECT count(*) FROM gate_evals')
run pc gate --policy "$T/cons.json" --model archsim@2.1 --dry-run
expect_rc 1 "dry run sees the streak"
expect_eq "$(pcsql 'SELECT count(*) FROM gate_evals')" "$n" \
	"dry run recorded nothing"

finish
