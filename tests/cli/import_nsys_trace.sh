#!/bin/bash
# nsys cuda_gpu_trace / gputrace: per-instance rows aggregated per kernel.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
H="$FIXTURES/hw/nsys"

run pc import -s h100 -k silicon -w t/decode "$H/gpu_trace_2024.csv"
expect_rc 0 "cuda_gpu_trace imports"
expect_in "(nsys-gpu-trace): 4 results" "$err" "auto-detected, memops skipped (2 kernels: time and kernel_time)"
run pc import -s h100 -w old/decode "$H/gputrace_2021_us_crlf.csv"
expect_rc 0 "old gputrace, --timeunit us, CRLF imports"
export_now
G=sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas
# durations 291000 292500 290250 295000 ns (statistics module)
expect_near "$(xv workload=t/decode op=$G metric=time)" 292187.5e-9 "mean"
expect_eq "$(xv workload=t/decode op=$G metric=time n)" 4 "n = instances"
expect_near "$(xv workload=t/decode op=$G metric=time stddev)" \
	2095.381826780026e-9 "sample stddev"
sel() { pcsql "SELECT $1 FROM results r JOIN ops o ON \
o.id = r.op_id WHERE o.name = '$2'"; }
expect_near "$(sel median $G)" 291750e-9 "median of an even count"
expect_near "$(sel min $G)" 290250e-9 "min"
expect_near "$(sel max $G)" 295000e-9 "max"
FL='void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t>, false>(flash::Flash_fwd_params)'
expect_near "$(xv workload=t/decode "op=$FL" metric=time)" 58100e-9 \
	"quoted name with commas"
expect_eq "$(xv 'op=[CUDA memset]' metric=time)" NONE "memset not stored"
expect_in '"memory_ops_skipped":"2"' "$(pcsql \
	"SELECT metadata FROM runs WHERE file_name = 'gpu_trace_2024.csv'")" \
	"memory ops counted"
expect_near "$(xv workload=old/decode op=volta_sgemm_128x64_nn metric=time)" \
	12.666666666666666e-6 "us trace mean"
expect_near "$(xv workload=old/decode op=volta_sgemm_128x64_nn metric=time stddev)" \
	0.7637626158259734e-6 "us trace stddev"

expect_refused "bad_trace_cut.csv:10: expected 21 fields, found 7" \
	"cut mid-row" "$H/bad_trace_cut.csv"
expect_refused "bad_trace_type.csv:8: column 'Duration': '29l000' is not a number" \
	"wrong type" "$H/bad_trace_type.csv"
expect_refused "bad_trace_nodur.csv:2: missing column 'Duration'" \
	"missing column" --format nsys-gpu-trace "$H/bad_trace_nodur.csv"
finish
