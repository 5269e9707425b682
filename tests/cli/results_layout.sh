#!/usr/bin/env bash
# Schema 6 (issue 21): results clustered WITHOUT ROWID on (run_id,
# workload_id, op_id, metric_id). A schema-5 database migrates keeping
# every result, its file order (`export results` order: the old row id)
# and what compare says; a fresh database has the same table.
. "$(dirname "$0")/../cli/lib.sh"
C=$FIXTURES/corr

pc import -q -s lab -k silicon -V 1 "$C/lab.csv"
pc import -q -s sim -k perfsim -V 1 "$C/sim-1.csv"
expect_in "WITHOUT ROWID" "$(pcsql \
	"SELECT sql FROM sqlite_schema WHERE name = 'results'")" "fresh: clustered"
run pc compare -m sim -r lab -f json --points
expect_rc 0 "compare on schema 6"
before=$out
pc export results >"$T/export6.csv"
# seq is the position in the file: the first data line of lab.csv is seq 1
first=$(sed -n 2p "$C/lab.csv" | cut -d, -f1,2,3)
expect_eq "$(pcsql "SELECT w.key || ',' || o.name || ',' || m.name
	FROM results r JOIN workloads w ON w.id = r.workload_id JOIN ops o ON
	o.id = r.op_id JOIN metrics m ON m.id = r.metric_id WHERE r.run_id = 1
	AND r.seq = 1")" "$first" "seq 1 is the file's first result"

# --- turn it into a schema-5 database: the old rowid table, its rows
# stored in reverse key order so that row ids differ from key order
pcsql "PRAGMA foreign_keys = OFF; BEGIN;
CREATE TABLE r5 (id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	workload_id INTEGER NOT NULL REFERENCES workloads(id),
	op_id INTEGER NOT NULL REFERENCES ops(id),
	metric_id INTEGER NOT NULL REFERENCES metrics(id),
	value REAL NOT NULL, n INTEGER, mean REAL, median REAL, min REAL,
	max REAL, stddev REAL, raw_value REAL, raw_unit TEXT,
	flags INTEGER NOT NULL DEFAULT 0,
	UNIQUE (run_id, workload_id, op_id, metric_id));
INSERT INTO r5 (id, run_id, workload_id, op_id, metric_id, value, n, mean,
	median, min, max, stddev, raw_value, raw_unit, flags)
	SELECT 1000000 - (run_id * 1000 + seq) * (CASE WHEN run_id = 2 THEN -1
	ELSE 1 END), run_id, workload_id, op_id, metric_id, value, n, mean,
	median, min, max, stddev, raw_value, raw_unit, flags FROM results;
DROP TABLE results;
ALTER TABLE r5 RENAME TO results;
CREATE INDEX results_key ON results(workload_id, op_id, metric_id, run_id);
ALTER TABLE runs DROP COLUMN cost; ALTER TABLE runs DROP COLUMN cost_unit;
DROP TABLE calibration;
PRAGMA user_version = 5; COMMIT;"
# the export order schema 5 gives: by run, then row id
sqlite3 -separator '|' "$PERFCORR_DB" "SELECT w.key, o.name, m.name FROM results r
	JOIN workloads w ON w.id = r.workload_id JOIN ops o ON o.id = r.op_id
	JOIN metrics m ON m.id = r.metric_id ORDER BY r.run_id, r.id" >"$T/order5"
expect_eq "$(head -1 "$T/order5" | cut -d'|' -f1-2)" "$(tail -1 "$C/lab.csv" | cut -d, -f1-2 | tr , '|')" \
	"schema-5 copy: run 1 in reverse file order"
n5=$(pcsql "SELECT count(*) FROM results")
run pc compare -m sim -r lab -f json
expect_rc 1 "read-only commands do not migrate"
V=$(sed -n 's/^#define DB_SCHEMA_VERSION \([0-9]*\)$/\1/p' "$TESTS"/../db/engine.h)
expect_in "schema 5 needs migrating to $V" "$err" "says so"
run pc init
expect_rc 0 "schema 5 migrates"
expect_eq "$(pcsql 'PRAGMA user_version')" "$V" "migrated to schema $V"
expect_eq "$(pcsql 'SELECT count(*) FROM results')" "$n5" "every result kept"
expect_eq "$(pcsql 'PRAGMA foreign_key_check')" "" "no dangling key"
pc --db "$T/fresh.db" init 2>/dev/null
expect_eq "$(pcsql "SELECT sql FROM sqlite_schema WHERE tbl_name = 'results' ORDER BY name")" \
	"$(sqlite3 "$T/fresh.db" "SELECT sql FROM sqlite_schema WHERE tbl_name = 'results' ORDER BY name")" \
	"fresh = migrated"
# export keeps the old order (the old row id became seq)
pc export results --format csv | python3 -c '
import csv, sys
for x in csv.DictReader(sys.stdin):
    print("|".join((x["workload"], x["op"], x["metric"])))' >"$T/order6"
expect_eq "$(wc -l <"$T/order6" | tr -d ' ')" "$n5" "export has every result"
expect_eq "$(cat "$T/order6")" "$(cat "$T/order5")" "export order = schema 5's"
run pc compare -m sim -r lab -f json --points
expect_eq "$out" "$before" "compare says the same after the migration"
finish
