#!/usr/bin/env bash
# --opt keys are checked against the importer's known options (a typo is
# an error naming the key and the known ones, never silently ignored);
# watch manifests' "opts" go through the same check.
. "$(dirname "$0")/lib.sh"
S=$FIXTURES/samples
M=$FIXTURES/sim

pc import -q --source seed --kind silicon --workload w "$S/nsys_cuda_gpu_kern_sum.csv"
before=$(db_digest)
# the typo of issue 16: the layers would get generic names
run pc import -s ss -k perfsim -w t100/gemm --opt topologgy="$M/gemm_topology.csv" \
	"$M/scalesim_v2_gemm_COMPUTE_REPORT.csv"
expect_rc 2 "unknown key is a usage error"
expect_in "scalesim_v2_gemm_COMPUTE_REPORT.csv: unknown option 'topologgy' for format scalesim (known: topology)" "$err" "names key and known options"
run pc import -s p -k silicon --opt interval=100 "$S/nvidia_smi_power.csv"
expect_rc 2 "nvidia-smi typo"
expect_in "unknown option 'interval' for format nvidia-smi (known: interval_ms, query, sensor_window_ms, short_window)" "$err" "lists every known option"
run pc import -s k -k silicon -w w --opt foo=1 "$S/nsys_cuda_gpu_kern_sum.csv"
expect_rc 2 "format without options"
expect_in "unknown option 'foo': format nsys-kern-sum takes no options" "$err" "says none"
run pc import -s k -k silicon -w w --opt interval_ms "$S/nvidia_smi_power.csv"
expect_rc 2 "no '='"
expect_in "option 'interval_ms': expected KEY=VALUE" "$err" "malformed option"
# --topology on a format that does not read it is refused too
run pc import -s k -k silicon -w w --topology "$M/gemm_topology.csv" "$S/nsys_cuda_gpu_kern_sum.csv"
expect_rc 2 "--topology for nsys"
expect_in "unknown option 'topology': format nsys-kern-sum takes no options" "$err" "dedicated flag checked"
expect_eq "$(db_digest)" "$before" "database unchanged"
# a known key still works
run pc import -s ss -k perfsim -w t100/gemm --opt topology="$M/gemm_topology.csv" \
	"$M/scalesim_v2_gemm_COMPUTE_REPORT.csv"
expect_rc 0 "known key"

# watch manifests: the same check, the file goes to failed/ with the reason
D=$T/drop
mkdir -p "$D"
cp "$S/nvidia_smi_power.csv" "$D/p.csv"
printf '{"source": "lab", "kind": "silicon", "workload": "w", "opts": {"intervall_ms": 100}}\n' >"$D/p.csv.perfcorr.json"
run timeout 60 "$PERFCORR" watch --once --interval 0.1 "$D"
expect_in "failed p.csv: " "$out" "manifest typo fails the delivery"
expect_in "unknown option 'intervall_ms' for format nvidia-smi (known: interval_ms, query, sensor_window_ms, short_window)" "$(cat "$D/failed/p.csv.error")" "manifest error names the key"
finish
