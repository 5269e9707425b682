#!/bin/bash
# vLLM serving benchmark JSON: legacy and new CLI, --append-result lines,
# Python NaN, workload identity from the file, malformed files refused.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
H="$FIXTURES/hw/vllm"

run pc import -s h100 -k silicon "$SAMPLES/vllm_benchmark_serving.json"
expect_rc 0 "legacy JSON imports"
expect_in "(vllm): 15 results" "$err" "auto-detected"
run pc import -s h100 -w llama3-8b/bf16 "$SAMPLES/vllm_bench_serve.json"
expect_rc 0 "vllm bench serve JSON imports"
run pc import -s h100 "$H/append_result.jsonl"
expect_rc 0 "--append-result lines import"
run pc import -s h100 -w fork/bf16 "$H/fork_latency_only.json"
expect_rc 0 "latency-only, pretty-printed, CRLF, BOM imports"
run pc import -s h100 -w nan/bf16 "$H/all_failed_nan.json"
expect_rc 0 "NaN statistics are missing values"
export_now

# legacy: model_id names the workload; num_prompts etc. are parameters
W=meta-llama/Meta-Llama-3-8B-Instruct/max_concurrency=32/num_prompts=1000/request_rate=inf
expect_near "$(xv workload=$W metric=ttft)" 0.183412255018339 "mean TTFT in s"
expect_near "$(xv workload=$W metric=ttft stddev)" 0.0964401103879405 "std TTFT"
expect_near "$(xv workload=$W metric=ttft_p99)" 0.512772119760748 "p99 TTFT"
expect_near "$(xv workload=$W metric=e2el)" 4.57139403170682 "E2EL"
expect_near "$(xv workload=$W metric=duration)" 143.0117368250002 "duration"
expect_near "$(xv workload=$W metric=output_throughput)" 1790.0628695479772 \
	"output throughput"
expect_near "$(xv workload=$W metric=total_throughput)" 16110.565825931795 \
	"total_token_throughput -> total_throughput"
expect_eq "$(xv workload=$W metric=request_goodput)" NONE "null goodput skipped"
expect_eq "$(xv workload=$W metric=output_tokens)" 256000 "output tokens"
sel() { pcsql "SELECT $1 FROM results r JOIN metrics m ON \
m.id = r.metric_id JOIN workloads w ON w.id = r.workload_id WHERE \
m.name = '$2' AND w.key = '$3'"; }
expect_near "$(sel median ttft $W)" 0.151902465425195 "median TTFT"

# new CLI with --workload: the file's model is kept as metadata
W=llama3-8b/max_concurrency=8/num_prompts=200/request_rate=inf/bf16
expect_near "$(xv workload=$W metric=itl)" 0.00759210606272551 "ITL"
expect_eq "$(xv workload=$W metric=failed)" 0 "failed count"
expect_eq "$(xv workload=$W metric=peak_output_throughput)" 1096 "peak tok/s"
expect_in '"model":"meta-llama/Meta-Llama-3-8B-Instruct"' \
	"$(pcsql "SELECT metadata FROM runs WHERE \
file_name = 'vllm_bench_serve.json'")" "model kept as run metadata"

# --append-result: one workload per line, --metadata keys as parameters
W1=Qwen/Qwen2.5-7B-Instruct/deployment=tp1/gpu=1xH100/num_prompts=500/request_rate=4
W2=Qwen/Qwen2.5-7B-Instruct/deployment=tp1/gpu=1xH100/num_prompts=500/request_rate=8
expect_near "$(xv workload=$W1 metric=ttft)" 0.040 "line 1 TTFT"
expect_near "$(xv workload=$W2 metric=ttft)" 0.080 "line 2 TTFT"
expect_near "$(xv workload=$W1 metric=ttft_p99.9)" 0.07525 "p99.9"
expect_near "$(xv workload=$W1 metric=ttft_p90)" 0.0475 "p90"
expect_near "$(xv workload=$W1 metric=request_goodput)" 3.5 \
	"'request_goodput:' with the colon"
expect_near "$(xv workload=$W2 metric=duration)" 70 "line 2 duration"
expect_near "$(xv workload=fork/max_concurrency=16/num_prompts=100/request_rate=inf/bf16 metric=tpot)" \
	0.014 "fork without duration/throughput"
expect_eq "$(xv workload=nan/max_concurrency=1/num_prompts=10/request_rate=inf/bf16 metric=ttft)" \
	NONE "NaN TTFT is not stored"
expect_eq "$(xv workload=nan/max_concurrency=1/num_prompts=10/request_rate=inf/bf16 metric=failed)" \
	10 "all failed"

# identity conflicts between the command line and the file are errors
expect_refused "conflicting values for workload parameter 'max_concurrency'" \
	"--param conflicts with the file" --param max_concurrency=16 \
	"$SAMPLES/vllm_bench_serve.json"
expect_in "vllm_bench_serve.json:1" "$err" "conflict names file:line"

# malformed
expect_refused "bad_cut.json:1:690: invalid JSON" "cut mid-document" \
	--format vllm "$H/bad_cut.json"
expect_refused "bad_type.json:1: 'duration' is not a number" "wrong type" \
	"$H/bad_type.json"
expect_refused "bad_empty.json: empty file" "empty" "$H/bad_empty.json"
expect_refused "bad_no_results.json:1: no benchmark results" \
	"no result keys" "$H/bad_no_results.json"
expect_refused "bad_line2.jsonl:2:" "second line cut" "$H/bad_line2.jsonl"
expect_refused "bad_array.json:1: expected a JSON object" "top-level array" \
	--format vllm "$H/bad_array.json"
finish
