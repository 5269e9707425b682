#ifndef PC_DB_ENGINE_PG_INT_H
#define PC_DB_ENGINE_PG_INT_H
/*
 * Private to db/engine_pg*.c, the PostgreSQL engine: the connection's
 * and a statement's state and the calls between the engine's files,
 * which go one way, never back:
 *   engine_pg_stmt.c   prepared statements, cursors (db_prepare_scan)
 *     -> engine_pg_copy.c  COPY FROM STDIN (streamed inserts), COPY TO
 *                          STDOUT (db_rows)
 *   engine_pg_open.c   connect, create the schema, migrate, close
 *   all of them -> engine_pg.c  errors, commands and transactions on
 *                               the connection, the end of an open COPY
 * See engine_pg.c for the streams' transactions.
 */
#include <libpq-fe.h>
#include <stddef.h>

#include "base/strbuf.h"

struct pg_conn {
	PGconn *c;
	char *err;		/* last error message */
	char state[6];		/* last SQLSTATE */
	unsigned next;		/* statement names */
	struct pg_stmt *copying; /* the stream statement whose COPY is open */
	struct strbuf cbuf;	/* COPY rows not yet sent */
	char *copy_err;		/* why the last COPY failed */
	int ro;			/* the engine's own read transaction is open */
	int listening;		/* LISTEN CHANGE_CHANNEL was sent */
	long changes;		/* others' commits heard so far */
	struct pg_stmt *streams;	/* open cursors, linked by snext */
};

struct pg_stmt {
	struct pg_conn *pc;
	char name[24];
	int nparams;
	char **vals;
	int *lens, *fmts;
	PGresult *res;
	PGresult *desc;		/* the result's columns, before a step */
	int row, nrows, done;
	char *copy;		/* a stream: "COPY t (cols) FROM STDIN" */
	int ncols;		/* a stream: columns per row */
	int reads;		/* a SELECT: runs inside the engine's read txn */
	char *declare;		/* a scan: "DECLARE name ... FOR sql" */
	int open;		/* its cursor exists on the server */
	int txn;		/* declared in a transaction not yet committed */
	int gone;		/* removed by a rollback before its end */
	int more;		/* the last FETCH was full: more may follow */
	struct pg_stmt *snext;
};

/* engine_pg.c */
void pg_set_err(struct pg_conn *pc, PGresult *r);
/* Before any other statement on the connection: end an open COPY. */
int pg_end_copy(struct pg_conn *pc);
/* The transaction a COPY's failure aborted: 1, with that reason. */
int pg_copy_failed(struct pg_conn *pc);
/* A command of the engine's own, bypassing the bookkeeping of pg_exec. */
int pg_exec_raw(struct pg_conn *pc, const char *sql);
/* Commit the engine's read transaction before anything that might
 * write. */
int pg_leave_ro(struct pg_conn *pc);
/* sql's first word is word (case-insensitive). */
int pg_starts_with(const char *sql, const char *word);
/* `?` -> `$n` in order, `?N` -> `$N`, outside quotes; malloc'd. */
char *pg_translate(const char *sql, int *nparams);
/* Send the COPY rows buffered in pc->cbuf. */
int pg_copy_send(struct pg_conn *pc);
/* End the open COPY; its failure is kept in pc->copy_err. */
int pg_copy_end(struct pg_conn *pc);

/* engine_pg_copy.c */
/* One row of a streamed insert into the open COPY (starting it). */
int pg_copy_step(struct pg_stmt *st);

#endif
