/* Provenance of runs by id (see runinfo.h). */
#include "db/runinfo.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/error.h"
#include "base/util.h"

static void fill(struct runinfo *r, struct db_stmt *st)
{
	r->id = db_column_int64(st, 0);
	r->source = db_column_dup(st, 1);
	r->kind = db_column_dup(st, 2);
	r->version = db_column_dup(st, 3);
	r->format = db_column_dup(st, 4);
	r->file_name = db_column_dup(st, 5);
	r->sha256 = db_column_dup(st, 6);
	r->platform = db_column_dup(st, 7);
	r->imported_at = db_column_dup(st, 8);
	r->imported_by = db_column_dup(st, 9);
	r->file_size = db_column_null(st, 10) ? -1 :
		       db_column_int64(st, 10);
	r->n_results = db_column_int64(st, 11);
	r->clock_hz = db_column_double(st, 12);
	r->cost = db_column_double(st, 13);
	r->cost_unit = db_column_dup(st, 14);
	r->identity = db_column_dup(st, 15);
}

int db_runinfo_get(struct db *db, const int64_t *ids, size_t n,
		   struct runinfo **out)
{
	struct runinfo *v = xcalloc(n ? n : 1, sizeof(*v));
	struct db_stmt *st = NULL;
	size_t i;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT r.id, s.name, s.kind, r.version, "
		   "r.format, r.file_name, r.sha256, r.platform, r.imported_at, "
		   "r.imported_by, r.file_size, r.n_results, r.clock_hz, "
		   "r.cost, r.cost_unit, r.identity "
		   "FROM runs r JOIN sources s ON s.id = r.source_id "
		   "WHERE r.id = ?");
	for (i = 0; !rc && i < n; i++) {
		db_bind_int64(st, 1, ids[i]);
		step = db_step(st);
		if (step == DB_ROW)
			fill(&v[i], st);
		else if (step == DB_DONE)
			rc = pc_error_set(PC_ENOTFOUND, "no run with id %lld",
					  (long long)ids[i]);
		else
			rc = db_fail(db, "reading run provenance");
		db_reset(st);
	}
	db_finalize(st);
	if (rc) {
		db_runinfo_free(v, n);
		return rc;
	}
	*out = v;
	return 0;
}

void db_runinfo_free(struct runinfo *r, size_t n)
{
	if (!r)
		return;
	for (size_t i = 0; i < n; i++) {
		free(r[i].source);
		free(r[i].kind);
		free(r[i].version);
		free(r[i].format);
		free(r[i].file_name);
		free(r[i].sha256);
		free(r[i].platform);
		free(r[i].imported_at);
		free(r[i].imported_by);
		free(r[i].cost_unit);
		free(r[i].identity);
	}
	free(r);
}

int db_run_metadata(struct db *db, int64_t id, char **out)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	*out = NULL;
	db_prepare(db, &rc, &st, "SELECT metadata FROM runs WHERE id = ?");
	if (rc)
		return rc;
	db_bind_int64(st, 1, id);
	if (db_step(st) == DB_ROW) {
		const char *m = db_column_text(st, 0);

		*out = xstrdup(m && *m ? m : "{}");
	} else {
		rc = pc_error_set(PC_ENOTFOUND, "no run %lld",
				  (long long)id);
	}
	db_finalize(st);
	return rc;
}

int db_run_workloads(struct db *db, int64_t id, long *out)
{
	struct db_stmt *st = NULL;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT count(DISTINCT workload_id) FROM "
		   "results WHERE run_id = ?");
	if (rc)
		return rc;
	db_bind_int64(st, 1, id);
	step = db_step(st);
	if (step == DB_ROW)
		*out = (long)db_column_int64(st, 0);
	else
		rc = db_fail(db, "counting a run's workloads");
	db_finalize(st);
	return rc;
}

int db_runs_have_cost(struct db *db, int *out)
{
	struct db_stmt *st = NULL;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT 1 FROM runs WHERE cost IS NOT NULL "
		   "LIMIT 1");
	if (rc)
		return rc;
	step = db_step(st);
	if (step == DB_ROW || step == DB_DONE)
		*out = step == DB_ROW;
	else
		rc = db_fail(db, "looking for a run's cost");
	db_finalize(st);
	return rc;
}
