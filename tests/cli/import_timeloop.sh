# Timeloop stats summary: cycles, energy, utilisation, computes.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
S=$FIXTURES/sim

run pc import -s tl -k perfsim -w t100/gemm/m=128/n=128/k=64 "$SAMPLES/timeloop-model.stats.txt"
expect_rc 0 "sample imports"
expect_in "(timeloop)" "$err" "auto-detected"
W=t100/gemm/k=64/m=128/n=128
expect_val tl $W e2e cycles 4352 cycles
expect_val tl $W e2e energy 5.05e-6 J
expect_val tl $W e2e utilization 0.9412 1
expect_val tl $W e2e macs 1048576 1
expect_val tl $W e2e flops 2080768 FLOP
expect_val tl $W e2e energy_per_compute 4814.07e-15 J

run pc import -s tm -k perfsim -w t100/gemm --clock-mhz 1000 "$S/timeloop-mapper.stats.txt"
expect_rc 0 "mapper stats, pJ/Compute"
expect_val tm t100/gemm e2e cycles 16384 cycles
expect_val tm t100/gemm e2e energy 19.73e-6 J
expect_val tm t100/gemm e2e energy_per_compute 4.704e-12 J
expect_val tm t100/gemm e2e utilization 1 1

expect_refused "bad cycles" "bad_timeloop_number.txt:5: 'Cycles'" \
	-s bad -k perfsim -w x "$S/bad_timeloop_number.txt"
expect_refused "no summary" "no 'Summary Stats' block" \
	-s bad -k perfsim -w x "$S/bad_timeloop_nosummary.txt"
finish
