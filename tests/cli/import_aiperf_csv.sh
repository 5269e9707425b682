#!/bin/bash
# NVIDIA AIPerf profile_export_aiperf.csv (issue 37 item 4). Shape from
# AIPerf's MetricsCsvExporter (src/aiperf/exporters/metrics_csv_exporter.py,
# STAT_KEYS in common/constants.py; piotrm-nvidia/aiperf 8f9ca657,
# 2026-01-31, the same layout as ai-dynamo/aiperf db4f6397's
# csv_exporter.py plus the GPU telemetry table). Values by hand.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
A="$FIXTURES/stacks/aiperf"

run pc import -s ai -k silicon -w llama3-8b/mixed "$A/profile_export_aiperf.csv"
expect_rc 0 "AIPerf CSV imports"
expect_in "(aiperf-csv): 76 results" "$err" "detected as AIPerf's CSV, not genai-perf's"
expect_in "1 GPU telemetry rows skipped" "$err" "the GPU table is skipped, said"
expect_in "'Prefill Throughput (tokens/sec)' skipped" "$err" "unknown metric said"
export_now
W=llama3-8b/mixed
expect_eq "$(xv source=ai workload=$W metric=ttft)" 0.06152 "ms -> s"
expect_eq "$(xv source=ai workload=$W metric=ttft stddev)" 0.02417 "std kept"
expect_eq "$(xv source=ai workload=$W metric=ttft_p99)" 0.1412 "p99"
expect_eq "$(xv source=ai workload=$W metric=e2el_p1)" 1.9872 "p1 (AIPerf's order)"
expect_eq "$(xv source=ai workload=$W metric=e2el min)" 1.95012 "min"
expect_eq "$(xv source=ai workload=$W metric=ttst)" 0.00902 "time to second token"
expect_eq "$(xv source=ai workload=$W metric=duration)" 67.46 "sec"
expect_eq "$(xv source=ai workload=$W metric=request_throughput)" 7.41 "requests/sec"
expect_eq "$(xv source=ai workload=$W metric=output_throughput_per_user)" 121.8 \
	"tokens/sec/user"
expect_eq "$(xv source=ai workload=$W metric=completed)" 500 "Request Count (no unit)"
expect_eq "$(xv source=ai workload=$W metric=failed)" 3 "Error Request Count"
expect_eq "$(xv source=ai workload=$W metric=output_tokens)" 125700 "Total Output Tokens"
expect_eq "$(xv source=ai metric=power)" NONE "no power from the GPU table"
expect_eq "$(pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = 'ai'" | python3 -c "import json,sys; d=json.load(sys.stdin); print(sorted((k, v) for k, v in d.items() if k.startswith('fp.')))")" \
	"[('fp.achieved_request_rate', '7.41'), ('fp.input_len', '550'), ('fp.input_len_sd', '0'), ('fp.output_len', '251.4'), ('fp.output_len_sd', '14.2'), ('fp.output_tokens', '125700'), ('fp.tool', 'aiperf')]" \
	"fingerprint: sequence lengths avg/std, totals, achieved rate"

expect_refused "bad_aiperf_truncated.csv:4: the last row has no line end (a cut file?" \
	"truncated CSV" --format aiperf-csv "$A/bad_aiperf_truncated.csv"
expect_refused "bad_aiperf_header.csv:1: header: expected 'Metric,avg,min,max,p1" \
	"genai-perf's or an unknown column layout" --format aiperf-csv "$A/bad_aiperf_header.csv"
expect_refused "bad_aiperf_number.csv:7: 'Time to First Token (ms)' column 'avg': '6l.52' is not a number" \
	"a bad number names line and column" "$A/bad_aiperf_number.csv"
run pc import -s nowl -k silicon "$A/profile_export_aiperf.csv"
expect_rc 1 "the CSV names no model"
expect_in "no workload" "$err" "refused, asks for --workload"
finish
