# perfcorr gate: max_mape_increase knows noise. The change is measured on
# the points both releases have (paired), with a bootstrap interval and a
# Wilcoxon signed-rank p-value; "significance" fails a rule only when the
# increase is past its limit and significant. Coverage changes (points
# only in one release) are reported apart and stay out of the increase.
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
with open("%s/ref.csv" % t, "a") as f:
    f.write("m/bs=30,e2e,time,1,ms,10,0.05\n")
PY
pc init >/dev/null
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
for v in 10 11 12 13; do
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

# Independent expectation: 30 nonzero differences (<= 50: the exact
# distribution), d = +0.09 x10, -0.03 x20; ranks: the 20 small ones share
# 10.5, the 10 large ones 25.5: W+ = 10 x 25.5 = 255. Under no change each
# sign is a fair coin: W+ = 10.5 A + 25.5 B with A ~ Bin(20, 1/2) and
# B ~ Bin(10, 1/2) independent, so p = P(10.5 A + 25.5 B >= 255) =
# 0.3135770848020911 (the sum below).
python3 -c 'from math import comb; print(sum(comb(20,a)*comb(10,b) for a in range(21) for b in range(11) if 10.5*a+25.5*b>=255-1e-9)/2**30)' >"$T/expect"
expect_eq "$(cat "$T/expect")" "0.3135770848020911" "hand computation"

run pc gate --policy "$T/plain.json" --model sim@1.1 --dry-run
expect_rc 1 "without significance a +1 pp wobble fails"
expect_in "max_mape_increase +1 pp > +0.5 pp (p=0.314, 95% CI [" "$out" \
	"the increase, its p-value and interval"
run pc gate --policy "$T/sig.json" --model sim@1.1 --dry-run --format json
expect_rc 0 "within noise: passes with significance"
printf '%s\n' "$out" >"$T/noise.json"
run python3 - "$T/noise.json" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))["rules"][0]
p = r["paired"]
assert r["status"] == "pass", r["status"]
assert p["n"] == 30 and p["test"] == "wilcoxon-exact", p
assert abs(p["delta"] - 0.01) < 1e-9, p["delta"]
assert abs(p["w_plus"] - 255) < 1e-9
assert abs(p["p_value"] - 0.3135770848020911) < 1e-12, p["p_value"]
lo, hi = p["ci"]
assert lo < 0.005 < hi and lo < 0.01 < hi, p["ci"]   # contains the limit
assert p["resamples"] == 2000 and p["seed"] == 20261201 and p["ci_level"] == 0.95
c = [c for c in r["checks"] if c["limit"] == "max_mape_increase"][0]
assert c["failed"] is False and c["significant"] is False, c
assert r["coverage"] == {"baseline": "1.0", "common": 30, "only_new": 0,
                         "only_old": 0}, r["coverage"]
print("ok")
PY
expect_eq "$out" "ok" "noise in JSON ($err)"
run pc gate --policy "$T/sig.json" --model sim@1.1 --dry-run
expect_in "max_mape_increase +1 pp > +0.5 pp but within noise (p=0.314 >= 0.05, 95% CI [" \
	"$out" "text says within noise"

# a real increase: +2 pp on every point: 30 equal positive differences,
# W+ = 465 is the largest possible, reached by one sign assignment of
# 2^30: p = 2^-30 = 9.313225746154785e-10
run pc gate --policy "$T/sig.json" --model sim@1.2 --dry-run --format json
expect_rc 1 "a real increase fails with significance"
printf '%s\n' "$out" >"$T/real.json"
run python3 - "$T/real.json" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))["rules"][0]
p = r["paired"]
assert abs(p["p_value"] - 2.0**-30) < 1e-20, p
assert abs(p["delta"] - 0.02) < 1e-9 and abs(p["ci"][0] - 0.02) < 1e-9
assert r["status"] == "fail"
print("ok")
PY
expect_eq "$out" "ok" "real increase ($err)"
run pc gate --policy "$T/sig.json" --model sim@1.2 --dry-run --junit "$T/j.xml"
run python3 -c 'import sys, xml.etree.ElementTree as E; f=E.parse(sys.argv[1]).getroot().find("testsuite/testcase/failure"); print(f.get("message"))' "$T/j.xml"
expect_in "max_mape_increase +2 pp > +0.5 pp (p=" "$out" "JUnit message"
expect_in "< 0.05, 95% CI [+2, +2] pp, 30 common points)" "$out" \
	"JUnit shows the interval and p-value"
run pc gate --policy "$T/sig.json" --model sim@1.1 --dry-run --junit "$T/p.xml"
run python3 -c 'import sys, xml.etree.ElementTree as E; c=E.parse(sys.argv[1]).getroot().find("testsuite/testcase"); print(c.find("system-out").text)' "$T/p.xml"
expect_in "within noise (p=0.314 >= 0.05" "$out" "a passing increase shows them too"

# coverage: a new workload with a 100% error is not an "increase" on
# common points, and is reported apart
run pc gate --policy "$T/sig.json" --model sim@1.3 --dry-run
expect_in "max_mape_increase +0 pp <= +0.5 pp" "$out" "no change on common points"
expect_in "coverage vs 1.0: 30 in common, 1 only in this release, 0 only in the baseline" \
	"$out" "the new pair reported apart"
finish
