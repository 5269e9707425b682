/* The annotation history (see annot.h). */
#include "db/annot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/error.h"
#include "base/util.h"

const char *const db_annot_statuses[] = { "open", "investigating",
	"explained", "accepted", "fixed", "wontfix", NULL };
const char *const db_annot_categories[] = { "modeling-error",
	"specification-error", "abstraction-error", "rtl-bug",
	"measurement-issue", "reference-changed", "unknown", NULL };

static int in_list(const char *const *l, const char *s)
{
	for (; s && *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

static int add_errs(struct db *db, struct db_stmt *st, int64_t id,
		    const struct annot *a)
{
	for (size_t j = 0; j < a->nerrs; j++) {
		const struct annot_err *e = &a->errs[j];

		db_bind_int64(st, 1, id);
		db_bind_text(st, 2, e->workload);
		db_bind_text(st, 3, e->op);
		db_bind_text(st, 4, e->metric);
		db_bind_text(st, 5, e->model_version);
		db_bind_text(st, 6, e->ref_version);
		if (isfinite(e->err))
			db_bind_double(st, 7, e->err);
		else
			db_bind_null(st, 7);
		if (db_step(st) != DB_DONE) {
			db_reset(st);
			return db_fail(db, "adding accepted errors");
		}
		db_reset(st);
	}
	return 0;
}

int db_annot_add(struct db *db, const struct annot *a, size_t n,
		 int64_t *ids_out)
{
	struct db_stmt *st = NULL, *est = NULL;
	char now[32];
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (!in_list(db_annot_statuses, a[i].status))
			return pc_error_set(PC_EINVALID, "unknown status '%s' "
				"(open, investigating, explained, accepted, "
				"fixed, wontfix)", a[i].status ? a[i].status :
				"");
		if (!in_list(db_annot_categories, a[i].category))
			return pc_error_set(PC_EINVALID, "unknown category '%s' "
				"(modeling-error, specification-error, "
				"abstraction-error, rtl-bug, measurement-issue, "
				"reference-changed, unknown)", a[i].category ?
				a[i].category : "");
	}
	util_now_iso(now, sizeof(now));
	if ((rc = db_begin(db)) < 0)
		return rc;
	db_prepare(db, &rc, &st, "INSERT INTO annotations (workload, op, "
		   "metric, model_source, ref_source, is_pattern, status, "
		   "category, note, link, expires, author, created_at, "
		   "model_versions) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
		   "RETURNING id");
	db_prepare(db, &rc, &est, "INSERT INTO annotation_errors "
		   "(annotation_id, workload, op, metric, model_version, "
		   "ref_version, err) VALUES (?,?,?,?,?,?,?)");
	for (size_t i = 0; !rc && i < n; i++) {
		db_bind_text(st, 1, a[i].workload);
		db_bind_text(st, 2, a[i].op);
		db_bind_text(st, 3, a[i].metric);
		db_bind_text(st, 4, a[i].model_source);
		db_bind_text(st, 5, a[i].ref_source);
		db_bind_int(st, 6, a[i].is_pattern);
		db_bind_text(st, 7, a[i].status);
		db_bind_text(st, 8, a[i].category);
		db_bind_text(st, 9, a[i].note ? a[i].note : "");
		db_bind_text(st, 10, a[i].link && *a[i].link ? a[i].link : NULL);
		db_bind_text(st, 11, a[i].expires && *a[i].expires ?
			     a[i].expires : NULL);
		db_bind_text(st, 12, a[i].author ? a[i].author : util_user());
		db_bind_text(st, 13, a[i].created_at ? a[i].created_at : now);
		db_bind_text(st, 14, a[i].model_versions);
		if (db_step(st) != DB_ROW) {
			rc = db_fail(db, "adding annotation");
		} else {
			int64_t id = db_column_int64(st, 0);

			if (ids_out)
				ids_out[i] = id;
			rc = add_errs(db, est, id, &a[i]);
		}
		db_reset(st);
	}
	db_finalize(st);
	db_finalize(est);
	return db_end(db, rc);
}

static int fetch(struct db *db, struct db_stmt *st, struct annot **out,
		 size_t *n)
{
	struct annot *v = NULL;
	size_t len = 0, cap = 0;
	int rc;

	while ((rc = db_step(st)) == DB_ROW) {
		struct annot *a;

		v = xgrow(v, &cap, len, sizeof(*v));
		a = &v[len++];
		a->id = db_column_int64(st, 0);
		a->workload = db_column_dup(st, 1);
		a->op = db_column_dup(st, 2);
		a->metric = db_column_dup(st, 3);
		a->model_source = db_column_dup(st, 4);
		a->ref_source = db_column_dup(st, 5);
		a->is_pattern = db_column_int(st, 6);
		a->status = db_column_dup(st, 7);
		a->category = db_column_dup(st, 8);
		a->note = db_column_dup(st, 9);
		a->link = db_column_dup(st, 10);
		a->expires = db_column_dup(st, 11);
		a->author = db_column_dup(st, 12);
		a->created_at = db_column_dup(st, 13);
		a->model_versions = db_column_dup(st, 14);
		a->errs = NULL;
		a->nerrs = 0;
	}
	if (rc != DB_DONE) {
		db_annot_free(v, len);
		return db_fail(db, "reading annotations");
	}
	*out = v;
	*n = len;
	return 0;
}

#define COLS "id, workload, op, metric, model_source, ref_source, " \
	     "is_pattern, status, category, note, link, expires, author, " \
	     "created_at, model_versions"

static int cmp_err(const void *pa, const void *pb)
{
	const struct annot_err *a = pa, *b = pb;
	int c = strcmp(a->workload, b->workload);

	if (!c)
		c = strcmp(a->op, b->op);
	return c ? c : strcmp(a->metric, b->metric);
}

static struct annot *by_id(struct annot *v, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].id == id ? &v[lo] : NULL;
}

/* Attach the accepted errors to rows v (sorted by id). */
static int load_errs(struct db *db, struct annot *v, size_t n)
{
	struct db_stmt *st = NULL;
	int rc = 0, step;

	db_prepare(db, &rc, &st, "SELECT annotation_id, workload, op, metric, "
		   "model_version, ref_version, err FROM annotation_errors "
		   "ORDER BY annotation_id");
	if (rc)
		return rc;
	while ((step = db_step(st)) == DB_ROW) {
		struct annot *a = by_id(v, n, db_column_int64(st, 0));
		struct annot_err *e;

		if (!a)
			continue;
		a->errs = xrealloc(a->errs, (a->nerrs + 1) * sizeof(*a->errs));
		e = &a->errs[a->nerrs++];
		e->workload = db_column_dup(st, 1);
		e->op = db_column_dup(st, 2);
		e->metric = db_column_dup(st, 3);
		e->model_version = db_column_dup(st, 4);
		e->ref_version = db_column_dup(st, 5);
		e->err = db_column_null(st, 6) ? NAN :
			 db_column_real(st, 6);
	}
	db_finalize(st);
	if (step != DB_DONE)
		return db_fail(db, "reading accepted errors");
	for (size_t i = 0; i < n; i++)
		if (v[i].nerrs > 1)
			qsort(v[i].errs, v[i].nerrs, sizeof(*v[i].errs),
			      cmp_err);
	return 0;
}

const struct annot_err *db_annot_err_find(const struct annot *a,
					  const char *workload, const char *op,
					  const char *metric)
{
	struct annot_err key = { (char *)workload, (char *)op, (char *)metric,
				 NULL, NULL, 0 };

	if (!a || !a->nerrs || !workload || !op || !metric)
		return NULL;
	return bsearch(&key, a->errs, a->nerrs, sizeof(*a->errs), cmp_err);
}

int db_annot_all(struct db *db, struct annot **out, size_t *n)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT " COLS " FROM annotations ORDER BY id");
	if (rc)
		return rc;
	rc = fetch(db, st, out, n);
	db_finalize(st);
	if (!rc && (rc = load_errs(db, *out, *n)) < 0) {
		db_annot_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

int db_annot_keys(struct db *db, const char *source, const char *workload,
		  const char *op, const char *metric,
		  struct db_annot_keys *out)
{
	struct db_stmt *st = NULL;
	size_t cap = 0;
	int rc = 0, step;

	memset(out, 0, sizeof(*out));
	db_prepare(db, &rc, &st, "SELECT DISTINCT w.key, o.name, m.name, "
		   "w.id, o.id, m.id "
		   "FROM results r JOIN workloads w ON w.id = r.workload_id "
		   "JOIN ops o ON o.id = r.op_id JOIN metrics m ON "
		   "m.id = r.metric_id WHERE (r.run_id IN (SELECT ru.id FROM "
		   "runs ru JOIN sources s ON s.id = ru.source_id WHERE "
		   "s.name = ?1) OR ?1 IS NULL) AND (w.key = ?2 OR ?2 IS NULL) "
		   "AND (o.name = ?3 OR ?3 IS NULL) AND (m.name = ?4 OR "
		   "?4 IS NULL) ORDER BY w.id, o.id, m.id");
	if (rc)
		return rc;
	db_bind_text(st, 1, source);
	db_bind_text(st, 2, workload);
	db_bind_text(st, 3, op);
	db_bind_text(st, 4, metric);
	while ((step = db_step(st)) == DB_ROW) {
		if (out->n == cap) {
			cap = cap ? cap * 2 : 64;
			out->workload = xrealloc(out->workload, cap *
						 sizeof(char *));
			out->op = xrealloc(out->op, cap * sizeof(char *));
			out->metric = xrealloc(out->metric, cap *
					       sizeof(char *));
		}
		out->workload[out->n] = db_column_dup(st, 0);
		out->op[out->n] = db_column_dup(st, 1);
		out->metric[out->n++] = db_column_dup(st, 2);
	}
	db_finalize(st);
	if (step != DB_DONE) {
		db_annot_keys_free(out);
		return db_fail(db, "reading stored keys");
	}
	return 0;
}

void db_annot_keys_free(struct db_annot_keys *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->workload[i]);
		free(k->op[i]);
		free(k->metric[i]);
	}
	free(k->workload);
	free(k->op);
	free(k->metric);
	memset(k, 0, sizeof(*k));
}

int db_annot_history(struct db *db, const char *workload, const char *op,
		     const char *metric, struct annot **out, size_t *n)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT " COLS " FROM annotations WHERE "
		   "workload IS ? AND op IS ? AND metric IS ? ORDER BY id");
	if (rc)
		return rc;
	db_bind_text(st, 1, workload);
	db_bind_text(st, 2, op);
	db_bind_text(st, 3, metric);
	rc = fetch(db, st, out, n);
	db_finalize(st);
	return rc;
}

void db_annot_free(struct annot *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].workload);
		free(a[i].op);
		free(a[i].metric);
		free(a[i].model_source);
		free(a[i].ref_source);
		free(a[i].status);
		free(a[i].category);
		free(a[i].note);
		free(a[i].link);
		free(a[i].expires);
		free(a[i].author);
		free(a[i].created_at);
		free(a[i].model_versions);
		for (size_t j = 0; j < a[i].nerrs; j++) {
			free(a[i].errs[j].workload);
			free(a[i].errs[j].op);
			free(a[i].errs[j].metric);
			free(a[i].errs[j].model_version);
			free(a[i].errs[j].ref_version);
		}
		free(a[i].errs);
	}
	free(a);
}
