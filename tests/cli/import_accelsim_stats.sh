# Accel-Sim get_stats.py CSV blocks: APPS and CFG (-R) layouts.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
S=$FIXTURES/sim
BP=rodinia_2.0-ft_backprop-rodinia-2.0-ft_4096___data_result_4096_txt
HS=rodinia_2.0-ft_hotspot-rodinia-2.0-ft_30_6_40___result_30_6_40_txt

run pc import -s as -k perfsim "$S/accelsim_get_stats.csv"
expect_rc 0 "APPS layout"
expect_in "(accelsim-stats)" "$err" "auto-detected"
expect_in "gpgpu_simulation_time" "$err" "unknown stat warned about"
expect_val as $BP _Z22bpnn_layerforward_CUDAPfS_S_S_ii--1 cycles 41225 cycles
expect_val as $BP _Z24bpnn_adjust_weights_cudaPfiS_iS_S_--1 cycles 18337 cycles
expect_val as $BP _Z22bpnn_layerforward_CUDAPfS_S_S_ii--1 ipc 1529.8308 1
expect_val as $BP _Z22bpnn_layerforward_CUDAPfS_S_S_ii--1 achieved_occupancy 0.875 1
expect_val as $HS _Z14calculate_tempiPfS_S_iiiiffffff--1 ipc 812.25 1
expect_eq "$(get as $HS _Z14calculate_tempiPfS_S_iiiiffffff--1 cycles)" "" "NA is missing"
run pc runs --format csv
expect_in "QV100-SASS" "$out" "config is the platform"

expect_refused "two configs need a choice" "accelsim_get_stats_R.csv:5: several configs" \
	-s r -k perfsim "$S/accelsim_get_stats_R.csv"
run pc import -s r -k perfsim -o config=RTX2060-SASS "$S/accelsim_get_stats_R.csv"
expect_rc 0 "CFG layout with --opt config"
expect_val r cfd-rodinia-3.1_missile_domn_0_2M final_kernel cycles 234567 cycles
expect_val r bfs-rodinia-3.1_graph1MW_6_txt final_kernel l2_bandwidth 120e9 B/s

expect_refused "cell without --kernel" "bad_accelsim_cell.csv:5: 'backprop-rodinia-2.0-ft/4096_no_kernel'" \
	-s bad -k perfsim "$S/bad_accelsim_cell.csv"
finish
