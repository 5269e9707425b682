/* Recorded reviews (see review.h). */
#include "db/review.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/error.h"
#include "base/util.h"

static int insert_items(struct db *db, int64_t id,
			const struct review_item *it, size_t n)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "INSERT INTO review_items (review_id, "
		   "workload, op, metric, model, ref, err) "
		   "VALUES (?,?,?,?,?,?,?)");
	for (size_t i = 0; !rc && i < n; i++) {
		db_bind_int64(st, 1, id);
		db_bind_text(st, 2, it[i].workload);
		db_bind_text(st, 3, it[i].op);
		db_bind_text(st, 4, it[i].metric);
		db_bind_double(st, 5, it[i].model);
		db_bind_double(st, 6, it[i].ref);
		db_bind_double(st, 7, it[i].err);
		if (db_step(st) != DB_DONE) {
			if (db_unique_violation(db))
				rc = pc_error_set(PC_EINVALID, "review lists "
					"'%s' '%s' '%s' twice", it[i].workload,
					it[i].op, it[i].metric);
			else
				rc = db_fail(db, "recording review item");
		}
		db_reset(st);
	}
	db_finalize(st);
	return rc;
}

int db_review_add(struct db *db, const struct review *r,
		  const struct review_item *items, size_t n, int64_t *id_out)
{
	struct db_stmt *st = NULL;
	char now[32];
	int64_t id = 0;
	int rc = 0;

	util_now_iso(now, sizeof(now));
	if ((rc = db_begin(db)) < 0)
		return rc;
	db_prepare(db, &rc, &st, "INSERT INTO reviews (created_at, author, "
		   "model_source, model_version, ref_source, ref_version, runs, "
		   "lim) VALUES (?,?,?,?,?,?,?,?) RETURNING id");
	if (!rc) {
		db_bind_text(st, 1, r->created_at ? r->created_at : now);
		db_bind_text(st, 2, r->author ? r->author : util_user());
		db_bind_text(st, 3, r->model_source);
		db_bind_text(st, 4, r->model_version);
		db_bind_text(st, 5, r->ref_source);
		db_bind_text(st, 6, r->ref_version);
		db_bind_text(st, 7, r->runs ? r->runs : "[]");
		db_bind_double(st, 8, r->limit);
		if (db_step(st) != DB_ROW)
			rc = db_fail(db, "recording review");
		else
			id = db_column_int64(st, 0);
	}
	db_finalize(st);
	if (!rc)
		rc = insert_items(db, id, items, n);
	if ((rc = db_end(db, rc)) < 0)
		return rc;
	if (id_out)
		*id_out = id;
	return 0;
}

static int read_items(struct db *db, int64_t id, struct review_item **out,
		      size_t *n)
{
	struct db_stmt *st = NULL;
	struct review_item *v = NULL;
	size_t len = 0, cap = 0;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT workload, op, metric, model, ref, "
		   "err FROM review_items WHERE review_id = ? "
		   "ORDER BY workload, op, metric");
	if (rc)
		return rc;
	db_bind_int64(st, 1, id);
	while ((step = db_step(st)) == DB_ROW) {
		v = xgrow(v, &cap, len, sizeof(*v));
		v[len].workload = db_column_dup(st, 0);
		v[len].op = db_column_dup(st, 1);
		v[len].metric = db_column_dup(st, 2);
		v[len].model = db_column_double(st, 3);
		v[len].ref = db_column_double(st, 4);
		v[len].err = db_column_double(st, 5);
		len++;
	}
	db_finalize(st);
	if (step != DB_DONE) {
		db_review_items_free(v, len);
		return db_fail(db, "reading review items");
	}
	*out = v;
	*n = len;
	return 0;
}

int db_review_last(struct db *db, const char *model_source,
		   const char *ref_source, struct review *out,
		   struct review_item **items, size_t *n)
{
	struct db_stmt *st = NULL;
	struct review r;
	int rc = 0, step;

	memset(&r, 0, sizeof(r));
	db_prepare(db, &rc, &st, "SELECT id, created_at, author, model_source,"
		   " model_version, ref_source, ref_version, runs, lim FROM "
		   "reviews WHERE model_source = ? AND ref_source = ? "
		   "ORDER BY id DESC LIMIT 1");
	if (rc)
		return rc;
	db_bind_text(st, 1, model_source);
	db_bind_text(st, 2, ref_source);
	step = db_step(st);
	if (step == DB_ROW) {
		r.id = db_column_int64(st, 0);
		r.created_at = db_column_dup(st, 1);
		r.author = db_column_dup(st, 2);
		r.model_source = db_column_dup(st, 3);
		r.model_version = db_column_dup(st, 4);
		r.ref_source = db_column_dup(st, 5);
		r.ref_version = db_column_dup(st, 6);
		r.runs = db_column_dup(st, 7);
		r.limit = db_column_double(st, 8);
	}
	db_finalize(st);
	if (step == DB_DONE)
		return pc_error_set(PC_ENOTFOUND, "no review recorded for "
				    "'%s' vs '%s'", model_source, ref_source);
	if (step != DB_ROW)
		return db_fail(db, "reading reviews");
	if ((rc = read_items(db, r.id, items, n)) < 0) {
		db_review_release(&r);
		return rc;
	}
	*out = r;
	return 0;
}

int db_review_count(struct db *db, const char *model_source,
		    const char *ref_source, long *out)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT count(*) FROM reviews WHERE "
		   "model_source = ? AND ref_source = ?");
	if (rc)
		return rc;
	db_bind_text(st, 1, model_source);
	db_bind_text(st, 2, ref_source);
	if (db_step(st) == DB_ROW)
		*out = (long)db_column_int64(st, 0);
	else
		rc = db_fail(db, "counting reviews");
	db_finalize(st);
	return rc;
}

void db_review_release(struct review *r)
{
	free(r->created_at);
	free(r->author);
	free(r->model_source);
	free(r->model_version);
	free(r->ref_source);
	free(r->ref_version);
	free(r->runs);
	memset(r, 0, sizeof(*r));
	r->limit = NAN;
}

void db_review_items_free(struct review_item *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(items[i].workload);
		free(items[i].op);
		free(items[i].metric);
	}
	free(items);
}
