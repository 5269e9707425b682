#!/usr/bin/env bash
# Headless at 80x24: the Sensitivity view (7, issue 38 item 3) on
# fixtures/sens/ (a blind op and a wrong-direction op along bs): the
# counts, the flagged sweeps first (largest |e_model - e_ref| first), each
# sweep's elasticities, tau and the two sparklines as tests/ref/sens_ref.py
# and a plain-python sparkline compute them, the per-knob table as
# `perfcorr sensitivity --format json` gives it; q goes back.
. "$(dirname "$0")/../tui/libtui.sh"
S=$FIXTURES/sens
pc init >/dev/null
pc import -q -s sim -k perfsim "$S/model.csv"
pc import -q -s lab -k silicon "$S/silicon.csv"

# Every sweep's two lines as the view should draw them, in its order:
# flagged first, then |e_model - e_ref| descending, then knob, op,
# metric, fixed key. Sparklines: ln value at up to 8 evenly spaced points,
# each side on a span centred on its own range, the span the larger of the
# two sides' log ranges and ln 1.2; levels _.-~=+*# (ASCII under LC_ALL=C).
python3 "$TESTS/ref/sens_ref.py" "$S/model.csv" "$S/silicon.csv" > "$T/ref.txt"
python3 - "$S/model.csv" "$S/silicon.csv" "$T/ref.txt" > "$T/want.txt" <<'EOF'
import csv, math, sys
def read(p):
    with open(p) as f:
        return {(r["workload"], r["op"], r["metric"]): float(r["value"]) for r in csv.DictReader(f)}
model, ref = read(sys.argv[1]), read(sys.argv[2])
def series(knob, op, metric, fixed):
    pts = []
    for (w, o, m), mv in model.items():
        if o != op or m != metric or (w, o, m) not in ref:
            continue
        parts = w.split("/")
        for i, p in enumerate(parts):
            if p.startswith(knob + "=") and "/".join(parts[:i] + parts[i + 1:]) == fixed:
                pts.append((float(p.split("=", 1)[1]), mv, ref[(w, o, m)]))
    return sorted(pts)
def spark(v, span):
    n = len(v); m = min(n, 8)
    idx = [int(math.floor(i * (n - 1) / (m - 1) + 0.5)) if m > 1 else 0 for i in range(m)]
    l = [math.log(v[i]) for i in idx]
    mid = (min(l) + max(l)) / 2
    lo, hi = mid - span / 2, mid + span / 2
    return "".join("_.-~=+*#"[int(math.floor((min(max(x, lo), hi) - lo) / (hi - lo) * 7 + 0.5))] for x in l)
def num(x):
    return "%+.3f" % x
def cut(s, w):
    return s if len(s) <= w else s[:w - 1] + "~"
rows = []
for line in open(sys.argv[3]):
    knob, op, metric, fixed, em, er, tau, flag = line.split()
    em, er, tau = float(em), float(er), float(tau)
    pts = series(knob, op, metric, fixed)
    x = [p[0] for p in pts]; mv = [p[1] for p in pts]; rv = [p[2] for p in pts]
    span = max(math.log(max(mv) / min(mv)), math.log(max(rv) / min(rv)), math.log(1.2))
    l1 = "  %-5s %-10s %-19s %7s %7s %5s  %-8s %s" % (
        flag if flag != "ok" else "ok", cut(knob, 10), cut(op + " " + metric, 19), num(em), num(er),
        "-" if math.isnan(tau) else "%.2f" % tau, spark(mv, span), spark(rv, span))
    l2 = "        %s %.4g..%.4g (%d): %s" % (knob, x[0], x[-1], len(x), fixed)
    rows.append((flag == "ok", -abs(em - er), knob, op, metric, fixed, l1, l2))
for r in sorted(rows):
    print(r[6]); print(r[7])
EOF
expect_eq "$(grep -c '^  blind\|^  wrong' "$T/want.txt")" 6 "the fixture has 6 flagged sweeps"

tui_script 80 24 --model sim --ref lab <<KEYS
7
:save-screen $T/v.screen
q
:save-screen $T/back.screen
q
KEYS
expect_rc 0 "open the view and quit"
v=$(cat "$T/v.screen")
expect_in "Sensitivity | sim@unversioned vs lab@unversioned: 6/32 flagged" \
	"$(screen_line "$T/v.screen" 1)" "title: the pair and the flagged count"
expect_in "32 sweeps: 3 blind, 3 wrong direction; 0 pairs left out" "$v" "the counts"
expect_in "$(sed -n 1,12p "$T/want.txt")" "$v" \
	"the six flagged sweeps first, worst first, as the reference computes them"
expect_in "  blind bs         attn time            -0.001  +0.801  0.00  ==~~=    _-~+#" \
	"$v" "the blind model's sparkline is flat, the reference's climbs"
expect_in "  wrong bs         norm time            -0.130  +0.146 -1.00  #+~-_    _-~+#" \
	"$v" "the wrong-direction model falls where the reference climbs"
expect_in "Discrepancies" "$(screen_line "$T/back.screen" 1)" "q goes back"

# the whole view at 80x90: the per-knob table equals the command's JSON,
# and every sweep follows in the same order as the reference's
run pc sensitivity --model sim --ref lab --format json
knobs=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = lambda x: "-" if x is None else "%+.3f" % x
for k in d["knobs"]:
    om = k["op"] + " " + k["metric"]
    print("  %-14s %-21s %6d %7s %7s %5s %5d %5d" % (k["knob"], om, k["n_sweeps"],
          n(k["e_model_median"]), n(k["e_ref_median"]),
          "-" if k["tau_mean"] is None else "%.2f" % k["tau_mean"], k["blind"], k["wrong_direction"]))')
tui_script 80 100 --model sim --ref lab <<KEYS
7
:save-screen $T/all.screen
q
q
KEYS
all=$(cat "$T/all.screen")
expect_in "$knobs" "$all" "the per-knob table equals perfcorr sensitivity's"
expect_in "$(sed -n '13,$p' "$T/want.txt")" "$all" "the sweeps that follow, in order"
expect_in "The sweeps that follow (26)" "$all" "26 not flagged"

# QA finding: in a UTF-8 locale a sparkline's glyphs are 3 bytes each and
# printf padded the model's by bytes: a 3-point sweep's ref sparkline stood
# 5 columns left of its heading. Every sweep row's ref sparkline starts in
# the heading's "ref" column (one glyph, one column)
LC_ALL=C.UTF-8 tui_script 80 100 --model sim --ref lab <<KEYS
7
:save-screen $T/utf8.screen
q
q
KEYS
expect_rc 0 "the view in UTF-8"
run python3 - "$T/utf8.screen" <<'EOF'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
at, bad, rows = None, [], 0
for l in lines:
    if l.startswith("  flag  knob"):
        at = l.index(" ref") + 1
    elif at and l[:7] in ("  ok   ", "  blind", "  wrong"):
        rows += 1
        if len(l) <= at or l[at - 1] != " " or l[at] == " ":
            bad.append(l)
short = sum(1 for l in lines if l[:7] in ("  ok   ", "  blind", "  wrong") and
            len(l.split()[-1]) < 8)
print(rows, short, "misaligned:" if bad else "aligned", *bad[:3])
EOF
expect_eq "$(cut -d' ' -f3 <<<"$out")" "aligned" "every ref sparkline under its heading in UTF-8 ($out)"
expect_eq "$([ "$(cut -d' ' -f2 <<<"$out")" -gt 0 ] && echo yes)" yes \
	"the fixture has sweeps shorter than 8 points (the case that moved)"

# "1 pair", "1 sweep" (QA finding: "1 pairs"): one sweep of 3 points and
# one pair left out (a reference of 0)
printf 'workload,op,metric,value,unit\nb/bs=1,gemm,time,1.0,ms\nb/bs=2,gemm,time,2.0,ms\nb/bs=4,gemm,time,4.0,ms\nb/bs=8,gemm,time,8.0,ms\n' >"$T/m1.csv"
sed 's/,8.0,/,0,/' "$T/m1.csv" >"$T/r1.csv"
pc import -q -s m1 -k perfsim "$T/m1.csv"
pc import -q -s r1 -k silicon "$T/r1.csv"
tui_script 80 24 --model m1 --ref r1 <<KEYS
7
:save-screen $T/one.screen
q
q
KEYS
expect_in "1 sweep: 0 blind, 0 wrong direction; 1 pair left out" "$(cat "$T/one.screen")" \
	"singular counts"

# a pair without any sweep says what a sweep needs; the review goes on
cat > "$T/m.csv" <<EOF
workload,op,metric,value,unit
a/bs=1,gemm,time,1.0,ms
a/bs=2,gemm,time,2.0,ms
EOF
sed 's/,1.0,/,1.1,/' "$T/m.csv" > "$T/r.csv"
pc import -q -s m2 -k perfsim "$T/m.csv"
pc import -q -s r2 -k silicon "$T/r.csv"
tui_script 80 24 --model m2 --ref r2 <<KEYS
7
:save-screen $T/none.screen
q
q
KEYS
expect_rc 0 "no sweep does not end the review"
expect_in "no sweep to measure: a sweep is one op and metric over >= 3" \
	"$(cat "$T/none.screen")" "says what a sweep needs"
finish
