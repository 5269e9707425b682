#!/usr/bin/env bash
# Headless at 80x24: the trend view (3) over 12 model versions whose
# version 7 is 25% slower (the fixture of tests/cli/trend_cpd.sh).
# Issue 34 item 5: the change point under the table, with the versions
# it sits between and its label ("model changed"), and the row's step
# column. Issue 35 (trend view): each row's release-change test against
# the previous version (its MAPE change, two-sided p and verdict, the
# numbers `perfcorr trend --format json` gives), version labels under
# the chart, |bias| rather than a signed sparkline, and in the per-op
# trend one sparkline scale per metric (an op at 3.9 -> 4.6% next to one
# at 30% draws low, not '_-#').
. "$(dirname "$0")/../tui/libtui.sh"
cd "$T" || exit 1
pc init >/dev/null 2>&1
python3 - "$T" <<'PY'
import sys, os
d = sys.argv[1]
def w(name, rows):
    with open(os.path.join(d, name), "w") as f:
        f.write("workload,op,metric,value,unit\n")
        for r in rows:
            f.write(",".join(map(str, r)) + "\n")
keys = [("net/bs=%d" % (wl + 1), op) for wl in range(6)
        for op in ("gemm", "attn", "norm")]
base = [100.0 * (1 + i % 5) + 7 * i for i in range(len(keys))]
def noise(v, i, amp):        # a fixed pseudo-noise in [-amp, amp]
    return amp * ((((v * 31 + i * 17) * 2654435761) % 1000) / 500.0 - 1)
w("ref.csv", [(k[0], k[1], "time", repr(b), "us") for k, b in zip(keys, base)])
for v in range(1, 13):
    f = 1.25 if v >= 7 else 1.0
    w("m%d.csv" % v, [(k[0], k[1], "time",
                      repr(b * 1.05 * f * (1 + noise(v, i, 0.01))), "us")
                     for i, (k, b) in enumerate(zip(keys, base))])
# two ops over 3 versions: gemm +3.9%, +4.2%, +4.6%; attn +30% in each
w("r2.csv", [("w/bs=%d" % b, op, "time", "100", "us")
             for b in (1, 2, 3) for op in ("gemm", "attn")])
for v, g in ((1, 103.9), (2, 104.2), (3, 104.6)):
    w("o%d.csv" % v, [("w/bs=%d" % b, op, "time",
                       repr(g if op == "gemm" else 130.0), "us")
                      for b in (1, 2, 3) for op in ("gemm", "attn")])
PY
pc import -q -s lab -k silicon -V 1 ref.csv
for v in $(seq 1 12); do pc import -q -s sim -k perfsim -V $v m$v.csv; done

tui_script 80 24 --model sim --ref lab <<KEYS
3
:save-screen $T/trend.screen
jjjjjj
:save-screen $T/at7.screen
Q
KEYS
expect_rc 0 "trend view at 80x24"
S=$(cat "$T/trend.screen")
expect_in "  change points (E-Divisive, 18 common pairs, alpha 0.05):" "$S" \
	"the change points under the table"
expect_in "    6 -> 7: MAPE 5.0% -> 31.2%, p 0.01: model changed" "$S" \
	"the step, between 6 and 7, labelled by the side that moved"
expect_eq "$(awk '$1 == "7" && $2 == "18" { print $NF }' "$T/trend.screen")" \
	"model" "the row at the step says so"
expect_eq "$(awk '$1 ~ /^[0-9]+$/ && $2 == "18" && $1 != "7" && NF > 6 { print $NF }' \
	"$T/trend.screen" | sort -u)" "n.s." "no other row steps; every other change is n.s."
# the release-change test per row: as perfcorr trend's JSON
run pc trend --model sim --ref lab --format json
ref=$(printf '%s' "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
for v in d['versions'][1:8]:
    c = v['change']['paired']
    verdict = {'not significant': 'n.s.'}.get(c['verdict'], c['verdict'])
    print(v['version'], '%+.2f pt' % (c['delta'] * 100), '%.2g' % c['p_two_sided'], verdict)")
got=$(awk '$1 ~ /^[0-9]+$/ && $2 == "18" && NF > 6 { print $1, $6, $7, $8, $9 }' "$T/trend.screen")
expect_eq "$got" "$ref" "change, p and verdict per row equal perfcorr trend's"
expect_in " 7                  18   31.1%  +31.1%  1.000  +26.06 pt 4.9e-08 worse   model" \
	"$S" "the step's row: +26 pt, worse"
expect_in "  7 vs 6: MAPE change on the 18 common pairs: +26.06 pt" \
	"$(cat "$T/at7.screen")" "the cursor's row: the test's line"
# |bias|, and the version labels under the chart, in order
expect_in "  |bias| ______######" "$S" "|bias| sparkline"
labels=$(grep -n "MAPE by version" "$T/trend.screen" | cut -d: -f1)
expect_eq "$(awk -v l="$labels" 'NR > l && $1 ~ /^[0-9]+$/ && NF >= 10 { print }' \
	"$T/trend.screen" | tr -s ' ' | sed 's/^ //')" "1 2 3 4 5 6 7 8 9 10 11 12" \
	"every version labelled on the axis"
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/trend.screen")" -le 80 ] &&
	ok || fail "screen wider than 80"

# the per-op trend: one scale per metric (0 to its largest MAPE)
pc import -q -s lab2 -k silicon -V 1 r2.csv
for v in 1 2 3; do pc import -q -s ops -k perfsim -V $v o$v.csv; done
tui_script 80 24 --model ops --ref lab2 <<KEYS
3
b
b
:save-screen $T/byop.screen
Q
KEYS
expect_rc 0 "per-op trend"
expect_eq "$(awk '$2 == "time" { print $1, $NF }' "$T/byop.screen" | tr '\n' ';')" \
	"attn ###;gemm ...;" "gemm's 3.9 -> 4.6% draws low next to attn's 30%"
expect_in "sparklines share a scale per metric, 0 to: time 30.0%" \
	"$(cat "$T/byop.screen")" "the scale is said"

# a version that cannot be paired (cycles without a clock): the summaries
# stay, the tests and change points say why they are not there
printf 'workload,op,metric,value,unit\nw/bs=1,gemm,cycles,1000,cycles\n' >c.csv
pc import -q -s ops -k perfsim -V 4 c.csv
tui_script 80 24 --model ops@3 --ref lab2 <<KEYS
3
:save-screen $T/noclock.screen
Q
KEYS
expect_rc 0 "trend with an unpairable version"
expect_in "  release changes and change points not computed:" \
	"$(cat "$T/noclock.screen")" "says the tests are not computed"
expect_in "has no clock: its cycles cannot pair with" "$(cat "$T/noclock.screen")" \
	"and why"
finish
