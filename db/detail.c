/* Detail queries: one workload+op across sources (see detail.h). */
#include "db/detail.h"

#include <stdlib.h>

#include "db/db.h"
#include "base/util.h"

int db_detail_results(struct db *db, int64_t workload_id, int64_t op_id,
		      struct db_detail_row **out, size_t *n)
{
	struct db_stmt *st = NULL;
	struct db_detail_row *v = NULL;
	size_t len = 0, cap = 0;
	int rc = 0, step;

	db_prepare(db, &rc, &st,
		"SELECT s.name, s.kind, u.version, coalesce(u.platform, ''), "
		"u.file_name, "
		"m.name, m.unit, r.run_id, r.value, r.n, r.stddev, r.min, "
		"r.max, u.clock_hz, r.flags "
		"FROM results r JOIN runs u ON u.id = r.run_id "
		"JOIN sources s ON s.id = u.source_id "
		"JOIN metrics m ON m.id = r.metric_id "
		"WHERE r.workload_id = ?1 AND r.op_id = ?2 "
		"ORDER BY CASE s.kind WHEN 'roofline' THEN 0 WHEN 'perfsim' "
		"THEN 1 WHEN 'rtl' THEN 2 WHEN 'emulation' THEN 3 ELSE 4 END, "
		"s.name, m.name, r.run_id");
	if (rc)
		return rc;
	db_bind_int64(st, 1, workload_id);
	db_bind_int64(st, 2, op_id);
	while ((step = db_step(st)) == DB_ROW) {
		struct db_detail_row *d;

		v = xgrow(v, &cap, len, sizeof(*v));
		d = &v[len++];
		d->source = db_column_dup(st, 0);
		d->kind = db_column_dup(st, 1);
		d->version = db_column_dup(st, 2);
		d->platform = db_column_dup(st, 3);
		d->file = db_column_dup(st, 4);
		d->metric = db_column_dup(st, 5);
		d->unit = db_column_dup(st, 6);
		d->run_id = db_column_int64(st, 7);
		d->value = db_column_double(st, 8);
		d->n = db_column_double(st, 9);
		d->stddev = db_column_double(st, 10);
		d->min = db_column_double(st, 11);
		d->max = db_column_double(st, 12);
		d->clock_hz = db_column_double(st, 13);
		d->flags = (long)db_column_int64(st, 14);
	}
	db_finalize(st);
	if (step != DB_DONE) {
		db_detail_free(v, len);
		return db_fail(db, "reading results");
	}
	*out = v;
	*n = len;
	return 0;
}

void db_detail_free(struct db_detail_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].source);
		free(rows[i].kind);
		free(rows[i].version);
		free(rows[i].platform);
		free(rows[i].file);
		free(rows[i].metric);
		free(rows[i].unit);
	}
	free(rows);
}

int db_op_raw_names(struct db *db, int64_t workload_id, int64_t op_id,
		    struct db_raw_name **out, size_t *n)
{
	struct db_stmt *st = NULL;
	struct db_raw_name *v = NULL;
	size_t len = 0, cap = 0;
	int rc = 0, step;

	db_prepare(db, &rc, &st,
		"SELECT s.name, u.version, n.raw_name, n.run_id, n.instances "
		"FROM op_raw_names n JOIN runs u ON u.id = n.run_id "
		"JOIN sources s ON s.id = u.source_id "
		"WHERE n.op_id = ?2 AND n.run_id IN (SELECT run_id FROM results "
		"WHERE workload_id = ?1 AND op_id = ?2) "
		"ORDER BY s.name, n.run_id, n.raw_name");
	if (rc)
		return rc;
	db_bind_int64(st, 1, workload_id);
	db_bind_int64(st, 2, op_id);
	while ((step = db_step(st)) == DB_ROW) {
		v = xgrow(v, &cap, len, sizeof(*v));
		v[len].source = db_column_dup(st, 0);
		v[len].version = db_column_dup(st, 1);
		v[len].raw_name = db_column_dup(st, 2);
		v[len].run_id = db_column_int64(st, 3);
		v[len++].instances = (long)db_column_int64(st, 4);
	}
	db_finalize(st);
	if (step != DB_DONE) {
		db_raw_names_free(v, len);
		return db_fail(db, "reading raw names");
	}
	*out = v;
	*n = len;
	return 0;
}

void db_raw_names_free(struct db_raw_name *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].source);
		free(v[i].version);
		free(v[i].raw_name);
	}
	free(v);
}
