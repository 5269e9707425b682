#!/usr/bin/env bash
# TUI speed on a large study (not part of ctest):
#   tests/bench/tui_bench.sh [BUILD_DIR] [N]
# Builds N pairs (default 1,000,000) with the sqlite3 shell, then replays
# keys headless (PERFCORR_HEADLESS=1, PERFCORR_SCRIPT) with
# PERFCORR_TIMING: the time to the first screen (corr_load + index +
# first draw) and each key's latency (action + redraw). Targets: first
# screen < 200 ms, every key < 20 ms (docs/tui.md).
set -euo pipefail
B=${1:-build}
N=${2:-1000000}
T=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
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
echo "database: $(sqlite3 "$PERFCORR_DB" 'SELECT count(*) FROM results') results"
cat > "$T/keys" <<'KEYS'
jjjjjjjjjjjjjjjjjjjj
<PgDn><PgDn><PgDn><PgDn><PgDn><PgUp><PgUp>
Gg
hhs
s
ls
hhhhs
s
lllllls
fop~op1<Enter>
f<C-u>err>0.25<Enter>
F
/bs=4242<Enter>
nN
<Space><Space><Space>u
<Enter>
q
2
1
KEYS
for i in 1 2 3; do
	PERFCORR_HEADLESS=1 PERFCORR_SCRIPT="$T/keys" PERFCORR_TIMING="$T/t$i" \
		LINES=40 COLUMNS=120 TERM=dumb "$B/perfcorr" tui
	echo "run $i: $(head -1 "$T/t$i")"
	tail -2 "$T/t$i"
done
echo "slowest keys of the last run (wall ms, cpu ms):"
grep '^key' "$T/t3" | sort -k5 -g -r | head -8
