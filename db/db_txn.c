/* Transactions on an open database (see db.h): the quick_check before
 * the first write and its stamp, begin/commit/rollback, foreign keys
 * relaxed for a load, the imports' lock, indexes suspended during a bulk
 * load, the data version other processes' commits move. Split from db.c
 * (issue 33). */
#include "db/db.h"
#include "db/db_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/engine_pg.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

/* Before the first write of a connection: PRAGMA quick_check (a read of
 * every page, about 1 s per 100 MB). Writing into a damaged database
 * spreads the damage; refuse with the cure instead. Skipped when the
 * database file and its -wal are exactly as the quick_check stamp says
 * (db/dbstamp.c): nothing but perfcorr, which writes only into a sound
 * database, has changed them since one was checked. */
static int check_once(struct db *db)
{
	sqlite3_stmt *st;
	char *first = NULL, *state;
	int rc;

	if (db->checked || db->pg)
		return 0;
	state = dbstamp_state(db->path);
	if (dbstamp_matches(db->path, state)) {
		free(state);
		db->checked = 1;
		return 0;
	}
	if (sqlite3_prepare_v2(db->h, "PRAGMA quick_check(1)", -1, &st,
			       NULL) != SQLITE_OK) {
		free(state);
		return db_damaged(db, sqlite3_errmsg(db->h));
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		first = xstrdup(sqlite3_column_text(st, 0) ?
				(const char *)sqlite3_column_text(st, 0) : "");
	else
		first = xstrdup(sqlite3_errmsg(db->h));
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW && !strcmp(first, "ok")) {
		/* the state from before the check: if another process
		 * wrote meanwhile, the stamp is stale, never wrong */
		dbstamp_write(db->path, state);
		free(state);
		free(first);
		db->checked = 1;
		return 0;
	}
	free(state);
	rc = db_damaged(db, first);
	free(first);
	return rc;
}

/* Holding the write lock: is the database as the stamp says (nobody
 * else wrote since a perfcorr commit or check)? Then this commit may
 * move the stamp on. */
static void began(struct db *db)
{
	char *state = dbstamp_state(db->path);

	db->stamped = dbstamp_matches(db->path, state);
	free(state);
}

/* After a commit or a close (which may checkpoint the -wal into the
 * database) that started from the stamped state. */
void db_restamp(struct db *db)
{
	char *state = dbstamp_state(db->path);

	dbstamp_write(db->path, state);
	free(state);
}

int db_begin(struct db *db)
{
	int rc = check_once(db);

	if (rc < 0)
		return rc;
	if (db->pg)
		return db_exec(db, "BEGIN");
	if ((rc = db_exec(db, "BEGIN IMMEDIATE")) < 0)
		return rc;
	began(db);
	return 0;
}

int db_begin_nowait(struct db *db)
{
	int rc;

	if ((rc = check_once(db)) < 0)
		return rc;
	if (db->pg)	/* MVCC: a writer waits only on the rows it updates */
		return db_exec(db, "BEGIN");
	sqlite3_busy_handler(db->h, NULL, NULL);
	rc = db_exec(db, "BEGIN IMMEDIATE");
	sqlite3_busy_handler(db->h, db_busy_handler, NULL);
	if (rc == 0)
		began(db);
	return rc;
}

int db_begin_snapshot(struct db *db)
{
	if (db->pg)
		return db_exec(db, "BEGIN ISOLATION LEVEL REPEATABLE READ, "
			       "READ ONLY");
	/* a deferred read transaction: WAL keeps its first read's view */
	return db_exec(db, "BEGIN");
}

int db_commit(struct db *db)
{
	int rc = db->pg ? (pg_commit(db->pg) < 0 ?
			   db_fail(db, "committing") : 0) :
		 db_exec(db, "COMMIT");

	if (rc < 0)
		db_rollback(db);
	else if (db->stamped)
		db_restamp(db);
	db->stamped = 0;
	return rc;
}

void db_rollback(struct db *db)
{
	db->stamped = 0;
	if (db->pg) {
		if (pg_in_transaction(db->pg))
			pg_exec(db->pg, "ROLLBACK");
		return;
	}
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

int db_end(struct db *db, int rc)
{
	if (rc < 0) {
		db_rollback(db);
		return rc;
	}
	return db_commit(db);
}

int db_fk_relax(struct db *db)
{
	sqlite3_stmt *st;
	int on = 0;

	if (db->pg)
		return 0;	/* PostgreSQL's results have no foreign keys
				 * (schema 7); its other tables keep theirs */
	if (!sqlite3_get_autocommit(db->h))
		return 0;	/* a no-op inside a transaction */
	if (sqlite3_prepare_v2(db->h, "PRAGMA foreign_keys", -1, &st,
			       NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		on = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return on && db_exec(db, "PRAGMA foreign_keys = OFF") == 0;
}

void db_fk_restore(struct db *db)
{
	if (db->pg)
		return;
	db_exec(db, "PRAGMA foreign_keys = ON");
}

int db_lock_imports(struct db *db)
{
	if (!db->pg)
		return 0;
	return pg_exec(db->pg, "LOCK TABLE runs IN SHARE ROW EXCLUSIVE MODE")
	       < 0 ? db_fail(db, "waiting for the imports in flight") : 0;
}

int db_index_suspend(struct db *db, const char *name, char **sql)
{
	sqlite3_stmt *st;
	char *drop;
	int rc = 0;

	*sql = NULL;
	if (db->pg || sqlite3_get_autocommit(db->h))
		return 0;
	if (sqlite3_prepare_v2(db->h, "SELECT sql FROM sqlite_schema WHERE "
			       "type = 'index' AND name = ?", -1, &st,
			       NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		*sql = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (!*sql)
		return 0;
	drop = xasprintf("DROP INDEX \"%s\"", name);
	if (sqlite3_exec(db->h, drop, NULL, NULL, NULL) == SQLITE_OK)
		rc = 1;
	free(drop);
	if (rc == 1)
		return 1;
	free(*sql);
	*sql = NULL;
	/* an I/O error or a full disk may have rolled the transaction
	 * back: what follows must not run outside it */
	if (sqlite3_get_autocommit(db->h))
		return db_fail(db, "dropping an index for a bulk load");
	return 0;
}

int db_index_rebuild(struct db *db, const char *sql)
{
	return db_exec(db, sql);
}

int db_local_ids(struct db *db)
{
	return !db->pg && !sqlite3_get_autocommit(db->h);
}

int db_data_version(struct db *db, long *out)
{
	if (db->pg)
		return pg_change_counter(db->pg, out) < 0 ?
		       db_fail(db, "change counter") : 0;
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "PRAGMA data_version", -1, &st, NULL))
		return db_fail(db, "data_version");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, "data_version");
}
