/* Derived tokens/J and tokens/s/W (see derive.h). */
#include "db/derive.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/wkey.h"
#include "db/writer.h"
#include "base/error.h"
#include "base/util.h"

/* The newest value of (workload, op e2e, metric) in the source, not
 * derived; NaN when none. *from_run says whether it is the current run. */
static double latest_in(struct db *db, int64_t src, int64_t run, int64_t wid,
			const char *metric, int *from_run, int64_t *run_out,
			int *rc)
{
	struct db_stmt *st = NULL;
	double v = NAN;

	db_prepare(db, rc, &st, "SELECT r.value, r.run_id FROM results r "
		   "JOIN runs ru ON ru.id = r.run_id JOIN ops o ON o.id = "
		   "r.op_id JOIN metrics m ON m.id = r.metric_id WHERE "
		   "ru.source_id = ? AND r.workload_id = ? AND o.name = 'e2e' "
		   "AND m.name = ? AND (r.flags & 4) = 0 ORDER BY r.run_id = ? "
		   "DESC, r.run_id DESC LIMIT 1");
	if (*rc)
		return NAN;
	db_bind_int64(st, 1, src);
	db_bind_int64(st, 2, wid);
	db_bind_text(st, 3, metric);
	db_bind_int64(st, 4, run);
	if (db_step(st) == DB_ROW) {
		v = db_column_real(st, 0);
		if (from_run)
			*from_run |= db_column_int64(st, 1) == run;
		if (run_out)
			*run_out = db_column_int64(st, 1);
	}
	db_finalize(st);
	return v;
}

static double latest(struct db *db, int64_t src, int64_t run, int64_t wid,
		     const char *metric, int *from_run, int *rc)
{
	return latest_in(db, src, run, wid, metric, from_run, NULL, rc);
}

/* The metadata member a power importer writes when it dropped an energy
 * over a window shorter than its sensor allows (importers/powerlog.c):
 * that log's power is no measurement of a benchmark's energy either. */
#define DROPPED "\"energy_window\":\"dropped"

/* 1 when run r (the run being written, or a stored one) dropped its
 * energy for a short window. */
static int energy_dropped(struct db_writer *w, int64_t r, int *rc)
{
	struct db *db = db_writer_db(w);
	struct db_stmt *st = NULL;
	int dropped = 0;

	if (r == db_writer_run_id(w))
		return strstr(db_writer_meta_text(w), DROPPED) != NULL;
	db_prepare(db, rc, &st, "SELECT metadata FROM runs WHERE id = ?");
	if (*rc)
		return 0;
	db_bind_int64(st, 1, r);
	if (db_step(st) == DB_ROW) {
		const char *m = db_column_text(st, 0);

		dropped = m && strstr(m, DROPPED);
	}
	db_finalize(st);
	return dropped;
}

/* The workload with a power log for benchmark workload b: b itself, else
 * the most specific one of the same name whose parameters are all b's. */
static int64_t power_workload(struct db *db, int64_t src, int64_t b, int *rc)
{
	struct db_stmt *st = NULL;
	int64_t id = 0;

	db_prepare(db, rc, &st, "SELECT w.id FROM workloads w WHERE w.name = "
		"(SELECT name FROM workloads WHERE id = ?1) AND EXISTS (SELECT 1 "
		"FROM results r JOIN runs ru ON ru.id = r.run_id JOIN metrics m "
		"ON m.id = r.metric_id WHERE r.workload_id = w.id AND "
		"ru.source_id = ?2 AND m.name IN ('energy', 'power')) AND NOT "
		"EXISTS (SELECT 1 FROM workload_params p WHERE p.workload_id = "
		"w.id AND NOT EXISTS (SELECT 1 FROM workload_params q WHERE "
		"q.workload_id = ?1 AND q.name = p.name AND q.value = p.value)) "
		"ORDER BY w.id = ?1 DESC, (SELECT count(*) FROM workload_params "
		"p WHERE p.workload_id = w.id) DESC LIMIT 1");
	if (*rc)
		return 0;
	db_bind_int64(st, 1, b);
	db_bind_int64(st, 2, src);
	if (db_step(st) == DB_ROW)
		id = db_column_int64(st, 0);
	db_finalize(st);
	return id;
}

static int put(struct db_writer *w, const char *key, const char *metric,
	       double v, const char *unit)
{
	struct db_result_in in;
	struct wkey k;
	int rc;

	wkey_init(&k);
	if ((rc = wkey_parse(&k, key)) < 0) {
		wkey_release(&k);
		return rc;
	}
	memset(&in, 0, sizeof(in));
	in.workload = &k;
	in.op = "e2e";
	in.metric = metric;
	in.value = v;
	in.unit = unit;
	in.n = in.mean = in.median = in.min = in.max = in.stddev = NAN;
	in.flags = DB_RES_DERIVED;
	rc = db_writer_put(w, &in);
	wkey_release(&k);
	if (rc < 0)
		pc_error_prefix("deriving %s for '%s'", metric, key);
	return rc;
}

/* Derive for benchmark workload b (key text). */
static int derive_one(struct db_writer *w, int64_t b, const char *key,
		      long *added)
{
	struct db *db = db_writer_db(w);
	int64_t src = db_writer_source_id(w), run = db_writer_run_id(w), pw;
	int64_t prun = 0;
	int rc = 0, cur = 0, have;
	double tok, thr, dur, e, p, tpj = NAN;

	have = !isnan(latest(db, src, run, b, "tokens_per_joule", NULL, &rc));
	tok = latest(db, src, run, b, "output_tokens", &cur, &rc);
	thr = latest(db, src, run, b, "output_throughput", &cur, &rc);
	dur = latest(db, src, run, b, "duration", &cur, &rc);
	pw = power_workload(db, src, b, &rc);
	if (rc || !pw || have)
		return rc;
	e = latest(db, src, run, pw, "energy", &cur, &rc);
	p = latest_in(db, src, run, pw, "power", &cur, &prun, &rc);
	if (rc || !cur)
		return rc;	/* nothing of this run is involved */
	if (!isnan(tok) && e > 0)
		tpj = tok / e;
	else if (!isnan(tok) && p > 0 && dur > 0 &&
		 !energy_dropped(w, prun, &rc))
		tpj = tok / (p * dur);
	if (rc)
		return rc;
	if (!isnan(tpj)) {
		if ((rc = put(w, key, "tokens_per_joule", tpj, "tokens/J")) < 0)
			return rc;
		(*added)++;
	}
	if (!isnan(thr) && p > 0) {
		if ((rc = put(w, key, "tokens_per_s_per_watt", thr / p,
			      "tokens/s/W")) < 0)
			return rc;
		(*added)++;
	}
	return 0;
}

/* Whether the run holds a token result (1) and whether a power or
 * energy one (2): only then can it complete a derivation. The writer
 * knows which metrics it was given, so a kernel or latency import never
 * pays for a query. */
static int run_can_derive(const struct db_writer *w)
{
	return (db_writer_put_metric(w, "output_tokens") ||
		db_writer_put_metric(w, "output_throughput")) |
	       (db_writer_put_metric(w, "energy") ||
		db_writer_put_metric(w, "power")) << 1;
}

int db_derive_efficiency(struct db_writer *w, long *out)
{
	struct db *db = db_writer_db(w);
	struct db_stmt *st = NULL;
	int rc = 0, step;
	int64_t *ids = NULL;
	char **keys = NULL;
	size_t n = 0, cap = 0;
	int can;

	*out = 0;
	if (!(can = run_can_derive(w)))
		return 0;
	/* benchmark workloads of this source related to this run: its own
	 * token results, or those a power log of this run matches. A run
	 * without token results (?3 = 0) is not walked for them: a power
	 * log of 1M results took 9% of its import there. */
	db_prepare(db, &rc, &st, "SELECT DISTINCT b.id, b.key FROM workloads b "
		"JOIN results r ON r.workload_id = b.id JOIN runs ru ON ru.id = "
		"r.run_id WHERE "
		"ru.source_id = ?2 AND (?3 = 1 OR ru.id <> ?1) AND r.metric_id "
		"IN (SELECT id FROM metrics WHERE name IN ('output_tokens', "
		"'output_throughput')) AND (r.run_id = ?1 OR EXISTS (SELECT 1 "
		"FROM results x JOIN metrics mx ON mx.id = x.metric_id JOIN "
		"workloads pw ON pw.id = x.workload_id WHERE x.run_id = ?1 AND "
		"mx.name IN ('energy', 'power') AND pw.name = b.name))");
	if (rc)
		return rc;
	db_bind_int64(st, 1, db_writer_run_id(w));
	db_bind_int64(st, 2, db_writer_source_id(w));
	db_bind_int(st, 3, can & 1);
	while ((step = db_step(st)) == DB_ROW) {
		if (n == cap) {	/* two arrays, one capacity */
			ids = xgrow(ids, &cap, n, sizeof(*ids));
			keys = xrealloc(keys, cap * sizeof(*keys));
		}
		ids[n] = db_column_int64(st, 0);
		keys[n++] = db_column_dup(st, 1);
	}
	if (step != DB_DONE)
		rc = db_fail(db, "finding benchmark workloads");
	db_finalize(st);
	for (size_t i = 0; i < n && !rc; i++)
		rc = derive_one(w, ids[i], keys[i], out);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(ids);
	return rc;
}
