/* One result into the import (see writer_int.h): its checks (statistics
 * in range, a sample's n/min/max), its unit scaled to SI, plain rows into
 * the batch (and the repeated key a flush finds), merged rows accumulated
 * and stored at the end. */
#include "db/writer_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/units.h"
#include "db/wbatch.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

/* The batch found a repeated key (b->dup): the message it had when the
 * key was checked at its own result, names read back by id. */
static int dup_error(struct db_writer *w)
{
	const struct wbatch_row *r = &w->batch.dup;
	struct db_stmt *st = NULL;
	int rc = writer_wl_flush(w);

	db_prepare(w->db, &rc, &st, "SELECT (SELECT key FROM workloads WHERE "
		   "id = ?1), (SELECT name FROM ops WHERE id = ?2), (SELECT "
		   "name FROM metrics WHERE id = ?3)");
	if (rc)
		return rc;
	db_bind_int64(st, 1, r->wid);
	db_bind_int64(st, 2, r->oid);
	db_bind_int64(st, 3, r->mid);
	if (db_step(st) != DB_ROW) {
		rc = db_fail(w->db, "naming a duplicate result");
	} else {
		rc = pc_error_set(PC_EINVALID, "duplicate result for workload "
			"'%s', op '%s', metric '%s'", db_column_text(st, 0),
			db_column_text(st, 1), db_column_text(st, 2));
		w->dup_found = 1;
		w->dup_line = r->line;
	}
	db_finalize(st);
	return rc;
}

/* Store the queued results; a repeated key among them is the error. */
int writer_batch_flush(struct db_writer *w)
{
	int rc = wbatch_flush(&w->batch);

	return rc == 1 ? dup_error(w) : rc;
}

static double to_si(double v, double f)
{
	return isnan(v) ? v : units_to_si(v, f);
}

static int nonneg_dim(const char *dim)
{
	static const char *const d[] = { "time", "cycles", "energy", "bytes",
		"flops", "power", "rate", "efficiency", "bandwidth",
		"flop_rate", "frequency", NULL };

	for (int i = 0; d[i]; i++)
		if (!strcmp(d[i], dim))
			return 1;
	return 0;
}

static int check_stat(const char *what, double v)
{
	if (isinf(v))
		return pc_error_set(PC_EINVALID, "%s is not finite", what);
	return 0;
}

/* n is a count of samples: a whole number a double holds exactly. */
#define N_MAX 9007199254740992.0	/* 2^53 */

/* One statistic v inside [min, max] (either may be unknown), with a
 * relative slack of 1e-9 for a mean or median computed in floating
 * point. */
static int in_range(const char *what, double v, double lo, double hi)
{
	double slack = 1e-9 * fmax(isnan(lo) ? 0 : fabs(lo),
				   isnan(hi) ? 0 : fabs(hi));

	if (isnan(v))
		return 0;
	if (!isnan(lo) && v < lo - slack)
		return pc_error_set(PC_EINVALID, "%s %.17g is below min %.17g",
				    what, v, lo);
	if (!isnan(hi) && v > hi + slack)
		return pc_error_set(PC_EINVALID, "%s %.17g is above max %.17g",
				    what, v, hi);
	return 0;
}

/* Values that are not values: a sample count that is negative, not
 * whole or too large to count, min > max, a value outside [min, max]. */
static int check_sample(const struct db_result_in *r)
{
	int rc;

	if (!isnan(r->n) && (r->n < 0 || r->n != floor(r->n) ||
			     r->n > N_MAX))
		return pc_error_set(PC_EINVALID, "n %.17g is not a count of "
				    "samples (a whole number from 0 to 2^53)",
				    r->n);
	if (!isnan(r->min) && !isnan(r->max) && r->min > r->max)
		return pc_error_set(PC_EINVALID, "min %.17g is above max "
				    "%.17g", r->min, r->max);
	if ((rc = in_range("value", r->value, r->min, r->max)) < 0 ||
	    (rc = in_range("mean", r->mean, r->min, r->max)) < 0 ||
	    (rc = in_range("median", r->median, r->min, r->max)) < 0)
		return rc;
	return 0;
}

/* units_lookup() scans the unit table; a result's unit is one of a few. */
static const struct unit *unit_cached(struct db_writer *w, const char *name)
{
	const struct unit *u;
	int64_t i;

	if (hmap_get(&w->unit_idx, name, &i))
		return units_at((int)i);
	u = units_resolve(name);
	for (i = 0; u && units_at((int)i); i++)
		if (units_at((int)i) == u) {
			hmap_put(&w->unit_idx, name, i);
			break;
		}
	return u;
}

static struct macc *acc_find(struct db_writer *w, int64_t wid, int64_t oid,
			     int64_t mid, const struct unit *u, const char *op,
			     const char *metric)
{
	char key[80];
	int64_t i;
	struct macc *a;

	snprintf(key, sizeof(key), "%lld:%lld:%lld", (long long)wid,
		 (long long)oid, (long long)mid);
	if (hmap_get(&w->acc_idx, key, &i))
		return &w->acc[i];
	if (w->nacc == w->capacc) {
		w->capacc = w->capacc ? w->capacc * 2 : 64;
		w->acc = xrealloc(w->acc, w->capacc * sizeof(*w->acc));
	}
	a = &w->acc[w->nacc];
	memset(a, 0, sizeof(*a));
	a->wid = wid;
	a->oid = oid;
	a->mid = mid;
	a->u0 = u;
	a->what = xasprintf("workload '%s', op '%s', metric '%s'",
			    w->cur_key ? w->cur_key : "", op, metric);
	a->min = INFINITY;
	a->max = -INFINITY;
	hmap_put(&w->acc_idx, key, (int64_t)w->nacc);
	return &w->acc[w->nacc++];
}

/* A merged result: added to its key's accumulator (writer.h). Values are
 * kept in the unit of the key's first row. */
static int put_merge(struct db_writer *w, const struct db_result_in *r,
		     const struct unit *u, int64_t wid, int64_t oid,
		     int64_t mid)
{
	struct macc *a = acc_find(w, wid, oid, mid, u, r->op, r->metric);
	double f = u->factor / a->u0->factor, v = r->value * f;
	int counted = !isnan(r->n);

	if (w->acc_done)
		return pc_error_set(PC_EINVALID, "%s: merged after the run "
				    "was stored", a->what);
	if (a->rows && counted != a->counted)
		return pc_error_set(PC_EINVALID, "%s: '%s' %s a launch count "
			"but the earlier rows merged into this op %s: rows "
			"with and without counts cannot be one op (map them "
			"to different ops)", a->what, r->raw_name ? r->raw_name :
			r->op, counted ? "has" : "has no",
			a->counted ? "have one" : "do not");
	if (counted && !(r->n > 0))
		return pc_error_set(PC_EINVALID, "%s: launch count %g is not "
				    "positive", a->what, r->n);
	a->counted = counted;
	a->flags |= r->flags;
	if (!counted) {
		a->s_value += v;
		a->s_mean += r->mean * f;
		a->s_min += r->min * f;
		a->s_max += r->max * f;
		a->s_var += r->stddev * f * r->stddev * f;
		a->s_median = a->rows ? NAN : r->median * f;
	} else if (r->stage) {
		double t = isnan(r->total) ? v * r->n : r->total * f;

		a->st_total += t;
		a->st_var += r->stddev * f * r->stddev * f;
		a->stages++;
	} else {
		double t = isnan(r->total) ? v * r->n : r->total * f;
		double sd = r->stddev * f, m2 = (r->n - 1) * sd * sd;
		double n0 = a->n, d = v - a->mean;

		/* Chan et al.: the pooled sum of squared deviations of the
		 * union is m2a + m2b + d^2 * na * nb / (na + nb) */
		if (n0 > 0)
			m2 += a->m2 + d * d * n0 * r->n / (n0 + r->n);
		a->m2 = m2;
		a->n = n0 + r->n;
		a->mean += d * r->n / a->n;
		a->total += t;
		a->min = fmin(a->min, r->min * f);
		a->max = fmax(a->max, r->max * f);
		if (isnan(r->min) || (a->rows && isnan(a->min)))
			a->min = NAN;
		if (isnan(r->max) || (a->rows && isnan(a->max)))
			a->max = NAN;
		a->median = a->rows - a->stages ? NAN : r->median * f;
		a->sd1 = sd;
	}
	a->rows++;
	return 0;
}

static int acc_insert(struct db_writer *w, const struct macc *a, int64_t mid,
		      double value, double n, double mean, double median,
		      double min, double max, double sd)
{
	struct db_stmt *st = w->merge;
	double f = a->u0->factor;
	int rc, uniq;

	db_bind_int64(st, 1, w->run_id);
	db_bind_int64(st, 2, a->wid);
	db_bind_int64(st, 3, a->oid);
	db_bind_int64(st, 4, mid);
	db_bind_double(st, 5, to_si(value, f));
	if (isnan(n))
		db_bind_null(st, 6);
	else
		db_bind_int64(st, 6, (int64_t)llround(n));
	db_bind_double(st, 7, to_si(mean, f));
	db_bind_double(st, 8, to_si(median, f));
	db_bind_double(st, 9, to_si(min, f));
	db_bind_double(st, 10, to_si(max, f));
	db_bind_double(st, 11, to_si(sd, f));
	db_bind_double(st, 12, value);
	db_bind_text_static(st, 13, a->u0->name);
	db_bind_int(st, 14, (int)a->flags);
	db_bind_int64(st, 15, ++w->batch.seq);
	rc = db_step(st);
	uniq = rc != DB_DONE && db_unique_violation(w->db);
	db_reset(st);
	if (uniq)
		return pc_error_set(PC_EINVALID, "%s: a result read as it is "
			"and results merged into it (kernels mapped to the "
			"op): rename the op or the mapping rule", a->what);
	if (rc != DB_DONE)
		return db_fail(w->db, "storing result");
	w->results++;
	return 0;
}

/* Store every merged result (writer.h): once, after the importer. */
int writer_acc_store(struct db_writer *w)
{
	int64_t ktime = 0, time_id = -1, idx;
	int rc = 0;

	if (w->acc_done)
		return 0;
	if (hmap_get(&w->metric_idx, "time", &idx))
		time_id = w->metrics[idx].id;
	w->acc_done = 1;
	if ((rc = writer_batch_flush(w)) < 0)
		return rc;
	/* what comes now (derived results) is stored as it comes, so that
	 * its caller names a duplicate */
	w->batch.eager = 1;
	for (size_t i = 0; i < w->nacc && !rc; i++) {
		const struct macc *a = &w->acc[i];
		double value, sd, mean;

		if (!a->counted) {
			if (a->rows == 1)
				rc = acc_insert(w, a, a->mid, a->s_value, NAN,
					a->s_mean, a->s_median, a->s_min,
					a->s_max, sqrt(a->s_var));
			else
				rc = acc_insert(w, a, a->mid, a->s_value, NAN,
					a->s_mean, NAN, a->s_min, a->s_max,
					sqrt(a->s_var));
			continue;
		}
		if (a->n <= 0) {
			rc = pc_error_set(PC_EINVALID, "%s: only stage kernels "
				"(mapping rules with \"stage\": true) and no "
				"kernel that counts the calls of the op", a->what);
			break;
		}
		/* one row, no stage: the tool's own value and statistics */
		if (a->rows == 1) {
			value = mean = a->mean;
			sd = a->sd1;
		} else {
			value = mean = (a->total + a->st_total) / a->n;
			sd = a->n > 1 ? sqrt(a->m2 / (a->n - 1)) : 0;
		}
		if (a->stages)
			sd = sqrt(sd * sd + a->st_var);
		rc = acc_insert(w, a, a->mid, value, a->n, mean,
				a->stages ? NAN : a->median,
				a->stages ? NAN : a->min,
				a->stages ? NAN : a->max, sd);
		if (rc || a->mid != time_id)
			continue;
		if (!ktime &&
		    (rc = writer_metric_id(w, "kernel_time", a->u0, &ktime)) < 0)
			break;
		rc = acc_insert(w, a, ktime, a->total + a->st_total, NAN, NAN,
				NAN, NAN, NAN, NAN);
	}
	return rc;
}

/* An export read back: its raw value and unit must be the value. */
static int check_raw(struct db_writer *w, const struct db_result_in *r,
		     const struct unit *u)
{
	const struct unit *ru = unit_cached(w, r->raw_unit);
	double si = to_si(r->value, u->factor), rsi;

	/* a count labelled with the tool's own word ("warp") */
	if (!ru && !strcmp(u->dim, "count") && r->raw_value == r->value)
		ru = units_word(r->raw_unit);
	if (!ru)
		return pc_error_set(PC_EINVALID, "unknown raw unit '%s'",
				    r->raw_unit);
	if (strcmp(ru->dim, u->dim) &&
	    !(!strcmp(ru->dim, "ratio") && !strcmp(u->dim, "count")) &&
	    !(!strcmp(ru->dim, "count") && !strcmp(u->dim, "ratio")))
		return pc_error_set(PC_EINVALID, "raw unit '%s' is %s, unit "
			"'%s' is %s", ru->name, ru->dim, u->name, u->dim);
	if (!isfinite(r->raw_value))
		return pc_error_set(PC_EINVALID, "raw value is not finite");
	rsi = to_si(r->raw_value, ru->factor);
	if (fabs(rsi - si) > 1e-9 * fmax(fabs(si), fabs(rsi)))
		return pc_error_set(PC_EINVALID, "raw value %.17g %s is not "
			"value %.17g %s", r->raw_value, ru->name, r->value,
			u->name);
	return 0;
}

int db_writer_put(struct db_writer *w, const struct db_result_in *r)
{
	const struct unit *u = unit_cached(w, r->unit ? r->unit : ""), *mu;
	int64_t wid = 0, oid = 0, mid = 0;
	double f;
	int rc;

	w->puts++;
	if (!u)
		return pc_error_set(PC_EINVALID, "unknown unit '%s'", r->unit);
	if (!isfinite(r->value))
		return pc_error_set(PC_EINVALID, "value is not finite");
	if (r->value < 0 && nonneg_dim(u->dim))
		return pc_error_set(PC_EINVALID, "negative %s %g", u->dim,
				    r->value);
	if ((rc = check_stat("n", r->n)) || (rc = check_stat("mean", r->mean)) ||
	    (rc = check_stat("median", r->median)) ||
	    (rc = check_stat("min", r->min)) || (rc = check_stat("max", r->max)) ||
	    (rc = check_stat("stddev", r->stddev)))
		return rc;
	if (r->stddev < 0)
		return pc_error_set(PC_EINVALID, "negative stddev %g", r->stddev);
	if ((rc = check_sample(r)) < 0)
		return rc;
	if (r->raw_unit && (rc = check_raw(w, r, u)) < 0)
		return rc;
	/* a new metric takes its dimension from the unit; a fraction read
	 * back in SI ("1") keeps the ratio of its raw "%" */
	mu = r->raw_unit ? unit_cached(w, r->raw_unit) : u;
	if (strcmp(mu->dim, "ratio") || strcmp(u->dim, "count"))
		mu = u;
	if (r->workload_id > 0) {
		/* resolved by the caller from an earlier result */
		wid = r->workload_id;
		w->cur_key = r->workload_key;
	} else if ((rc = writer_workload_id(w, r->workload, &wid)) < 0) {
		return rc;
	} else {
		w->cur_key = w->last_wkey;
	}
	if ((rc = writer_op_id(w, r->op, &oid)) < 0 ||
	    (rc = writer_metric_id(w, r->metric, mu, &mid)) < 0)
		return rc;
	f = u->factor;
	if (r->raw_unit && r->merge)
		return pc_error_set(PC_EINVALID, "a raw value is given for a "
				    "result merged into an op");
	if (!r->merge) {
		const struct unit *ru = r->raw_unit ?
					unit_cached(w, r->raw_unit) : u;
		struct wbatch_row row = { wid, oid, mid, to_si(r->value, f),
			r->n, to_si(r->mean, f), to_si(r->median, f),
			to_si(r->min, f), to_si(r->max, f), to_si(r->stddev, f),
			r->raw_unit ? r->raw_value : r->value, ru->name,
			r->flags, r->line };

		/* a repeated key is found when the batch is stored: then it
		 * is this result's or one queued before it (dup_line) */
		if ((rc = wbatch_add(&w->batch, &row)) == 1)
			return dup_error(w);
		if (rc < 0)
			return rc;
		if (++w->results == w->bulk_at[0] &&
		    (rc = writer_bulk_drop(w, 0)) < 0)
			return rc;
	} else if ((rc = put_merge(w, r, u, wid, oid, mid)) < 0) {
		return rc;
	}
	if (r->raw_name && *r->raw_name) {
		db_bind_int64(w->raw, 1, w->run_id);
		db_bind_int64(w->raw, 2, oid);
		db_bind_text(w->raw, 3, r->raw_name);
		if ((rc = writer_step_done(w->db, w->raw, "storing raw name")) < 0)
			return rc;
	}
	return 0;
}
