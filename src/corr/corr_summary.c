/*
 * Summaries of a correlation set (see correlate.h, docs/statistics.md):
 * one summary over all or some of a set's points, rows of points
 * bucketed by a key (the report's tables), one summary per metric.
 * Split from correlate.c (loading and sorting a set, its dictionaries
 * and group keys), which it shares correlate_int.h with.
 */
#include "src/corr/correlate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "src/corr/correlate_int.h"
#include "src/stats/stats_ci.h"

/* The metric of p (NULL when the dictionary lacks it). */
static const struct db_name *metric_of(const struct corr_set *s,
				       const struct corr_point *p)
{
	return corr_dict_find(s->store, DB_DICT_METRICS, p->metric_id, NULL);
}

/* Efficiency of a roofline model over one metric: the fraction of speed
 * of light the reference reaches, geomean(roofline / measured) for a
 * time, geomean(measured / roofline) for a rate. */
static void efficiency(struct stats_summary *out, const struct corr_set *s,
		       const struct db_name *mt)
{
	out->efficiency = NAN;
	if (!s->model.kind || strcmp(s->model.kind, "roofline"))
		return;		/* the reason stats_compute set */
	if (!mt) {
		out->why[SF_EFFICIENCY] = STATS_WHY_METRICS;
		return;
	}
	if (!corr_sol_metric(mt->extra)) {
		out->why[SF_EFFICIENCY] = STATS_WHY_NOTSOL;
		return;
	}
	out->why[SF_EFFICIENCY] = out->why[SF_GEOMEAN];
	if (!out->why[SF_GEOMEAN])
		out->efficiency = mt->higher ? 1.0 / out->geomean_ratio :
				  out->geomean_ratio;
}

/*
 * The one function that summarises a set of points: the points
 * idx[0..n) of s (idx NULL: the first n) that keep selects. Invalid
 * points are out; noisy ones out and counted; a zero reference out and
 * counted (its relative error does not exist); waived ones out when
 * skip_waived. Optimistic / pessimistic count the pairs whose model
 * predicts better / worse than the reference, by each metric's better
 * direction. Over several metrics only the dimensionless statistics are
 * kept (stats_null_mixed). docs/statistics.md.
 */
static int summary_of(struct stats_summary *out, const struct corr_set *s,
		      const size_t *idx, const struct corr_slim *rows,
		      size_t n,
		      int (*keep)(const struct corr_point *p, void *arg),
		      void *arg, int64_t metric_id, int skip_waived)
{
	double *m, *r, *sd;
	int64_t *wk, *ok;
	long noisy = 0, sol = 0, zero = 0, opt = 0, pes = 0;
	/* |error| of the noisy references the exclusion left out */
	double noisy_abs = 0;
	long noisy_n = 0, noisy_neg = 0;
	const struct db_name *mt = NULL;
	const struct db_name *mdict = s->store->dict[DB_DICT_METRICS];
	const struct db_name *wdict = s->store->dict[DB_DICT_WORKLOADS];
	int mixed = 0, mixdir = 0;
	size_t k = 0;
	int rc;

	if (keep && s->slim)
		return pc_error_set(PC_EINVALID, "a selection of slim points");
	m = xmalloc((n + 1) * sizeof(*m));
	r = xmalloc((n + 1) * sizeof(*r));
	sd = xmalloc((n + 1) * sizeof(*sd));
	wk = s->ci ? xmalloc((n + 1) * sizeof(*wk)) : NULL;
	ok = s->ci ? xmalloc((n + 1) * sizeof(*ok)) : NULL;
	for (size_t j = 0; j < n; j++) {
		size_t at = idx ? idx[j] : j;
		const struct corr_point *p = s->points && !rows ?
					     &s->points[at] : NULL;
		const struct corr_slim *q = rows ? &rows[j] :
					    s->slim ? &s->slim[at] :
					    s->view && !keep ? &s->view[at] :
					    NULL;
		const struct db_name *pm;
		unsigned flags = q ? q->flags : p->flags;
		double pmod, pref;

		if (q) {
			pm = &mdict[q->m];
			if (metric_id >= 0 && pm->id != metric_id)
				continue;
		} else {
			if (metric_id >= 0 && p->metric_id != metric_id)
				continue;
			if (keep && !keep(p, arg))
				continue;
			pm = NULL;
		}
		if (flags & CORR_INVALID)
			continue;
		pmod = q ? q->model : p->model;
		pref = q ? q->ref : p->ref;
		sol += (flags & CORR_SOL_VIOLATION) != 0;
		if (flags & CORR_NOISY_REF) {
			noisy++;
			if (pref != 0 && !(skip_waived &&
					   (flags & CORR_WAIVED))) {
				noisy_abs += fabs(stats_err(pmod, pref));
				noisy_n++;
				noisy_neg += pref < 0;
			}
			continue;
		}
		if (skip_waived && (flags & CORR_WAIVED))
			continue;
		if (pref == 0) {
			zero++;
			continue;
		}
		if (!q)
			pm = metric_of(s, p);
		if (k == 0)
			mt = pm;
		else if (pm != mt)
			mixed = 1;
		if (pm && mt && (pm->higher != 0) != (mt->higher != 0))
			mixdir = 1;
		/* within the tie tolerance: neither (issue 34) */
		if (fabs(pmod - pref) > STATS_TIE_REL * fabs(pref) && pm) {
			if ((pmod > pref) == (pm->higher != 0))
				opt++;
			else
				pes++;
		}
		m[k] = pmod;
		r[k] = pref;
		if (wk) {
			wk[k] = q ? wdict[q->w].id : p->workload_id;
			/* the op: only told apart (two-way intervals) */
			ok[k] = q ? (int64_t)q->o : p->op_id;
		}
		sd[k++] = q ? q->ref_se : corr_ref_se(p->ref_sd, p->ref_n);
	}
	/* several metrics: only what stats_null_mixed below keeps (it
	 * nulls the Fisher intervals too, so no correlation is needed) */
	rc = mixed ? stats_compute_mixed(out, m, r, sd, k, 0) :
	     s->lean == CORR_LEAN_CORR ? stats_compute_lean(out, m, r, sd, k) :
	     s->lean ? stats_compute_mixed(out, m, r, sd, k, 0) :
		     stats_compute(out, m, r, sd, k);
	/* the bootstrap reads sd only for a weighted fit's weights: else
	 * its array is gone before the bootstrap's own (issue 21: the
	 * peak of a default compare) */
	if (rc || !out->fit.weighted) {
		free(sd);
		sd = NULL;
	}
	if (!rc && wk)
		stats_ci_compute_se(out, m, r, sd, wk, ok, k, s->ci,
				    s->ci_draws);
	if (!rc) {
		out->excluded_noisy = noisy;
		out->sol_violations = sol;
		out->excluded_zero_ref = zero;
		out->optimistic = opt;
		out->pessimistic = pes;
		if (noisy_n && noisy_neg) {
			out->mape_with_noisy = NAN;
			out->why[SF_MAPE_NOISY] = STATS_WHY_NONPOS;
		} else if (noisy_n && isfinite(out->mape)) {
			out->mape_with_noisy = (out->mape * (double)k +
						noisy_abs) /
					       (double)(k + (size_t)noisy_n);
		} else if (noisy_n && k == 0) {
			out->mape_with_noisy = noisy_abs / (double)noisy_n;
			out->why[SF_MAPE_NOISY] = NULL;
		}
		if (k > 0)
			efficiency(out, s, mixed ? NULL : mt);
		if (mixed)
			stats_null_mixed(out);
		if (mixdir)
			stats_null_direction(out);
	}
	free(m);
	free(r);
	free(sd);
	free(wk);
	free(ok);
	return rc;
}

int corr_summary(struct stats_summary *out, const struct corr_set *s,
		 int (*keep)(const struct corr_point *p, void *arg), void *arg,
		 int skip_waived)
{
	return summary_of(out, s, NULL, NULL, s->n, keep, arg, -1,
			  skip_waived);
}

int corr_summary_idx(struct stats_summary *out, const struct corr_set *s,
		     const size_t *idx, size_t n, int skip_waived)
{
	return summary_of(out, s, idx, NULL, n, NULL, NULL, -1, skip_waived);
}

void corr_rows_build(struct corr_rows *out, const struct corr_set *s,
		     const uint32_t *key, size_t nrows)
{
	const struct corr_slim *from = s->slim ? s->slim : s->view;
	size_t *st = xcalloc(nrows + 2, sizeof(*st)), *at;

	memset(out, 0, sizeof(*out));
	out->nrows = nrows;
	out->start = st;
	for (size_t i = 0; i < s->n; i++)
		if (key[i] < nrows)
			st[key[i] + 1]++;
	for (size_t k = 0; k < nrows; k++)
		st[k + 1] += st[k];
	at = xmalloc((nrows + 1) * sizeof(*at));
	memcpy(at, st, (nrows + 1) * sizeof(*at));
	/* one pass in set order: each row's points in set order */
	if (from) {
		out->v = xmalloc((st[nrows] + 1) * sizeof(*out->v));
		for (size_t i = 0; i < s->n; i++)
			if (key[i] < nrows)
				out->v[at[key[i]]++] = from[i];
	} else {
		out->idx = xmalloc((st[nrows] + 1) * sizeof(*out->idx));
		for (size_t i = 0; i < s->n; i++)
			if (key[i] < nrows)
				out->idx[at[key[i]]++] = i;
	}
	free(at);
}

int corr_rows_summary(struct stats_summary *out, const struct corr_set *s,
		      const struct corr_rows *rows, size_t k, int skip_waived)
{
	size_t off = rows->start[k], n = rows->start[k + 1] - off;

	return rows->v ? summary_of(out, s, NULL, rows->v + off, n, NULL,
				    NULL, -1, skip_waived) :
	       summary_of(out, s, rows->idx + off, NULL, n, NULL, NULL, -1,
			  skip_waived);
}

void corr_rows_release(struct corr_rows *rows)
{
	free(rows->v);
	free(rows->idx);
	free(rows->start);
	memset(rows, 0, sizeof(*rows));
}

/* One summary per metric of the set's points, in name order. */
static int by_metric(struct corr_metric_sum **out, size_t *nout,
		     const struct corr_set *s, int skip_waived)
{
	const struct corr_store *st = s->store;
	size_t nm = st->ndict[DB_DICT_METRICS], len = 0;
	char *used = xcalloc(nm + 1, 1);
	struct corr_metric_sum *v = NULL;
	int rc = 0;

	for (size_t i = 0; i < s->n; i++) {
		size_t k;

		if (s->slim)
			used[s->slim[i].m] = 1;
		else if (corr_dict_find(st, DB_DICT_METRICS,
					s->points[i].metric_id, &k))
			used[k] = 1;
	}
	/* the dictionary is in id order; the blocks go by name */
	for (size_t k = 0; k < nm; k++)
		len += used[k];
	v = xcalloc(len + 1, sizeof(*v));
	len = 0;
	for (size_t k = 0; k < nm && !rc; k++) {
		size_t at = len;

		if (!used[k])
			continue;
		while (at > 0 && strcmp(v[at - 1].metric,
					st->dict[DB_DICT_METRICS][k].name) > 0) {
			v[at] = v[at - 1];
			at--;
		}
		v[at].metric = st->dict[DB_DICT_METRICS][k].name;
		len++;
		rc = summary_of(&v[at].sum, s, NULL, NULL, s->n, NULL, NULL,
				st->dict[DB_DICT_METRICS][k].id, skip_waived);
	}
	free(used);
	if (rc < 0) {
		free(v);
		return rc;
	}
	*out = v;
	*nout = len;
	return 0;
}

int corr_by_metric_all(struct corr_metric_sum **out, size_t *nout,
		       const struct corr_set *s,
		       const struct stats_summary *all, int skip_waived)
{
	const struct corr_store *st = s->store;
	const struct db_name *one = NULL;

	/* the metric of every point, when they share one (a --metric
	 * selection): its block is summary_of over the same points in the
	 * same order as the summary over all of them, so that summary is
	 * copied instead of computed twice (issue 21: a one-metric
	 * selection paid two full summaries, bootstrap included) */
	for (size_t i = 0; i < s->n; i++) {
		const struct db_name *pm;

		if (s->slim)
			pm = &st->dict[DB_DICT_METRICS][s->slim[i].m];
		else
			pm = corr_dict_find(st, DB_DICT_METRICS,
					    s->points[i].metric_id, NULL);
		if (!pm || (one && pm != one))
			return by_metric(out, nout, s, skip_waived);
		one = pm;
	}
	if (!one)
		return by_metric(out, nout, s, skip_waived);
	*out = xcalloc(2, sizeof(**out));
	(*out)[0].metric = one->name;
	(*out)[0].sum = *all;
	*nout = 1;
	return 0;
}
