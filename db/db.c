/* Opening, migrating and transactions (see db.h). */
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

extern const char db_schema_sql[];

struct db {
	sqlite3 *h;
	struct pg_conn *pg;	/* PostgreSQL: h is NULL */
	char *path;
	int checked;		/* quick_check passed before the first write */
	int readonly;		/* opened DB_READONLY */
	int stamped;		/* this transaction began from the stamped
				 * state: its commit moves the stamp on */
	int mapped;		/* db_sqlite_map ran */
};

static void restamp(struct db *db);

/* Migrations: index i upgrades user_version i to i + 1. Version 1 is the
 * embedded db/schema.sql; append later changes here, never edit old ones.
 * PostgreSQL's steps, at the same index, are db/migrate_pg.c's. */
static const char *const migrations[] = {
	NULL,	/* 0 -> 1: db_schema_sql */
	/* 1 -> 2: the pair cache (db/paircache.h, docs/schema.md) */
	"CREATE TABLE pair_cache ("
	" id INTEGER PRIMARY KEY,"
	" key TEXT NOT NULL UNIQUE,"		/* digest of the pairing inputs */
	" label TEXT NOT NULL,"			/* 'sim@2 vs hw@1' */
	" created_at TEXT NOT NULL);"
	"CREATE TABLE pair_cache_parts ("
	" id INTEGER PRIMARY KEY,"		/* rowid: incremental blob I/O */
	" cache_id INTEGER NOT NULL REFERENCES pair_cache(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL,"
	" data BLOB NOT NULL,"
	" UNIQUE (cache_id, name));"
	/* run ids can be reused after a delete: drop everything cached */
	"CREATE TRIGGER runs_clear_pair_cache AFTER DELETE ON runs "
	"BEGIN DELETE FROM pair_cache; END;",
	/* 2 -> 3: the identity of an import (docs/schema.md) is the bytes
	 * *and* what the command line said (version, workload, platform,
	 * clock): UNIQUE(source_id, sha256) goes. SQLite cannot drop a
	 * constraint: the table is rebuilt (foreign keys are off while
	 * migrating, so the drop cascades nothing). Runs from before keep
	 * identity NULL: matched by their bytes alone, as they were. */
	"CREATE TABLE runs_new ("
	" id INTEGER PRIMARY KEY,"
	" source_id INTEGER NOT NULL REFERENCES sources(id),"
	" version TEXT NOT NULL,"
	" format TEXT NOT NULL,"
	" file_name TEXT NOT NULL,"
	" sha256 TEXT NOT NULL,"
	" file_size INTEGER,"
	" platform TEXT,"
	" clock_hz REAL,"
	" imported_at TEXT NOT NULL,"
	" imported_by TEXT,"
	" metadata TEXT,"
	" n_results INTEGER NOT NULL DEFAULT 0,"
	" identity TEXT);"
	"INSERT INTO runs_new (id, source_id, version, format, file_name, "
	"sha256, file_size, platform, clock_hz, imported_at, imported_by, "
	"metadata, n_results) SELECT id, source_id, version, format, "
	"file_name, sha256, file_size, platform, clock_hz, imported_at, "
	"imported_by, metadata, n_results FROM runs;"
	"DROP TABLE runs;"
	"ALTER TABLE runs_new RENAME TO runs;"
	"CREATE INDEX runs_source_version ON runs(source_id, version, id);"
	"CREATE INDEX runs_identity ON runs(source_id, sha256, identity);"
	"CREATE TRIGGER runs_clear_pair_cache AFTER DELETE ON runs "
	"BEGIN DELETE FROM pair_cache; END;",
	/* 3 -> 4: source kind 'emulation' (between rtl and silicon). A
	 * CHECK cannot be altered: rebuild the table (SQLite's 12-step way;
	 * migrate() runs with foreign keys off and checks them after) */
	"CREATE TABLE sources_new ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL UNIQUE,"
	" kind TEXT NOT NULL CHECK (kind IN ('roofline', 'perfsim', 'rtl',"
	" 'emulation', 'silicon')),"
	" created_at TEXT NOT NULL);"
	"INSERT INTO sources_new (id, name, kind, created_at)"
	" SELECT id, name, kind, created_at FROM sources;"
	"DROP TABLE sources;"
	"ALTER TABLE sources_new RENAME TO sources;",
	/* 4 -> 5: waivers with limits (docs/gate.md, "Waivers"): the model
	 * versions an annotation is limited to, and the error an accepted
	 * annotation accepted, per point, with the versions it was seen at */
	"ALTER TABLE annotations ADD COLUMN model_versions TEXT;"
	"CREATE TABLE annotation_errors ("
	" annotation_id INTEGER NOT NULL REFERENCES annotations(id)"
	"  ON DELETE CASCADE,"
	" workload TEXT NOT NULL,"
	" op TEXT NOT NULL,"
	" metric TEXT NOT NULL,"
	" model_version TEXT NOT NULL,"
	" ref_version TEXT NOT NULL,"
	" err REAL,"				/* NULL when undefined */
	" PRIMARY KEY (annotation_id, workload, op, metric));",
	/* 5 -> 6: results clustered on the pairing key (issue 21). The
	 * table is WITHOUT ROWID with PRIMARY KEY (run_id, workload_id,
	 * op_id, metric_id), the old UNIQUE: a run's results lie in key
	 * order with their values, so pairing walks one B-tree range per
	 * run instead of an index plus a table seek per result, and an
	 * import updates two B-trees, not three. seq is the result's
	 * position in its run (file order; `export results` order); the
	 * old rowid keeps that order for existing rows. */
	"CREATE TABLE results_new ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" workload_id INTEGER NOT NULL REFERENCES workloads(id),"
	" op_id INTEGER NOT NULL REFERENCES ops(id),"
	" metric_id INTEGER NOT NULL REFERENCES metrics(id),"
	" value REAL NOT NULL,"
	" n INTEGER,"
	" mean REAL,"
	" median REAL,"
	" min REAL,"
	" max REAL,"
	" stddev REAL,"
	" raw_value REAL,"
	" raw_unit TEXT,"
	" flags INTEGER NOT NULL DEFAULT 0,"
	" seq INTEGER,"
	" PRIMARY KEY (run_id, workload_id, op_id, metric_id)) WITHOUT ROWID;"
	"INSERT INTO results_new (run_id, workload_id, op_id, metric_id, "
	"value, n, mean, median, min, max, stddev, raw_value, raw_unit, "
	"flags, seq) SELECT run_id, workload_id, op_id, metric_id, value, n, "
	"mean, median, min, max, stddev, raw_value, raw_unit, flags, id "
	"FROM results ORDER BY run_id, workload_id, op_id, metric_id;"
	"DROP TABLE results;"
	"ALTER TABLE results_new RENAME TO results;"
	"CREATE INDEX results_key ON results(workload_id, op_id, metric_id, "
	"run_id);",
	/* 6 -> 7: PostgreSQL's results lose their foreign keys (four
	 * parent lookups per imported row, 70% of the server's import CPU;
	 * db/migrate_pg.c). SQLite's keep theirs: its import already runs
	 * with foreign keys off (db_fk_relax). Nothing to change here. */
	"",
};
#define N_MIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

static int busy_handler(void *arg, int count)
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

static int damaged(struct db *db, const char *why)
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

static int user_version(struct db *db, int *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL))
		return db_fail(db, "reading schema version");
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, "reading schema version");
}

/* PRAGMA foreign_key_check: PC_EDB when any row breaks a reference. */
static int fk_check(struct db *db)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "PRAGMA foreign_key_check", -1, &st,
			       NULL))
		return db_fail(db, "checking foreign keys");
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return pc_error_set(PC_EDB, "%s: a migration broke a foreign "
				    "key; nothing was changed", db->path);
	return rc == SQLITE_DONE ? 0 : db_fail(db, "checking foreign keys");
}

static int migrate(struct db *db, int readonly)
{
	int v, rc;
	char sql[64];

	if ((rc = user_version(db, &v)) < 0)
		return rc;
	if (v > DB_SCHEMA_VERSION)
		return pc_error_set(PC_EVERSION,
			"%s: written by a newer perfcorr (schema %d, this build "
			"knows %d); refusing to touch it", db->path, v,
			DB_SCHEMA_VERSION);
	if (v == DB_SCHEMA_VERSION)
		return 0;
	if (readonly)
		return pc_error_set(PC_EVERSION,
			"%s: schema %d needs migrating to %d; open it writable",
			db->path, v, DB_SCHEMA_VERSION);
	/* a migration may rebuild a table (drop and rename): with foreign
	 * keys on, the drop would cascade into its children. The pragma is
	 * a no-op inside a transaction, hence here. */
	if ((rc = db_exec(db, "PRAGMA foreign_keys = OFF")) < 0)
		return rc;
	if ((rc = db_begin(db)) < 0)
		goto fk;
	/* re-read inside the write lock: another process may have migrated */
	if ((rc = user_version(db, &v)) < 0)
		goto done;
	for (; v < (int)N_MIGRATIONS; v++) {
		rc = db_exec(db, v == 0 ? db_schema_sql : migrations[v]);
		if (rc < 0)
			goto done;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
		if ((rc = db_exec(db, sql)) < 0)
			goto done;
	}
	/* the rebuilt tables must still satisfy every reference */
	rc = fk_check(db);
done:
	rc = db_end(db, rc);
fk:
	if (db_exec(db, "PRAGMA foreign_keys = ON") < 0 && rc == 0)
		rc = PC_EDB;
	return rc;
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
		    !busy_handler(NULL, count < 12 ? count : 12))
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
	sqlite3_busy_handler(db->h, busy_handler, NULL);
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
	if ((rc = migrate(db, flags & DB_READONLY)) < 0)
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
		restamp(db);
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
		return damaged(db, sqlite3_errmsg(db->h));
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
	rc = damaged(db, first);
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
static void restamp(struct db *db)
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
	sqlite3_busy_handler(db->h, busy_handler, NULL);
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
		restamp(db);
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
