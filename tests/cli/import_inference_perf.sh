#!/bin/bash
# kubernetes-sigs/inference-perf native reports (issue 37 item 4): the
# lifecycle reports (stage_N_/summary_lifecycle_metrics.json, 2026-08 and
# 2025-11 writers) and the per-request file. Shapes from
# inference_perf/reportgen/base.py (7de5ef2e, 2026-08-19; 603fe14,
# 2025-11-18); fixtures by fixtures/stacks/inference-perf/make_fixtures.py.
# Reference: plain python3 over the fixtures; the per-request
# distributions are also checked against the tool's own summary of the
# same requests (stage_0 holds exactly the records of the per-request file).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_hw.sh"
D="$FIXTURES/stacks/inference-perf"
N="$D/v2026-08"
O="$D/v2025-11"

run pc import -s st -k silicon -w llama3-8b/mixed "$N/stage_0_lifecycle_metrics.json"
expect_rc 0 "a rate stage imports"
expect_in "(inference-perf): " "$err" "detected as an inference-perf lifecycle report"
run pc import -s st -k silicon -w llama3-8b/mixed "$N/stage_1_lifecycle_metrics.json"
expect_rc 0 "a concurrency stage imports"
run pc import -s old -k silicon -w llama3-8b/mixed "$O/stage_0_lifecycle_metrics.json"
expect_rc 0 "the 2025 layout imports"
run pc import -s rq -k silicon -w llama3-8b/mixed "$N/per_request_lifecycle_metrics.json"
expect_rc 0 "the per-request file imports"
expect_in "(inference-perf-requests): 30 results" "$err" "detected as the per-request file"
run pc import -s rqo -k silicon -w llama3-8b/mixed "$O/per_request_lifecycle_metrics.json"
expect_rc 0 "the 2025 per-request file imports"
export_now

j() { # file python-expression-over-d
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
S0="$N/stage_0_lifecycle_metrics.json"
W0=llama3-8b/mixed/request_rate=2
W1=llama3-8b/mixed/max_concurrency=4/request_rate=inf
L='d["successes"]["latency"]'
expect_eq "$(xv source=st workload=$W0 metric=e2el)" "$(j "$S0" "$L['request_latency']['mean']")" "e2el mean (s as written)"
expect_eq "$(xv source=st workload=$W0 metric=e2el median)" "$(j "$S0" "$L['request_latency']['median']")" "median on the record"
expect_eq "$(xv source=st workload=$W0 metric=ttft_p50)" "$(j "$S0" "$L['time_to_first_token']['median']")" "median also as _p50"
expect_eq "$(xv source=st workload=$W0 metric=ttft_p99.9)" "$(j "$S0" "$L['time_to_first_token']['p99.9']")" "p99.9"
expect_eq "$(xv source=st workload=$W0 metric=itl max)" "$(j "$S0" "$L['inter_token_latency']['max']")" "itl max"
expect_eq "$(xv source=st workload=$W0 metric=ntpot_p0.1)" "$(j "$S0" "$L['normalized_time_per_output_token']['p0.1']")" "ntpot p0.1"
expect_eq "$(xv source=st workload=$W0 metric=request_throughput)" "$(j "$S0" 'd["successes"]["throughput"]["requests_per_sec"]')" "requests/s"
expect_eq "$(xv source=st workload=$W0 metric=duration)" "$(j "$S0" 'd["benchmark_time_seconds"]')" "benchmark_time_seconds"
expect_eq "$(xv source=st workload=$W0 metric=completed)" 23 "successes.count"
expect_eq "$(xv source=st workload=$W0 metric=failed)" 1 "failures.count"
expect_eq "$(xv source=st workload=$W0 metric=input_tokens)" 4749 "prompt_tokens.total"
expect_eq "$(xv source=st workload=$W0 metric=output_tokens)" "$(j "$S0" 'int(d["successes"]["output_tokens"]["total"])')" "the server-counted output_tokens.total"
expect_eq "$(xv source=st workload=$W0 metric=request_goodput)" "$(j "$S0" 'd["successes"]["goodput_metrics"]["request_goodput"]')" "goodput"
expect_eq "$(xv source=st workload=$W1 metric=completed)" 16 "the concurrency stage is its own workload"
expect_eq "$(xv source=old workload=llama3-8b/mixed/request_rate=1 metric=input_sequence_length)" \
	"$(j "$O/stage_0_lifecycle_metrics.json" 'd["successes"]["prompt_len"]["mean"]')" "2025: prompt_len"

fp() { # source key
	pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = '$1' ORDER BY r.id" |
		python3 -c "import json,sys; print(' '.join(json.loads(l).get('fp.$2', '-') for l in sys.stdin))"
}
expect_eq "$(fp st request_rate)" "2 inf" "fp.request_rate: the requested rate; a concurrency stage all at once"
expect_eq "$(fp st concurrency)" "- 4" "fp.concurrency of the concurrency stage only"
expect_near "$(fp st achieved_request_rate | cut -d' ' -f1)" "$(j "$S0" 'd["load_summary"]["achieved_rate"]')" 1e-9 "achieved rate"
expect_near "$(fp st input_len | cut -d' ' -f1)" "$(j "$S0" 'd["successes"]["prompt_tokens"]["mean"]')" 1e-9 "fp.input_len"
expect_eq "$(fp st token_counter)" "- -" "2026: prompt tokens from the server or the client: no counter stated"
expect_eq "$(fp old token_counter)" "client" "2025: the client's tokenizer"
expect_eq "$(fp old input_tokens)" "$(j "$O/stage_0_lifecycle_metrics.json" 'round(d["successes"]["prompt_len"]["mean"] * d["successes"]["count"])')" "2025: input tokens = mean x count"

# per-request: plain python over the records, inference-perf's rules
ref() { # file metric stat
	python3 - "$@" <<'PY'
import json, math, statistics, sys
path, metric, stat = sys.argv[1:4]
v = []
for r in json.load(open(path)):
    if r["error"]:
        continue
    i = r["info"]
    if "request_metrics" in i:
        isl = i["request_metrics"]["text"]["input_tokens"]
        rm = i["response_metrics"] or {}
        osl, t, new = rm.get("output_tokens", 0), rm.get("output_token_times") or [], True
    else:
        isl, osl, t, new = i["input_tokens"], i["output_tokens"], i["output_token_times"], False
    e2e = r["end_time"] - r["start_time"]
    if metric == "e2el": v.append(e2e)
    if metric == "ntpot": v.append(e2e / osl if osl else 0.0)
    if metric == "isl": v.append(isl)
    if metric == "osl": v.append(osl)
    if len(t) > 1:
        if metric == "ttft": v.append(t[0] - r["start_time"])
        if metric == "tpot": v.append((t[-1] - t[0]) / ((osl if new else len(t)) - 1))
        if metric == "itl": v.extend(b - a for a, b in zip(t, t[1:]))
v.sort()
def pct(p):
    h = (len(v) - 1) * p / 100; lo = math.floor(h)
    return v[lo] + (h - lo) * (v[lo + 1] - v[lo]) if lo + 1 < len(v) else v[lo]
print({"mean": statistics.fmean(v), "sd": statistics.stdev(v), "p50": pct(50),
       "p90": pct(90), "p99": pct(99), "n": len(v), "min": v[0]}[stat])
PY
}
R="$N/per_request_lifecycle_metrics.json"
expect_near "$(xv source=rq workload=llama3-8b/mixed metric=ttft)" "$(ref "$R" ttft mean)" 1e-12 "ttft mean from the records"
expect_near "$(xv source=rq workload=llama3-8b/mixed metric=ttft stddev)" "$(ref "$R" ttft sd)" 1e-9 "sample stddev"
expect_near "$(xv source=rq workload=llama3-8b/mixed metric=itl_p99)" "$(ref "$R" itl p99)" 1e-12 "itl p99 over the pooled gaps"
expect_eq "$(xv source=rq workload=llama3-8b/mixed metric=itl n)" "$(ref "$R" itl n)" "itl n: every gap"
expect_near "$(xv source=rq workload=llama3-8b/mixed metric=tpot_p90)" "$(ref "$R" tpot p90)" 1e-12 "tpot p90 (2026: over output tokens)"
expect_near "$(xv source=rq workload=llama3-8b/mixed metric=e2el_p50)" "$(ref "$R" e2el p50)" 1e-12 "e2el p50"
expect_near "$(xv source=rqo workload=llama3-8b/mixed metric=tpot)" "$(ref "$O/per_request_lifecycle_metrics.json" tpot mean)" 1e-12 "tpot 2025: over the timestamps"
expect_eq "$(xv source=rq workload=llama3-8b/mixed metric=failed)" 1 "the 503 is a failure"
# the tool's own summary of the same 24 requests agrees
for m in e2el ttft tpot itl ntpot; do
	expect_near "$(xv source=rq workload=llama3-8b/mixed metric=$m)" "$(xv source=st workload=$W0 metric=$m)" 1e-12 "$m: per-request = inference-perf's summary"
done
expect_near "$(xv source=rq workload=llama3-8b/mixed metric=itl_p99)" "$(xv source=st workload=$W0 metric=itl_p99)" 1e-12 "itl p99 = the summary's"
expect_near "$(fp rq input_len_sd)" "$(ref "$R" isl sd)" 1e-9 "fp.input_len_sd: the lengths' spread"
expect_near "$(fp rq output_len)" "$(ref "$R" osl mean)" 1e-9 "fp.output_len"
expect_eq "$(fp rq tool)" inference-perf "fp.tool"

expect_refused "bad_ip_truncated.json:23:1: invalid JSON" "a cut report" "$D/bad_ip_truncated.json"
expect_refused "bad_ip_missing_count.json:25: 'successes.count': missing" "a missing count" "$D/bad_ip_missing_count.json"
expect_refused "'successes': an inference-perf Prometheus report" "the Prometheus report is not a lifecycle report" "$D/bad_ip_prometheus.json"
expect_refused "bad_ip_requests_truncated.json:469:18: invalid JSON" "a cut per-request file" "$D/bad_ip_requests_truncated.json"
expect_refused "bad_ip_requests_layouts.json:235: 'info': the 2026 layout, but the 2025 one on line 2" "two layouts in one file" "$D/bad_ip_requests_layouts.json"
expect_refused "bad_ip_requests_noend.json:170: 'end_time': missing" "a record without end_time" "$D/bad_ip_requests_noend.json"
finish
