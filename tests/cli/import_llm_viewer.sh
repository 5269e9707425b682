# LLM-Viewer CSV: human-formatted values, banners, --opt layers, refusals.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
M=$FIXTURES/models

run pc import -s lv -k roofline "$SAMPLES/llm_viewer_decode.csv"
expect_rc 0 "sample imports"
expect_in "(llm-viewer)" "$err" "auto-detected"
W=meta-llama/Meta-Llama-3-8B/decode/bs=8/seq=2048
expect_val lv $W q_proj time 11.0e-6 s
expect_val lv $W softmax time 682.7e-9 s
expect_val lv $W q_proj flops 268e6 FLOP
expect_val lv $W q_proj bytes 33.7e6 B
expect_val lv $W attn_add arithmetic_intensity 0.25 1
expect_val lv $W attn_add attainable_flop_rate 768e9 FLOP/s
expect_val lv $W lm_head bytes 1.1e9 B
expect_val lv $W q_proj limiter 0 1
expect_eq "$(count lv)" 96 "16 layers x 6 metrics"
run pc runs --format csv
expect_in "nvidia_H100_SXM" "$out" "platform from the banner"

# --workload names it; layers=32 scales all but lm_head, adds e2e
run pc import -s lv32 -k roofline -w llama3-8b -o layers=32 \
	"$SAMPLES/llm_viewer_decode.csv"
expect_rc 0 "layers=32"
W=llama3-8b/decode/bs=8/seq=2048
expect_val lv32 $W q_proj time 352e-6 s
expect_val lv32 $W lm_head time 342.1e-6 s
# 32 * (2*11 + 2*2.8 + 3*38.3 + 2*11.3 + 0.6827 + 6*0.0427 + 0.064) us
# + 342.1 us
expect_val lv32 $W e2e time 5.65466e-3 s

# a variant: prefill from the file name, CRLF, two appended blocks,
# ms/s times, a K-suffixed intensity, compute-bound rows
run pc import -s lv2 -k roofline -w llama2-7b "$M/Llama-2-7b-hf_prefill.csv"
expect_rc 0 "variant imports"
W1=llama2-7b/prefill/bs=1/seq=512
W4=llama2-7b/prefill/bs=4/seq=512
expect_val lv2 $W1 lm_head time 1.2e-3 s
expect_val lv2 $W1 fused_attention arithmetic_intensity 1400 1
expect_val lv2 $W1 fused_attention limiter 1 1
expect_val lv2 $W1 mlp_act attainable_flop_rate 339e9 FLOP/s
expect_val lv2 $W4 q_proj time 55.1e-6 s
expect_val lv2 $W4 q_proj flops 17.2e9 FLOP
expect_val lv2 $W4 softmax time 0 s

expect_refused "bad time unit" "bad_llm_viewer_unit.csv:4: column 'inference_time'" \
	-s bad -k roofline "$M/bad_llm_viewer_unit.csv"
expect_refused "bad bound" "bad_llm_viewer_bound.csv:4: column 'bound'" \
	-s bad -k roofline "$M/bad_llm_viewer_bound.csv"
run pc import -s bad -k roofline -o layers=x "$SAMPLES/llm_viewer_decode.csv"
expect_rc 2 "bad --opt layers is a usage error"
finish
