/* Listings as cursors (see query.h). */
#include "db/query.h"

#include <stdlib.h>

#include "db/db.h"
#include "base/error.h"
#include "base/util.h"

struct db_cursor {
	struct db *db;
	struct db_stmt *st;
};

static const char *const sql[] = {
	[DB_LIST_SOURCES] =
		"SELECT s.name AS source, s.kind, count(r.id) AS runs, "
		"count(DISTINCT r.version) AS versions, "
		"coalesce(sum(r.n_results), 0) AS results, "
		"max(r.imported_at) AS last_import "
		"FROM sources s LEFT JOIN runs r ON r.source_id = s.id "
		"WHERE s.name = ?1 OR ?1 IS NULL "
		"GROUP BY s.id ORDER BY s.kind, s.name",
	[DB_LIST_RUNS] =
		"SELECT r.id AS run_id, s.name AS source, s.kind, r.version, "
		"r.format, r.platform, r.clock_hz, r.n_results AS results, "
		"r.imported_at, r.imported_by, r.file_name AS file, r.sha256, "
		"r.cost, r.cost_unit "
		"FROM runs r JOIN sources s ON s.id = r.source_id "
		"WHERE s.name = ?1 OR ?1 IS NULL ORDER BY r.id",
	/* --source: the workloads of that source's runs, and only their
	 * results counted. The cast types ?1 for PostgreSQL; the test comes
	 * first so that without --source nothing more is evaluated. (No
	 * comment between the literals: tests/pg/dialect.py reads a
	 * statement as one run of adjacent literals.) */
	[DB_LIST_WORKLOADS] =
		"SELECT w.key AS workload, w.name, w.params, "
		"(SELECT count(*) FROM results x WHERE x.workload_id = w.id "
		"AND (CAST(?1 AS TEXT) IS NULL OR x.run_id IN (SELECT u.id "
		"FROM runs u JOIN sources s ON s.id = u.source_id WHERE "
		"s.name = ?1))) AS results FROM workloads w WHERE "
		"CAST(?1 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM results x "
		"JOIN runs u ON u.id = x.run_id JOIN sources s ON s.id = "
		"u.source_id WHERE x.workload_id = w.id AND s.name = ?1) "
		"ORDER BY w.key",
	[DB_LIST_RESULTS] =
		"SELECT r.run_id, s.name AS source, s.kind, u.version, "
		"u.platform, w.key AS workload, o.name AS op, m.name AS metric, "
		"r.value, m.unit, r.n, r.stddev, r.raw_value, r.raw_unit, "
		"u.file_name AS file, r.mean, r.median, r.min, r.max, "
		"rtrim(CASE WHEN (r.flags & 1) <> 0 THEN 'invalid ' ELSE '' END "
		"|| CASE WHEN (r.flags & 2) <> 0 THEN 'skipped ' ELSE '' END || "
		"CASE WHEN (r.flags & 4) <> 0 THEN 'derived ' ELSE '' END || "
		"CASE WHEN (r.flags & 8) <> 0 THEN 'capped ' ELSE '' END) AS "
		"flags, "
		"u.clock_hz "
		"FROM results r JOIN runs u ON u.id = r.run_id "
		"JOIN sources s ON s.id = u.source_id "
		"JOIN workloads w ON w.id = r.workload_id "
		"JOIN ops o ON o.id = r.op_id JOIN metrics m ON m.id = r.metric_id "
		"WHERE (s.name = ?1 OR ?1 IS NULL) AND (r.run_id = ?2 OR "
		"?2 IS NULL) ORDER BY r.run_id, r.seq",
	[DB_LIST_METRICS] =
		"SELECT name AS metric, dimension, unit, better FROM metrics "
		"ORDER BY name",
	[DB_LIST_RUNS_META] =
		"SELECT r.id AS run_id, s.name AS source, s.kind, r.version, "
		"r.metadata FROM runs r JOIN sources s ON s.id = r.source_id "
		"WHERE s.name = ?1 OR ?1 IS NULL ORDER BY r.id",
	[DB_LIST_OPS] =
		"SELECT o.name AS op, o.class, group_concat(DISTINCT n.raw_name) "
		"AS raw_names FROM ops o LEFT JOIN op_raw_names n "
		"ON n.op_id = o.id GROUP BY o.id ORDER BY o.name",
};

int db_source_exists(struct db *db, const char *source, char **kind_out)
{
	struct db_stmt *st = NULL;
	int rc = 0, found = 0;

	db_prepare(db, &rc, &st, "SELECT kind FROM sources WHERE name = ?");
	if (rc)
		return rc;
	db_bind_text(st, 1, source);
	if (db_step(st) == DB_ROW) {
		found = 1;
		if (kind_out)
			*kind_out = db_column_dup(st, 0);
	}
	db_finalize(st);
	return found;
}

int db_source_overlap(struct db *db, const char *a, const char *b,
		      int64_t *out)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT count(*) FROM (SELECT DISTINCT "
		   "r.workload_id AS w, r.op_id AS o, r.metric_id AS m FROM "
		   "results r WHERE r.run_id IN (SELECT u.id FROM runs u JOIN "
		   "sources s ON s.id = u.source_id WHERE s.name = ?1)) k "
		   "WHERE EXISTS (SELECT 1 FROM results x WHERE "
		   "x.workload_id = k.w AND x.op_id = k.o AND x.metric_id = k.m "
		   "AND x.run_id IN (SELECT u.id FROM runs u JOIN sources s ON "
		   "s.id = u.source_id WHERE s.name = ?2))");
	if (rc)
		return rc;
	db_bind_text(st, 1, a);
	db_bind_text(st, 2, b);
	if (db_step(st) == DB_ROW)
		*out = db_column_int64(st, 0);
	else
		rc = db_fail(db, "counting common keys");
	db_finalize(st);
	return rc;
}

int db_list_open(struct db_cursor **out, struct db *db, enum db_listing what,
		 const char *source)
{
	struct db_cursor *c;
	int rc = 0;

	if (source) {
		rc = db_source_exists(db, source, NULL);
		if (rc < 0)
			return rc;
		if (rc == 0)
			return pc_error_set(PC_ENOTFOUND, "no source named "
					    "'%s'", source);
		rc = 0;
	}
	c = xcalloc(1, sizeof(*c));
	c->db = db;
	db_prepare_scan(db, &rc, &c->st, sql[what]);
	if (rc) {
		free(c);
		return rc;
	}
	if (db_bind_count(c->st) > 0)
		db_bind_text(c->st, 1, source);
	*out = c;
	return 0;
}

int db_list_open_results(struct db_cursor **out, struct db *db,
			 const char *source, int64_t run_id)
{
	int rc = db_list_open(out, db, DB_LIST_RESULTS, source);
	struct db_stmt *st = NULL;
	int found = 0;

	if (rc < 0 || run_id <= 0)
		return rc;
	db_prepare(db, &rc, &st, "SELECT 1 FROM runs WHERE id = ?");
	if (!rc) {
		db_bind_int64(st, 1, run_id);
		found = db_step(st) == DB_ROW;
		db_finalize(st);
	}
	if (rc || !found) {
		db_cursor_close(*out);
		*out = NULL;
		return rc ? rc : pc_error_set(PC_ENOTFOUND, "no run %lld",
					      (long long)run_id);
	}
	db_bind_int64((*out)->st, 2, run_id);
	return 0;
}

int db_cursor_next(struct db_cursor *c)
{
	int rc = db_step(c->st);

	if (rc == DB_ROW)
		return 1;
	if (rc == DB_DONE)
		return 0;
	return db_fail(c->db, "reading");
}

int db_cursor_ncols(const struct db_cursor *c)
{
	return db_column_count(c->st);
}

const char *db_cursor_name(const struct db_cursor *c, int i)
{
	return db_column_name(c->st, i);
}

enum db_col_type db_cursor_type(const struct db_cursor *c, int i)
{
	switch (db_column_type(c->st, i)) {
	case DB_TYPE_INT:
		return DB_COL_INT;
	case DB_TYPE_REAL:
		return DB_COL_REAL;
	case DB_TYPE_NULL:
		return DB_COL_NULL;
	default:
		return DB_COL_TEXT;
	}
}

int64_t db_cursor_int(const struct db_cursor *c, int i)
{
	return db_column_int64(c->st, i);
}

double db_cursor_double(const struct db_cursor *c, int i)
{
	return db_column_real(c->st, i);
}

const char *db_cursor_text(const struct db_cursor *c, int i)
{
	return db_column_text(c->st, i);
}

void db_cursor_close(struct db_cursor *c)
{
	if (!c)
		return;
	db_finalize(c->st);
	free(c);
}
