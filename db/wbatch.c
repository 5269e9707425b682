/* Batched result inserts with exact duplicate detection (see wbatch.h). */
#include "db/wbatch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "src/base/strbuf.h"
#include "src/base/util.h"

#define BLOOM_K 4

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* Sets the key's bits; returns 1 when they were all set already. */
static int bloom_add(struct wbatch *b, int64_t wid, int64_t oid, int64_t mid)
{
	uint64_t h1 = mix((uint64_t)wid * 0x9e3779b97f4a7c15ULL ^
			  mix((uint64_t)oid << 20 ^ (uint64_t)mid));
	uint64_t h2 = mix(h1 ^ 0x94d049bb133111ebULL) | 1;
	int seen = 1;

	for (int i = 0; i < BLOOM_K; i++) {
		uint64_t bit = (h1 + (uint64_t)i * h2) & (b->nbits - 1);
		uint64_t m = 1ULL << (bit & 63);

		if (!(b->bloom[bit >> 6] & m)) {
			seen = 0;
			b->bloom[bit >> 6] |= m;
		}
	}
	return seen;
}

int wbatch_init(struct wbatch *b, struct db *db, int64_t run_id,
		long long size_hint)
{
	struct strbuf sql = STRBUF_INIT;
	int rc = 0;

	memset(b, 0, sizeof(*b));
	b->db = db;
	b->run_id = run_id;
	/* about 12 bits per result of 30 bytes: under 1% false "maybe" */
	b->nbits = 1 << 16;
	while ((long long)b->nbits < size_hint / 30 * 12 && b->nbits < (1u << 30))
		b->nbits <<= 1;
	b->bloom = xcalloc(b->nbits / 64, sizeof(*b->bloom));
	strbuf_addstr(&sql, "INSERT INTO results (run_id, workload_id, op_id, "
		      "metric_id, value, n, mean, median, min, max, stddev, "
		      "raw_value, raw_unit, flags, seq) VALUES ");
	for (int i = 0; i < WBATCH_ROWS; i++)
		strbuf_addstr(&sql, i ? ",(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)" :
			      "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	/* a stream (PostgreSQL: one COPY for the batches between two
	 * other statements): a repeated key never reaches it, the probe
	 * below refuses it first */
	db_prepare_stream(db, &rc, &b->many, sql.buf);
	db_prepare(db, &rc, &b->probe, "SELECT 1 FROM results WHERE run_id = ? "
		   "AND workload_id = ? AND op_id = ? AND metric_id = ?");
	strbuf_release(&sql);
	return rc;
}

void wbatch_release(struct wbatch *b)
{
	db_finalize(b->many);
	db_finalize(b->probe);
	free(b->bloom);
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

/* A statement for n rows: the prepared full one, or one made for a tail. */
int wbatch_flush(struct wbatch *b)
{
	struct db_stmt *st = b->many;
	struct strbuf sql = STRBUF_INIT;
	int rc = 0;

	if (!b->n)
		return 0;
	if (b->n < WBATCH_ROWS) {
		strbuf_addstr(&sql, "INSERT INTO results (run_id, workload_id, "
			      "op_id, metric_id, value, n, mean, median, min, "
			      "max, stddev, raw_value, raw_unit, flags, seq) VALUES ");
		for (size_t i = 0; i < b->n; i++)
			strbuf_addstr(&sql, i ? ",(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)" :
				      "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
		db_prepare_stream(b->db, &rc, &st, sql.buf);
		strbuf_release(&sql);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < b->n; i++)
		bind_row(st, (int)i * 15, b->run_id, ++b->seq, &b->rows[i]);
	rc = db_step(st);
	db_reset(st);
	if (st != b->many)
		db_finalize(st);
	b->n = 0;
	return rc == DB_DONE ? 0 : db_fail(b->db, "storing results");
}

int wbatch_add(struct wbatch *b, const struct wbatch_row *r)
{
	int rc, found;

	if (bloom_add(b, r->wid, r->oid, r->mid)) {
		/* maybe stored already: ask the UNIQUE index, exactly */
		if ((rc = wbatch_flush(b)) < 0)
			return rc;
		db_bind_int64(b->probe, 1, b->run_id);
		db_bind_int64(b->probe, 2, r->wid);
		db_bind_int64(b->probe, 3, r->oid);
		db_bind_int64(b->probe, 4, r->mid);
		rc = db_step(b->probe);
		db_reset(b->probe);
		if (rc != DB_ROW && rc != DB_DONE)
			return db_fail(b->db, "checking for a duplicate");
		found = rc == DB_ROW;
		if (found)
			return 1;
	}
	b->rows[b->n++] = *r;
	return b->n == WBATCH_ROWS ? wbatch_flush(b) : 0;
}

void wbatch_note(struct wbatch *b, int64_t wid, int64_t oid, int64_t mid)
{
	bloom_add(b, wid, oid, mid);
}
