#!/usr/bin/env bash
# The README's demo: scripts/demo.sh imports fixtures/demo/ (real tool
# formats) and, without a terminal, prints the comparison summary.
. "$(dirname "$0")/lib.sh"
cd "$FIXTURES/.."
run bash scripts/demo.sh "$PERFCORR" "$T/demo.db" </dev/null
expect_rc 0 "demo script"
expect_in "archsim@2.4.0 (perfsim" "$out" "latest archsim release is the model"
expect_in "pairs: 51" "$out" "every kernel and e2e metric paired"
export PERFCORR_DB="$T/demo.db"
run pc runs --format csv
expect_eq "$(printf '%s\n' "$out" | grep -c ',h100-lab,silicon,')" "11" "silicon runs"
expect_in ",nsys-kern-sum," "$out" "nsys importer detected"
# kernels mapped to ops by fixtures/demo/kernels.json; split-KV attention summed
run pc export results --source h100-lab
expect_in "llama3-8b/decode/bs=32/seq=2048/bf16,flash_attn,time," "$out" "flash attention op"
expect_not_in ",flash_fwd_splitkv" "$out" "raw kernel names mapped away"
# the planted speed-of-light violations: roofline lm_head in prefill
run pc compare --model roofline --ref h100-lab --metric time --format json
expect_rc 0 "roofline compare"
sol=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["sol_violations"])')
expect_eq "$sol" "3" "three speed-of-light violations"
# who disagrees with whom: every pattern of fixtures/demo/README.md occurs
run pc matrix --format json
expect_rc 0 "demo matrix"
pat=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = {x["label"]: x["count"] for x in d["patterns"]}
k = {(x["workload"].split("/")[2], x["op"]): x for x in d["keys"]}
print(p.get("agree"), p.get("odd:t100-rtl"), p.get("odd:archsim"),
      p.get("split:archsim+t100-rtl|h100-cloud+h100-lab"), p.get("odd:h100-cloud"),
      p.get("scattered"), p.get("ambiguous"), [m for m in d["metrics"] if m["metric"] == "time"][0]["common_keys"],
      k[("bs=8", "flash_attn")]["suggested"]["category"],
      k[("bs=32", "rmsnorm")]["suggested"]["category"],
      k[("bs=32", "gemm_up")]["suggested"]["category"],
      k[("bs=1", "gemm_o")]["suggested"]["category"],
      k[("bs=1", "rmsnorm")]["tolerance_from"],
      ",".join(k[("bs=8", "lm_head")]["sol_violations"]))')
expect_eq "$pat" "12 3 1 2 1 1 None 17 modeling-error specification-error measurement-issue rtl-bug h100-lab archsim,h100-cloud,h100-lab" \
	"every pattern, for its reason"
# a second `make demo` keeps the database and the review in it;
# `make demo-reset` (--reset) starts over
pc annotate --workload llama3-8b/decode/bs=8/seq=2048/bf16 --op lm_head \
	--metric time --status investigating --note "mine" --author me 2>/dev/null
run bash scripts/demo.sh "$PERFCORR" "$T/demo.db" </dev/null
expect_rc 0 "demo again"
expect_in "demo: keeping $T/demo.db and the review in it" "$err" "kept"
expect_eq "$(pc annotations --format csv | grep -c ',mine,')" 1 \
	"the annotation survives make demo"
run bash scripts/demo.sh "$PERFCORR" "$T/demo.db" --reset </dev/null
expect_rc 0 "demo reset"
expect_in "demo: deleted $T/demo.db" "$err" "reset says so"
expect_eq "$(pc annotations --format csv | grep -c ',mine,')" 0 \
	"make demo-reset deletes the review"
expect_in "pairs: 51" "$out" "reset imports afresh"
[ ! -e "$T/demo.db.tmp" ] && ok || fail "temporary database left behind"
finish
