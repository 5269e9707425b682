#!/usr/bin/env bash
# Benchmarks for the correlation core (not part of ctest).
#   tests/bench/run_bench.sh [BUILD_DIR] [N]
# 1. stats_compute over N pairs (tests/bench/bench_stats.c, -O2).
# 2. perfcorr compare over N pairs read from SQLite: the database is built
#    with the sqlite3 shell (fast), then compare --format json is timed
#    (pairing query + statistics + JSON of the summary).
set -euo pipefail
B=${1:-build}
N=${2:-1000000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$ROOT" \
	"$ROOT/tests/bench/bench_stats.c" "$B/libpc_core.a" "$B/libpc_db.a" \
	"$B/libpc_importers.a" "$B/libpc_base.a" \
	$(pkg-config --cflags --libs gsl sqlite3 libcjson) -lm -o "$T/bench_stats"
"$T/bench_stats" "$N" 5

export PERFCORR_DB="$T/bench.db"
"$B/perfcorr" init >/dev/null 2>&1
W=$(( (N + 99) / 100 ))		# N pairs = W workloads x 100 ops
sqlite3 "$PERFCORR_DB" <<SQL
PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
BEGIN;
INSERT INTO sources (name, kind, created_at) VALUES
	('sim', 'perfsim', '2026-01-01T00:00:00Z'),
	('hw', 'silicon', '2026-01-01T00:00:00Z');
INSERT INTO runs (source_id, version, format, file_name, sha256, imported_at)
	VALUES (1, '1', 'bench', 'sim.csv', 'a', '2026-01-01T00:00:00Z'),
	       (2, '1', 'bench', 'hw.csv', 'b', '2026-01-01T00:00:00Z');
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $W)
INSERT INTO workloads (key, name) SELECT 'w/bs=' || i, 'w' FROM k;
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 100)
INSERT INTO ops (name, class) SELECT 'op' || i, 'c' || (i % 7) FROM k;
INSERT INTO results (run_id, workload_id, op_id, metric_id, value, n, stddev)
	SELECT 2, w.id, o.id, 1, 1e-6 * (1 + ((w.id * 7919 + o.id * 104729) % 10000)),
	       20, 1e-8 * (1 + (w.id + o.id) % 50)
	FROM workloads w, ops o;
INSERT INTO results (run_id, workload_id, op_id, metric_id, value)
	SELECT 1, workload_id, op_id, metric_id,
	       value * (0.7 + 0.6 * ((workload_id * 31 + op_id * 17) % 1000) / 1000.0)
	FROM results WHERE run_id = 2;
COMMIT;
SQL
echo "database: $(sqlite3 "$PERFCORR_DB" 'SELECT count(*) FROM results') results, $(du -h "$PERFCORR_DB" | cut -f1)"
for i in 1 2 3; do
	/usr/bin/time -f "compare (json summary): %e s wall, %U s user, %S s sys, %M KiB max RSS" \
		"$B/perfcorr" compare --model sim --ref hw --format json >/dev/null
done
/usr/bin/time -f "compare --group-by op: %e s wall, %U s user, %S s sys, %M KiB max RSS" \
	"$B/perfcorr" compare --model sim --ref hw --format json --group-by op >/dev/null
