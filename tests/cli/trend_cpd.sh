#!/usr/bin/env bash
# trend's change points (issue 34 item 5): over 12 versions, where the
# error stepped, found by E-Divisive (src/stats/stats_cpd.c) on the error,
# model and reference series of the pairs every version holds, and
# labelled by which side moved there: a model release that got 25% slower
# at version 7 ("model changed"), nightly silicon runs whose reference
# moved at night 9 ("reference moved", --over ref), and nightly runs of
# both with a model step, a reference step and a step of both (--over
# both, 16 nights). A step-free series has none; a short trend prints no
# section. The report's trend section carries the same change points.
. "$TESTS/cli/lib.sh"
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
# A: the model's versions 1..12 against lab@1; version 7 is 25% slower
w("ref.csv", [(k[0], k[1], "time", repr(b), "us") for k, b in zip(keys, base)])
for v in range(1, 13):
    f = 1.25 if v >= 7 else 1.0
    w("m%d.csv" % v, [(k[0], k[1], "time",
                      repr(b * 1.05 * f * (1 + noise(v, i, 0.01))), "us")
                     for i, (k, b) in enumerate(zip(keys, base))])
# a step-free model: 12 versions of noise only
for v in range(1, 13):
    w("f%d.csv" % v, [(k[0], k[1], "time",
                      repr(b * 1.05 * (1 + noise(v, i, 0.01))), "us")
                     for i, (k, b) in enumerate(zip(keys, base))])
# B: nightly silicon n01..n12 (2% noise), +20% from night 9
for v in range(1, 13):
    f = 1.2 if v >= 9 else 1.0
    w("n%02d.csv" % v, [(k[0], k[1], "time",
                        repr(b * f * (1 + noise(v, i, 0.02))), "us")
                       for i, (k, b) in enumerate(zip(keys, base))])
# C: nightly runs of both, d01..d16: the model x1.3 from d05, the
# reference x1.2 from d09, and both (model x0.8, reference x1.1) from d13
for v in range(1, 17):
    fm = (1.3 if v >= 5 else 1.0) * (0.8 if v >= 13 else 1.0)
    fr = (1.2 if v >= 9 else 1.0) * (1.1 if v >= 13 else 1.0)
    w("dm%02d.csv" % v, [(k[0], k[1], "time", repr(b * 1.05 * fm), "us")
                         for k, b in zip(keys, base)])
    w("dr%02d.csv" % v, [(k[0], k[1], "time",
                         repr(b * fr * (1 + noise(v, i, 0.01))), "us")
                        for i, (k, b) in enumerate(zip(keys, base))])
PY
pc import -q -s lab -k silicon -V 1 ref.csv
for v in $(seq 1 12); do
	pc import -q -s sim -k perfsim -V $v m$v.csv
	pc import -q -s flat -k perfsim -V $v f$v.csv
done
for v in $(seq -w 1 12); do
	pc import -q -s night -k silicon -V n$v n$v.csv
done
for v in $(seq -w 1 16); do
	pc import -q -s dsim -k perfsim -V d$v dm$v.csv
	pc import -q -s dlab -k silicon -V d$v dr$v.csv
done
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }

# A: one step, at version 7, the model's
run pc trend --model sim --ref lab --format json
expect_rc 0 "trend json"
expect_eq "$(printf '%s' "$out" | j "[(s['after'], s['version'], s['label']) for s in d['change_points']['steps']]")" \
	"[('6', '7', 'model changed')]" "one step, at 7, the model's"
expect_eq "$(printf '%s' "$out" | j "[d['change_points'][k] for k in ('method', 'alpha', 'permutations', 'seed', 'versions', 'common', 'model_steps', 'reference_steps', 'why')]")" \
	"['e-divisive', 0.05, 199, 20261204, 12, 18, ['7'], [], None]" "method, series and the sides' steps"
# MAPE on the common pairs before and after: the segments' means
expect_eq "$(printf '%s' "$out" | j "(lambda s, v: (round(s['mape_before'], 12) == round(sum(x['summary']['mape'] for x in v[:6]) / 6, 12), round(s['mape_after'], 12) == round(sum(x['summary']['mape'] for x in v[6:]) / 6, 12), s['p'] <= 0.05))(d['change_points']['steps'][0], d['versions'])")" \
	"(True, True, True)" "the segments' MAPE (every pair is common here) and p"
run pc trend --model sim --ref lab
expect_in "change points (E-Divisive, permutation test: alpha 0.05, 199 permutations, seed 20261204) on the 18 pairs all 12 paired versions hold:" \
	"$out" "text heading"
expect_in "  6 -> 7: MAPE " "$out" "text step"
expect_in ": model changed" "$out" "text label"

# the report's trend section says the same (issue 34 item 5)
run pc report --model sim@12 --ref lab --format md
expect_rc 0 "report md"
expect_in "  6 -> 7: MAPE " "$out" "report md: the step under the trend table"
run pc report --model sim@12 --ref lab --format json
expect_eq "$(printf '%s' "$out" | j "[(s['version'], s['label']) for s in d['trend']['change_points']['steps']]")" \
	"[('7', 'model changed')]" "report json: trend.change_points"
# and the HTML's trend section: a row per step with the versions it sits
# between, the MAPE either side, p and its label, as the text says them
# (issue 34 item 5)
run pc trend --model sim --ref lab
txt=$(printf '%s' "$out" | grep '^  6 -> 7: ')
run pc report --model sim@12 --ref lab --format html
expect_rc 0 "report html"
expect_eq "$(printf '%s' "$out" | python3 -c "
import re, sys
h = sys.stdin.read()
t = h[h.index('<section id=\"trend\">'):]
t = t[:t.index('</section>')]
rows = [re.findall(r'<td[^>]*>(?:<span[^>]*>)?([^<]*)', r)
        for r in re.findall(r'<tr class=\"cpd-step\">(.*?)</tr>', t)]
print('Change points</h3>' in t, len(rows))
for a, v, mb, ma, p, l in rows:
    print('  %s -> %s: MAPE %s -> %s, p %s: %s' % (a, v, mb, ma, p, l))")" \
	"$(printf 'True 1\n%s' "$txt")" "report html: one step row, 6 -> 7, model changed"
# the trend table's step column: the label at 7 only
expect_eq "$(printf '%s' "$out" | python3 -c "
import re, sys
h = sys.stdin.read()
t = h[h.index('<section id=\"trend\">'):]
t = t[:t.index('</tbody>')]
print('<th>step</th>' in t, [(re.match(r'<td[^>]*>([^<]*)', r).group(1), re.search(r'<span class=\"tag cpd-model\">([^<]*)', r).group(1))
       for r in re.findall(r'<tr[^>]*>(.*?)</tr>', t) if 'cpd-at' in r])")" \
	"True [('7', 'model changed')]" "report html: the trend table marks version 7"
run pc report --model flat@12 --ref lab --format html
expect_in '<p class="cpd-none">No change point: the best split has p ' "$out" \
	"report html: a step-free series says none"
expect_not_in '<th>step</th>' "$out" "report html: no step column without a step"

# a step-free series: none
run pc trend --model flat --ref lab --format json
expect_eq "$(printf '%s' "$out" | j "d['change_points']['steps'], d['change_points']['p_stop'] > 0.05")" \
	"([], True)" "no step: none found"
run pc trend --model flat --ref lab
expect_in "  none (the best split has p " "$out" "text: none"

# B: nightly silicon, the reference moved at night 9
run pc trend --over ref --model sim@1 --ref night --format json
expect_rc 0 "trend --over ref"
expect_eq "$(printf '%s' "$out" | j "d['over'], [v['version'] for v in d['versions']][:2], [(s['after'], s['version'], s['label']) for s in d['change_points']['steps']], d['change_points']['model_steps']")" \
	"('ref', ['n01', 'n02'], [('n08', 'n09', 'reference moved')], [])" "the reference moved at n09"
run pc trend --over ref --model sim@1 --ref night
expect_in "reference: night (every version)" "$out" "text names the reference's series"
expect_in "  n08 -> n09: MAPE " "$out" "text step"

# C: nightly runs of both sides
run pc trend --over both --model dsim --ref dlab --format json
expect_rc 0 "trend --over both"
expect_eq "$(printf '%s' "$out" | j "[(s['version'], s['label']) for s in d['change_points']['steps']]")" \
	"[('d05', 'model changed'), ('d09', 'reference moved'), ('d13', 'both')]" \
	"each step labelled by the side that moved"

# refusals
run pc trend --over ref --model sim --ref night@n01
expect_rc 2 "--over ref with a reference version"
expect_in "--ref takes a source without a version" "$err" "says why"
run pc trend --over sideways --model sim --ref lab
expect_rc 2 "a bad --over"
expect_in "--over takes 'model', 'ref' or 'both'" "$err" "names the choices"

# fewer than 4 versions: no text section, the JSON says why
pc import -q -s short -k perfsim -V 1 m1.csv
pc import -q -s short -k perfsim -V 2 m7.csv
run pc trend --model short --ref lab
expect_not_in "change points" "$out" "a short trend prints no section"
run pc trend --model short --ref lab --format json
expect_eq "$(printf '%s' "$out" | j "d['change_points']['why'], d['change_points']['steps']")" \
	"('fewer than 4 versions paired', [])" "JSON says why"
# ... and counts the pairs every paired version holds (three versions:
# m3's without the norm rows, all of m1's, one that pairs nothing)
grep -v ',norm,' m3.csv >s2.csv
sed 's/^net/other/' m3.csv >s3.csv
pc import -q -s short3 -k perfsim -V 1 s2.csv
pc import -q -s short3 -V 2 m1.csv
pc import -q -s short3 -V 3 s3.csv
want=$(python3 - m1.csv s2.csv <<'PY'
import sys
keys = [set(tuple(l.split(",")[:3]) for l in open(f).read().split("\n")[1:] if l)
        for f in sys.argv[1:]]
print("(2, %d, 'fewer than 4 versions paired')" % len(set.intersection(*keys)))
PY
)
run pc trend --model short3 --ref lab --format json
expect_eq "$(printf '%s' "$out" | j "d['change_points']['versions'], d['change_points']['common'], d['change_points']['why']")" \
	"$want" "a short trend: the versions that paired and the pairs all hold (python's intersection)"
finish
