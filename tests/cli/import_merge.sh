#!/bin/bash
# Several rows, one op (issue 16 defects 1 and 2): nsys launch shapes
# (GridXYZ/BlockXYZ), --map of several kernels to one op, nsys trace and
# nvprof aggregation are one population of launches, never a sum of
# averages of different launch counts; every counted op also stores
# kernel_time, its total GPU time in the run.
. "$TESTS/cli/lib.sh"
. "$TESTS/cli/lib_hw.sh"
H=$FIXTURES/hw
F=$H/nsys/kern_sum_2022_4_launch_shapes.csv
G=sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas
SPLIT='void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t>>, true, false, false, false, true, true, false, false>(flash::Flash_fwd_params)'

# 1. one kernel name on two launch-shape rows, unmapped: the op is the name
run pc import -s shapes -k silicon -w m/decode "$F"
expect_rc 0 "launch shapes import"
# 4 ops (the two gemm rows are one) + 4 kernel_time
expect_in "(nsys-kern-sum): 8 results" "$err" "one result per kernel name"
export_now
# Hand computation (rows 2048 x 10000 ns, sd 200 and 64 x 200000 ns, sd 3000):
#   n = 2048 + 64 = 2112; mean = (20480000 + 12800000) / 2112 = 15757.57... ns
#   (summing the averages, as before, gave 210000 ns: 13x too large)
#   pooled sd from all launches' sum of squares:
#   SS = sum (n_i - 1) sd_i^2 + n_i mean_i^2 ; var = (SS - N mean^2) / (N - 1)
#   = 32582.197616338394 ns (python3, see the comment in the commit)
expect_near "$(xv source=shapes op=$G metric=time)" 1.575757575757576e-05 "mean = sum Total / sum Instances"
expect_eq "$(xv source=shapes op=$G metric=time n)" 2112 "n = sum of Instances"
expect_near "$(xv source=shapes op=$G metric=time stddev)" 3.2582197616338394e-05 "exact pooled stddev"
expect_near "$(xv source=shapes op=$G metric=time mean)" 1.575757575757576e-05 "mean column"
expect_eq "$(xv source=shapes op=$G metric=time min)" 9.5e-06 "min over the rows"
expect_eq "$(xv source=shapes op=$G metric=time max)" 0.00021 "max over the rows"
expect_eq "$(xv source=shapes op=$G metric=time median)" "" "median of a union unknown"
expect_eq "$(xv source=shapes op=$G metric=kernel_time)" 0.03328 "total: 33280000 ns"
expect_eq "$(xv source=shapes op=$G metric=kernel_time unit)" s "kernel_time in s"
# a kernel on one row keeps the tool's own statistics
expect_eq "$(xv source=shapes op=nvjet_tst_64x8_64x16_4x1_v_bz_splitK_TNT metric=time)" 5e-05 "one row: Avg"
expect_eq "$(xv source=shapes op=nvjet_tst_64x8_64x16_4x1_v_bz_splitK_TNT metric=time median)" 4.99e-05 "one row: Med"
expect_eq "$(xv source=shapes op=nvjet_tst_64x8_64x16_4x1_v_bz_splitK_TNT metric=kernel_time)" 0.0064 "one row: Total Time"

# 2. --map: several kernels with different counts, one op
printf '[{"match": "gemm|nvjet", "op": "gemm"}, {"match": "flash", "op": "attn"}]\n' >"$T/pool.json"
run pc import -s pooled -k silicon -w m/decode --map "$T/pool.json" "$F"
expect_rc 0 "mapped import"
expect_in "4 results" "$err" "2 ops + 2 kernel_time"
export_now
# gemm = 2048 x 10000 + 64 x 200000 + 128 x 50000 ns:
#   n = 2240, mean = 39680000 / 2240 = 17714.285714... ns,
#   sd (sum of squares as above) = 32621.59390571142 ns
expect_near "$(xv source=pooled op=gemm metric=time)" 1.7714285714285717e-05 "mapped: pooled mean"
expect_eq "$(xv source=pooled op=gemm metric=time n)" 2240 "mapped: n = all launches"
expect_near "$(xv source=pooled op=gemm metric=time stddev)" 3.262159390571142e-05 "mapped: pooled stddev"
expect_eq "$(xv source=pooled op=gemm metric=kernel_time)" 0.03968 "mapped: kernel_time = 39680000 ns"
# attn without a stage rule: split (256 x 30000) and combine (256 x 4000)
# pooled: (7680000 + 1024000) / 512 = 17000 ns per launch
expect_eq "$(xv source=pooled op=attn metric=time)" 1.7e-05 "two kernels pooled"
expect_eq "$(xv source=pooled op=attn metric=time n)" 512 "launches of both"

# 3. a stage rule: combine runs once with every split launch
printf '[{"match": "splitkv_combine", "op": "attn", "stage": true}, {"match": "flash", "op": "attn"}, {"match": ".", "op": "other"}]\n' >"$T/stage.json"
run pc import -s staged -k silicon -w m/decode --map "$T/stage.json" "$F"
expect_rc 0 "stage import"
export_now
# per call: (7680000 + 1024000) / 256 = 34000 ns; sd sqrt(500^2 + 100^2)
expect_eq "$(xv source=staged op=attn metric=time)" 3.4e-05 "stage adds to each call"
expect_eq "$(xv source=staged op=attn metric=time n)" 256 "calls = the main kernel's launches"
expect_near "$(xv source=staged op=attn metric=time stddev)" 5.099019513592785e-07 "stage sd in quadrature"
expect_eq "$(xv source=staged op=attn metric=time min)" "" "min of a call unknown"
expect_eq "$(xv source=staged op=attn metric=kernel_time)" 0.008704 "kernel_time includes the stage"
printf '[{"match": "splitkv_combine", "op": "attn", "stage": true}, {"match": ".", "op": "other"}]\n' >"$T/onlystage.json"
before=$(db_digest)
run pc import -s lonely -k silicon -w m/decode --map "$T/onlystage.json" "$F"
expect_rc 1 "stage without a main kernel"
expect_in "op 'attn', metric 'time': only stage kernels" "$err" "names op and cause"
expect_eq "$(db_digest)" "$before" "database unchanged"

# 4. nsys trace: per name exact, then the map pools the launches
printf '[{"match": ".", "op": "all"}]\n' >"$T/all.json"
run pc import -s trace -k silicon -w t/decode --map "$T/all.json" "$H/nsys/gpu_trace_2024.csv"
expect_rc 0 "trace mapped"
# python3 statistics over the 7 durations 291000 292500 290250 295000
# 58000 58400 57900 ns: mean 191864.2857 ns, stdev 125133.8973 ns
export_now
expect_near "$(xv source=trace op=all metric=time)" 0.00019186428571428573 "trace: pooled mean"
expect_eq "$(xv source=trace op=all metric=time n)" 7 "trace: 7 launches"
expect_near "$(xv source=trace op=all metric=time stddev)" 0.00012513389733363525 "trace: pooled = sample stddev of all launches"
expect_eq "$(xv source=trace op=all metric=kernel_time)" 0.00134305 "trace: total 1343050 ns"

# 5. nvprof: 4 gemm launches (100.512 101.024 99.872 100.000 us) and 2
# softmax (8.224 8.352 us): mean 69.664 us, stdev 47.54341133742929 us
run pc import -s nvp -k silicon -w a/decode --map "$T/all.json" "$H/nvprof/gpu_trace_us.csv"
expect_rc 0 "nvprof mapped"
export_now
expect_near "$(xv source=nvp op=all metric=time)" 69.664e-6 "nvprof: pooled mean"
expect_eq "$(xv source=nvp op=all metric=time n)" 6 "nvprof: 6 launches"
expect_near "$(xv source=nvp op=all metric=time stddev)" 47.54341133742929e-6 "nvprof: pooled stddev"
expect_near "$(xv source=nvp op=all metric=kernel_time)" 417.984e-6 "nvprof: total"

# rows without launch counts (LLMCompass' two layernorm rows per block)
# still add up: tests/cli/import_llmcompass.sh
finish
