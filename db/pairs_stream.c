/* The pairing streams (see pairs.h): one side's results in (workload,
 * op, metric) order, reduced to one per key (the latest run, or the pool
 * of every run), cycles scaled through the runs' clocks, the --metric and
 * --op selections in the SQL. Split from pairs.c (issue 33), which
 * resolves the sides and reads the dictionaries. */
#include "db/pairs.h"
#include "db/pairs_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

struct cursor {
	struct db_stmt *st;
	int live;		/* a row is ready */
	struct db_result row;
};

static int cursor_step(struct db *db, struct cursor *c)
{
	struct db_stmt *st = c->st;
	int rc = db_step(st);

	if (rc == DB_DONE) {
		c->live = 0;
		return 0;
	}
	if (rc != DB_ROW)
		return db_fail(db, "reading results");
	c->live = 1;
	c->row.workload_id = db_column_int64(st, 0);
	c->row.op_id = db_column_int64(st, 1);
	c->row.metric_id = db_column_int64(st, 2);
	c->row.value = db_column_real(st, 3);
	c->row.n = db_column_double(st, 4);
	c->row.stddev = db_column_double(st, 5);
	c->row.min = db_column_double(st, 6);
	c->row.max = db_column_double(st, 7);
	c->row.flags = (unsigned)db_column_int(st, 8);
	return 0;
}

static int key_cmp(const struct db_result *a, const struct db_result *b)
{
	if (a->workload_id != b->workload_id)
		return a->workload_id < b->workload_id ? -1 : 1;
	if (a->op_id != b->op_id)
		return a->op_id < b->op_id ? -1 : 1;
	if (a->metric_id != b->metric_id)
		return a->metric_id < b->metric_id ? -1 : 1;
	return 0;
}

/* Combine the rows of one key across runs (Welford), each value times
 * its run's scale (1, or latest clock / own clock for cycles). */
struct pool {
	size_t k;
	double mean, m2, min, max;
	unsigned flags;
	struct db_result last;
};

static void pool_add(struct pool *p, const struct db_result *r, double scale)
{
	double v = r->value * scale, d = v - p->mean;

	if (p->k == 0) {
		p->min = p->max = v;
		p->flags = 0;
	}
	p->k++;
	p->mean += d / (double)p->k;
	p->m2 += d * (v - p->mean);
	p->min = fmin(p->min, v);
	p->max = fmax(p->max, v);
	p->flags |= r->flags;
	p->last = *r;
}

static struct db_result pool_result(const struct pool *p, int pool)
{
	struct db_result r = p->last;

	r.nruns = (unsigned)p->k;
	if (!pool || p->k < 2)
		return r;
	r.value = p->mean;
	r.n = (double)p->k;
	r.stddev = sqrt(p->m2 / (double)(p->k - 1));
	r.min = p->min;
	r.max = p->max;
	r.flags = p->flags;
	return r;
}

/* The metric id of "cycles", or 0. */
static int64_t cycles_id(struct db *db)
{
	struct db_stmt *st = NULL;
	int rc = 0;
	int64_t id = 0;

	db_prepare(db, &rc, &st, "SELECT id FROM metrics WHERE name = "
		   "'cycles'");
	if (!rc && db_step(st) == DB_ROW)
		id = db_column_int64(st, 0);
	db_finalize(st);
	return id;
}

/* Scales for pooling the cycles of one key: clocks all equal (or all
 * unknown): 1; different: latest clock / own clock (the mean of times,
 * in the latest run's cycles); known and unknown mixed: an error. */
static int cycle_scales(const struct db_side *side, const struct cursor *c,
			const struct db_result *key, double *scale)
{
	size_t last = 0, nknown = 0, nunknown = 0;
	int differ = 0;

	for (size_t i = 0; i < side->nruns; i++) {
		scale[i] = 1;
		if (!c[i].live || key_cmp(&c[i].row, key))
			continue;
		if (isnan(side->clock_hz[i])) {
			nunknown++;
		} else {
			if (nknown && side->clock_hz[i] != side->clock_hz[last])
				differ = 1;
			nknown++;
		}
		last = i;
	}
	if (nknown && nunknown) {
		size_t a = 0, b = 0;

		for (size_t i = 0; i < side->nruns; i++)
			if (c[i].live && !key_cmp(&c[i].row, key)) {
				if (isnan(side->clock_hz[i]))
					b = i;
				else
					a = i;
			}
		return pc_error_set(PC_EINVALID, "pooling runs: runs %lld ('%s', "
			"clock %g MHz) and %lld ('%s', no clock) of source '%s' "
			"both hold cycles of one key: they cannot be averaged "
			"(re-import run %lld with --clock-mhz)",
			(long long)side->runs[a], side->files[a],
			side->clock_hz[a] / 1e6, (long long)side->runs[b],
			side->files[b], side->source, (long long)side->runs[b]);
	}
	if (!differ)
		return 0;
	for (size_t i = 0; i < side->nruns; i++)
		if (c[i].live && !key_cmp(&c[i].row, key))
			scale[i] = side->clock_hz[last] / side->clock_hz[i];
	return 0;
}

/* The name of id in table (workloads.key, ops.name, metrics.name). */
static void name_of(struct db *db, const char *sql, int64_t id,
		    struct strbuf *sb)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, sql);
	if (!rc) {
		db_bind_int64(st, 1, id);
		strbuf_addf(sb, "'%s'", db_step(st) == DB_ROW ?
			    db_column_text(st, 0) : "?");
	}
	db_finalize(st);
}

/* The runs holding key must share one platform: a result on an A100 and
 * one on a V100 are two results, neither supersedes the other. */
static int one_platform(struct db *db, const struct db_side *side,
			const struct cursor *c, const struct db_result *key)
{
	const char **v = xmalloc((side->nruns + 1) * sizeof(*v));
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < side->nruns; i++) {
		size_t k;

		if (!c[i].live || key_cmp(&c[i].row, key))
			continue;
		for (k = 0; k < n && !pairs_same_platform(v[k], side->platforms[i]);
		     k++)
			;
		if (k == n)
			v[n++] = side->platforms[i];
	}
	if (n < 2) {
		free(v);
		return 0;
	}
	strbuf_addf(&sb, "'%s@%s' holds workload ", side->source,
		    side->version);
	name_of(db, "SELECT key FROM workloads WHERE id = ?",
		key->workload_id, &sb);
	strbuf_addstr(&sb, ", op ");
	name_of(db, "SELECT name FROM ops WHERE id = ?", key->op_id, &sb);
	strbuf_addstr(&sb, ", metric ");
	name_of(db, "SELECT name FROM metrics WHERE id = ?", key->metric_id,
		&sb);
	strbuf_addstr(&sb, " on several platforms (");
	pairs_platform_list(&sb, v, n);
	strbuf_addstr(&sb, "): neither is the result of the other");
	rc = pc_error_set(PC_EINVALID, "%s", strbuf_str(&sb));
	pc_error_cause(PC_CAUSE_PLATFORM);
	strbuf_release(&sb);
	free(v);
	return rc;
}

/* A side's results as one stream: a walk of each run's range of the
 * clustered results table, k-way merged, one output row per key. */
struct db_pairs_cur {
	struct db *db;
	const struct db_side *side;
	struct cursor *c;
	double *scale;
	int64_t cyc;
	int pool;
	struct db_result row;	/* the row handed out last */
};

int db_pairs_next(struct db_pairs_cur *pc, const struct db_result **row)
{
	const struct db_side *side = pc->side;
	struct cursor *c = pc->c;
	const struct db_result *min = NULL;
	size_t k = side->nruns;
	struct pool p;
	int rc;

	for (size_t i = 0; i < k; i++)
		if (c[i].live && (!min || key_cmp(&c[i].row, min) < 0))
			min = &c[i].row;
	if (!min)
		return 0;
	memset(&p, 0, sizeof(p));
	p.last = *min;
	for (size_t i = 0; i < k; i++)
		pc->scale[i] = 1;
	if (k > 1 && (rc = one_platform(pc->db, side, c, &p.last)) < 0)
		return rc;
	if (pc->pool && pc->cyc && min->metric_id == pc->cyc &&
	    (rc = cycle_scales(side, c, &p.last, pc->scale)) < 0)
		return rc;
	for (size_t i = 0; i < k; i++)
		if (c[i].live && key_cmp(&c[i].row, &p.last) == 0) {
			pool_add(&p, &c[i].row, pc->scale[i]);
			if ((rc = cursor_step(pc->db, &c[i])) < 0)
				return rc;
		}
	pc->row = pool_result(&p, pc->pool);
	*row = &pc->row;
	return 1;
}

/* " AND col IN (?,?,...)" for n ids (nothing when n is 0). */
static void in_list(struct strbuf *sql, const char *col, size_t n)
{
	if (!n)
		return;
	strbuf_addf(sql, " AND %s IN (", col);
	for (size_t i = 0; i < n; i++)
		strbuf_addstr(sql, i ? ",?" : "?");
	strbuf_addch(sql, ')');
}

/* The results run holds by its own count (0 when unknown). */
static int64_t run_results(struct db *db, int64_t run)
{
	struct db_stmt *st = NULL;
	int64_t n = 0;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT n_results FROM runs WHERE id = ?");
	if (rc)
		return 0;
	db_bind_int64(st, 1, run);
	if (db_step(st) == DB_ROW)
		n = db_column_int64(st, 0);
	db_finalize(st);
	return n;
}

/* Seeks per (workload, op, metric) for an op selection when they are
 * few against the run's results (issue 21): the clustered key leads
 * with (run, workload), so an op filter alone walks the whole run. A
 * seek costs about 16-20 rows of the walk on this layout (1M kernel
 * study: 25,000 seeks 0.23-0.34 s against the walk's 0.55-0.65 s; the
 * sweep's 625,000 seeks 1.64 s against 0.62 s), so seeks are taken up
 * to a sixteenth of the run's results. (A quarter, until 2026-12-02,
 * sent `--op 'layer[0-4].*'` (every op: 250,000 seeks per 1M results)
 * to the seeks: 1.3-1.5x a plain compare, where the walk costs less.) */
static int seek_ops(struct db *db, int64_t run, const struct db_pairs_filter *f)
{
	uint64_t seeks;

	if (!f || !f->nops || !f->nworkloads || db_is_server(db_path(db)))
		return 0;
	seeks = (uint64_t)f->nworkloads * f->nops *
		(f->nmetrics ? f->nmetrics : 1);
	return seeks <= (uint64_t)run_results(db, run) / 16;
}

int db_pairs_open(struct db_pairs_cur **out, struct db *db,
		  const struct db_side *side, int pool, const int64_t only[2],
		  const struct db_pairs_filter *f)
{
	struct db_pairs_cur *pc = xcalloc(1, sizeof(*pc));
	struct strbuf sql = STRBUF_INIT, sql_seek = STRBUF_INIT;
	size_t nm = f ? f->nmetrics : 0, no = f ? f->nops : 0;
	int rc = 0, key = only && only[0] > 0 && only[1] > 0;

	pc->db = db;
	pc->side = side;
	pc->pool = pool;
	pc->c = xcalloc(side->nruns + 1, sizeof(*pc->c));
	pc->scale = xmalloc((side->nruns + 1) * sizeof(*pc->scale));
	pc->cyc = pool ? cycles_id(db) : 0;
	/* the results table is clustered on (run_id, workload_id, op_id,
	 * metric_id): one range per run, in key order, no sort, no seek;
	 * the filters only skip rows of that range */
	strbuf_addstr(&sql, "SELECT workload_id, op_id, metric_id, value, n, "
		      "stddev, min, max, flags FROM results WHERE run_id = ?");
	if (key)
		strbuf_addstr(&sql, " AND workload_id = ? AND op_id = ?");
	in_list(&sql, "metric_id", nm);
	in_list(&sql, "op_id", no);
	strbuf_addstr(&sql, " ORDER BY workload_id, op_id, metric_id");
	/* the seeking form: every workload id in order (no sort: SQLite
	 * steps the IN lists in order), the same parameters */
	strbuf_addstr(&sql_seek, "SELECT workload_id, op_id, metric_id, "
		      "value, n, stddev, min, max, flags FROM results WHERE "
		      "run_id = ? AND workload_id IN (SELECT id FROM "
		      "workloads)");
	in_list(&sql_seek, "metric_id", nm);
	in_list(&sql_seek, "op_id", no);
	strbuf_addstr(&sql_seek, " ORDER BY workload_id, op_id, metric_id");
	for (size_t i = 0; i < side->nruns && !rc; i++) {
		int at = 1;

		db_prepare_scan(db, &rc, &pc->c[i].st,
				!key && seek_ops(db, side->runs[i], f) ?
				sql_seek.buf : sql.buf);
		if (rc)
			break;
		db_bind_int64(pc->c[i].st, at++, side->runs[i]);
		if (key) {
			db_bind_int64(pc->c[i].st, at++, only[0]);
			db_bind_int64(pc->c[i].st, at++, only[1]);
		}
		for (size_t j = 0; j < nm; j++)
			db_bind_int64(pc->c[i].st, at++, f->metrics[j]);
		for (size_t j = 0; j < no; j++)
			db_bind_int64(pc->c[i].st, at++, f->ops[j]);
		pc->c[i].row.run_id = side->runs[i];
		rc = cursor_step(db, &pc->c[i]);
	}
	strbuf_release(&sql);
	strbuf_release(&sql_seek);
	if (rc) {
		db_pairs_close(pc);
		return rc;
	}
	*out = pc;
	return 0;
}

void db_pairs_close(struct db_pairs_cur *pc)
{
	if (!pc)
		return;
	for (size_t i = 0; i < pc->side->nruns; i++)
		db_finalize(pc->c[i].st);
	free(pc->c);
	free(pc->scale);
	free(pc);
}
