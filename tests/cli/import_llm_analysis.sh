# llm-analysis summary JSON: phase breakdowns, request latencies, refusals.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
M=$FIXTURES/models

run pc import -s la -k roofline -w llama3-8b/bf16 "$SAMPLES/llm_analysis_summary.json"
expect_rc 0 "sample imports"
expect_in "(llm-analysis)" "$err" "auto-detected"
P=llama3-8b/prefill/bs=1/seq=2048/bf16
D=llama3-8b/decode/bs=1/seq=2048/bf16
R=llama3-8b/bs=1/seq=2048/bf16
expect_val la $P e2e time 0.05163178123414779 s
expect_val la $P attn time 0.01240251205433011 s
expect_val la $P mlp time 0.03502213377463743 s
expect_val la $P norm time 0.00033396684302133324 s
expect_val la $P allreduce time 0 s
expect_val la $P lm_head time 0.0035246357440185546 s
expect_val la $P e2e flops 34360786550784 FLOP
expect_val la $D norm time 3.2603250297289054e-07 s
expect_val la $D e2e flops 16061071360 FLOP
expect_val la $R e2e ttft 0.05163178123414779 s
expect_val la $R e2e tpot 0.005776327803051159 s
expect_val la $R e2e e2el 1.5303716988152445 s
expect_val la $R e2e weight_memory 16060522496 B

# without --workload there is no name: refused, nothing stored
expect_refused "no workload name" "no workload" -s la0 -k roofline \
	"$SAMPLES/llm_analysis_summary.json"

# newer version: tp=2 joins the key, throughputs and efficiencies
run pc import -s la2 -k roofline -w llama2-13b "$M/llama2-13b-tp2-summary.json"
expect_rc 0 "variant imports"
P=llama2-13b/prefill/bs=4/seq=1024/tp=2
R=llama2-13b/bs=4/seq=1024/tp=2
expect_val la2 $P allreduce time 0.03 s
expect_val la2 $P e2e throughput 16384 tokens/s
expect_val la2 llama2-13b/decode/bs=4/seq=1024/tp=2 allreduce time 0.0012 s
expect_val la2 $R e2e throughput 276.75 tokens/s
expect_val la2 $R e2e flops_efficiency 0.5 1

expect_refused "string value" "bad_llm_analysis_type.json: 'decode_latency' is not a number" \
	-s bad -k roofline -w x "$M/bad_llm_analysis_type.json"
expect_refused "truncated JSON" "bad_llm_analysis_truncated.json:5:" \
	-s bad -k roofline -w x -F llm-analysis "$M/bad_llm_analysis_truncated.json"
finish
