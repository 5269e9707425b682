#ifndef PC_DB_WBATCH_H
#define PC_DB_WBATCH_H
/*
 * The writer's result inserts, batched: up to WBATCH_ROWS results go in
 * one multi-row INSERT (one statement run, one set of cursors, instead of
 * one per result: -38% of an import's CPU at 1M results).
 *
 * Duplicates need no structure per result (issue 17: memory flat in the
 * file's size): the INSERT skips a row whose key (run, workload, op,
 * metric: the results table's primary key) is stored already
 * (ON CONFLICT DO NOTHING; no statement fails, which on PostgreSQL would
 * abort the transaction) and counts what it stored. A short count means
 * a repeated key: the batch's rows are looked up in order, and the first
 * whose stored seq is not its own is the duplicate, named with its
 * caller's line. Private to db/writer.c.
 *
 * Staged (db_bulk_staged: PostgreSQL, issue 22): the rows are held until
 * WBATCH_STAGE_ROWS are queued (about 2 MB), then streamed with one
 * `COPY results FROM STDIN` inside `SAVEPOINT wbatch` and kept here until
 * the COPY is confirmed. A repeated key (stored by an earlier chunk or
 * earlier in this one) fails the COPY: it is rolled back to the
 * savepoint and the same rows are streamed into a temporary table
 * (results_stage, made then and dropped at the import's commit or
 * rollback) and moved with one `INSERT INTO results SELECT ... ORDER BY
 * seq ON CONFLICT DO NOTHING`, which counts what it stored; a short
 * count asks the server for the first staged row (by seq) whose stored
 * seq is not its own: the duplicate, named at its line as above. The
 * rows are inserted in seq order, so a key repeated within one chunk
 * keeps its first row.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

#define WBATCH_ROWS 32
#define WBATCH_STAGE_ROWS 16384

struct wbatch_row {
	int64_t wid, oid, mid;
	double value, n, mean, median, min, max, stddev, raw_value;
	const char *unit;	/* static (the unit table) */
	unsigned flags;
	long line;		/* the caller's position, for a duplicate */
};

struct wbatch {
	struct db *db;
	int64_t run_id;
	struct db_stmt *many, *find;
	struct wbatch_row *rows;	/* cap of them */
	size_t n, cap;
	int staged;		/* through results_stage (db_bulk_staged) */
	struct db_stmt *direct;	/* COPY into results (staged) */
	struct db_stmt *stage, *move, *first_dup;	/* made at a refusal */
	int eager;		/* store each row at once (after the file;
				 * never staged) */
	int64_t seq;		/* results.seq of the last stored result */
	struct wbatch_row dup;	/* the duplicate, when a flush found one */
};

int wbatch_init(struct wbatch *b, struct db *db, int64_t run_id);
void wbatch_release(struct wbatch *b);

/* Queue one result (stored when the batch is full, or at once when
 * eager): 0, 1 when storing found a repeated key (b->dup is its row;
 * nothing of the batch after it counts), <0 on a database error. */
int wbatch_add(struct wbatch *b, const struct wbatch_row *r);

/* Store what is queued: 0, 1 on a repeated key (b->dup), <0. */
int wbatch_flush(struct wbatch *b);

#endif
