#!/bin/bash
# SGLang bench_serving JSON lines: key names mapped to the vLLM metrics.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
H="$FIXTURES/hw/sglang"

run pc import -s h100 -k silicon "$SAMPLES/sglang_bench_serving.jsonl"
expect_rc 0 "sample imports"
expect_in "(sglang): 40 results" "$err" "auto-detected, two lines"
run pc import -s h100 -w llama3-8b/bf16 "$H/old_no_server_info_crlf.jsonl"
expect_rc 0 "Infinity, no server_info, CRLF"
export_now
W=meta-llama/Meta-Llama-3-8B-Instruct/input_len=2048/output_len=256/request_rate=2
expect_near "$(xv workload=$W metric=e2el)" 1.87311693384528 \
	"e2e_latency -> e2el (s)"
expect_near "$(xv workload=$W metric=e2el stddev)" 0.071033877283815 "e2el std"
expect_near "$(xv workload=$W metric=total_throughput)" 4536.047313862506 \
	"total_throughput"
expect_near "$(xv workload=$W metric=itl_p95)" 0.00761119867867367 "p95 ITL"
expect_eq "$(xv workload=$W metric=accept_length)" NONE "null accept_length"
expect_eq "$(xv workload=$W metric=output_tokens)" 51200 "output tokens"
W8=meta-llama/Meta-Llama-3-8B-Instruct/input_len=2048/output_len=256/request_rate=8
expect_near "$(xv workload=$W8 metric=ttft)" 0.139825270256391 "second line"
W=llama3-8b/max_concurrency=64/request_rate=inf/bf16
expect_near "$(xv workload=$W metric=ttft)" 0.25 "bare Infinity request rate"
expect_near "$(xv workload=$W metric=ttft_p90)" 0.4 "p90"
expect_near "$(xv workload=$W metric=accept_length)" 2.75 "accept length"
expect_near "$(xv workload=llama3-8b/max_concurrency=128/request_rate=inf/bf16 metric=duration)" \
	30 "second CRLF line"
expect_refused "conflicting workload names" "two models in one file" \
	"$H/two_models.jsonl"
expect_in "two_models.jsonl:2" "$err" "conflict names the line"
expect_refused "bad_cut.jsonl:2:486: invalid JSON" "cut mid-line" "$H/bad_cut.jsonl"
expect_refused "bad_type.jsonl:1: 'completed' is not a number" "wrong type" \
	"$H/bad_type.jsonl"
expect_refused "bad_not_object.jsonl:2: expected a JSON object" \
	"a line that is not an object" "$H/bad_not_object.jsonl"
expect_refused "bad_empty.jsonl: empty file" "empty" --format sglang \
	"$H/bad_empty.jsonl"
finish
