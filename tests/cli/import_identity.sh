#!/usr/bin/env bash
# The identity of an import (docs/schema.md): source, sha256 of the bytes
# and the --version, --workload, --param, --platform and --clock-mhz the
# command line gave. Byte-identical files under another identity are
# another run (a paper artifact ships the same prediction file for two
# GPUs); the same identity again is "already imported", nothing written;
# --replace replaces the run of that identity only.
. "$(dirname "$0")/lib.sh"

printf 'workload,op,metric,value,unit\nbert,gemm,time,100,us\nbert,attn,time,200,us\n' > "$T/pred.csv"
base=(--source paper --kind perfsim --version 1 --workload bert/decode
      --param bs=1 --platform A100 --clock-mhz 1000)
nruns() { pcsql "SELECT count(*) FROM runs"; }

run pc import "${base[@]}" "$T/pred.csv"
expect_rc 0 "first import"
# each field of the identity, changed alone, makes a second run
n=1
for change in "--version 2" "--workload bert/prefill" "--param bs=2" \
	      "--platform V100" "--clock-mhz 1500"; do
	set -- $change
	args=()
	skip=0
	for ((i = 0; i < ${#base[@]}; i++)); do
		if [ "${base[i]}" = "$1" ] && [ $skip -eq 0 ]; then
			args+=("$1" "$2"); i=$((i + 1)); skip=1
		else
			args+=("${base[i]}")
		fi
	done
	run pc import "${args[@]}" "$T/pred.csv"
	expect_rc 0 "same bytes, other $1"
	expect_in "imported" "$err" "other $1 imports"
	expect_not_in "already" "$err" "other $1 is not a duplicate"
	n=$((n + 1))
	expect_eq "$(nruns)" "$n" "other $1 is a run of its own"
done
# the two platforms of the paper both pair, each under its own run
expect_eq "$(pcsql "SELECT group_concat(platform, ',') FROM (SELECT platform FROM runs WHERE platform IS NOT NULL ORDER BY platform)")" \
	"A100,A100,A100,A100,A100,V100" "both platforms stored"

# the same identity again: named, exit 0, database unchanged
before=$(db_digest)
run pc import "${base[@]}" "$T/pred.csv"
expect_rc 0 "same identity"
expect_in "already imported as run 1 (file 'pred.csv', workload 'bert/decode/bs=1', version '1')" "$err" "names run, file, workload, version"
expect_eq "$(db_digest)" "$before" "same identity writes nothing"
# the same content under another file name is the same identity
cp "$T/pred.csv" "$T/copy.csv"
run pc import "${base[@]}" "$T/copy.csv"
expect_in "already imported as run 1" "$err" "a copy of the bytes is the same import"
expect_eq "$(db_digest)" "$before" "copy writes nothing"
# aliases and spelling are canonical: --param batch=1 is bs=1
run pc import --source paper --version 1 --workload bert/decode \
	--param batch=1 --platform A100 --clock-mhz 1000 "$T/pred.csv"
expect_in "already imported as run 1" "$err" "alias spelling is the same identity"

# --replace replaces the run of this identity, never another's
run pc import --source paper --version 1 --workload bert/decode --param bs=1 \
	--platform V100 --clock-mhz 1000 --replace "$T/pred.csv"
expect_rc 0 "replace"
expect_eq "$(nruns)" "$n" "replace keeps the number of runs"
expect_eq "$(pcsql "SELECT count(*) FROM runs WHERE platform = 'A100'")" "5" "replace left the A100 runs alone"
expect_eq "$(pcsql "SELECT count(*) FROM results")" "$((2 * n))" "no results lost or doubled"

# a schema-2 database (UNIQUE(source_id, sha256)) migrates: its runs stay,
# with no identity: their bytes alone identify them, as before
D2="$T/v2.db"
sqlite3 "$D2" < "$TESTS/../db/schema.sql"
sqlite3 "$D2" "CREATE TABLE pair_cache (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, label TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE pair_cache_parts (id INTEGER PRIMARY KEY, cache_id INTEGER NOT NULL REFERENCES pair_cache(id) ON DELETE CASCADE, name TEXT NOT NULL, data BLOB NOT NULL, UNIQUE (cache_id, name));
CREATE TRIGGER runs_clear_pair_cache AFTER DELETE ON runs BEGIN DELETE FROM pair_cache; END;
PRAGMA user_version = 2;"
sha=$(sha256sum "$T/pred.csv" | cut -d' ' -f1)
sqlite3 "$D2" "PRAGMA foreign_keys = ON;
INSERT INTO sources VALUES (1, 'old', 'perfsim', '2026-01-01');
INSERT INTO runs (id, source_id, version, format, file_name, sha256, imported_at, n_results) VALUES (7, 1, 'v', 'perfcorr-csv', 'pred.csv', '$sha', '2026-01-01', 1);
INSERT INTO workloads VALUES (1, 'bert', 'bert', '{}');
INSERT INTO ops VALUES (1, 'gemm', 'gemm');
INSERT INTO results (run_id, workload_id, op_id, metric_id, value) VALUES (7, 1, 1, (SELECT id FROM metrics WHERE name = 'time'), 1e-4);"
run pc --db "$D2" import --source old --version v "$T/pred.csv"
expect_rc 0 "import into a migrated schema-2 database"
expect_in "already imported as run 7" "$err" "a pre-identity run matches its bytes"
V=$(sed -n 's/^#define DB_SCHEMA_VERSION \([0-9]*\)$/\1/p' "$TESTS"/../db/engine.h)
expect_eq "$(sqlite3 "$D2" "PRAGMA user_version")" "$V" "migrated to the current schema ($V)"
expect_eq "$(sqlite3 "$D2" "SELECT count(*) FROM results WHERE run_id = 7")" "1" "migration kept the results (no cascade)"
expect_eq "$(sqlite3 "$D2" "SELECT count(*) FROM sqlite_schema WHERE name = 'runs_clear_pair_cache'")" "1" "trigger kept"
# a fresh database and a migrated one have the same runs table
pc --db "$T/fresh.db" init 2>/dev/null
expect_eq "$(sqlite3 "$D2" "SELECT sql FROM sqlite_schema WHERE tbl_name = 'runs' ORDER BY name")" \
	"$(sqlite3 "$T/fresh.db" "SELECT sql FROM sqlite_schema WHERE tbl_name = 'runs' ORDER BY name")" "fresh = migrated"

finish
