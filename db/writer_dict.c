/* The dictionaries of an import (see writer_int.h): workload ids (cached,
 * queued and stored sorted, a Bloom filter of the new keys, their
 * parameters), op ids with their class, metric ids with their dimension;
 * the indexes a bulk load drops until the commit. */
#include "db/writer_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/units.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

static const char *const bulk_index[2] = { "results_key",
					   "workload_params_nv" };

int writer_load_metrics(struct db_writer *w)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(w->db, &rc, &st, "SELECT id, name, dimension FROM metrics");
	while (!rc && db_step(st) == DB_ROW) {
		struct metric_info *m;
		int64_t known;

		if (hmap_get(&w->metric_idx, db_column_text(st, 1), &known))
			continue;	/* loaded before (names_lock) */
		w->metrics = xgrow(w->metrics, &w->metrics_cap, w->nmetrics,
				   sizeof(*w->metrics));
		m = &w->metrics[w->nmetrics];
		m->id = db_column_int64(st, 0);
		m->dim = db_column_dup(st, 2);
		m->put = 0;	/* none of this import's results yet */
		hmap_put(&w->metric_idx, db_column_text(st, 1),
			 (int64_t)w->nmetrics++);
	}
	db_finalize(st);
	return rc;
}

/* Index i of bulk_index[] goes for the rest of the import (bulk_at). */
int writer_bulk_drop(struct db_writer *w, int i)
{
	int rc = db_index_suspend(w->db, bulk_index[i], &w->bulk_sql[i]);

	return rc < 0 ? rc : 0;
}

static int wkey_same(const struct wkey *a, const struct wkey *b)
{
	if (a->n != b->n || !a->name != !b->name ||
	    (a->name && strcmp(a->name, b->name)))
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->params[i].name, b->params[i].name) ||
		    strcmp(a->params[i].value, b->params[i].value))
			return 0;
	return 1;
}

/* Step a prepared lookup of one id (bound by the caller):
 * 1 and *id when found, 0 when not, or the error. */
static int find_id(struct db *db, struct db_stmt *st, const char *what,
		   int64_t *id)
{
	int step = db_step(st);

	if (step == DB_ROW)
		*id = db_column_int64(st, 0);
	db_reset(st);
	if (step != DB_ROW && step != DB_DONE)
		return db_fail(db, what);
	return step == DB_ROW;
}

/* Store the queued workload parameters (one INSERT). */
int writer_params_flush(struct db_writer *w)
{
	size_t n = w->npar;
	struct db_stmt **st = &w->wl_par[n];
	int rc = 0;

	if (!n)
		return 0;
	if (!*st) {
		struct strbuf sql = STRBUF_INIT;

		strbuf_addstr(&sql, "INSERT INTO workload_params (workload_id, "
			      "name, value) VALUES ");
		for (size_t j = 0; j < n; j++)
			strbuf_addstr(&sql, j ? ",(?,?,?)" : "(?,?,?)");
		strbuf_addstr(&sql, " ON CONFLICT DO NOTHING");
		db_prepare(w->db, &rc, st, sql.buf);
		strbuf_release(&sql);
		if (rc)
			return rc;
	}
	for (size_t j = 0; j < n; j++) {
		const struct par_row *p = &w->par[j];

		db_bind_int64(*st, (int)j * 3 + 1, p->wid);
		db_bind_text_static(*st, (int)j * 3 + 2, w->par_text.buf +
				    p->name);
		db_bind_text_static(*st, (int)j * 3 + 3, w->par_text.buf +
				    p->value);
	}
	rc = writer_step_done(w->db, *st, "adding workload parameter");
	w->npar = 0;
	strbuf_reset(&w->par_text);
	return rc;
}

static int wl_cmp(const void *a, const void *b)
{
	const struct wl_row *x = a, *y = b;

	return strcmp(x->k, y->k);
}

/* Store the queued new workloads, sorted by key (wl_row). */
int writer_wl_flush(struct db_writer *w)
{
	const char *t = w->wl_text.buf;
	int rc = 0;

	if (!w->nwlq)
		return 0;
	for (size_t i = 0; i < w->nwlq; i++)
		w->wlq[i].k = t + w->wlq[i].key;
	qsort(w->wlq, w->nwlq, sizeof(*w->wlq), wl_cmp);
	for (size_t i = 0; i < w->nwlq && !rc; i += WL_ROWS) {
		size_t n = w->nwlq - i < WL_ROWS ? w->nwlq - i : WL_ROWS;
		struct db_stmt *st = n == WL_ROWS ? w->wl_many : NULL;

		if (!st) {
			struct strbuf sql = STRBUF_INIT;

			strbuf_addstr(&sql, "INSERT INTO workloads (id, key, "
				      "name, params) VALUES ");
			for (size_t j = 0; j < n; j++)
				strbuf_addstr(&sql, j ? ",(?,?,?,?)" :
					      "(?,?,?,?)");
			db_prepare_bulk(w->db, &rc, &st, sql.buf);
			strbuf_release(&sql);
			if (rc)
				break;
			if (n == WL_ROWS)
				w->wl_many = st;
		}
		for (size_t j = 0; j < n; j++) {
			const struct wl_row *q = &w->wlq[i + j];
			int o = (int)j * 4;

			db_bind_int64(st, o + 1, q->id);
			db_bind_text_static(st, o + 2, t + q->key);
			db_bind_text_static(st, o + 3, t + q->name);
			db_bind_text_static(st, o + 4, t + q->params);
		}
		rc = writer_step_done(w->db, st, "adding workload");
		if (st != w->wl_many)
			db_finalize(st);
	}
	w->nwlq = 0;
	strbuf_reset(&w->wl_text);
	hmap_release(&w->wl_queued);
	hmap_init(&w->wl_queued);
	return rc;
}

/* The filter's probes of key (WL_BLOOM_BITS): FNV-1a, split in two for
 * double hashing. */
static void bloom_probes(const char *key, uint32_t p[4])
{
	uint64_t h = 14695981039346656037u;

	for (const unsigned char *c = (const unsigned char *)key; *c; c++)
		h = (h ^ *c) * 1099511628211u;
	h ^= h >> 29;
	for (uint32_t i = 0, a = (uint32_t)h, b = (uint32_t)(h >> 32) | 1;
	     i < 4; i++)
		p[i] = (a + i * b) & (WL_BLOOM_BITS - 1);
}

/* 0 when no workload with this key was added by this import. */
static int bloom_has(const uint64_t *f, const char *key)
{
	uint32_t p[4];

	bloom_probes(key, p);
	for (int i = 0; i < 4; i++)
		if (!(f[p[i] / 64] >> (p[i] % 64) & 1))
			return 0;
	return 1;
}

static void bloom_add(uint64_t *f, const char *key)
{
	uint32_t p[4];

	bloom_probes(key, p);
	for (int i = 0; i < 4; i++)
		f[p[i] / 64] |= (uint64_t)1 << (p[i] % 64);
}

/* A new workload: its id now, its row queued (writer_wl_flush). */
static int wl_queue(struct db_writer *w, const struct wkey *k,
		    const char *key, int64_t *out)
{
	struct wl_row *q;
	char *params;
	int rc;

	if (w->nwlq == WL_QUEUE && (rc = writer_wl_flush(w)) < 0)
		return rc;
	if (!w->wlq)
		w->wlq = xmalloc(WL_QUEUE * sizeof(*w->wlq));
	q = &w->wlq[w->nwlq++];
	q->id = *out = w->next_wid++;
	q->key = w->wl_text.len;
	strbuf_add(&w->wl_text, key, strlen(key) + 1);
	q->name = w->wl_text.len;
	strbuf_add(&w->wl_text, k->name, strlen(k->name) + 1);
	params = wkey_params_json(k);
	q->params = w->wl_text.len;
	strbuf_add(&w->wl_text, params, strlen(params) + 1);
	free(params);
	hmap_put(&w->wl_queued, key, q->id);
	if (w->wl_bloom)
		bloom_add(w->wl_bloom, key);
	return 0;
}

/* The parameters of workload id: queued (writer_params_flush). */
static int workload_params(struct db_writer *w, const struct wkey *k,
			   int64_t id)
{
	int rc;

	for (size_t i = 0; i < k->n; i++) {
		struct par_row *p;

		if (w->npar == WL_PAR_ROWS && (rc = writer_params_flush(w)) < 0)
			return rc;
		p = &w->par[w->npar++];
		p->wid = id;
		p->name = w->par_text.len;
		strbuf_add(&w->par_text, k->params[i].name,
			   strlen(k->params[i].name) + 1);
		p->value = w->par_text.len;
		strbuf_add(&w->par_text, k->params[i].value,
			   strlen(k->params[i].value) + 1);
	}
	return 0;
}

/* A workload, op or metric new to the database is inserted under one
 * lock on the names (db_lock_name), taken at the import's first new
 * name and held to its end. On PostgreSQL importers run side by side:
 * without it, two first imports of the same names fail on each other's
 * uncommitted key ("duplicate key value violates unique constraint"),
 * and per-name locks taken in different orders would deadlock. With it,
 * importers that add names run one after the other from their first
 * new name on; importers of known names never wait. SQLite's write
 * transaction already excludes every other writer. Returns 1 when the
 * lock was just taken: what this import looked up before it may have
 * been stored since by an import that has committed, so the metrics are
 * loaded again here, the caller looks its name up again, and a "fresh"
 * database may no longer be fresh. */
static int names_lock(struct db_writer *w)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	if (w->names_locked)
		return 0;
	if ((rc = db_lock_name(w->db, "perfcorr: workload, op and metric "
			       "names")) < 0)
		return rc;
	w->names_locked = 1;
	if ((rc = writer_load_metrics(w)) < 0)	/* the metrics known at begin */
		return rc;
	if (w->wl_fresh) {
		db_prepare(w->db, &rc, &st, "SELECT count(*) FROM (SELECT 1 "
			   "FROM workloads LIMIT 1) AS t");
		if (!rc && db_step(st) == DB_ROW)
			w->wl_fresh = db_column_int64(st, 0) == 0;
		else if (!rc)
			rc = db_fail(w->db, "finding workloads");
		db_finalize(st);
	}
	return rc < 0 ? rc : 1;
}

/* The id of the workload with canonical key `key`: found in the
 * database (unless none was stored before this import), or inserted
 * with its parameters. */
static int workload_insert(struct db_writer *w, const struct wkey *k,
			   const char *key, int64_t *out)
{
	struct db_stmt *st = w->wl_find;
	int rc;

	/* queued by this import: its parameters too */
	if (w->nwlq && hmap_get(&w->wl_queued, key, out))
		return 0;
	db_bind_text(st, 1, key);
	if (w->wl_fresh || (w->wl_bloom && !bloom_has(w->wl_bloom, key)))
		rc = 0;
	else if ((rc = find_id(w->db, st, "finding workload", out)) < 0)
		return rc;
	if (!rc && (rc = names_lock(w)) > 0) {
		db_bind_text(st, 1, key);
		rc = w->wl_fresh ? 0 : find_id(w->db, st, "finding workload",
					       out);
	}
	if (rc < 0)
		return rc;
	if (!rc) {	/* new: queued with its id (SQLite) or inserted */
		if (w->local_ids) {
			rc = wl_queue(w, k, key, out);
		} else {
			char *params = wkey_params_json(k);

			st = w->wl_ins;
			db_bind_text(st, 1, key);
			db_bind_text(st, 2, k->name);
			db_bind_text(st, 3, params);
			rc = db_step_id(w->db, st, "adding workload", out);
			free(params);
		}
		if (rc)
			return rc;
		if (++w->new_wl == w->bulk_at[1] && (rc = writer_bulk_drop(w, 1)) < 0)
			return rc;
	}
	return workload_params(w, k, *out);
}

/* The workload and op id caches hold at most this many names: they are
 * caches, not the truth (the database is asked for a name not cached),
 * so a file of millions of distinct workloads imports in bounded memory
 * instead of ~80 bytes per name (docs/service.md, "Memory"). 4096, not
 * 65536: with src/import.c's record cache of the same size the two held
 * ~260 B per workload, 13 MB at 50k workloads (a 10M-row kernel CSV:
 * peak RSS 35 MB against 17 MB for its first 40 MB); a kernel file's
 * rows come grouped by workload and a sweep's keys come back within a
 * few hundred rows, so a hit needs only the recent keys. A file that
 * cycles through more workloads than this (op-major order) misses on
 * every row: measured at 1M rows x 5000 workloads, no slower than with
 * 65536 (2026-12-02: the results B-tree's scattered inserts dominate). */
#define CACHE_MAX 4096

static void cache_put(struct hmap *m, const char *key, int64_t id)
{
	if (m->len >= CACHE_MAX) {
		hmap_release(m);
		hmap_init(m);
	}
	hmap_put(m, key, id);
}

/* Importers send runs of results with one workload: comparing the wkey
 * with the last one is much cheaper than formatting its key per result. */
int writer_workload_id(struct db_writer *w, const struct wkey *k,
		       int64_t *out)
{
	char *key;
	int rc;

	if (w->last_wkey && wkey_same(k, &w->last_wk)) {
		*out = w->last_wid;
		return 0;
	}
	key = wkey_format(k);
	if (!*key || !k->name || !*k->name) {
		rc = pc_error_set(PC_EINVALID, "no workload%s: give one in the "
				  "file or with --workload", *key ? " name" :
				  "");
		free(key);
		return rc;
	}
	if (!hmap_get(&w->workloads, key, out)) {
		if ((rc = workload_insert(w, k, key, out)) < 0) {
			free(key);
			return rc;
		}
		/* the cache starts over: a key it forgets may come back, and
		 * is then looked up (a fresh database has it now) */
		if (w->workloads.len >= CACHE_MAX)
			w->wl_fresh = 0;
		cache_put(&w->workloads, key, *out);
	}
	free(w->last_wkey);
	w->last_wkey = key;
	wkey_copy(&w->last_wk, k);
	w->last_wid = *out;
	return 0;
}

void db_writer_last_workload(const struct db_writer *w, int64_t *id,
			     const char **key)
{
	*id = w->last_wkey ? w->last_wid : 0;
	*key = w->last_wkey;
}

static const char *op_class(const char *op, char *buf, size_t len)
{
	static const struct {
		const char *needle, *cls;
	} fam[] = {
		{ "gemm", "gemm" }, { "matmul", "gemm" }, { "linear", "gemm" },
		{ "qkv", "gemm" }, { "proj", "gemm" }, { "lm_head", "gemm" },
		{ "attn", "attention" }, { "attention", "attention" },
		{ "allreduce", "comm" }, { "all_reduce", "comm" },
		{ "allgather", "comm" }, { "nccl", "comm" }, { "comm", "comm" },
		{ "norm", "norm" }, { "softmax", "softmax" },
		{ "mlp", "mlp" }, { "ffn", "mlp" }, { "e2e", "e2e" },
	};
	size_t i;

	for (i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
		if (strstr(op, fam[i].needle))
			return fam[i].cls;
	for (i = 0; op[i] && op[i] != '_' && op[i] != '.' && i < len - 1; i++)
		buf[i] = op[i];
	buf[i] = '\0';
	return buf;
}

int writer_op_id(struct db_writer *w, const char *op, int64_t *out)
{
	struct db_stmt *st = w->op_find;
	int rc;
	char buf[64];

	if (hmap_get(&w->ops, op, out))
		return 0;
	if (!*op)
		return pc_error_set(PC_EINVALID, "empty op name");
	db_bind_text(st, 1, op);
	if ((rc = find_id(w->db, st, "finding op", out)) < 0)
		return rc;
	if (!rc && (rc = names_lock(w)) > 0) {
		db_bind_text(st, 1, op);
		rc = find_id(w->db, st, "finding op", out);
	}
	if (rc < 0)
		return rc;
	if (!rc) {
		st = w->op_ins;
		db_bind_text(st, 1, op);
		db_bind_text(st, 2, op_class(op, buf, sizeof(buf)));
		if ((rc = db_step_id(w->db, st, "adding op", out)))
			return rc;
	}
	cache_put(&w->ops, op, *out);
	return 0;
}

int writer_metric_id(struct db_writer *w, const char *metric,
		     const struct unit *u, int64_t *out)
{
	struct db_stmt *st = NULL;
	int64_t idx;
	int rc = 0;
	const char *better;

	if (hmap_get(&w->metric_idx, metric, &idx)) {
		const char *dim = w->metrics[idx].dim;

		if (strcmp(dim, u->dim) &&
		    !(!strcmp(dim, "ratio") && !strcmp(u->dim, "count")))
			return pc_error_set(PC_EINVALID, "unit '%s' is %s, but "
				"metric '%s' is %s%s", u->name, u->dim, metric,
				dim, !strcmp(u->dim, "cycles") ?
				" (use metric 'cycles')" : "");
		*out = w->metrics[idx].id;
		w->metrics[idx].put = 1;
		return 0;
	}
	if (!*metric)
		return pc_error_set(PC_EINVALID, "empty metric name");
	/* another import may have committed it since they were loaded */
	if ((rc = names_lock(w)) > 0 &&
	    hmap_get(&w->metric_idx, metric, &idx))
		return writer_metric_id(w, metric, u, out);
	if (rc < 0)
		return rc;
	rc = 0;
	better = !strcmp(u->dim, "rate") || !strcmp(u->dim, "efficiency") ||
		 !strcmp(u->dim, "flop_rate") || !strcmp(u->dim, "bandwidth") ?
		 "higher" : "lower";
	db_prepare(w->db, &rc, &st, "INSERT INTO metrics (name, dimension, "
		   "unit, better) VALUES (?, ?, ?, ?) RETURNING id");
	if (rc)
		return rc;
	db_bind_text(st, 1, metric);
	db_bind_text(st, 2, u->dim);
	db_bind_text(st, 3, u->si);
	db_bind_text(st, 4, better);
	rc = db_step_id(w->db, st, "adding metric", out);
	db_finalize(st);
	if (rc)
		return rc;
	w->metrics = xgrow(w->metrics, &w->metrics_cap, w->nmetrics,
			   sizeof(*w->metrics));
	w->metrics[w->nmetrics].id = *out;
	w->metrics[w->nmetrics].dim = xstrdup(u->dim);
	w->metrics[w->nmetrics].put = 1;
	hmap_put(&w->metric_idx, metric, (int64_t)w->nmetrics++);
	return 0;
}
