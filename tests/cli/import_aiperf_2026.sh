#!/bin/bash
# NVIDIA AIPerf's 2026 exports (issue 37 item 4): profile_export_aiperf.json
# schema 1.5 (count/sum per metric, run_info, warmup_metrics, telemetry_data,
# the 2026 input_config: models.items, phases) read by aiperf-json, and the
# server metrics export (server_metrics_export.json, schema 1.0: gauges,
# counters, histograms per series, scraped every ~333 ms) read by
# aiperf-server-metrics. Shapes from AIPerf's writers (fixtures/stacks/
# aiperf/make_2026.py names the files and commits). Reference: plain
# python3 over the fixtures.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
A="$FIXTURES/stacks/aiperf"
P="$A/v2026/profile_export_aiperf.json"
S="$A/v2026/server_metrics_export.json"
W=meta-llama/Llama-3.1-8B-Instruct/concurrency=16

run pc import -s ai -k silicon "$P"
expect_rc 0 "schema 1.5 imports"
expect_in "(aiperf-json): 57 results" "$err" "detected as AIPerf's JSON export"
expect_in "telemetry_data skipped: it states no sampling period" "$err" "GPU telemetry skipped, said"
run pc import -s srv -k silicon "$S"
expect_rc 0 "the server metrics export imports"
expect_in "(aiperf-server-metrics): 72 results" "$err" "detected as the server metrics export"
export_now

j() { # file expression-over-d
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
expect_eq "$(xv source=ai workload=$W metric=ttft)" "$(j "$P" 'd["time_to_first_token"]["avg"] / 1000')" \
	"the 2026 config names the workload (models.items) and its concurrency (phases.profiling); ms -> s"
expect_eq "$(xv source=ai workload=$W metric=ttft n)" "$(j "$P" 'd["time_to_first_token"]["count"]')" "schema 1.1 count -> n"
expect_eq "$(xv source=ai workload=$W metric=e2el_p99)" "$(j "$P" 'd["request_latency"]["p99"] / 1000')" "p99"
expect_eq "$(xv source=ai workload=$W metric=completed)" 500 "request_count, not the warmup's"
expect_eq "$(xv source=ai workload=$W metric=failed)" 2 "error_request_count"
fp() { # source key
	pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = '$1'" |
		python3 -c "import json,sys; print(json.load(sys.stdin).get('$2', '-'))"
}
expect_near "$(fp ai fp.input_len_sd)" "$(j "$P" 'd["input_sequence_length"]["std"]')" 1e-9 "fp.input_len_sd from the ISL std"
expect_eq "$(fp ai fp.input_tokens)" "$(j "$P" 'int(d["total_isl"]["avg"])')" "fp.input_tokens from total_isl"
expect_eq "$(fp ai fp.concurrency) $(fp ai fp.warmup_excluded) $(fp ai fp.tool_version)" \
	"16 true 0.10.0" "concurrency, warmup excluded, aiperf_version"
M='d["metrics"]'
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_num_requests_running)" \
	"$(j "$S" "$M['vllm:num_requests_running']['series'][0]['stats']['avg']")" "a gauge: the run's mean, on the run's workload"
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_num_requests_running_p99)" \
	"$(j "$S" "'%g' % $M['vllm:num_requests_running']['series'][0]['stats']['p99']")" "gauge p99"
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_kv_cache_usage_perc)" \
	"$(j "$S" "$M['vllm:kv_cache_usage_perc']['series'][0]['stats']['avg']")" "'percent' inferred from _perc kept as written (a 0..1 fraction)"
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_time_to_first_token_seconds)" \
	"$(j "$S" "$M['vllm:time_to_first_token_seconds']['series'][0]['stats']['avg']")" "a histogram: sum/count in s"
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_time_to_first_token_seconds n)" 500 "n = count"
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_e2e_request_latency_seconds_p90)" \
	"$(j "$S" "$M['vllm:e2e_request_latency_seconds']['series'][0]['stats']['p90_estimate']")" "p90_estimate -> _p90"
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_generation_tokens_total)" 128000 "a counter: its increase"
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_generation_tokens_total_rate unit)" tokens/s "its rate in tokens/s"
expect_eq "$(xv source=srv workload=$W 'op=server{finished_reason=length}' metric=vllm_request_success_total)" 498 \
	"series told apart by the label that differs"
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_request_queue_time_seconds)" NONE "a histogram without observations has no mean"
expect_eq "$(xv source=srv workload=$W op=server metric=vllm_request_queue_time_seconds_count)" 0 "... its count is 0"
expect_eq "$(xv source=srv workload=$W op=server metric=process_resident_memory_bytes unit)" B "bytes"
expect_near "$(fp srv server_metrics_interval_ms.localhost:8000)" \
	"$(j "$S" 'd["summary"]["endpoint_info"]["http://localhost:8000/metrics"]["median_update_interval_ms"]')" 1e-5 \
	"the scrape interval (the gauges' resolution) recorded"
expect_eq "$(xv source=ai workload=$W op=e2e metric=ttft n)" 500 "client (e2e) and server views side by side on one workload"

expect_refused "bad_aiperf_schema.json:2: 'schema_version': '2.0': this reader knows AIPerf's JSON export schema 1.x" \
	"a new major schema" "$A/bad_aiperf_schema.json"
expect_refused "bad_server_metrics_schema.json:2: 'schema_version': '2.0'" "server metrics schema 2.0" "$A/bad_server_metrics_schema.json"
expect_refused "bad_server_metrics_truncated.json:78:2: invalid JSON" "a cut export" "$A/bad_server_metrics_truncated.json"
expect_refused "bad_server_metrics_nostats.json:196: 'vllm:num_requests_waiting': a series without its 'stats'" \
	"a series without stats" "$A/bad_server_metrics_nostats.json"
expect_refused "no 'schema_version': an export before AIPerf's schema 1.0" "the pre-1.0 layout" \
	"$A/bad_server_metrics_legacy.json" --format aiperf-server-metrics
finish
