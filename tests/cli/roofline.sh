# perfcorr roofline: hand-computed times and limiters for a GEMM sweep.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
F=$FIXTURES/roofline

run pc roofline --help
expect_rc 0 "help"
expect_in "--hw SPEC.json" "$out" "help names --hw"

run pc roofline --hw "$F/h100_sxm.json" --ops "$F/gemm_sweep.csv" --source rl-h100
expect_rc 0 "H100 sweep"
expect_in "stored roofline run" "$err" "stored"
expect_in "compute" "$out" "table printed"

# Hand computation, H100 SXM5 dense: bf16 989.4e12 FLOP/s, fp32 66.9e12,
# int8 1978.9e12, 3.35e12 B/s. GEMM: flops = 2mnk, bytes = (mk+kn+mn)*e.
W=gemm/k=4096/m=4096/n=4096/bf16
# 2*4096^3 = 137438953472 FLOP / 989.4e12 = 1.3891141446533252e-4 s;
# 3*4096^2*2 = 100663296 B / 3.35e12 = 3.0048745074626864e-5 s: compute
expect_val rl-h100 $W gemm time 1.3891141446533252e-4 s
expect_val rl-h100 $W gemm compute_time 1.3891141446533252e-4 s
expect_val rl-h100 $W gemm memory_time 3.0048745074626864e-5 s
expect_val rl-h100 $W gemm flops 137438953472 FLOP
expect_val rl-h100 $W gemm bytes 100663296 B
expect_val rl-h100 $W gemm arithmetic_intensity 1365.3333333333333 1
expect_val rl-h100 $W gemm limiter 1 1
# 256^3: 33554432 FLOP -> 3.39e-8 s; 393216 B -> 1.1737791044776119e-7 s
expect_val rl-h100 gemm/k=256/m=256/n=256/bf16 gemm time 1.1737791044776119e-7 s
expect_val rl-h100 gemm/k=256/m=256/n=256/bf16 gemm limiter 0 1
# 1024^3: 2147483648 / 989.4e12 = 2.1704908510208207e-6 s beats
# 6291456 / 3.35e12 = 1.878e-6 s: just compute-bound
expect_val rl-h100 gemm/k=1024/m=1024/n=1024/bf16 gemm time 2.1704908510208207e-6 s
expect_val rl-h100 gemm/k=1024/m=1024/n=1024/bf16 gemm limiter 1 1
# decode GEMV 1x4096x4096: (4096 + 4096^2 + 4096)*2 = 33570816 B / 3.35e12
expect_val rl-h100 gemm/k=4096/m=1/n=4096/bf16 gemm time 1.0021139104477612e-5 s
expect_val rl-h100 gemm/k=4096/m=1/n=4096/bf16 gemm limiter 0 1
# 64x12288x12288: 305135616 B / 3.35e12 = 9.108525850746268e-5 s: memory
expect_val rl-h100 gemm/k=12288/m=64/n=12288/bf16 gemm time 9.108525850746268e-5 s
# fp32 2048^3: 17179869184 / 66.9e12 = 2.567992404185351e-4 s
expect_val rl-h100 gemm/k=2048/m=2048/n=2048/fp32 gemm time 2.567992404185351e-4 s
# int8 4096^3: 137438953472 / 1978.9e12 = 6.9452197418768e-5 s
expect_val rl-h100 gemm/k=4096/m=4096/n=4096/int8 gemm time 6.9452197418768e-5 s
run pc runs --format csv --source rl-h100
expect_in "roofline" "$out" "format roofline"
expect_in "H100-SXM5-80GB" "$out" "platform from the spec"
expect_in ",1830000000," "$out" "clock from the spec"
v=$(sha256sum "$F/h100_sxm.json" | cut -c1-12)
expect_in ",$v," "$out" "version = the spec's hash"
expect_eq "$(count rl-h100)" 63 "9 ops x 7 metrics"

# A100: 4096^3 bf16 = 137438953472 / 312e12 = 4.405094662564103e-4 s
run pc roofline -q --hw "$F/a100_sxm.json" --ops "$F/gemm_sweep.csv" --source rl-a100
expect_rc 0 "A100 sweep"
expect_val rl-a100 gemm/k=4096/m=4096/n=4096/bf16 gemm time 4.405094662564103e-4 s
expect_val rl-a100 gemm/k=12288/m=64/n=12288/bf16 gemm time 1.4964964001961745e-4 s
expect_val rl-a100 gemm/k=12288/m=64/n=12288/bf16 gemm limiter 0 1
# the same key as LLMCompass's measured A100 file (fp16): roofline below it
expect_val rl-a100 gemm/k=12288/m=64/n=12288/fp16 gemm time 1.4964964001961745e-4 s
run pc import -q -s a100-hw -k silicon -P precision=fp16 "$SAMPLES/llmcompass/matmul_A100_measured.csv"
expect_val a100-hw gemm/k=12288/m=64/n=12288/fp16 gemm time 0.19e-3 s

# the same spec and ops again: nothing to do; --replace stores anew
run pc roofline -q --hw "$F/h100_sxm.json" --ops "$F/gemm_sweep.csv" --source rl-h100
expect_rc 0 "rerun"
expect_in "nothing to do" "$err" "rerun recognised"

# named ops with flops/bytes, a workload column, fixed overhead
run pc roofline -q --hw "$F/toy_overhead.json" --ops "$F/layer_ops.csv" --source toy
expect_rc 0 "overhead spec"
W=llama3-8b/decode/bs=8/bf16
# 402653184 / 100e12 = 4.02653184e-6; 50429952 / 1e12 = 5.0429952e-5;
# + 5e-6 overhead
expect_val toy $W gemm_qkv time 5.5429952e-5 s
expect_val toy $W allreduce time 6.048576e-6 s
expect_eq "$(get toy $W allreduce arithmetic_intensity)" "0 1" "zero-FLOP intensity"

# refusals: no peak for the precision, bad rows, bad specs
expect_refused_rl() { # description needle args...
	local d=$1 n=$2 before
	shift 2
	before=$(db_digest)
	run pc roofline "$@"
	expect_rc 1 "$d"
	expect_in "$n" "$err" "$d: message"
	expect_eq "$(db_digest)" "$before" "$d: database unchanged"
}
expect_refused_rl "A100 has no fp8" "fp8_ops.csv:2: op 'gemm': the spec for 'A100-SXM4-80GB' has no fp8 peak" \
	--hw "$F/a100_sxm.json" --ops "$F/fp8_ops.csv"
expect_refused_rl "unknown precision" "bad_precision.csv:3: column 'precision': 'bf17'" \
	--hw "$F/h100_sxm.json" --ops "$F/bad_precision.csv"
expect_refused_rl "negative bytes" "bad_negative.csv:2: column 'bytes'" \
	--hw "$F/h100_sxm.json" --ops "$F/bad_negative.csv"
expect_refused_rl "zero bandwidth" "bad_spec_bw.json: 'memory_bandwidth' must be a positive number" \
	--hw "$F/bad_spec_bw.json" --ops "$F/gemm_sweep.csv"
expect_refused_rl "unknown spec precision" "bad_spec_prec.json: peak_flops: unknown precision 'fp4'" \
	--hw "$F/bad_spec_prec.json" --ops "$F/gemm_sweep.csv"
run pc roofline --ops "$F/gemm_sweep.csv"
expect_rc 2 "missing --hw"
finish
