#ifndef PC_DB_DB_INT_H
#define PC_DB_DB_INT_H
/* Private to db/db.c and the SQLite engine (db/engine_sqlite.c): the
 * connection's handle. No other file includes sqlite3.h. */
#include <sqlite3.h>

struct db;

sqlite3 *db_sqlite(struct db *db);
/* The PostgreSQL connection, NULL on SQLite. */
struct pg_conn *db_pg(struct db *db);

#endif
