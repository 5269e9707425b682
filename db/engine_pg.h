#ifndef PC_DB_ENGINE_PG_H
#define PC_DB_ENGINE_PG_H
/* Private to db/: the PostgreSQL engine (db/engine_pg.c) behind the
 * statement API of db/engine.h and the connection functions of db/db.c. */
#include <stddef.h>
#include <stdint.h>

struct db;
struct pg_conn;
struct pg_stmt;

/* PostgreSQL's migrations, index i upgrading schema i to i + 1
 * (db/migrate_pg.c); DB_SCHEMA_VERSION entries, NULL where there is no
 * step. */
extern const char *const db_pg_migrations[];

/* Connect to url; messages name it as shown (the password hidden). */
int pg_open(struct pg_conn **out, const char *url, const char *shown,
	    int flags);
void pg_close(struct pg_conn *c);
const char *pg_errmsg(struct pg_conn *c);
int pg_exec(struct pg_conn *c, const char *sql);
int pg_in_transaction(struct pg_conn *c);
int pg_unique_violation(struct pg_conn *c);
int pg_lock_name(struct pg_conn *c, const char *name);
int pg_blob_read(struct pg_conn *c, const char *table, const char *column,
		 int64_t id, void *buf, size_t n);
/* Others' commits to this database heard so far (LISTEN on the first
 * call, then what has arrived, without blocking). */
int pg_change_counter(struct pg_conn *c, long *out);
/* Commit, notifying the listeners of pg_change_counter. */
int pg_commit(struct pg_conn *c);

/* stream: a SELECT read through a cursor in batches (db_prepare_scan) */
struct pg_stmt *pg_prepare(struct pg_conn *c, const char *sql, int stream);
int pg_step(struct pg_stmt *st);
void pg_reset(struct pg_stmt *st);
int64_t pg_changes(struct pg_stmt *st);	/* rows the last step changed */
void pg_finalize(struct pg_stmt *st);
int pg_bind(struct pg_stmt *st, int i, const char *text, size_t len,
	    int binary);
int pg_nparams(struct pg_stmt *st);
/* A streamed insert (db_prepare_stream): COPY ... FROM STDIN. */
struct pg_stmt *pg_prepare_copy(struct pg_conn *c, const char *sql);
/* End the statement's COPY when it is open: 0 or PC_EDB. */
int pg_stream_end(struct pg_stmt *st);
/* The rows of COPY (sql) TO STDOUT, ncols text fields each (db_rows). */
struct pg_rows;
int pg_rows_open(struct pg_conn *c, struct pg_rows **out, const char *sql,
		 int ncols);
int pg_rows_next(struct pg_rows *r);
const char *pg_rows_value(const struct pg_rows *r, int i);
void pg_rows_close(struct pg_rows *r);
int pg_ncols(struct pg_stmt *st);
const char *pg_colname(struct pg_stmt *st, int i);
/* 0 null, 1 int, 2 real, 3 text, 4 blob, 5 bool */
int pg_coltype(struct pg_stmt *st, int i);
const char *pg_value(struct pg_stmt *st, int i);	/* NULL when NULL */

#endif
