#!/bin/bash
# The 2026 vLLM and SGLang outputs (issue 37 item 4): `vllm bench sweep
# serve` run files (the result plus run_number and the sweep's overrides,
# vllm/benchmarks/sweep/serve.py 4fa9174d) keyed by their overrides, its
# summary.json refused, `vllm bench serve --save-detailed` (serve.py
# def9ce85) giving the fingerprint's length spreads over the completed
# requests, and SGLang's bench_one_batch JSON lines (bench_one_batch.py
# 00944150). Fixtures by fixtures/hw/vllm/make_2026.py and
# fixtures/hw/sglang/make_one_batch.py; reference: plain python3.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
V="$FIXTURES/hw/vllm"
G="$FIXTURES/hw/sglang"
S64="$V/sweep/SERVE-max_num_seqs=64-BENCH-request_rate=4"
S128="$V/sweep/SERVE-max_num_seqs=128-BENCH-request_rate=4"
M=meta-llama/Llama-3.1-8B-Instruct

run pc import -s sw -k silicon "$S64/run=0.json"
expect_rc 0 "a sweep run file imports"
expect_in "(vllm): 18 results" "$err" "detected as vllm"
run pc import -s sw2 -k silicon "$S128/run=0.json"
expect_rc 0 "another combination"
run pc import -s det -k silicon "$V/detailed_2026.json"
expect_rc 0 "--save-detailed imports"
run pc import -s ob -k silicon -w llama3-8b "$G/one_batch_2026.jsonl"
expect_rc 0 "bench_one_batch lines import"
expect_in "(sglang-one-batch): 24 results" "$err" "detected as bench_one_batch, not llm-analysis"
export_now

j() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
W64=$M/max_num_seqs=64/num_prompts=30/request_rate=4
W128=$M/max_num_seqs=128/num_prompts=30/request_rate=4
expect_eq "$(xv source=sw workload=$W64 metric=ttft)" "$(j "$S64/run=0.json" 'd["mean_ttft_ms"] / 1000')" \
	"the serve override max_num_seqs keys the combination"
expect_eq "$(xv source=sw2 workload=$W128 metric=ttft)" "$(j "$S128/run=0.json" 'd["mean_ttft_ms"] / 1000')" \
	"... and tells it from the other"
expect_eq "$(xv source=sw workload=$W64 metric=e2el_p99)" "$(j "$S64/run=0.json" 'd["p99_e2el_ms"] / 1000')" \
	"e2el (the sweep asks --percentile-metrics ttft,tpot,itl,e2el)"
expect_eq "$(pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = 'sw'" |
	python3 -c "import json,sys; print(json.load(sys.stdin)['sweep_run'])")" 0 "run_number kept as metadata, not a parameter"
expect_refused "a vllm bench sweep summary.json (the 2 runs of one parameter combination): import its run=N.json files" \
	"summary.json refused by name" "$S64/summary.json"

fp() { pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = '$1'" |
	python3 -c "import json,sys; print(json.load(sys.stdin).get('fp.$2', '-'))"; }
ref_sd() { # key: stdev over the completed requests (errors "")
	python3 -c "import json,statistics,sys; d=json.load(open(sys.argv[1])); print(statistics.stdev(v for v, e in zip(d[sys.argv[2]], d['errors']) if not e))" "$V/detailed_2026.json" "$1"
}
expect_near "$(fp det input_len_sd)" "$(ref_sd input_lens)" 1e-9 "fp.input_len_sd over the completed requests"
expect_near "$(fp det output_len_sd)" "$(ref_sd output_lens)" 1e-9 "fp.output_len_sd (failed requests' 0 left out)"
expect_near "$(fp det output_len)" "$(j "$V/detailed_2026.json" 'd["total_output_tokens"] / d["completed"]')" 1e-9 "fp.output_len"
expect_eq "$(fp sw input_len_sd)" - "no spread without --save-detailed"

OB=llama3-8b/bs=8/input_len=512/output_len=128/run=h100-tp1
line() { python3 -c "import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if json.loads(l)['batch_size'] == 8 and json.loads(l)['output_len'] == 128][0][sys.argv[2]])" "$G/one_batch_2026.jsonl" "$1"; }
expect_eq "$(xv source=ob workload=$OB metric=ttft)" "$(line prefill_latency)" "prefill latency -> ttft, the batch shape the workload"
expect_eq "$(xv source=ob workload=$OB metric=tpot median)" "$(line median_decode_latency)" "median decode step -> tpot, as a median"
expect_eq "$(xv source=ob workload=$OB metric=tpot mean)" "" "... with no mean stated"
expect_eq "$(xv source=ob workload=$OB metric=e2el)" "$(line total_latency)" "total latency -> e2el"
expect_eq "$(xv source=ob workload=$OB metric=total_throughput)" "$(line overall_throughput)" "overall throughput"
expect_eq "$(fp ob input_len) $(fp ob request_rate) $(fp ob ignore_eos) $(fp ob warmup_excluded)" "512 inf true true" \
	"a static batch: fixed input length, all at once, no EOS stop, warmup excluded"
expect_eq "$(fp ob output_len)" - "the lines differ in output length: not stated"
expect_refused "bad_one_batch_nobs.jsonl:2: 'batch_size': missing" "no batch size" "$G/bad_one_batch_nobs.jsonl"
expect_refused "bad_one_batch_type.jsonl:3: 'prefill_latency': not a number" "a text latency" "$G/bad_one_batch_type.jsonl"
expect_refused "bad_one_batch_cut.jsonl:2:81: invalid JSON" "a cut line" "$G/bad_one_batch_cut.jsonl"
finish
