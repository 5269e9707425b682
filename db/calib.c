/* Calibration marks (see calib.h). */
#include "db/calib.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "db/db.h"

const char db_calib_run_sql[] = "INSERT INTO calibration (run_id, state, "
	"note, author, created_at) VALUES (?, 'calibration', ?, ?, ?)";

int db_calib_add(struct db *db, const struct db_calib *m, int64_t *id_out)
{
	struct db_stmt *st = NULL;
	char now[32];
	int rc = 0, step;

	util_now_iso(now, sizeof(now));
	if (m->run_id) {
		db_prepare(db, &rc, &st, "SELECT 1 FROM runs WHERE id = ?");
		if (rc)
			return rc;
		db_bind_int64(st, 1, m->run_id);
		step = db_step(st);
		db_finalize(st);
		st = NULL;
		if (step == DB_DONE)
			return pc_error_set(PC_EINVALID, "no run with id %lld "
					    "(perfcorr runs lists them)",
					    (long long)m->run_id);
		if (step != DB_ROW)
			return db_fail(db, "looking up a run");
	}
	db_prepare(db, &rc, &st, "INSERT INTO calibration (model_source, "
		   "run_id, workload, op, metric, is_pattern, state, note, "
		   "author, created_at) VALUES (?,?,?,?,?,?,?,?,?,?) "
		   "RETURNING id");
	if (rc)
		return rc;
	db_bind_text(st, 1, m->model_source);
	if (m->run_id)
		db_bind_int64(st, 2, m->run_id);
	else
		db_bind_null(st, 2);
	db_bind_text(st, 3, m->workload);
	db_bind_text(st, 4, m->op);
	db_bind_text(st, 5, m->metric);
	db_bind_int(st, 6, m->is_pattern);
	db_bind_text(st, 7, m->held_out ? "held-out" : "calibration");
	db_bind_text(st, 8, m->note ? m->note : "");
	db_bind_text(st, 9, m->author ? m->author : util_user());
	db_bind_text(st, 10, now);
	{
		int64_t id = 0;

		rc = db_step_id(db, st, "adding a calibration mark", &id);
		if (!rc && id_out)
			*id_out = id;
	}
	db_finalize(st);
	return rc;
}

int db_calib_all(struct db *db, struct db_calib **out, size_t *n)
{
	struct db_stmt *st = NULL;
	struct db_calib *v = NULL;
	size_t len = 0, cap = 0;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT id, model_source, run_id, workload, "
		   "op, metric, is_pattern, state, note, author, created_at "
		   "FROM calibration ORDER BY id");
	if (rc)
		return rc;
	while ((step = db_step(st)) == DB_ROW) {
		struct db_calib *m;
		char *state;

		v = xgrow(v, &cap, len, sizeof(*v));
		m = &v[len++];
		m->id = db_column_int64(st, 0);
		m->model_source = db_column_dup(st, 1);
		m->run_id = db_column_null(st, 2) ? 0 : db_column_int64(st, 2);
		m->workload = db_column_dup(st, 3);
		m->op = db_column_dup(st, 4);
		m->metric = db_column_dup(st, 5);
		m->is_pattern = db_column_int(st, 6);
		state = db_column_dup(st, 7);
		m->held_out = state && !strcmp(state, "held-out");
		free(state);
		m->note = db_column_dup(st, 8);
		m->author = db_column_dup(st, 9);
		m->created_at = db_column_dup(st, 10);
	}
	db_finalize(st);
	if (step != DB_DONE) {
		db_calib_free(v, len);
		return db_fail(db, "reading calibration marks");
	}
	*out = v;
	*n = len;
	return 0;
}

void db_calib_free(struct db_calib *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].model_source);
		free(v[i].workload);
		free(v[i].op);
		free(v[i].metric);
		free(v[i].note);
		free(v[i].author);
		free(v[i].created_at);
	}
	free(v);
}

int db_calib_any(struct db *db, const char *model_source, int *out)
{
	struct db_stmt *st = NULL;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT 1 FROM calibration WHERE "
		   "model_source IS NULL OR model_source = ? LIMIT 1");
	if (rc)
		return rc;
	db_bind_text(st, 1, model_source);
	step = db_step(st);
	db_finalize(st);
	if (step != DB_ROW && step != DB_DONE)
		return db_fail(db, "looking for calibration marks");
	*out = step == DB_ROW;
	return 0;
}

int db_calib_keys(struct db *db, const char *source, int64_t run_id,
		  int (*fn)(void *arg, const char *workload, const char *op,
			    const char *metric), void *arg)
{
	struct db_stmt *st = NULL;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT DISTINCT w.key, o.name, m.name FROM "
		   "results r JOIN runs u ON u.id = r.run_id JOIN sources s ON "
		   "s.id = u.source_id JOIN workloads w ON w.id = r.workload_id "
		   "JOIN ops o ON o.id = r.op_id JOIN metrics m ON m.id = "
		   "r.metric_id WHERE (s.name = ?1 OR ?1 IS NULL) AND "
		   "(r.run_id = ?2 OR ?2 IS NULL)");
	if (rc)
		return rc;
	db_bind_text(st, 1, source);
	if (run_id)
		db_bind_int64(st, 2, run_id);
	else
		db_bind_null(st, 2);
	while ((step = db_step(st)) == DB_ROW && !rc)
		rc = fn(arg, db_column_text(st, 0), db_column_text(st, 1),
			db_column_text(st, 2));
	if (!rc && step != DB_DONE)
		rc = db_fail(db, "reading stored keys");
	db_finalize(st);
	return rc;
}
