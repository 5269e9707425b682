/* Batched result inserts with exact duplicate detection (see wbatch.h). */
#include "db/wbatch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#define COLS "INSERT INTO results (run_id, workload_id, op_id, metric_id, " \
	"value, n, mean, median, min, max, stddev, raw_value, raw_unit, " \
	"flags, seq) VALUES "
#define ROW "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"

/* The INSERT of n rows; a stored key skips its row (wbatch.h). */
static void prepare_many(struct db *db, int *rc, struct db_stmt **st,
			 size_t n)
{
	struct strbuf sql = STRBUF_INIT;

	strbuf_addstr(&sql, COLS);
	for (size_t i = 0; i < n; i++)
		strbuf_addstr(&sql, i ? "," ROW : ROW);
	strbuf_addstr(&sql, " ON CONFLICT DO NOTHING");
	db_prepare_bulk(db, rc, st, sql.buf);
	strbuf_release(&sql);
}

/* The staging table and its statements (wbatch.h), made at the first
 * chunk that a direct COPY refused: the temporary table lives until the
 * import's transaction ends, so a failed import leaves nothing and the
 * next import on the connection makes it again. */
static int stage_init(struct wbatch *b)
{
	int rc = db_exec(b->db, "CREATE TEMP TABLE IF NOT EXISTS "
			 "results_stage (LIKE results) ON COMMIT DROP");

	db_prepare_stream(b->db, &rc, &b->stage, "INSERT INTO results_stage "
		"(run_id, workload_id, op_id, metric_id, value, n, mean, "
		"median, min, max, stddev, raw_value, raw_unit, flags, seq) "
		"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	db_prepare(b->db, &rc, &b->move, "INSERT INTO results (run_id, "
		"workload_id, op_id, metric_id, value, n, mean, median, min, "
		"max, stddev, raw_value, raw_unit, flags, seq) SELECT run_id, "
		"workload_id, op_id, metric_id, value, n, mean, median, min, "
		"max, stddev, raw_value, raw_unit, flags, seq FROM "
		"results_stage ORDER BY seq ON CONFLICT DO NOTHING");
	db_prepare(b->db, &rc, &b->first_dup, "SELECT s.seq FROM "
		"results_stage s JOIN results r ON r.run_id = s.run_id AND "
		"r.workload_id = s.workload_id AND r.op_id = s.op_id AND "
		"r.metric_id = s.metric_id WHERE r.seq IS DISTINCT FROM s.seq "
		"ORDER BY s.seq LIMIT 1");
	return rc;
}

int wbatch_init(struct wbatch *b, struct db *db, int64_t run_id)
{
	int rc = 0;

	memset(b, 0, sizeof(*b));
	b->db = db;
	b->run_id = run_id;
	b->staged = db_bulk_staged(db);
	b->cap = b->staged ? WBATCH_STAGE_ROWS : WBATCH_ROWS;
	b->rows = xmalloc(b->cap * sizeof(*b->rows));
	prepare_many(db, &rc, &b->many, WBATCH_ROWS);
	db_prepare(db, &rc, &b->find, "SELECT seq FROM results WHERE run_id = "
		   "? AND workload_id = ? AND op_id = ? AND metric_id = ?");
	if (b->staged)	/* COPY straight into results (wbatch.h) */
		db_prepare_stream(db, &rc, &b->direct, "INSERT INTO results "
			"(run_id, workload_id, op_id, metric_id, value, n, mean, "
			"median, min, max, stddev, raw_value, raw_unit, flags, "
			"seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	return rc;
}

void wbatch_release(struct wbatch *b)
{
	db_finalize(b->many);
	db_finalize(b->find);
	db_finalize(b->direct);
	db_finalize(b->stage);
	db_finalize(b->move);
	db_finalize(b->first_dup);
	free(b->rows);
	memset(b, 0, sizeof(*b));
}

static void bind_row(struct db_stmt *st, int o, int64_t run, int64_t seq,
		     const struct wbatch_row *r)
{
	db_bind_int64(st, o + 1, run);
	db_bind_int64(st, o + 2, r->wid);
	db_bind_int64(st, o + 3, r->oid);
	db_bind_int64(st, o + 4, r->mid);
	db_bind_double(st, o + 5, r->value);
	if (isnan(r->n))
		db_bind_null(st, o + 6);
	else
		db_bind_int64(st, o + 6, (int64_t)llround(r->n));
	db_bind_double(st, o + 7, r->mean);
	db_bind_double(st, o + 8, r->median);
	db_bind_double(st, o + 9, r->min);
	db_bind_double(st, o + 10, r->max);
	db_bind_double(st, o + 11, r->stddev);
	db_bind_double(st, o + 12, r->raw_value);
	db_bind_text_static(st, o + 13, r->unit);
	db_bind_int(st, o + 14, (int)r->flags);
	db_bind_int64(st, o + 15, seq);
}

/* The INSERT stored fewer rows than it was given: the first row (in the
 * caller's order) whose key holds another row's seq repeats a key stored
 * before it, in an earlier batch or earlier in this one. Rows of the
 * batch are stored in order, so every row before it holds its own. */
static int find_dup(struct wbatch *b, int64_t seq0)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct wbatch_row *r = &b->rows[i];
		int step;
		int64_t seq = 0;

		db_bind_int64(b->find, 1, b->run_id);
		db_bind_int64(b->find, 2, r->wid);
		db_bind_int64(b->find, 3, r->oid);
		db_bind_int64(b->find, 4, r->mid);
		step = db_step(b->find);
		if (step == DB_ROW)
			seq = db_column_int64(b->find, 0);
		db_reset(b->find);
		if (step != DB_ROW && step != DB_DONE)
			return db_fail(b->db, "checking for a duplicate");
		if (step == DB_ROW && seq != seq0 + (int64_t)i) {
			b->dup = *r;
			return 1;
		}
	}
	return pc_error_set(PC_EDB, "storing results: %zu rows were not "
			    "stored, and none repeats a key", b->n);
}

/* Stream the n held rows through st (a COPY) and end the stream. */
static int stream_rows(struct wbatch *b, struct db_stmt *st, size_t n)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		bind_row(st, 0, b->run_id, ++b->seq, &b->rows[i]);
		if (db_step(st) != DB_DONE)
			rc = db_fail(b->db, "storing results");
		db_reset(st);
	}
	return rc ? rc : db_stream_end(b->db, st, "storing results");
}

/* A chunk that the direct COPY refused, once more through the staging
 * table (wbatch.h): one COPY of the held rows into results_stage, one
 * INSERT ... SELECT of them in seq order; a short count: the first
 * staged row whose key holds another row's seq. */
static int stage_replay(struct wbatch *b, size_t n)
{
	int64_t seq0 = b->seq + 1, stored = 0, seq = 0;
	int rc = 0, step;

	if (!b->move && (rc = stage_init(b)) < 0)
		return rc;
	if ((rc = stream_rows(b, b->stage, n)) != 0)
		return rc;
	step = db_step(b->move);
	if (step == DB_DONE)
		stored = db_stmt_changes(b->move);
	db_reset(b->move);
	if (step != DB_DONE)
		return db_fail(b->db, "storing results");
	if (stored == (int64_t)n)	/* the next flush stages afresh */
		return db_exec(b->db, "TRUNCATE results_stage");
	step = db_step(b->first_dup);
	if (step == DB_ROW)
		seq = db_column_int64(b->first_dup, 0);
	db_reset(b->first_dup);
	if (step != DB_ROW && step != DB_DONE)
		return db_fail(b->db, "checking for a duplicate");
	if (step == DB_ROW && seq >= seq0 && seq < seq0 + (int64_t)n) {
		b->dup = b->rows[seq - seq0];
		return 1;
	}
	return pc_error_set(PC_EDB, "storing results: %lld rows were not "
			    "stored, and none repeats a key",
			    (long long)((int64_t)n - stored));
}

/* The staged path (wbatch.h): the held chunk is COPied straight into
 * results inside a savepoint; a repeated key fails the COPY (SQLSTATE
 * 23505), which is rolled back to the savepoint, and the same chunk,
 * still held here, goes through the staging table to name the first
 * duplicate's line. Any other failure is the import's. */
static int stage_flush(struct wbatch *b)
{
	int64_t seq0 = b->seq;
	size_t n = b->n;
	int rc;

	b->n = 0;
	if ((rc = db_exec(b->db, "SAVEPOINT wbatch")) < 0)
		return rc;
	if (!(rc = stream_rows(b, b->direct, n)))
		return db_exec(b->db, "RELEASE SAVEPOINT wbatch");
	if (!db_unique_violation(b->db))
		return rc;
	b->seq = seq0;
	if ((rc = db_exec(b->db, "ROLLBACK TO SAVEPOINT wbatch")) < 0 ||
	    (rc = stage_replay(b, n)) != 0)
		return rc;
	return db_exec(b->db, "RELEASE SAVEPOINT wbatch");
}

int wbatch_flush(struct wbatch *b)
{
	struct db_stmt *st = b->many;
	int64_t seq0 = b->seq + 1, stored;
	int rc = 0;

	if (!b->n)
		return 0;
	/* eager rows go one by one (the writer flushed the stage first) */
	if (b->staged && !b->eager)
		return stage_flush(b);
	if (b->n < WBATCH_ROWS) {	/* a tail: its own statement */
		st = NULL;
		prepare_many(b->db, &rc, &st, b->n);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < b->n; i++)
		bind_row(st, (int)i * 15, b->run_id, ++b->seq, &b->rows[i]);
	rc = db_step(st);
	stored = rc == DB_DONE ? db_stmt_changes(st) : 0;
	db_reset(st);
	if (st != b->many)
		db_finalize(st);
	if (rc != DB_DONE) {
		b->n = 0;
		return db_fail(b->db, "storing results");
	}
	rc = stored == (int64_t)b->n ? 0 : find_dup(b, seq0);
	b->n = 0;
	return rc;
}

int wbatch_add(struct wbatch *b, const struct wbatch_row *r)
{
	b->rows[b->n++] = *r;
	return b->n == b->cap || b->eager ? wbatch_flush(b) : 0;
}
