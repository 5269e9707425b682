#!/usr/bin/env bash
# A second version of a model with energy results imports in time linear
# in its size (QA finding 2026-12-07: the 1M kernel study's sim@2 did not
# finish in 15 minutes, 44 GB read). db_derive_efficiency looks for the
# source's token results a power log of this run could complete; its
# query filtered the metric after joining metrics last, so it ran the
# correlated EXISTS (a scan of this run's results) for every result of
# the source's other runs: quadratic. 50,000 keys x (time, energy):
# ~80 s of CPU for the second import on the old code (unloaded), ~1 s
# now; the bound below leaves the loaded CI machine 20x.
. "$TESTS/cli/lib.sh"
cd "$T" || exit 1
python3 - <<'PY'
for v in (1, 2):
    with open("m%d.csv" % v, "w") as f:
        f.write("workload,op,metric,value,unit\n")
        for i in range(50000):
            f.write("net%d,gemm,time,%g,us\n" % (i, 10 + i % 97 + v))
            f.write("net%d,gemm,energy,%g,J\n" % (i, 1 + i % 13))
PY
run pc import -q -s sim -k perfsim -V 1 m1.csv
expect_rc 0 "the first version"
run timeout 60 "$PERFCORR" import -q -s sim -V 2 m2.csv
expect_rc 0 "the second version within 60 s (124: timed out)"
expect_eq "$(pc runs --format csv 2>/dev/null | awk -F, '$2 == "sim" { n += $8 } END { print n }')" \
	"200000" "both versions stored"
finish
