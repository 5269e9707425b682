# Headless: the summary view's Enter lists the group under the cursor
# (the Discrepancies view filtered to it), and its scatter shows one
# metric at a time (m cycles; grouped by metric, the cursor's metric):
# a scatter never pools time in seconds with power in watts.
. "$(dirname "$0")/../tui/libtui.sh"

# time in us, power in W; op classes: gemm (gemm_qkv, lm_head),
# attention (flash_attn), e2e (power)
cat >"$T/ref.csv" <<CSV
workload,op,metric,value,unit
m/bs=1,gemm_qkv,time,100,us
m/bs=1,lm_head,time,10,us
m/bs=1,flash_attn,time,50,us
m/bs=8,gemm_qkv,time,200,us
m/bs=8,lm_head,time,20,us
m/bs=8,flash_attn,time,100,us
m/bs=1,e2e,power,300,W
m/bs=8,e2e,power,400,W
CSV
cat >"$T/sim.csv" <<CSV
workload,op,metric,value,unit
m/bs=1,gemm_qkv,time,110,us
m/bs=1,lm_head,time,13,us
m/bs=1,flash_attn,time,40,us
m/bs=8,gemm_qkv,time,190,us
m/bs=8,lm_head,time,25,us
m/bs=8,flash_attn,time,100,us
m/bs=1,e2e,power,330,W
m/bs=8,e2e,power,380,W
CSV
pc init >/dev/null
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
pc import -q --source sim --kind perfsim --version 1 "$T/sim.csv"

# summary by op class: (all), then the classes in key order:
# attention, e2e, gemm
tui_script 120 40 <<KEYS
2
:save-screen $T/summary.screen
m
:save-screen $T/summary_m.screen
jjj
<Enter>
:save-screen $T/drill.screen
2
bb
j
:save-screen $T/bymetric_power.screen
j
:save-screen $T/bymetric_time.screen
b
:save-screen $T/byworkload.screen
b
:save-screen $T/byparam.screen
j
<Enter>
:save-screen $T/param_refused.screen
Q
KEYS
expect_rc 0 "summary drill"
S=$(cat "$T/summary.screen")
expect_in "time: model vs reference, log-log (m: metric)" "$S" \
	"the scatter is of one metric (time has the most points)"
# axis labels in time units: 10 us .. 1 ms (values 10 us .. 200 us)
expect_in "10 us" "$S" "time axis low in us (ASCII locale)"
expect_not_in " W" "$(sed -n '/time: model vs reference/,$p' "$T/summary.screen" | head -20)" \
	"no watts on the time scatter"
M=$(cat "$T/summary_m.screen")
expect_in "power: model vs reference" "$M" "m: the power scatter"
expect_in "100 W" "$M" "power axis in W (300..400 W: 100 W .. 1 kW)"
expect_in "1 kW" "$M" "power axis top"
D=$(cat "$T/drill.screen")
expect_in "Discrepancies" "$(screen_line "$T/drill.screen" 1)" \
	"Enter opens the list"
expect_in "rows match 'class=gemm' (the op_class group of the summary; F clears)" \
	"$D" "status names the filter"
expect_eq "$(awk '$2 == "gemm_qkv" || $2 == "lm_head" || $2 == "flash_attn" || $2 == "e2e" { print $2 }' "$T/drill.screen" | sort | uniq -c | awk '{ print $2 "=" $1 }' | tr '\n' ' ')" \
	"gemm_qkv=2 lm_head=2 " "the list holds gemm's four rows only"
expect_in "power: model vs reference" "$(cat "$T/bymetric_power.screen")" \
	"grouped by metric: the cursor's metric (power)"
expect_in "time: model vs reference" "$(cat "$T/bymetric_time.screen")" \
	"grouped by metric: the cursor's metric (time)"
expect_in "the list cannot filter by param.bs" "$(cat "$T/param_refused.screen")" \
	"a parameter group is refused with the cause"
finish
