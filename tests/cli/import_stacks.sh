#!/bin/bash
# The serving and profiling stacks: trtllm-bench (console report, JSON),
# gptManagerBenchmark CSV, perf_analyzer, genai-perf (CSV, JSON, analyze),
# llmperf, optimum-benchmark, PyTorch profiler (trace, key_averages).
# Every version variant of FORMATS.md imports; spot values against hand
# conversions; bad inputs are refused with file:line, database unchanged.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
S="$FIXTURES/stacks"
L="$S/licensed"

imp() { # format-expected file [import args]
	local fmt=$1 f=$2
	shift 2
	run pc import -s "s$((PASSES + FAILS))" -k silicon "$@" "$f"
	expect_rc 0 "$(basename "$f") imports"
	expect_in "($fmt)" "$err" "$(basename "$f") is $fmt"
}

# --- trtllm-bench console report: 0.16 engine flow (TABs, titles with a
# trailing space, inside a full log), 1.1 PyTorch flow, streaming blocks
imp trtllm-bench "$S/trtllm_bench_0.16_throughput.log"
imp trtllm-bench "$S/trtllm_bench_1.1_pytorch.md"
imp trtllm-bench "$S/trtllm_bench_1.1_streaming.log"
imp trtllm-bench-json "$S/trtllm_bench_1.2_report.json"
imp trtllm-legacy-csv "$S/gptManagerBenchmark_0.15.csv" -w llama/bs=8
imp trtllm-legacy-csv "$S/gptManagerBenchmark_0.17_acceptance.csv" -w llama/bs=16
expect_in "columns not from gptManagerBenchmark skipped: util_min" "$err" \
	"the script's extra columns are named"
export_now
W=meta-llama/Llama-3.1-8B/input_len=128/output_len=2048/pp=1/tp=1
# Total Latency 350655.0213 ms = 350.6550213 s
expect_near "$(xv workload=$W metric=duration)" 350.6550213 "0.16 duration"
expect_near "$(xv workload=$W metric=output_throughput)" 17521.4962 \
	"0.16 Token Throughput is the output throughput"
expect_eq "$(xv workload=$W metric=completed)" 3000 "0.16 requests"
expect_eq "$(xv workload=$W metric=duration version)" 0.16.0 "TensorRT-LLM Version"
expect_eq "$(xv workload=$W metric=issue_rate)" NONE "Issue Rate not stored"
W=Qwen/Qwen3-8B/input_len=1024/output_len=256/pp=1/tp=1
# [Latency] AVERAGE 1683.9000 ms = 1.6839 s, P99 1725.5 ms
expect_near "$(xv workload=$W file=trtllm_bench_1.1_pytorch.md metric=e2el)" 1.6839 "1.1 e2el mean"
expect_near "$(xv workload=$W file=trtllm_bench_1.1_pytorch.md metric=e2el_p99)" 1.7255 "1.1 e2el p99"
# streaming: [TTFT] AVERAGE 45.25 ms, P90 80 ms; [TPOT] AVERAGE 6.424 ms
expect_near "$(xv workload=$W file=trtllm_bench_1.1_streaming.log metric=ttft)" 0.04525 "TTFT"
expect_near "$(xv workload=$W file=trtllm_bench_1.1_streaming.log metric=ttft_p90)" 0.080 "TTFT p90"
expect_near "$(xv workload=$W file=trtllm_bench_1.1_streaming.log metric=tpot)" 0.006424 "TPOT"
expect_eq "$(xv workload=$W file=trtllm_bench_1.1_pytorch.md metric=ttft)" NONE \
	"no TTFT without streaming"
sel() { # metric workload file column [op]
	pcsql "SELECT $4 FROM results r JOIN metrics m ON \
m.id = r.metric_id JOIN workloads w ON w.id = r.workload_id JOIN runs u ON \
u.id = r.run_id JOIN ops o ON o.id = r.op_id WHERE m.name = '$1' AND \
w.key = '$2' AND u.file_name = '$3' AND o.name = '${5:-e2e}'"
}
# MINIMUM 20.5 ms, MAXIMUM 120 ms, P50 40 ms on the TTFT record
expect_near "$(sel ttft "$W" trtllm_bench_1.1_streaming.log min)" 0.0205 "TTFT min"
expect_near "$(sel ttft "$W" trtllm_bench_1.1_streaming.log max)" 0.120 "TTFT max"
expect_near "$(sel ttft "$W" trtllm_bench_1.1_streaming.log median)" 0.040 "TTFT median = P50"
# JSON: engine.model, tp 2, dataset avg_isl/avg_osl (ints) over the
# measured request_info averages (127.84)
W=meta-llama/Llama-3.1-8B-Instruct/input_len=128/output_len=512/pp=1/tp=2
expect_near "$(xv workload=$W metric=ttft)" 0.01425 "JSON avg_ttft_ms"
expect_near "$(xv workload=$W metric=tpot_p99)" 0.0051 "JSON tpot p99"
expect_near "$(xv workload=$W metric=duration)" 251.2345 "JSON total_latency_ms"
expect_near "$(sel e2el "$W" trtllm_bench_1.2_report.json min)" 2.490125 "JSON latency minimum"
# legacy CSV: read by name, so the 0.17 acceptance column shifts nothing
expect_near "$(xv workload=llama/bs=16 metric=ttft)" 15.3421 "0.17 TTFT by name"
expect_near "$(xv workload=llama/bs=8 metric=ttft)" 15.3421 "0.15 TTFT"
expect_near "$(xv workload=llama/bs=16 metric=accept_length)" 1.0 "acceptance"
expect_near "$(xv workload=llama/bs=8 metric=itl_p99)" 0.0402 "ITL p99 40.2 ms"
expect_near "$(xv workload=llama/bs=8 metric=request_throughput)" 0.927164 "seq/sec"

# the same metric names as the serving benchmarks: a trtllm-bench report
# pairs with an llmperf summary of the same workload. TTFT 14.25 ms vs
# 15.675 ms: 14.25 / 15.675 - 1 = -0.0909091; e2el 2.512345 s both: 0
rm -f "$PERFCORR_DB"
pc import -q -s trt -k silicon -P concurrency=1 "$S/trtllm_bench_1.2_report.json"
pc import -q -s lp -k silicon -P pp=1 -P tp=2 "$S/llmperf_pairs_with_trtllm_summary.json"
run pc compare --model trt --ref lp --format json --points
expect_rc 0 "trtllm-bench vs llmperf pairs"
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys
d = json.load(sys.stdin)
print(sorted((p["metric"], round(p["err"], 7) + 0.0) for p in d["points"]))')" \
	"[('completed', 0.0), ('e2el', 0.0), ('output_throughput', 0.0), ('ttft', -0.0909091), ('ttft_p99', 0.0)]" \
	"ttft, e2el, throughput pair by name"

# --- perf_analyzer: three header generations, us, a workload per row
rm -f "$PERFCORR_DB"
for f in "$L"/triton-server-*.csv; do imp perf-analyzer-csv "$f" -w bert/bs=1; done
export_now
W=bert/bs=1/concurrency=4
F=triton-server-gke__perf_bert_base_gpu_trt.csv
# 140 + 1719 + 2136 + 1499 + 12165 + 54 + 1 = 17714 us (the components sum)
expect_near "$(xv workload=$W file=$F metric=latency)" 0.017714 "avg latency = sum"
expect_eq "$(sel latency $W $F flags)" 4 "flagged derived"
expect_near "$(xv workload=$W file=$F metric=latency_p99)" 0.032029 "p99 32029 us"
expect_near "$(xv workload=$W file=$F op=server_compute_infer metric=time)" 0.012165 "infer 12165 us"
expect_near "$(xv workload=$W file=$F metric=sample_throughput)" 448.667 "inferences/s"
# unsorted rows (ordered by throughput) are each their own workload
expect_near "$(xv workload=bert/bs=1/concurrency=24 file=triton-server-gke__perf_bert_base_tf_cpu.csv metric=latency_p50)" \
	4.255281 "tf_cpu concurrency 24"
# newer perf_analyzer: Request Rate instead of Concurrency, Avg latency
# written (stored as is, not the sum: 25 + 310 + 40 + 30 + 2500 + 20 + 5 +
# 2900 + 1200 = 7030 would count request/response twice)
imp perf-analyzer-csv "$S/perf_analyzer_request_rate_avg_latency.csv" -w bert/bs=1
export_now
expect_near "$(xv workload=bert/bs=1/request_rate=20 metric=latency)" 0.00293 "Avg latency 2930 us"
expect_eq "$(sel latency bert/bs=1/request_rate=20 perf_analyzer_request_rate_avg_latency.csv flags)" 0 "measured, not derived"
expect_near "$(xv workload=bert/bs=1/request_rate=10 op=response_wait metric=time)" 0.00115 "response wait"
# 19.04: no percentiles, Server Compute not split
F=triton-server-qa-legacy-19.04-16mb_latency_http__graphdef_sbatch1_instance1.csv
expect_near "$(xv workload=bert/bs=1/concurrency=2 file=$F op=server_compute metric=time)" 0.017649 "19.04 compute"
expect_eq "$(xv workload=bert/bs=1/concurrency=2 file=$F metric=latency_p99)" NONE "19.04 has no p99"

# --- genai-perf: CSV ns (0.0.2dev) and ms with thousands separators, JSON
# flat and nested with telemetry, the analyze sweep
rm -f "$PERFCORR_DB"
imp genai-perf-csv "$L/triton-client-genai-perf-0.0.2dev__profile_export_genai_perf.csv" -w gpt2
imp genai-perf-csv "$S"/genai-perf/*concurrency8/profile_export_genai_perf.csv -w llama
imp genai-perf-csv "$S/genai-perf/profile_export_genai_perf_0.0.13.csv" -w qwen
imp genai-perf-json "$S/genai-perf/profile_export_genai_perf_0.0.8_flat.json"
imp genai-perf-json "$S/genai-perf/profile_export_genai_perf_0.0.13_nested.json"
imp genai-perf-analyze "$L/triton-perf_analyzer-0.0.9dev__analyze_export_genai_perf.csv" -w gpt2
expect_in "GPU Energy Consumption (MJ)' skipped" "$err" "energy percentiles refused by name"
export_now
# 5964158 ns = 0.005964158 s
expect_near "$(xv workload=gpt2 metric=ttft)" 0.005964158 "ns TTFT"
expect_near "$(xv workload=gpt2 metric=request_throughput)" 10.95 "req/s"
# "1,019.69" ms max TTFT, "2,150.75" ms mean latency; concurrency8 from the directory
W=llama/concurrency=8
expect_near "$(xv workload=$W metric=e2el)" 2.15075 "thousands separator"
expect_near "$(xv workload=$W metric=output_throughput)" 1904.32 "\"1,904.32\" tokens/s"
expect_near "$(sel ttft "$W" profile_export_genai_perf.csv max)" 1.01969 "max \"1,019.69\" ms"
# 0.0.13 CSV: units in the value table, per-user throughput, goodput, count
expect_near "$(xv workload=qwen metric=output_throughput)" 1180.44 "(tokens/sec)"
expect_near "$(xv workload=qwen metric=request_goodput)" 3.80 "goodput"
expect_eq "$(xv workload=qwen metric=completed)" 100 "Request Count"
expect_near "$(xv workload=qwen metric=ttft)" 1.50025 "\"1,500.25\" ms"
expect_near "$(xv workload=qwen metric=output_throughput_per_user)" 74.07 "tokens/sec/user"
W=meta-llama/Llama-3.1-8B-Instruct/concurrency=8/input_len=512/output_len=256
expect_near "$(xv workload=$W metric=itl)" 0.0040625 "flat JSON ITL"
expect_near "$(sel e2el "$W" profile_export_genai_perf_0.0.8_flat.json stddev)" 0.09525 "std 95.25 ms"
W=Qwen/Qwen2.5-7B-Instruct/concurrency=8/input_len=2048/output_len=256
expect_near "$(xv workload=$W metric=ttst)" 0.0095 "time to second token"
expect_near "$(xv workload=$W metric=output_throughput_per_user)" 104 "tokens/sec/user"
# energy = counter span, never the counter: (1523.43 - 1523.4) MJ = 30000 J
# on GPU 0, (1611.229 - 1611.2) MJ = 29000 J on GPU 1, 59000 J together
expect_near "$(xv workload=$W op=gpu0 metric=energy)" 30000 1e-6 "GPU 0 energy"
expect_near "$(xv workload=$W op=e2e metric=energy)" 59000 1e-6 "node energy"
expect_near "$(xv workload=$W op=e2e metric=power)" 810.75 "412.5 + 398.25 W"
expect_near "$(xv workload=$W op=e2e metric=utilization)" 0.90 "(91 + 89) / 2 %"
# the same telemetry laid out per statistic ({"avg": {"gpu0": ...}}), as
# genai-perf's telemetry export writes it: the same numbers
run pc import -s tbs -k silicon "$S/genai-perf/profile_export_genai_perf_telemetry_by_stat.json"
expect_rc 0 "telemetry per statistic imports"
pc export results --source tbs >"$T/tbs.csv"
expect_in ",gpu0,energy,29999.99999" "$(cat "$T/tbs.csv")" "GPU 0 energy, the other layout"
expect_in ",e2e,power,810.75,W" "$(cat "$T/tbs.csv")" "node power, the other layout"
W=gpt2/concurrency=32/input_len=200/num_prompts=175
expect_near "$(xv workload=$W op=e2e metric=ttft_p99)" 0.18443 "sweep point TTFT p99"
expect_near "$(xv workload=$W op=gpu0 metric=power_p99)" 80.43 "sweep point power"
expect_eq "$(xv workload=$W metric=energy_p99)" NONE "no energy from the counter"

# --- llmperf and optimum-benchmark
rm -f "$PERFCORR_DB"
for f in "$L"/*llmperf* "$L"/*LLMPerf*; do imp llmperf "$f"; done
imp optimum-benchmark "$L/optimum-benchmark-repo-tei__benchmark.json"
imp optimum-benchmark "$L/optimum-benchmark-repo-tei__benchmark_report.json" -w bge/bs=64
export_now
W=llama2-7b-chat/concurrency=20/input_len=550/output_len=150
expect_near "$(xv workload=$W metric=ttft)" 0.41371956776347363 "llmperf TTFT (s)"
expect_near "$(xv workload=$W metric=ttft_p90)" 0.5475025847670623 "quantiles_p90"
# 315.9878159518427 completed requests per minute / 60 = 5.266463599 req/s
expect_near "$(xv workload=$W metric=request_throughput)" 5.266463599197378 "req/min -> req/s"
expect_near "$(sel input_sequence_length "$W" HongxuanZhang-LLMPerf__llama2-7b-chat_550_150_summary.json min)" \
	175 "the string \"175\" is a number"
W=BAAI/bge-base-en-v1.5/bs=64/input_len=128
expect_near "$(xv workload=$W op=forward metric=latency)" 11.329571039485746 "forward mean"
expect_eq "$(xv workload=$W op=forward metric=latency n)" 10 "count"
expect_near "$(sel latency "$W" optimum-benchmark-repo-tei__benchmark.json min forward)" 11.163343374966644 \
	"min of the values"
expect_near "$(xv workload=$W op=forward metric=sample_throughput)" 5.648934083819028 "samples/s"
expect_eq "$(xv workload=$W op=forward metric=sample_throughput unit)" samples/s "not relabelled tokens/s"
expect_eq "$(xv workload=$W op=forward metric=latency version)" 0.5.0.dev0 "tool version"
# energy_star benchmark.json (0.6.0.dev0): energy and efficiency
imp optimum-benchmark "$S/optimum_0.6_energy_star_benchmark.json"
export_now
W=meta-llama/Llama-3.1-8B-Instruct/bs=1/input_len=256/output_len=128
# decode 0.000062 kWh * 3.6e6 J/kWh = 223.2 J; gpu 0.00005 kWh = 180 J
expect_near "$(xv workload=$W op=decode metric=energy)" 223.2 "kWh -> J"
expect_near "$(xv workload=$W op=decode metric=energy_gpu)" 180 "GPU energy"
# 8258064.5 tokens/kWh / 3.6e6 J/kWh = 2.29390681 tokens/J
expect_near "$(xv workload=$W op=decode metric=tokens_per_joule)" 2.2939068055555557 "tokens/J"
expect_near "$(xv workload=$W op=prefill metric=samples_per_joule)" 0.053418802777777776 "samples/J"
# 17000 MB decimal = 1.7e10 B
expect_near "$(xv workload=$W op=prefill metric=memory_max_global_vram)" 1.7e10 "MB decimal"
expect_near "$(xv workload=$W op=decode metric=token_throughput)" 82 "tokens/s"
expect_near "$(xv workload=$W op=prefill metric=sample_throughput)" 40 "samples/s"
# decode latencies 1.5, 1.6, 1.55, 1.55 s: mean 6.2 / 4 = 1.55, min 1.5, max 1.6
expect_near "$(xv workload=$W op=decode metric=latency)" 1.55 "decode mean"
expect_near "$(sel latency "$W" optimum_0.6_energy_star_benchmark.json max decode)" 1.6 "decode max"
expect_eq "$(xv workload=$W op=decode metric=latency version)" 0.6.0.dev0 "0.6 version"

# --- PyTorch profiler: traces (lowercase and CamelCase, CUDA and ROCm,
# integer and fractional dur) and key_averages tables
rm -f "$PERFCORR_DB"
for f in "$L"/HTA__*.json "$L"/kineto__*.json "$S/torch_trace_2024_fractional.json"; do
	imp torch-trace "$f" -w t
done
imp torch-key-averages "$L/DAntyNoel-GFNonGNN__profiler_results.txt" -w g
imp torch-key-averages "$S/torch_table_cpu_only_windows.txt" -w c
expect_in "names truncated with '...' are not unique" "$err" "truncation named"
imp torch-key-averages "$S/torch_table_two_tables.log" -w two
export_now
F=torch_trace_2024_fractional.json
K=sm90_xmma_gemm_bf16bf16_bf16f32
# dur 100.5, 102.25, 98.75 us: mean 301.5 / 3 = 100.5 us; deviations 0,
# +1.75, -1.75: sample variance 6.125 / 2 = 3.0625, stddev 1.75 us
expect_near "$(xv file=$F op=$K metric=time)" 0.0001005 "mean dur"
expect_eq "$(xv file=$F op=$K metric=time n)" 3 "three launches"
expect_near "$(xv file=$F op=$K metric=time stddev)" 0.00000175 "stddev"
expect_near "$(xv file=$F "op=Memcpy HtoD (Pageable -> Device)" metric=time)" 0.0000125 "memcpy its own op"
expect_near "$(xv file=$F "op=Memset (Device)" metric=time)" 0.0000015 "memset its own op"
expect_eq "$(xv file=$F op=aten::mm metric=time)" NONE "CPU ops not stored"
expect_eq "$(xv file=$F op=$K metric=time platform)" "NVIDIA H100 80GB HBM3" "platform"
expect_eq "$(xv file=HTA__amd_mi250__mi250_minitoy_train_ROCm6_2_kineto.json "op=Memcpy HtoD (Host -> Device)" metric=time n)" 2 "ROCm memcpy"
expect_eq "$(xv file=kineto__gpu_metrics_input.json op=Memcpy\ HtoD\ \(Pageable\ -\>\ Device\) metric=time n)" 2 \
	"CamelCase Memcpy (2022 trace)"
# key_averages: 3.784ms CPU time avg, 10 calls; Kb = 1024 b
expect_near "$(xv workload=g "op=autograd::engine::evaluate_function: AddmmBackward0" metric=cpu_time)" 0.003784 "ms cell"
expect_eq "$(xv workload=g "op=autograd::engine::evaluate_function: AddmmBackward0" metric=cpu_time n)" 10 "# of Calls"
# 8.10 Mb = 8.10 * 1048576 = 8493465.6 B
expect_near "$(xv workload=g "op=autograd::engine::evaluate_function: AddmmBackward0" metric=cuda_mem)" 8493465.6 "Mb = 2^20 b"
expect_near "$(xv workload=c op=aten::linear metric=cpu_total_time)" 2.65 "s cell"
expect_near "$(xv workload=c "op=enumerate(DataLoader)#_SingleProcessDataLoaderIter._...#2" metric=cpu_time)" 0.0000036 \
	"the second truncated name kept apart"
expect_near "$(xv workload=c "op=torch\\nn\\modules\\module.py(1782): _call_impl" metric=cpu_time)" 0.00021 "Windows stack name"
expect_near "$(xv workload=two/table=2 "op=ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_..." metric=time)" 0.001125 \
	"table 2 of the log"
expect_near "$(xv workload=two/table=1 op=aten::mm metric=time)" 0.00048 "table 1 CUDA time avg"

# --- bad inputs: file:line, exit 1, database unchanged
expect_refused "bad_trtllm_truncated.json:48:14: invalid JSON" "truncated report JSON" \
	-F trtllm-bench-json "$S/bad_trtllm_truncated.json"
expect_refused "bad_trtllm_type.json:38: 'performance.total_latency_ms' is not a number" \
	"string latency" "$S/bad_trtllm_type.json"
expect_refused "bad_trtllm_cut.log:31: no '= PERFORMANCE OVERVIEW' block" "cut log" \
	-F trtllm-bench "$S/bad_trtllm_cut.log"
expect_refused "bad_trtllm_unit.md:44: 'total latency': unknown unit 'fortnights'" \
	"unknown unit" "$S/bad_trtllm_unit.md"
expect_refused "bad_gpt_missing_col.csv:1: missing column 'num_samples'" "missing column" \
	-F trtllm-legacy-csv "$S/bad_gpt_missing_col.csv"
expect_refused "bad_gpt_unit.csv:1: column 'total_latency(fortnights)': unknown unit" \
	"unit in the column name" "$S/bad_gpt_unit.csv"
expect_refused "bad_perf_analyzer_missing_col.csv:1: missing column 'Inferences/Second'" \
	"no throughput column" -F perf-analyzer-csv "$S/bad_perf_analyzer_missing_col.csv"
expect_refused "bad_perf_analyzer_number.csv:3: column 'Network+Server Send/Recv': 'abc'" \
	"bad cell" "$S/bad_perf_analyzer_number.csv"
expect_refused "bad_genai_perf_unit.csv:2: 'Time To First Token (fortnights)': unknown unit" \
	"unknown CSV unit" -F genai-perf-csv "$S/bad_genai_perf_unit.csv"
expect_refused "bad_genai_perf_unit.json:6: 'request_latency': unknown unit 'fortnights'" \
	"unknown JSON unit" "$S/bad_genai_perf_unit.json"
expect_refused "bad_genai_perf_truncated.json:41:5: invalid JSON" "truncated genai-perf" \
	-F genai-perf-json "$S/bad_genai_perf_truncated.json"
expect_refused "bad_llmperf_string.json:26: 'results_ttft_s_mean': 'fast' is not a number" \
	"a string that is not a number" "$S/bad_llmperf_string.json"
expect_refused "bad_llmperf_truncated.json:37:40: invalid JSON" "truncated llmperf" \
	-F llmperf "$S/bad_llmperf_truncated.json"
expect_refused "bad_optimum_unit.json:2: 'load.latency': unknown unit 'fortnights'" \
	"unknown optimum unit" "$S/bad_optimum_unit.json"
expect_refused "bad_optimum_truncated.json:28:12: invalid JSON" "truncated optimum" \
	-F optimum-benchmark "$S/bad_optimum_truncated.json"
expect_refused "bad_torch_trace_truncated.json:40:105: invalid JSON" "truncated trace" \
	-F torch-trace "$S/bad_torch_trace_truncated.json"
expect_refused "bad_torch_trace_nodur.json:23: traceEvents[3]" "kernel without dur" \
	"$S/bad_torch_trace_nodur.json"
expect_refused "no GPU events (kernel, memcpy, memset)" "an empty trace" \
	-F torch-trace "$L/dymnmysn-compare__profiler_results.txt"
expect_refused "bad_torch_table_unit.txt:4: column 'CPU time avg': unknown unit 'xs'" \
	"unknown cell unit" "$S/bad_torch_table_unit.txt"
expect_refused "bad_torch_table_missing_col.txt:2: missing column '# of Calls'" \
	"no calls column" -F torch-key-averages "$S/bad_torch_table_missing_col.txt"
expect_refused "bad_torch_table_cut.log:6: the table of line 4 has no closing rule" \
	"cut table" -F torch-key-averages "$S/bad_torch_table_cut.log"

run pc formats
for f in trtllm-bench trtllm-bench-json trtllm-legacy-csv perf-analyzer-csv \
	genai-perf-csv genai-perf-json genai-perf-analyze llmperf \
	optimum-benchmark torch-trace torch-key-averages; do
	expect_in "$f" "$out" "formats lists $f"
done
finish
