#!/bin/bash
# NVIDIA AIPerf per-request profile_export.jsonl (issue 37 item 4): one
# MetricRecordInfo per line (metadata, metrics {tag: {value, unit}},
# error). Shape from AIPerf's RecordExportResultsProcessor and
# common/models/record_models.py (piotrm-nvidia/aiperf 8f9ca657, 2026-01;
# ai-dynamo/aiperf db4f6397 docs/tutorials/working-with-profile-exports.md).
# Reference: plain python3 over the fixture (statistics, numpy's linear
# percentile written out).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
A="$FIXTURES/stacks/aiperf"

run pc import -s ai -k silicon -w llama3-8b/mixed "$A/profile_export.jsonl"
expect_rc 0 "AIPerf records import"
expect_in "(aiperf-jsonl): 30 results" "$err" "detected as AIPerf's records"
expect_in "1 warmup records excluded" "$err" "warmup said"
export_now
ref() { # tag stat scale
	python3 - "$A/profile_export.jsonl" "$@" <<'PY'
import json, math, statistics, sys
path, tag, stat, scale = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
v = []
for line in open(path):
    r = json.loads(line)
    if r["metadata"]["benchmark_phase"] != "profiling" or r["error"]:
        continue
    v.append(r["metrics"][tag]["value"] * scale)
v.sort()
def pct(p):
    h = (len(v) - 1) * p / 100; lo = math.floor(h)
    return v[lo] + (h - lo) * (v[lo + 1] - v[lo]) if lo + 1 < len(v) else v[lo]
print({"mean": statistics.mean(v), "sd": statistics.stdev(v), "min": v[0],
       "max": v[-1], "p50": pct(50), "p90": pct(90), "p99": pct(99),
       "n": len(v)}[stat])
PY
}
W=llama3-8b/mixed
expect_near "$(xv source=ai workload=$W metric=ttft)" "$(ref time_to_first_token mean 1e-3)" 1e-12 "ttft mean, ms -> s"
expect_near "$(xv source=ai workload=$W metric=ttft stddev)" "$(ref time_to_first_token sd 1e-3)" 1e-9 "sample stddev"
expect_eq "$(xv source=ai workload=$W metric=ttft n)" 11 "n: the 11 completed profiling records"
expect_near "$(xv source=ai workload=$W metric=ttft_p50)" "$(ref time_to_first_token p50 1e-3)" 1e-12 "p50"
expect_near "$(xv source=ai workload=$W metric=ttft_p90)" "$(ref time_to_first_token p90 1e-3)" 1e-12 "p90 interpolated"
expect_near "$(xv source=ai workload=$W metric=e2el_p99)" "$(ref request_latency p99 1e-3)" 1e-12 "e2el p99"
expect_near "$(xv source=ai workload=$W metric=itl min)" "$(ref inter_token_latency min 1e-3)" 1e-12 "itl min"
expect_near "$(xv source=ai workload=$W metric=output_throughput_per_user)" \
	"$(ref output_token_throughput_per_user mean 1)" 1e-12 "tokens/sec/user"
expect_near "$(xv source=ai workload=$W metric=output_sequence_length)" \
	"$(ref output_sequence_length mean 1)" 1e-12 "output lengths"
expect_eq "$(xv source=ai workload=$W metric=completed)" 11 "completed"
expect_eq "$(xv source=ai workload=$W metric=failed)" 1 "the cancelled record is a failure"
fp=$(pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = 'ai'")
expect_near "$(echo "$fp" | python3 -c "import json,sys; print(json.load(sys.stdin)['fp.input_len_sd'])")" \
	"$(ref input_sequence_length sd 1)" 1e-9 "fp.input_len_sd: the lengths' spread"
expect_near "$(echo "$fp" | python3 -c "import json,sys; print(json.load(sys.stdin)['fp.output_len'])")" \
	"$(ref output_sequence_length mean 1)" 1e-9 "fp.output_len"
expect_in '"fp.warmup_excluded":"true"' "$fp" "warmup excluded stated"
expect_in '"fp.tool":"aiperf"' "$fp" "tool"

expect_refused "bad_aiperf_records_truncated.jsonl:5:201: invalid JSON" \
	"a cut last record" "$A/bad_aiperf_records_truncated.jsonl"
expect_refused "bad_aiperf_records_unit.jsonl:4: 'time_to_first_token': unit 's', but 'ms' on line 2" \
	"a unit that changes between records" "$A/bad_aiperf_records_unit.jsonl"
expect_refused "bad_aiperf_records_phase.jsonl:3: 'metadata.benchmark_phase': 'cooldown'" \
	"an unknown phase" "$A/bad_aiperf_records_phase.jsonl"
finish
