#!/bin/bash
# The llm-d Benchmark Report v0.1, v0.2, v0.2.1 (issue 37 item 4): YAML as
# llm-d-benchmark writes it (yaml.dump, keys sorted) and JSON. Fixtures by
# fixtures/stacks/llm-d/make_fixtures.py from llm-d/llm-d-benchmark
# 8bc9f1dd's converters (native_to_br0_1.py, native_to_br0_2.py) applied
# to this repository's inference-perf and AIPerf fixtures. Reference: plain
# python3 over the JSON twin of the YAML report and over the native files
# the reports were made from (CI's python3 has no YAML module).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
D="$FIXTURES/stacks/llm-d"
V2="$D/v0.2/benchmark_report_v0.2,_stage_0_lifecycle_metrics.json"
IP="$FIXTURES/stacks/inference-perf/v2025-11/stage_0_lifecycle_metrics.json"
AP="$FIXTURES/stacks/aiperf/profile_export_aiperf.json"
M=meta-llama/Llama-3.1-8B-Instruct

run pc import -s y -k silicon "$V2.yaml"
expect_rc 0 "a v0.2 YAML report imports"
expect_in "(llmd-report): 90 results" "$err" "detected as an llm-d Benchmark Report"
run pc import -s j -k silicon "$V2.json"
expect_rc 0 "its JSON twin imports"
expect_in "(llmd-report): 90 results" "$err" "the JSON is detected too"
run pc import -s v21 -k silicon "$D/v0.2.1/benchmark_report_v0.2.1,_stage_0_lifecycle_metrics.json.yaml"
expect_rc 0 "0.2.1 imports"
run pc import -s v1 -k silicon "$D/v0.1/benchmark_report,_stage_0_lifecycle_metrics.json.yaml"
expect_rc 0 "v0.1 imports"
run pc import -s ap -k silicon "$D/v0.2/benchmark_report_v0.2,_profile_export_aiperf.json.yaml"
expect_rc 0 "an aiperf report imports"
expect_in "counts the kinds of errors (len(error_summary)), not failed requests: not stored" "$err" "aiperf's failures are no count of requests"
run pc import -s vl -k silicon "$D/v0.2/benchmark_report_v0.2,_vllm_bench_serve.json.yaml"
expect_rc 0 "a vllm-benchmark report imports"
expect_in "divides the completed requests' tokens by every prompt: not stored" "$err" "vllm-benchmark's input_length with failures is refused"
{ printf '\xef\xbb\xbf'; cat "$V2.yaml"; } >"$T/bom.yaml"
run pc import -s bom -k silicon "$T/bom.yaml"
expect_in "(llmd-report): 90 results" "$err" "a YAML report saved with a BOM"
run pc import -s ip -k silicon -w $M "$IP"
expect_rc 0 "the native inference-perf file the reports were made from"
export_now

j() { # file expression-over-d
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
W=$M/request_rate=1
A='d["results"]["request_performance"]["aggregate"]'
expect_eq "$(xv source=y workload=$W metric=ttft)" "$(j "$V2.json" "$A['latency']['time_to_first_token']['mean']")" "ttft mean (s), the model names the workload, rate_qps the rate"
expect_eq "$(xv source=y workload=$W metric=ttft_p0.1)" "$(j "$V2.json" "$A['latency']['time_to_first_token']['p0p1']")" "p0p1 -> ttft_p0.1"
expect_eq "$(xv source=y workload=$W metric=e2el_p99.9)" "$(j "$V2.json" "$A['latency']['request_latency']['p99p9']")" "p99p9 -> e2el_p99.9"
expect_eq "$(xv source=y workload=$W metric=tpot max)" "$(j "$V2.json" "$A['latency']['time_per_output_token']['max']")" "s/token is a time"
expect_eq "$(xv source=y workload=$W metric=request_throughput)" "$(j "$V2.json" "$A['throughput']['request_rate']['mean']")" "queries/s -> req/s"
expect_eq "$(xv source=y workload=$W metric=completed)" 19 "completed = total - failures"
expect_eq "$(xv source=y workload=$W metric=failed)" 1 "failures"
expect_eq "$(xv source=y workload=$W metric=ttft platform)" NVIDIA-H100-80GB-HBM3 "the engine's accelerator is the platform"
for m in ttft itl tpot ntpot e2el e2el_p50 itl_p99 input_sequence_length request_throughput completed; do
	expect_eq "$(xv source=y workload=$W metric=$m)" "$(xv source=j workload=$W metric=$m)" "$m: YAML = JSON"
	expect_eq "$(xv source=y workload=$W metric=$m)" "$(xv source=v21 workload=$W metric=$m)" "$m: 0.2.1 = 0.2"
	expect_eq "$(xv source=y workload=$W metric=$m)" "$(xv source=ip workload=$W metric=$m)" "$m: the report pairs with inference-perf's own file"
done
expect_eq "$(xv source=v1 workload=$M metric=ttft)" "$(j "$IP" 'd["successes"]["latency"]["time_to_first_token"]["mean"]')" "v0.1 ttft"
expect_eq "$(xv source=v1 workload=$M metric=send_duration)" "$(j "$IP" 'd["load_summary"]["send_duration"]')" "v0.1 inference-perf: time.duration is the send duration"
expect_eq "$(xv source=v1 workload=$M metric=duration)" NONE "... not stored as the run's duration"
expect_eq "$(xv source=v1 workload=$M metric=total_throughput)" "$(j "$IP" 'd["successes"]["throughput"]["total_tokens_per_sec"]')" "v0.1 throughput numbers"
expect_eq "$(xv source=ap workload=$M/max_concurrency=16 metric=ttft)" "$(j "$AP" 'd["time_to_first_token"]["avg"] * 0.001')" "aiperf: ms converted by the harness"
expect_eq "$(xv source=ap workload=$M/max_concurrency=16 metric=completed)" 500 "aiperf: total is the completed requests"
expect_eq "$(xv source=ap workload=$M/max_concurrency=16 metric=failed)" NONE "aiperf: no failed count stored"
WV=$M/num_prompts=200/request_rate=4
expect_eq "$(xv source=vl workload=$WV metric=ttft)" 0.0612 "vllm-benchmark: ms -> s; num_prompts and request_rate as vllm bench serve's key"
expect_eq "$(xv source=vl workload=$WV metric=input_sequence_length)" NONE "the mean over every prompt is not stored"
expect_eq "$(xv source=vl workload=$WV metric=output_sequence_length)" 128 "output_length (over completed) kept"

fp() { # source key
	pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = '$1'" |
		python3 -c "import json,sys; print(json.load(sys.stdin).get('fp.$2', '-'))"
}
expect_eq "$(fp y tp) $(fp y pp) $(fp y dp)" "2 1 1" "parallelism from the inference engine"
expect_eq "$(fp y request_rate)" 1 "fp.request_rate from rate_qps"
expect_eq "$(fp y tool) $(fp y tool_version)" "inference-perf v0.3.0" "the load generator"
expect_near "$(fp y input_len)" "$(j "$V2.json" "$A['requests']['input_length']['mean']")" 1e-9 "fp.input_len"
expect_near "$(fp y achieved_request_rate)" "$(j "$V2.json" "$A['throughput']['request_rate']['mean']")" 1e-9 "fp.achieved_request_rate"
expect_eq "$(fp ap concurrency)" 16 "aiperf's concurrency"
expect_eq "$(fp vl input_len)" - "vllm-benchmark with failures: no input length stated"
expect_eq "$(fp v1 tp)" 2 "v0.1: host.accelerator parallelism"

expect_refused "bad_llmd_cut.yaml:1: 'version': missing (a cut file?" "a cut YAML report" "$D/bad_llmd_cut.yaml"
expect_refused "bad_llmd_truncated.json:29:25: invalid JSON" "a cut JSON report" "$D/bad_llmd_truncated.json"
expect_refused "bad_llmd_version.yaml:227: 'version': not a version this reader knows" "version 0.3" "$D/bad_llmd_version.yaml"
expect_refused "bad_llmd_no_total.yaml:85: 'results.request_performance.aggregate.requests.total': missing" "no requests.total" "$D/bad_llmd_no_total.yaml"
expect_refused "bad_llmd_unit.yaml:69: 'latency.time_to_first_token': unit 'fortnights'" "an unknown unit" "$D/bad_llmd_unit.yaml"
expect_refused "bad_llmd_anchor.yaml:206: YAML: an anchor, alias or tag: not read" "YAML beyond the reader" "$D/bad_llmd_anchor.yaml"
finish
