# perfcorr gate: max_mape_increase knows noise. The change is measured on
# the points both releases have (paired), with the release-change test
# (issue 34: cluster-robust over workloads, src/stats/stats_change.h);
# "significance" fails a rule only when the increase is above its limit
# beyond noise, passes it when it is below beyond noise, and says unknown
# (exit 3) when the interval straddles the limit. Coverage changes
# (points only in one release) are reported apart and stay out of the
# increase.
. "$(dirname "$0")/../cli/lib.sh"

# 30 workloads, a noisy-ish reference (CV 5%), release 1.0 with errors
# 5%..10.8%; 1.1 moves |error| by +9 pp on 10 points and -3 pp on 20
# (mean +1 pp, noise); 1.2 moves every point by +2 pp (real); 1.3 is 1.0
# plus one new workload with a 100% error.
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
def write(name, rows):
    with open("%s/%s.csv" % (t, name), "w") as f:
        f.write("workload,op,metric,value,unit,n,stddev\n")
        for w, v, sd in rows:
            f.write("m/bs=%d,e2e,time,%.9g,ms,10,%s\n" % (w, v, sd))
write("ref", [(i, 1.0, "0.05") for i in range(30)])
base = [0.05 + 0.002 * i for i in range(30)]
write("m10", [(i, 1 + base[i], "") for i in range(30)])
write("m11", [(i, 1 + base[i] + (0.09 if i % 3 == 0 else -0.03), "")
              for i in range(30)])
write("m12", [(i, 1 + base[i] + 0.02, "") for i in range(30)])
write("m13", [(i, 1 + base[i], "") for i in range(30)] + [(30, 2.0, "")])
# 1.4: +4 pp on 10, -1.4 pp on 20: +0.4 pp, within the limit but its
# interval straddles it; 1.5: +0.2 pp on half, 0 on the rest: +0.1 pp,
# within beyond noise
write("m14", [(i, 1 + base[i] + (0.04 if i % 3 == 0 else -0.014), "")
              for i in range(30)])
write("m15", [(i, 1 + base[i] + (0.002 if i % 2 else 0), "")
              for i in range(30)])
with open("%s/ref.csv" % t, "a") as f:
    f.write("m/bs=30,e2e,time,1,ms,10,0.05\n")
PY
pc init >/dev/null
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
for v in 10 11 12 13 14 15; do
	pc import -q --source sim --kind perfsim --version "${v%?}.${v#?}" "$T/m$v.csv"
done
for name in plain sig; do
	extra=""
	[ $name = sig ] && extra=', "significance": 0.05'
	cat >"$T/$name.json" <<JSON
{"name": "$name", "model": "sim", "ref": "lab", "rules": [
  {"name": "e2e", "op": "e2e", "max_mape": 0.5, "max_mape_increase": "0.5%"$extra}]}
JSON
	run pc gate --policy "$T/$name.json" --model sim@1.0
	expect_rc 0 "$name: 1.0 passes and becomes the baseline"
done

# Independent expectation (tests/ref/stats_change_ref.py): 30 workloads
# of one op each, d = +0.09 x10, -0.03 x20, delta +1 pp; V = 30/29 *
# sum (d - delta)^2 / 30^2, t(29); p of "increase <= 0.5 pp", the 90%
# interval (each end a one-sided test at 0.05) and the workloads that
# would put its lower end on the limit: 30 (halfwidth / 0.5 pp)^2.
REF="$TESTS/ref" python3 -c '
import math, os, sys
sys.path.insert(0, os.environ["REF"])
from stats_change_ref import tcdf, tq
d = [0.09 if i % 3 == 0 else -0.03 for i in range(30)]
n = 30; delta = sum(d) / n
se = math.sqrt(n / (n - 1) * sum((x - delta) ** 2 for x in d) / n ** 2)
p = 1 - tcdf((delta - 0.005) / se, 29)
hw = tq(0.95, 29) * se
print(repr(p), repr(delta - hw), repr(delta + hw), math.ceil(n * (hw / 0.005) ** 2) - n)
' >"$T/expect"
read -r want_p want_lo want_hi want_more <"$T/expect"

run pc gate --policy "$T/plain.json" --model sim@1.1 --dry-run
expect_rc 1 "without significance a +1 pp wobble fails"
expect_in "max_mape_increase +1 pp > +0.5 pp (95% CI [" "$out" \
	"the increase and its interval (no p without significance)"
run pc gate --policy "$T/sig.json" --model sim@1.1 --dry-run --format json
expect_rc 3 "within noise: unknown with significance (exit 3)"
printf '%s\n' "$out" >"$T/noise.json"
run python3 - "$T/noise.json" "$want_p" "$want_lo" "$want_hi" "$want_more" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))["rules"][0]
want_p, lo_w, hi_w, more = map(float, sys.argv[2:6])
p = r["paired"]
assert r["status"] == "unknown", r["status"]
assert p["n"] == 30 and p["test"] == "cluster-robust-t", p
assert p["design"] == "workloads" and p["workloads"] == 30 and p["df"] == 29, p
assert abs(p["delta"] - 0.01) < 1e-9, p["delta"]
assert abs(p["p_value"] - want_p) < 1e-9, (p["p_value"], want_p)
assert p["p_adjusted"] == p["p_value"]          # one rule: nothing to adjust
lo, hi = p["ci"]
assert abs(lo - lo_w) < 1e-9 and abs(hi - hi_w) < 1e-9, (p["ci"], lo_w, hi_w)
assert lo < 0.005 < hi, p["ci"]                 # straddles the limit
assert p["ci_level"] == 0.9
c = [c for c in r["checks"] if c["limit"] == "max_mape_increase"][0]
assert c["failed"] is False and c["significant"] is False and c["unknown"], c
assert c["more_workloads"] == more, (c["more_workloads"], more)
assert r["coverage"] == {"baseline": "1.0", "common": 30, "only_new": 0,
                         "only_old": 0}, r["coverage"]
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "unknown" and d["counts"]["unknown"] == 1, d["counts"]
assert d["error_control"] == "holm" and d["tests"] == 1
print("ok")
PY
expect_eq "$out" "ok" "noise in JSON ($err)"
run pc gate --policy "$T/sig.json" --model sim@1.1 --dry-run
expect_in "max_mape_increase +1 pp > +0.5 pp: unknown (p=0.319 >= 0.05, 90% CI [" \
	"$out" "text says unknown"
expect_in "about $want_more more workloads would decide it (an estimate" "$out" \
	"text says how many more workloads"
expect_in "verdict: UNKNOWN (0 fail, 1 unknown, 0 warn, 0 pass)" "$out" "verdict"
expect_in "error control: holm over the 1 rule with a p-value" "$out" \
	"the error control is stated"

# a real increase: +2 pp on every point: 30 equal differences, no
# spread: the change is exact (se 0), p = 0
run pc gate --policy "$T/sig.json" --model sim@1.2 --dry-run --format json
expect_rc 1 "a real increase fails with significance"
printf '%s\n' "$out" >"$T/real.json"
run python3 - "$T/real.json" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))["rules"][0]
p = r["paired"]
assert p["p_value"] == 0 and p["df"] is None, p
assert abs(p["delta"] - 0.02) < 1e-9 and abs(p["ci"][0] - 0.02) < 1e-9
assert r["status"] == "fail"
print("ok")
PY
expect_eq "$out" "ok" "real increase ($err)"
run pc gate --policy "$T/sig.json" --model sim@1.2 --dry-run --junit "$T/j.xml"
run python3 -c 'import sys, xml.etree.ElementTree as E; f=E.parse(sys.argv[1]).getroot().find("testsuite/testcase/failure"); print(f.get("message"))' "$T/j.xml"
expect_in "max_mape_increase +2 pp > +0.5 pp (p=" "$out" "JUnit message"
expect_in "< 0.05, 90% CI [+2, +2] pp, 30 common points, 30 workloads)" "$out" \
	"JUnit shows the interval and p-value"
run pc gate --policy "$T/sig.json" --model sim@1.1 --dry-run --junit "$T/p.xml"
run python3 -c 'import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); c=r.find("testsuite/testcase"); print(r.get("skipped"), c.find("skipped").get("message"), [(p.get("name"), p.get("value")) for p in c.findall("properties/property")], c.find("system-out").text)' "$T/p.xml"
expect_in "1 unknown: max_mape_increase +1 pp > +0.5 pp: unknown (p=0.319 >= 0.05" "$out" \
	"JUnit: an unknown rule is skipped, with the reason"
expect_in "('status', 'unknown')" "$out" "JUnit: the status property"
expect_in "('p_value', '0.3188" "$out" "JUnit: the raw p"
expect_in "('p_adjusted', '0.3188" "$out" "JUnit: the adjusted p"

# unknown exactly where the interval straddles the limit: 1.1 (point
# above, straddles: unknown, above), 1.4 (point within, straddles:
# unknown), 1.2 (above beyond noise: fail), 1.5 (within beyond noise:
# pass); "unknown": "fail" / "pass" count it as told
for v in 1.1:unknown:3 1.4:unknown:3 1.2:fail:1 1.5:pass:0; do
	IFS=: read -r ver want rc <<<"$v"
	run pc gate --policy "$T/sig.json" --model "sim@$ver" --dry-run --format json
	expect_rc "$rc" "sim@$ver: exit $rc"
	got=$(printf '%s' "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin)["rules"][0]; lo,hi=r["paired"]["ci"]; print(r["status"], lo < 0.005 < hi)')
	straddles=False; [ "$want" = unknown ] && straddles=True
	expect_eq "$got" "$want $straddles" "sim@$ver: $want exactly when the interval straddles"
done
for as in fail:1:FAIL pass:0:PASS; do
	IFS=: read -r mode rc label <<<"$as"
	sed "s/\"rules\"/\"unknown\": \"$mode\", \"rules\"/" "$T/sig.json" >"$T/u$mode.json"
	run pc gate --policy "$T/u$mode.json" --model sim@1.4 --dry-run
	expect_rc "$rc" "unknown counted as $mode"
	expect_in "$label  e2e" "$out" "unknown as $mode: the rule says $label"
	expect_in "unknown (counted as $mode)" "$out" "and that it was unknown"
done

# coverage: a new workload with a 100% error is not an "increase" on
# common points, and is reported apart
run pc gate --policy "$T/sig.json" --model sim@1.3 --dry-run
expect_in "max_mape_increase +0 pp <= +0.5 pp" "$out" "no change on common points"
expect_in "coverage vs 1.0: 30 in common, 1 only in this release, 0 only in the baseline" \
	"$out" "the new pair reported apart"
# the report's gate section says unknown too (json, html card)
run pc report --model sim@1.1 --ref lab --policy "$T/sig.json" --format json
expect_in '"gate":{"verdict":"unknown"' "$out" "report json: gate unknown"
pc report --model sim@1.1 --ref lab --policy "$T/sig.json" -o "$T/r.html" >/dev/null 2>&1
expect_in 'UNKNOWN' "$(cat "$T/r.html")" "report html: the card says UNKNOWN"

# an unknown evaluation is recorded as unknown (schema 8; before, as
# warn) and never becomes the baseline of a later release
run pc gate --policy "$T/sig.json" --model sim@1.4
expect_rc 3 "1.4 recorded: unknown"
expect_eq "$(pcsql "SELECT e.verdict, r.status FROM gate_evals e JOIN gate_rule_evals r
	ON r.eval_id = e.id WHERE e.model_version = '1.4'")" "unknown|unknown" \
	"the evaluation's verdict is stored as unknown, not warn"
run pc gate --history --policy "$T/sig.json"
expect_rc 0 "history"
expect_in "verdict  fail  unknown  warn  pass" "$out" "history: an unknown column"
expect_eq "$(printf '%s\n' "$out" | awk '$4 == "sim@1.4" { print $6, $7, $8, $9, $10 }')" \
	"unknown 0 1 0 0" "history: 1.4 unknown, its one rule counted unknown"
run pc gate --history --policy "$T/sig.json" --format json
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; print([(e["model_version"], e["verdict"], e["rules"][0]["status"]) for e in json.load(sys.stdin) if e["model_version"] == "1.4"])')" \
	"[('1.4', 'unknown', 'unknown')]" "history json: verdict unknown"
run pc gate --policy "$T/sig.json" --model sim@1.5 --dry-run --format json
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["rules"][0]["coverage"]["baseline"])')" \
	"1.0" "the baseline stays the last release that passed"

# a schema-7 database (verdicts pass, warn, fail: 1.4 recorded as warn)
# migrates: the evaluation with an unknown rule becomes unknown, a warn
# without one stays warn, the CHECK then takes unknown (both engines)
if pc_db_is_server; then
	pcsql "ALTER TABLE gate_evals DROP CONSTRAINT gate_evals_verdict_check" \
		"UPDATE gate_evals SET verdict = 'warn' WHERE model_version = '1.4' OR policy_name = 'plain'" \
		"ALTER TABLE gate_evals ADD CONSTRAINT gate_evals_verdict_check CHECK (verdict IN ('pass', 'warn', 'fail'))" \
		"ALTER TABLE runs DROP COLUMN cost, DROP COLUMN cost_unit" \
		"DROP TABLE calibration" \
		"UPDATE schema_version SET version = 7" >/dev/null
else
	pcsql "BEGIN; CREATE TABLE g7 (id INTEGER PRIMARY KEY, policy_name TEXT NOT NULL,
	policy_hash TEXT NOT NULL, model_source TEXT NOT NULL, model_version TEXT NOT NULL,
	ref_source TEXT NOT NULL, ref_version TEXT NOT NULL, model_runs TEXT NOT NULL,
	ref_runs TEXT NOT NULL, verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'warn', 'fail')),
	evaluated_at TEXT NOT NULL, evaluated_by TEXT, details TEXT);
	INSERT INTO g7 SELECT id, policy_name, policy_hash, model_source, model_version,
	ref_source, ref_version, model_runs, ref_runs, CASE WHEN model_version = '1.4'
	OR policy_name = 'plain' THEN 'warn' ELSE verdict END, evaluated_at,
	evaluated_by, details FROM gate_evals; DROP TABLE gate_evals;
	ALTER TABLE g7 RENAME TO gate_evals;
	CREATE INDEX gate_evals_policy ON gate_evals(policy_name, id);
	ALTER TABLE runs DROP COLUMN cost; ALTER TABLE runs DROP COLUMN cost_unit;
	DROP TABLE calibration;
	PRAGMA user_version = 7; COMMIT;"
fi
run pcsql "INSERT INTO gate_evals (policy_name, policy_hash, model_source,
	model_version, ref_source, ref_version, model_runs, ref_runs, verdict,
	evaluated_at) VALUES ('x', 'h', 'sim', '9', 'lab', '1', '[]', '[]', 'unknown', 'now')"
[ "$rc" -ne 0 ] && ok || fail "schema 7 refuses an unknown verdict"
expect_eq "$(pcsql "SELECT policy_name || ' ' || model_version || ' ' || verdict FROM gate_evals ORDER BY id")" \
	"plain 1.0 warn
sig 1.0 pass
sig 1.4 warn" "schema 7: 1.4 recorded as warn"
run pc gate --history --policy "$T/sig.json"
V=$(sed -n 's/^#define DB_SCHEMA_VERSION \([0-9]*\)$/\1/p' "$TESTS"/../db/engine.h)
expect_in "schema 7 needs migrating to $V" "$err" "a read-only open says it needs migrating"
run pc init
expect_rc 0 "a writable open migrates to schema $V"
run pc gate --history --policy "$T/sig.json"
expect_eq "$(pcsql "SELECT policy_name || ' ' || model_version || ' ' || verdict FROM gate_evals ORDER BY id")" \
	"plain 1.0 warn
sig 1.0 pass
sig 1.4 unknown" "migrated: 1.4 unknown, the plain warn (no unknown rule) stays warn"
expect_eq "$(printf '%s\n' "$out" | awk '$4 == "sim@1.4" { print $6 }')" "unknown" \
	"history after the migration"
run pc gate --policy "$T/sig.json" --model sim@1.5 --dry-run --format json
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["rules"][0]["coverage"]["baseline"])')" \
	"1.0" "after the migration the unknown 1.4 is still no baseline"
finish
