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
finish
