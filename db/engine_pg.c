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
 * on the server (CLOSE), not drained. */
#include "db/engine_pg.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db/engine.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

extern const char db_schema_pg_sql[];

/* type oids (server/catalog/pg_type_d.h, stable) */
#define OID_BOOL 16
#define OID_BYTEA 17
#define OID_INT8 20
#define OID_INT2 21
#define OID_INT4 23
#define OID_FLOAT4 700
#define OID_FLOAT8 701
#define OID_NUMERIC 1700

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

/* rows per FETCH of a scan (measured in docs/server.md: 10000 keeps a
 * batch to ~2 MB and the round trips out of the profile) */
#define STREAM_BATCH 10000

/* COPY text format: fields split by tabs, rows by newlines, NULL as \N */
#define COPY_FLUSH (1 << 16)

static int copy_end(struct pg_conn *pc);
/* A command of the engine's own, bypassing the bookkeeping of pg_exec. */
static int exec_raw(struct pg_conn *pc, const char *sql);

static void set_err(struct pg_conn *pc, PGresult *r)
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
static int end_copy(struct pg_conn *pc)
{
	return pc->copying ? copy_end(pc) : 0;
}

/* A transaction that a COPY's failure aborted (the failure surfaced at
 * a db_finalize, which answers nothing): every later statement fails
 * with that reason, not "current transaction is aborted". */
static int copy_failed(struct pg_conn *pc)
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

static int exec_raw(struct pg_conn *pc, const char *sql)
{
	PGresult *r;
	ExecStatusType s;
	int rc = 0;

	if (end_copy(pc) < 0)
		return PC_EDB;
	r = PQexec(pc->c, sql);
	s = PQresultStatus(r);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		set_err(pc, r);
		rc = PC_EDB;
	}
	PQclear(r);
	return rc;
}

/* Commit the engine's read transaction before anything that might
 * write, so that it runs in autocommit (or the caller's BEGIN) as the
 * caller meant; open streams carry on from the server's copy. */
static int leave_ro(struct pg_conn *pc)
{
	int rc;

	if (!pc->ro)
		return 0;
	pc->ro = 0;
	rc = exec_raw(pc, "COMMIT");
	txn_ended(pc, rc == 0);
	return rc;
}

static int starts_with(const char *sql, const char *word)
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
	int to = starts_with(sql, "ROLLBACK") && starts_with(sql + 8, "TO");

	if (end_copy(pc) < 0 || leave_ro(pc) < 0)
		return PC_EDB;
	inblock = PQtransactionStatus(pc->c) != PQTRANS_IDLE;
	if (!strcmp(sql, "ROLLBACK") || to) {
		free(pc->copy_err);
		pc->copy_err = NULL;
	} else if (copy_failed(pc)) {
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
		set_err(pc, r);
		rc = PC_EDB;
	}
	PQclear(r);
	/* the cursors of scans declared in the transaction: kept by a
	 * commit, removed by a rollback */
	if (inblock && (starts_with(sql, "COMMIT") || starts_with(sql, "END")))
		txn_ended(pc, rc == 0 &&
			  PQtransactionStatus(pc->c) == PQTRANS_IDLE);
	else if (inblock && starts_with(sql, "ROLLBACK") && !to)
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

	if (end_copy(pc) < 0 || leave_ro(pc) < 0)
		return PC_EDB;
	r = PQexecParams(pc->c, "SELECT pg_advisory_xact_lock("
				   "hashtextextended($1, 2022))", 1, NULL, v,
				   NULL, NULL, 0);
	int rc = 0;

	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		set_err(pc, r);
		rc = PC_EDB;
	}
	PQclear(r);
	return rc;
}

/* The version in schema_version; 0 when the table is absent. */
static int schema_version(struct pg_conn *pc, int *v)
{
	PGresult *r = PQexec(pc->c, "SELECT to_regclass('schema_version') "
			     "IS NOT NULL");
	int rc = 0, has;

	*v = 0;
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		set_err(pc, r);
		PQclear(r);
		return PC_EDB;
	}
	has = *PQgetvalue(r, 0, 0) == 't';
	PQclear(r);
	if (!has)
		return 0;
	r = PQexec(pc->c, "SELECT max(version) FROM schema_version");
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
		*v = atoi(PQgetvalue(r, 0, 0));
	else {
		set_err(pc, r);
		rc = PC_EDB;
	}
	PQclear(r);
	return rc;
}

/* Upgrade schema v to DB_SCHEMA_VERSION in one transaction (steps:
 * db/migrate_pg.c); one migrator at a time, the others find it done. */
static int migrate(struct pg_conn *pc, const char *shown, int v, int flags)
{
	char sql[64];
	int from = v;

	if (flags & DB_READONLY)
		return pc_error_set(PC_EVERSION, "%s: schema %d needs "
			"migrating to %d; open it writable (perfcorr init)",
			shown, v, DB_SCHEMA_VERSION);
	if (pg_exec(pc, "BEGIN; SELECT pg_advisory_xact_lock(7022022)") < 0 ||
	    schema_version(pc, &v) < 0)
		goto fail;
	for (from = v; v < DB_SCHEMA_VERSION; v++) {
		if (!db_pg_migrations[v]) {
			pg_exec(pc, "ROLLBACK");
			return pc_error_set(PC_EVERSION, "%s: schema %d needs "
				"migrating to %d, and this build has no "
				"PostgreSQL step from %d (db/migrate_pg.c): "
				"nothing was changed; copy the study out with "
				"the perfcorr that wrote it (perfcorr db copy)",
				shown, from, DB_SCHEMA_VERSION, v);
		}
		snprintf(sql, sizeof(sql), "UPDATE schema_version SET "
			 "version = %d", v + 1);
		if (pg_exec(pc, db_pg_migrations[v]) < 0 ||
		    pg_exec(pc, sql) < 0)
			goto fail;
	}
	if (pg_exec(pc, "COMMIT") < 0)
		goto fail;
	return 0;
fail:
	pc_error_set(PC_EDB, "%s: migrating schema %d to %d: %s: nothing was "
		     "changed", shown, from, DB_SCHEMA_VERSION, pg_errmsg(pc));
	pg_exec(pc, "ROLLBACK");
	return PC_EDB;
}

int pg_open(struct pg_conn **out, const char *url, const char *shown,
	    int flags)
{
	struct pg_conn *pc = xcalloc(1, sizeof(*pc));
	int rc, v;

	*out = pc;
	pc->c = PQconnectdb(url);
	if (PQstatus(pc->c) != CONNECTION_OK)
		return pc_error_set(PC_EIO, "cannot connect to '%s': %s", shown,
				    strtok(PQerrorMessage(pc->c), "\n"));
	/* quiet notices; shortest exact doubles */
	PQsetNoticeProcessor(pc->c, NULL, NULL);
	if ((rc = pg_exec(pc, "SET client_min_messages = warning; "
			  "SET extra_float_digits = 3")) < 0)
		goto fail;
	if ((rc = schema_version(pc, &v)) < 0)
		goto fail;
	if (v == 0 && (flags & DB_CREATE) && !(flags & DB_READONLY)) {
		/* one creator at a time; the second finds the schema */
		if ((rc = pg_exec(pc, "BEGIN; SELECT pg_advisory_xact_lock("
				  "7022022)")) < 0 ||
		    (rc = schema_version(pc, &v)) < 0 ||
		    (v == 0 && (rc = pg_exec(pc, db_schema_pg_sql)) < 0) ||
		    (rc = pg_exec(pc, "COMMIT")) < 0) {
			pg_exec(pc, "ROLLBACK");
			goto fail;
		}
		if ((rc = schema_version(pc, &v)) < 0)
			goto fail;
	}
	if (v == 0)
		return pc_error_set(PC_ENOTFOUND, "database '%s' has no "
			"perfcorr schema (run 'perfcorr init' or import "
			"something first)", shown);
	if (v > DB_SCHEMA_VERSION)
		return pc_error_set(PC_EVERSION, "%s: written by a newer "
			"perfcorr (schema %d, this build knows %d); refusing to "
			"touch it", shown, v, DB_SCHEMA_VERSION);
	if (v < DB_SCHEMA_VERSION)
		return migrate(pc, shown, v, flags);
	return 0;
fail:
	return pc_error_set(PC_EDB, "%s: %s", shown, pg_errmsg(pc));
}

void pg_close(struct pg_conn *pc)
{
	if (!pc)
		return;
	PQfinish(pc->c);	/* an open COPY is abandoned: rolled back */
	strbuf_release(&pc->cbuf);
	free(pc->copy_err);
	free(pc->err);
	free(pc);
}

int pg_blob_read(struct pg_conn *pc, const char *table, const char *column,
		 int64_t id, void *buf, size_t n)
{
	char *sql;
	PGresult *r;
	int rc = 0;

	if (end_copy(pc) < 0)
		return PC_EDB;
	sql = xasprintf("SELECT %s FROM %s WHERE id = %lld", column, table,
			(long long)id);
	r = PQexecParams(pc->c, sql, 0, NULL, NULL, NULL, NULL, 1);

	free(sql);
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1 ||
	    (size_t)PQgetlength(r, 0, 0) != n) {
		set_err(pc, r);
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

	if (end_copy(pc) < 0)
		return PC_EDB;
	if (!pc->listening) {
		if ((rc = leave_ro(pc)) < 0 ||
		    (rc = exec_raw(pc, "LISTEN " CHANGE_CHANNEL)) < 0)
			return rc;
		pc->listening = 1;
	}
	/* what has arrived, without waiting for more */
	if (!PQconsumeInput(pc->c)) {
		set_err(pc, NULL);
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
static char *translate(const char *sql, int *nparams)
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

struct pg_stmt *pg_prepare(struct pg_conn *pc, const char *sql, int stream)
{
	struct pg_stmt *st;
	char *q;
	PGresult *r;

	if (end_copy(pc) < 0 || copy_failed(pc))
		return NULL;
	st = xcalloc(1, sizeof(*st));
	q = translate(sql, &st->nparams);
	st->pc = pc;
	st->reads = starts_with(sql, "SELECT");
	snprintf(st->name, sizeof(st->name), "pc%u", ++pc->next);
	r = PQprepare(pc->c, st->name, q, 0, NULL);
	if (stream && st->reads)
		st->declare = xasprintf("DECLARE %s NO SCROLL CURSOR WITH HOLD "
					"FOR %s", st->name, q);
	free(q);
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		set_err(pc, r);
		PQclear(r);
		free(st->declare);
		free(st);
		return NULL;
	}
	PQclear(r);
	st->desc = PQdescribePrepared(pc->c, st->name);
	if (PQresultStatus(st->desc) != PGRES_COMMAND_OK) {
		set_err(pc, st->desc);
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

/* A stream statement from "INSERT INTO t (cols) VALUES (?,..),..": rows
 * go out through COPY t (cols) FROM STDIN when stepped. */
struct pg_stmt *pg_prepare_copy(struct pg_conn *pc, const char *sql)
{
	static const char verb[] = "INSERT INTO ";
	const char *t = sql + sizeof(verb) - 1, *open, *close;
	struct pg_stmt *st;
	char *q;

	if (strncmp(sql, verb, sizeof(verb) - 1) ||
	    !(open = strchr(t, '(')) || !(close = strchr(open, ')'))) {
		free(pc->err);
		pc->err = xstrdup("a streamed insert must read INSERT INTO "
				  "t (cols) VALUES ...");
		return NULL;
	}
	st = xcalloc(1, sizeof(*st));
	st->pc = pc;
	st->ncols = 1;
	for (const char *p = open; p < close; p++)
		st->ncols += *p == ',';
	q = translate(sql, &st->nparams);
	free(q);
	if (!st->nparams || st->nparams % st->ncols) {
		free(st);
		free(pc->err);
		pc->err = xstrdup("a streamed insert binds whole rows");
		return NULL;
	}
	st->copy = xasprintf("COPY %.*s FROM STDIN", (int)(close + 1 - t), t);
	st->vals = xcalloc((size_t)st->nparams, sizeof(*st->vals));
	st->lens = xcalloc((size_t)st->nparams, sizeof(*st->lens));
	st->fmts = xcalloc((size_t)st->nparams, sizeof(*st->fmts));
	return st;
}

/* One field in COPY's text format: \N for NULL; backslash, tab, newline
 * and carriage return escaped. */
static void copy_field(struct strbuf *sb, const char *v, size_t n)
{
	size_t run = 0;

	if (!v) {
		strbuf_add(sb, "\\N", 2);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char e;

		switch (v[i]) {
		case '\\': e = '\\'; break;
		case '\t': e = 't'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		default: continue;
		}
		strbuf_add(sb, v + run, i - run);
		strbuf_addch(sb, '\\');
		strbuf_addch(sb, e);
		run = i + 1;
	}
	strbuf_add(sb, v + run, n - run);
}

static int copy_send(struct pg_conn *pc)
{
	if (pc->cbuf.len && PQputCopyData(pc->c, pc->cbuf.buf,
					  (int)pc->cbuf.len) != 1) {
		set_err(pc, NULL);
		return PC_EDB;
	}
	strbuf_reset(&pc->cbuf);
	return 0;
}

static int copy_step(struct pg_stmt *st)
{
	struct pg_conn *pc = st->pc;

	if (st->done)
		return 101;
	if (pc->copying != st) {
		PGresult *r;

		if (end_copy(pc) < 0 || copy_failed(pc))
			return PC_EDB;
		r = PQexec(pc->c, st->copy);
		if (PQresultStatus(r) != PGRES_COPY_IN) {
			set_err(pc, r);
			PQclear(r);
			return PC_EDB;
		}
		PQclear(r);
		pc->copying = st;
	}
	for (int i = 0; i < st->nparams; i++) {
		if (st->fmts[i]) {
			free(pc->err);
			pc->err = xstrdup("a streamed insert takes no blobs");
			return PC_EDB;
		}
		copy_field(&pc->cbuf, st->vals[i], (size_t)st->lens[i]);
		strbuf_addch(&pc->cbuf, (i + 1) % st->ncols ? '\t' : '\n');
	}
	st->done = 1;
	return pc->cbuf.len >= COPY_FLUSH && copy_send(pc) < 0 ? PC_EDB : 101;
}

static int copy_end(struct pg_conn *pc)
{
	PGresult *r;
	int rc = copy_send(pc);

	pc->copying = NULL;
	strbuf_reset(&pc->cbuf);
	if (PQputCopyEnd(pc->c, NULL) != 1 && rc == 0) {
		set_err(pc, NULL);
		rc = PC_EDB;
	}
	while ((r = PQgetResult(pc->c))) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == 0) {
			set_err(pc, r);
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

int pg_stream_end(struct pg_stmt *st)
{
	if (copy_failed(st->pc))
		return PC_EDB;
	return st->pc->copying == st ? copy_end(st->pc) : 0;
}

/* Rows of COPY (sql) TO STDOUT, unescaped in place. */
struct pg_rows {
	struct pg_conn *pc;
	char *line;
	char **vals;
	int ncols, done;
};

int pg_rows_open(struct pg_conn *pc, struct pg_rows **out, const char *sql,
		 int ncols)
{
	struct pg_rows *rs;
	char *q;
	PGresult *r;

	*out = NULL;
	if (end_copy(pc) < 0)
		return PC_EDB;
	q = xasprintf("COPY (%s) TO STDOUT", sql);
	r = PQexec(pc->c, q);
	free(q);
	if (PQresultStatus(r) != PGRES_COPY_OUT) {
		set_err(pc, r);
		PQclear(r);
		return PC_EDB;
	}
	PQclear(r);
	rs = xcalloc(1, sizeof(*rs));
	rs->pc = pc;
	rs->ncols = ncols;
	rs->vals = xcalloc((size_t)ncols, sizeof(*rs->vals));
	*out = rs;
	return 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	       c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Unescape the field at s (up to a tab or the end) into itself; *tab
 * says whether a tab ended it. Returns where the next field starts. */
static char *copy_unescape(char *s, char **val, int *tab)
{
	char *w = s, *p = s;

	*val = s;
	if (p[0] == '\\' && p[1] == 'N' && (p[2] == '\t' || !p[2])) {
		*val = NULL;
		*tab = p[2] == '\t';
		return p + 2 + *tab;
	}
	while (*p && *p != '\t') {
		if (*p != '\\' || !p[1]) {
			*w++ = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 'b': *w++ = '\b'; p++; break;
		case 'f': *w++ = '\f'; p++; break;
		case 'n': *w++ = '\n'; p++; break;
		case 'r': *w++ = '\r'; p++; break;
		case 't': *w++ = '\t'; p++; break;
		case 'v': *w++ = '\v'; p++; break;
		case 'x':
			if (hexval(p[1]) >= 0) {
				int v = hexval(*++p);

				if (hexval(p[1]) >= 0)
					v = v * 16 + hexval(*++p);
				*w++ = (char)v;
				p++;
				break;
			}
			*w++ = *p++;
			break;
		default:
			if (*p >= '0' && *p <= '7') {
				int v = 0;

				for (int k = 0; k < 3 && *p >= '0' && *p <= '7';
				     k++)
					v = v * 8 + (*p++ - '0');
				*w++ = (char)v;
			} else {
				*w++ = *p++;
			}
		}
	}
	*tab = *p == '\t';
	*w = 0;
	return p + *tab;
}

int pg_rows_next(struct pg_rows *rs)
{
	struct pg_conn *pc = rs->pc;
	PGresult *r;
	char *p;
	int n, rc = 0;

	if (rs->done)
		return 0;
	if (rs->line)
		PQfreemem(rs->line);
	rs->line = NULL;
	n = PQgetCopyData(pc->c, &rs->line, 0);
	if (n > 0) {
		if (rs->line[n - 1] == '\n')
			rs->line[n - 1] = 0;
		p = rs->line;
		for (int i = 0; i < rs->ncols; i++) {
			int tab;

			p = copy_unescape(p, &rs->vals[i], &tab);
			if (tab != (i < rs->ncols - 1)) {
				free(pc->err);
				pc->err = xasprintf("COPY gave a row of %s "
						    "than %d columns", tab ?
						    "more" : "fewer",
						    rs->ncols);
				return PC_EDB;
			}
		}
		return 1;
	}
	rs->done = 1;
	while ((r = PQgetResult(pc->c))) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == 0) {
			set_err(pc, r);
			rc = PC_EDB;
		}
		PQclear(r);
	}
	if (n == -2 && rc == 0) {
		set_err(pc, NULL);
		rc = PC_EDB;
	}
	return rc;
}

const char *pg_rows_value(const struct pg_rows *rs, int i)
{
	return rs->vals[i];
}

void pg_rows_close(struct pg_rows *rs)
{
	if (!rs)
		return;
	/* the rest of the stream is read and dropped: the connection is
	 * usable again after */
	while (pg_rows_next(rs) > 0)
		;
	if (rs->line)
		PQfreemem(rs->line);
	free(rs->vals);
	free(rs);
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
		exec_raw(pc, sql);
	}
	if (pc->ro && !pc->streams) {
		pc->ro = 0;
		exec_raw(pc, "COMMIT");
	}
}

static int stream_fail(struct pg_stmt *st, PGresult *r)
{
	set_err(st->pc, r);
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
	if (end_copy(pc) < 0 || copy_failed(pc))
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
			if (exec_raw(pc, "BEGIN READ ONLY") < 0) {
				st->done = 1;
				return PC_EDB;
			}
			pc->ro = 1;
		}
		r = PQexecParams(pc->c, st->declare, st->nparams, NULL,
				 (const char *const *)st->vals, st->lens,
				 st->fmts, 0);
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			set_err(pc, r);
			PQclear(r);
			st->done = 1;
			if (pc->ro && !pc->streams) {
				pc->ro = 0;
				exec_raw(pc, "COMMIT");
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
		return copy_step(st);
	if (st->declare)
		return stream_step(st);
	if (end_copy(st->pc) < 0 || copy_failed(st->pc))
		return PC_EDB;
	if (!st->res && !st->done && !st->reads && leave_ro(st->pc) < 0) {
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
			set_err(st->pc, st->res);
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
			copy_end(st->pc);
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
