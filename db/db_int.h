#ifndef PC_DB_DB_INT_H
#define PC_DB_DB_INT_H
/* Private to db/db.c, db/dbstamp.c and the SQLite engine
 * (db/engine_sqlite.c): the connection's handle. No other file includes
 * sqlite3.h. */
#include <sqlite3.h>

struct db;

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
