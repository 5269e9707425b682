# Content detection of the model, simulator and RTL formats: every file
# goes to its importer with no --format, and no two importers tie.
. "$(dirname "$0")/../cli/lib.sh"
F=$FIXTURES

check() { # file expected-format
	rm -f "$PERFCORR_DB"
	local o=()	# only llm-viewer reads layers; other formats refuse it
	[ "$2" = llm-viewer ] && o=(-o layers=1)
	run pc import -s d -k perfsim -w w "${o[@]}" "$1"
	expect_in "($2)" "$err" "$(basename "$1") detected as $2"
	expect_not_in "cannot tell the format" "$err" "$(basename "$1") no tie"
}
check "$SAMPLES/llm_viewer_decode.csv" llm-viewer
check "$F/models/Llama-2-7b-hf_prefill.csv" llm-viewer
check "$SAMPLES/llm_analysis_summary.json" llm-analysis
check "$F/models/llama2-13b-tp2-summary.json" llm-analysis
check "$SAMPLES/genz_ops.csv" genz
check "$F/models/genz_decode_13b.csv" genz
check "$SAMPLES/llmcompass/matmul_A100_measured.csv" llmcompass
check "$SAMPLES/llmcompass/matmul_MI210_measured.csv" llmcompass
check "$F/models/matmul_sim_4096.csv" llmcompass
check "$F/models/transformer_simulate_log.csv" llmcompass
check "$F/models/transformer_A100.csv" llmcompass
check "$SAMPLES/scalesim_v2_COMPUTE_REPORT.csv" scalesim
check "$SAMPLES/scalesim_v3_COMPUTE_REPORT.csv" scalesim
check "$F/sim/scalesim_BANDWIDTH_REPORT.csv" scalesim
check "$F/sim/alexnet_cycles.csv" scalesim
check "$SAMPLES/gpgpusim_run.log" gpgpusim
check "$F/sim/gpgpusim_repeated.log" gpgpusim
check "$F/sim/gem5_stats_v20.txt" gem5
check "$SAMPLES/gem5_stats.txt" gem5
check "$SAMPLES/timeloop-model.stats.txt" timeloop
check "$F/sim/timeloop-mapper.stats.txt" timeloop
check "$SAMPLES/cocotb_results_v1.xml" cocotb
check "$SAMPLES/cocotb_results_v2.xml" cocotb
check "$F/rtl/cocotb_pytest.xml" cocotb
check "$SAMPLES/verilator_run.log" verilator
check "$F/rtl/vcs_run.log" vcs
check "$SAMPLES/chipyard_run.log" chipyard
check "$SAMPLES/gemmini_run.log" chipyard

# accelsim-stats: its apps name the workloads (no --workload)
rm -f "$PERFCORR_DB"
run pc import -s d -k perfsim -o config=QV100-SASS "$F/sim/accelsim_get_stats_R.csv"
expect_in "(accelsim-stats)" "$err" "accelsim stats detected"

# a log nobody claims is refused, naming the scores
rm -f "$PERFCORR_DB"
run pc import -s d -k rtl -w w "$F/rtl/tb_inhouse.log"
expect_rc 1 "unknown log refused"
expect_in "cannot tell the format" "$err" "says why"
run pc formats
for f in llm-viewer llm-analysis genz llmcompass scalesim gpgpusim \
	accelsim-stats gem5 timeloop cocotb verilator vcs chipyard regex-log; do
	expect_in "$f" "$out" "formats lists $f"
done
finish
