# perfcorr gate names what moved (issue 35 item 7): the demo plus a third
# archsim release (fixtures/demo/gen_release_2.5.0.py: decode flash_attn
# fixed, prefill gemm_up made 15% worse). Every rule lists its movers
# since the baseline; without a recorded evaluation the baseline is the
# previous version in the database (said); max_abs_err_increase fails
# on the GEMMs that moved; JUnit shows warnings and passing rules.
. "$(dirname "$0")/../cli/lib.sh"
cd "$FIXTURES/.."
bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB" </dev/null >/dev/null 2>&1 ||
	fail "demo import"
pc import -q --source archsim --kind perfsim --version 2.5.0 \
	--platform H100-SXM5-80GB "$FIXTURES/demo/archsim-2.5.0.csv" ||
	fail "import 2.5.0"
P="$FIXTURES/policy/example.json"

# the expected numbers, from compare's points of both releases (plain
# python: the per-pair change of |error|, the MAPE increase)
for v in 2.4.0 2.5.0; do
	pc compare --model "archsim@$v" --ref h100-lab --op 'gemm_*' \
		--metric time --points --format json >"$T/c$v.json"
done
want=$(python3 - "$T/c2.4.0.json" "$T/c2.5.0.json" <<'PY'
import json, sys
old, new = ({(p["workload"], p["op"]): p["err"] for p in json.load(open(f))["points"]}
            for f in sys.argv[1:])
d = sorted(((abs(new[k]) - abs(old[k]), k) for k in new), key=lambda x: -abs(x[0]))
up = [k for x, k in d if x > 0.10]
mape = sum(abs(new[k]) for k in new) / len(new) - sum(abs(old[k]) for k in old) / len(old)
print(len(new), len(up), "%.4g" % (100 * max(x for x, k in d)), "%.4g" % (100 * mape))
print(" ".join(sorted(w + ":" + o for w, o in up)))
PY
)
read -r ncommon nup maxinc mapeinc <<<"$(head -1 <<<"$want")"
expect_eq "$ncommon $nup" "24 3" "24 GEMM pairs, 3 of them 10 points worse"

# a merge-request run: --dry-run, no evaluation recorded at all
run pc gate --policy "$P" --model archsim@2.5.0 --dry-run
expect_rc 1 "the per-pair rule blocks 2.5.0"
expect_in "baseline: archsim@2.4.0, the previous version in the database (no evaluation of this policy passed for an earlier release)" \
	"$out" "the baseline is said"
expect_in "max_mape_increase +$mapeinc pp <= +2 pp: unknown (p=" "$out" \
	"max_mape_increase measured against the previous version, not n/a"
expect_in "FAIL  gemm-per-kernel   n=24  max_abs_err_increase +$maxinc pp > +10 pp (3 of 24 pairs in common with 2.4.0 above it)" \
	"$out" "the per-pair increase"
expect_in "  moved since 2.4.0 in 'gemm-kernels' (3 of 24 common pairs, largest change of |error| first):
    llama3-8b/prefill/bs=8/seq=2048/bf16 gemm_up time: err -2.1% -> -16.8% (|err| +14.7 pp)
    llama3-8b/prefill/bs=1/seq=2048/bf16 gemm_up time: err +0.2% -> -14.8% (|err| +14.6 pp)
    llama3-8b/prefill/bs=32/seq=2048/bf16 gemm_up time: err -3.4% -> -17.9% (|err| +14.5 pp)" \
	"$out" "the GEMMs that moved, named"
expect_in "  moved since 2.4.0 in 'decode-attention' (2 of 3 common pairs, largest change of |error| first):
    llama3-8b/decode/bs=32/seq=2048/bf16 flash_attn time: err -38.6% -> -0.9% (|err| -37.6 pp)" \
	"$out" "a passing rule lists its movers too (the fix)"
expect_in "  nothing moved since 2.4.0 in 'power' (3 pairs in common)" "$out" \
	"a rule where nothing moved says so"

run pc gate --policy "$P" --model archsim@2.5.0 --dry-run --format json
printf '%s\n' "$out" >"$T/g.json"
run python3 - "$T/g.json" "$(tail -1 <<<"$want")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["name"]: x for x in d["rules"]}
m = r["gemm-per-kernel"]["movers"]
assert m["baseline"] == "2.4.0" and m["from"] == "previous-version", m
assert (m["common"], m["moved"]) == (24, 3), m
got = " ".join(sorted(p["workload"] + ":" + p["op"] for p in m["points"][:3]))
assert got == sys.argv[2], (got, sys.argv[2])
for p in m["points"]:
    assert abs(abs(p["err_after"]) - abs(p["err_before"]) - p["abs_err_change"]) < 1e-12
b = r["gemm-kernels"]["baseline"]
assert b["version"] == "2.4.0" and b["from"] == "previous-version" and b["mape"] is None, b
assert r["gemm-kernels"]["paired"]["n"] == 24
assert r["power"]["movers"]["moved"] == 0 and r["power"]["movers"]["points"] == []
c = [x for x in r["gemm-per-kernel"]["checks"] if x["limit"] == "max_abs_err_increase"][0]
assert c["failed"] and c["applicable"], c
assert sorted(p["op"] for p in r["gemm-per-kernel"]["offending"]) == ["gemm_up"] * 3
assert r["gemm-per-kernel"]["baseline_none"] is None
print("ok")
PY
expect_eq "$out" "ok" "movers in JSON ($err)"

# JUnit: every testcase says what it measured and what moved; a warning
# and an unknown rule are both skipped, told apart by message and status
run pc gate --policy "$P" --model archsim@2.5.0 --dry-run --junit "$T/j.xml"
run python3 - "$T/j.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
s = root.find("testsuite")
assert (root.get("failures"), root.get("skipped")) == ("1", "2"), root.attrib
c = {x.get("name"): x for x in s.findall("testcase")}
st = lambda x: {p.get("name"): p.get("value") for p in x.findall("properties/property")}
assert st(c["decode-attention"])["status"] == "pass"
out = c["decode-attention"].find("system-out").text
assert "moved since 2.4.0 in 'decode-attention'" in out and "flash_attn" in out, out
assert st(c["decode-attention"])["baseline_from"] == "previous-version"
assert c["speed-of-light"].find("skipped").get("message").startswith("warning: max_sol_violations 3 > 0")
assert st(c["speed-of-light"])["status"] == "warn"
assert c["gemm-kernels"].find("skipped").get("message").startswith("unknown: max_mape_increase")
assert st(c["gemm-kernels"])["status"] == "unknown"
f = c["gemm-per-kernel"].find("failure")
assert "moved since 2.4.0 in 'gemm-per-kernel'" in f.text, f.text
for x in c.values():
    assert x.find("system-out") is not None or x.find("failure") is not None, x.get("name")
print("ok")
PY
expect_eq "$out" "ok" "JUnit ($err)"

# recorded evaluations: 2.4.0 is judged against 2.3.0 (no evaluation
# yet: the previous version), passes, and becomes 2.5.0's baseline
run pc gate --policy "$P" --model archsim@2.4.0
expect_rc 0 "2.4.0 passes (warnings)"
expect_in "baseline: archsim@2.3.0, the previous version in the database" "$out" \
	"2.4.0 against 2.3.0"
run pc gate --policy "$P" --model archsim@2.5.0
expect_rc 1 "2.5.0 blocked"
expect_in "baseline: archsim@2.4.0, the last earlier release that passed this policy" \
	"$out" "the recorded baseline"

# the limit itself, on the small gate fixtures (fixtures/gate/README.md:
# e2e errors +5 -5 +8 -2 % in 1.0, +10 -10 +12 -6 % in 1.1: |error|
# grows 5, 5, 4, 4 points); a value equal to its limit passes
export PERFCORR_DB="$T/small.db"
pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$FIXTURES/gate/ref.csv" 2>/dev/null
for v in 1.0 1.1; do
	pc import --source archsim --kind perfsim --version $v "$FIXTURES/gate/model-$v.csv" 2>/dev/null
done
for lim in 5:0 4.9:1; do
	printf '{"name": "inc", "model": "archsim", "ref": "h100", "rules": [{"name": "e2e", "op": "e2e", "metric": "time", "max_abs_err_increase": "%s%%"}]}\n' \
		"${lim%%:*}" >"$T/inc.json"
	run pc gate --policy "$T/inc.json" --model archsim@1.1 --dry-run --format json
	expect_rc "${lim##*:}" "max_abs_err_increase ${lim%%:*}%"
	printf '%s\n' "$out" >"$T/inc.out"
	got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["rules"][0]; c=r["checks"][1]; print(r["status"], round(c["value"], 9), sorted(p["workload"] for p in r["offending"]))' "$T/inc.out")
	case $lim in
	5:0) expect_eq "$got" "pass 0.05 []" "5 points: at the limit, passes" ;;
	*) expect_eq "$got" "fail 0.05 ['llama3-8b/decode/bs=1', 'llama3-8b/decode/bs=8']" \
		"4.9 points: the two pairs that grew 5 points" ;;
	esac
done
# the first release has nothing to compare with: n/a, said
run pc gate --policy "$T/inc.json" --model archsim@1.0 --dry-run
expect_in "max_abs_err_increase n/a (the first release of the model in the database: nothing to compare with)" \
	"$out" "first release"
finish
