/* The PostgreSQL engine (issue 22) behind db/engine.h, through libpq.
 * Statements are prepared on the server once (`?`/`?N` become `$N`);
 * parameters travel as text (blobs as binary), results come back as
 * text and are converted by the column getters.
 *
 * Streams (db_prepare_scan: the pairing walk, export, list) are
 * server-side cursors fetched STREAM_BATCH rows at a time, so that a
 * million-row read holds one batch, not the whole result. Several may be
 * open at once on the connection (the pairing walk merges a cursor per
 * run of each side). A cursor needs a transaction: inside the caller's
 * it is declared there; outside, the engine opens a read-only one of its
 * own (pc->ro) and commits it when the last stream closes, or before
 * anything that might write (a statement other than a SELECT, BEGIN, a
 * lock). The cursors are WITH HOLD, so that such a commit keeps them: the
 * server then keeps the rows not yet fetched (a temporary file) and the
 * walk goes on. A rollback removes the cursors declared in that
 * transaction: their next step is an error, never a short result. A
 * stream abandoned midway (reset or finalised before its end) is closed
 * on the server (CLOSE), not drained.
 *
 * Here: the connection's errors, commands and transactions, locks,
 * blobs, notifications, the end of an open COPY; opening is
 * engine_pg_open.c, statements and cursors engine_pg_stmt.c, COPY
 * engine_pg_copy.c (engine_pg_int.h). */
#include "db/engine_pg.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db/engine.h"
#include "db/engine_pg_int.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

void pg_set_err(struct pg_conn *pc, PGresult *r)
{
	const char *s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *m = r ? PQresultErrorMessage(r) : PQerrorMessage(pc->c);
	size_t n;

	free(pc->err);
	pc->err = xstrdup(m && *m ? m : PQerrorMessage(pc->c));
	/* the primary message: "ERROR:  ..." up to its first line end
	 * (CONTEXT and HINT lines follow) */
	if (!strncmp(pc->err, "ERROR:  ", 8))
		memmove(pc->err, pc->err + 8, strlen(pc->err + 8) + 1);
	pc->err[strcspn(pc->err, "\n")] = 0;
	n = strlen(pc->err);
	while (n && pc->err[n - 1] == ' ')
		pc->err[--n] = 0;
	snprintf(pc->state, sizeof(pc->state), "%s", s ? s : "");
	/* an error inside the engine's read transaction aborted it (and
	 * the cursors declared in it): end it, the connection stays usable */
	if (pc->ro && PQtransactionStatus(pc->c) == PQTRANS_INERROR) {
		pc->ro = 0;
		PQclear(PQexec(pc->c, "ROLLBACK"));
		for (struct pg_stmt *t = pc->streams; t; t = t->snext)
			if (t->txn)
				t->gone = 1;
	}
}

const char *pg_errmsg(struct pg_conn *pc)
{
	return pc->err ? pc->err : PQerrorMessage(pc->c);
}

/* Before any other statement on the connection: end an open COPY (its
 * failure is the statement's). */
int pg_end_copy(struct pg_conn *pc)
{
	return pc->copying ? pg_copy_end(pc) : 0;
}

/* A transaction that a COPY's failure aborted (the failure surfaced at
 * a db_finalize, which answers nothing): every later statement fails
 * with that reason, not "current transaction is aborted". */
int pg_copy_failed(struct pg_conn *pc)
{
	if (!pc->copy_err || PQtransactionStatus(pc->c) != PQTRANS_INERROR)
		return 0;
	free(pc->err);
	pc->err = xstrdup(pc->copy_err);
	return 1;
}

/* The end of a transaction: the WITH HOLD cursors declared in it
 * survive a commit (materialised on the server), not a rollback. */
static void txn_ended(struct pg_conn *pc, int committed)
{
	for (struct pg_stmt *t = pc->streams; t; t = t->snext) {
		if (t->txn && !committed)
			t->gone = 1;
		t->txn = 0;
	}
}

int pg_exec_raw(struct pg_conn *pc, const char *sql)
{
	PGresult *r;
	ExecStatusType s;
	int rc = 0;

	if (pg_end_copy(pc) < 0)
		return PC_EDB;
	r = PQexec(pc->c, sql);
	s = PQresultStatus(r);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		pg_set_err(pc, r);
		rc = PC_EDB;
	}
	PQclear(r);
	return rc;
}

/* Commit the engine's read transaction before anything that might
 * write, so that it runs in autocommit (or the caller's BEGIN) as the
 * caller meant; open streams carry on from the server's copy. */
int pg_leave_ro(struct pg_conn *pc)
{
	int rc;

	if (!pc->ro)
		return 0;
	pc->ro = 0;
	rc = pg_exec_raw(pc, "COMMIT");
	txn_ended(pc, rc == 0);
	return rc;
}

int pg_starts_with(const char *sql, const char *word)
{
	size_t n = strlen(word);

	while (*sql == ' ' || *sql == '\t' || *sql == '\n')
		sql++;
	return !strncasecmp(sql, word, n) &&
	       (sql[n] == 0 || sql[n] == ' ' || sql[n] == '\n' ||
		sql[n] == ';' || sql[n] == '\t');
}

int pg_exec(struct pg_conn *pc, const char *sql)
{
	PGresult *r;
	ExecStatusType s;
	int rc = 0, inblock;
	/* ROLLBACK TO SAVEPOINT: the transaction goes on (db/wbatch.c
	 * answers a refused COPY so), and with it the cursors declared
	 * before the savepoint; one declared after it is gone on the server,
	 * and its next FETCH fails there */
	int to = pg_starts_with(sql, "ROLLBACK") &&
		 pg_starts_with(sql + 8, "TO");

	if (pg_end_copy(pc) < 0 || pg_leave_ro(pc) < 0)
		return PC_EDB;
	inblock = PQtransactionStatus(pc->c) != PQTRANS_IDLE;
	if (!strcmp(sql, "ROLLBACK") || to) {
		free(pc->copy_err);
		pc->copy_err = NULL;
	} else if (pg_copy_failed(pc)) {
		return PC_EDB;
	}
	/* a COMMIT of a failed transaction is PostgreSQL's ROLLBACK,
	 * answered "ok": say it failed */
	if (!strcmp(sql, "COMMIT") &&
	    PQtransactionStatus(pc->c) == PQTRANS_INERROR) {
		free(pc->err);
		pc->err = xstrdup("the transaction failed earlier (a streamed "
				  "insert): nothing was committed");
		txn_ended(pc, 0);
		return PC_EDB;
	}
	r = PQexec(pc->c, sql);
	s = PQresultStatus(r);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		pg_set_err(pc, r);
		rc = PC_EDB;
	}
	PQclear(r);
	/* the cursors of scans declared in the transaction: kept by a
	 * commit, removed by a rollback */
	if (inblock && (pg_starts_with(sql, "COMMIT") ||
			 pg_starts_with(sql, "END")))
		txn_ended(pc, rc == 0 &&
			  PQtransactionStatus(pc->c) == PQTRANS_IDLE);
	else if (inblock && pg_starts_with(sql, "ROLLBACK") && !to)
		txn_ended(pc, 0);
	return rc;
}

int pg_in_transaction(struct pg_conn *pc)
{
	/* the engine's own read transaction is not the caller's */
	return !pc->ro && PQtransactionStatus(pc->c) != PQTRANS_IDLE;
}

int pg_unique_violation(struct pg_conn *pc)
{
	return !strcmp(pc->state, "23505");
}

int pg_lock_name(struct pg_conn *pc, const char *name)
{
	const char *v[1] = { name };
	PGresult *r;

	if (pg_end_copy(pc) < 0 || pg_leave_ro(pc) < 0)
		return PC_EDB;
	r = PQexecParams(pc->c, "SELECT pg_advisory_xact_lock("
				   "hashtextextended($1, 2022))", 1, NULL, v,
				   NULL, NULL, 0);
	int rc = 0;

	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		pg_set_err(pc, r);
		rc = PC_EDB;
	}
	PQclear(r);
	return rc;
}

int pg_copy_send(struct pg_conn *pc)
{
	if (pc->cbuf.len && PQputCopyData(pc->c, pc->cbuf.buf,
					  (int)pc->cbuf.len) != 1) {
		pg_set_err(pc, NULL);
		return PC_EDB;
	}
	strbuf_reset(&pc->cbuf);
	return 0;
}

int pg_copy_end(struct pg_conn *pc)
{
	PGresult *r;
	int rc = pg_copy_send(pc);

	pc->copying = NULL;
	strbuf_reset(&pc->cbuf);
	if (PQputCopyEnd(pc->c, NULL) != 1 && rc == 0) {
		pg_set_err(pc, NULL);
		rc = PC_EDB;
	}
	while ((r = PQgetResult(pc->c))) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == 0) {
			pg_set_err(pc, r);
			rc = PC_EDB;
		}
		PQclear(r);
	}
	if (rc) {
		free(pc->copy_err);
		pc->copy_err = xstrdup(pc->err);
	}
	return rc;
}

int pg_blob_read(struct pg_conn *pc, const char *table, const char *column,
		 int64_t id, void *buf, size_t n)
{
	char *sql;
	PGresult *r;
	int rc = 0;

	if (pg_end_copy(pc) < 0)
		return PC_EDB;
	sql = xasprintf("SELECT %s FROM %s WHERE id = %lld", column, table,
			(long long)id);
	r = PQexecParams(pc->c, sql, 0, NULL, NULL, NULL, NULL, 1);

	free(sql);
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1 ||
	    (size_t)PQgetlength(r, 0, 0) != n) {
		pg_set_err(pc, r);
		rc = PC_EDB;
	} else {
		memcpy(buf, PQgetvalue(r, 0, 0), n);
	}
	PQclear(r);
	return rc;
}

/* The channel a writer's commit notifies (NOTIFY is per database: a
 * commit to another database on the same server is not heard). */
#define CHANGE_CHANNEL "perfcorr_changes"

int pg_change_counter(struct pg_conn *pc, long *out)
{
	PGnotify *n;
	int rc;

	if (pg_end_copy(pc) < 0)
		return PC_EDB;
	if (!pc->listening) {
		if ((rc = pg_leave_ro(pc)) < 0 ||
		    (rc = pg_exec_raw(pc, "LISTEN " CHANGE_CHANNEL)) < 0)
			return rc;
		pc->listening = 1;
	}
	/* what has arrived, without waiting for more */
	if (!PQconsumeInput(pc->c)) {
		pg_set_err(pc, NULL);
		return PC_EDB;
	}
	while ((n = PQnotifies(pc->c))) {
		/* our own commits are not another's change (as SQLite's
		 * data_version) */
		if (n->be_pid != PQbackendPID(pc->c) &&
		    !strcmp(n->relname, CHANGE_CHANNEL))
			pc->changes++;
		PQfreemem(n);
	}
	*out = pc->changes;
	return 0;
}

int pg_commit(struct pg_conn *pc)
{
	int rc;

	/* delivered to the listeners when (and only if) the commit is */
	if ((rc = pg_exec(pc, "NOTIFY " CHANGE_CHANNEL)) < 0)
		return rc;
	return pg_exec(pc, "COMMIT");
}

/* `?` -> `$n` in order, `?N` -> `$N`, outside quotes. */
char *pg_translate(const char *sql, int *nparams)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0, max = 0;
	char q = 0;

	for (const char *p = sql; *p; p++) {
		if (q) {
			if (*p == q)
				q = 0;
			strbuf_addch(&sb, *p);
		} else if (*p == '\'' || *p == '"') {
			q = *p;
			strbuf_addch(&sb, *p);
		} else if (*p == '?') {
			int k;

			if (p[1] >= '0' && p[1] <= '9') {
				k = (int)strtol(p + 1, (char **)&p, 10);
				p--;
			} else {
				k = ++n;
			}
			if (k > max)
				max = k;
			strbuf_addf(&sb, "$%d", k);
		} else {
			strbuf_addch(&sb, *p);
		}
	}
	*nparams = max;
	return strbuf_detach(&sb);
}
