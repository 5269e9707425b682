#!/bin/bash
# Every hardware fixture is auto-detected as its format, by exactly one
# importer (no ties), and imports.
. "$(dirname "$0")/../cli/lib.sh"
H="$FIXTURES/hw"

expect_format() { # format file [extra import args]
	local fmt=$1 f=$2
	shift 2
	run pc import -s "det$((PASSES + FAILS))" -k silicon -w det/decode "$@" "$f"
	expect_rc 0 "$(basename "$f") imports"
	expect_in "($fmt)" "$err" "$(basename "$f") is $fmt"
}

for f in "$SAMPLES"/nsys_*.csv "$H"/nsys/kern_sum_*.csv "$H/nsys/stats_two_reports.csv"; do
	expect_format nsys-kern-sum "$f"
done
for f in "$H"/nsys/gpu_trace_2024.csv "$H"/nsys/gputrace_2021_us_crlf.csv; do
	expect_format nsys-gpu-trace "$f"
done
for f in "$H"/nvprof/gpu_trace_*.csv; do expect_format nvprof-gpu-trace "$f"; done
for f in "$SAMPLES/ncu_details.csv" "$H"/ncu/details_*.csv \
	"$H/ncu/summary_per_kernel.csv"; do
	expect_format ncu-details "$f"
done
for f in "$SAMPLES/ncu_raw.csv" "$H"/ncu/raw_*.csv; do expect_format ncu-raw "$f"; done
for f in "$SAMPLES"/vllm_*.json "$H"/vllm/append_result.jsonl \
	"$H"/vllm/fork_latency_only.json "$H"/vllm/all_failed_nan.json \
	"$H"/power/bench_for_energy.json; do
	expect_format vllm "$f"
done
for f in "$SAMPLES/vllm_bench_stdout.txt" "$H"/vllm/stdout_*.txt; do
	expect_format vllm-stdout "$f"
done
for f in "$SAMPLES/sglang_bench_serving.jsonl" "$H"/sglang/old_*.jsonl; do
	expect_format sglang "$f"
done
# short logs keep their energy (cli/import_power checks the refusal)
for f in "$SAMPLES/nvidia_smi_power.csv" "$H"/power/smi_*.csv; do
	case $f in *noheader*) continue ;; esac
	expect_format nvidia-smi "$f" --opt short_window=keep
done
expect_format nvidia-smi "$H/power/smi_noheader_query.csv" \
	--opt query=timestamp,index,power.draw --opt short_window=keep
for f in "$SAMPLES/dcgmi_dmon.txt" "$H"/power/dmon_*.txt; do
	expect_format dcgm-dmon "$f" --opt interval_ms=100 --opt short_window=keep
done
for f in "$SAMPLES/mlperf_log_summary.txt" "$H"/mlperf/summary_*.txt; do
	expect_format mlperf-summary "$f"
done
for f in "$SAMPLES/mlperf_log_detail.txt" "$H"/mlperf/detail_*.txt; do
	expect_format mlperf-detail "$f"
done
finish
