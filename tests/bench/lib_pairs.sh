# Shared by run_bench.sh and tui_bench.sh (sourced): build_pairs_db B N
# writes $PERFCORR_DB with N synthetic model/silicon pairs (W workloads x
# 100 ops) straight through the sqlite3 shell, which is much faster than
# importing for a benchmark that measures reading, not writing.
build_pairs_db() {
	local B=$1 N=$2 W
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
}
