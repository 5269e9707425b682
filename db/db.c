/* Opening and closing a database, its errors (see db.h); the migrations
 * are db_migrate.c, transactions db_txn.c. */
#include "db/db.h"
#include "db/db_int.h"
#include "db/engine_pg.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

int db_busy_handler(void *arg, int count)
{
	struct timespec ts;
	long ms = count < 10 ? 1L << count : 200;

	(void)arg;
	/* about ten minutes in all: an import holds the write lock for the
	 * whole file (one run, one transaction), which for a 1 GB file is
	 * minutes; writers wait for it rather than fail */
	if (count > 3000)
		return 0;
	ts.tv_sec = 0;
	ts.tv_nsec = ms * 1000000L;
	nanosleep(&ts, NULL);
	return 1;
}

int db_damaged(struct db *db, const char *why)
{
	return pc_error_set(PC_EDB, "database '%s' is damaged (PRAGMA "
		"quick_check: %s): refusing to write into it; restore a backup, "
		"or recover what is readable: sqlite3 '%s' .recover | sqlite3 "
		"recovered.db", db->path, why, db->path);
}

/* A write that failed for want of space says so in words, naming the
 * database (SQLite's own "database or disk is full" reads like a fault
 * of the file): SQLITE_FULL, or an I/O error whose errno is ENOSPC or
 * EDQUOT; EFBIG is the file-size limit (ulimit -f). PC_EDB, so that
 * the watcher retries the delivery. 0 when the failure is another. */
static int space_error(struct db *db, const char *what)
{
	int ext = sqlite3_extended_errcode(db->h);
	int e = sqlite3_system_errno(db->h);

	if ((ext & 0xff) == SQLITE_FULL || ((ext & 0xff) == SQLITE_IOERR &&
					    (e == ENOSPC || e == EDQUOT)))
		return pc_error_set(PC_EDB, "database '%s': the disk is full "
				    "(%s): free some space and try again",
				    db->path, what);
	if ((ext & 0xff) == SQLITE_IOERR && e == EFBIG)
		return pc_error_set(PC_EDB, "database '%s': a file reached the "
				    "size limit of this process (%s; ulimit "
				    "-f): raise it and try again", db->path,
				    what);
	return 0;
}

int db_fail(struct db *db, const char *what)
{
	int rc;

	if (db->pg)
		return pc_error_set(PC_EDB, "%s: %s: %s", db->path, what,
				    pg_errmsg(db->pg));
	rc = space_error(db, what);
	return rc < 0 ? rc : pc_error_set(PC_EDB, "%s: %s: %s", db->path,
					  what, sqlite3_errmsg(db->h));
}

int db_exec(struct db *db, const char *sql)
{
	char *msg = NULL;

	if (db->pg)
		return pg_exec(db->pg, sql) < 0 ? db_fail(db, "running SQL") : 0;
	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		char what[48];

		if (!strcmp(sql, "COMMIT"))
			snprintf(what, sizeof(what), "committing");
		else
			snprintf(what, sizeof(what), "running '%.32s%s'", sql,
				 strlen(sql) > 32 ? "..." : "");
		if (space_error(db, what) == 0)
			pc_error_set(PC_EDB, "%s: %s", db->path,
				     msg ? msg : sqlite3_errmsg(db->h));
		sqlite3_free(msg);
		return PC_EDB;
	}
	return 0;
}

/* Before SQLite initialises: no global allocation statistics (a mutex
 * around every malloc). Later calls are refused by SQLite: harmless. */
static void db_global_config(void)
{
	static int done;

	if (!done) {
		done = 1;
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	}
}

/* Reopen a read-only WAL database whose -shm cannot be created (file
 * and directory not writable: another user's database). With no -wal
 * file there is nothing to recover, so immutable=1 reads it as is. */
static int reopen_immutable(struct db *db)
{
	struct strbuf uri = STRBUF_INIT;
	char *wal = xasprintf("%s-wal", db->path);
	int rc = -1;

	if (access(wal, F_OK) == 0)
		goto done;
	strbuf_addstr(&uri, "file:");
	for (const char *p = db->path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			strbuf_addf(&uri, "%%%02x", (unsigned char)*p);
		else
			strbuf_addch(&uri, *p);
	}
	strbuf_addstr(&uri, "?immutable=1");
	sqlite3_close_v2(db->h);
	db->h = NULL;
	if (sqlite3_open_v2(uri.buf, &db->h, SQLITE_OPEN_READONLY |
			    SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
	    db_exec(db, "SELECT count(*) FROM sqlite_schema") == 0)
		rc = 0;
done:
	strbuf_release(&uri);
	free(wal);
	return rc;
}

/* Why a database could not be opened, when it is not the file's content
 * (a full disk, an I/O error, a lock held too long). */
static void open_error(struct db *db, int ext)
{
	switch (ext & 0xff) {
	case SQLITE_FULL:
		pc_error_set(PC_EIO, "database '%s': the disk is full (free "
			     "some space and try again)", db->path);
		break;
	case SQLITE_IOERR:
		pc_error_set(PC_EIO, "database '%s': I/O error (%s): is the "
			     "disk full or failing?", db->path,
			     sqlite3_errmsg(db->h));
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		pc_error_set(PC_EDB, "database '%s' stayed locked by another "
			     "process: %s", db->path, sqlite3_errmsg(db->h));
		break;
	default:
		pc_error_set(PC_EDB, "cannot open database '%s': %s",
			     db->path, sqlite3_errmsg(db->h));
	}
}

/* Run sql, retrying while another connection holds a lock the busy
 * handler is not asked about (switching a new database to WAL while
 * another process creates it returns SQLITE_BUSY at once). */
static int exec_retry(struct db *db, const char *sql)
{
	for (int count = 0;; count++) {
		int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
		int e = rc & 0xff;

		if (rc == SQLITE_OK)
			return 0;
		if ((e != SQLITE_BUSY && e != SQLITE_LOCKED) ||
		    !db_busy_handler(NULL, count < 12 ? count : 12))
			return db_fail(db, sql);
		if (count > 600)	/* ~2 minutes */
			return db_fail(db, sql);
	}
}

/* A URI as messages show it: the password of user:password@ is "***". */
static char *redact(const char *uri)
{
	const char *p = strstr(uri, "://"), *at, *colon, *slash;

	if (!p)
		return xstrdup(uri);
	p += 3;
	slash = p + strcspn(p, "/?");
	at = memchr(p, '@', (size_t)(slash - p));
	colon = at ? memchr(p, ':', (size_t)(at - p)) : NULL;
	if (!colon)
		return xstrdup(uri);
	return xasprintf("%.*s***%s", (int)(colon + 1 - uri), uri, at);
}

int db_is_server(const char *path)
{
	return !strncmp(path, "postgresql:", 11) ||
	       !strncmp(path, "postgres:", 9);
}

/* Refuse a file with tables of which none is perfcorr's: it belongs to
 * another application, and perfcorr must not add its schema or switch
 * it to WAL. Checked before anything is written. */
static int check_foreign(struct db *db)
{
	sqlite3_stmt *st;
	int rc, n = 0, ours = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT count(*), coalesce(sum(name IN "
			       "('runs', 'sources', 'results')), 0) FROM "
			       "sqlite_schema WHERE type = 'table'", -1, &st,
			       NULL) != SQLITE_OK)
		return db_fail(db, "reading the schema");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		n = sqlite3_column_int(st, 0);
		ours = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, "reading the schema");
	if (n > 0 && ours < 3)
		return pc_error_set(PC_EINVALID, "'%s' is another "
			"application's SQLite database (%d table%s, none of "
			"them perfcorr's): refusing to touch it; give perfcorr "
			"its own file with --db", db->path, n, n == 1 ? "" :
			"s");
	return 0;
}

int db_open(struct db **out, const char *path, int flags)
{
	struct db *db;
	struct stat sb;
	int oflags, rc, missing;

	if (db_is_server(path)) {
		db = xcalloc(1, sizeof(*db));
		db->path = redact(path);
		if ((rc = pg_open(&db->pg, path, db->path, flags)) < 0)
			goto fail;
		*out = db;
		return 0;
	}
	missing = stat(path, &sb) != 0;
	if (missing || (sb.st_size == 0 && S_ISREG(sb.st_mode) &&
			!(flags & DB_CREATE))) {
		/* a zero-byte file is a new database: created by a writer
		 * (SQLite takes it as empty), "does not exist" to a reader */
		if (!(flags & DB_CREATE))
			return pc_error_set(PC_ENOTFOUND,
				"database '%s' %s (run 'perfcorr init' or "
				"import something first)", path, missing ?
				"does not exist" : "is empty (a zero-byte file)");
	} else if (!S_ISREG(sb.st_mode)) {
		return pc_error_set(PC_EIO, "'%s' is not a regular file", path);
	} else if (!(flags & DB_READONLY) && access(path, W_OK) != 0) {
		return pc_error_set(PC_EIO, "database '%s' is read-only", path);
	}
	oflags = flags & DB_READONLY ? SQLITE_OPEN_READONLY :
		 SQLITE_OPEN_READWRITE | (flags & DB_CREATE ?
					  SQLITE_OPEN_CREATE : 0);
	/* A connection is used by one thread at a time: no per-call mutex. */
	oflags |= SQLITE_OPEN_NOMUTEX;
	db_global_config();
	db = xcalloc(1, sizeof(*db));
	db->path = xstrdup(path);
	db->readonly = (flags & DB_READONLY) != 0;
	if (sqlite3_open_v2(path, &db->h, oflags, NULL) != SQLITE_OK) {
		rc = pc_error_set(PC_EIO, "cannot open database '%s': %s",
				  path, db->h ? sqlite3_errmsg(db->h) :
				  "out of memory");
		goto fail;
	}
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_handler(db->h, db_busy_handler, NULL);
	/* a file that is not a database fails here, before anything is written */
	if ((rc = db_exec(db, "PRAGMA foreign_keys = ON")) < 0 ||
	    (rc = db_exec(db, "SELECT count(*) FROM sqlite_schema")) < 0) {
		int ext = sqlite3_extended_errcode(db->h);

		if ((ext & 0xff) == SQLITE_READONLY && (flags & DB_READONLY) &&
		    reopen_immutable(db) == 0)
			goto opened;
		if ((ext & 0xff) == SQLITE_READONLY)
			pc_error_set(PC_EIO, "database '%s': its directory is "
				     "read-only (SQLite needs to create '%s-wal'"
				     " and '%s-shm' next to it)", path, path,
				     path);
		else if ((ext & 0xff) == SQLITE_NOTADB ||
			 (ext & 0xff) == SQLITE_CORRUPT)
			pc_error_set(PC_EDB, "'%s' is not a perfcorr database: "
				     "%s", path, sqlite3_errmsg(db->h));
		else
			open_error(db, ext);
		goto fail;
	}
	/* tables, but not perfcorr's: another application's file */
	if ((rc = check_foreign(db)) < 0)
		goto fail;
opened:
	if (!(flags & DB_READONLY)) {
		if (access(path, W_OK) != 0) {
			rc = pc_error_set(PC_EIO, "database '%s' is read-only",
					  path);
			goto fail;
		}
		if ((rc = exec_retry(db, "PRAGMA journal_mode = WAL")) < 0 ||
		    (rc = db_exec(db, "PRAGMA synchronous = NORMAL")) < 0) {
			open_error(db, sqlite3_extended_errcode(db->h));
			goto fail;
		}
	}
	if ((rc = db_migrate(db, flags & DB_READONLY)) < 0)
		goto fail;
	*out = db;
	return 0;
fail:
	db_close(db);
	return rc;
}

void db_close(struct db *db)
{
	int stamped = 0;

	if (!db)
		return;
	pg_close(db->pg);
	/* the last connection to close checkpoints the -wal into the
	 * database and removes it: a stamped state stays stamped */
	if (!db->readonly && db->h) {
		char *state = dbstamp_state(db->path);

		stamped = dbstamp_matches(db->path, state);
		free(state);
	}
	sqlite3_close_v2(db->h);
	if (stamped)
		db_restamp(db);
	free(db->path);
	free(db);
}

const char *db_path(const struct db *db)
{
	return db->path;
}

sqlite3 *db_sqlite(struct db *db)
{
	return db->h;
}

void db_sqlite_map(struct db *db)
{
	if (db->mapped || !db->h)
		return;
	db->mapped = 1;
	/* the library's cap applies (SQLITE_MAX_MMAP_SIZE, 2 GB by
	 * default); a failure just leaves the pages read */
	sqlite3_exec(db->h, "PRAGMA mmap_size = 1099511627776", NULL, NULL,
		     NULL);
}

struct pg_conn *db_pg(struct db *db)
{
	return db->pg;
}
