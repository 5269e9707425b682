#!/usr/bin/env bash
# report marks a summary over fewer pairs than the policy's min_pairs
# "few pairs" with its MAPE interval (issue 19): Markdown, HTML, JSON; the
# report JSON carries compare's agreement keys (one writer).
. "$TESTS/cli/lib.sh"
pc init >/dev/null 2>&1
python3 - "$PWD" <<'PY'
import sys, os
d = sys.argv[1]
with open(os.path.join(d, "ref.csv"), "w") as r, open(os.path.join(d, "mod.csv"), "w") as m:
    r.write("workload,op,metric,value,unit,n,stddev\n")
    m.write("workload,op,metric,value,unit\n")
    k = 0
    for w in range(6):
        for op, base in (("gemm", 100.0), ("attn", 37.0)):
            k += 1
            ref = base * (1 + w)
            r.write("net/bs=%d,%s,time,%r,us,5,%r\n" % (w + 1, op, ref, ref * 0.01))
            m.write("net/bs=%d,%s,time,%r,us\n" % (w + 1, op, ref * (1 + 0.01 * (k % 5))))
PY
pc import -q -s lab -k silicon -V 1 ref.csv
pc import -q -s sim -k perfsim -V 1 mod.csv
cat > p.json <<'JSON'
{"name": "p", "rules": [{"name": "all", "max_mape": "50%", "min_pairs": 20}]}
JSON
want=$(pc compare --model sim --ref lab --format json | python3 -c '
import json, sys
c = json.load(sys.stdin)["summary"]["mape_ci"]
print("few pairs: MAPE CI [%.2f%%, %.2f%%]" % (c[0] * 100, c[1] * 100))')
run pc report --model sim --ref lab --policy p.json --format md --no-matrix --no-trend
expect_rc 0 "report md"
expect_in "| **all** | 12 ($want) |" "$out" "md: the all row is few pairs, with compare's interval"
run pc report --model sim --ref lab --policy p.json --format html --no-matrix --no-trend
expect_in "all op classes <span class=\"few\">$want</span></td><td class=\"n\">12</td>" "$out" \
	"html: few pairs, under the row's name (issue 35: not in the narrow n column)"
run pc report --model sim --ref lab --policy p.json --format json --no-matrix --no-trend
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["summary"]; print(s["few_pairs"], s["n"], "ccc" in s and "deming" in s)')" "True 12 True" "json: few_pairs and the agreement keys"
# without a policy nothing is marked
run pc report --model sim --ref lab --format md --no-matrix --no-trend
expect_not_in "few pairs" "$out" "no policy: no mark"
finish
