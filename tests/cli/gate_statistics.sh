#!/usr/bin/env bash
# The gate's JSON carries each rule's full statistics with the keys of
# compare's summary, written by the same writer (corrout, issue 19: one
# table of statistics for compare, report and gate).
. "$(dirname "$0")/../cli/lib.sh"
G="$FIXTURES/gate"
pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null
pc import --source archsim --kind perfsim --version 1.0 "$G/model-1.0.csv" 2>/dev/null
printf '{"name": "p", "model": "archsim", "ref": "h100", "rules": [{"name": "e2e", "metric": "time", "op": "e2e", "max_mape": 0.06}]}\n' >"$T/p.json"
run pc gate --policy "$T/p.json" --format json --dry-run
expect_rc 0 "gate json"
gate=$out
run pc compare --model archsim --ref h100 --metric time --op e2e --format json --no-ci
expect_rc 0 "compare of the same points"
got=$(GATE="$gate" python3 -c '
import json, os, sys
c = json.load(sys.stdin)["summary"]
r = json.loads(os.environ["GATE"])["rules"][0]
s = r["statistics"]
print(list(s) == list(c), s["n"] == c["n"] == r["pairs"] == 4,
      abs(s["mape"] - 0.05) < 1e-12, s["mape"] == r["mape"] == c["mape"],
      s["ccc"] == c["ccc"], s["deming"] == c["deming"], s == c)
' <<<"$out")
expect_eq "$got" "True True True True True True True" "gate statistics: compare's keys and values (MAPE 5%, fixtures/gate/README.md)"
finish
