#!/bin/bash
# NVIDIA AIPerf profile_export_aiperf.json (issue 37 item 4, first
# format): genai-perf's JSON layout (AIPerf's JsonExportData mimics it)
# with AIPerf's input_config (endpoint.model_names, input.prompt,
# loadgen) and its extra metrics. Layout from AIPerf's own writer
# (aiperf/exporters/json_exporter.py, common/models/export_models.py at
# ai-dynamo/aiperf db4f6397, 2025-10); values by hand conversion.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
A="$FIXTURES/stacks/aiperf"

run pc import -s ai -k silicon "$A/profile_export_aiperf.json"
expect_rc 0 "AIPerf summary imports"
expect_in "(aiperf-json): 32 results" "$err" "detected as AIPerf, not genai-perf"
export_now
W=meta-llama/Llama-3.1-8B-Instruct/concurrency=16/input_len=550/output_len=256
expect_eq "$(xv source=ai workload=$W metric=ttft)" 0.06152 \
	"identity from endpoint.model_names, loadgen, input.prompt; ms -> s"
expect_eq "$(xv source=ai workload=$W metric=ttft stddev)" 0.02417 "std kept"
expect_eq "$(xv source=ai workload=$W metric=ttft_p99)" 0.1412 "percentiles"
expect_eq "$(xv source=ai workload=$W metric=e2el_p1)" 1.9872 "p1 too"
expect_eq "$(xv source=ai workload=$W metric=itl)" 0.008208 "inter-token latency"
expect_eq "$(xv source=ai workload=$W metric=duration)" 67.458 \
	"benchmark_duration in sec"
expect_eq "$(xv source=ai workload=$W metric=output_tokens)" 128000 \
	"total_output_tokens"
expect_eq "$(xv source=ai workload=$W metric=output_throughput_per_user)" \
	121.8 "tokens/sec/user"
expect_eq "$(xv source=ai workload=$W metric=request_throughput)" 7.412 \
	"requests/sec"
expect_eq "$(xv source=ai workload=$W metric=completed)" 500 "request_count"

expect_refused "bad_aiperf_truncated.json:35:3: invalid JSON" "truncated AIPerf JSON" \
	"$A/bad_aiperf_truncated.json"
expect_refused "'benchmark_duration': unknown unit 'fortnights'" \
	"unknown unit" "$A/bad_aiperf_unit.json"
finish
