/* The annotation history (see annot.h). */
#include "db/annot.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "src/base/error.h"
#include "src/base/util.h"

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

int db_annot_add(struct db *db, const struct annot *a, size_t n,
		 int64_t *ids_out)
{
	sqlite3_stmt *st = NULL;
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
		   "category, note, link, expires, author, created_at) "
		   "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
	for (size_t i = 0; !rc && i < n; i++) {
		db_bind_text(st, 1, a[i].workload);
		db_bind_text(st, 2, a[i].op);
		db_bind_text(st, 3, a[i].metric);
		db_bind_text(st, 4, a[i].model_source);
		db_bind_text(st, 5, a[i].ref_source);
		sqlite3_bind_int(st, 6, a[i].is_pattern);
		db_bind_text(st, 7, a[i].status);
		db_bind_text(st, 8, a[i].category);
		db_bind_text(st, 9, a[i].note ? a[i].note : "");
		db_bind_text(st, 10, a[i].link && *a[i].link ? a[i].link : NULL);
		db_bind_text(st, 11, a[i].expires && *a[i].expires ?
			     a[i].expires : NULL);
		db_bind_text(st, 12, a[i].author ? a[i].author : util_user());
		db_bind_text(st, 13, a[i].created_at ? a[i].created_at : now);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(db, "adding annotation");
		else if (ids_out)
			ids_out[i] = sqlite3_last_insert_rowid(db_sqlite(db));
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return db_end(db, rc);
}

static int fetch(struct db *db, sqlite3_stmt *st, struct annot **out,
		 size_t *n)
{
	struct annot *v = NULL;
	size_t len = 0, cap = 0;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct annot *a;

		v = xgrow(v, &cap, len, sizeof(*v));
		a = &v[len++];
		a->id = sqlite3_column_int64(st, 0);
		a->workload = db_column_dup(st, 1);
		a->op = db_column_dup(st, 2);
		a->metric = db_column_dup(st, 3);
		a->model_source = db_column_dup(st, 4);
		a->ref_source = db_column_dup(st, 5);
		a->is_pattern = sqlite3_column_int(st, 6);
		a->status = db_column_dup(st, 7);
		a->category = db_column_dup(st, 8);
		a->note = db_column_dup(st, 9);
		a->link = db_column_dup(st, 10);
		a->expires = db_column_dup(st, 11);
		a->author = db_column_dup(st, 12);
		a->created_at = db_column_dup(st, 13);
	}
	if (rc != SQLITE_DONE) {
		db_annot_free(v, len);
		return db_fail(db, "reading annotations");
	}
	*out = v;
	*n = len;
	return 0;
}

#define COLS "id, workload, op, metric, model_source, ref_source, " \
	     "is_pattern, status, category, note, link, expires, author, " \
	     "created_at"

int db_annot_all(struct db *db, struct annot **out, size_t *n)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT " COLS " FROM annotations ORDER BY id");
	if (rc)
		return rc;
	rc = fetch(db, st, out, n);
	sqlite3_finalize(st);
	return rc;
}

int db_annot_history(struct db *db, const char *workload, const char *op,
		     const char *metric, struct annot **out, size_t *n)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT " COLS " FROM annotations WHERE "
		   "workload IS ? AND op IS ? AND metric IS ? ORDER BY id");
	if (rc)
		return rc;
	db_bind_text(st, 1, workload);
	db_bind_text(st, 2, op);
	db_bind_text(st, 3, metric);
	rc = fetch(db, st, out, n);
	sqlite3_finalize(st);
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
	}
	free(a);
}
