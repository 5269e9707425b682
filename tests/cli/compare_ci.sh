#!/usr/bin/env bash
# compare's clustered intervals (issues 19, 34): MAPE, bias, the geomean
# (jackknife t intervals) and the median |error| (workload bootstrap) in JSON
# equal an independent re-implementation (tests/ref/stats_ci_ref.py, explicit
# leave-one-out and resampled lists) fed with compare's own points, one-way
# (this study's ops are not crossed: auto) and two-way (--cluster
# workload+op); reproducible; --ci, --resamples, --no-ci, --cluster; bad
# options are usage errors; the table shows them.
. "$TESTS/cli/lib.sh"
C=$FIXTURES/corr
pc init >/dev/null 2>&1
pc import -q -s lab -k silicon -V w47 "$C/lab.csv"
pc import -q -s sim -k perfsim -V 2.0 "$C/sim-2.csv"
# 6 workloads x 2 ops (issue 34: an interval needs 5 workloads)
pc import -q -s lab6 -k silicon -V w47 "$C/ci6-lab.csv"
pc import -q -s sim6 -k perfsim -V 2.0 "$C/ci6-sim.csv"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }

run pc compare --model sim6 --ref lab6 --format json --points
expect_rc 0 "compare json"
first=$out
expect_eq "$(printf '%s' "$out" | j "d['ci']")" "{'method': 'clustered: workload bootstrap and jackknife', 'cluster': 'auto', 'level': 0.95, 'resamples': 1000, 'seed': 20261201}" "ci block"
# the reference: the pairs in the statistics (not noisy, ref != 0), their
# workloads numbered by database id as the C code does (ascending key)
ids=$(pcsql "SELECT key || '=' || id FROM workloads" | tr '\n' ' ')
got=$(printf '%s' "$out" | IDS="$ids" REF="$TESTS/ref" python3 -c '
import json, os, sys
sys.path.insert(0, os.environ["REF"])
import stats_ci_ref as R
ids = dict(x.rsplit("=", 1) for x in os.environ["IDS"].split())
d = json.load(sys.stdin)
P = [p for p in d["points"] if p["ref"] != 0]
# drop the noisy references: compare flags them via ref_stddev / ref > 0.1
P = [p for p in P if not (p["ref_stddev"] is not None and p["ref_stddev"] / abs(p["ref"]) > 0.1)]
assert len(P) == d["summary"]["n"], (len(P), d["summary"]["n"])
X = ([p["model"] for p in P], [p["ref"] for p in P],
     [int(ids[p["workload"]]) for p in P])
r = R.bound(R.boot(*X, 1000, 20261201, 0.95), *X)
s = d["summary"]
ok = all(abs(a - b) <= 1e-12 * max(1, abs(b)) for k, key in
         (("mape", "mape_ci"), ("bias", "bias_ci"), ("med", "median_abs_err_ci"),
          ("geo", "geomean_ratio_ci")) for a, b in zip(r[k], s[key]))
print("ok" if ok else "differ: %r vs %r" % (r, s))
print(s["workloads"] >= 2 and s["mape_ci"][0] <= s["mape"] <= s["mape_ci"][1])
')
expect_eq "$got" "ok
True" "intervals equal the python reference; mape inside its interval"

run pc compare --model sim6 --ref lab6 --format json --points
expect_eq "$out" "$first" "same data, same intervals (seeded)"

run pc compare --model sim6 --ref lab6 --format json --ci 0.5 --resamples 400
expect_rc 0 "--ci 0.5"
narrow=$(printf '%s' "$out" | j "d['summary']['mape_ci'][1] - d['summary']['mape_ci'][0]")
wide=$(printf '%s' "$first" | j "d['summary']['mape_ci'][1] - d['summary']['mape_ci'][0]")
expect_eq "$(python3 -c "print($narrow <= $wide)")" "True" "a 50% interval is no wider than a 95% one"
expect_eq "$(printf '%s' "$out" | j "d['ci']['level'], d['ci']['resamples']")" "(0.5, 400)" "options recorded"

run pc compare --model sim6 --ref lab6 --format json --no-ci
expect_rc 0 "--no-ci"
expect_eq "$(printf '%s' "$out" | j "d['ci'], d['summary']['mape_ci'], d['summary']['workloads'], [m['bias_ci'] for m in d['by_metric']]")" "(None, None, None, [None])" "--no-ci: nulls"
expect_eq "$(printf '%s' "$out" | j "round(d['summary']['mape'], 12)")" "$(printf '%s' "$first" | j "round(d['summary']['mape'], 12)")" "--no-ci: same MAPE"

run pc compare --model sim6 --ref lab6 --ci 1.5
expect_rc 2 "--ci 1.5 is a usage error"
expect_in "--ci takes a level between 0 and 1" "$err" "says why"
run pc compare --model sim6 --ref lab6 --resamples 0
expect_rc 2 "--resamples 0 is a usage error"

run pc compare --model sim6 --ref lab6
expect_rc 0 "table"
expect_in "intervals (CI): 95%, clustered by workload, and op where crossed (ci basis), 1000 bootstrap resamples" "$out" "table says the method"
expect_eq "$(printf '%s\n' "$out" | awk '$1 == "ci" && $2 == "basis" { print $3 }')" \
	"workload" "table says the basis"
expect_in "CI [" "$out" "table shows intervals"

# one workload: no interval (nothing measures the spread between workloads)
w=$(printf '%s' "$first" | j "d['points'][0]['workload']")
run pc compare --model sim6 --ref lab6 --format json --workload "$w"
expect_rc 0 "one workload"
expect_eq "$(printf '%s' "$out" | j "d['summary']['workloads'], d['summary']['mape_ci']")" "(1, None)" "one workload: null interval"

# two-way, asked: workloads and ops as independent units (issue 34)
run pc compare --model sim6 --ref lab6 --format json --points --cluster workload+op
expect_rc 0 "--cluster workload+op"
got=$(printf '%s' "$out" | IDS="$ids" REF="$TESTS/ref" python3 -c '
import json, os, sys
sys.path.insert(0, os.environ["REF"])
import stats_ci_ref as R
ids = dict(x.rsplit("=", 1) for x in os.environ["IDS"].split())
d = json.load(sys.stdin)
P = [p for p in d["points"] if p["ref"] != 0 and
     not (p["ref_stddev"] is not None and p["ref_stddev"] / abs(p["ref"]) > 0.1)]
X = ([p["model"] for p in P], [p["ref"] for p in P],
     [int(ids[p["workload"]]) for p in P])
r = R.bound(R.boot(*X, 1000, 20261201, 0.95, [p["op"] for p in P]), *X)
s = d["summary"]
ok = all(abs(a - b) <= 1e-11 * max(1, abs(b)) for k, key in
         (("mape", "mape_ci"), ("bias", "bias_ci"), ("med", "median_abs_err_ci"),
          ("geo", "geomean_ratio_ci")) for a, b in zip(r[k], s[key]))
print("ok" if ok else "differ: %r vs %r" % (r, s))
print(d["ci"]["cluster"], s["ci_basis"])
')
expect_eq "$got" "ok
workload+op workload+op" "two-way intervals equal the python reference"
run pc compare --model sim6 --ref lab6 --format json --cluster workload
expect_eq "$(printf '%s' "$out" | j "d['summary']['mape_ci'], d['summary']['ci_basis']")" "$(printf '%s' "$first" | j "d['summary']['mape_ci'], d['summary']['ci_basis']")" "--cluster workload: auto's one-way intervals here"
run pc compare --model sim6 --ref lab6 --cluster op
expect_rc 2 "--cluster op is a usage error"
expect_in "--cluster takes auto, workload or workload+op" "$err" "names the choices"

# the groups' intervals (resampled together in one pass, src/stats_cigroup.c)
# equal the python reference on each group's own points
run pc compare --model sim6 --ref lab6 --format json --points --group-by op
expect_rc 0 "group-by op json"
got=$(printf '%s' "$out" | IDS="$ids" REF="$TESTS/ref" python3 -c '
import json, os, sys
sys.path.insert(0, os.environ["REF"])
import stats_ci_ref as R
ids = dict(x.rsplit("=", 1) for x in os.environ["IDS"].split())
d = json.load(sys.stdin)
P = [p for p in d["points"] if p["ref"] != 0 and
     not (p["ref_stddev"] is not None and p["ref_stddev"] / abs(p["ref"]) > 0.1)]
done = 0
for g in d["groups"]:
    Q = [p for p in P if p["op"] == g["key"]["op"]]
    assert len(Q) == g["n"], (len(Q), g["n"])
    if g["workloads"] < R.MIN_WORKLOADS:
        assert g["mape_ci"] is None
        continue
    X = ([p["model"] for p in Q], [p["ref"] for p in Q],
         [int(ids[p["workload"]]) for p in Q])
    r = R.bound(R.boot(*X, 1000, 20261201, 0.95), *X)
    assert all(abs(a - b) <= 1e-12 * max(1, abs(b)) for k, key in
               (("mape", "mape_ci"), ("bias", "bias_ci"), ("med", "median_abs_err_ci"),
                ("geo", "geomean_ratio_ci")) for a, b in zip(r[k], g[key])), (r, g)
    done += 1
print(done)
')
expect_eq "$got" "2" "each group of five or more workloads: intervals equal the python reference"

# issue 34: 2 workloads are too few for any interval (the old code printed
# zero-width or impossible ones): null in JSON with the reason, 'CI unknown'
# and the reason in the table
run pc compare --model sim --ref lab --format json
expect_rc 0 "2 workloads"
expect_eq "$(printf '%s' "$out" | j "d['summary']['workloads'], d['summary']['mape_ci'], d['summary']['median_abs_err_ci'], d['summary']['pearson_ci'], d['summary']['ci_unknown']")" \
	"(2, None, None, None, 'only 2 workloads; an interval needs >= 5 (3 more would decide)')" \
	"2 workloads: every interval null, ci_unknown says why and what decides"
expect_eq "$(printf '%s' "$first" | j "d['summary']['ci_unknown']")" "None" "6 workloads: ci_unknown null"
run pc compare --model sim --ref lab
expect_rc 0 "2 workloads: table"
expect_eq "$(printf '%s\n' "$out" | awk '$1 == "mape" { print $3, $4 }')" "CI unknown" "table: CI unknown"
expect_in "unknown  only 2 workloads; an interval needs >= 5 (3 more would decide)" "$out" "table: the reason"
expect_not_in "CI [" "$out" "table: no interval"
finish
