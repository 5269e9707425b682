#ifndef PC_DB_WBATCH_H
#define PC_DB_WBATCH_H
/*
 * The writer's result inserts, batched: up to WBATCH_ROWS results go in
 * one multi-row INSERT (one statement run, one set of cursors, instead of
 * one per result: -38% of an import's CPU at 1M results). Duplicates are
 * still found at the result that repeats a key: a Bloom filter over the
 * run's (workload, op, metric) ids says "new" for almost every result;
 * on "maybe" the batch is flushed and the UNIQUE index asked exactly.
 * Private to db/writer.c.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

#define WBATCH_ROWS 32

struct wbatch_row {
	int64_t wid, oid, mid;
	double value, n, mean, median, min, max, stddev, raw_value;
	const char *unit;	/* static (the unit table) */
	unsigned flags;
};

struct wbatch {
	struct db *db;
	int64_t run_id;
	struct db_stmt *many, *probe;
	struct wbatch_row rows[WBATCH_ROWS];
	size_t n;
	int64_t seq;		/* results.seq of the last stored result */
	uint64_t *bloom;
	size_t nbits;		/* a power of two */
};

/* Prepare for run_id; size_hint (bytes of input) sizes the filter. */
int wbatch_init(struct wbatch *b, struct db *db, int64_t run_id,
		long long size_hint);
void wbatch_release(struct wbatch *b);

/* Queue one result: 0, 1 when its key is already stored in this run
 * (nothing queued), <0 on a database error. */
int wbatch_add(struct wbatch *b, const struct wbatch_row *r);

/* Remember a key stored outside the batch (merged results). */
void wbatch_note(struct wbatch *b, int64_t wid, int64_t oid, int64_t mid);

/* Store what is queued. */
int wbatch_flush(struct wbatch *b);

#endif
