/* Workload bootstrap intervals of the headline statistics (stats_ci.h). */
#include "src/stats/stats_ci_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "base/radix.h"
#include "src/stats/stats_agree.h"
#include "src/stats/stats_change.h"
#include "base/util.h"

/* Dense workload numbers 0..nc-1 of wkey[0..n) into cl, in key order,
 * and the key of each number into dkey[0..nc); returns nc. Keys are
 * dictionary ids: when their range is at most a few times n, a table
 * indexed by key numbers them in O(n + range), else a sort does (the
 * same numbers either way). */
static size_t densify(const int64_t *wkey, size_t n, uint32_t *cl,
		      int64_t *dkey)
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
			if (num[k]) {
				dkey[nc] = lo + (int64_t)k;
				num[k] = (uint32_t)++nc;
			}
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
		dkey[nc] = wkey[a[i].v];
		cl[a[i].v] = (uint32_t)nc;
	}
	free(a);
	free(tmp);
	return nc + 1;
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


/* STATS_CI_ROWS resamples in one pass (each row's sums in workload order, as
 * pass8, the same operations lane by lane, so every path gives the same
 * bits): the per-workload sums are read once for STATS_CI_ROWS rows, two rows to
 * a vector (GCC's vector extension: SSE2 on x86-64, scalar code where
 * there is none), or four with AVX2 where the processor has it (a clone
 * for x86 chosen at run time; no FMA: a fused multiply-add would round
 * differently). The integer totals are summed as doubles: exact below
 * 2^53. */
typedef double v2d __attribute__((vector_size(16)));

static void pass8_rows(const struct wsums *x, const uint8_t *const *r,
		       size_t nc, struct rtot *t)
{
	const uint8_t *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
	v2d A01 = { 0, 0 }, A23 = { 0, 0 }, E01 = { 0, 0 }, E23 = { 0, 0 },
	    L01 = { 0, 0 }, L23 = { 0, 0 }, N01 = { 0, 0 }, N23 = { 0, 0 },
	    M01 = { 0, 0 }, M23 = { 0, 0 };

	for (size_t c = 0; c < nc; c++) {
		v2d d01 = { (double)r0[c], (double)r1[c] };
		v2d d23 = { (double)r2[c], (double)r3[c] };
		double cn = (double)x->cnt[c], mc = (double)x->mcnt[c];
		v2d a = { x->sabs[c], x->sabs[c] };
		v2d e = { x->serr[c], x->serr[c] };
		v2d l = { x->slog[c], x->slog[c] };
		v2d n = { cn, cn }, m = { mc, mc };

		N01 += d01 * n;
		N23 += d23 * n;
		M01 += d01 * m;
		M23 += d23 * m;
		A01 += d01 * a;
		A23 += d23 * a;
		E01 += d01 * e;
		E23 += d23 * e;
		L01 += d01 * l;
		L23 += d23 * l;
	}
	t[0] = (struct rtot){ (uint64_t)N01[0], (uint64_t)M01[0], A01[0],
			      E01[0], L01[0] };
	t[1] = (struct rtot){ (uint64_t)N01[1], (uint64_t)M01[1], A01[1],
			      E01[1], L01[1] };
	t[2] = (struct rtot){ (uint64_t)N23[0], (uint64_t)M23[0], A23[0],
			      E23[0], L23[0] };
	t[3] = (struct rtot){ (uint64_t)N23[1], (uint64_t)M23[1], A23[1],
			      E23[1], L23[1] };
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_AVX2_CLONE 1
typedef double v4d __attribute__((vector_size(32)));

__attribute__((target("avx2")))
static void pass8_rows_avx2(const struct wsums *x, const uint8_t *const *r,
			    size_t nc, struct rtot *t)
{
	const uint8_t *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
	v4d A = { 0, 0, 0, 0 }, E = A, L = A, N = A, M = A;

	for (size_t c = 0; c < nc; c++) {
		v4d d = { (double)r0[c], (double)r1[c], (double)r2[c],
			  (double)r3[c] };

		N += d * (double)x->cnt[c];
		M += d * (double)x->mcnt[c];
		A += d * x->sabs[c];
		E += d * x->serr[c];
		L += d * x->slog[c];
	}
	for (int k = 0; k < STATS_CI_ROWS; k++)
		t[k] = (struct rtot){ (uint64_t)N[k], (uint64_t)M[k], A[k],
				      E[k], L[k] };
}
#endif

static void pass_rows(const struct wsums *x, const uint8_t *const *r,
		      size_t nc, struct rtot *t, int avx2)
{
#ifdef HAVE_AVX2_CLONE
	if (avx2) {
		pass8_rows_avx2(x, r, nc, t);
		return;
	}
#endif
	(void)avx2;
	pass8_rows(x, r, nc, t);
}


int stats_ci_avx2(void)
{
#ifdef HAVE_AVX2_CLONE
	return __builtin_cpu_supports("avx2");
#else
	return 0;
#endif
}

void stats_ci_compute(struct stats_summary *s, const double *model,
		      const double *ref, const int64_t *wkey, size_t n,
		      const struct stats_paired_opts *opts)
{
	stats_ci_compute_shared(s, model, ref, wkey, n, opts, NULL);
}

void stats_ci_compute_shared(struct stats_summary *s, const double *model,
			     const double *ref, const int64_t *wkey, size_t n,
			     const struct stats_paired_opts *opts,
			     struct stats_ci_draws *draws)
{
	stats_ci_compute_se(s, model, ref, NULL, wkey, NULL, n, opts, draws);
}

void stats_ci_compute_se(struct stats_summary *s, const double *model,
			 const double *ref, const double *ref_se,
			 const int64_t *wkey, const int64_t *okey, size_t n,
			 const struct stats_paired_opts *opts,
			 struct stats_ci_draws *draws)
{
	stats_ci_compute_raw(s, model, ref, ref_se, wkey, okey, n, opts,
			     draws);
	stats_ci_bound(s, STATS_CI_MIN_WORKLOADS);
}

void stats_ci_compute_raw(struct stats_summary *s, const double *model,
			  const double *ref, const double *ref_se,
			  const int64_t *wkey, const int64_t *okey, size_t n,
			  const struct stats_paired_opts *opts,
			  struct stats_ci_draws *draws)
{
	struct ci_sum cs;

	if (stats_ci_prepare(&cs, s, model, ref, ref_se, wkey, okey, n, opts,
			     draws, 1)) {
		stats_ci_resample(&cs);
		stats_ci_finish(&cs);
	}
}

/* ci cut to [lo, hi] where both are finite (NaN stays NaN). */
static void clip(struct stats_ci *ci, double lo, double hi)
{
	if (isnan(ci->lo) || isnan(ci->hi) || isnan(lo) || isnan(hi))
		return;
	ci->lo = ci->lo < lo ? lo : ci->lo > hi ? hi : ci->lo;
	ci->hi = ci->hi > hi ? hi : ci->hi < lo ? lo : ci->hi;
}

void stats_ci_bound(struct stats_summary *s, int min_workloads)
{
	struct stats_ci *all[] = {
		&s->mape_ci, &s->bias_ci, &s->median_abs_err_ci,
		&s->geomean_ratio_ci, &s->pearson_ci, &s->pearson_log_ci,
		&s->spearman_ci, &s->fit_intercept_ci, &s->fit_slope_ci,
		&s->loa_low_ci, &s->loa_high_ci, &s->ccc_ci, &s->ccc_log_ci };
	double m = s->max_abs_err;

	/* 2 .. min_workloads - 1 workloads: every interval is a workload
	 * resampling's, and none holds its level (one workload keeps the
	 * pair-level intervals, said as such) */
	if (min_workloads > 0 && s->workloads >= 2 &&
	    s->workloads < min_workloads) {
		for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
			all[i]->lo = all[i]->hi = NAN;
		s->why[SF_CI] = STATS_WHY_CIFEW;
		return;
	}
	/* the range the statistic takes on any data with these errors:
	 * no mean or median of |e| above the largest |e|, no mean e or
	 * geomean ratio beyond it either way */
	if (!isfinite(m))
		return;
	clip(&s->mape_ci, 0, m);
	clip(&s->median_abs_err_ci, 0, m);
	clip(&s->bias_ci, -m, m);
	clip(&s->geomean_ratio_ci, fmax(0, 1 - m), 1 + m);
}

/* The sorted |errors| of the n pairs and each one's workload cl[i];
 * takes cl (kept as cs->scl or freed). A set's points arrive sorted by
 * |error|, descending: then the values are read from model and ref
 * reversed (struct wsorted) and their workloads are cl reversed in
 * place: no copy of the values nor (key, index) array (issue 21: 28
 * bytes a pair less at compare's peak). */
static void sort_abs(struct ci_sum *cs, const double *model,
		     const double *ref, uint32_t *cl, size_t n)
{
	struct radix_kv *a, *tmp;
	uint64_t prev = 0;
	size_t down = 1;

	for (size_t i = 0; i < n; i++) {
		uint64_t k = radix_key(fabs(stats_err(model[i], ref[i])));

		down += i && k <= prev;
		prev = k;
	}
	if (down == n) {
		/* reversed, no sort (ties may come in another order: the
		 * same values) */
		for (size_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
			uint32_t t = cl[i];

			cl[i] = cl[j];
			cl[j] = t;
		}
		cs->scl = cl;
		cs->wso = (struct wsorted){ NULL, cl, n, n / 2, model, ref };
	} else {
		a = xmalloc(n * sizeof(*a));
		tmp = xmalloc(n * sizeof(*tmp));
		for (size_t i = 0; i < n; i++)
			a[i] = (struct radix_kv){
				radix_key(fabs(stats_err(model[i], ref[i]))),
				cl[i] };
		free(cl);
		radix_sort_kv(a, tmp, n);
		free(tmp);
		cs->sval = xmalloc(n * sizeof(*cs->sval));
		cs->scl = xmalloc(n * sizeof(*cs->scl));
		for (size_t i = 0; i < n; i++) {
			cs->sval[i] = radix_unkey(a[i].k);
			cs->scl[i] = (uint32_t)a[i].v;
		}
		free(a);
		cs->wso = (struct wsorted){ cs->sval, cs->scl, n, n / 2,
					    NULL, NULL };
	}
	for (size_t i = 0; i < cs->wso.mid; i++)
		cs->ws.mcnt[cs->scl[i]]++;
}

/* The ops of the pairs when the intervals are two-way (NULL: one-way):
 * the op keys given, the clustering asked (opts->cluster) and, when
 * automatic, ops crossed with workloads. */
static uint32_t *two_way(const int64_t *okey, const uint32_t *cl, size_t n,
			 int cluster, size_t *no)
{
	uint32_t *ocl;
	int64_t *keys;

	if (!okey || cluster == STATS_CI_WORKLOAD)
		return NULL;
	ocl = xmalloc(n * sizeof(*ocl));
	keys = xmalloc(n * sizeof(*keys));
	*no = densify(okey, n, ocl, keys);
	free(keys);
	if (*no >= 2 && (cluster == STATS_CI_WORKLOAD_OP ||
			 stats_ci_crossed_ops(cl, ocl, n, *no) >=
			 STATS_CHANGE_MIN_OPS))
		return ocl;
	free(ocl);
	return NULL;
}

int stats_ci_prepare(struct ci_sum *cs, struct stats_summary *s,
		     const double *model, const double *ref,
		     const double *ref_se, const int64_t *wkey,
		     const int64_t *okey, size_t n,
		     const struct stats_paired_opts *opts,
		     struct stats_ci_draws *draws, int may_fill)
{
	uint64_t seed = opts && opts->seed ? opts->seed : STATS_PAIRED_SEED;
	uint32_t *cl, *ocl;
	size_t no = 0;
	int boot;

	memset(cs, 0, sizeof(*cs));
	cs->s = s;
	cs->nb = opts && opts->resamples ? opts->resamples :
		 STATS_CI_RESAMPLES;
	cs->level = opts && opts->level > 0 && opts->level < 1 ?
		    opts->level : STATS_PAIRED_LEVEL;
	cs->do_err = isfinite(s->bias);
	cs->do_mape = isfinite(s->mape);
	cs->do_med = cs->do_err && isfinite(s->median_abs_err);
	cs->do_geo = isfinite(s->geomean_ratio);
	cs->draws = draws;
	s->workloads = 0;
	s->ci_clustered = 0;
	if (n == 0)
		return 0;
	{
		double zq = gsl_cdf_ugaussian_Pinv((1 + cs->level) / 2);

		fisher(&s->pearson_ci, s->pearson, n, 1, zq);
		fisher(&s->pearson_log_ci, s->pearson_log, n, 1, zq);
		fisher(&s->spearman_ci, s->spearman, n, 1.06, zq);
	}
	stats_agree_ci(s, model, ref, n, cs->level);
	cl = xmalloc(n * sizeof(*cl));
	cs->dkey = xmalloc(n * sizeof(*cs->dkey));
	cs->nc = densify(wkey, n, cl, cs->dkey);
	s->workloads = (long)cs->nc;
	/* the pair-level intervals above stay where nothing is resampled:
	 * fewer than 2 workloads (nothing measures the spread between
	 * them), or no statistic to resample */
	if (cs->nc < 2 || (!cs->do_err && !cs->do_geo &&
			   !stats_cimom_wanted(s))) {
		free(cl);
		free(cs->dkey);
		return 0;
	}
	ocl = two_way(okey, cl, n, opts ? opts->cluster : STATS_CI_AUTO,
		      &no);
	/* one pair per workload and no op crossed: the workloads are the
	 * pairs, and the intervals are pair-level (docs/statistics.md) */
	cs->clustered = ocl ? 2 : cs->nc < n;
	cs->nw = cs->nc;
	/* only the median is resampled (the rest: jackknives) */
	boot = cs->do_med;
	if (boot) {
		stats_ci_buckets(cs->bucket);
		cs->g = (struct rowgen){ cs->dkey, cs->nc, seed, cs->bucket,
					 cs->nc, NULL, NULL, 0, NULL, NULL, 0,
					 NULL, NULL, NULL };
		stats_ci_draws_use(draws, &cs->g, cs->nb, &cs->pick,
				   &cs->absent, may_fill);
		cs->nw = cs->g.nw;
		if (cs->g.pick)	/* the cache's numbering */
			for (size_t i = 0; i < n; i++)
				cl[i] = cs->pick[cl[i]];
	}
	stats_ci_wsums_alloc(&cs->ws, cs->nw);
	stats_ci_wsums_fill(&cs->ws, model, ref, cl, n, cs->do_err,
			    cs->do_geo);
	stats_ci_jackknives(cs, model, ref, ref_se, cl, ocl, no, n);
	free(ocl);
	if (cs->do_mape)
		stats_ci_wald(&s->mape_ci, s->mape, &cs->ev[0],
			      cs->clustered == 2, cs->level, 1);
	if (cs->do_err)
		stats_ci_wald(&s->bias_ci, s->bias, &cs->ev[1],
			      cs->clustered == 2, cs->level, 0);
	if (cs->do_geo)
		stats_ci_wald(&s->geomean_ratio_ci, s->geomean_ratio,
			      &cs->ev[2], cs->clustered == 2, cs->level, 1);
	s->ci_clustered = cs->clustered;
	if (!boot) {
		s->ci_clustered = cs->clustered;
		stats_ci_wsums_free(&cs->ws);
		free(cl);
		free(cs->dkey);
		free(cs->pick);
		free(cs->absent);
		memset(cs, 0, sizeof(*cs));
		return 0;
	}
	sort_abs(cs, model, ref, cl, n);
	cs->res = xmalloc((size_t)cs->nb * sizeof(*cs->res));
	return 1;
}

void stats_ci_resample(struct ci_sum *cs)
{
	unsigned nb = cs->nb;
	size_t nw = cs->nw;
	uint8_t *w8 = xmalloc(STATS_CI_ROWS * nw);
	uint32_t *w32 = NULL;
	int avx2 = stats_ci_avx2(), do_med = cs->do_med;

	for (unsigned b0 = 0; b0 < nb; b0 += STATS_CI_ROWS) {
		unsigned k = nb - b0 < STATS_CI_ROWS ? nb - b0 : STATS_CI_ROWS;
		const uint8_t *row[STATS_CI_ROWS];
		struct rtot t[STATS_CI_ROWS];
		int all = k == STATS_CI_ROWS;

		for (unsigned j = 0; j < k; j++) {
			row[j] = stats_ci_get_row(&cs->g, b0 + j, w8 + j * nw);
			all &= row[j] != NULL;
		}
		if (all)
			pass_rows(&cs->ws, row, nw, t, avx2);
		for (unsigned j = 0; j < k; j++) {
			unsigned b = b0 + j;
			double med = NAN;

			if (row[j]) {
				if (!all)
					t[j] = stats_ci_pass8(&cs->ws, row[j],
							      nw, do_med);
				if (do_med)
					med = stats_ci_wmedian8(&cs->wso,
								row[j], t[j].M,
								t[j].N);
			} else {
				if (!w32)
					w32 = xmalloc(nw * sizeof(*w32));
				stats_ci_get_row32(&cs->g, b, w8 + j * nw, w32);
				t[j] = stats_ci_pass32(&cs->ws, w32, nw, do_med);
				if (do_med)
					med = stats_ci_wmedian32(&cs->wso, w32,
								 t[j].M, t[j].N);
			}
			stats_ci_store(cs, b, med);
		}
	}
	if (cs->g.fill)
		cs->draws->full = cs->draws->fixed = 1;
	free(w8);
	free(w32);
}

void stats_ci_finish(struct ci_sum *cs)
{
	struct stats_summary *s = cs->s;
	size_t nb = cs->nb;
	double g = (double)cs->nc, var, df, a, v1, d1;
	int two = cs->clustered == 2;

	/*
	 * The median's percentile interval, expanded (Hesterberg 2015): its
	 * tails at Phi(-sqrt(G / (G - 1)) t_df) instead of (1 - level) / 2,
	 * the bootstrap's variance being (G - 1) / G of the cluster-robust
	 * one and its normal tails too short with few workloads; df = G* -
	 * 1, G* the effective number of workloads (Kish, by their pairs);
	 * two-way, df the two-way one of MAPE and the arms scaled by MAPE's
	 * two-way over one-way standard error.
	 */
	stats_ci_var(&cs->ev[0], two, &var, &df);
	stats_ci_var(&cs->ev[0], 0, &v1, &d1);
	a = gsl_cdf_ugaussian_P(-sqrt(g / (g - 1)) *
				gsl_cdf_tdist_Pinv((1 + cs->level) / 2, df));
	interval(&s->median_abs_err_ci, cs->res, nb, a);
	s->ci_clustered = cs->clustered;
	if (two && isfinite(var) && v1 > 0)
		stats_ci_widen(&s->median_abs_err_ci, s->median_abs_err,
			       sqrt(var / v1));
	else if (two)
		s->median_abs_err_ci.lo = s->median_abs_err_ci.hi = NAN;
	free(cs->res);
	free(cs->dkey);
	free(cs->pick);
	free(cs->absent);
	free(cs->sval);
	free(cs->scl);
	stats_ci_wsums_free(&cs->ws);
	memset(cs, 0, sizeof(*cs));
}
