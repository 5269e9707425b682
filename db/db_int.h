#ifndef PC_DB_DB_INT_H
#define PC_DB_DB_INT_H
/* Private to db/db.c (open, close, errors), its parts db/db_migrate.c
 * (the migrations) and db/db_txn.c (transactions), db/dbstamp.c and the
 * SQLite engine (db/engine_sqlite.c): the connection's handle. No other
 * file includes sqlite3.h. */
#include <sqlite3.h>

struct pg_conn;

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

/* db.c */
int db_busy_handler(void *arg, int count);
int db_damaged(struct db *db, const char *why);

/* db_migrate.c */
int db_migrate(struct db *db, int readonly);

/* db_txn.c */
void db_restamp(struct db *db);

sqlite3 *db_sqlite(struct db *db);
/* Memory-map the database file for this connection's reads from now
 * on (PRAGMA mmap_size; once per connection): a large blob is then
 * copied once, from the page cache, instead of a pread per 4 KB page
 * into SQLite's buffers and a copy from there (db_blob_read). */
void db_sqlite_map(struct db *db);
/* The PostgreSQL connection, NULL on SQLite. */
struct pg_conn *db_pg(struct db *db);

/* The quick_check stamp, PATH-checked (db/dbstamp.c): the state of the
 * database file and its -wal as text (NULL when the file cannot be
 * read: never stamped), whether the stamp holds exactly that state, and
 * writing it (atomically; failures ignored: it is a cache). */
char *dbstamp_state(const char *path);
int dbstamp_matches(const char *path, const char *state);
void dbstamp_write(const char *path, const char *state);

#endif
