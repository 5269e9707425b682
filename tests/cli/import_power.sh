#!/bin/bash
# nvidia-smi and DCGM power logs: trapezoid / TOTEC energy, per GPU and
# node, and derived tokens/J checked against a hand calculation.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
H="$FIXTURES/hw/power"
# The hand-calculation fixtures are a few samples long: shorter than the
# 10 sensor resolutions an energy needs (docs/importers.md, "Sensor
# limits"; refused without it, checked at the end). They keep their
# energy with short_window=keep to check the arithmetic.
KEEP="--opt short_window=keep"

# Hand calculation (fixtures/hw/power/smi_2gpu_instant_nounits_crlf.csv,
# power.draw.instant, samples 1 s apart across midnight):
#   GPU0 100, 200, 300 W: E = (100+200)/2 + (200+300)/2 = 400 J, mean 200 W
#   GPU1  50,  50, 110 W: E = (50+50)/2 + (50+110)/2    = 130 J, mean  70 W
#   node: E = 530 J, power 270 W
# bench_for_energy.json: 5300 output tokens, 2650 tok/s
#   tokens/J = 5300 / 530 = 10;  tokens/s/W = 2650 / 270 = 9.8148148...
run pc import -s lab -k silicon -w m/decode $KEEP "$H/smi_2gpu_instant_nounits_crlf.csv"
expect_rc 0 "two-GPU nvidia-smi log imports"
expect_in "(nvidia-smi): 12 results" "$err" "auto-detected"
run pc import -s lab -w m/decode "$H/bench_for_energy.json"
expect_rc 0 "benchmark of the same workload imports"
expect_in "2 derived" "$err" "efficiency derived"
export_now
expect_near "$(xv source=lab op=gpu0 metric=energy)" 400 "GPU0 trapezoid energy"
expect_near "$(xv source=lab op=gpu1 metric=energy)" 130 "GPU1 trapezoid energy"
expect_near "$(xv source=lab op=e2e metric=energy)" 530 "node energy = sum"
expect_near "$(xv source=lab op=gpu0 metric=power)" 200 "GPU0 mean power"
expect_near "$(xv source=lab op=gpu0 metric=power stddev)" 100 "power stddev"
expect_eq "$(xv source=lab op=gpu0 metric=power n)" 3 "power samples"
expect_near "$(xv source=lab op=e2e metric=power)" 270 "node power = sum"
expect_near "$(xv source=lab op=gpu1 metric=utilization)" 0.3 \
	"[N/A] sample skipped, percent -> fraction"
expect_eq "$(xv source=lab op=gpu1 metric=utilization n)" 2 "two samples"
expect_eq "$(xv source=lab op=e2e metric=memory_used)" 3221225472 \
	"node memory = sum of MiB in bytes"
expect_eq "$(pcsql "SELECT r.max FROM results r JOIN \
ops o ON o.id = r.op_id JOIN metrics m ON m.id = r.metric_id WHERE o.name = \
'gpu0' AND m.name = 'power' AND r.run_id = 1" | cut -c1-5)" 300.0 "max power"
W=m/decode/max_concurrency=8/num_prompts=100/request_rate=inf
expect_near "$(xv source=lab workload=$W metric=tokens_per_joule)" 10 \
	"tokens/J = 5300 / 530"
expect_near "$(xv source=lab workload=$W metric=tokens_per_s_per_watt)" \
	9.814814814814815 "tokens/s/W = 2650 / 270"
expect_eq "$(pcsql "SELECT r.flags FROM results r JOIN \
metrics m ON m.id = r.metric_id WHERE m.name = 'tokens_per_joule'")" 4 \
	"flagged derived"
expect_in '"power_column":"power.draw.instant"' "$(pcsql \
	"SELECT metadata FROM runs WHERE id = 1")" "instant power preferred"
expect_in '"sample_interval_s":"1"' "$(pcsql \
	"SELECT metadata FROM runs WHERE id = 1")" "sampling interval recorded"

# the other order: benchmark first, then the power log derives
run pc import -s lab2 -k silicon -w m/decode "$H/bench_for_energy.json"
expect_rc 0 "benchmark first"
run pc import -s lab2 -w m/decode $KEEP "$H/smi_2gpu_instant_nounits_crlf.csv"
expect_in "2 derived" "$err" "the power log derives for the benchmark"
export_now
expect_near "$(xv source=lab2 workload=$W metric=tokens_per_joule)" 10 \
	"tokens/J either order"

# noheader,nounits with --opt query; a log without power
run pc import -s q -k silicon -w q/decode --opt query=timestamp,index,power.draw \
	$KEEP "$H/smi_noheader_query.csv"
expect_rc 0 "noheader log with --opt query"
expect_in "(nvidia-smi)" "$err" "noheader log detected"
run pc import -s np -k silicon -w q/decode "$H/smi_no_power.csv"
expect_rc 0 "no power column is not a failure"
expect_in "no power.draw column: utilisation and memory only" "$err" "noted"
run pc import -s s -k silicon -w llama3-8b/decode $KEEP "$SAMPLES/nvidia_smi_power.csv"
expect_rc 0 "sample nvidia-smi log"
run pc import -s d -k silicon -w llama3-8b/decode $KEEP "$SAMPLES/dcgmi_dmon.txt"
expect_rc 0 "sample dcgmi dmon"
run pc import -s d2 -k silicon -w d/decode --opt interval_ms=1000 \
	$KEEP "$H/dmon_2gpu_powinst.txt"
expect_rc 0 "dmon with POWINST, two GPUs, repeated header"
export_now
# 0.5 s apart: (250+250)/2*0.5 + (250+350)/2*0.5 + (350+350)/2*0.5 = 450 J
expect_near "$(xv source=q metric=energy)" 450 "noheader energy"
expect_near "$(xv source=np metric=utilization)" 0.3 "utilisation only"
expect_eq "$(xv source=np metric=energy)" NONE "no energy without power"
expect_eq "$(xv source=np metric=pstate)" NONE "text column skipped"
# sample: computed with the statistics module from the 20 rows
expect_near "$(xv source=s metric=energy)" 967.3562754559518 "sample trapezoid"
expect_near "$(xv source=s metric=power)" 486.901 "sample mean power"
expect_near "$(xv source=s metric=power stddev)" 192.3799514365695 1e-9 \
	"sample power stddev"
expect_eq "$(xv source=s metric=power platform)" "NVIDIA H100 80GB HBM3" \
	"GPU name as platform"
# TOTEC: (8735480713 - 8734518660) mJ = 962.053 J; interval estimated
# as 962.053 / sum of sample-pair mean powers = 0.1000002 s
expect_near "$(xv source=d metric=energy)" 962.053 "TOTEC difference"
expect_near "$(xv source=d metric=power)" 487.0695 "DCGM mean power"
expect_near "$(xv source=d metric=utilization)" 0.7495 "GPUTL percent"
expect_in '"sample_interval_s":"0.1"' "$(pcsql \
	"SELECT metadata FROM runs WHERE file_name = 'dcgmi_dmon.txt'")" \
	"interval estimated from TOTEC"
expect_near "$(xv source=d2 op=gpu0 metric=energy)" 400 "POWINST trapezoid"
expect_near "$(xv source=d2 op=e2e metric=energy)" 420 "two GPUs summed"
expect_near "$(xv source=d2 op=gpu0 metric=sm_active)" 0.5 "SMACT ratio"

# CRLF and BOM variants; DCGM at -d 500 with TOTEC on two GPUs:
# GPU0 200 W x 3 x 0.5 s = 300 J, GPU1 300 W -> 450 J (counter steps)
run pc import -s bom -k silicon -w b/decode $KEEP "$H/dmon_totec_crlf_bom.txt"
expect_rc 0 "dmon CRLF + BOM"
expect_in "(dcgm-dmon)" "$err" "BOM dmon detected"
run pc import -s smibom -k silicon -w b/decode $KEEP "$H/smi_bom.csv"
expect_rc 0 "nvidia-smi with BOM"
export_now
expect_near "$(xv source=bom op=gpu0 metric=energy)" 300 "TOTEC GPU0"
expect_near "$(xv source=bom op=e2e metric=energy)" 750 "TOTEC node"
expect_near "$(xv source=bom op=gpu1 metric=utilization)" 0.51 \
	"GPUTL with a blank unit is percent"
expect_in '"sample_interval_s":"0.5"' "$(pcsql \
	"SELECT metadata FROM runs WHERE file_name = 'dmon_totec_crlf_bom.txt'")" \
	"interval 0.5 s estimated"
expect_near "$(xv source=smibom metric=energy)" 967.3562754559518 "BOM smi"

expect_refused "bad_smi_cut.csv:7: expected 8 fields, found 3" "smi cut" \
	"$H/bad_smi_cut.csv"
expect_refused "bad_smi_type.csv:5: column 'power.draw': 'fast W' is not a number" \
	"smi wrong type" "$H/bad_smi_type.csv"
expect_refused "bad_smi_back.csv:9: time goes backwards" "smi time backwards" \
	"$H/bad_smi_back.csv"
expect_refused "bad_smi_unit.csv:6: column 'power.draw': unit 'kW' but the header says 'W'" \
	"smi unit mismatch" "$H/bad_smi_unit.csv"
expect_refused "smi_noheader_query.csv:1: no header line" "noheader without query" \
	"$H/smi_noheader_query.csv"
expect_refused "bad_dmon_cut.txt:9: expected 4 values after the entity, found 2" \
	"dmon cut" "$H/bad_dmon_cut.txt"
expect_refused "bad_dmon_type.txt:6: field 'POWER': '527,409' is not a number" \
	"dmon wrong type" "$H/bad_dmon_type.txt"
expect_refused "bad_dmon_totec.txt:7: the energy counter of '0' goes backwards" \
	"TOTEC backwards" "$H/bad_dmon_totec.txt"
expect_refused "bad_dmon_header.txt:18: the header changed" "dmon header change" \
	"$H/bad_dmon_header.txt"
expect_refused "empty file" "empty" --format dcgm-dmon "$FIXTURES/hw/nsys/bad_empty.csv"
# issue 16 defect 6: [N/A] power samples. Samples at t = 0..4 s: 100 W,
# -, -, 400 W, 400 W. Sample mean (100 + 400 + 400) / 3 = 300 W is biased
# by the gap; the time-weighted mean is the trapezoid energy over the span:
# (100 + 400) / 2 * 3 s + (400 + 400) / 2 * 1 s = 1150 J over 4 s = 287.5 W
run pc import -s gaps -k silicon -w g/decode $KEEP "$H/smi_power_gaps.csv"
expect_rc 0 "power log with missing samples"
export_now
expect_eq "$(xv source=gaps op=e2e metric=power)" 287.5 "time-weighted mean power"
expect_eq "$(xv source=gaps op=e2e metric=power min)" 100 "power keeps its minimum"
expect_eq "$(xv source=gaps op=e2e metric=power max)" 400 "and its maximum"
expect_eq "$(xv source=gaps op=e2e metric=power n)" 3 "n = samples present"
expect_eq "$(xv source=gaps op=e2e metric=energy)" 1150 "energy"
expect_in "time-weighted (energy / span: 2 of 5 samples missing)" \
	"$(pcsql "SELECT metadata FROM runs WHERE file_name = 'smi_power_gaps.csv'")" \
	"says how the mean was taken"

# issue 37 item 3: sensor limits. power.draw is NVML's 1 s moving average
# on Ampere/Hopper; an energy needs a window of 10 sensor resolutions.
# 300 ms of it at 100 ms would have stored (300+310+320+330 mean) x 0.3 s
# as "energy": refused, naming the window, the resolution and the cures
run pc import -s short -k silicon -w s/decode "$H/smi_short_300ms.csv"
expect_rc 1 "a 300 ms window of a 1 s-averaged sensor is refused"
expect_in "an energy over 0.3 s is not a measurement: the power sensor's resolution is 1 s (nvidia-smi power.draw: a 1 s average on Ampere/Hopper) and an energy window needs 10 of them (10 s)" \
	"$err" "the refusal names the window and the sensor"
expect_in "--opt short_window=drop" "$err" "and the cures"
expect_eq "$(pcsql "SELECT count(*) FROM runs r JOIN sources s ON s.id = \
r.source_id WHERE s.name = 'short'")" 0 "nothing stored"
run pc import -s short -k silicon -w s/decode --opt short_window=drop \
	"$H/smi_short_300ms.csv"
expect_rc 0 "drop: power without energy"
expect_in "energy not stored: the log covers 0.3 s, under 10 x the sensor's 1 s resolution" \
	"$err" "drop says so"
export_now
expect_eq "$(xv source=short metric=energy)" NONE "no energy after drop"
expect_near "$(xv source=short metric=power)" 315 "power kept"
# a dropped energy's power derives no tokens/J from the benchmark's
# duration (the benchmark first, then the short log of the same source)
run pc import -s lab3 -k silicon -w m/decode "$H/bench_for_energy.json"
expect_rc 0 "benchmark for the dropped log"
run pc import -s lab3 -w m/decode --opt short_window=drop "$H/smi_short_300ms.csv"
expect_rc 0 "dropped log after its benchmark"
expect_in "1 derived" "$err" "tokens/s/W only"
export_now
expect_eq "$(xv source=lab3 workload=$W metric=tokens_per_joule)" NONE \
	"no tokens/J from a dropped energy's power"
expect_near "$(xv source=lab3 workload=$W metric=tokens_per_s_per_watt)" \
	"$(python3 -c 'print(2650 / 315)')" "tokens/s/W = 2650 / 315"
# a faster sensor stated by the user: 4 samples 0.1 s apart need 1 s
run pc import -s short2 -k silicon -w s/decode --opt sensor_window_ms=0 \
	"$H/smi_short_300ms.csv"
expect_rc 1 "instantaneous samples: still 3 intervals of 0.1 s < 1 s"
expect_in "resolution is 0.1 s (the mean sample interval)" "$err" \
	"the sample interval bounds it then"
run pc import -s short2 -k silicon -w s/decode --opt short_window=maybe \
	"$H/smi_short_300ms.csv"
expect_rc 2 "a bad short_window value is a usage error"
expect_in "--opt short_window='maybe': expected refuse, drop or keep" "$err" \
	"and says the choices"
# 60 s at 1 s: imported, its resolution recorded
run pc import -s long -k silicon -w l/decode "$H/smi_60s.csv"
expect_rc 0 "a 60 s window imports"
export_now
# trapezoid: 29 x 300 + 350 + 30 x 400 = 21050 J
expect_near "$(xv source=long metric=energy)" 21050 "60 s energy"
M=$(pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id \
WHERE s.name = 'long'")
expect_in '"sensor_window_s":"1"' "$M" "averaging window recorded"
expect_in '"sensor_window_source":"nvidia-smi power.draw: a 1 s average on Ampere/Hopper"' \
	"$M" "and where it comes from"
expect_in '"sensor_resolution_s":"1"' "$M" "resolution recorded"
expect_in '"energy_window_s":"60"' "$M" "energy window recorded"
# keep: stored and said in the metadata
expect_in '"energy_window":"shorter than the sensor' "$(pcsql "SELECT metadata \
FROM runs WHERE file_name = 'smi_power_gaps.csv'")" "keep is recorded"
# a dmon log cut inside its last number ('37' read '3', no line end) was
# stored as 3; dcgmi ends every line, so the missing line end is the cut's
# only sign (a log still being written is refused the same way)
D=$SAMPLES/dcgmi_dmon.txt
{ head -n -1 "$D"; tail -n 1 "$D" | sed 's/ 0 *$/ 37/' | head -c -2; } > "$T/dmon_cut_number.txt"
expect_eq "$(tail -n 1 "$T/dmon_cut_number.txt" | awk '{ print $NF }')" 3 "fixture: cut inside the last value"
expect_refused "dmon_cut_number.txt:24: the last line has no line end (a cut file?" \
	"dmon cut in a number" -F dcgm-dmon "$T/dmon_cut_number.txt"
finish
