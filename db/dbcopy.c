/* perfcorr db copy: every table with user data, streamed (see dbcopy.h). */
#include "db/dbcopy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/error.h"

/* The tables in foreign-key order (parents first), with their columns'
 * types ('i' integer, 'r' real, 't' text, in the order of the SELECT
 * and the INSERT). A table added by a migration gets a row here; the
 * test cli/db_copy fails until it has one. */
static const struct table {
	const char *name, *types, *select, *insert, *count, *clear;
	int has_id;	/* an id column the engine makes */
} tables[DBCOPY_NTABLES] = {
	{ "sources", "ittt",
	  "SELECT id, name, kind, created_at FROM sources ORDER BY id",
	  "INSERT INTO sources (id, name, kind, created_at) VALUES (?,?,?,?)",
	  "SELECT count(*) FROM sources", "DELETE FROM sources", 1 },
	{ "runs", "iittttitrtttitrt",
	  "SELECT id, source_id, version, format, file_name, sha256, "
	  "file_size, platform, clock_hz, imported_at, imported_by, "
	  "metadata, n_results, identity, cost, cost_unit FROM runs "
	  "ORDER BY id",
	  "INSERT INTO runs (id, source_id, version, format, file_name, "
	  "sha256, file_size, platform, clock_hz, imported_at, imported_by, "
	  "metadata, n_results, identity, cost, cost_unit) VALUES "
	  "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	  "SELECT count(*) FROM runs", "DELETE FROM runs", 1 },
	{ "workloads", "ittt",
	  "SELECT id, key, name, params FROM workloads ORDER BY id",
	  "INSERT INTO workloads (id, key, name, params) VALUES (?,?,?,?)",
	  "SELECT count(*) FROM workloads", "DELETE FROM workloads", 1 },
	{ "workload_params", "itt",
	  "SELECT workload_id, name, value FROM workload_params "
	  "ORDER BY workload_id",
	  "INSERT INTO workload_params (workload_id, name, value) "
	  "VALUES (?,?,?)",
	  "SELECT count(*) FROM workload_params",
	  "DELETE FROM workload_params", 0 },
	{ "ops", "itt", "SELECT id, name, class FROM ops ORDER BY id",
	  "INSERT INTO ops (id, name, class) VALUES (?,?,?)",
	  "SELECT count(*) FROM ops", "DELETE FROM ops", 1 },
	{ "op_raw_names", "iiti",
	  "SELECT run_id, op_id, raw_name, instances FROM op_raw_names "
	  "ORDER BY run_id",
	  "INSERT INTO op_raw_names (run_id, op_id, raw_name, instances) "
	  "VALUES (?,?,?,?)",
	  "SELECT count(*) FROM op_raw_names", "DELETE FROM op_raw_names", 0 },
	{ "metrics", "itttt",
	  "SELECT id, name, dimension, unit, better FROM metrics ORDER BY id",
	  "INSERT INTO metrics (id, name, dimension, unit, better) "
	  "VALUES (?,?,?,?,?)",
	  "SELECT count(*) FROM metrics", "DELETE FROM metrics", 1 },
	{ "results", "iiiirirrrrrrtii",
	  "SELECT run_id, workload_id, op_id, metric_id, value, n, mean, "
	  "median, min, max, stddev, raw_value, raw_unit, flags, seq "
	  "FROM results ORDER BY run_id, workload_id, op_id, metric_id",
	  "INSERT INTO results (run_id, workload_id, op_id, metric_id, "
	  "value, n, mean, median, min, max, stddev, raw_value, raw_unit, "
	  "flags, seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	  "SELECT count(*) FROM results", "DELETE FROM results", 0 },
	{ "annotations", "itttttitttttttt",
	  "SELECT id, workload, op, metric, model_source, ref_source, "
	  "is_pattern, status, category, note, link, expires, author, "
	  "created_at, model_versions FROM annotations ORDER BY id",
	  "INSERT INTO annotations (id, workload, op, metric, model_source, "
	  "ref_source, is_pattern, status, category, note, link, expires, "
	  "author, created_at, model_versions) "
	  "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	  "SELECT count(*) FROM annotations", "DELETE FROM annotations", 1 },
	{ "annotation_errors", "itttttr",
	  "SELECT annotation_id, workload, op, metric, model_version, "
	  "ref_version, err FROM annotation_errors ORDER BY annotation_id",
	  "INSERT INTO annotation_errors (annotation_id, workload, op, "
	  "metric, model_version, ref_version, err) VALUES (?,?,?,?,?,?,?)",
	  "SELECT count(*) FROM annotation_errors",
	  "DELETE FROM annotation_errors", 0 },
	{ "calibration", "ititttitttt",
	  "SELECT id, model_source, run_id, workload, op, metric, "
	  "is_pattern, state, note, author, created_at FROM calibration "
	  "ORDER BY id",
	  "INSERT INTO calibration (id, model_source, run_id, workload, op, "
	  "metric, is_pattern, state, note, author, created_at) "
	  "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
	  "SELECT count(*) FROM calibration", "DELETE FROM calibration", 1 },
	{ "gate_evals", "itttttttttttt",
	  "SELECT id, policy_name, policy_hash, model_source, model_version, "
	  "ref_source, ref_version, model_runs, ref_runs, verdict, "
	  "evaluated_at, evaluated_by, details FROM gate_evals ORDER BY id",
	  "INSERT INTO gate_evals (id, policy_name, policy_hash, "
	  "model_source, model_version, ref_source, ref_version, model_runs, "
	  "ref_runs, verdict, evaluated_at, evaluated_by, details) "
	  "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
	  "SELECT count(*) FROM gate_evals", "DELETE FROM gate_evals", 1 },
	{ "gate_rule_evals", "ititirrriiit",
	  "SELECT eval_id, rule, seq, status, failed, value, lim, mape, "
	  "n_pairs, n_waived, n_noisy, message FROM gate_rule_evals "
	  "ORDER BY eval_id",
	  "INSERT INTO gate_rule_evals (eval_id, rule, seq, status, failed, "
	  "value, lim, mape, n_pairs, n_waived, n_noisy, message) "
	  "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
	  "SELECT count(*) FROM gate_rule_evals",
	  "DELETE FROM gate_rule_evals", 0 },
	{ "reviews", "itttttttr",
	  "SELECT id, created_at, author, model_source, model_version, "
	  "ref_source, ref_version, runs, lim FROM reviews ORDER BY id",
	  "INSERT INTO reviews (id, created_at, author, model_source, "
	  "model_version, ref_source, ref_version, runs, lim) "
	  "VALUES (?,?,?,?,?,?,?,?,?)",
	  "SELECT count(*) FROM reviews", "DELETE FROM reviews", 1 },
	{ "review_items", "itttrrr",
	  "SELECT review_id, workload, op, metric, model, ref, err "
	  "FROM review_items ORDER BY review_id",
	  "INSERT INTO review_items (review_id, workload, op, metric, model, "
	  "ref, err) VALUES (?,?,?,?,?,?,?)",
	  "SELECT count(*) FROM review_items", "DELETE FROM review_items", 0 },
};

/* The target's pair cache goes with --replace (the copy has none). */
static const char *const clear_cache[] = {
	"DELETE FROM pair_cache_parts",
	"DELETE FROM pair_cache",
};

static int count(struct db *db, const char *sql, int64_t *n)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, sql);
	if (rc)
		return rc;
	rc = db_step(st);
	*n = rc == DB_ROW ? db_column_int64(st, 0) : 0;
	db_finalize(st);
	return rc == DB_ROW ? 0 : db_fail(db, "counting rows");
}

/* The relaxed foreign keys of a SQLite target (db_fk_relax). */
static int fk_off;

int dbcopy_begin(struct db *src, struct db *dst, int replace,
		 const char **table, int64_t *rows)
{
	int rc;

	*table = NULL;
	*rows = 0;
	if ((rc = db_begin_snapshot(src)) < 0)
		return rc;
	/* every key of the copy comes from a source that kept its own */
	fk_off = db_fk_relax(dst);
	if ((rc = db_begin(dst)) < 0)
		goto fail;
	/* no import in flight can commit under the copy (db.h) */
	if ((rc = db_lock_imports(dst)) < 0)
		goto fail;
	/* metrics are seeded in every new database: not a study */
	for (size_t i = 0; i < DBCOPY_NTABLES; i++) {
		int64_t n = 0;

		if (!strcmp(tables[i].name, "metrics"))
			continue;
		if ((rc = count(dst, tables[i].count, &n)) < 0)
			goto fail;
		if (n > 0 && !*table) {
			*table = tables[i].name;
			*rows = n;
		}
	}
	if (*table && !replace) {
		dbcopy_end(src, dst, PC_EEXISTS);
		return 1;
	}
	for (size_t i = 0; i < sizeof(clear_cache) / sizeof(*clear_cache);
	     i++)
		if ((rc = db_exec(dst, clear_cache[i])) < 0)
			goto fail;
	for (size_t i = DBCOPY_NTABLES; i-- > 0;)
		if ((rc = db_exec(dst, tables[i].clear)) < 0)
			goto fail;
	return 0;
fail:
	return dbcopy_end(src, dst, rc);
}

/* Bind the reader's text as the column's type: a value that is not one
 * (SQLite stores what it is given) is refused, never truncated. */
static int bind_value(struct db_stmt *st, int i, char type, const char *v,
		      const char *table)
{
	char *end;

	if (!v)
		return db_bind_null(st, i);
	errno = 0;
	if (type == 'i') {
		long long x = strtoll(v, &end, 10);

		if (*v && !*end && !errno)
			return db_bind_int64(st, i, x);
	} else if (type == 'r') {
		double x = strtod(v, &end);

		if (*v && !*end)
			return db_bind_double(st, i, x);
	} else {
		return db_bind_text_static(st, i, v);
	}
	return pc_error_set(PC_EINVALID, "table %s, column %d: '%.40s' is not "
			    "%s: the source breaks its schema; nothing was "
			    "copied", table, i, v, type == 'i' ? "an integer" :
			    "a number");
}

static int copy_table(struct db *src, struct db *dst, const struct table *t)
{
	struct db_rows *r = NULL;
	struct db_stmt *ins = NULL;
	int n = (int)strlen(t->types), rc = 0, more;

	db_prepare_stream(dst, &rc, &ins, t->insert);
	if (rc) {
		pc_error_prefix("table %s: writing the target", t->name);
		return rc;
	}
	if ((rc = db_rows_open(src, &r, t->select, t->types)) < 0) {
		pc_error_prefix("table %s: reading the source", t->name);
		goto done;
	}
	while ((more = db_rows_next(r)) > 0) {
		for (int i = 0; i < n && rc == 0; i++)
			rc = bind_value(ins, i + 1, t->types[i],
					db_rows_value(r, i), t->name);
		if (rc < 0)
			goto done;
		rc = db_step(ins);
		db_reset(ins);
		if (rc != DB_DONE) {
			rc = db_fail(dst, "inserting");
			pc_error_prefix("table %s: writing the target",
					t->name);
			goto done;
		}
		rc = 0;
	}
	if (more < 0) {
		rc = more;
		pc_error_prefix("table %s: reading the source", t->name);
	} else if ((rc = db_stream_end(dst, ins, "storing rows")) < 0) {
		pc_error_prefix("table %s: writing the target", t->name);
	}
done:
	db_rows_close(r);
	db_finalize(ins);	/* ends the target's stream (COPY) */
	if (rc == 0 && t->has_id && (rc = db_identity_sync(dst, t->name)) < 0)
		pc_error_prefix("table %s: writing the target", t->name);
	return rc;
}

int dbcopy_tables(struct db *src, struct db *dst,
		  struct dbcopy_count counts[DBCOPY_NTABLES])
{
	int rc;

	for (size_t i = 0; i < DBCOPY_NTABLES; i++)
		if ((rc = copy_table(src, dst, &tables[i])) < 0)
			return rc;
	for (size_t i = 0; i < DBCOPY_NTABLES; i++) {
		counts[i].table = tables[i].name;
		if ((rc = count(src, tables[i].count, &counts[i].from)) < 0 ||
		    (rc = count(dst, tables[i].count, &counts[i].to)) < 0)
			return rc;
	}
	for (size_t i = 0; i < DBCOPY_NTABLES; i++)
		if (counts[i].from != counts[i].to)
			return pc_error_set(PC_EDB, "table %s: %lld rows in "
				"the source, %lld in the target after the copy",
				counts[i].table, (long long)counts[i].from,
				(long long)counts[i].to);
	return 0;
}

int dbcopy_end(struct db *src, struct db *dst, int rc)
{
	rc = db_end(dst, rc);
	db_rollback(src);
	if (fk_off)
		db_fk_restore(dst);
	fk_off = 0;
	return rc;
}
