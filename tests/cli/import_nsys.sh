#!/bin/bash
# nsys stats kernel summaries: every header variant, units, mapping, and
# malformed files refused with file:line and an unchanged database.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
H="$FIXTURES/hw/nsys"
MAP="$FIXTURES/map/cuda_kernels.json"

run pc import -s h100 -k silicon -w llama3-8b/prefill/bs=1/seq=2048/bf16 \
	"$SAMPLES/nsys_cuda_gpu_kern_sum.csv"
expect_rc 0 "current kern_sum imports"
expect_in "(nsys-kern-sum): 20 results" "$err" "auto-detected, 10 kernels (time and kernel_time)"
run pc import -s h100 -w llama3-8b/decode/bs=8/seq=2048/bf16 \
	"$SAMPLES/nsys_gpukernsum_2021.csv"
expect_rc 0 "2021 gpukernsum imports"
run pc import -s h100 -w v2023/decode "$H/kern_sum_2023_us_crlf_bom.csv"
expect_rc 0 "us, quoted, CRLF, BOM imports"
run pc import -s h100 -w v2022/decode "$H/kern_sum_2022_average.csv"
expect_rc 0 "2022 Average (ns) header imports"
run pc import -s h100 -w sec/decode "$H/kern_sum_sec.csv"
expect_rc 0 "--timeunit sec imports"
run pc import -s h100 -w two/decode "$H/stats_two_reports.csv"
expect_rc 0 "cuda_api_sum before the kernel summary is skipped"
expect_in "(nsys-kern-sum): 2 results" "$err" "only the kernel table"
export_now

W=llama3-8b/prefill/bs=1/seq=2048/bf16
K=sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas
expect_near "$(xv workload=$W op=$K metric=time)" 571284.3e-9 "Avg in s"
expect_eq "$(xv workload=$W op=$K metric=time n)" 128 "n = Instances"
expect_near "$(xv workload=$W op=$K metric=time stddev)" 3418.7e-9 "stddev in s"
expect_eq "$(xv workload=$W op=$K metric=time raw_unit)" ns "raw unit kept"
FL='void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t>>, false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)'
expect_near "$(xv workload=$W "op=$FL" metric=time)" 58391.4e-9 \
	"quoted name with commas"
expect_near "$(xv workload=$W op=triton_poi_fused_embedding_0 metric=time)" \
	7935.2e-9 "last row (Time 0.0)"
sel() { pcsql "SELECT $1 FROM results r JOIN ops o ON \
o.id = r.op_id WHERE o.name = '$2' AND r.run_id = $3"; }
expect_eq "$(sel 'median*1e9' triton_poi_fused_embedding_0 1)" 7904.0 "median"
expect_eq "$(sel 'min*1e9' triton_poi_fused_embedding_0 1)" 7808.0 "min"
expect_eq "$(sel 'max*1e9' triton_poi_fused_embedding_0 1)" 8125.0 "max"

W=llama3-8b/decode/bs=8/seq=2048/bf16
expect_near "$(xv workload=$W op=triton_red_fused_argmax_3 metric=time)" \
	21904e-9 "2021: Average without unit is ns"
expect_eq "$(xv workload=$W op=triton_red_fused_argmax_3 metric=time stddev)" \
	"" "2021: no StdDev column"
expect_eq "$(sel 'max*1e9' triton_red_fused_argmax_3 2)" 22656.0 \
	"2021: Maximum"
NC='ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)'
expect_near "$(xv workload=v2023/decode "op=$NC" metric=time)" 61.25e-6 \
	"--timeunit us"
expect_near "$(xv workload=v2023/decode "op=$NC" metric=time stddev)" 0.75e-6 \
	"--timeunit us stddev"
expect_near "$(xv workload=v2022/decode op=ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn metric=time)" \
	7e-6 "Average (ns)"
expect_near "$(xv workload=sec/decode op=big_kernel metric=time)" 0.003 \
	"--timeunit sec"

# mapping: the launches of an op's kernels are one population, raw names kept
run pc import -s mapped -k silicon -w m/prefill --map "$MAP" \
	"$SAMPLES/nsys_cuda_gpu_kern_sum.csv"
expect_rc 0 "mapped import"
expect_in "10 results" "$err" "10 kernels -> 5 ops (time and kernel_time)"
run pc import -s mapped -w g/decode --map "$MAP" "$H/kern_sum_2022_4_grid.csv"
expect_rc 0 "GridXYZ variant: one name on two rows is legitimate"
export_now
# gemm: five kernels, Total Time 73124390 + 37351258 + 16843251 + 11128653
# + 1449679 = 139897231 ns over 4 x 128 + 4 = 516 launches: 271118.66 ns
expect_near "$(xv source=mapped workload=m/prefill op=gemm metric=time)" \
	271118.6647286822e-9 "gemm = sum of Total Time / sum of Instances"
expect_eq "$(xv source=mapped workload=m/prefill op=gemm metric=time n)" 516 \
	"merged n = every launch"
expect_near "$(xv source=mapped workload=m/prefill op=gemm metric=kernel_time)" \
	0.139897231 "kernel_time = sum of Total Time"
expect_near "$(xv source=mapped workload=m/prefill op=rmsnorm metric=time)" \
	23412.6e-9 "Inductor rmsnorm mapped"
# 100 x 6000 + 100 x 3000 ns over 200 launches (not 6000 + 3000)
expect_near "$(xv source=mapped workload=g/decode op=softmax metric=time)" \
	4500e-9 "two grid rows of one kernel: one population"
expect_eq "$(pcsql "SELECT count(*) FROM op_raw_names n \
JOIN runs r ON r.id = n.run_id JOIN sources s ON s.id = r.source_id \
WHERE s.name = 'mapped'")" 12 "raw names stored"

# --strict-map: an unmapped kernel is an error naming it
printf '[{"match": "gemm", "op": "gemm"}]\n' >"$T/gemm_only.json"
expect_refused "no mapping rule matches kernel 'nvjet_tst_128x128" \
	"--strict-map" --map "$T/gemm_only.json" --strict-map \
	"$SAMPLES/nsys_cuda_gpu_kern_sum.csv"
expect_in "nsys_cuda_gpu_kern_sum.csv:10" "$err" "--strict-map names file:line"
run pc import -s lax -k silicon -w l/decode --map "$T/gemm_only.json" \
	"$SAMPLES/nsys_cuda_gpu_kern_sum.csv"
expect_in "7 raw names unmapped" "$err" "unmapped names counted"

# malformed files
expect_refused "bad_cut_mid_row.csv:9: expected 9 fields, found 6" \
	"cut mid-row" "$H/bad_cut_mid_row.csv"
expect_refused "bad_cut_in_quote.csv:12: unterminated quoted field" \
	"cut inside a quoted name" "$H/bad_cut_in_quote.csv"
expect_refused "bad_type.csv:9: column 'Avg': '13x587.9' is not a number" \
	"wrong type" "$H/bad_type.csv"
expect_refused "bad_missing_col.csv:6: missing column 'Instances'" \
	"missing column" "$H/bad_missing_col.csv" --format nsys-kern-sum
expect_refused "bad_empty.csv: empty file" "empty file" "$H/bad_empty.csv"
expect_refused "no kernel summary header" "preamble only" \
	"$H/bad_only_preamble.csv" --format nsys-kern-sum
expect_refused "bad_dup.csv:5: duplicate row for kernel 'rms_norm_kernel' (first at line 4)" \
	"duplicate row" "$H/bad_dup.csv"
expect_refused "bad_instances.csv:7: column 'Instances': '-3'" \
	"negative instances" "$H/bad_instances.csv"
finish
