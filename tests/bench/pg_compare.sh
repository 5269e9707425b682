#!/usr/bin/env bash
# compare on PostgreSQL against compare on SQLite (issue 22), by hand,
# under nice on a shared machine:
#   tests/bench/pg_compare.sh PERFCORR [N] [REPS]
# One study of N pairs (default 1000000; tests/bench/gen.py, kernel
# shape) imported into a SQLite file and into a private throwaway
# PostgreSQL cluster (tests/pg/cluster.sh); then `compare -f json`
# REPS times (default 3) on each, interleaved. Prints per run: client CPU
# (user + sys of perfcorr), server CPU (PostgreSQL's backend, from the
# postmaster's reaped-children times), wall and peak RSS (/usr/bin/time);
# then the medians and the ratios PostgreSQL / SQLite. Both outputs must
# agree to 1e-12 (the parity of service/pg_parity at this size).
set -euo pipefail
PERFCORR=$(realpath "${1:?usage: pg_compare.sh PERFCORR [N] [REPS]}")
N=${2:-1000000}
REPS=${3:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d /tmp/pc-pgcmp.XXXXXX)
. "$HERE/../pg/cluster.sh"
trap 'pg_cluster_stop; rm -rf "$W"' EXIT
python3 "$HERE/gen.py" "$N" "$W/g" --shape kernel --nsys-workloads 0 >/dev/null
pg_cluster_start >/dev/null || exit 77
trap 'pg_cluster_stop; rm -rf "$W"' EXIT	# (pg_cluster_start set its own)
PM=$(head -1 "$PC_PG_DIR/data/postmaster.pid")
TCK=$(getconf CLK_TCK)
srv() { awk '{ print $16 + $17 }' "/proc/$PM/stat"; }
for db in "$W/s.db" "$PC_PG_URL"; do
	"$PERFCORR" --db "$db" init >/dev/null 2>&1
	"$PERFCORR" --db "$db" import -q --source sim --kind perfsim "$W/g/model.csv"
	"$PERFCORR" --db "$db" import -q --source lab --kind silicon "$W/g/silicon.csv"
done
"$PC_PG_BIN/psql" -X -q -h "$PC_PG_DIR" -U perfcorr -d perfcorr -c "VACUUM ANALYZE"
one() { # label db -> "label client server wall rss_kb"
	local s0 s1
	sleep 1
	s0=$(srv)
	/usr/bin/time -f '%U %S %e %M' -o "$W/t" "$PERFCORR" --db "$2" \
		compare -m sim -r lab -f json >"$W/$1.json"
	sleep 1		# the backend exits and is reaped
	s1=$(srv)
	[ "$1" = pg ] || s1=$s0		# no server on SQLite
	awk -v l="$1" -v s=$(( s1 - s0 )) -v k="$TCK" \
		'{ printf "%s %.2f %.2f %.2f %d\n", l, $1 + $2, s / k, $3, $4 }' "$W/t"
}
for r in $(seq 1 "$REPS"); do
	one sqlite "$W/s.db"
	one pg "$PC_PG_URL"
done | tee "$W/runs"
python3 - "$W" "$N" <<'PY'
import json, statistics, sys
w, n = sys.argv[1], sys.argv[2]
runs = {}
for line in open(w + "/runs"):
    l, c, s, wall, rss = line.split()
    runs.setdefault(l, []).append((float(c), float(s), float(wall), int(rss)))
med = {l: [statistics.median(x[i] for x in v) for i in range(4)]
       for l, v in runs.items()}
for l in ("sqlite", "pg"):
    c, s, wall, rss = med[l]
    print("%-7s client CPU %6.2f s  server CPU %6.2f s  total %6.2f s  "
          "wall %6.2f s  peak RSS %4.0f MiB" % (l, c, s, c + s, wall,
                                                 rss / 1024))
a, b = med["sqlite"], med["pg"]
print("PostgreSQL / SQLite at %s pairs: CPU (client + server) %.2fx, "
      "wall %.2fx, RSS %.2fx" % (n, (b[0] + b[1]) / a[0], b[2] / a[2],
                                 b[3] / a[3]))
def walk(x, y, path=""):
    if isinstance(x, dict):
        assert set(x) == set(y), path
        for k in x:
            walk(x[k], y[k], path + "/" + k)
    elif isinstance(x, list):
        assert len(x) == len(y), path
        for i, (p, q) in enumerate(zip(x, y)):
            walk(p, q, "%s[%d]" % (path, i))
    elif isinstance(x, float) and isinstance(y, (int, float)):
        assert abs(x - y) <= 1e-12 * max(1, abs(x)), (path, x, y)
    else:
        assert x == y, (path, x, y)
walk(json.load(open(w + "/sqlite.json")), json.load(open(w + "/pg.json")))
print("the two outputs agree (1e-12)")
PY
