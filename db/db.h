#ifndef PC_DB_DB_H
#define PC_DB_DB_H
/*
 * The database handle: open (create + migrate), transactions, and the
 * statement API of db/engine.h used by the other db_*.c files. db/ owns
 * all SQL; nothing outside db/ prepares a statement. Other modules use the
 * functions declared in the db headers with bound parameters only.
 */
#include "db/engine.h"

struct db;

/* Open PATH: a SQLite file, or a PostgreSQL URI (db_is_server). A database with a newer user_version than this build knows
 * is refused (PC_EVERSION) and never modified; an older one is migrated.
 * Sets WAL mode, foreign keys and a busy handler with backoff. */
int db_open(struct db **out, const char *path, int flags);
void db_close(struct db *db);
/* Whether PATH is a server's connection string (postgresql:// or
 * postgres://, libpq's URI forms) rather than a SQLite file: db_open()
 * opens it with the PostgreSQL engine (db/engine_pg.c, docs/server.md). */
int db_is_server(const char *path);

/* The path given to db_open; borrowed. */
const char *db_path(const struct db *db);

/* BEGIN IMMEDIATE (retries while busy), COMMIT, ROLLBACK. */
int db_begin(struct db *db);
/* BEGIN IMMEDIATE without waiting: PC_EDB at once when another process
 * holds the write lock (for optional writes, e.g. a pair cache a reader
 * would otherwise wait minutes for). */
int db_begin_nowait(struct db *db);
/* A read transaction over one snapshot of the whole database (the
 * source of perfcorr db copy): every read until db_rollback sees the
 * same committed state, whatever other connections write meanwhile. */
int db_begin_snapshot(struct db *db);
int db_commit(struct db *db);
void db_rollback(struct db *db);
/* End a write transaction: COMMIT when rc is 0, else ROLLBACK and give
 * rc back (the usual tail of a writer). */
int db_end(struct db *db, int rc);

/* Before db_begin() of a writer whose every foreign key comes from its
 * own inserts and lookups: turn per-row foreign-key checks off when the
 * engine can (1: off, undo with db_fk_restore() after the transaction;
 * 0: left as they were). */
int db_fk_relax(struct db *db);
void db_fk_restore(struct db *db);
/* Inside a write transaction that writes a whole study (db copy, and
 * its --replace deletes one): wait for the imports in flight to end and keep new ones
 * out until the transaction does, so that no import commits results
 * whose workload, op or metric ids the delete took away (PostgreSQL's
 * results have no foreign keys to refuse them: db/migrate_pg.c, 6 -> 7).
 * PostgreSQL: LOCK TABLE runs (an import inserts its run first); SQLite:
 * 0 (the write transaction excludes every other writer already). */
int db_lock_imports(struct db *db);

/* A bulk load's secondary index, inside a write transaction: drop index
 * NAME and give back its CREATE statement in *sql (1), to be run again by
 * db_index_rebuild() before the commit; 0 when left as it is (PostgreSQL,
 * where dropping an index would lock readers out of the table until the
 * commit; no such index; the drop refused); < 0 when the failed drop
 * ended the transaction. A rollback restores the index with the rest. */
int db_index_suspend(struct db *db, const char *name, char **sql);
int db_index_rebuild(struct db *db, const char *sql);
/* Inside a write transaction: 1 when the caller may give the rows it
 * inserts their integer ids itself, counting on from the max(id) it read
 * in the same transaction (SQLite: BEGIN IMMEDIATE keeps every other
 * writer out until the commit, and an id it picks is the one SQLite would
 * have picked); 0 on PostgreSQL (ids come from each table's identity
 * sequence, importers run side by side). */
int db_local_ids(struct db *db);

/* A counter that changes when another connection commits: SQLite's
 * PRAGMA data_version; on PostgreSQL the notifications that the commits
 * of db_commit send (LISTEN/NOTIFY), read without blocking. */
int db_data_version(struct db *db, long *out);

/*
 * Readers (the functions that return rows) share one convention:
 * - an array of rows grows with xgrow (geometric, src/base/util.h), one
 *   call per row appended, never a realloc per row;
 * - a text column copied into a row is db_column_dup's: SQL NULL stays
 *   NULL. A field can be NULL only where its column is nullable (the
 *   reader's header says so); a reader that promises a string for a
 *   nullable column says coalesce(col, '') in its SQL;
 * - a text column used in place is db_column_text's (NULL reads "").
 */

/* The statement API (prepare, bind, step, column getters) is db/engine.h. */

#endif
