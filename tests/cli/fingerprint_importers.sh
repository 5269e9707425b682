#!/usr/bin/env bash
# Every importer that can read a workload-fingerprint field stores it
# (issue 37): each fixture imported, its fp.FIELD metadata compared with
# the values read from the file by python here (the file's own numbers,
# the scenario rules of docs/importers.md), spelled as perfcorr stores
# them (numbers %.10g, dtypes folded). On the old code these importers
# stored no fp.* member at all.
. "$(dirname "$0")/../cli/lib.sh"
S=$FIXTURES/stacks
# fp FILE [import args]: import into a new source, print its fingerprint
# as sorted "field=value" words (called in $(...): the count in a file)
fp() {
	local f=$1 k
	shift
	k=$(($(cat "$T/k" 2>/dev/null || echo 0) + 1))
	echo $k > "$T/k"
	pc import -q -s "fpi$k" -k silicon "$@" "$f" 2>"$T/warn" ||
		{ fail "import $f: $(cat "$T/warn")"; return; }
	pc runs --fingerprint -s "fpi$k" -f json |
		python3 -c "import json,sys; d=json.load(sys.stdin); print(' '.join(sorted('%s=%s' % kv for r in d for kv in r['fingerprint'].items())))"
}
# py EXPR FILE: EXPR over d (the JSON) or rows (CSV lines), printed as
# sorted words; g() formats a number as perfcorr does (%.10g)
py() {
	python3 - "$@" <<'PY'
import csv, json, sys
g = lambda v: '%.10g' % float(v)
f = sys.argv[2]
try:
    d = json.load(open(f))
except ValueError:
    d = None
rows = list(csv.reader(open(f, newline='')))
sweep = list(__import__('itertools').takewhile(lambda r: r, rows[1:]))
print(' '.join(sorted(eval(sys.argv[1]))))
PY
}

# genai-perf JSON, flat (0.0.8) and nested (0.0.13); AIPerf
f=$S/genai-perf/profile_export_genai_perf_0.0.8_flat.json
expect_eq "$(fp "$f")" "$(py "['input_len='+g(d['input_sequence_length']['avg']), 'input_len_sd='+g(d['input_sequence_length']['std']), 'output_len='+g(d['output_sequence_length']['avg']), 'output_len_sd='+g(d['output_sequence_length']['std']), 'achieved_request_rate='+g(d['request_throughput']['avg']), 'concurrency='+g(d['input_config']['concurrency']), 'ignore_eos='+str(d['input_config']['extra_inputs']['ignore_eos']).lower(), 'tool=genai-perf']" "$f")" \
	"genai-perf json 0.0.8: lengths, rate, concurrency, ignore_eos"
f=$S/genai-perf/profile_export_genai_perf_0.0.13_nested.json
expect_eq "$(fp "$f")" "$(py "['input_len='+g(d['input_sequence_length']['avg']), 'input_len_sd='+g(d['input_sequence_length']['std']), 'output_len='+g(d['output_sequence_length']['avg']), 'output_len_sd='+g(d['output_sequence_length']['std']), 'achieved_request_rate='+g(d['request_throughput']['avg']), 'concurrency='+g(d['input_config']['perf_analyzer']['stimulus']['concurrency']), 'tool=genai-perf']" "$f")" \
	"genai-perf json 0.0.13: the nested stimulus"
f=$S/aiperf/profile_export_aiperf.json
expect_eq "$(fp "$f")" "$(py "['input_len='+g(d['input_sequence_length']['avg']), 'input_len_sd='+g(d['input_sequence_length']['std']), 'output_len='+g(d['output_sequence_length']['avg']), 'output_len_sd='+g(d['output_sequence_length']['std']), 'output_tokens='+g(d['total_output_tokens']['avg']), 'achieved_request_rate='+g(d['request_throughput']['avg']), 'concurrency='+g(d['input_config']['loadgen']['concurrency']), 'warmup_excluded=true', 'tool=aiperf']" "$f")" \
	"aiperf json: loadgen, warmup excluded (warmup_request_count 10), totals"

# genai-perf CSV: the tables' rows, concurrency from the artifact name
f=$S/genai-perf/meta-llama_Llama-3.1-8B-Instruct-openai-chat-concurrency8/profile_export_genai_perf.csv
expect_eq "$(fp "$f" --workload w)" "$(py "['input_len='+g(r[1].replace(',','')) for r in rows if r and r[0]=='Input Sequence Length'] + ['output_len='+g(r[1]) for r in rows if r and r[0]=='Output Sequence Length'] + ['achieved_request_rate='+g(r[1]) for r in rows if r and r[0].startswith('Request Throughput')] + ['concurrency=8', 'tool=genai-perf']" "$f")" \
	"genai-perf csv: avg rows (no std column), concurrency8 directory"
f=$S/licensed/triton-perf_analyzer-0.0.9dev__analyze_export_genai_perf.csv
expect_eq "$(fp "$f" --workload gpt2)" "$(py "['concurrency='+g(c) for c in {r[1] for r in sweep}] + ['input_len='+g(c) for c in {r[2] for r in sweep}] + ['tool=genai-perf']" "$f")" \
	"genai-perf analyze: what every sweep point agrees on (one concurrency, one ISL)"

# llmperf: the lengths measured, else those requested
f=$S/licensed/llmperf-leaderboard__anyscale_70b.json
expect_eq "$(fp "$f")" "$(py "['input_len='+g(d['results_number_input_tokens_mean']), 'input_len_sd='+g(d['results_number_input_tokens_stddev']), 'output_len='+g(d['results_number_output_tokens_mean']), 'output_len_sd='+g(d['results_number_output_tokens_stddev']), 'concurrency='+g(d['num_concurrent_requests']), 'achieved_request_rate='+g(float(d['results_num_completed_requests_per_min'])/60), 'tool=llmperf', 'tool_version='+d['version']]" "$f")" \
	"llmperf leaderboard: measured lengths (146.9 of 150 asked)"
f=$S/llmperf_pairs_with_trtllm_summary.json
expect_eq "$(fp "$f")" "$(py "['input_len='+g(d['mean_input_tokens']), 'input_len_sd='+g(d['stddev_input_tokens']), 'output_len='+g(d['mean_output_tokens']), 'output_len_sd='+g(d['stddev_output_tokens']), 'concurrency='+g(d['num_concurrent_requests']), 'tool=llmperf', 'tool_version='+d['version']]" "$f")" \
	"llmperf without measured lengths: the requested ones"

# trtllm-bench: console (0.16 engine flow, 1.x PyTorch), --report_json
expect_eq "$(fp "$S/trtllm_bench_0.16_throughput.log")" \
	"input_len=128 output_len=2048 pp=1 precision=bf16 tool=trtllm-bench tool_version=0.16.0 tp=1" \
	"trtllm-bench 0.16: Average Input/Output Length, TP/PP, Dtype bfloat16 folded"
expect_eq "$(fp "$S/trtllm_bench_1.1_pytorch.md")" \
	"input_len=1024 output_len=256 pp=1 precision=bf16 tool=trtllm-bench tool_version=1.1.0rc2 tp=1" \
	"trtllm-bench 1.1: REQUEST DETAILS"
f=$S/trtllm_bench_1.2_report.json
expect_eq "$(fp "$f")" "$(py "['input_len='+g(d['request_info']['avg_input_length']), 'output_len='+g(d['request_info']['avg_output_length']), 'tp='+g(d['world_info']['tp_size']), 'pp='+g(d['world_info']['pp_size']), 'precision='+d['engine']['quantization'].lower(), 'tool=trtllm-bench', 'tool_version='+d['engine']['version']]" "$f")" \
	"trtllm-bench json: measured lengths, the quantization (FP8) over the dtype"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['world_info']['tp_size']=1.5; json.dump(d, open(sys.argv[2],'w'))" "$f" "$T/tp.json"
expect_not_in "tp=" "$(fp "$T/tp.json")" "a value the field does not take is not stated"
expect_in "fingerprint field tp: '1.5' is not a whole number >= 0: not stated" "$(cat "$T/warn")" "and said"

# gptManagerBenchmark, perf_analyzer
f=$S/gptManagerBenchmark_0.15.csv
expect_eq "$(fp "$f" --workload w)" "$(py "['achieved_request_rate='+g(rows[1][rows[0].index('seq_throughput(seq/sec)')]), 'tool=gptManagerBenchmark']" "$f")" \
	"gptManagerBenchmark: seq_throughput achieved"
f=$S/perf_analyzer_request_rate_avg_latency.csv
expect_eq "$(fp "$f" --workload w)" "tool=perf_analyzer" "perf_analyzer sweep: no rate every row shares"
head -2 "$f" > "$T/pa1.csv"
expect_eq "$(fp "$T/pa1.csv" --workload w)" "$(py "['request_rate='+g(rows[1][0]), 'tool=perf_analyzer']" "$T/pa1.csv")" \
	"perf_analyzer one point: its request rate"

# optimum-benchmark
f=$S/optimum_0.6_energy_star_benchmark.json
expect_eq "$(fp "$f")" "$(py "['input_len='+g(d['config']['scenario']['input_shapes']['sequence_length']), 'output_len='+g(d['config']['scenario']['generate_kwargs']['max_new_tokens']), 'precision=bf16', 'tool=optimum-benchmark', 'tool_version='+d['config']['environment']['optimum_benchmark_version']]" "$f")" \
	"optimum: the input shape, min_new_tokens = max_new_tokens, torch_dtype bfloat16"
f=$S/licensed/optimum-benchmark-repo-tei__benchmark.json
expect_eq "$(fp "$f")" "$(py "['input_len='+g(d['config']['scenario']['input_shapes']['sequence_length']), 'warmup_excluded=true', 'tool=optimum-benchmark', 'tool_version='+d['config']['environment']['optimum_benchmark_version']]" "$f")" \
	"optimum tei: warmup_runs 10, no forced output length, dtype null"

# MLPerf: the scenario's load
H=$FIXTURES/hw/mlperf
f=$SAMPLES/mlperf_log_summary.txt
expect_eq "$(fp "$f" --workload w)" "request_rate=$(sed -n 's/^target_qps : //p' "$f") tool=mlperf-loadgen" \
	"mlperf summary Server: target_qps"
expect_eq "$(fp "$H/summary_offline_invalid_crlf.txt" --workload w)" "request_rate=inf tool=mlperf-loadgen" \
	"mlperf summary Offline: every query at once"
expect_eq "$(fp "$H/summary_singlestream_v41.txt" --workload w)" "concurrency=1 tool=mlperf-loadgen" \
	"mlperf summary SingleStream: one query at a time"
expect_eq "$(fp "$SAMPLES/mlperf_log_detail.txt" --workload w)" \
	"tool=mlperf-loadgen tool_version=5.1 @ 7f4bcf6f0e" "mlperf detail: the LoadGen version (no target qps in the log)"
expect_eq "$(fp "$H/detail_multistream_invalid.txt" --workload w)" \
	"$(sed -n 's/.*"loadgen_version", "value": "\([^"]*\)".*/tool=mlperf-loadgen tool_version=\1/p' "$H/detail_multistream_invalid.txt")" \
	"mlperf detail MultiStream: no load field"
printf ':::MLLOG {"key": "effective_scenario", "value": "Server"}\n:::MLLOG {"key": "effective_target_qps", "value": 12.5}\n' > "$T/d.txt"
grep -v effective_scenario "$SAMPLES/mlperf_log_detail.txt" >> "$T/d.txt"
expect_in "request_rate=12.5" "$(fp "$T/d.txt" --workload w)" "mlperf detail Server: effective_target_qps"

# vLLM console block: as its JSON
f=$SAMPLES/vllm_bench_stdout.txt
expect_eq "$(fp "$f" --workload w)" "$(python3 - "$f" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
v = lambda l: float(re.search(re.escape(l) + r':\s*([0-9.]+)', t).group(1))
g = lambda x: '%.10g' % x
ok = v('Successful requests')
print(' '.join(sorted(['input_len=' + g(v('Total input tokens') / ok), 'output_len=' + g(v('Total generated tokens') / ok),
    'input_tokens=' + g(v('Total input tokens')), 'output_tokens=' + g(v('Total generated tokens')),
    'achieved_request_rate=' + g(v('Request throughput (req/s)')), 'request_rate=inf',
    'concurrency=' + g(v('Maximum request concurrency')), 'tool=vllm-bench-serve'])))
PY
)" "vllm stdout: the JSON's fields"

# a model states its assumed fingerprint: llm-analysis
f=$SAMPLES/llm_analysis_summary.json
expect_eq "$(fp "$f" --workload llama3-8b)" "$(py "['input_len='+g(d['seq_len']), 'output_len='+g(d['num_tokens_to_generate']), 'tp='+g(d['tp_size']), 'pp='+g(d['pp_size']), 'tool=llm-analysis']" "$f")" \
	"llm-analysis: seq_len, tokens to generate, tp, pp"

# perfcorr-json: metadata fp.FIELD members, checked and canonical
printf '{"format": "perfcorr-json", "workload": "w", "metadata": {"fp.tp": 8, "fp.precision": "BFloat16", "fp.ignore_eos": "yes"}, "results": [{"op": "e2e", "metric": "time", "value": 1, "unit": "ms"}]}\n' > "$T/n.json"
expect_eq "$(fp "$T/n.json")" "ignore_eos=true precision=bf16 tp=8" "perfcorr-json metadata: canonical"
printf '{"format": "perfcorr-json", "workload": "w", "metadata": {"fp.tp": 1.5}, "results": [{"op": "e2e", "metric": "time", "value": 1, "unit": "ms"}]}\n' > "$T/bad.json"
run pc import -s fpbad -k silicon "$T/bad.json"
expect_rc 1 "perfcorr-json: a bad fingerprint value refused"
expect_in "bad.json: fingerprint field 'tp': '1.5' is not a whole number" "$err" "naming file and field"
expect_eq "$(pcsql "SELECT count(*) FROM sources WHERE name = 'fpbad'")" "0" "nothing stored"

# profilers state no workload-level field (kernel traces)
expect_eq "$(fp "$SAMPLES/nsys_cuda_gpu_kern_sum.csv" --workload w)" "" "nsys: nothing"
expect_eq "$(fp "$SAMPLES/ncu_raw.csv" --workload w)" "" "ncu: nothing"
finish
