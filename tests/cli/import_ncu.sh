#!/bin/bash
# Nsight Compute CSV: details page (20- and 12-column layouts) and raw page.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
H="$FIXTURES/hw/ncu"

run pc import -s b -k silicon -w llama3-8b/prefill "$SAMPLES/ncu_details.csv"
expect_rc 0 "details page imports"
expect_in "(ncu-details)" "$err" "details auto-detected"
run pc import -s r -k silicon -w llama3-8b/decode/bs=32 "$SAMPLES/ncu_raw.csv"
expect_rc 0 "raw page imports"
expect_in "(ncu-raw)" "$err" "raw auto-detected"
run pc import -s old -k silicon -w cfd/decode "$H/details_2020_12col_crlf.csv"
expect_rc 0 "12-column layout, CRLF, thousands separators"
run pc import -s new -k silicon -w g/decode "$H/details_2025_units.csv"
expect_rc 0 "usecond and msecond launches of one kernel"
run pc import -s oldraw -k silicon -w e/decode "$H/raw_2021_kbyte_bom.csv"
expect_rc 0 "old raw page, Kbyte, BOM"
run pc import -s perk -k silicon -w s/decode "$H/summary_per_kernel.csv"
expect_rc 0 "--print-summary per-kernel layout"
expect_in "(ncu-details): 6 results" "$err" "text metric skipped (4 + kernel_time of the 2 kernels)"
run pc import -s occ -k silicon -w o/decode "$H/details_occupancy.csv"
expect_rc 0 "occupancy section"
export_now
expect_near "$(xv source=occ op=k metric=achieved_occupancy)" 0.615 \
	"Achieved Occupancy pairs with the simulators' achieved_occupancy"
A=ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn
expect_near "$(xv source=perk op=$A metric=time)" 41.25e-6 "summary: Average"
expect_eq "$(xv source=perk op=$A metric=time n)" 12 "summary: Invocations"
expect_eq "$(xv source=perk op=$A metric=cycles)" 57750 "summary: cycles"
expect_near "$(pcsql "SELECT r.max FROM results r JOIN runs u \
ON u.id = r.run_id JOIN metrics m ON m.id = r.metric_id WHERE u.file_name = \
'summary_per_kernel.csv' AND m.name = 'time' AND r.n = 12")" 44.3e-6 \
	"summary: Maximum in s"

G=sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas
expect_near "$(xv source=b op=$G metric=time)" 148864e-9 "Duration in s"
expect_eq "$(xv source=b op=$G metric=cycles)" 236694 "Elapsed Cycles"
expect_near "$(xv source=b op=$G metric=sm_frequency)" 1589861751.15 \
	"SM Frequency in Hz"
expect_near "$(xv source=b op=$G metric=memory_throughput_pct)" 0.3261 \
	"percent -> fraction"
expect_eq "$(xv source=b metric=solbottleneck)" NONE "rule rows skipped"
FL='void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t>>, false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)'
expect_near "$(xv source=b "op=$FL" metric=time)" 66592e-9 "second launch"

R=sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_on_kernel__5x_cublas
expect_near "$(xv source=r op=$R metric=time)" 22112e-9 "raw: nsecond, 22,112"
expect_eq "$(xv source=r op=$R metric=dram_bytes_read)" 50462720 \
	"raw: thousands separators"
expect_eq "$(xv source=r op=$R metric=time platform)" "NVIDIA H100 80GB HBM3" \
	"raw: platform from device__attribute_display_name"

expect_near "$(xv source=old op=volta_h884gemm_64x64_ldg8_nn metric=time)" \
	12.5e-6 "12-col: mean of two launches"
expect_eq "$(xv source=old op=volta_h884gemm_64x64_ldg8_nn metric=time n)" 2 \
	"12-col: n = launches"
expect_near "$(xv source=old op=volta_h884gemm_64x64_ldg8_nn metric=time stddev)" \
	0.21213203435596475e-6 "12-col: stddev"
expect_eq "$(xv source=old op=volta_h884gemm_64x64_ldg8_nn metric=cycles)" \
	17500 "12-col: cycles 17,290 and 17,710"
expect_near "$(xv source=old op=volta_h884gemm_64x64_ldg8_nn metric=sm_frequency)" \
	1.4e9 "cycle/nsecond -> Hz"
expect_near "$(xv source=old op=volta_h884gemm_64x64_ldg8_nn metric=memory_throughput)" \
	510.215e9 "Gbyte/second -> B/s"
C=cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_256x128x64_2sm
expect_near "$(xv source=new op=$C metric=time)" 1.03125e-3 \
	"usecond and msecond launches averaged"
expect_near "$(xv source=new op=$C metric=time stddev)" 0.0003093592167691146 \
	"mixed-unit stddev"
expect_eq "$(xv source=oldraw op=elementwise_kernel metric=dram_bytes_read)" \
	1024000 "Kbyte is 1000 bytes"
expect_near "$(xv source=oldraw op=elementwise_kernel metric=time)" 3.5e-6 \
	"old raw: usecond"
expect_eq "$(xv source=oldraw op=reduce_kernel metric=dram_bytes_read)" NONE \
	"n/a metric skipped"

expect_refused "bad_details_short.csv:11: expected at least 15 fields, found 9" \
	"details cut mid-row" "$H/bad_details_short.csv"
expect_refused "bad_details_cut.csv:11: unterminated quoted field" \
	"details cut in a field" "$H/bad_details_cut.csv"
expect_refused "bad_details_type.csv:11: 'Duration': 'fast' is not a number" \
	"details wrong type" "$H/bad_details_type.csv"
expect_refused "bad_details_id.csv:7: column 'ID': 'x'" "details bad ID" \
	"$H/bad_details_id.csv"
expect_refused "bad_details_missing.csv:5: missing column 'Metric Value'" \
	"details missing column" --format ncu-details "$H/bad_details_missing.csv"
expect_refused "bad_summary_type.csv:3: column 'Average': '41.2.5' is not a number" \
	"summary wrong type" "$H/bad_summary_type.csv"
expect_refused "bad_raw_short.csv:10: expected 19 fields, found 12" \
	"raw cut mid-row" "$H/bad_raw_short.csv"
expect_refused "bad_raw_type.csv:9: 'gpu__time_duration.sum': '22 112us'" \
	"raw wrong type" "$H/bad_raw_type.csv"
expect_refused "bad_raw_no_units.csv:8: expected the units row" \
	"raw without units row" "$H/bad_raw_no_units.csv"
# issue 16 defect 3: units perfcorr has no dimension for. ncu 2023 (auto
# units) and 2025 (base units) of one kernel: 213.50 Kbyte/block is
# 213.50 x 1000 = 213500 B/block (not 213.5 counts), 213504 byte/block is
# 213504 B/block: the same dimension, the raw unit kept
run pc import -s u23 -k silicon -w u/decode "$H/details_units_2023.csv"
expect_rc 0 "ncu 2023 units"
run pc import -s u25 -k silicon -w u/decode "$H/details_units_2025.csv"
expect_rc 0 "ncu 2025 units"
export_now
KU=sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas
expect_eq "$(xv source=u23 op=$KU metric=dynamic_shared_memory_per_block)" 213500 "Kbyte/block scaled by its prefix"
expect_eq "$(xv source=u23 op=$KU metric=dynamic_shared_memory_per_block unit)" B/block "compound unit stored"
expect_eq "$(xv source=u23 op=$KU metric=dynamic_shared_memory_per_block raw_unit)" Kbyte/block "raw unit kept"
expect_eq "$(xv source=u25 op=$KU metric=dynamic_shared_memory_per_block)" 213504 "byte/block"
expect_eq "$(xv source=u25 op=$KU metric=dynamic_shared_memory_per_block unit)" B/block "the two captures agree"
expect_eq "$(xv source=u23 op=$KU metric=registers_per_thread unit)" register/thread "a word compound is its own unit"
expect_eq "$(xv source=u23 op=$KU metric=executed_ipc_active unit)" inst/cycles "inst/cycle"
expect_eq "$(xv source=u23 op=$KU metric=block_limit_warps raw_unit)" block "a word unit: a count, the word kept"
expect_eq "$(pcsql "SELECT dimension FROM metrics WHERE name = 'dynamic_shared_memory_per_block'")" B/block "metric dimension"
finish
