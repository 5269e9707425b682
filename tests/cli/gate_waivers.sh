# perfcorr gate: accepted annotations waive points (with and without
# expiry); other states and expired waivers do not.
. "$TESTS/cli/lib.sh"
G="$FIXTURES/gate"

pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null
pc import --source archsim --kind perfsim --version 2.0 "$G/model-2.0.csv" \
	2>/dev/null
cat >"$T/p.json" <<'JSON'
{"name": "w", "model": "archsim", "ref": "h100", "rules": [
  {"name": "e2e", "metric": "time", "op": "e2e", "max_mape": 0.10,
   "max_abs_err": "30%"}]}
JSON
BS32=llama3-8b/decode/bs=32
ann() { pc annotate --workload "$@" >/dev/null; }

# archsim 2.0 has +40% on bs=32: MAPE 13%
run pc gate --policy "$T/p.json" --dry-run
expect_rc 1 "unwaived outlier fails"
expect_in "FAIL  e2e  n=4 (0 waived, 1 noisy)  max_mape 13% > 10%; max_abs_err 40% > 30%" \
	"$out" "fail message"
expect_in "    $BS32 e2e time: model 0.028 ref 0.02 err +40.0% - unexplained" \
	"$out" "offender without annotation"

# explained is not a waiver
ann "$BS32" --op e2e --metric time --status explained \
	--category modeling-error --note "warmup not modelled" --author bob
run pc gate --policy "$T/p.json" --dry-run
expect_rc 1 "explained does not waive"
expect_in "err +40.0% - explained/modeling-error by bob on " "$out" \
	"offender shows its annotation"

# accepted without expiry (workload spelled differently: canonicalised)
ann llama3-8b/bs=32.0/DECODE --op e2e --metric time --status accepted \
	--category abstraction-error --note "warmup deliberately not modelled" \
	--author alice --link https://bugs.example/42
run pc gate --policy "$T/p.json" --dry-run
expect_rc 0 "accepted waives"
expect_in "PASS  e2e  n=3 (1 waived, 1 noisy)  min_pairs 4 >= 1; max_mape 4% <= 10%" \
	"$out" "limits computed without the waived point"
expect_in "waived (accepted, not counted):
    $BS32 e2e time: model 0.028 ref 0.02 err +40.0% - accepted/abstraction-error by alice on " \
	"$out" "waived point listed"
expect_in ": warmup deliberately not modelled <https://bugs.example/42>" "$out" \
	"waiver reason and link"
run pc gate --policy "$T/p.json" --dry-run --format json
echo "$out" >"$T/w.json"
run python3 - "$T/w.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["rules"][0]
assert r["status"] == "pass" and r["waived"] == 1 and r["pairs"] == 3, r
w = r["waived_points"][0]
assert w["workload"] == "llama3-8b/decode/bs=32" and abs(w["err"] - 0.4) < 1e-9
a = w["annotation"]
assert a["status"] == "accepted" and a["author"] == "alice", a
assert a["note"] == "warmup deliberately not modelled" and a["expires"] is None
assert len(a["created_at"]) >= 10
print("ok")
PY
expect_eq "$out" "ok" "waiver in JSON ($err)"

# an expired waiver is no waiver
ann "$BS32" --op e2e --metric time --status accepted --note "until 2020" \
	--expires 2020-01-01 --author alice
run pc gate --policy "$T/p.json" --dry-run
expect_rc 1 "expired waiver"
expect_in "accepted/unknown by alice on " "$out" "expired annotation shown"
expect_in "until 2020-01-01 (expired): until 2020" "$out" "marked expired"
expect_not_in "waived (accepted" "$out" "nothing waived"

# a waiver that expires in the future applies
ann "$BS32" --op e2e --metric time --status accepted --note "until 2099" \
	--expires 2099-12-31 --author carol
run pc gate --policy "$T/p.json" --dry-run
expect_rc 0 "unexpired waiver"
expect_in "accepted/unknown by carol on " "$out" "who"
expect_in "until 2099-12-31: until 2099" "$out" "expiry and reason"

# reopening (a newer row) ends the waiver
ann "$BS32" --op e2e --metric time --status open --note "regressed again"
run pc gate --policy "$T/p.json" --dry-run
expect_rc 1 "reopened"

# a pattern waiver over every decode e2e point; bs=32 keeps its own
# (exact-key, reopened) annotation, which is more specific than a pattern
pc annotate --pattern --workload 'llama3-8b/decode/*' --op e2e \
	--status accepted --note "decode path under rework" >/dev/null
run pc gate --policy "$T/p.json" --dry-run --format json
echo "$out" >"$T/pat.json"
expect_eq "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["rules"][0]; print(r["status"], r["pairs"], r["waived"])' "$T/pat.json")" \
	"fail 2 2" "pattern waiver"

finish
