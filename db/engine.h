#ifndef PC_DB_ENGINE_H
#define PC_DB_ENGINE_H
/*
 * The statement API of db/ (the engine seam, issue 22). Every db/ source
 * prepares, binds, steps and reads through these functions and never
 * calls an engine's library itself; the engine (db/engine_sqlite.c today)
 * implements them. For db/ sources only: nothing outside db/ prepares SQL.
 *
 * SQL is written once, in the dialect both SQLite and PostgreSQL accept:
 * `?` placeholders numbered from 1, ids returned with `RETURNING id`,
 * upserts with `ON CONFLICT (...) DO UPDATE/NOTHING`. What differs between
 * engines (pragmas, blob I/O, bulk load, the schema version) stays behind
 * the db_* functions of the engine, never as a test of the engine in a
 * caller.
 */
#include <stddef.h>
#include <stdint.h>

/* The schema version this build writes, and db_open's flags: here, below
 * db.h, because both engines read them (engine_pg.c includes this header,
 * never db.h, whose db.c includes engine_pg.h). */
#define DB_SCHEMA_VERSION 10

enum db_open_flags {
	DB_CREATE = 1 << 0,	/* create the file when absent */
	DB_READONLY = 1 << 1,	/* open read-only (never migrates) */
};

struct db;
/* A prepared statement: one connection, one thread at a time. */
struct db_stmt;

/* db_step's answers (any other value is an error: db_fail() reads it). */
#define DB_ROW 100
#define DB_DONE 101

/* db_column_type's answers. */
enum db_type {
	DB_TYPE_INT = 1,
	DB_TYPE_REAL = 2,
	DB_TYPE_TEXT = 3,
	DB_TYPE_BLOB = 4,
	DB_TYPE_NULL = 5,
};

/* Prepare SQL into *st unless *rc is already non-zero (sticky); on
 * failure *st is NULL and *rc the PC_EDB of db_fail(). */
void db_prepare(struct db *db, int *rc, struct db_stmt **st, const char *sql);
/* Prepare a SELECT whose rows may be many (a walk of results, an
 * export): the engine hands them out without holding the whole result
 * (PostgreSQL: a server-side cursor fetched in batches; SQLite steps its
 * b-tree anyway). Several such statements may be stepped in turn on one
 * connection, and other statements run between their steps. A scan
 * outside a transaction reads the database as it was when its first step
 * ran. Small lookups use db_prepare: a scan costs round trips. */
void db_prepare_scan(struct db *db, int *rc, struct db_stmt **st,
		     const char *sql);
/* Prepare an INSERT ("INSERT INTO ...") whose failure the caller
 * answers by rolling back the whole transaction (the import writer): the
 * engine need not undo the failed statement's own rows first, so it keeps
 * no statement journal (SQLite: INSERT OR FAIL; a multi-row INSERT under
 * the default ABORT spills ~20x the database size to a temporary file). */
void db_prepare_bulk(struct db *db, int *rc, struct db_stmt **st,
		     const char *sql);
/* Prepare a bulk INSERT (as db_prepare_bulk) whose rows the engine may
 * send on later, as a stream (PostgreSQL: `COPY ... FROM STDIN`, one
 * stream for as many steps as come before the connection's next other
 * statement). SQL is "INSERT INTO table (cols) VALUES (?,..)[,(?,..)]"
 * with plain `?` placeholders; each step sends every row bound. A row's
 * failure (a duplicate key, a NULL in a NOT NULL column) may surface at
 * the connection's next statement, db_finalize or the COMMIT, never
 * silently: a caller that must know which row failed checks before it
 * steps (the writer's duplicate probe). SQLite: db_prepare_bulk. */
void db_prepare_stream(struct db *db, int *rc, struct db_stmt **st,
		       const char *sql);
/* End a streamed insert's stream now: 0 when every row sent so far was
 * stored, else the PC_EDB of db_fail(db, what). SQLite: 0 (each step
 * stored its rows). */
int db_stream_end(struct db *db, struct db_stmt *st, const char *what);
/* Whether bulk rows are cheapest staged: streamed (db_prepare_stream)
 * into a temporary table and moved with one INSERT ... SELECT, rather
 * than sent as multi-row INSERTs. PostgreSQL: 1 (COPY skips the parse
 * and bind work of the INSERTs: tests/bench/notes.md, "PostgreSQL
 * import"); SQLite: 0 (an insert is an append in the same process). The
 * import writer's choice (db/wbatch.c), made once per import. */
int db_bulk_staged(struct db *db);
/* Run the statement to its next row: DB_ROW, DB_DONE, or an error. */
int db_step(struct db_stmt *st);
/* Rows changed by the INSERT, UPDATE or DELETE that the last db_step of
 * st ran (before db_reset): a multi-row INSERT ... ON CONFLICT DO
 * NOTHING counts the rows it stored. */
int64_t db_stmt_changes(struct db_stmt *st);
/* Make the statement runnable again; bindings are kept. */
void db_reset(struct db_stmt *st);
/* Free the statement; NULL is a no-op. */
void db_finalize(struct db_stmt *st);
/* Run one statement (or several, ';'-separated) without results. */
int db_exec(struct db *db, const char *sql);
/* Set a PC_EDB error from the engine's last message, with context. */
int db_fail(struct db *db, const char *what);

/* Bind parameter i (from 1). The text and blob forms copy, except the
 * _static ones: the caller keeps the bytes alive and unchanged until the
 * statement is stepped and reset (or rebound). */
int db_bind_null(struct db_stmt *st, int i);
int db_bind_int(struct db_stmt *st, int i, int v);
int db_bind_int64(struct db_stmt *st, int i, int64_t v);
/* A double, or NULL when it is NaN. */
int db_bind_double(struct db_stmt *st, int i, double v);
/* Text, or NULL when s is NULL. */
int db_bind_text(struct db_stmt *st, int i, const char *s);
int db_bind_text_static(struct db_stmt *st, int i, const char *s);
int db_bind_blob_static(struct db_stmt *st, int i, const void *p, size_t n);
/* The number of parameters of the statement. */
int db_bind_count(struct db_stmt *st);

/* Columns of the current row (from 0). */
int db_column_count(struct db_stmt *st);
const char *db_column_name(struct db_stmt *st, int i);
enum db_type db_column_type(struct db_stmt *st, int i);
int db_column_null(struct db_stmt *st, int i);
int db_column_int(struct db_stmt *st, int i);
int64_t db_column_int64(struct db_stmt *st, int i);
/* A column as a double, NaN when NULL. */
double db_column_double(struct db_stmt *st, int i);
/* A column as a double, 0.0 when NULL (the column cannot be NULL or the
 * caller tests db_column_null first). */
double db_column_real(struct db_stmt *st, int i);
/* A column as text, "" when NULL; borrowed until the next step. */
const char *db_column_text(struct db_stmt *st, int i);
/* A column as a new string (caller frees), NULL when NULL. */
char *db_column_dup(struct db_stmt *st, int i);

/* Step an INSERT ... RETURNING id once, read the id and reset: 0, or
 * the PC_EDB of db_fail(db, what) (no row is an error too). */
int db_step_id(struct db *db, struct db_stmt *st, const char *what,
	       int64_t *id);
/* Serialise the writers that touch NAME until the transaction ends:
 * PostgreSQL takes an advisory lock on it (writers run side by side
 * otherwise); SQLite's write transaction already excludes every other
 * writer. */
int db_lock_name(struct db *db, const char *name);
/* Whether the last error was a UNIQUE or PRIMARY KEY violation. */
int db_unique_violation(struct db *db);
/* Whether a transaction is open on the connection. */
int db_in_transaction(struct db *db);
/* Read the n bytes of blob column COLUMN of TABLE's row ID (a trusted
 * identifier pair, never user input) into buf, without a copy of the
 * whole blob in between where the engine can. */
int db_blob_read(struct db *db, const char *table, const char *column,
		 int64_t id, void *buf, size_t n);
/* Whole tables as text rows (perfcorr db copy, db/dbcopy.c): the rows
 * of SELECT sql, streamed (PostgreSQL: `COPY (sql) TO STDOUT`; SQLite:
 * the statement's cursor), never the whole result in memory. types has
 * one letter per column: 'i' integer, 'r' real (printed %.17g, exact),
 * 't' text. A value is NULL for SQL NULL. */
struct db_rows;
int db_rows_open(struct db *db, struct db_rows **out, const char *sql,
		 const char *types);
/* 1 when a row is ready, 0 at the end, <0 on error. */
int db_rows_next(struct db_rows *r);
/* Column i of the current row; borrowed until the next db_rows_next. */
const char *db_rows_value(const struct db_rows *r, int i);
void db_rows_close(struct db_rows *r);
/* After rows were inserted into TABLE (a trusted name) with their own
 * ids: the next id the engine makes is above them (PostgreSQL moves the
 * identity sequence; SQLite's rowid already follows max(id)). */
int db_identity_sync(struct db *db, const char *table);
/* The engine library's version, e.g. "3.40.1". */
const char *db_engine_version(void);

#endif
