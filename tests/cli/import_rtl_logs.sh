# Verilator and VCS reports, Chipyard TestDriver and Gemmini cycle prints.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
R=$FIXTURES/rtl

run pc import -s vl -k rtl -w t100/gemm "$SAMPLES/verilator_run.log"
expect_rc 0 "verilator sample"
expect_in "(verilator)" "$err" "auto-detected"
expect_in "rounds the simulated time" "$err" "rounding warned about"
expect_val vl t100/gemm e2e time 3e-6 s
run pc import -s vl2 -k rtl -w mac "$R/verilator_ps.log"
expect_rc 0 "verilator ps"
expect_val vl2 mac e2e time 6.836e-6 s
expect_refused "verilator bad time" "bad_verilator_time.log:2: 'soon'" \
	-s bad -k rtl -w x "$R/bad_verilator_time.log"

run pc import -s vcs -k rtl -w t100/gemm "$R/vcs_run.log"
expect_rc 0 "vcs"
expect_in "(vcs)" "$err" "auto-detected"
expect_val vcs t100/gemm e2e time 3.42e-6 s
expect_refused "vcs without unit" "bad_vcs_unit.log:2: 'Time': no unit" \
	-s bad -k rtl -w x -F vcs "$R/bad_vcs_unit.log"

run pc import -s cy -k rtl -w rocket/gemm_sw "$SAMPLES/chipyard_run.log"
expect_rc 0 "chipyard"
expect_in "(chipyard)" "$err" "auto-detected"
expect_val cy rocket/gemm_sw e2e cycles 2083512 cycles
run pc import -s cyi -k rtl -w rocket/hello "$R/chipyard_insn.log"
expect_val cyi rocket/hello e2e cycles 4140 cycles
expect_val cyi rocket/hello e2e instructions 2077 1
run pc import -s cyt -k rtl -w rocket/hang "$R/chipyard_timeout.log"
expect_rc 0 "failed run imports flagged"
expect_in "FAILED at its cycle limit (timeout, +max-cycles)" "$err" "timeout warned about"
f=$(pcsql "SELECT flags FROM results WHERE run_id =
	(SELECT max(id) FROM runs)")
# issue 39: the +max-cycles timeout hit the cycle limit: invalid (1) and
# capped (8), as GPGPU-Sim's max-cycle break (docs/schema.md)
expect_eq "$f" 9 "timeout flagged invalid and capped"
run pc export results --source cyt --format csv
expect_in ",invalid capped" "$out" "export says capped"
# a failure that is not a timeout is invalid, not capped
printf '*** FAILED *** (code = 3, seed 7) after 4100 simulation cycles\n' \
	> "$T/chipyard_fail.log"
run pc import -s cyf -k rtl -w rocket/bad -F chipyard "$T/chipyard_fail.log"
expect_rc 0 "failed run"
expect_in "the test FAILED: its cycles are flagged invalid" "$err" "failure warned about"
f=$(pcsql "SELECT flags FROM results WHERE run_id =
	(SELECT max(id) FROM runs)")
expect_eq "$f" 1 "a failure that is not a timeout: invalid only"

run pc import -s gm -k rtl -w t100 --clock-mhz 1000 "$SAMPLES/gemmini_run.log"
expect_rc 0 "gemmini"
W=t100/k=64/m=128/n=128
expect_val gm $W gemm cycles 5937 cycles
expect_val gm $W gemm ideal_cycles 4096 cycles
expect_val gm $W gemm macs 1048576 1
expect_val gm $W gemm utilization 0.68 1
expect_val gm t100 e2e cycles 218467 cycles	# the whole program
run pc import -s gm2 -k rtl -w t100 "$R/gemmini_two_tiles.log"
expect_rc 0 "two gemmini tiles, CRLF"
expect_val gm2 t100/k=64/m=64/n=64 gemm cycles 1225 cycles
expect_val gm2 t100/k=128/m=256/n=256 gemm cycles 20110 cycles
expect_val gm2 t100/k=128/m=256/n=256 gemm utilization 0.81 1
expect_refused "gemmini bad count" "bad_gemmini_count.log:2: 'Cycles taken'" \
	-s bad -k rtl -w x "$R/bad_gemmini_count.log"
# a log cut inside its last number ('Cycles taken: 5937' read '593', no
# line end) was stored as 593 cycles; Gemmini and TestDriver end every
# line, so the missing line end is the cut's only sign
G=$SAMPLES/gemmini_run.log
n=$(grep -n 'Cycles taken' "$G" | tail -n 1 | cut -d: -f1)
{ head -n $((n - 1)) "$G"; sed -n "${n}p" "$G" | head -c -2; } > "$T/gemmini_cut.log"
expect_eq "$(tail -n 1 "$T/gemmini_cut.log")" "Cycles taken: 593" "fixture: cut inside the count"
expect_refused "gemmini cut in a number" \
	"gemmini_cut.log:7: the last line has no line end (a cut file?" \
	-s cut -k rtl -w x -F chipyard "$T/gemmini_cut.log"
finish
