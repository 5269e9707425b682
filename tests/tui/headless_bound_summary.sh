#!/usr/bin/env bash
# Issue 35 item 2 at 80x24 on the demo: a roofline model is a bound in
# every view that printed MAPE and bias for the pairing, as the list and
# its header are (67b2702). The Summary's groups say the fraction of
# speed of light the reference reaches (the core's efficiency, geomean)
# and the pairs that beat the roofline, its histogram counts those
# fractions over 0..200%; the Trend of the roofline's versions (a second
# spec, 2.6 TB/s) the same per version and per op class, with no
# release-change test (it judges MAPE); Regressions between the two
# versions the fraction before and after. The numbers are `perfcorr
# compare --format json`'s (one core), the whole pair's also from the
# points by plain python.
. "$(dirname "$0")/../tui/libtui.sh"
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }
pct() { python3 -c 'import sys; print("%.1f%%" % (100 * float(sys.argv[1])))' "$1"; }

# --- the Summary, grouped by op class, then by metric
tui_script 80 24 --model roofline --ref h100-lab <<KEYS
2
:save-screen $T/sum.screen
b
b
:save-screen $T/metric.screen
KEYS
expect_rc 0 "roofline vs h100-lab: the summary"
pc compare --model roofline --ref h100-lab --group-by op_class \
	--format json >"$T/g.json" || fail "compare --group-by"
want=$(python3 - "$T/g.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def row(name, s):
    return "%s %d %.1f%% %d" % (name, s["n"], 100 * s["efficiency"], s["sol_violations"])
print(row("(all)", d["summary"]))
for g in d["groups"]:
    print(row(g["key"]["op_class"], g))
PY
)
got=$(awk 'NR > 2 && NR <= 7 && NF >= 6 { print $1, $2, $3, $4 }' "$T/sum.screen")
expect_eq "$got" "$want" "each op class: n, SoL (the core's efficiency), beat"
head=$(screen_line "$T/sum.screen" 2)
expect_in "SoL" "$head" "a SoL column"
expect_in "beat" "$head" "a beat column"
for w in MAPE bias p90 agg; do
	expect_not_in "$w" "$head" "no $w column for a bound"
done
expect_in "rho" "$head" "the correlations stay"
# the whole pair from the points, by plain python: the geomean of
# roofline / measured over the pairs in the statistics, the violations
pc compare --model roofline --ref h100-lab --points --format json >"$T/p.json"
all=$(python3 - "$T/p.json" <<'PY'
import json, math, sys
pts = json.load(open(sys.argv[1]))["points"]
keep = [p for p in pts if not (p["ref_stddev"] and p["ref_stddev"] / p["ref"] > 0.3)]
g = math.exp(sum(math.log(p["model"] / p["ref"]) for p in keep) / len(keep))
over = sum(1 for p in pts if p["ref"] < p["model"] * (1 - 1e-9))
print("(all) %d %.1f%% %d" % (len(keep), 100 * g, over))
PY
)
expect_eq "$(printf '%s\n' "$got" | head -1)" "$all" "(all): python's geomean and count"
expect_eq "$(awk '$1 == "time" { print $1, $2, $3, $4 }' "$T/metric.screen")" \
	"time ${all#(all) }" "grouped by metric: time"
s=$(cat "$T/sum.screen")
expect_in "time: fraction of SoL (max" "$s" "the histogram counts fractions"
expect_in "0%               100%             200%" "$s" "over 0..200%"
expect_not_in "-50%" "$s" "not the errors' -50..+50%"

# --- a second roofline version (a spec with less bandwidth: a slower
# bound, so the references reach more of it)
sed 's/"memory_bandwidth": 3.35e12/"memory_bandwidth": 2.6e12/' \
	"$FIXTURES/roofline/h100_sxm.json" >"$T/hw2.json"
pc roofline -q --hw "$T/hw2.json" --ops "$FIXTURES/demo/roofline_ops.csv" \
	--source roofline || fail "a second roofline"
vers=$(pc runs --format csv 2>/dev/null | awk -F, '$2 == "roofline" { print $4 }')
v1=$(printf '%s\n' "$vers" | sed -n 1p)
v2=$(printf '%s\n' "$vers" | sed -n 2p)
[ -n "$v1" ] && [ -n "$v2" ] && ok || fail "two roofline versions: '$vers'"
tui_script 80 24 --model roofline@$v2 --ref h100-lab <<KEYS
3
:save-screen $T/trend.screen
j
<Enter>
:save-screen $T/reg.screen
q
b
:save-screen $T/trend_b.screen
KEYS
expect_rc 0 "the bound's trend and regressions"
for v in "$v1" "$v2"; do
	pc compare --model "roofline@$v" --ref h100-lab --group-by op_class \
		--format json >"$T/$v.json" || fail "compare $v"
done
want=$(python3 - "$T/$v1.json" "$T/$v2.json" "$v1" "$v2" <<'PY'
import json, sys
for f, v in ((sys.argv[1], sys.argv[3]), (sys.argv[2], sys.argv[4])):
    s = json.load(open(f))["summary"]
    print(v, s["n"], "%.1f%%" % (100 * s["efficiency"]), s["sol_violations"])
PY
)
expect_eq "$(awk 'NR == 3 || NR == 4 { print $1, $2, $3, $4 }' "$T/trend.screen")" \
	"$want" "each version: n, SoL, beat (the core's)"
t=$(cat "$T/trend.screen")
expect_in "SoL    beat" "$(screen_line "$T/trend.screen" 2)" "the trend's columns"
expect_not_in "MAPE" "$(screen_line "$T/trend.screen" 2)" "no MAPE column"
expect_not_in "MAPE by version" "$t" "no MAPE chart"
expect_in "a bound: no release-change test or change points (they judge MAPE)" \
	"$t" "no test of MAPE, said"
expect_in "SoL by version (geomean)" "$t" "the chart of SoL"
expect_in "(bound)" "$(screen_line "$T/trend.screen" 1)" "title: a bound"
# per op class, newest first as the trend's columns: the core's groups
want=$(python3 - "$T/$v1.json" "$T/$v2.json" <<'PY'
import json, sys
a = {g["key"]["op_class"]: g["efficiency"] for g in json.load(open(sys.argv[1]))["groups"]}
b = {g["key"]["op_class"]: g["efficiency"] for g in json.load(open(sys.argv[2]))["groups"]}
for k in sorted(b, key=lambda k: -b[k]):
    print(k, "time %.1f%% %.1f%%" % (100 * a[k], 100 * b[k]))
PY
)
expect_eq "$(awk 'NR > 2 && NF == 5 && $2 == "time" { print $1, $2, $3, $4 }' \
	"$T/trend_b.screen")" "$want" "per op class: SoL per version, highest first"
# regressions: the header in SoL; the first row's fractions from the
# two versions' points (model / ref for a time)
hdr=$(screen_line "$T/reg.screen" 2)
expect_in "$(awk 'NR == 3 { a = $3; b = $4 } NR == 4 { printf "SoL %s -> %s, beat %s -> %s", a, $3, b, $4 }' "$T/trend.screen")" \
	"$hdr" "regressions: SoL and beat before -> after, as the trend's rows"
expect_in "SoL bef SoL aft" "$(screen_line "$T/reg.screen" 3)" "the columns say SoL"
expect_not_in "MAPE" "$(cat "$T/reg.screen")" "no MAPE in a bound's regressions"
for v in "$v1" "$v2"; do
	pc compare --model "roofline@$v" --ref h100-lab --points --format json \
		>"$T/p$v.json" || fail "points $v"
done
first=$(awk 'NR == 5 { print $2, $3, $4, $5 }' "$T/reg.screen")
want=$(python3 - "$T/p$v1.json" "$T/p$v2.json" "$first" <<'PY'
import json, sys
op, metric = sys.argv[3].split()[:2]
def frac(f):
    return {(p["workload"], p["op"]): p["model"] / p["ref"]
            for p in json.load(open(f))["points"] if p["metric"] == metric}
a, b = frac(sys.argv[1]), frac(sys.argv[2])
# the largest |error| growth first: |f - 1| for a time
k = max((k for k in a if k[1] == op and k in b), key=lambda k: abs(b[k] - 1) - abs(a[k] - 1))
print(op, metric, "%.1f%% %.1f%%" % (100 * a[k], 100 * b[k]))
PY
)
expect_eq "$first" "$want" "the first row's fractions before and after"
finish
