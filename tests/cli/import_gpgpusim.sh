# GPGPU-Sim / Accel-Sim logs: per-kernel gpu_sim_cycle, instances, clock.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
S=$FIXTURES/sim
GEMM=_Z17gemm_bf16_tile_tcILi128ELi128ELi32EEvPK13__nv_bfloat16S2_PS0_iii
NORM=_Z13rms_norm_bf16P13__nv_bfloat16PKS_S2_fii

run pc import -s gs -k perfsim -w llama3-8b/prefill "$SAMPLES/gpgpusim_run.log"
expect_rc 0 "sample imports"
expect_in "(gpgpusim)" "$err" "auto-detected"
W=llama3-8b/prefill
expect_val gs $W $GEMM cycles 244871 cycles
# the second kernel's own cycles, not the cumulative 281985
expect_val gs $W $NORM cycles 37114 cycles
expect_val gs $W $NORM instructions 75497472 1
expect_val gs $W $GEMM ipc 7810.6539 1
expect_val gs $W $NORM achieved_occupancy 0.884106 1
expect_val gs $W $GEMM l2_bandwidth 1523.4417e9 B/s
run pc runs --format csv
expect_in ",1755000000," "$out" "core clock from -gpgpu_clock_domains"

# repeated launches are instances name--N; CRLF
run pc import -s rep -k perfsim -w toy "$S/gpgpusim_repeated.log"
expect_rc 0 "repeated kernels"
expect_val rep toy _Z6matmulPfS_S_i--1 cycles 1000 cycles
expect_val rep toy _Z6matmulPfS_S_i--2 cycles 1100 cycles
expect_val rep toy _Z6matmulPfS_S_i--3 cycles 1050 cycles
expect_val rep toy _Z6matmulPfS_S_i--3 ipc 47.619 1
expect_val rep toy _Z4reluPfi cycles 200 cycles
expect_val rep toy _Z4reluPfi l2_bandwidth 50.25e9 B/s

# a mapping rule sums the instances into one op
printf '[{"match": "matmul", "op": "gemm"}]\n' > "$T/map.json"
run pc import -s repm -k perfsim -w toy --map "$T/map.json" "$S/gpgpusim_repeated.log"
expect_val repm toy gemm cycles 3150 cycles

# the cycle limit: the cut kernel is flagged invalid; no clock in the log
run pc import -s cut -k perfsim -w toy "$S/gpgpusim_maxcycles.log"
expect_rc 0 "stopped at the limit"
expect_in "gpgpusim_maxcycles.log:31: the simulation stopped at its cycle or instruction limit" "$err" "warning about the limit"
expect_val cut toy _Z1aPf+_Z1bPf cycles 500 cycles
meta=$(pcsql "SELECT metadata FROM runs WHERE file_name = 'gpgpusim_maxcycles.log'")
expect_in '"simulator":"GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-90ec3399763d7c8512cfe7dc193473086c38ca38_modified_0.0]"}' \
	"$meta" "simulator version kept"
expect_in "(gpgpusim)" "$(pc import -s cut2 -k perfsim -w toy "$S/gpgpusim_maxcycles.log" 2>&1)" \
	"a version banner first still detects"

flags=$(pcsql "SELECT group_concat(DISTINCT r.flags) FROM results r
	JOIN ops o ON o.id = r.op_id JOIN runs u ON u.id = r.run_id
	JOIN sources s ON s.id = u.source_id WHERE s.name = 'cut' AND o.name = '_Z4longPf'")
expect_eq "$flags" "9" "cut kernel flagged invalid (1) and capped (8)"

expect_refused "block without gpu_sim_cycle" "bad_gpgpusim_nocycle.log:3: kernel '_Z1kPf' has no gpu_sim_cycle" \
	-s bad -k perfsim -w x "$S/bad_gpgpusim_nocycle.log"
expect_refused "bad ipc" "bad_gpgpusim_number.log:7: 'gpu_ipc'" \
	-s bad -k perfsim -w x "$S/bad_gpgpusim_number.log"
finish
