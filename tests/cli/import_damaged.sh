#!/usr/bin/env bash
# Every importer against a damaged copy of its own fixture (QA audit): (a)
# the file cut in the middle of its last data line (the last line that
# holds a digit), no line end after the cut, as a full disk or a killed
# copy leaves it, and (a') cut inside that line's last number, where
# every field is still there; (b) one unit the format writes replaced by
# 'furlongs'.
# Each is refused (exit 1, the message names the copy and a line, the
# database byte-identical), or the table says why the format cannot tell
# (accept: REASON, then the import is asserted to succeed, so the table
# stays true), or that the format writes no unit (none: REASON). Every
# format `perfcorr formats` lists must have a row, so a new importer is
# audited as soon as it is registered. Per-format tests hold the finer
# cases (import_cut_row.sh, import_<format>.sh).
. "$(dirname "$0")/lib.sh"
F=$FIXTURES
pc init >/dev/null
pc import -q -s seed -k silicon "$F/native/ok.csv"

# format | fixture | import options | unit sed | cut | unit
# the sed edits one unit (GNU 0,/RE/ = its first match); '-' = none
TABLE=$(cat <<'T'
perfcorr-csv | calib/lab.csv | | 0,/,s$/s//,furlongs/ | refuse | refuse
perfcorr-json | native/ok.json | | 0,/"ms"/s//"furlongs"/ | refuse | refuse
nsys-kern-sum | hw/nsys/kern_sum_2022_4_grid.csv | -w w | s/Avg (ns)/Avg (furlongs)/ | refuse | refuse
vllm | samples/vllm_bench_serve.json | -w w | s/"mean_ttft_ms"/"mean_ttft_furlongs"/ | refuse | refuse
llm-viewer | samples/llm_viewer_decode.csv | -w w | 0,/us$/s//furlongs/ | refuse | refuse
llm-analysis | samples/llm_analysis_summary.json | -w w | - | refuse | none: seconds, FLOPs and bytes by key name
genz | samples/genz_ops.csv | -w w | s/Latency (msec)/Latency (furlongs)/ | refuse | refuse
llmcompass | models/matmul_sim_4096.csv | -w w | 0,/ms,/s//furlongs,/ | refuse | refuse
scalesim | samples/scalesim_v2_COMPUTE_REPORT.csv | -w w | - | refuse | none: cycles and percentages, named by the column
nsys-gpu-trace | hw/nsys/gpu_trace_2024.csv | -w w | s/Duration (ns)/Duration (furlongs)/ | refuse | refuse
nvprof-gpu-trace | hw/nvprof/gpu_trace_us.csv | -w w | s/^us,us,/us,furlongs,/ | refuse | refuse
gpgpusim | samples/gpgpusim_run.log | -w w | - | refuse | none: cycle counts and rates by name
accelsim-stats | sim/accelsim_get_stats.csv | | - | refuse | none: cycle counts by name
gem5 | samples/gem5_stats.txt | -w w | - | refuse | none: the stat's name fixes its unit; the comment's '(Second)' is not read
timeloop | samples/timeloop-model.stats.txt | -w w | 0,/ uJ/s// furlongs/ | refuse | refuse
ncu-details | samples/ncu_details.csv | -w w | 0,/"Duration","ns"/s//"Duration","furlongs"/ | refuse | refuse
ncu-raw | samples/ncu_raw.csv | -w w | 0,/"nsecond"/s//"furlongs"/ | refuse | refuse
vllm-stdout | samples/vllm_bench_stdout.txt | -w w | s/Mean TTFT (ms)/Mean TTFT (furlongs)/ | refuse | refuse
sglang | samples/sglang_bench_serving.jsonl | -w w | s/"mean_ttft_ms"/"mean_ttft_furlongs"/ | refuse | refuse
sglang-one-batch | hw/sglang/one_batch_2026.jsonl | -w w | - | refuse | none: seconds by key name, no unit written
cocotb | samples/cocotb_results_v2.xml | -w w | 0,/"ns"/s//"furlongs"/ | refuse | refuse
verilator | samples/verilator_run.log | -w w | s/\([0-9]\)us/\1furlongs/ | refuse | refuse
vcs | rtl/vcs_run.log | -w w | s/^Time: \([0-9]*\) ps$/Time: \1 furlongs/ | refuse | refuse
chipyard | samples/chipyard_run.log | -w w | - | refuse | none: cycle counts only
regex-log | rtl/tb_inhouse.log | -w w --rules FIX/rtl/tb_rules.json | s/ cycles$/ furlongs/ | refuse | accept: a unit outside the rule's unit group makes the line match no rule
nvidia-smi | hw/power/smi_60s.csv | -w w | s/power.draw \[W\]/power.draw [furlongs]/ | refuse | refuse
dcgm-dmon | samples/dcgmi_dmon.txt | -w w | s/^ID         W /ID         furlongs / | refuse | refuse
mlperf-summary | samples/mlperf_log_summary.txt | -w w | s/Mean latency (ns)/Mean latency (furlongs)/ | refuse | refuse
mlperf-detail | samples/mlperf_log_detail.txt | -w w | s/result_mean_latency_ns/result_mean_latency_furlongs/ | refuse | refuse
trtllm-bench | stacks/trtllm_bench_0.16_throughput.log | -w w | 0,/(ms)/s//(furlongs)/ | refuse | refuse
trtllm-bench-json | stacks/trtllm_bench_1.2_report.json | -w w | 0,/_ms"/s//_furlongs"/ | refuse | refuse
trtllm-legacy-csv | stacks/gptManagerBenchmark_0.15.csv | -w w | s/total_latency(ms)/total_latency(furlongs)/ | refuse | refuse
perf-analyzer-csv | stacks/perf_analyzer_request_rate_avg_latency.csv | -w w | - | refuse | none: perf_analyzer writes microseconds without naming them
genai-perf-csv | stacks/genai-perf/profile_export_genai_perf_0.0.13.csv | -w w | 0,/(ms)/s//(furlongs)/ | refuse | refuse
genai-perf-json | stacks/genai-perf/profile_export_genai_perf_0.0.13_nested.json | -w w | 0,/"ms"/s//"furlongs"/ | refuse | refuse
aiperf-json | stacks/aiperf/profile_export_aiperf.json | -w w | 0,/"ms"/s//"furlongs"/ | refuse | refuse
aiperf-csv | stacks/aiperf/profile_export_aiperf.csv | -w w | 0,/(ms)/s//(furlongs)/ | refuse | refuse
aiperf-jsonl | stacks/aiperf/profile_export.jsonl | -w w | 2s/"ms"/"furlongs"/ | refuse | refuse
inference-perf | stacks/inference-perf/v2026-08/stage_0_lifecycle_metrics.json | -w w | - | refuse | none: seconds by key name
inference-perf-requests | stacks/inference-perf/v2026-08/per_request_lifecycle_metrics.json | -w w | - | refuse | none: epoch seconds by key name
llmd-report | stacks/llm-d/v0.2.1/benchmark_report_v0.2.1,_stage_0_lifecycle_metrics.json.yaml | -w w | 0,/units: s$/s//units: furlongs/ | refuse | refuse
aiperf-server-metrics | stacks/aiperf/v2026/server_metrics_export.json | -w w | 0,/"seconds"/s//"furlongs"/ | refuse | accept: a Prometheus series in a unit perfcorr cannot check is skipped with a warning naming it (servers export many unit-less series; imp_aiperf_server.c)
genai-perf-analyze | stacks/licensed/triton-perf_analyzer-0.0.9dev__analyze_export_genai_perf.csv | -w w | 0,/(ms)/s//(furlongs)/ | refuse | refuse
llmperf | stacks/llmperf_pairs_with_trtllm_summary.json | -w w | s/results_ttft_s_mean/results_ttft_furlongs_mean/ | refuse | refuse
optimum-benchmark | stacks/optimum_0.6_energy_star_benchmark.json | -w w | 0,/"s"/s//"furlongs"/ | refuse | refuse
torch-trace | stacks/torch_trace_2024_fractional.json | -w w | - | refuse | none: Chrome trace 'dur' is microseconds by the format
torch-key-averages | stacks/torch_table_cpu_only_windows.txt | -w w | 0,/\([0-9]\)ms /s//\1xs / | accept: the last line with a digit is the 'Self CPU time total' footer, which is not read; a cut inside the table is refused (no closing rule: bad_torch_table_cut.log) | refuse
T
)

trim() { local s=$1; s=${s#"${s%%[! ]*}"}; printf '%s' "${s%"${s##*[! ]}"}"; }

# expect_damage FORMAT FILE ARGS EXPECT WHAT: refused naming FILE:LINE with
# the database unchanged, or (accept: ...) imported
expect_damage() {
	local fmt=$1 file=$2 args=$3 want=$4 what=$5 before b
	b=$(basename "$file")
	before=$(db_digest)
	# shellcheck disable=SC2086
	run pc import -s "dmg$((++n))" -k silicon -F "$fmt" $args "$file"
	case $want in
	refuse)
		expect_rc 1 "$fmt $what: refused"
		case $err in *"$b:"[0-9]*) ok ;;
		*) fail "$fmt $what: the message names no $b:LINE: $err" ;; esac
		expect_not_in "warning: $b" "$err$out" "$fmt $what: no warning only"
		expect_eq "$(db_digest)" "$before" "$fmt $what: database unchanged"
		[ "$what" = unit ] && [ "$mangled" = furlongs ] &&
			expect_in "furlongs" "$err" "$fmt unit: names the unit"
		;;
	accept:*)
		expect_rc 0 "$fmt $what: imported as its row says (${want#accept: })" ;;
	esac
}

n=0
seen=" "
while IFS='|' read -r fmt fix args unit cut uwant; do
	fmt=$(trim "$fmt"); fix=$(trim "$fix"); args=$(trim "$args")
	unit=$(trim "$unit"); cut=$(trim "$cut"); uwant=$(trim "$uwant")
	args=${args//FIX/$F}
	seen="$seen$fmt "
	src=$F/$fix
	b=$(basename "$fix")
	# the whole fixture imports (else a refusal proves nothing)
	# shellcheck disable=SC2086
	run env PERFCORR_DB="$T/whole.db" "$PERFCORR" import -s "w$((++n))" \
		-k silicon -F "$fmt" $args "$src"
	[ "$rc" -eq 0 ] || { fail "$fmt: the whole $fix does not import: $err"; continue; }
	# (a) cut in the middle of the last line holding a digit
	L=$(awk '/[0-9]/ { n = NR } END { print n }' "$src")
	mkdir -p "$T/cut"
	head -n $((L - 1)) "$src" > "$T/cut/$b"
	line=$(sed -n "${L}p" "$src" | tr -d '\r\n')
	printf '%s' "${line:0:$((${#line} / 2))}" >> "$T/cut/$b"
	expect_damage "$fmt" "$T/cut/$b" "$args" "$cut" cut
	# (a') cut inside the last number of that line ("0.91" read "0.9"):
	# every field is there, only the missing line end tells
	mkdir -p "$T/cutnum"
	head -n $((L - 1)) "$src" > "$T/cutnum/$b"
	line=${line%"${line##*[0-9]}"}
	printf '%s' "${line:0:$((${#line} - 1))}" >> "$T/cutnum/$b"
	expect_damage "$fmt" "$T/cutnum/$b" "$args" "$cut" "cut in a number"
	# (b) one unit mangled
	[ "$unit" = - ] && continue
	mkdir -p "$T/unit"
	sed "$unit" "$src" > "$T/unit/$b"
	case $unit in *furlongs*) mangled=furlongs ;; *) mangled= ;; esac
	if cmp -s "$src" "$T/unit/$b"; then
		fail "$fmt: the unit sed '$unit' changes nothing in $fix"
		continue
	fi
	expect_damage "$fmt" "$T/unit/$b" "$args" "$uwant" unit
done <<< "$TABLE"

# every registered format has its row
for f in $(pc formats | awk '{ print $1 }'); do
	case $seen in *" $f "*) ok ;; *) fail "format $f has no row in the table of $0" ;; esac
done
finish
