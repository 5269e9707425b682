# SCALE-Sim v1/v2/v3 reports, --topology join, bandwidth report.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
S=$FIXTURES/sim

run pc import -s ss3 -k perfsim -w t100/gemm "$SAMPLES/scalesim_v3_COMPUTE_REPORT.csv"
expect_rc 0 "v3 imports"
expect_in "(scalesim)" "$err" "auto-detected"
expect_val ss3 t100/gemm layer0 cycles 5568 cycles
expect_val ss3 t100/gemm layer0 cycles_incl_prefetch 5952 cycles
expect_val ss3 t100/gemm layer2 utilization 0.8489998963623174 1
expect_val ss3 t100/gemm layer1 mapping_efficiency 1 1
expect_val ss3 t100/gemm e2e cycles 26368 cycles

run pc import -s ss2 -k perfsim -w t100/gemm --clock-mhz 1500 \
	--topology "$S/gemm_topology.csv" "$S/scalesim_v2_gemm_COMPUTE_REPORT.csv"
expect_rc 0 "v2 with topology, CRLF"
expect_val ss2 t100/gemm QKT cycles 5568 cycles
expect_val ss2 t100/gemm SV stall_cycles 12 cycles
expect_val ss2 t100/gemm FFN1 compute_utilization 0.8476821192052981 1
run pc runs --format csv
expect_in ",1500000000," "$out" "clock kept with the cycles"
run pc import -s ss2v -k perfsim -w t100/gemm "$SAMPLES/scalesim_v2_COMPUTE_REPORT.csv"
expect_val ss2v t100/gemm layer1 cycles 11136 cycles

run pc import -s bw -k perfsim -w t100/gemm --topology "$S/gemm_topology.csv" \
	"$S/scalesim_BANDWIDTH_REPORT.csv"
expect_rc 0 "bandwidth report"
expect_val bw t100/gemm QKT ifmap_sram_bw 29.338590881967885 1
expect_val bw t100/gemm SV ofmap_dram_bw 16 1

run pc import -s v1 -k perfsim -w alexnet "$S/alexnet_cycles.csv"
expect_rc 0 "v1 cycles file"
expect_val v1 alexnet Conv1 cycles 112283 cycles
expect_val v1 alexnet Conv2 utilization 0.885 1

expect_refused "ragged row" "bad_scalesim_ragged.csv:3: expected 7 fields" \
	-s bad -k perfsim -w x "$S/bad_scalesim_ragged.csv"
expect_refused "layer beyond topology" "bad_scalesim_layer.csv:3: layer 7" \
	-s bad -k perfsim -w x --topology "$S/gemm_topology.csv" "$S/bad_scalesim_layer.csv"
expect_refused "missing topology" "cannot open topology" \
	-s bad -k perfsim -w x --topology "$S/none.csv" "$S/bad_scalesim_layer.csv"
finish
