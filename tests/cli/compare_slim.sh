# compare without --points keeps slim points (issue 21: 40 bytes a pair,
# names looked up only for printed pairs). Every summary, per-metric
# summary and group must be byte-identical to the full points' (the
# same command with --points, the "points" key dropped), on a study
# with several metrics, cycles paired with time through a clock, noisy
# and zero references, a waived pair and several parameters; and the
# per-metric n and MAPE must equal the listed points' (python below).
. "$(dirname "$0")/../cli/lib.sh"

python3 - "$T" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/m.csv", "w") as m, open(d + "/r.csv", "w") as r:
    m.write("workload,op,metric,value,unit\n")
    r.write("workload,op,metric,value,unit,n,stddev\n")
    k = 0
    for bs in (1, 2, 8):
        for phase in ("prefill", "decode"):
            w = "llm/%s/bs=%d/seq=128/fp16" % (phase, bs)
            for i, op in enumerate(("gemm", "attn", "norm", "rope", "e2e")):
                k += 1
                t = 10.0 * (i + 1) * bs
                f = 1 + ((k * 37) % 23 - 11) / 50.0
                # the model gives cycles for attn (1 GHz clock below)
                if op == "attn":
                    m.write("%s,%s,cycles,%g,cycles\n" % (w, op, t * f * 1000))
                else:
                    m.write("%s,%s,time,%g,us\n" % (w, op, t * f))
                sd = t * (0.5 if k % 7 == 0 else 0.01)   # noisy every 7th
                ref = 0 if k == 11 else t                  # one zero ref
                sd = 0 if k == 11 else sd
                r.write("%s,%s,time,%g,us,10,%g\n" % (w, op, ref, sd))
                m.write("%s,%s,power,%g,W\n" % (w, op, 100 + k * f))
                r.write("%s,%s,power,%g,W,5,1\n" % (w, op, 100 + k))
PY
pc import -q -s sim -k perfsim -V 1 --clock-mhz 1000 "$T/m.csv" &&
pc import -q -s lab -k silicon -V 1 "$T/r.csv" && ok || fail "import"
run pc annotate --workload llm/decode/bs=8/seq=128/fp16 --op gemm \
	--metric time --status accepted --note "known" --model sim --ref lab
expect_rc 0 "annotate (a waived pair)"

# json of a compare, with or without the pairs: the points key dropped
strip() {
	python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
d.pop("points", None)
print(json.dumps(d, sort_keys=False))'
}
n=0
while read -r args; do
	[ -z "$args" ] && continue
	# shellcheck disable=SC2086
	slim=$(pc compare -m sim -r lab -f json $args | strip)
	# shellcheck disable=SC2086
	full=$(pc compare -m sim -r lab -f json --points $args | strip)
	expect_eq "$slim" "$full" "slim = full points: $args"
	[ -n "$slim" ] && n=$((n + 1))
done <<'L'
--ci 0.9
--no-ci
--skip-waived
-g op
-g op_class -g metric --skip-waived
-g workload
-g param.bs
-g param.phase -g op --no-ci
--metric time
--metric time -g param.bs
--op g* -g metric
L
expect_eq "$n" 11 "every case produced output"
# the table and csv carry the same numbers
for f in table csv; do
	a=$(pc compare -m sim -r lab -f $f -g op_class --skip-waived)
	b=$(pc compare -m sim -r lab -f $f -g op_class --skip-waived --points |
		sed '/^$/,$d')
	expect_eq "$(printf '%s' "$a" | sed '/^$/,$d')" "$b" "$f: slim = full"
done

# independently: per metric, n and MAPE of the listed points (not noisy,
# a defined error), against the slim summaries
run python3 - <<PY
import json, subprocess, sys
pc = "$PERFCORR"
full = json.loads(subprocess.run([pc, "--db", "$PERFCORR_DB", "compare", "-m", "sim",
    "-r", "lab", "-f", "json", "--points", "--no-ci"], capture_output=True,
    text=True).stdout)
slim = json.loads(subprocess.run([pc, "--db", "$PERFCORR_DB", "compare", "-m", "sim",
    "-r", "lab", "-f", "json", "--no-ci"], capture_output=True, text=True).stdout)
want = {}
for p in full["points"]:
    # noisy: stddev / ref > 0.30; a zero ref has no relative error
    if p["err"] is None or (p["ref_stddev"] or 0) > 0.30 * abs(p["ref"]):
        continue
    want.setdefault(p["metric"], []).append(abs(p["err"]))
bad = []
for b in slim["by_metric"]:
    e = want.pop(b["metric"], [])
    if b["n"] != len(e) or abs(b["mape"] - sum(e) / len(e)) > 1e-12:
        bad.append("%s: n %d mape %r, points %d %r" % (b["metric"], b["n"],
                   b["mape"], len(e), sum(e) / max(len(e), 1)))
if want or len(slim["by_metric"]) != 2:
    bad.append("metrics %r" % [b["metric"] for b in slim["by_metric"]])
if slim["summary"]["excluded_noisy"] < 2 or slim["summary"]["excluded_zero_ref"] != 1:
    bad.append("noisy %r zero %r" % (slim["summary"]["excluded_noisy"],
               slim["summary"]["excluded_zero_ref"]))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "per-metric n and MAPE equal the points': $out"

# compare loads the workload parameters only for a param.NAME group key
# (issue 21: a sweep's 690,000 parameters are 60 MB a plain compare never
# reads); with one, the groups hold every pair of their bs. By hand: bs=1
# is k 1-10, bs=2 k 11-20, bs=8 k 21-30, 20 pairs each (5 ops x 2
# phases x time and power), less the noisy time references (k = 7, 14,
# 21, 28) and the zero one (k = 11): 19, 18, 18.
got=$(pc compare -m sim -r lab -f json -g param.bs --no-ci | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s:%d" % (g["key"]["param.bs"], g["n"]) for g in d["groups"]))')
expect_eq "$got" "1:19 2:18 8:18" "param.bs groups (hand-counted n)"
got=$(pc compare -m sim -r lab -g param.bs -g param.phase -f csv --no-ci |
	grep -c "prefill\|decode")
expect_eq "$got" "6" "param.bs x param.phase: 6 groups"
finish
