# LLMCompass: matmul logs (simulated and the paper's measured A100/MI210
# files, imported as silicon) and transformer-block logs.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
M=$FIXTURES/models

run pc import -s a100 -k silicon -p A100-SXM4-80GB "$SAMPLES/llmcompass/matmul_A100_measured.csv"
expect_rc 0 "A100 measurements import as silicon"
expect_in "(llmcompass)" "$err" "auto-detected"
expect_val a100 gemm/k=12288/m=64/n=12288 gemm time 0.19e-3 s
expect_val a100 gemm/k=12288/m=64/n=12288 gemm attained_flop_rate 101.7124e12 FLOP/s
expect_val a100 gemm/k=12288/m=1024/n=12288 gemm time 1.199e-3 s
run pc sources --format csv
expect_in "a100,silicon" "$out" "silicon source"
run pc import -s mi210 -k silicon "$SAMPLES/llmcompass/matmul_MI210_measured.csv"
expect_rc 0 "MI210 imports"
expect_val mi210 gemm/k=12288/m=32/n=12288 gemm time 0.5493e-3 s

# simulated matmuls under the user's workload name
run pc import -s sim -k perfsim -w matmul "$M/matmul_sim_4096.csv"
expect_rc 0 "simulated matmuls"
expect_val sim matmul/k=4096/m=128/n=4096 gemm time 0.101e-3 s

# transformer block: one line (simulate_log) and one value per line (HW)
run pc import -s blk -k perfsim -w gpt3/prefill -F llmcompass "$M/transformer_simulate_log.csv"
expect_rc 0 "block log"
expect_val blk gpt3/prefill qkv time 0.0000812 s
expect_val blk gpt3/prefill layernorm time 0.0000062 s	# two instances
expect_val blk gpt3/prefill allreduce time 0.00003 s
expect_val blk gpt3/prefill e2e time 0.0003964 s
run pc import -s blkhw -k silicon -w gpt3/prefill -F llmcompass "$M/transformer_A100.csv"
expect_rc 0 "block HW file"
expect_val blkhw gpt3/prefill h1_matmul1 time 0.000118 s

expect_refused "latency without ms" "bad_llmcompass_latency.csv:2: field 4" \
	-s bad -k perfsim "$M/bad_llmcompass_latency.csv"
expect_refused "short block" "bad_llmcompass_short_block.csv:1: a transformer block" \
	-s bad -k perfsim -w x -F llmcompass "$M/bad_llmcompass_short_block.csv"
finish
