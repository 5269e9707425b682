# Migrations on PostgreSQL (issue 22): a database at schema 5 (the
# fixture tests/pg/schema_v5.sql: results with an id and no seq) with a
# small study in it is upgraded by the first writable open, in one
# transaction, through every step of db/migrate_pg.c to this build's
# schema, and reads back the same results in the same order; a read-only
# open refuses to migrate and changes nothing; a version with no
# PostgreSQL step is refused, unchanged. PostgreSQL only (ctest -L pg).
. "$(dirname "$0")/../cli/lib.sh"
if ! pc_db_is_server; then
	echo "skip: PostgreSQL only (runs under ctest -L pg)" >&2
	exit 77
fi
pcsql <"$TESTS/pg/schema_v5.sql" >/dev/null || fail "load schema 5"
# a study at schema 5: ids as perfcorr 5 gave them; results in file
# order by id (0.1 + 0.2 needs all 17 digits to come back exactly)
pcsql <<'SQL' >/dev/null || fail "fill schema 5"
INSERT INTO sources (id, name, kind, created_at) VALUES
	(1, 'sim', 'perfsim', '2026-01-01T00:00:00Z'),
	(2, 'lab', 'silicon', '2026-01-01T00:00:00Z');
INSERT INTO runs (id, source_id, version, format, file_name, sha256,
	imported_at, n_results) VALUES
	(1, 1, '1.0', 'perfcorr-csv', 'sim.csv', 'aa', '2026-01-01', 2),
	(2, 2, '2026', 'perfcorr-csv', 'lab.csv', 'bb', '2026-01-01', 2);
INSERT INTO workloads (id, key, name) VALUES (1, 'w/bs=1', 'w'),
	(2, 'w/bs=2', 'w');
INSERT INTO ops (id, name, class) VALUES (1, 'gemm', 'gemm');
SELECT setval(pg_get_serial_sequence('sources', 'id'), 2);
SELECT setval(pg_get_serial_sequence('runs', 'id'), 2);
SELECT setval(pg_get_serial_sequence('workloads', 'id'), 2);
SELECT setval(pg_get_serial_sequence('ops', 'id'), 1);
-- file order: bs=2 before bs=1 (id 1, 2), the key order is the reverse
INSERT INTO results (id, run_id, workload_id, op_id, metric_id, value,
	raw_value, raw_unit) VALUES
	(1, 1, 2, 1, 1, 0.30000000000000004, 0.30000000000000004, 's'),
	(2, 1, 1, 1, 1, 0.1, 0.1, 's'),
	(3, 2, 2, 1, 1, 0.25, 0.25, 's'),
	(4, 2, 1, 1, 1, 0.125, 0.125, 's');
SQL
run pc export results
expect_rc 1 "a read-only open of schema 5"
expect_in "schema 5 needs migrating to" "$err" "says it needs migrating"
expect_in "open it writable" "$err" "says the cure"
expect_eq "$(pcsql "SELECT version FROM schema_version")" 5 \
	"a read-only open changes nothing"

# a version with no PostgreSQL step: refused, unchanged
pcsql "UPDATE schema_version SET version = 4"
run pc init
expect_rc 1 "schema 4 on PostgreSQL"
expect_in "has no PostgreSQL step from 4" "$err" "names the missing step"
expect_eq "$(pcsql "SELECT version FROM schema_version")" 4 "still 4"
pcsql "UPDATE schema_version SET version = 5"

# the writable open migrates, in one transaction
run pc init
expect_rc 0 "init migrates schema 5"
want=$(cat "$TESTS"/../db/*.h |
	sed -n 's/^#define DB_SCHEMA_VERSION \([0-9]*\)$/\1/p')
expect_in "(schema $want)" "$err" "reports the new schema"
expect_eq "$(pcsql "SELECT version FROM schema_version")" "$want" \
	"schema_version moved to $want"
expect_eq "$(pcsql "SELECT count(*) FROM information_schema.columns
	WHERE table_name = 'results' AND column_name IN ('id', 'seq')")" 1 \
	"results: seq, no id"
# seq is the old id: export order (run, file order) is kept; values exact
run pc export results
expect_rc 0 "export after the migration"
expect_eq "$(echo "$out" | cut -d, -f1,6,9 | tail -n +2)" \
"1,w/bs=2,0.30000000000000004
1,w/bs=1,0.1
2,w/bs=2,0.25
2,w/bs=1,0.125" "results in file order with exact values"
run pc compare --model sim --ref lab --format json
expect_rc 0 "compare on the migrated database"
# and it takes new imports: results continue after the old ones
printf 'workload,op,metric,value,unit\nw/bs=4,gemm,time,2,ms\n' >"$T/n.csv"
run pc import -q --source sim --kind perfsim --version 1.1 "$T/n.csv"
expect_rc 0 "import after the migration"
expect_eq "$(pcsql "SELECT count(*) FROM results")" 5 "five results"
# 6 -> 7: results have no foreign keys (their checks were 70% of an
# import's server CPU), as a new database's; deleting a run still
# deletes its results (the trigger runs_delete_results, for SQLite's ON
# DELETE CASCADE), and only its own
expect_eq "$(pcsql "SELECT count(*) FROM pg_constraint WHERE
	conrelid = 'results'::regclass AND contype = 'f'")" 0 \
	"results: no foreign keys after the migration"
pcsql "DELETE FROM runs WHERE id = 1"
expect_eq "$(pcsql "SELECT run_id, count(*) FROM results GROUP BY run_id
	ORDER BY run_id" | tr '\n' ' ')" "2|2 3|1 " \
	"deleting run 1 deleted its two results, no other"
pcsql "DROP DATABASE IF EXISTS fresh7" "CREATE DATABASE fresh7" >/dev/null
fresh=$(echo "$PERFCORR_DB" | sed 's|/[^/?]*?|/fresh7?|')
pc --db "$fresh" init 2>/dev/null || fail "init a new database"
expect_eq "$("$PC_PG_BIN/psql" -X -At "$fresh" -c "SELECT count(*) FROM
	pg_constraint WHERE conrelid = 'results'::regclass AND contype = 'f'" \
	2>&1)" 0 \
	"a new database: no foreign keys either"
finish
