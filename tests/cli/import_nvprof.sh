#!/bin/bash
# nvprof --print-gpu-trace --csv: units row, banner lines, aggregation.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
H="$FIXTURES/hw/nvprof"

run pc import -s turing -k silicon -w a/decode "$H/gpu_trace_us.csv"
expect_rc 0 "-u us trace imports"
expect_in "(nvprof-gpu-trace): 4 results" "$err" "auto-detected (2 kernels: time and kernel_time)"
run pc import -s volta -k silicon -w a/decode "$H/gpu_trace_ms_crlf.csv"
expect_rc 0 "default (ms) units, CRLF import"
export_now
K='void gemm_kernel<float, 128>(float*, float const*, int)'
expect_near "$(xv source=turing "op=$K" metric=time)" 100.352e-6 "mean in s"
expect_eq "$(xv source=turing "op=$K" metric=time n)" 4 "instances"
expect_near "$(xv source=turing "op=$K" metric=time stddev)" \
	0.5264624076481312e-6 "stddev"
expect_near "$(xv source=turing op=softmax_kernel metric=time)" 8.288e-6 \
	"second kernel"
expect_eq "$(xv source=turing "op=$K" metric=time platform)" \
	"GeForce RTX 2080 Ti" "platform from Device without (N)"
expect_near "$(xv source=volta op=volta_sgemm_128x64_nn metric=time)" \
	0.375e-3 "ms units row"
expect_refused "bad_cut.csv:9: expected 20 fields, found 11" "cut mid-row" \
	"$H/bad_cut.csv"
expect_refused "bad_type.csv:8: column 'Duration': '1OO.512000'" \
	"wrong type" "$H/bad_type.csv"
expect_refused "bad_units.csv:5: units row: 'Duration' unit 'KB'" \
	"units row with a non-time unit" "$H/bad_units.csv"
# the fixture has no line end after its header: a cut file first
expect_refused "bad_no_units_row.csv:4: the last row has no line end (a cut file?" \
	"header only, cut" "$H/bad_no_units_row.csv"
{ cat "$H/bad_no_units_row.csv"; echo; } > "$T/no_units_row.csv"
expect_refused "no nvprof GPU trace header and units row" "header only" \
	-F nvprof-gpu-trace "$T/no_units_row.csv"
finish
