# gem5 stats.txt: dump blocks, both naming styles, clock, nan/inf.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
S=$FIXTURES/sim

run pc import -s g5 -k perfsim -w t100/gemm "$SAMPLES/gem5_stats.txt"
expect_rc 0 "sample imports"
expect_in "(gem5)" "$err" "auto-detected"
# simTicks / simFreq, not the 6-decimal simSeconds
expect_val g5 t100/gemm dump1 time 3.625812e-6 s
expect_val g5 t100/gemm dump2 time 6.991494e-6 s
expect_val g5 t100/gemm dump1 cycles 5436 cycles
expect_val g5 t100/gemm dump2 cycles 10482 cycles
expect_val g5 t100/gemm dump2 instructions 6185 1
expect_val g5 t100/gemm dump1 ipc 0.591979 1
run pc runs --format csv
expect_in ",1499250374.81" "$out" "clock = simFreq / 667 ticks"

# old snake_case, one block -> e2e, cpu clock domain, nan ipc skipped
run pc import -s old -k perfsim -w t100/gemm "$S/gem5_stats_v20.txt"
expect_rc 0 "v20 names"
expect_in "'system.cpu.ipc' is nan" "$err" "nan warned about"
expect_val old t100/gemm e2e time 1e-5 s
expect_val old t100/gemm e2e cycles 20000 cycles
expect_val old t100/gemm e2e instructions 12000 1
expect_eq "$(get old t100/gemm e2e ipc)" "" "nan is missing"
run pc runs --format csv
expect_in ",2000000000," "$out" "clock from cpu_clk_domain (500 ticks)"

expect_refused "unclosed block" "bad_gem5_unclosed.txt:7: the block that begins at line 2" \
	-s bad -k perfsim -w x "$S/bad_gem5_unclosed.txt"
expect_refused "bad number" "bad_gem5_number.txt:6: 'system.cpu.numCycles'" \
	-s bad -k perfsim -w x "$S/bad_gem5_number.txt"
finish
