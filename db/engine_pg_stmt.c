/* The PostgreSQL engine (see engine_pg.c): prepared statements, their
 * parameters and columns, and the streams of db_prepare_scan, server-side
 * cursors fetched STREAM_BATCH rows at a time. */
#include "db/engine_pg.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/engine_pg_int.h"
#include "base/error.h"
#include "base/util.h"

/* type oids (server/catalog/pg_type_d.h, stable) */
#define OID_BOOL 16
#define OID_BYTEA 17
#define OID_INT8 20
#define OID_INT2 21
#define OID_INT4 23
#define OID_FLOAT4 700
#define OID_FLOAT8 701
#define OID_NUMERIC 1700

/* rows per FETCH of a scan (measured in docs/server.md: 10000 keeps a
 * batch to ~2 MB and the round trips out of the profile) */
#define STREAM_BATCH 10000

struct pg_stmt *pg_prepare(struct pg_conn *pc, const char *sql, int stream)
{
	struct pg_stmt *st;
	char *q;
	PGresult *r;

	if (pg_end_copy(pc) < 0 || pg_copy_failed(pc))
		return NULL;
	st = xcalloc(1, sizeof(*st));
	q = pg_translate(sql, &st->nparams);
	st->pc = pc;
	st->reads = pg_starts_with(sql, "SELECT");
	snprintf(st->name, sizeof(st->name), "pc%u", ++pc->next);
	r = PQprepare(pc->c, st->name, q, 0, NULL);
	if (stream && st->reads)
		st->declare = xasprintf("DECLARE %s NO SCROLL CURSOR WITH HOLD "
					"FOR %s", st->name, q);
	free(q);
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		pg_set_err(pc, r);
		PQclear(r);
		free(st->declare);
		free(st);
		return NULL;
	}
	PQclear(r);
	st->desc = PQdescribePrepared(pc->c, st->name);
	if (PQresultStatus(st->desc) != PGRES_COMMAND_OK) {
		pg_set_err(pc, st->desc);
		PQclear(st->desc);
		free(st->declare);
		free(st);
		return NULL;
	}
	if (st->nparams) {
		st->vals = xcalloc((size_t)st->nparams, sizeof(*st->vals));
		st->lens = xcalloc((size_t)st->nparams, sizeof(*st->lens));
		st->fmts = xcalloc((size_t)st->nparams, sizeof(*st->fmts));
	}
	return st;
}

int pg_nparams(struct pg_stmt *st)
{
	return st->nparams;
}

int pg_bind(struct pg_stmt *st, int i, const char *v, size_t len, int binary)
{
	if (i < 1 || i > st->nparams)
		return PC_EINVALID;
	free(st->vals[i - 1]);
	st->vals[i - 1] = NULL;
	if (v) {
		st->vals[i - 1] = xmalloc(len + 1);
		memcpy(st->vals[i - 1], v, len);
		st->vals[i - 1][len] = 0;
	}
	st->lens[i - 1] = (int)len;
	st->fmts[i - 1] = binary;
	return 0;
}

static void stream_unlink(struct pg_stmt *st)
{
	struct pg_stmt **p = &st->pc->streams;

	while (*p && *p != st)
		p = &(*p)->snext;
	if (*p)
		*p = st->snext;
	st->snext = NULL;
}

/* Close the cursor (an abandoned stream stops on the server, nothing is
 * drained); the last one ends the engine's read transaction. */
static void stream_close(struct pg_stmt *st)
{
	struct pg_conn *pc = st->pc;
	char sql[48];

	if (!st->open)
		return;
	st->open = 0;
	stream_unlink(st);
	if (!st->gone && PQstatus(pc->c) == CONNECTION_OK &&
	    PQtransactionStatus(pc->c) != PQTRANS_INERROR) {
		snprintf(sql, sizeof(sql), "CLOSE %s", st->name);
		pg_exec_raw(pc, sql);
	}
	if (pc->ro && !pc->streams) {
		pc->ro = 0;
		pg_exec_raw(pc, "COMMIT");
	}
}

static int stream_fail(struct pg_stmt *st, PGresult *r)
{
	pg_set_err(st->pc, r);
	PQclear(r);
	st->done = 1;
	stream_close(st);
	return PC_EDB;
}

static int stream_step(struct pg_stmt *st)
{
	struct pg_conn *pc = st->pc;
	PGresult *r;
	char sql[48];

	if (st->done)
		return 101;
	if (st->res && ++st->row < st->nrows)
		return 100;
	if (pg_end_copy(pc) < 0 || pg_copy_failed(pc))
		return PC_EDB;
	PQclear(st->res);
	st->res = NULL;
	if (st->open && !st->more) {
		st->done = 1;
		stream_close(st);
		return 101;
	}
	if (st->gone) {
		free(pc->err);
		pc->err = xstrdup("a read was cut short: the transaction it "
				  "was read in was rolled back");
		pc->state[0] = 0;
		st->done = 1;
		stream_close(st);
		return PC_EDB;
	}
	if (!st->open) {
		if (PQtransactionStatus(pc->c) == PQTRANS_IDLE) {
			if (pg_exec_raw(pc, "BEGIN READ ONLY") < 0) {
				st->done = 1;
				return PC_EDB;
			}
			pc->ro = 1;
		}
		r = PQexecParams(pc->c, st->declare, st->nparams, NULL,
				 (const char *const *)st->vals, st->lens,
				 st->fmts, 0);
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			pg_set_err(pc, r);
			PQclear(r);
			st->done = 1;
			if (pc->ro && !pc->streams) {
				pc->ro = 0;
				pg_exec_raw(pc, "COMMIT");
			}
			return PC_EDB;
		}
		PQclear(r);
		st->open = 1;
		st->txn = 1;
		st->snext = pc->streams;
		pc->streams = st;
	}
	snprintf(sql, sizeof(sql), "FETCH %d FROM %s", STREAM_BATCH,
		 st->name);
	r = PQexec(pc->c, sql);
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return stream_fail(st, r);
	st->res = r;
	st->nrows = PQntuples(r);
	st->more = st->nrows == STREAM_BATCH;
	st->row = 0;
	if (st->nrows > 0)
		return 100;
	PQclear(st->res);
	st->res = NULL;
	st->done = 1;
	stream_close(st);
	return 101;
}

int pg_step(struct pg_stmt *st)
{
	if (st->copy)
		return pg_copy_step(st);
	if (st->declare)
		return stream_step(st);
	if (pg_end_copy(st->pc) < 0 || pg_copy_failed(st->pc))
		return PC_EDB;
	if (!st->res && !st->done && !st->reads && pg_leave_ro(st->pc) < 0) {
		st->done = 1;
		return PC_EDB;
	}
	if (!st->res && !st->done) {
		ExecStatusType s;

		st->res = PQexecPrepared(st->pc->c, st->name, st->nparams,
					 (const char *const *)st->vals,
					 st->lens, st->fmts, 0);
		s = PQresultStatus(st->res);
		if (s != PGRES_TUPLES_OK && s != PGRES_COMMAND_OK) {
			pg_set_err(st->pc, st->res);
			PQclear(st->res);
			st->res = NULL;
			st->done = 1;
			return PC_EDB;
		}
		st->nrows = s == PGRES_TUPLES_OK ? PQntuples(st->res) : 0;
		st->row = -1;
	}
	if (st->done)
		return 101;
	if (++st->row < st->nrows)
		return 100;
	st->done = 1;
	return 101;
}

int64_t pg_changes(struct pg_stmt *st)
{
	const char *n = st->res ? PQcmdTuples(st->res) : "";

	return *n ? strtoll(n, NULL, 10) : 0;
}

void pg_reset(struct pg_stmt *st)
{
	PQclear(st->res);
	st->res = NULL;
	if (st->declare)
		stream_close(st);
	st->done = 0;
	st->gone = 0;
	st->more = 0;
	st->row = -1;
}

void pg_finalize(struct pg_stmt *st)
{
	char sql[48];

	if (!st)
		return;
	pg_reset(st);
	snprintf(sql, sizeof(sql), "DEALLOCATE %s", st->name);
	if (st->copy) {
		/* a failure leaves the transaction failed: its COMMIT says
		 * so (pg_exec) */
		if (st->pc->copying == st)
			pg_copy_end(st->pc);
	} else if (PQstatus(st->pc->c) == CONNECTION_OK &&
	    PQtransactionStatus(st->pc->c) != PQTRANS_INERROR)
		PQclear(PQexec(st->pc->c, sql));
	for (int i = 0; i < st->nparams; i++)
		free(st->vals[i]);
	free(st->vals);
	free(st->lens);
	free(st->fmts);
	free(st->copy);
	free(st->declare);
	PQclear(st->desc);
	free(st);
}

int pg_ncols(struct pg_stmt *st)
{
	return PQnfields(st->desc);
}

const char *pg_colname(struct pg_stmt *st, int i)
{
	return PQfname(st->desc, i);
}

int pg_coltype(struct pg_stmt *st, int i)
{
	if (!st->res || st->row < 0 || st->row >= st->nrows ||
	    PQgetisnull(st->res, st->row, i))
		return 0;
	switch (PQftype(st->res, i)) {
	case OID_INT2: case OID_INT4: case OID_INT8:
		return 1;
	case OID_FLOAT4: case OID_FLOAT8: case OID_NUMERIC:
		return 2;
	case OID_BYTEA:
		return 4;
	case OID_BOOL:
		return 5;
	default:
		return 3;
	}
}

const char *pg_value(struct pg_stmt *st, int i)
{
	if (!st->res || st->row < 0 || st->row >= st->nrows ||
	    i >= PQnfields(st->res) || PQgetisnull(st->res, st->row, i))
		return NULL;
	return PQgetvalue(st->res, st->row, i);
}
