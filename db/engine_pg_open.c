/* The PostgreSQL engine (see engine_pg.c): connecting, creating the
 * schema (db/schema_pg.sql) on a first writable open, migrating an
 * older one in one transaction (db/migrate_pg.c), closing. */
#include "db/engine_pg.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/engine.h"
#include "db/engine_pg_int.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

extern const char db_schema_pg_sql[];

/* The version in schema_version; 0 when the table is absent. */
static int schema_version(struct pg_conn *pc, int *v)
{
	PGresult *r = PQexec(pc->c, "SELECT to_regclass('schema_version') "
			     "IS NOT NULL");
	int rc = 0, has;

	*v = 0;
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		pg_set_err(pc, r);
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
		pg_set_err(pc, r);
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
			"migrating to %d; open it writable: 'perfcorr init' "
			"on it upgrades it in place (in one transaction; an "
			"import does too)", shown, v, DB_SCHEMA_VERSION);
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
