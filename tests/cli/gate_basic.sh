# perfcorr gate: verdicts, exit codes, outputs, recording, usage errors.
. "$(dirname "$0")/../cli/lib.sh"
G="$FIXTURES/gate"

pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null
pc import --source archsim --kind perfsim --version 1.0 "$G/model-1.0.csv" \
	2>/dev/null

policy() { # name rules-json...
	printf '{"name": "%s", "model": "archsim", "ref": "h100", "rules": [%s]}\n' \
		"$1" "$2" >"$T/$1.json"
}

# e2e MAPE of archsim 1.0 is exactly 5% (fixtures/gate/README.md)
policy pass '{"name": "e2e", "metric": "time", "op": "e2e", "max_mape": 0.06}'
run pc gate --policy "$T/pass.json"
expect_rc 0 "passing gate"
expect_in "PASS  e2e  n=4 (0 waived, 1 noisy)  min_pairs 4 >= 1; max_mape 5% <= 6%" \
	"$out" "rule line"
expect_in "verdict: PASS (0 fail, 0 warn, 1 pass)" "$out" "verdict line"
expect_in "model archsim@1.0 vs reference h100@2024" "$out" "header"

policy fail '{"name": "e2e", "op": "e2e", "max_mape": 0.04},
	{"name": "gemm", "op": "gemm_qkv", "max_mape": 0.2}'
run pc gate --policy "$T/fail.json"
expect_rc 1 "failing gate"
expect_in "FAIL  e2e   n=4 (0 waived, 1 noisy)  max_mape 5% > 4%" "$out" \
	"failed rule line"
expect_in "PASS  gemm" "$out" "other rule passes"
expect_in "  worst points of 'e2e':
    llama3-8b/decode/bs=32 e2e time: 21.6 ms vs 20 ms (err +8.0%) - open" \
	"$out" "worst points, largest first, with units"
expect_in "verdict: FAIL (1 fail, 0 warn, 1 pass)" "$out" "fail verdict"
expect_not_in $'\x1b' "$out" "no colour into a pipe"
# on a terminal (script(1) gives it one) the labels are coloured, unless
# NO_COLOR is set
if command -v script >/dev/null; then
	tty_out=$(env -u NO_COLOR script -qc "'$PERFCORR' gate --policy '$T/fail.json' --dry-run" /dev/null)
	expect_in $'\x1b[1;31mFAIL\x1b[0m  e2e' "$tty_out" "FAIL in red on a terminal"
	expect_in $'\x1b[1;32mPASS\x1b[0m  gemm' "$tty_out" "PASS in green"
	tty_out=$(NO_COLOR=1 script -qc "'$PERFCORR' gate --policy '$T/fail.json' --dry-run" /dev/null)
	expect_not_in $'\x1b' "$tty_out" "NO_COLOR honoured on a terminal"
	expect_in "FAIL  e2e" "$tty_out" "plain label"
fi

policy warn '{"name": "e2e", "op": "e2e", "max_mape": 0.04, "severity": "warn"}'
run pc gate --policy "$T/warn.json"
expect_rc 0 "warnings do not fail the gate"
expect_in "WARN  e2e" "$out" "warn rule"
expect_in "verdict: WARN (0 fail, 1 warn, 0 pass)" "$out" "warn verdict"

# coverage: too few pairs, and a selector that matches nothing
policy cover '{"name": "few", "op": "e2e", "max_mape": 0.5, "min_pairs": 5},
	{"name": "none", "op": "no_such_op", "max_mape": 0.5}'
run pc gate --policy "$T/cover.json"
expect_rc 1 "coverage failure fails"
expect_in "FAIL  few   n=4 (0 waived, 1 noisy)  min_pairs 4 < 5" "$out" \
	"too few pairs"
expect_in "FAIL  none  n=0  min_pairs 0 < 1; max_mape n/a (no pairs), limit 50%" \
	"$out" "empty selection"

# JSON
run pc gate --policy "$T/fail.json" --format json --dry-run
expect_rc 1 "json exit code"
echo "$out" >"$T/out.json"
run python3 - "$T/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "fail", d["verdict"]
assert d["counts"] == {"pass": 1, "warn": 0, "fail": 1, "unknown": 0}, d["counts"]
assert d["model"]["source"] == "archsim" and d["model"]["version"] == "1.0"
assert d["ref"]["version"] == "2024" and len(d["ref"]["runs"]) == 1
r = d["rules"][0]
assert r["name"] == "e2e" and r["status"] == "fail" and r["failed"]
assert r["pairs"] == 4 and r["noisy"] == 1 and r["waived"] == 0
assert r["selected"] == 5
c = {x["limit"]: x for x in r["checks"]}
assert abs(c["max_mape"]["value"] - 0.05) < 1e-12 and c["max_mape"]["failed"]
assert c["max_mape"]["threshold"] == 0.04
assert c["min_pairs"]["value"] == 4 and not c["min_pairs"]["failed"]
assert [p["err"] > 0.079 for p in r["offending"]][0]
assert r["offending"][0]["annotation"] is None
assert len(r["offending"]) == 4
print("ok")
PY
expect_eq "$out" "ok" "json content ($err)"

# --top bounds the listed points
run pc gate --policy "$T/fail.json" --format json --dry-run --top 2
echo "$out" >"$T/top.json"
expect_eq "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rules"][0]["offending"]))' "$T/top.json")" \
	2 "--top 2"

# recording and --dry-run
before=$(pcsql 'SELECT count(*) FROM gate_evals')
digest=$(db_digest)
run pc gate --policy "$T/fail.json" --dry-run --junit "$T/j.xml"
expect_rc 1 "dry run keeps the exit code"
expect_eq "$(db_digest)" "$digest" "dry run records nothing"
expect_eq "$before" 4 "every evaluation so far recorded"
rows=$(pcsql "SELECT e.verdict, r.rule, r.status, r.failed,
	round(r.value, 4), r.lim, r.n_pairs, r.n_noisy, e.model_version,
	e.ref_version, e.model_runs, length(e.policy_hash) FROM gate_evals e
	JOIN gate_rule_evals r ON r.eval_id = e.id WHERE e.policy_name = 'fail'
	ORDER BY r.seq")
expect_eq "$rows" "fail|e2e|fail|1|0.05|0.04|4|1|1.0|2024|[2]|64
fail|gemm|pass|0|0.07|0.2|4|0|1.0|2024|[2]|64" "recorded rows"
details=$(pcsql "SELECT json_extract(details, '\$.rules[0].message')
	FROM gate_evals WHERE policy_name = 'fail'")
expect_eq "$details" "max_mape 5% > 4%" "details JSON stored"

# history
run pc gate --history
expect_rc 0 "history"
expect_in "policy  model        ref        verdict  fail  unknown  warn  pass" "$out" \
	"history header"
expect_eq "$(echo "$out" | wc -l)" 5 "history: header + 4 evaluations"
expect_in "fail    archsim@1.0  h100@2024  fail        1        0     0     1" "$out" \
	"history row"
run pc gate --history --policy "$T/warn.json" --format json
expect_rc 0 "history json"
echo "$out" >"$T/h.json"
expect_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d), d[0]["policy"], d[0]["verdict"], d[0]["rules"][0]["status"])' "$T/h.json")" \
	"1 warn warn warn" "history of one policy"

# exit 2: usage, policy errors, nothing to compare
run pc gate
expect_rc 2 "no policy"
expect_in "perfcorr gate: --policy is required" "$err" "no policy message"
run pc gate --policy "$T/nope.json"
expect_rc 2 "missing policy file"
expect_in "cannot open" "$err" "missing file message"
printf '{"name": "x",\n "rules": [{"name": "r", "max_mape": 15}]}\n' >"$T/bad.json"
run pc gate --policy "$T/bad.json"
expect_rc 2 "bad policy"
expect_eq "$err" "perfcorr gate: $T/bad.json:2: rules[0].max_mape: 15 looks like a percentage: write a fraction (0.15) or a string (\"15%\")" \
	"bad policy message"
run pc gate --policy "$T/pass.json" --model nosuch
expect_rc 2 "unknown model source"
run pc gate --policy "$T/pass.json" --model archsim@9.9
expect_rc 2 "unknown model version"
printf '{"name": "x", "rules": [{"name": "r", "max_mape": 0.1}]}\n' >"$T/nomodel.json"
run pc gate --policy "$T/nomodel.json"
expect_rc 2 "no model"
expect_in "no model: give --model or \"model\" in the policy" "$err" \
	"no model message"
run pc gate --policy "$T/nomodel.json" --model archsim --ref h100 --dry-run
expect_rc 0 "--model and --ref on the command line"
run pc gate --policy "$T/pass.json" --format xml
expect_rc 2 "bad format"
run pc gate --help
expect_rc 0 "help"
expect_in "--dry-run" "$out" "help lists options"

finish
