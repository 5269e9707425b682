/* The SQLite schema's migrations (see db.h): the steps from each
 * user_version to the next, and running them on open (foreign keys off,
 * checked after). Split from db.c (issue 33). */
#include "db/db.h"
#include "db/db_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

extern const char db_schema_sql[];

/* Migrations: index i upgrades user_version i to i + 1. Version 1 is the
 * embedded db/schema.sql; append later changes here, never edit old ones.
 * PostgreSQL's steps, at the same index, are db/migrate_pg.c's. */
static const char *const migrations[] = {
	NULL,	/* 0 -> 1: db_schema_sql */
	/* 1 -> 2: the pair cache (db/paircache.h, docs/schema.md) */
	"CREATE TABLE pair_cache ("
	" id INTEGER PRIMARY KEY,"
	" key TEXT NOT NULL UNIQUE,"		/* digest of the pairing inputs */
	" label TEXT NOT NULL,"			/* 'sim@2 vs hw@1' */
	" created_at TEXT NOT NULL);"
	"CREATE TABLE pair_cache_parts ("
	" id INTEGER PRIMARY KEY,"		/* rowid: incremental blob I/O */
	" cache_id INTEGER NOT NULL REFERENCES pair_cache(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL,"
	" data BLOB NOT NULL,"
	" UNIQUE (cache_id, name));"
	/* run ids can be reused after a delete: drop everything cached */
	"CREATE TRIGGER runs_clear_pair_cache AFTER DELETE ON runs "
	"BEGIN DELETE FROM pair_cache; END;",
	/* 2 -> 3: the identity of an import (docs/schema.md) is the bytes
	 * *and* what the command line said (version, workload, platform,
	 * clock): UNIQUE(source_id, sha256) goes. SQLite cannot drop a
	 * constraint: the table is rebuilt (foreign keys are off while
	 * migrating, so the drop cascades nothing). Runs from before keep
	 * identity NULL: matched by their bytes alone, as they were. */
	"CREATE TABLE runs_new ("
	" id INTEGER PRIMARY KEY,"
	" source_id INTEGER NOT NULL REFERENCES sources(id),"
	" version TEXT NOT NULL,"
	" format TEXT NOT NULL,"
	" file_name TEXT NOT NULL,"
	" sha256 TEXT NOT NULL,"
	" file_size INTEGER,"
	" platform TEXT,"
	" clock_hz REAL,"
	" imported_at TEXT NOT NULL,"
	" imported_by TEXT,"
	" metadata TEXT,"
	" n_results INTEGER NOT NULL DEFAULT 0,"
	" identity TEXT);"
	"INSERT INTO runs_new (id, source_id, version, format, file_name, "
	"sha256, file_size, platform, clock_hz, imported_at, imported_by, "
	"metadata, n_results) SELECT id, source_id, version, format, "
	"file_name, sha256, file_size, platform, clock_hz, imported_at, "
	"imported_by, metadata, n_results FROM runs;"
	"DROP TABLE runs;"
	"ALTER TABLE runs_new RENAME TO runs;"
	"CREATE INDEX runs_source_version ON runs(source_id, version, id);"
	"CREATE INDEX runs_identity ON runs(source_id, sha256, identity);"
	"CREATE TRIGGER runs_clear_pair_cache AFTER DELETE ON runs "
	"BEGIN DELETE FROM pair_cache; END;",
	/* 3 -> 4: source kind 'emulation' (between rtl and silicon). A
	 * CHECK cannot be altered: rebuild the table (SQLite's 12-step way;
	 * migrate() runs with foreign keys off and checks them after) */
	"CREATE TABLE sources_new ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL UNIQUE,"
	" kind TEXT NOT NULL CHECK (kind IN ('roofline', 'perfsim', 'rtl',"
	" 'emulation', 'silicon')),"
	" created_at TEXT NOT NULL);"
	"INSERT INTO sources_new (id, name, kind, created_at)"
	" SELECT id, name, kind, created_at FROM sources;"
	"DROP TABLE sources;"
	"ALTER TABLE sources_new RENAME TO sources;",
	/* 4 -> 5: waivers with limits (docs/gate.md, "Waivers"): the model
	 * versions an annotation is limited to, and the error an accepted
	 * annotation accepted, per point, with the versions it was seen at */
	"ALTER TABLE annotations ADD COLUMN model_versions TEXT;"
	"CREATE TABLE annotation_errors ("
	" annotation_id INTEGER NOT NULL REFERENCES annotations(id)"
	"  ON DELETE CASCADE,"
	" workload TEXT NOT NULL,"
	" op TEXT NOT NULL,"
	" metric TEXT NOT NULL,"
	" model_version TEXT NOT NULL,"
	" ref_version TEXT NOT NULL,"
	" err REAL,"				/* NULL when undefined */
	" PRIMARY KEY (annotation_id, workload, op, metric));",
	/* 5 -> 6: results clustered on the pairing key (issue 21). The
	 * table is WITHOUT ROWID with PRIMARY KEY (run_id, workload_id,
	 * op_id, metric_id), the old UNIQUE: a run's results lie in key
	 * order with their values, so pairing walks one B-tree range per
	 * run instead of an index plus a table seek per result, and an
	 * import updates two B-trees, not three. seq is the result's
	 * position in its run (file order; `export results` order); the
	 * old rowid keeps that order for existing rows. */
	"CREATE TABLE results_new ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" workload_id INTEGER NOT NULL REFERENCES workloads(id),"
	" op_id INTEGER NOT NULL REFERENCES ops(id),"
	" metric_id INTEGER NOT NULL REFERENCES metrics(id),"
	" value REAL NOT NULL,"
	" n INTEGER,"
	" mean REAL,"
	" median REAL,"
	" min REAL,"
	" max REAL,"
	" stddev REAL,"
	" raw_value REAL,"
	" raw_unit TEXT,"
	" flags INTEGER NOT NULL DEFAULT 0,"
	" seq INTEGER,"
	" PRIMARY KEY (run_id, workload_id, op_id, metric_id)) WITHOUT ROWID;"
	"INSERT INTO results_new (run_id, workload_id, op_id, metric_id, "
	"value, n, mean, median, min, max, stddev, raw_value, raw_unit, "
	"flags, seq) SELECT run_id, workload_id, op_id, metric_id, value, n, "
	"mean, median, min, max, stddev, raw_value, raw_unit, flags, id "
	"FROM results ORDER BY run_id, workload_id, op_id, metric_id;"
	"DROP TABLE results;"
	"ALTER TABLE results_new RENAME TO results;"
	"CREATE INDEX results_key ON results(workload_id, op_id, metric_id, "
	"run_id);",
	/* 6 -> 7: PostgreSQL's results lose their foreign keys (four
	 * parent lookups per imported row, 70% of the server's import CPU;
	 * db/migrate_pg.c). SQLite's keep theirs: its import already runs
	 * with foreign keys off (db_fk_relax). Nothing to change here. */
	"",
	/* 7 -> 8: a gate evaluation's verdict may be 'unknown' (issue 34
	 * item 4: no rule failed, one's interval straddles its limit),
	 * recorded as itself, no longer as 'warn'. The CHECK cannot be
	 * altered: the table is rebuilt (foreign keys off: gate_rule_evals
	 * keeps its rows and its reference by name). The evaluations
	 * recorded as warn with a rule of status 'unknown' were unknown (a
	 * failed rule made the verdict fail, and unknown outranks warn):
	 * they become 'unknown'. */
	"CREATE TABLE gate_evals_new ("
	" id INTEGER PRIMARY KEY,"
	" policy_name TEXT NOT NULL,"
	" policy_hash TEXT NOT NULL,"
	" model_source TEXT NOT NULL,"
	" model_version TEXT NOT NULL,"
	" ref_source TEXT NOT NULL,"
	" ref_version TEXT NOT NULL,"
	" model_runs TEXT NOT NULL,"
	" ref_runs TEXT NOT NULL,"
	" verdict TEXT NOT NULL"
	" CHECK (verdict IN ('pass', 'warn', 'fail', 'unknown')),"
	" evaluated_at TEXT NOT NULL,"
	" evaluated_by TEXT,"
	" details TEXT);"
	"INSERT INTO gate_evals_new (id, policy_name, policy_hash, "
	"model_source, model_version, ref_source, ref_version, model_runs, "
	"ref_runs, verdict, evaluated_at, evaluated_by, details) SELECT id, "
	"policy_name, policy_hash, model_source, model_version, ref_source, "
	"ref_version, model_runs, ref_runs, CASE WHEN verdict = 'warn' AND "
	"EXISTS (SELECT 1 FROM gate_rule_evals r WHERE r.eval_id = "
	"gate_evals.id AND r.status = 'unknown') THEN 'unknown' ELSE "
	"verdict END, evaluated_at, evaluated_by, details FROM gate_evals;"
	"DROP TABLE gate_evals;"
	"ALTER TABLE gate_evals_new RENAME TO gate_evals;"
	"CREATE INDEX gate_evals_policy ON gate_evals(policy_name, id);",
	/* 8 -> 9: what a run cost to make (issue 38 item 5; docs/schema.md):
	 * an amount in a unit, 's' (wall-clock seconds), 'core-h', 'emu-h'
	 * or 'gpu-h' (hours of a CPU core, an emulator, a GPU); NULL when
	 * nobody said. From import --cost or the tool's own log. */
	"ALTER TABLE runs ADD COLUMN cost REAL;"
	"ALTER TABLE runs ADD COLUMN cost_unit TEXT;",
	/* 9 -> 10: calibration marks (issue 38 item 4; docs/schema.md):
	 * the keys or runs a model was calibrated or trained on, append-only,
	 * the newest matching mark a point's state (calibration or held-out)
	 * for the models it names (NULL: every model) */
	"CREATE TABLE calibration ("
	" id INTEGER PRIMARY KEY,"
	" model_source TEXT,"
	" run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,"
	" workload TEXT,"
	" op TEXT,"
	" metric TEXT,"
	" is_pattern INTEGER NOT NULL DEFAULT 0,"
	" state TEXT NOT NULL CHECK (state IN ('calibration', 'held-out')),"
	" note TEXT NOT NULL DEFAULT '',"
	" author TEXT NOT NULL,"
	" created_at TEXT NOT NULL);"
	"CREATE INDEX calibration_run ON calibration(run_id);",
};

#define N_MIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

static int user_version(struct db *db, int *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL))
		return db_fail(db, "reading schema version");
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, "reading schema version");
}

/* PRAGMA foreign_key_check: PC_EDB when any row breaks a reference. */
static int fk_check(struct db *db)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "PRAGMA foreign_key_check", -1, &st,
			       NULL))
		return db_fail(db, "checking foreign keys");
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return pc_error_set(PC_EDB, "%s: a migration broke a foreign "
				    "key; nothing was changed", db->path);
	return rc == SQLITE_DONE ? 0 : db_fail(db, "checking foreign keys");
}

int db_migrate(struct db *db, int readonly)
{
	int v, rc;
	char sql[64];

	if ((rc = user_version(db, &v)) < 0)
		return rc;
	if (v > DB_SCHEMA_VERSION)
		return pc_error_set(PC_EVERSION,
			"%s: written by a newer perfcorr (schema %d, this build "
			"knows %d); refusing to touch it", db->path, v,
			DB_SCHEMA_VERSION);
	if (v == DB_SCHEMA_VERSION)
		return 0;
	if (readonly)
		return pc_error_set(PC_EVERSION,
			"%s: schema %d needs migrating to %d; open it writable: "
			"'perfcorr init' on it upgrades it in place (in one "
			"transaction; an import does too)", db->path, v,
			DB_SCHEMA_VERSION);
	/* a migration may rebuild a table (drop and rename): with foreign
	 * keys on, the drop would cascade into its children. The pragma is
	 * a no-op inside a transaction, hence here. */
	if ((rc = db_exec(db, "PRAGMA foreign_keys = OFF")) < 0)
		return rc;
	if ((rc = db_begin(db)) < 0)
		goto fk;
	/* re-read inside the write lock: another process may have migrated */
	if ((rc = user_version(db, &v)) < 0)
		goto done;
	for (; v < (int)N_MIGRATIONS; v++) {
		rc = db_exec(db, v == 0 ? db_schema_sql : migrations[v]);
		if (rc < 0)
			goto done;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
		if ((rc = db_exec(db, sql)) < 0)
			goto done;
	}
	/* the rebuilt tables must still satisfy every reference */
	rc = fk_check(db);
done:
	rc = db_end(db, rc);
fk:
	if (db_exec(db, "PRAGMA foreign_keys = ON") < 0 && rc == 0)
		rc = PC_EDB;
	return rc;
}
