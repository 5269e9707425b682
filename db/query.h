#ifndef PC_DB_QUERY_H
#define PC_DB_QUERY_H
/*
 * Read-side listings as generic cursors: named columns with typed values,
 * streamed row by row (never a whole table in memory). Used by the
 * `sources`, `runs`, `workloads` and `export results` commands.
 */
#include <stdint.h>

struct db;
struct db_cursor;

enum db_listing {
	DB_LIST_SOURCES,
	DB_LIST_RUNS,
	DB_LIST_WORKLOADS,
	DB_LIST_RESULTS,	/* the `export results` contract */
	DB_LIST_METRICS,
	DB_LIST_OPS,
	DB_LIST_RUNS_META,	/* run_id, source, kind, version, metadata */
};

enum db_col_type { DB_COL_NULL, DB_COL_INT, DB_COL_REAL, DB_COL_TEXT };

/* Open a listing. source (may be NULL) restricts RUNS and RESULTS to
 * one source; an unknown source is PC_ENOTFOUND. */
/* Results of one run (run_id > 0) or all, optionally of one source. */
int db_list_open_results(struct db_cursor **out, struct db *db,
			 const char *source, int64_t run_id);
int db_list_open(struct db_cursor **out, struct db *db, enum db_listing what,
		 const char *source);
/* 1 when a row is ready, 0 at the end, <0 on error. */
int db_cursor_next(struct db_cursor *c);
int db_cursor_ncols(const struct db_cursor *c);
const char *db_cursor_name(const struct db_cursor *c, int i);
enum db_col_type db_cursor_type(const struct db_cursor *c, int i);
int64_t db_cursor_int(const struct db_cursor *c, int i);
double db_cursor_double(const struct db_cursor *c, int i);
/* Borrowed until the next db_cursor_next. */
const char *db_cursor_text(const struct db_cursor *c, int i);
void db_cursor_close(struct db_cursor *c);

/* 1 when source exists (and *kind_out, caller frees, when non-NULL). */
int db_source_exists(struct db *db, const char *source, char **kind_out);

/* How many (workload, op, metric) keys sources a and b both have
 * results for (any version), in *out: what a pairing of the two can
 * find at most. It walks the results of a (put the smaller source
 * first) and looks each key up in b through the pairing index. */
int db_source_overlap(struct db *db, const char *a, const char *b,
		      int64_t *out);

#endif
