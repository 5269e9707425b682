#!/usr/bin/env bash
# trend and diff say whether a change between two releases is significant
# (issues 19, 34): on the pairs both hold, the release-change test's
# interval and p (cluster-robust over workloads and ops, as the gate),
# equal to tests/ref/stats_change_ref.py fed with the two versions' own
# points, and the pair-level Wilcoxon p equal to stats_paired_ref.py; a
# clear regression is "worse", a wobble "not significant".
. "$TESTS/cli/lib.sh"
pc init >/dev/null 2>&1
python3 - "$PWD" <<'PY'
import sys, os
d = sys.argv[1]
ops = (("gemm", 100.0), ("attn", 37.0), ("norm", 5.0))
def w(name, hdr, rows):
    with open(os.path.join(d, name), "w") as f:
        f.write(hdr + "\n")
        for r in rows:
            f.write(",".join(map(str, r)) + "\n")
ref, v1, v2, v3 = [], [], [], []
k = 0
for wl in range(20):
    for op, base in ops:
        k += 1
        r = base * (1 + wl)
        e1 = 0.02 * (((k * 7) % 11) - 5) / 5            # within +-2%
        e2 = e1 + (0.03 if e1 >= 0 else -0.03)          # 3 pt worse each
        e3 = e2 + 0.002 * (((k * 5) % 7) - 3) / 3       # a wobble
        key = ("net/bs=%d" % (wl + 1), op, "time")
        ref.append(key + (repr(r), "us", 5, repr(r * 0.01)))
        v1.append(key + (repr(r * (1 + e1)), "us"))
        v2.append(key + (repr(r * (1 + e2)), "us"))
        if k % 10:                                      # v3 drops 6 pairs
            v3.append(key + (repr(r * (1 + e3)), "us"))
w("ref.csv", "workload,op,metric,value,unit,n,stddev", ref)
for n, v in (("v1.csv", v1), ("v2.csv", v2), ("v3.csv", v3)):
    w(n, "workload,op,metric,value,unit", v)
PY
pc import -q -s lab -k silicon -V 1 ref.csv
for v in 1 2 3; do pc import -q -s sim -k perfsim -V $v v$v.csv; done
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
# the python references: stats_change_ref.py (the verdict's test) and
# stats_paired_ref.py's functions (the pair-level Wilcoxon; an exact one,
# <= 50 nonzero differences, by enumerating the sums of the doubled ranks
# here). Prints "ok" or what differs.
refpy() {
	REF="$TESTS/ref" python3 -c '
import json, math, os, sys
sys.path.insert(0, os.environ["REF"])
from stats_change_ref import change
src = open(os.path.join(os.environ["REF"], "stats_paired_ref.py")).read()
exec(src[:src.index("before=[")])
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
c = json.load(sys.stdin)["change"]
key = lambda p: (p["workload"], p["op"], p["metric"])
ea = {key(p): abs(p["err"]) for p in a["points"]}
eb = {key(p): abs(p["err"]) for p in b["points"]}
common = sorted(set(ea) & set(eb))
d = [eb[k] - ea[k] for k in common]
r = ranks(d)
if len(r) <= 50:
    dist = {0: 1}
    for k, _ in r:
        nd = dict(dist)
        for s, n in dist.items():
            nd[s + int(round(2 * k))] = nd.get(s + int(round(2 * k)), 0) + n
        dist = nd
    w2 = int(round(2 * sum(k for k, pos in r if pos)))
    tot = 2 ** len(r)
    pi = sum(n for s, n in dist.items() if s >= w2) / tot
    pd = sum(n for s, n in dist.items() if s <= w2) / tot
    test = "wilcoxon-exact"
else:
    _, _, pi, pd = wil_norm(d)
    test = "wilcoxon-normal"
if max(d) - min(d) < 1e-12 * max(map(abs, d)):
    # every pair changed alike: exact, no spread (stats_change.h)
    x = dict(delta=sum(d) / len(d), lo=sum(d) / len(d), hi=sum(d) / len(d), p_two=0.0, p_inc=0.0, df=None, two_way=True,
             workloads=len(set(k[0] for k in common)), ops=len(set(k[1] for k in common)))
else:
    x = change([ea[k] for k in common], [eb[k] for k in common], [k[0] for k in common], [k[1] for k in common])
want = [len(common), x["delta"], x["lo"], x["hi"], x["p_two"], x["p_inc"], x["df"], x["workloads"], x["ops"], min(1, 2 * min(pi, pd))]
got = [c["common"], c["delta"], *c["delta_ci"], c["p_two_sided"], c["p_increase"], c["df"], c["workloads"], c["ops"], c["pair_level"]["p_two_sided"]]
bad = [(x, y) for x, y in zip(got, want) if (x is None) != (y is None) or (x is not None and abs(x - y) > 1e-9 * max(abs(y), 1e-3))]
ok = not bad and test == c["pair_level"]["test"] and c["design"] == ("workloads x ops" if x["two_way"] else "workloads")
print("ok" if ok else (bad, test, c["pair_level"]["test"], c["design"]))
' "$1" "$2"
}
pc compare --model sim@1 --ref lab --format json --points > c1.json
pc compare --model sim@2 --ref lab --format json --points > c2.json
pc compare --model sim@3 --ref lab --format json --points > c3.json

run pc diff --model sim@1..2 --ref lab --format json
expect_rc 0 "diff json"
expect_eq "$(printf '%s' "$out" | refpy c1.json c2.json)" "ok" "diff: delta, interval and p equal the python reference"
expect_eq "$(printf '%s' "$out" | j "d['change']['verdict'], d['change']['significant']")" "('worse', True)" "a 3 pt regression on every pair is significant"
run pc diff --model sim@1..2 --ref lab
expect_in "MAPE change on the 60 common pairs: +3.00 pt" "$out" "diff table line"
expect_in ": worse" "$out" "diff table verdict"

run pc diff --model sim@2..3 --ref lab --format json
expect_eq "$(printf '%s' "$out" | refpy c2.json c3.json)" "ok" "diff 2..3 equals the python reference"
expect_eq "$(printf '%s' "$out" | j "d['change']['verdict'], d['change']['only_before'], d['change']['only_after']")" "('not significant', 6, 0)" "a wobble is not significant; dropped pairs counted"

run pc trend --model sim --ref lab --format json
expect_rc 0 "trend json"
expect_eq "$(printf '%s' "$out" | j "[(v['version'], v['change'] and (v['change']['from'], v['change']['paired']['common'], v['change']['paired']['verdict'])) for v in d['versions']]")" "[('1', None), ('2', ('1', 60, 'worse')), ('3', ('2', 54, 'not significant'))]" "trend: change per version"
expect_eq "$(printf '%s' "$out" | j "d['versions'][1]['change']['paired']['delta_ci']")" "$(pc diff --model sim@1..2 --ref lab --format json | j "d['change']['delta_ci']")" "trend and diff agree"
run pc trend --model sim --ref lab
expect_in "+3.00 pt *" "$out" "trend marks the significant change"
expect_in "2 -> 3: MAPE change on the 54 common pairs" "$out" "trend explains each change"
finish
