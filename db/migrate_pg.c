/* PostgreSQL's schema migrations (issue 22; used by db/engine_pg.c). */
#include "db/engine_pg.h"

#include "db/db.h"

/* Index i upgrades schema i to i + 1: the same version numbers as
 * migrations[] of db/db.c (SQLite's), the same change in PostgreSQL's
 * dialect. pg_open runs the steps a database lacks in one transaction
 * (PostgreSQL's DDL is transactional: a failed step leaves the database
 * at its old version). db/schema_pg.sql is the newest schema, which a
 * new database gets whole. A migration appended to db/db.c appends its
 * PostgreSQL step here; tests/cli/pg_migrate.sh upgrades a schema-5
 * database (tests/pg/schema_v5.sql) through every step to the newest.
 * NULL: no PostgreSQL database was ever at that version (the
 * PostgreSQL schema began at 6; 5 -> 6 is written all the same, the
 * step the test exercises the path with). */
const char *const db_pg_migrations[DB_SCHEMA_VERSION] = {
	/* 5 -> 6: results keyed by (run_id, workload_id, op_id, metric_id),
	 * seq the result's position in its run (the old id keeps the
	 * order), as SQLite's 5 -> 6; the table is rebuilt in key order */
	[5] = "CREATE TABLE results_new ("
	" run_id bigint NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" workload_id bigint NOT NULL REFERENCES workloads(id),"
	" op_id bigint NOT NULL REFERENCES ops(id),"
	" metric_id bigint NOT NULL REFERENCES metrics(id),"
	" value double precision NOT NULL,"
	" n bigint,"
	" mean double precision,"
	" median double precision,"
	" min double precision,"
	" max double precision,"
	" stddev double precision,"
	" raw_value double precision,"
	" raw_unit text,"
	" flags bigint NOT NULL DEFAULT 0,"
	" seq bigint,"
	" PRIMARY KEY (run_id, workload_id, op_id, metric_id));"
	"INSERT INTO results_new (run_id, workload_id, op_id, metric_id, "
	"value, n, mean, median, min, max, stddev, raw_value, raw_unit, "
	"flags, seq) SELECT run_id, workload_id, op_id, metric_id, value, n, "
	"mean, median, min, max, stddev, raw_value, raw_unit, flags, id "
	"FROM results ORDER BY run_id, workload_id, op_id, metric_id;"
	"DROP TABLE results;"
	"ALTER TABLE results_new RENAME TO results;"
	"ALTER INDEX results_new_pkey RENAME TO results_pkey;"
	"ALTER TABLE results RENAME CONSTRAINT results_new_run_id_fkey "
	"TO results_run_id_fkey;"
	"ALTER TABLE results RENAME CONSTRAINT results_new_workload_id_fkey "
	"TO results_workload_id_fkey;"
	"ALTER TABLE results RENAME CONSTRAINT results_new_op_id_fkey "
	"TO results_op_id_fkey;"
	"ALTER TABLE results RENAME CONSTRAINT results_new_metric_id_fkey "
	"TO results_metric_id_fkey;"
	"CREATE INDEX results_key ON results(workload_id, op_id, metric_id, "
	"run_id);",
	/* 6 -> 7: results without foreign keys (issue 22). PostgreSQL checks
	 * a foreign key per inserted row (a SELECT ... FOR KEY SHARE on the
	 * parent), four per result: 70% of the server's CPU of an import
	 * (tests/bench/notes.md, "PostgreSQL import"). Every id the import
	 * writer binds comes from its own lookups and inserts in the same
	 * transaction (SQLite's import runs with the checks off for that
	 * reason); workloads, ops and metrics are never deleted but by db
	 * copy --replace, which waits for the imports in flight
	 * (db_lock_imports). ON DELETE CASCADE from runs becomes a trigger:
	 * deleting runs deletes their results, in the same statement. */
	[6] = "ALTER TABLE results DROP CONSTRAINT results_run_id_fkey,"
	" DROP CONSTRAINT results_workload_id_fkey,"
	" DROP CONSTRAINT results_op_id_fkey,"
	" DROP CONSTRAINT results_metric_id_fkey;"
	"CREATE FUNCTION runs_delete_results() RETURNS trigger LANGUAGE "
	"plpgsql AS $$ BEGIN DELETE FROM results WHERE run_id IN (SELECT id "
	"FROM gone); RETURN NULL; END $$;"
	"CREATE TRIGGER runs_delete_results AFTER DELETE ON runs REFERENCING "
	"OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "
	"runs_delete_results();",
	/* 7 -> 8: a gate verdict may be 'unknown', as SQLite's 7 -> 8; the
	 * evaluations recorded as warn with an unknown rule were unknown */
	[7] = "ALTER TABLE gate_evals DROP CONSTRAINT gate_evals_verdict_check,"
	" ADD CONSTRAINT gate_evals_verdict_check CHECK (verdict IN ('pass',"
	" 'warn', 'fail', 'unknown'));"
	"UPDATE gate_evals e SET verdict = 'unknown' WHERE verdict = 'warn' "
	"AND EXISTS (SELECT 1 FROM gate_rule_evals r WHERE r.eval_id = e.id "
	"AND r.status = 'unknown');",
	/* 8 -> 9: what a run cost, as SQLite's 8 -> 9 */
	[8] = "ALTER TABLE runs ADD COLUMN cost double precision,"
	" ADD COLUMN cost_unit text;",
};
