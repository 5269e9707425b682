# Cycles and clocks across tiers: SCALE-Sim cycles (perfsim) pair with
# cocotb simulated time (RTL) through the runs' clocks; without a clock
# the pairing is refused naming the run.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
F=$FIXTURES
MAP=$F/rtl/tile_map.json

run pc import -s rtl -k rtl -w t100/gemm --clock-mhz 1500 --map "$MAP" \
	"$SAMPLES/cocotb_results_v1.xml"
expect_rc 0 "RTL times"
run pc import -s sim -k perfsim -w t100/gemm --map "$MAP" \
	--topology "$F/sim/gemm_topology.csv" "$F/sim/scalesim_v2_gemm_COMPUTE_REPORT.csv"
expect_rc 0 "simulator cycles without a clock"
run pc compare --model sim --ref rtl
expect_rc 1 "no clock: refused"
expect_in "run 2 ('scalesim_v2_gemm_COMPUTE_REPORT.csv') of source 'sim' has no clock" \
	"$err" "names the run"

run pc import -s sim2 -k perfsim -w t100/gemm --clock-mhz 1500 --map "$MAP" \
	--topology "$F/sim/gemm_topology.csv" "$F/sim/scalesim_v2_gemm_COMPUTE_REPORT.csv"
expect_rc 0 "simulator cycles at 1.5 GHz"
run pc compare --model sim2 --ref rtl --format csv
expect_rc 0 "pairs through the clocks"
# 5568, 11136, 9664 cycles / 1.5 GHz = 3.712, 7.424, 6.442667 us against
# 3.420, 6.836, 6.572 us: errors +8.538%, +8.602%, -1.968%
bias=$(printf '%s\n' "$out" | awk -F, 'NR == 2 { print $2, $4 }')
expect_eq "${bias% *}" 3 "three pairs"
awk -v b="${bias#* }" 'BEGIN { d = b - 0.0505719608; exit !(d < 1e-9 && d > -1e-9) }' &&
	ok || fail "bias ${bias#* }, expected 0.0505719608"
finish
