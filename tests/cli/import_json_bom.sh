#!/bin/bash
# Every JSON format is detected by one helper (jsonutil_start: a UTF-8
# BOM and JSON white space before the first '{' or '['), so a file saved
# by an editor that writes a BOM, or indented, is detected as the same
# format and stores the same results as the plain file. (Before the
# helper, five of the eight probes skipped no BOM: genai-perf, llmperf,
# optimum-benchmark, torch-trace, trtllm-bench said "cannot detect".)
. "$(dirname "$0")/../cli/lib.sh"
S="$FIXTURES/stacks"
L="$S/licensed"

# results of the last run as sorted text (independent of the importer)
last_run() {
	pcsql "SELECT w.key, o.name, m.name, r.value FROM results r
		JOIN workloads w ON w.id = r.workload_id JOIN ops o ON o.id = r.op_id
		JOIN metrics m ON m.id = r.metric_id
		WHERE r.run_id = (SELECT max(id) FROM runs) ORDER BY 1, 2, 3"
}

check() { # format file [import args]
	local fmt=$1 f=$2 name plain
	shift 2
	name=$(basename "$f")
	run pc import -s "p$((PASSES + FAILS))" -k silicon "$@" "$f"
	expect_rc 0 "$name imports"
	expect_in "($fmt)" "$err" "$name is $fmt"
	plain=$(last_run)
	[ -n "$plain" ] && ok || fail "$name stored no results"
	# the same bytes after a BOM and a blank line and indentation
	{ printf '\xef\xbb\xbf\n  \t'; cat "$f"; } >"$T/bom-$name"
	run pc import -s "b$((PASSES + FAILS))" -k silicon "$@" "$T/bom-$name"
	expect_rc 0 "$name with a BOM imports"
	expect_in "($fmt)" "$err" "$name with a BOM is detected as $fmt"
	expect_eq "$(last_run)" "$plain" "$name with a BOM: the same results"
}

check vllm "$SAMPLES/vllm_bench_serve.json"
check sglang "$SAMPLES/sglang_bench_serving.jsonl"
check genai-perf-json "$S/genai-perf/profile_export_genai_perf_0.0.13_nested.json"
check llmperf "$S/llmperf_pairs_with_trtllm_summary.json" -P pp=1 -P tp=2
check optimum-benchmark "$S/optimum_0.6_energy_star_benchmark.json"
check torch-trace "$S/torch_trace_2024_fractional.json" -w t
check trtllm-bench-json "$S/trtllm_bench_1.2_report.json"
check perfcorr-json "$FIXTURES/native/ok.json"
check inference-perf "$S/inference-perf/v2026-08/stage_0_lifecycle_metrics.json" -w ip
check llmd-report "$S/llm-d/v0.2/benchmark_report_v0.2,_stage_0_lifecycle_metrics.json.json"
check inference-perf-requests "$S/inference-perf/v2025-11/per_request_lifecycle_metrics.json" -w ip
# an export (a JSON array) too
run pc export results --run 1 --format json
expect_rc 0 "export results --run 1 --format json"
printf '%s\n' "$out" >"$T/export.json"
check perfcorr-json "$T/export.json"
finish
