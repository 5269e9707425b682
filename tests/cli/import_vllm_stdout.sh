#!/bin/bash
# vLLM console output: the "Serving Benchmark Result" block(s).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
H="$FIXTURES/hw/vllm"

run pc import -s h100 -k silicon -w llama3-8b/bf16 "$SAMPLES/vllm_bench_stdout.txt"
expect_rc 0 "sample log imports"
expect_in "(vllm-stdout): 16 results" "$err" "auto-detected"
run pc import -s h100 -w qwen/bf16 "$H/stdout_sweep_crlf.txt"
expect_rc 0 "two blocks, CRLF, E2EL, goodput"
run pc import -s json -k silicon -w llama3-8b/bf16 "$SAMPLES/vllm_bench_serve.json"
expect_rc 0 "the same run's JSON"
export_now
W=llama3-8b/max_concurrency=8/num_prompts=200/request_rate=inf/bf16
expect_near "$(xv source=h100 workload=$W metric=ttft)" 0.09684 "mean TTFT"
expect_near "$(xv source=h100 workload=$W metric=ttft_p99)" 0.20155 "P99 TTFT"
expect_near "$(xv source=h100 workload=$W metric=total_throughput)" 9031.25 \
	"'Total Token throughput' capitalised"
expect_eq "$(xv source=h100 workload=$W metric=peak_concurrent_requests)" 8 \
	"8.00 requests"
# the log and the JSON of one run land on the same workload key
expect_near "$(xv source=json workload=$W metric=ttft)" 0.0968412432040391 \
	"JSON on the same workload"
W1=qwen/max_concurrency=96/num_prompts=201/request_rate=10/bf16
W2=qwen/max_concurrency=96/num_prompts=201/request_rate=20/bf16
expect_near "$(xv workload=$W1 metric=ttft)" 0.04523 "block 1"
expect_near "$(xv workload=$W2 metric=ttft)" 0.0905 "block 2"
expect_near "$(xv workload=$W1 metric=e2el)" 3.2 "E2EL"
expect_near "$(xv workload=$W1 metric=itl_p99.9)" 0.0805 "P99.9"
expect_near "$(xv workload=$W1 metric=request_goodput)" 6.02 "goodput"
expect_near "$(xv workload=$W2 metric=duration)" 20.1 "duration"
expect_refused "bad_stdout_cut.txt:18: the result block that starts at line 1 has no closing" \
	"cut mid-block" "$H/bad_stdout_cut.txt"
expect_refused "bad_stdout_type.txt:16: 'Mean TTFT (ms)': '45,23 ms' is not a number" \
	"wrong type" "$H/bad_stdout_type.txt"
expect_refused "bad_stdout_empty_block.txt:1: the result block has no values" \
	"empty block" "$H/bad_stdout_empty_block.txt"
expect_refused "no 'Serving Benchmark Result' block" "no block" \
	--format vllm-stdout "$FIXTURES/hw/nsys/kern_sum_sec.csv"
# a known line in a unit vLLM does not write is refused, not dropped as a
# line of another version (QA finding: 'Mean TTFT (furlongs)' imported
# without its TTFT, exit 0); a line perfcorr does not know is still skipped
S=$SAMPLES/vllm_bench_stdout.txt
sed 's/^Mean TTFT (ms)/Mean TTFT (furlongs)/' "$S" > "$T/unit_ttft.txt"
sed 's/^Benchmark duration (s)/Benchmark duration (min)/' "$S" > "$T/unit_dur.txt"
sed 's/^P99 ITL (ms)/P99 ITL (us)/' "$S" > "$T/unit_itl.txt"
expect_refused "unit_ttft.txt:21: 'Mean TTFT (furlongs)': unknown unit 'furlongs' (vLLM writes 'Mean TTFT (ms)'; convert" \
	"unknown latency unit" --format vllm-stdout "$T/unit_ttft.txt"
expect_refused "unit_dur.txt:12: 'Benchmark duration (min)': unknown unit 'min' (vLLM writes 'Benchmark duration (s)'" \
	"a scalar in another unit" --format vllm-stdout "$T/unit_dur.txt"
expect_refused "unit_itl.txt:31: 'P99 ITL (us)': unknown unit 'us'" \
	"a percentile in another unit" --format vllm-stdout "$T/unit_itl.txt"
sed 's/^Mean TTFT (ms)/Mean TTFX (ms)/' "$S" > "$T/other_line.txt"
run pc import -s other -k silicon -w other/decode "$T/other_line.txt"
expect_rc 0 "a line of another version is still skipped"
finish
