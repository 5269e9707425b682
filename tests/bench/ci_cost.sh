#!/usr/bin/env bash
# The intervals' cost (issue 34): compare --format json CPU time (user +
# sys) and peak RSS of two binaries, interleaved, on tests/bench/gen.py
# studies of N pairs in both shapes, with the second binary's --no-ci as
# the floor; medians of REPS.
#   bash tests/bench/ci_cost.sh BEFORE/perfcorr AFTER/perfcorr [N] [REPS]
# Not part of ctest. Run it under `nice` on a shared machine.
set -euo pipefail
B=${1:?usage: ci_cost.sh BEFORE AFTER [N] [REPS]}
A=${2:?usage: ci_cost.sh BEFORE AFTER [N] [REPS]}
N=${3:-100000}
REPS=${4:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d /tmp/pc-cicost.XXXXXX)
trap 'rm -rf "$W"' EXIT
for sh in kernel sweep; do
	python3 "$HERE/gen.py" "$N" "$W/g_$sh" --shape "$sh" \
		--nsys-workloads 0 >/dev/null
	"$A" --db "$W/$sh.db" init >/dev/null 2>&1
	"$A" --db "$W/$sh.db" import -q --source sim --kind perfsim \
		"$W/g_$sh/model.csv"
	"$A" --db "$W/$sh.db" import -q --source lab --kind silicon \
		"$W/g_$sh/silicon.csv"
done
one() { # shape label binary [args]
	local sh=$1 l=$2 bin=$3
	shift 3
	/usr/bin/time -f "$sh $l %U %S %M" -a -o "$W/times" "$bin" \
		--db "$W/$sh.db" compare -m sim -r lab -f json "$@" >/dev/null
}
for r in $(seq 1 "$REPS"); do
	for sh in kernel sweep; do
		one "$sh" before "$B"
		one "$sh" after "$A"
		one "$sh" no-ci "$A" --no-ci
	done
done
python3 - "$W/times" "$N" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
print("compare -f json, %s pairs: CPU s (user + sys), median; peak RSS MB" % sys.argv[2])
for sh in ("kernel", "sweep"):
    for l in ("before", "after", "no-ci"):
        v = [float(r[2]) + float(r[3]) for r in rows if r[:2] == [sh, l]]
        m = max(int(r[4]) for r in rows if r[:2] == [sh, l]) / 1024
        print("%-6s %-6s %s  median %.2f  rss %.1f" % (
            sh, l, " ".join("%.2f" % x for x in v), statistics.median(v), m))
PY
