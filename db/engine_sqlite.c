/* The statement API of db/engine.h: SQLite, or PostgreSQL through
 * db/engine_pg.c. A struct db_stmt holds one engine's statement. */
#include "db/engine.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/db_int.h"
#include "db/engine_pg.h"
#include "base/error.h"
#include "base/util.h"

struct db_stmt {
	sqlite3_stmt *s;	/* SQLite, else NULL */
	struct pg_stmt *p;	/* PostgreSQL, else NULL */
};

#define S(st) ((st)->s)

static void prepare(struct db *db, int *rc, struct db_stmt **st,
		    const char *sql, int stream)
{
	sqlite3_stmt *s = NULL;
	struct pg_stmt *p;

	if (*rc)
		return;
	*st = NULL;
	if (db_pg(db)) {
		if (!(p = pg_prepare(db_pg(db), sql, stream))) {
			*rc = db_fail(db, "preparing statement");
			return;
		}
		*st = xcalloc(1, sizeof(**st));
		(*st)->p = p;
		return;
	}
	if (sqlite3_prepare_v2(db_sqlite(db), sql, -1, &s, NULL) !=
	    SQLITE_OK) {
		sqlite3_finalize(s);
		*rc = db_fail(db, "preparing statement");
		return;
	}
	*st = xcalloc(1, sizeof(**st));
	(*st)->s = s;
}

void db_prepare(struct db *db, int *rc, struct db_stmt **st, const char *sql)
{
	prepare(db, rc, st, sql, 0);
}

void db_prepare_scan(struct db *db, int *rc, struct db_stmt **st,
		     const char *sql)
{
	prepare(db, rc, st, sql, 1);
}

void db_prepare_bulk(struct db *db, int *rc, struct db_stmt **st,
		     const char *sql)
{
	static const char verb[] = "INSERT INTO ";
	char *fail;

	if (*rc)
		return;
	if (db_pg(db)) {	/* a failed statement aborts the transaction */
		db_prepare(db, rc, st, sql);
		return;
	}
	if (strncmp(sql, verb, sizeof(verb) - 1)) {
		*st = NULL;
		*rc = pc_error_set(PC_EDB, "db_prepare_bulk: not an INSERT");
		return;
	}
	fail = xasprintf("INSERT OR FAIL INTO %s", sql + sizeof(verb) - 1);
	db_prepare(db, rc, st, fail);
	free(fail);
}

void db_prepare_stream(struct db *db, int *rc, struct db_stmt **st,
		       const char *sql)
{
	struct pg_stmt *p;

	if (*rc || !db_pg(db)) {
		db_prepare_bulk(db, rc, st, sql);
		return;
	}
	*st = NULL;
	if (!(p = pg_prepare_copy(db_pg(db), sql))) {
		*rc = db_fail(db, "preparing a streamed insert");
		return;
	}
	*st = xcalloc(1, sizeof(**st));
	(*st)->p = p;
}

int db_bulk_staged(struct db *db)
{
	return db_pg(db) != NULL;
}

int db_stream_end(struct db *db, struct db_stmt *st, const char *what)
{
	return st && st->p && pg_stream_end(st->p) < 0 ? db_fail(db, what) : 0;
}

int db_step(struct db_stmt *st)
{
	if (st->p)
		return pg_step(st->p);
	return sqlite3_step(S(st));
}

int64_t db_stmt_changes(struct db_stmt *st)
{
	if (st->p)
		return pg_changes(st->p);
	return sqlite3_changes64(sqlite3_db_handle(S(st)));
}

void db_reset(struct db_stmt *st)
{
	if (st->p)
		{
		pg_reset(st->p);
		return;
	};
	sqlite3_reset(S(st));
}

void db_finalize(struct db_stmt *st)
{
	if (!st)
		return;
	if (st->p)
		pg_finalize(st->p);
	else
		sqlite3_finalize(st->s);
	free(st);
}

int db_bind_null(struct db_stmt *st, int i)
{
	if (st->p)
		return pg_bind(st->p, i, NULL, 0, 0);
	return sqlite3_bind_null(S(st), i);
}

int db_bind_int(struct db_stmt *st, int i, int v)
{
	if (st->p)
		return db_bind_int64(st, i, v);
	return sqlite3_bind_int(S(st), i, v);
}

int db_bind_int64(struct db_stmt *st, int i, int64_t v)
{
	if (st->p) {
		char b[24];

		snprintf(b, sizeof(b), "%lld", (long long)v);
		return pg_bind(st->p, i, b, strlen(b), 0);
	}
	return sqlite3_bind_int64(S(st), i, (sqlite3_int64)v);
}

int db_bind_double(struct db_stmt *st, int i, double v)
{
	if (st->p) {
		char b[32];

		if (isnan(v))
			return pg_bind(st->p, i, NULL, 0, 0);
		if (isinf(v))
			snprintf(b, sizeof(b), "%sInfinity", v < 0 ? "-" : "");
		else
			snprintf(b, sizeof(b), "%.17g", v);
		return pg_bind(st->p, i, b, strlen(b), 0);
	}
	return isnan(v) ? sqlite3_bind_null(S(st), i) :
			  sqlite3_bind_double(S(st), i, v);
}

int db_bind_text(struct db_stmt *st, int i, const char *s)
{
	if (st->p)
		return pg_bind(st->p, i, s, s ? strlen(s) : 0, 0);
	return s ? sqlite3_bind_text(S(st), i, s, -1, SQLITE_TRANSIENT) :
		   sqlite3_bind_null(S(st), i);
}

int db_bind_text_static(struct db_stmt *st, int i, const char *s)
{
	if (st->p)
		return db_bind_text(st, i, s);
	return s ? sqlite3_bind_text(S(st), i, s, -1, SQLITE_STATIC) :
		   sqlite3_bind_null(S(st), i);
}

int db_bind_blob_static(struct db_stmt *st, int i, const void *p, size_t n)
{
	if (n > 0x7fffffff)
		return SQLITE_TOOBIG;
	if (st->p)
		return pg_bind(st->p, i, n ? p : "", n, 1);
	return sqlite3_bind_blob(S(st), i, n ? p : "", (int)n, SQLITE_STATIC);
}

int db_bind_count(struct db_stmt *st)
{
	if (st->p)
		return pg_nparams(st->p);
	return sqlite3_bind_parameter_count(S(st));
}

int db_column_count(struct db_stmt *st)
{
	if (st->p)
		return pg_ncols(st->p);
	return sqlite3_column_count(S(st));
}

const char *db_column_name(struct db_stmt *st, int i)
{
	if (st->p)
		return pg_colname(st->p, i);
	return sqlite3_column_name(S(st), i);
}

enum db_type db_column_type(struct db_stmt *st, int i)
{
	if (st->p) {
		static const enum db_type t[] = { DB_TYPE_NULL, DB_TYPE_INT,
			DB_TYPE_REAL, DB_TYPE_TEXT, DB_TYPE_BLOB, DB_TYPE_INT };

		return t[pg_coltype(st->p, i)];
	}
	switch (sqlite3_column_type(S(st), i)) {
	case SQLITE_INTEGER:
		return DB_TYPE_INT;
	case SQLITE_FLOAT:
		return DB_TYPE_REAL;
	case SQLITE_BLOB:
		return DB_TYPE_BLOB;
	case SQLITE_NULL:
		return DB_TYPE_NULL;
	default:
		return DB_TYPE_TEXT;
	}
}

int db_column_null(struct db_stmt *st, int i)
{
	if (st->p)
		return pg_value(st->p, i) == NULL;
	return sqlite3_column_type(S(st), i) == SQLITE_NULL;
}

int db_column_int(struct db_stmt *st, int i)
{
	if (st->p)
		return (int)db_column_int64(st, i);
	return sqlite3_column_int(S(st), i);
}

int64_t db_column_int64(struct db_stmt *st, int i)
{
	if (st->p) {
		const char *v = pg_value(st->p, i);

		if (!v)
			return 0;
		if (pg_coltype(st->p, i) == 5)
			return *v == 't';
		if (pg_coltype(st->p, i) == 2)
			return (int64_t)strtod(v, NULL);
		return strtoll(v, NULL, 10);
	}
	return sqlite3_column_int64(S(st), i);
}

double db_column_double(struct db_stmt *st, int i)
{
	if (st->p)
		return pg_value(st->p, i) ? strtod(pg_value(st->p, i), NULL) :
		       NAN;
	return sqlite3_column_type(S(st), i) == SQLITE_NULL ? NAN :
	       sqlite3_column_double(S(st), i);
}

double db_column_real(struct db_stmt *st, int i)
{
	if (st->p)
		return pg_value(st->p, i) ? strtod(pg_value(st->p, i), NULL) :
		       0.0;
	return sqlite3_column_double(S(st), i);
}

const char *db_column_text(struct db_stmt *st, int i)
{
	const unsigned char *s;

	if (st->p)
		return pg_value(st->p, i) ? pg_value(st->p, i) : "";
	s = sqlite3_column_text(S(st), i);
	return s ? (const char *)s : "";
}

char *db_column_dup(struct db_stmt *st, int i)
{
	const unsigned char *s;

	if (st->p)
		return pg_value(st->p, i) ? xstrdup(pg_value(st->p, i)) : NULL;
	s = sqlite3_column_text(S(st), i);
	return s ? xstrdup((const char *)s) : NULL;
}

int db_step_id(struct db *db, struct db_stmt *st, const char *what,
	       int64_t *id)
{
	int rc;

	if (st->p) {
		rc = pg_step(st->p);
		if (rc == DB_ROW)
			*id = db_column_int64(st, 0);
		else if (rc == DB_DONE)
			pc_error_set(PC_EDB, "%s: %s: no id returned",
				     db_path(db), what);
		else
			db_fail(db, what);
		pg_reset(st->p);
		return rc == DB_ROW ? 0 : PC_EDB;
	}
	rc = sqlite3_step(S(st));
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(S(st), 0);
	else if (rc == SQLITE_DONE)
		pc_error_set(PC_EDB, "%s: %s: no id returned", db_path(db),
			     what);
	else
		db_fail(db, what);
	sqlite3_reset(S(st));
	return rc == SQLITE_ROW ? 0 : PC_EDB;
}

int db_lock_name(struct db *db, const char *name)
{
	return db_pg(db) && pg_lock_name(db_pg(db), name) < 0 ?
	       db_fail(db, "locking") : 0;
}

int db_unique_violation(struct db *db)
{
	if (db_pg(db))
		return pg_unique_violation(db_pg(db));
	int e = sqlite3_extended_errcode(db_sqlite(db));

	return e == SQLITE_CONSTRAINT_PRIMARYKEY ||
	       e == SQLITE_CONSTRAINT_UNIQUE;
}

int db_in_transaction(struct db *db)
{
	if (db_pg(db))
		return pg_in_transaction(db_pg(db));
	return !sqlite3_get_autocommit(db_sqlite(db));
}

int db_blob_read(struct db *db, const char *table, const char *column,
		 int64_t id, void *buf, size_t n)
{
	sqlite3_blob *b = NULL;
	int rc = 0;

	if (!n)
		return 0;
	if (db_pg(db))
		return pg_blob_read(db_pg(db), table, column, id, buf, n) < 0 ?
		       db_fail(db, "reading a blob") : 0;
	/* a blob is megabytes of overflow pages: read them mapped */
	db_sqlite_map(db);
	if (n > 0x7fffffff ||
	    sqlite3_blob_open(db_sqlite(db), "main", table, column, id, 0,
			      &b) != SQLITE_OK ||
	    sqlite3_blob_read(b, buf, (int)n, 0) != SQLITE_OK)
		rc = db_fail(db, "reading a blob");
	sqlite3_blob_close(b);
	return rc;
}

struct db_rows {
	struct db *db;
	struct db_stmt *st;	/* SQLite */
	struct pg_rows *p;	/* PostgreSQL */
	const char *types;
	int n;
	const char **vals;
	char (*num)[32];	/* numbers printed */
};

int db_rows_open(struct db *db, struct db_rows **out, const char *sql,
		 const char *types)
{
	struct db_rows *r = xcalloc(1, sizeof(*r));
	int rc = 0;

	r->db = db;
	r->types = types;
	r->n = (int)strlen(types);
	*out = r;
	if (db_pg(db)) {
		if (pg_rows_open(db_pg(db), &r->p, sql, r->n) < 0)
			rc = db_fail(db, "reading rows");
	} else {
		db_prepare(db, &rc, &r->st, sql);
		if (rc == 0 && sqlite3_column_count(r->st->s) != r->n)
			rc = pc_error_set(PC_EDB, "db_rows_open: %d columns, "
					  "%d types", sqlite3_column_count(
					  r->st->s), r->n);
		r->vals = xcalloc((size_t)r->n, sizeof(*r->vals));
		r->num = xcalloc((size_t)r->n, sizeof(*r->num));
	}
	if (rc < 0) {
		db_rows_close(r);
		*out = NULL;
	}
	return rc;
}

int db_rows_next(struct db_rows *r)
{
	sqlite3_stmt *s;
	int rc;

	if (r->p) {
		rc = pg_rows_next(r->p);
		return rc < 0 ? db_fail(r->db, "reading rows") : rc;
	}
	s = r->st->s;
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return db_fail(r->db, "reading rows");
	for (int i = 0; i < r->n; i++) {
		int t = sqlite3_column_type(s, i);

		/* a number stored as text (SQLite keeps what it is given)
		 * stays text: the caller refuses it, nothing is truncated */
		if (t == SQLITE_NULL) {
			r->vals[i] = NULL;
		} else if (r->types[i] == 't' || t == SQLITE_TEXT ||
			   t == SQLITE_BLOB) {
			r->vals[i] = (const char *)sqlite3_column_text(s, i);
		} else if (r->types[i] == 'i' && t == SQLITE_INTEGER) {
			snprintf(r->num[i], sizeof(r->num[i]), "%lld",
				 (long long)sqlite3_column_int64(s, i));
			r->vals[i] = r->num[i];
		} else {
			snprintf(r->num[i], sizeof(r->num[i]), "%.17g",
				 sqlite3_column_double(s, i));
			r->vals[i] = r->num[i];
		}
	}
	return 1;
}

const char *db_rows_value(const struct db_rows *r, int i)
{
	return r->p ? pg_rows_value(r->p, i) : r->vals[i];
}

void db_rows_close(struct db_rows *r)
{
	if (!r)
		return;
	pg_rows_close(r->p);
	db_finalize(r->st);
	free(r->vals);
	free(r->num);
	free(r);
}

int db_identity_sync(struct db *db, const char *table)
{
	char *sql;
	int rc;

	if (!db_pg(db))
		return 0;
	sql = xasprintf("SELECT setval(pg_get_serial_sequence('%s', 'id'), "
			"coalesce(max(id), 0) + 1, false) FROM %s", table,
			table);
	rc = pg_exec(db_pg(db), sql) < 0 ? db_fail(db, "moving the ids on") :
	     0;
	free(sql);
	return rc;
}

const char *db_engine_version(void)
{
	return sqlite3_libversion();
}
