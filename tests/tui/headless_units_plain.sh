#!/usr/bin/env bash
# Headless at 80x24: dimensionless values print as the CLI prints them
# (issue 35 item 8, base/units_fmt.c): no SI prefix (0.9995, 12345,
# 123456789, 0.0001234; the TUI printed 999.5m, 12.35k, 123.5M, 123.4u),
# a count keeps one (249.6 kcycles), in every view that prints values:
# the list (its value columns as wide as the widest value, never cut;
# err and status still shown), the detail, the Summary's scatter axis
# (its label column as wide as "1000000000"), the Sensitivity view's
# knob ranges (131072, not 1.311e+05). The expected texts come from the
# values by plain python ("%.4g", whole numbers in full) and from
# `perfcorr compare --points`.
. "$(dirname "$0")/../tui/libtui.sh"
cat >"$T/m.csv" <<'CSV'
workload,op,metric,value,unit
m/bs=1/seq=1024,gemm,ipc,0.9995,
m/bs=1/seq=65536,gemm,ipc,1.7,
m/bs=1/seq=131072,gemm,ipc,2.5,
m/bs=2/seq=1024,gemm,ipc,12345,
m/bs=4/seq=1024,gemm,ipc,123456789,
m/bs=8/seq=1024,gemm,ipc,0.0001234,
m/bs=1/seq=1024,gemm,time,102.2,us
m/bs=2/seq=1024,gemm,cycles,249600,cycles
CSV
cat >"$T/r.csv" <<'CSV'
workload,op,metric,value,unit
m/bs=1/seq=1024,gemm,ipc,1.05,
m/bs=1/seq=65536,gemm,ipc,1.8,
m/bs=1/seq=131072,gemm,ipc,2.6,
m/bs=2/seq=1024,gemm,ipc,12000,
m/bs=4/seq=1024,gemm,ipc,120000000,
m/bs=8/seq=1024,gemm,ipc,0.00013,
m/bs=1/seq=1024,gemm,time,110,us
m/bs=2/seq=1024,gemm,cycles,250000,cycles
CSV
pc init >/dev/null
pc import -q -s um -k perfsim -V 1 "$T/m.csv" || fail "import m"
pc import -q -s ur -k silicon -V 1 "$T/r.csv" || fail "import r"

# workload, model and ref of each ipc pair as the CLI's rule prints them
want=$(python3 -c '
import csv, sys
def plain(v):
    return "%d" % v if v == int(v) and abs(v) < 1e15 else "%.4g" % v
ref = {(r["workload"], r["metric"]): float(r["value"])
       for r in csv.DictReader(open(sys.argv[2]))}
for r in csv.DictReader(open(sys.argv[1])):
    if r["metric"] == "ipc":
        print(r["workload"], plain(float(r["value"])),
              plain(ref[(r["workload"], "ipc")]))
' "$T/m.csv" "$T/r.csv" | sort)
expect_in "m/bs=2/seq=1024 12345 12000" "$want" "python's rule: 12345"
run pc compare --model um --ref ur --metric ipc --points
expect_eq "$(printf '%s\n' "$out" | awk '$3 == "ipc" { print $1, $4, $5 }' |
	sort)" "$want" "compare --points prints the same texts"

tui_script 80 24 <<KEYS
:save-screen $T/list.screen
/bs=8/<Enter>
<Enter>
:save-screen $T/detail.screen
q
/cycles<Enter>
<Enter>
:save-screen $T/cycles.screen
q
2
b
b
:save-screen $T/summary.screen
7
:save-screen $T/sens.screen
KEYS
expect_rc 0 "list, detail, summary, sensitivity"

# the list: each ipc row's model and ref whole, in value columns that fit
# the widest (123456789), err and status still there at 80 columns
got=$(awk '$3 == "ipc" { print $1, $4, $5 }' "$T/list.screen" | sort)
expect_eq "$got" "$want" "the list's values are the CLI's"
expect_eq "$(awk '$4 == "123456789" { print $4, $5, $6, $7 }' "$T/list.screen")" \
	"123456789 120000000 +2.9% open" "the widest value whole, err and status beside it"
expect_in "249.6 kcycles" "$(cat "$T/list.screen")" "a count keeps its prefix"
expect_in "102.2 us" "$(cat "$T/list.screen")" "a time keeps its prefix"
for bad in 999.5m 12.35k 123.5M 123.4u 1.234e; do
	expect_not_in "$bad" "$(cat "$T/list.screen")" "no '$bad' in the list"
done
head=$(screen_line "$T/list.screen" 3)
expect_in "model" "$head" "model column shown"
expect_in "status" "$head" "status column shown"

# the detail: the pair, the values block and the pairwise line
d=$(cat "$T/detail.screen")
expect_in "model 0.0001234  ref 0.00013  err -5.1%" "$d" "the detail's pair"
expect_in "ipc        0.0001234" "$d" "the model's value"
expect_in "0.0001234     0.00013     -5.1%" "$d" "the pairwise line"
expect_not_in "123.4u" "$d" "no prefix in the detail"
expect_in "249.6 kcycles" "$(cat "$T/cycles.screen")" "cycles in the detail"

# the Summary grouped by metric, the scatter of ipc (most points): axis
# labels 1e-4 and 1e9 in full, the label column as wide as the widest
s=$(cat "$T/summary.screen")
expect_in "ipc: model vs ref, log-log (m)" "$s" "the scatter is ipc's"
expect_eq "$(grep -o '^ *1000000000 ' "$T/summary.screen")" "1000000000 " \
	"top label 1e9 whole, at the left edge"
expect_eq "$(grep -o '^ *0.0001 ' "$T/summary.screen" | head -1)" "    0.0001 " \
	"bottom label 1e-4, right-aligned in the same column"
expect_in "0.0001            1000000000" "$s" "the x axis' labels"
expect_not_in "100u" "$s" "no prefix on the axis"
expect_not_in "1G" "$s" "no 1G on the axis"

# the Sensitivity view: the knob ranges whole
expect_in "seq 1024..131072 (3): m/bs=1" "$(cat "$T/sens.screen")" \
	"the seq sweep's range whole (was 1.311e+05)"
expect_in "bs 1..8 (4): m/seq=1024" "$(cat "$T/sens.screen")" "the bs sweep"
finish
