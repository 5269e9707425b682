#!/usr/bin/env bash
# Slim points keep a 16-bit op index and an 8-bit metric index (issue
# 21: 32 bytes a pair); a set with more ops or metrics than that gets
# full points (corr_load), never a truncated index. Two studies, one
# workload each:
#   257 metrics m000..m256 (unit us), ref 100, model 100 (1 + i / 1000):
#     the block of m256 (index 256: 0 in 8 bits) has MAPE 0.256, n 1;
#   65,537 ops a.0..a.65535 (model = ref) then z.last (model 1.5 x ref):
#     --group-by op_class: class z holds 1 pair with MAPE 0.5 (z.last is
#     index 65,536, which 16 bits would read as a.0 of class a);
#   the report's copy of the points (corr_set_view), below.
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
python3 - "$T" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/m.csv", "w") as m, open(d + "/r.csv", "w") as r:
    for f in (m, r):
        f.write("workload,op,metric,value,unit\n")
    for i in range(257):
        m.write("w/bs=1,k,m%03d,%r,us\n" % (i, 100 * (1 + i / 1000)))
        r.write("w/bs=1,k,m%03d,100,us\n" % i)
with open(d + "/um.csv", "w") as m, open(d + "/ur.csv", "w") as r:
    for f in (m, r):
        f.write("workload,op,metric,value,unit\n")
    for i in range(256):
        m.write("w/bs=1,k,m%03d,%r,us\n" % (i, 100 * (1 + i / 1000)))
        r.write("w/bs=1,k,m%03d,100,us\n" % i)
    m.write("w/bs=1,k,m256r,200,tok/s\n")
    r.write("w/bs=1,k,m256r,100,tok/s\n")
with open(d + "/om.csv", "w") as m, open(d + "/or.csv", "w") as r:
    for f in (m, r):
        f.write("workload,op,metric,value,unit\n")
    for i in range(65536):
        m.write("w/bs=1,a.%d,time,100,us\n" % i)
        r.write("w/bs=1,a.%d,time,100,us\n" % i)
    m.write("w/bs=1,z.last,time,150,us\n")
    r.write("w/bs=1,z.last,time,100,us\n")
PY
pc import -q -s sim -k perfsim -V 1 "$T/m.csv" &&
pc import -q -s lab -k silicon -V 1 "$T/r.csv" && ok || fail "import metrics"
run pc compare -m sim -r lab -f json --no-ci
expect_rc 0 "257 metrics"
expect_eq "$(printf '%s' "$out" | j "len(d['by_metric'])")" "257" "257 metric blocks"
expect_eq "$(printf '%s' "$out" | j "[(b['n'], round(float(b['mape']), 12)) for b in d['by_metric'] if b['metric'] == 'm256']")" \
	"[(1, 0.256)]" "m256: its own pair"
expect_eq "$(printf '%s' "$out" | j "[(b['n'], round(float(b['mape']), 12)) for b in d['by_metric'] if b['metric'] == 'm000']")" \
	"[(1, 0.0)]" "m000: its own pair only"
# report reads a compact copy of the points (corr_set_view) with the
# same widths: the 256 time metrics m000..m255 and m256r in tok/s (a
# rate: higher is better; index 256), model 200 against ref 100:
# optimistic. Read as index 0 (m000, lower is better), its rows said
# pessimistic.
pc import -q -s usim -k perfsim -V 1 "$T/um.csv" &&
pc import -q -s ulab -k silicon -V 1 "$T/ur.csv" && ok || fail "import rates"
run pc report -m usim -r ulab -f json
expect_rc 0 "report, 257 metrics"
expect_eq "$(printf '%s' "$out" | j "[(g['n'], g['optimistic'], g['pessimistic']) for g in d['groups'] if g['key']['metric'] == 'm256r']")" \
	"[(1, 1, 0), (1, 1, 0)]" "report: m256r (a rate) is optimistic, its row and its op class row"
run pc compare -m usim -r ulab -f json --no-ci
expect_eq "$(printf '%s' "$out" | j "[(b['optimistic'], b['pessimistic']) for b in d['by_metric'] if b['metric'] == 'm256r']")" \
	"[(1, 0)]" "compare: m256r optimistic"
pc import -q -s osim -k perfsim -V 1 "$T/om.csv" &&
pc import -q -s olab -k silicon -V 1 "$T/or.csv" && ok || fail "import ops"
run pc compare -m osim -r olab -f json --no-ci -g op_class
expect_rc 0 "65,537 ops"
expect_eq "$(printf '%s' "$out" | j "sorted((g['key']['op_class'], g['n'], round(float(g['mape']), 12)) for g in d['groups'])")" \
	"[('a', 65536, 0.0), ('z', 1, 0.5)]" "op classes a and z"
finish
