/* Workload bootstrap intervals of the headline statistics (stats_ci.h). */
#include "src/stats_ci.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "src/radix.h"
#include "src/stats_agree.h"
#include "src/base/util.h"

/* Per-workload sums: pairs, sum |e|, sum e, sum ln(m / r). */
struct wsum {
	double cnt, sabs, serr, slog;
};

/* Dense workload numbers 0..nc-1 of wkey[0..n) into cl, in key order;
 * returns nc. Keys are dictionary ids: when their range is at most a few
 * times n, a table indexed by key numbers them in O(n + range), else a
 * sort does (the same numbers either way). */
static size_t densify(const int64_t *wkey, size_t n, uint32_t *cl)
{
	struct radix_kv *a, *tmp;
	int64_t lo, hi;
	size_t nc = 0;

	if (n == 0)
		return 0;
	lo = hi = wkey[0];
	for (size_t i = 1; i < n; i++) {
		lo = wkey[i] < lo ? wkey[i] : lo;
		hi = wkey[i] > hi ? wkey[i] : hi;
	}
	if ((uint64_t)(hi - lo) < 4 * (uint64_t)n + 4096) {
		size_t range = (size_t)(hi - lo) + 1;
		uint32_t *num = xcalloc(range, sizeof(*num));

		for (size_t i = 0; i < n; i++)
			num[wkey[i] - lo] = 1;
		for (size_t k = 0; k < range; k++)
			if (num[k])
				num[k] = (uint32_t)++nc;
		for (size_t i = 0; i < n; i++)
			cl[i] = num[wkey[i] - lo] - 1;
		free(num);
		return nc;
	}
	a = xmalloc(n * sizeof(*a));
	tmp = xmalloc(n * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		a[i] = (struct radix_kv){ (uint64_t)wkey[i] ^ (1ULL << 63), i };
	radix_sort_kv(a, tmp, n);
	for (size_t i = 0; i < n; i++) {
		if (i && a[i].k != a[i - 1].k)
			nc++;
		cl[a[i].v] = (uint32_t)nc;
	}
	free(a);
	free(tmp);
	return nc + 1;
}

/* The sorted values val[] of workloads cl[] (n of them) with the counts
 * that let a resample's median start from the middle: cnt[c] = values of
 * workload c among the first mid (= n / 2). */
struct wsorted {
	const double *val;
	const uint32_t *cl;
	size_t n, mid;
	uint32_t *cnt;
};

/* The median of the resample: the sorted values, each of workload c
 * counted w[c] times, W in all (numpy's median: the mean of the two
 * middle ranks). The walk starts at mid, whose weighted rank is
 * sum_c w[c] cnt[c] (O(workloads)), and moves to rank (W - 1) / 2: a
 * resample's median lies near the sample's, so the walk is short; the
 * element found is the same as a walk from 0 (the unique i with
 * rank(i) <= r1 < rank(i + 1)). */
static double wmedian(const struct wsorted *ws, const uint32_t *w,
		      size_t nc, uint64_t W)
{
	const double *val = ws->val;
	const uint32_t *cl = ws->cl;
	uint64_t r1 = (W - 1) / 2, r2 = W / 2, acc = 0;
	size_t i = ws->mid;
	double v1;

	for (size_t c = 0; c < nc; c++)
		acc += (uint64_t)w[c] * ws->cnt[c];
	while (acc > r1)
		acc -= w[cl[--i]];
	while (acc + w[cl[i]] <= r1)
		acc += w[cl[i++]];
	v1 = val[i];
	while (acc + w[cl[i]] <= r2)
		acc += w[cl[i++]];
	return (v1 + val[i]) / 2;
}

static void interval(struct stats_ci *ci, double *v, size_t nb, double a)
{
	stats_paired_sort(v, nb);
	ci->lo = stats_paired_quantile(v, nb, a);
	ci->hi = stats_paired_quantile(v, nb, 1 - a);
}

/* Fisher-z interval of a correlation r over n pairs: tanh(atanh r -+
 * z_q * sqrt(c / (n - 3))); NaN when r is or n <= 3, [r, r] when |r| = 1. */
static void fisher(struct stats_ci *ci, double r, size_t n, double c,
		   double zq)
{
	double z, h;

	if (!isfinite(r) || n <= 3)
		return;
	if (fabs(r) >= 1) {
		ci->lo = ci->hi = r;
		return;
	}
	z = atanh(r);
	h = zq * sqrt(c / (double)(n - 3));
	ci->lo = tanh(z - h);
	ci->hi = tanh(z + h);
}

void stats_ci_compute(struct stats_summary *s, const double *model,
		      const double *ref, const int64_t *wkey, size_t n,
		      const struct stats_paired_opts *opts)
{
	unsigned nb = opts && opts->resamples ? opts->resamples :
		      STATS_CI_RESAMPLES;
	uint64_t st = opts && opts->seed ? opts->seed : STATS_PAIRED_SEED;
	double level = opts && opts->level > 0 && opts->level < 1 ?
		       opts->level : STATS_PAIRED_LEVEL;
	int do_err = isfinite(s->bias), do_mape = isfinite(s->mape);
	int do_med = do_err && isfinite(s->median_abs_err);
	int do_geo = isfinite(s->geomean_ratio);
	uint32_t *cl, *scl = NULL, *w;
	double *sval = NULL, *res;
	struct wsorted wso = { NULL, NULL, 0, 0, NULL };
	struct wsum *ws;
	size_t nc;

	s->workloads = 0;
	if (n == 0)
		return;
	{
		double zq = gsl_cdf_ugaussian_Pinv((1 + level) / 2);

		fisher(&s->pearson_ci, s->pearson, n, 1, zq);
		fisher(&s->pearson_log_ci, s->pearson_log, n, 1, zq);
		fisher(&s->spearman_ci, s->spearman, n, 1.06, zq);
	}
	stats_agree_ci(s, model, ref, n, level);
	cl = xmalloc(n * sizeof(*cl));
	nc = densify(wkey, n, cl);
	s->workloads = (long)nc;
	if (nc < 2 || (!do_err && !do_geo)) {
		free(cl);
		return;
	}
	ws = xcalloc(nc, sizeof(*ws));
	for (size_t i = 0; i < n; i++) {
		struct wsum *c = &ws[cl[i]];
		double e = stats_err(model[i], ref[i]);

		c->cnt += 1;
		if (do_err) {
			c->sabs += fabs(e);
			c->serr += e;
		}
		if (do_geo)
			c->slog += log(model[i] / ref[i]);
	}
	if (do_med) {
		struct radix_kv *a = xmalloc(n * sizeof(*a));
		struct radix_kv *tmp = xmalloc(n * sizeof(*tmp));

		for (size_t i = 0; i < n; i++)
			a[i] = (struct radix_kv){
				radix_key(fabs(stats_err(model[i], ref[i]))),
				cl[i] };
		radix_sort_kv(a, tmp, n);
		free(tmp);
		sval = xmalloc(n * sizeof(*sval));
		scl = xmalloc(n * sizeof(*scl));
		for (size_t i = 0; i < n; i++) {
			sval[i] = radix_unkey(a[i].k);
			scl[i] = (uint32_t)a[i].v;
		}
		free(a);
		wso = (struct wsorted){ sval, scl, n, n / 2,
					xcalloc(nc, sizeof(*wso.cnt)) };
		for (size_t i = 0; i < wso.mid; i++)
			wso.cnt[scl[i]]++;
	}
	w = xcalloc(nc, sizeof(*w));
	res = xmalloc(4 * (size_t)nb * sizeof(*res));
	for (unsigned b = 0; b < nb; b++) {
		double N = 0, A = 0, E = 0, L = 0;
		uint64_t W = 0;

		if (do_med)
			memset(w, 0, nc * sizeof(*w));
		/* one pass over the draws: sums of the drawn workloads (a
		 * workload drawn twice counts twice) */
		for (size_t j = 0; j < nc; j++) {
			size_t c = stats_paired_draw(&st, nc);
			const struct wsum *x = &ws[c];

			if (do_med)
				w[c]++;
			N += x->cnt;
			A += x->sabs;
			E += x->serr;
			L += x->slog;
		}
		W = (uint64_t)N;
		res[b] = A / N;
		res[nb + b] = E / N;
		res[2 * (size_t)nb + b] = exp(L / N);
		res[3 * (size_t)nb + b] = do_med ? wmedian(&wso, w, nc, W) :
					  NAN;
	}
	{
		double a = (1 - level) / 2;

		if (do_mape)
			interval(&s->mape_ci, res, nb, a);
		if (do_err)
			interval(&s->bias_ci, res + nb, nb, a);
		if (do_geo)
			interval(&s->geomean_ratio_ci, res + 2 * (size_t)nb,
				 nb, a);
		if (do_med)
			interval(&s->median_abs_err_ci, res + 3 * (size_t)nb,
				 nb, a);
	}
	free(res);
	free(w);
	free(ws);
	free(cl);
	free(sval);
	free(scl);
	free(wso.cnt);
}
