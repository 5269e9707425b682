# perfcorr gate --junit: well-formed XML (xmllint), one testcase per rule,
# everything escaped, including names with markup and invalid UTF-8.
. "$(dirname "$0")/../cli/lib.sh"
G="$FIXTURES/gate"

pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null
pc import --source archsim --kind perfsim --version 1.0 "$G/model-1.0.csv" \
	2>/dev/null
cat >"$T/p.json" <<'JSON'
{"name": "rel", "model": "archsim", "ref": "h100", "rules": [
  {"name": "e2e", "op": "e2e", "max_mape": 0.04},
  {"name": "gemm", "op": "gemm_qkv", "max_mape": 0.04, "severity": "warn"},
  {"name": "all", "max_mape": 0.5}]}
JSON
run pc gate --policy "$T/p.json" --junit "$T/j.xml" --dry-run
expect_rc 1 "exit code unchanged by --junit"
run xmllint --noout "$T/j.xml"
expect_rc 0 "JUnit is well-formed XML ($err)"
run python3 - "$T/j.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites" and root.get("tests") == "3", root.attrib
assert root.get("failures") == "1" and root.get("skipped") == "1", root.attrib
suite = root.find("testsuite")
assert suite.get("name") == "rel"
props = {p.get("name"): p.get("value") for p in suite.iter("property")}
assert props["model"] == "archsim@1.0" and props["ref"] == "h100@2024", props
assert props["verdict"] == "fail" and len(props["policy_sha256"]) == 64
cases = {c.get("name"): c for c in suite.findall("testcase")}
assert list(cases) == ["e2e", "gemm", "all"], list(cases)
f = cases["e2e"].find("failure")
assert f.get("message") == "max_mape 5% > 4%", f.get("message")
assert "llama3-8b/decode/bs=32 e2e time" in f.text, f.text
assert cases["gemm"].find("failure") is None
assert "max_mape 7% > 4%" in cases["gemm"].find("system-out").text
# a warning is visible in CI views (issue 35): skipped, "warning: ",
# and a status property; an unknown rule says "unknown: " instead
st = lambda c: {p.get("name"): p.get("value")
		for p in c.findall("properties/property")}["status"]
assert cases["gemm"].find("skipped").get("message") == \
	"warning: max_mape 7% > 4%", cases["gemm"].find("skipped").attrib
assert (st(cases["e2e"]), st(cases["gemm"]), st(cases["all"])) == \
	("fail", "warn", "pass")
# a passing testcase says what it measured
assert cases["all"].find("skipped") is None
assert cases["all"].find("system-out").text.startswith(
	"PASS  all  n=8 (0 waived, 1 noisy)  min_pairs 8 >= 1; max_mape "), \
	cases["all"].find("system-out").text
assert props["warnings"] == "1" and props["unknown"] == "0", props
print("ok")
PY
expect_eq "$out" "ok" "JUnit content ($err)"

# a gate with no warning and no unknown rule: testsuites and testsuite
# carry tests, failures, errors and skipped all four, 0 included (JUnit
# schema consumers expect them; skipped was left out when 0)
cat >"$T/ok.json" <<'JSON'
{"name": "ok", "model": "archsim", "ref": "h100", "rules": [
  {"name": "all", "max_mape": 0.5}]}
JSON
run pc gate --policy "$T/ok.json" --junit "$T/ok.xml" --dry-run
expect_rc 0 "a passing gate"
run python3 -c 'import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print([(e.tag, [e.get(a) for a in ("tests", "failures", "errors", "skipped")]) for e in (r, r.find("testsuite"))])' "$T/ok.xml"
expect_eq "$out" "[('testsuites', ['1', '0', '0', '0']), ('testsuite', ['1', '0', '0', '0'])]" \
	"all four counts present when 0"

# hostile names: markup characters, quotes, a control and an invalid byte
printf 'workload,op,metric,value,unit\n"w<&>%sx",op"",time,1,ms\nw2,\377\001bad,time,2,ms\n' \
	"'" >"$T/r.csv"
printf 'workload,op,metric,value,unit\n"w<&>%sx",op"",time,2,ms\nw2,\377\001bad,time,3,ms\n' \
	"'" >"$T/m.csv"
pc import --source r --kind silicon --version 1 "$T/r.csv" 2>/dev/null
pc import --source m --kind perfsim --version 1 "$T/m.csv" 2>/dev/null
printf '{"name": "x<y>&\\"]]>", "model": "m", "ref": "r", "rules": [{"name": "r<&\\"1", "max_mape": 0.1}]}\n' \
	>"$T/h.json"
run pc gate --policy "$T/h.json" --junit "$T/h.xml" --format json
expect_rc 1 "hostile gate fails"
echo "$out" >"$T/h.out.json"
run python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); print(ascii(sorted(p["op"] for p in d["rules"][0]["offending"])))' "$T/h.out.json"
expect_eq "$out" "['op\"\"', '\\ufffd\\x01bad']" "JSON is valid UTF-8 ($err)"
run xmllint --noout "$T/h.xml"
expect_rc 0 "escaped JUnit is well-formed ($err)"
run python3 -c 'import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); c=r.find("testsuite/testcase"); print(c.get("classname"), c.get("name"))' "$T/h.xml"
expect_eq "$out" 'perfcorr.gate.x<y>&"]]> r<&"1' "names round-trip through XML"
digest=$(db_digest)
run pc gate --policy "$T/h.json" --junit "$T/nodir/h.xml"
expect_rc 2 "unwritable JUnit path: not the exit code of a failed gate"
expect_eq "$err" "perfcorr gate: cannot write JUnit '$T/nodir/h.xml': No such file or directory
try 'perfcorr gate --help'" "unwritable message with the OS reason"
expect_eq "$(db_digest)" "$digest" "nothing evaluated or recorded"
run pc gate --policy "$T/h.json" -o "$T/nodir/r.txt" --dry-run
expect_rc 2 "unwritable -o path"
expect_in "cannot write the report '$T/nodir/r.txt': No such file or directory" \
	"$err" "-o message"
# --junit -: the XML on standard output, the report on standard error
run pc gate --policy "$T/p.json" --junit - --dry-run
expect_rc 1 "junit to stdout"
printf '%s\n' "$out" >"$T/stdout.xml"
run xmllint --noout "$T/stdout.xml"
expect_rc 0 "stdout is the JUnit XML alone ($err)"
run pc gate --policy "$T/p.json" --junit - --dry-run
expect_in "verdict: FAIL" "$err" "report on stderr"
run pc gate --policy "$T/p.json" --junit - -o "$T/rep.txt" --dry-run
expect_in "verdict: FAIL" "$(cat "$T/rep.txt")" "report to -o"

# a gate that cannot run (exit 2) still leaves JUnit saying why
run pc gate --policy "$T/p.json" --model archsim@9.9 --junit "$T/e.xml"
expect_rc 2 "unknown version"
run xmllint --noout "$T/e.xml"
expect_rc 0 "error JUnit is well-formed ($err)"
run python3 -c 'import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print(r.get("errors"), r.get("skipped"), r.find("testsuite").get("skipped"), r.find("testsuite/testcase/error").get("message"))' "$T/e.xml"
expect_eq "$out" "1 0 0 source 'archsim' has no version '9.9' (versions: '1.0')" \
	"error testcase"
printf '{"name": "x", "rules": [}' >"$T/bad.json"
run pc gate --policy "$T/bad.json" --junit "$T/e2.xml"
expect_rc 2 "bad policy"
run python3 -c 'import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print(r.find("testsuite/testcase/error").get("message"))' "$T/e2.xml"
expect_eq "$out" "$T/bad.json:1:25: invalid JSON" "policy error in JUnit"

finish
