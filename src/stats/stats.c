/*
 * Error statistics (see stats.h and docs/statistics.md). Every statistic
 * follows ../shared/DOMAIN.md literally; undefined ones are NaN with a
 * static reason in why[]. GSL does the sorting, quantiles and fits.
 */
#include "src/stats/stats.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/radix.h"
#include "src/stats/stats_agree.h"
#include "base/util.h"

#define LOA_Z 1.96
#define MAD_K 3.0
#define MAD_SCALE 1.4826
#define MEANAD_SCALE 1.2533

/* The reasons (stats_summary.c) by their short names. */
#define WHY_EMPTY STATS_WHY_EMPTY
#define WHY_FEW STATS_WHY_FEW
#define WHY_FEW2 STATS_WHY_FEW2
#define WHY_REFZERO STATS_WHY_REFZERO
#define WHY_REFNONPOS STATS_WHY_REFNONPOS
#define WHY_NONPOS STATS_WHY_NONPOS
#define WHY_SUMZERO STATS_WHY_SUMZERO
#define WHY_MEANZERO STATS_WHY_MEANZERO
#define WHY_PAIRZERO STATS_WHY_PAIRZERO
#define WHY_CONST STATS_WHY_CONST
#define WHY_NOTFINITE STATS_WHY_NOTFINITE
#define WHY_EQUAL STATS_WHY_EQUAL
#define WHY_NOTROOF STATS_WHY_NOTROOF

double stats_err(double m, double r)
{
	return r == 0 ? NAN : (m - r) / fabs(r);
}

/* Neumaier-compensated sum: keeps means exact to the last bits. */
struct ksum {
	double s, c;
};

static void kadd(struct ksum *k, double v)
{
	double t = k->s + v;

	if (fabs(k->s) >= fabs(v))
		k->c += (k->s - t) + v;
	else
		k->c += (v - t) + k->s;
	k->s = t;
}

static double kval(const struct ksum *k)
{
	return k->s + k->c;
}

static double mean_of(const double *x, size_t n)
{
	struct ksum k = { 0, 0 };

	for (size_t i = 0; i < n; i++)
		kadd(&k, x[i]);
	return kval(&k) / (double)n;
}

static int is_constant(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			return 0;
	return 1;
}

/*
 * Pearson r by two passes over deviations, scaled by the largest
 * deviation so that squares of huge or tiny values neither overflow
 * nor underflow.
 */
double stats_pearson(const double *x, const double *y, size_t n)
{
	double mx, my, sx = 0, sy = 0, r;
	struct ksum sxx = { 0, 0 }, syy = { 0, 0 }, sxy = { 0, 0 };

	if (n < 3 || is_constant(x, n) || is_constant(y, n))
		return NAN;
	mx = mean_of(x, n);
	my = mean_of(y, n);
	for (size_t i = 0; i < n; i++) {
		sx = fmax(sx, fabs(x[i] - mx));
		sy = fmax(sy, fabs(y[i] - my));
	}
	if (!(sx > 0) || !(sy > 0) || !isfinite(sx) || !isfinite(sy))
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double dx = (x[i] - mx) / sx, dy = (y[i] - my) / sy;

		kadd(&sxx, dx * dx);
		kadd(&syy, dy * dy);
		kadd(&sxy, dx * dy);
	}
	r = kval(&sxy) / (sqrt(kval(&sxx)) * sqrt(kval(&syy)));
	return fmax(-1.0, fmin(1.0, r));
}

/* Average ranks (1-based; ties share the mean rank), as scipy rankdata. */
static void ranks(const double *x, size_t n, double *rank,
		  struct radix_kv *kv, struct radix_kv *tmp)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		kv[i].k = radix_key(x[i]);
		kv[i].v = i;
	}
	radix_sort_kv(kv, tmp, n);
	for (i = 0; i < n; i = j) {
		double avg;

		for (j = i + 1; j < n && kv[j].k == kv[i].k; j++)
			;
		avg = 0.5 * (double)(i + 1 + j);
		for (size_t k = i; k < j; k++)
			rank[kv[k].v] = avg;
	}
}

void stats_ranks(const double *x, size_t n, double *rank)
{
	struct radix_kv *kv = xmalloc(2 * (n + 1) * sizeof(*kv));

	ranks(x, n, rank, kv, kv + n);
	free(kv);
}

double stats_spearman(const double *x, const double *y, size_t n)
{
	double *rx, *ry, r;
	struct radix_kv *kv;

	if (n < 3 || is_constant(x, n) || is_constant(y, n))
		return NAN;
	rx = xmalloc(n * sizeof(*rx));
	ry = xmalloc(n * sizeof(*ry));
	kv = xmalloc(2 * n * sizeof(*kv));
	ranks(x, n, rx, kv, kv + n);
	ranks(y, n, ry, kv, kv + n);
	r = stats_pearson(rx, ry, n);
	free(rx);
	free(ry);
	free(kv);
	return r;
}

/* Bottom-up merge sort of keys, returning the number of inversions. */
static uint64_t sort_count_swaps(uint64_t *a, uint64_t *buf, size_t n)
{
	uint64_t swaps = 0;

	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi) {
				if (a[j] < a[i]) {
					buf[k++] = a[j++];
					swaps += mid - i;
				} else {
					buf[k++] = a[i++];
				}
			}
			while (i < mid)
				buf[k++] = a[i++];
			while (j < hi)
				buf[k++] = a[j++];
		}
		memcpy(a, buf, n * sizeof(*a));
	}
	return swaps;
}

/* Over runs of equal keys (length t) in a sorted array: t(t-1)/2,
 * t(t-1)(t-2) and t(t-1)(2t+5) summed (Kendall's tie terms). */
struct ties {
	uint64_t pairs;
	double v1, v2;
};

static void tie_add(struct ties *t, size_t len)
{
	double c = (double)len;

	t->pairs += (uint64_t)len * (len - 1) / 2;
	t->v1 += c * (c - 1) * (c - 2);
	t->v2 += c * (c - 1) * (2 * c + 5);
}

static void tie_runs(struct ties *t, const uint64_t *a, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && a[j] == a[i]; j++)
			;
		tie_add(t, j - i);
	}
}

/*
 * Knight's O(n log n) tau-b: sort by (x, y) (two stable radix passes),
 * count x ties and joint ties, merge-sort y counting swaps (discordant
 * pairs), count y ties. Keys compare exactly like the doubles. The
 * p-value: S = n0 - n1 - n2 + n3 - 2 swaps (concordant - discordant),
 * var S = (n(n-1)(2n+5) - sum_x t(t-1)(2t+5) - sum_y ...) / 18 +
 * sum_x t(t-1)(t-2) sum_y ... / (9 n(n-1)(n-2)) + sum_x t(t-1) sum_y
 * ... / (2 n(n-1)), p = erfc(|S| / sqrt(2 var S)).
 */
/*
 * Exact two-sided p of Kendall's tau without ties (scipy.stats.kendalltau
 * method='exact', after Kendall 1970): with c = min(discordant,
 * concordant), p = 2 P(D <= c) for D the inversions of a uniform random
 * permutation of n, at most 1. P_j(k), the distribution of inversions
 * of j items, is P_{j-1} averaged over a window of j (the new item adds
 * 0..j-1 inversions): probabilities throughout, no n! to overflow.
 */
double stats_kendall_p_exact(size_t n, uint64_t c)
{
	double *p, *q, sum = 0;

	if (n < 2)
		return 1;
	if (2 * c >= (uint64_t)n * (n - 1) / 2)
		return 1;
	p = xcalloc(c + 1, sizeof(*p));
	q = xcalloc(c + 2, sizeof(*q));
	p[0] = 1;
	for (size_t j = 2; j <= n; j++) {
		/* q = prefix sums of p; new p[k] = (q[k+1] - q[k+1-j]) / j */
		q[0] = 0;
		for (uint64_t k = 0; k <= c; k++)
			q[k + 1] = q[k] + p[k];
		for (uint64_t k = 0; k <= c; k++)
			p[k] = (q[k + 1] - (k + 1 >= j ? q[k + 1 - j] : 0)) /
			       (double)j;
	}
	for (uint64_t k = 0; k <= c; k++)
		sum += p[k];
	free(p);
	free(q);
	return fmin(1.0, 2 * sum);
}

static double kendall_finish(size_t n, const struct ties *tx,
			     const struct ties *ty, uint64_t n3,
			     uint64_t swaps, double *pv)
{
	uint64_t n0 = (uint64_t)n * (n - 1) / 2;
	double num, den, m, var;

	if (n0 == tx->pairs || n0 == ty->pairs)
		return NAN;
	num = (double)n0 - (double)tx->pairs - (double)ty->pairs +
	      (double)n3 - 2.0 * (double)swaps;
	den = sqrt((double)(n0 - tx->pairs)) * sqrt((double)(n0 - ty->pairs));
	m = (double)n * (double)(n - 1);
	var = (m * (2.0 * (double)n + 5) - tx->v2 - ty->v2) / 18 +
	      tx->v1 * ty->v1 / (9 * m * (double)(n - 2)) +
	      2.0 * (double)tx->pairs * (double)ty->pairs / m;
	if (pv && n <= STATS_KENDALL_EXACT_N && !tx->pairs && !ty->pairs) {
		uint64_t conc = n0 - swaps;

		*pv = stats_kendall_p_exact(n, swaps < conc ? swaps : conc);
	} else if (pv && var > 0) {
		*pv = fmin(1.0, erfc(fabs(num) / sqrt(2 * var)));
	}
	return fmax(-1.0, fmin(1.0, num / den));
}

/* tau-b and its p-value from p[0..n) sorted by (k, v) = (x, y) keys
 * (any keys ordered like the values); frees nothing. */
static double kendall_sorted(const struct radix_kv *p, size_t n, double *pv)
{
	uint64_t *ys, n3 = 0, swaps;
	struct ties tx = { 0, 0, 0 }, ty = { 0, 0, 0 };
	size_t i, j;

	for (i = 0; i < n; i = j) {
		size_t k;

		for (j = i + 1; j < n && p[j].k == p[i].k; j++)
			;
		tie_add(&tx, j - i);
		for (k = i; k < j; ) {
			size_t l = k + 1;

			while (l < j && p[l].v == p[k].v)
				l++;
			n3 += (uint64_t)(l - k) * (l - k - 1) / 2;
			k = l;
		}
	}
	ys = xmalloc(2 * n * sizeof(*ys));
	for (i = 0; i < n; i++)
		ys[i] = p[i].v;
	swaps = sort_count_swaps(ys, ys + n, n);
	tie_runs(&ty, ys, n);
	free(ys);
	return kendall_finish(n, &tx, &ty, n3, swaps, pv);
}

/* Runs of KENDALL_RUN by insertion, each shift one inversion. */
#define KENDALL_RUN 32

/*
 * sort_count_swaps for 32-bit keys (the dense ranks of
 * rank_correlations): runs sorted by insertion, then merges that swap
 * a and buf instead of copying back; the sorted keys are returned (a or
 * buf). The same count: the strict inversions of the input.
 */
static uint32_t *sort_count_swaps32(uint32_t *a, uint32_t *buf, size_t n,
				    uint64_t *swaps)
{
	uint32_t *src = a, *dst = buf;
	uint64_t sw = 0;

	for (size_t lo = 0; lo < n; lo += KENDALL_RUN) {
		size_t hi = lo + KENDALL_RUN < n ? lo + KENDALL_RUN : n;

		for (size_t i = lo + 1; i < hi; i++) {
			uint32_t x = a[i];
			size_t j = i;

			for (; j > lo && a[j - 1] > x; j--)
				a[j] = a[j - 1];
			a[j] = x;
			sw += i - j;
		}
	}
	for (size_t w = KENDALL_RUN; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi) {
				if (src[j] < src[i]) {
					dst[k++] = src[j++];
					sw += mid - i;
				} else {
					dst[k++] = src[i++];
				}
			}
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		{
			uint32_t *t = src;

			src = dst;
			dst = t;
		}
	}
	*swaps = sw;
	return src;
}

/* tau-b and its p-value from the dense ranks x[0..n), y[0..n) in (x, y)
 * order (kendall_sorted on 32-bit keys); y is overwritten, buf holds n. */
static double kendall_dense(const uint32_t *x, uint32_t *y, uint32_t *buf,
			    size_t n, double *pv)
{
	uint64_t n3 = 0, swaps;
	struct ties tx = { 0, 0, 0 }, ty = { 0, 0, 0 };
	const uint32_t *ys;
	size_t i, j;

	for (i = 0; i < n; i = j) {
		size_t k;

		for (j = i + 1; j < n && x[j] == x[i]; j++)
			;
		tie_add(&tx, j - i);
		for (k = i; k < j; ) {
			size_t l = k + 1;

			while (l < j && y[l] == y[k])
				l++;
			n3 += (uint64_t)(l - k) * (l - k - 1) / 2;
			k = l;
		}
	}
	ys = sort_count_swaps32(y, buf, n, &swaps);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && ys[j] == ys[i]; j++)
			;
		tie_add(&ty, j - i);
	}
	return kendall_finish(n, &tx, &ty, n3, swaps, pv);
}

double stats_kendall(const double *x, const double *y, size_t n, double *pv)
{
	struct radix_kv *p, *tmp;
	double r;

	if (pv)
		*pv = NAN;
	if (n < 3)
		return NAN;
	p = xmalloc(2 * n * sizeof(*p));
	tmp = p + n;
	for (size_t i = 0; i < n; i++) {
		p[i].k = radix_key(y[i]);
		p[i].v = radix_key(x[i]);
	}
	radix_sort_kv(p, tmp, n);	/* by y */
	for (size_t i = 0; i < n; i++) {
		uint64_t t = p[i].k;

		p[i].k = p[i].v;
		p[i].v = t;
	}
	radix_sort_kv(p, tmp, n);	/* by x, stable: by (x, y) */
	r = kendall_sorted(p, n, pv);
	free(p);
	return r;
}

/* Average ranks (as ranks()) and dense ranks 0.. of x, from one sort;
 * returns the number of distinct values. */
static size_t ranks2(const double *x, size_t n, double *rank, uint32_t *dense,
		     struct radix_kv *kv, struct radix_kv *tmp)
{
	size_t i, j, d = 0;

	for (i = 0; i < n; i++) {
		kv[i].k = radix_key(x[i]);
		kv[i].v = i;
	}
	radix_sort_kv(kv, tmp, n);
	for (i = 0; i < n; i = j, d++) {
		double avg;

		for (j = i + 1; j < n && kv[j].k == kv[i].k; j++)
			;
		avg = 0.5 * (double)(i + 1 + j);
		for (size_t k = i; k < j; k++) {
			rank[kv[k].v] = avg;
			dense[kv[k].v] = (uint32_t)d;
		}
	}
	return d;
}

/* Stable counting sort of the indexes in[0..n) by key[in[i]] < nk. */
static void count_sort(const uint32_t *in, uint32_t *out, size_t n,
		       const uint32_t *key, size_t nk, size_t *count)
{
	size_t sum = 0;

	memset(count, 0, (nk + 1) * sizeof(*count));
	for (size_t i = 0; i < n; i++)
		count[key[in[i]]]++;
	for (size_t d = 0; d < nk; d++) {
		size_t c = count[d];

		count[d] = sum;
		sum += c;
	}
	for (size_t i = 0; i < n; i++)
		out[count[key[in[i]]]++] = in[i];
}

/*
 * Spearman and Kendall from one ranking of each series (issue 21): the
 * sort that gives x's average ranks also gives its dense ranks; Kendall's
 * order by (x, y) is then two stable counting sorts of the dense ranks
 * instead of two radix sorts of the values. The same numbers as
 * stats_spearman and stats_kendall (dense ranks order like the values).
 */
static void rank_correlations(const double *x, const double *y, size_t n,
			      double *spearman, double *kendall, double *pv)
{
	double *rx = xmalloc(n * sizeof(*rx)), *ry = xmalloc(n * sizeof(*ry));
	uint32_t *dx = xmalloc(n * sizeof(*dx)), *dy = xmalloc(n * sizeof(*dy));
	struct radix_kv *kv = xmalloc(2 * n * sizeof(*kv));
	uint32_t *o1, *o2;
	size_t *count, nx, ny;

	nx = ranks2(x, n, rx, dx, kv, kv + n);
	ny = ranks2(y, n, ry, dy, kv, kv + n);
	*spearman = stats_pearson(rx, ry, n);
	free(rx);
	free(ry);
	o1 = (uint32_t *)(void *)kv;	/* kv's 32 bytes per pair: reuse */
	o2 = o1 + n;
	count = xmalloc(((nx > ny ? nx : ny) + 1) * sizeof(*count));
	for (size_t i = 0; i < n; i++)
		o2[i] = (uint32_t)i;
	count_sort(o2, o1, n, dy, ny, count);	/* by y */
	count_sort(o1, o2, n, dx, nx, count);	/* by x, stable: by (x, y) */
	free(count);
	/* the dense ranks in (x, y) order: x into o1, y into o2; dx is
	 * then the merge's buffer */
	for (size_t i = 0; i < n; i++) {
		uint32_t at = o2[i];

		o1[i] = dx[at];
		o2[i] = dy[at];
	}
	free(dy);
	*kendall = kendall_dense(o1, o2, dx, n, pv);
	free(kv);
	free(dx);
}

double stats_kendall_tau_b(const double *x, const double *y, size_t n)
{
	return stats_kendall(x, y, n, NULL);
}

static void set_nan(struct stats_summary *s)
{
	double *d[] = { &s->mape, &s->bias, &s->median_abs_err,
		&s->p90_abs_err, &s->p95_abs_err, &s->max_abs_err,
		&s->geomean_ratio, &s->agg_err, &s->rpd, &s->rmse, &s->nrmse,
		&s->pearson, &s->pearson_log, &s->spearman, &s->kendall_tau_b,
		&s->fit.intercept, &s->fit.slope, &s->fit.r2,
		&s->fit.se_intercept, &s->fit.se_slope, &s->loa_low,
		&s->loa_high, &s->efficiency, &s->mape_ci.lo, &s->mape_ci.hi,
		&s->bias_ci.lo, &s->bias_ci.hi, &s->median_abs_err_ci.lo,
		&s->median_abs_err_ci.hi, &s->geomean_ratio_ci.lo,
		&s->geomean_ratio_ci.hi, &s->pearson_ci.lo, &s->pearson_ci.hi,
		&s->pearson_log_ci.lo, &s->pearson_log_ci.hi,
		&s->spearman_ci.lo, &s->spearman_ci.hi, &s->kendall_p,
		&s->fit_intercept_ci.lo, &s->fit_intercept_ci.hi,
		&s->fit_slope_ci.lo, &s->fit_slope_ci.hi, &s->loa_low_ci.lo,
		&s->loa_low_ci.hi, &s->loa_high_ci.lo, &s->loa_high_ci.hi,
		&s->ccc, &s->ccc_log, &s->ccc_ci.lo, &s->ccc_ci.hi,
		&s->ccc_log_ci.lo, &s->ccc_log_ci.hi, &s->deming.intercept,
		&s->deming.slope, &s->deming.lambda, &s->deming.p_identity,
		&s->prop_bias_slope, &s->prop_bias_p, &s->mape_with_noisy };

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		*d[i] = NAN;
}

static void set_why_all(struct stats_summary *s, const char *why)
{
	for (int f = 0; f < SF_COUNT; f++)
		s->why[f] = why;
}

/* Statistics of the relative errors e (all defined: no zero reference). */
static void err_stats(struct stats_summary *s, const double *e, size_t n,
		      double *scratch)
{
	struct ksum sum = { 0, 0 }, sabs = { 0, 0 };
	double med, lim;

	for (size_t i = 0; i < n; i++) {
		kadd(&sum, e[i]);
		kadd(&sabs, fabs(e[i]));
		scratch[i] = fabs(e[i]);
	}
	s->bias = kval(&sum) / (double)n;
	s->mape = kval(&sabs) / (double)n;
	radix_sort_doubles(scratch, n);
	s->median_abs_err = gsl_stats_median_from_sorted_data(scratch, 1, n);
	s->p90_abs_err = gsl_stats_quantile_from_sorted_data(scratch, 1, n,
							      0.90);
	s->p95_abs_err = gsl_stats_quantile_from_sorted_data(scratch, 1, n,
							      0.95);
	s->max_abs_err = scratch[n - 1];
	/* MAD outliers: |e - median e| > k * 1.4826 * MAD; the medians by
	 * quickselect (gsl_stats_median reorders scratch). A MAD of 0 (more
	 * than half the errors equal: an exact model) says nothing of the
	 * spread: the scale is then 1.2533 x the mean absolute deviation
	 * (Iglewicz and Hoaglin's modified z-score); and a deviation under
	 * STATS_OUTLIER_FLOOR (one point of error) is never an outlier
	 * (issue 34: a zero MAD made 0.1% errors outliers). */
	memcpy(scratch, e, n * sizeof(*scratch));
	med = gsl_stats_median(scratch, 1, n);
	{
		struct ksum mad = { 0, 0 };

		for (size_t i = 0; i < n; i++) {
			scratch[i] = fabs(e[i] - med);
			kadd(&mad, scratch[i]);
		}
		lim = MAD_K * MAD_SCALE * gsl_stats_median(scratch, 1, n);
		if (!(lim > 0))
			lim = MAD_K * MEANAD_SCALE * kval(&mad) / (double)n;
	}
	lim = fmax(lim, STATS_OUTLIER_FLOOR);
	for (size_t i = 0; i < n; i++)
		if (fabs(e[i] - med) > lim)
			s->outliers++;
}

/* Counts over the pairs whose relative error is defined. */
static void err_counts(struct stats_summary *s, const double *model,
		       const double *ref, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double e = stats_err(model[i], ref[i]), a = fabs(e);

		if (isnan(e))
			continue;
		s->within_1pct += a <= 0.01;
		s->within_5pct += a <= 0.05;
		s->within_10pct += a <= 0.10;
		/* a relative tolerance: a model converted from cycles is
		 * exact to the rounding of the conversion (issue 34) */
		s->under += e < -STATS_TIE_REL;
		s->over += e > STATS_TIE_REL;
	}
}

/* geomean ratio, Pearson of logs, Bland-Altman limits on ln(m/r). */
static void log_stats(struct stats_summary *s, const double *model,
		      const double *ref, size_t n, double *d)
{
	double mean, sd;
	struct ksum ss = { 0, 0 };

	for (size_t i = 0; i < n; i++) {
		if (!(model[i] > 0) || !(ref[i] > 0)) {
			s->why[SF_GEOMEAN] = s->why[SF_PEARSON_LOG] =
				s->why[SF_LOA] = WHY_NONPOS;
			return;
		}
		d[i] = log(model[i] / ref[i]);
	}
	mean = mean_of(d, n);
	s->geomean_ratio = exp(mean);
	if (n < 2) {
		s->why[SF_LOA] = WHY_FEW2;
	} else {
		for (size_t i = 0; i < n; i++)
			kadd(&ss, (d[i] - mean) * (d[i] - mean));
		sd = sqrt(kval(&ss) / (double)(n - 1));
		s->loa_low = mean - LOA_Z * sd;
		s->loa_high = mean + LOA_Z * sd;
	}
}

static double pearson_log(const double *model, const double *ref, size_t n,
			  double *a, double *b)
{
	for (size_t i = 0; i < n; i++) {
		a[i] = log(model[i]);
		b[i] = log(ref[i]);
	}
	return stats_pearson(a, b, n);
}

/* Aggregate error, RPD, RMSE (scaled against overflow), NRMSE. */
static void diff_stats(struct stats_summary *s, const double *model,
		       const double *ref, size_t n)
{
	struct ksum sad = { 0, 0 }, sr = { 0, 0 }, rpd = { 0, 0 };
	struct ksum sq = { 0, 0 };
	double scale = 0, mr;
	int pairzero = 0;

	for (size_t i = 0; i < n; i++) {
		double d = fabs(model[i] - ref[i]);

		kadd(&sad, d);
		kadd(&sr, ref[i]);
		scale = fmax(scale, d);
		if (model[i] + ref[i] == 0)
			pairzero = 1;
		else
			kadd(&rpd, 2 * d / (model[i] + ref[i]));
	}
	if (kval(&sr) != 0)
		s->agg_err = kval(&sad) / kval(&sr);
	else
		s->why[SF_AGG_ERR] = WHY_SUMZERO;
	if (pairzero)
		s->why[SF_RPD] = WHY_PAIRZERO;
	else
		s->rpd = kval(&rpd) / (double)n;
	if (scale > 0) {
		for (size_t i = 0; i < n; i++) {
			double d = (model[i] - ref[i]) / scale;

			kadd(&sq, d * d);
		}
		s->rmse = scale * sqrt(kval(&sq) / (double)n);
	} else {
		s->rmse = 0;
	}
	mr = kval(&sr) / (double)n;
	if (mr != 0)
		s->nrmse = s->rmse / mr;
	else
		s->why[SF_NRMSE] = WHY_MEANZERO;
}

/*
 * model = intercept + slope * ref by (weighted) least squares, in a way
 * that stays exact across many decades and does not depend on the order
 * of the points (GSL's running-mean update does: slope 0.9 for an exact
 * slope-1 set spanning 1e-9 to 1e3). Weights 1 / (tau^2 + b^2 se^2)
 * when every se > 0 (fit_weights), taken relative to the largest (no
 * overflow); weighted means by compensated sums; deviations scaled by
 * their largest value; slope = Sxy / Sxx on the centred data. The
 * weights are relative (tau^2 is estimated), so the standard
 * errors are scaled by the residual variance s^2 = chi^2 / (n - 2):
 * se_slope = sqrt(s^2 / Sxx), se_intercept = sqrt(s^2 (1/W + xbar^2 /
 * Sxx)), W = sum of the weights (unweighted: w = 1, scipy linregress).
 * r2 = 1 - chi^2 / sum w (y - ybar_w)^2.
 */
static double wmean(const double *v, const double *w, size_t n)
{
	struct ksum sw = { 0, 0 }, swv = { 0, 0 };

	for (size_t i = 0; i < n; i++) {
		kadd(&sw, w[i]);
		kadd(&swv, w[i] * v[i]);
	}
	return kval(&swv) / kval(&sw);
}

static double max_dev(const double *v, double mean, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		m = fmax(m, fabs(v[i] - mean));
	return m;
}

/* Weighted least squares slope of y on x and chi^2 = sum w r^2 (plain
 * sums about the weighted means: the weights' search below, not the
 * reported fit). */
static double wls(const double *x, const double *y, const double *w,
		  size_t n, double *chi2, double *sw2r2)
{
	double xb = wmean(x, w, n), yb = wmean(y, w, n), sxx = 0, sxy = 0;
	double b, a, c = 0, c2 = 0;

	for (size_t i = 0; i < n; i++) {
		sxx += w[i] * (x[i] - xb) * (x[i] - xb);
		sxy += w[i] * (x[i] - xb) * (y[i] - yb);
	}
	b = sxy / sxx;
	a = yb - b * xb;
	for (size_t i = 0; i < n; i++) {
		double r = y[i] - a - b * x[i];

		c += w[i] * r * r;
		c2 += w[i] * w[i] * r * r;
	}
	*chi2 = c;
	if (sw2r2)
		*sw2r2 = c2;
	return b;
}

/*
 * The weights of the weighted fit (issue 34): w_i = 1 / (tau^2 + b^2
 * se_i^2), the variance of pair i's residual when the reference's mean
 * has the standard error se_i (its stddev / sqrt(repetitions)) and the
 * model an error of its own of variance tau^2, which nothing records:
 * it is estimated as Paule and Mandel do (1982; the random-effects
 * meta-regression's estimator), the tau^2 >= 0 at which chi^2 = sum w_i
 * r_i^2 = n - 2, by Newton's method from tau^2 = 0 (chi^2 is convex and
 * decreasing in tau^2: the steps do not overshoot). Weights from se
 * alone let two precisely measured pairs decide the slope whatever the
 * model's scatter. Everything in units of max |x|, |y| (no overflow);
 * returns the weights relative to their largest.
 */
/* chi^2 at tau^2 = t2 with b and the weights of b at their fixed point
 * (b: the start, then the result); *d = sum w^2 r^2 = -dchi^2/dt2. */
static double chi2_at(const double *x, const double *y, const double *u,
		      size_t n, double t2, double *b, double *w, double *d)
{
	double chi2 = NAN;

	for (int k = 0; k < 100; k++) {
		double b0 = *b;

		for (size_t i = 0; i < n; i++)
			w[i] = 1 / (t2 + *b * *b * u[i] * u[i]);
		*b = wls(x, y, w, n, &chi2, d);
		if (!(fabs(*b - b0) > 1e-15 * fabs(*b)))
			break;
	}
	return chi2;
}

static double fit_weights(const double *ref, const double *model,
			  const double *se, size_t n, double *w)
{
	double *x = xmalloc(n * sizeof(*x)), *y = xmalloc(n * sizeof(*y));
	double *u = xmalloc(n * sizeof(*u)), S = 0, b, wmax = 0, d, dlo;
	double target = (double)(n - 2), lo = 0, hi, t2 = 0, c, clo;

	for (size_t i = 0; i < n; i++)
		S = fmax(S, fmax(fabs(ref[i]), fabs(model[i])));
	for (size_t i = 0; i < n; i++) {
		x[i] = ref[i] / S;
		y[i] = model[i] / S;
		u[i] = se[i] / S;
		w[i] = 1;
	}
	b = wls(x, y, w, n, &c, NULL);
	clo = c = chi2_at(x, y, u, n, 0, &b, w, &dlo);
	if (isfinite(c) && c > target && dlo > 0) {
		/* a bracket [lo, hi] of the root, then Newton from its low
		 * end (chi^2 convex, decreasing), bisection when a step
		 * leaves it */
		hi = (c - target) / dlo;
		for (int k = 0; k < 2000 && chi2_at(x, y, u, n, hi, &b, w,
						    &d) > target; k++)
			hi *= 2;
		for (int it = 0; it < 200; it++) {
			t2 = lo + (clo - target) / dlo;
			if (!(t2 > lo && t2 < hi))
				t2 = lo + (hi - lo) / 2;
			c = chi2_at(x, y, u, n, t2, &b, w, &d);
			if (c > target) {
				lo = t2;
				clo = c;
				dlo = d;
			} else {
				hi = t2;
			}
			if (fabs(c - target) <= 1e-15 * target ||
			    !(hi - lo > 1e-16 * hi) || !(dlo > 0))
				break;
		}
	}
	for (size_t i = 0; i < n; i++)
		wmax = fmax(wmax, w[i]);
	for (size_t i = 0; i < n; i++)
		w[i] = isfinite(wmax) && wmax > 0 ? w[i] / wmax : 1;
	free(x);
	free(y);
	free(u);
	return t2 * S * S;
}

void stats_fit_weights(const struct stats_fit *f, const double *ref_se,
		       size_t n, double *w)
{
	double wmax = 0;

	for (size_t i = 0; i < n; i++) {
		w[i] = 1 / (f->tau2 + f->slope * f->slope * ref_se[i] *
			    ref_se[i]);
		wmax = fmax(wmax, w[i]);
	}
	for (size_t i = 0; i < n; i++)
		w[i] = isfinite(wmax) && wmax > 0 ? w[i] / wmax : 1;
}

static void fit(struct stats_summary *s, const double *model,
		const double *ref, const double *ref_sd, size_t n, double *w)
{
	struct ksum sw = { 0, 0 }, sxx = { 0, 0 }, sxy = { 0, 0 },
		    syy = { 0, 0 }, chi = { 0, 0 };
	double xbar, ybar, sx, sy, b, chi2, dof;
	int weighted = ref_sd != NULL;
	double tau2 = 0;

	if (n < 3) {
		s->why[SF_FIT] = WHY_FEW;
		return;
	}
	if (is_constant(ref, n) || is_constant(model, n)) {
		s->why[SF_FIT] = WHY_CONST;
		return;
	}
	for (size_t i = 0; weighted && i < n; i++)
		if (!(ref_sd[i] > 0) || !isfinite(ref_sd[i]))
			weighted = 0;
	if (weighted)
		tau2 = fit_weights(ref, model, ref_sd, n, w);
	else
		for (size_t i = 0; i < n; i++)
			w[i] = 1;
	xbar = wmean(ref, w, n);
	ybar = wmean(model, w, n);
	sx = max_dev(ref, xbar, n);
	sy = max_dev(model, ybar, n);
	if (!(sx > 0) || !(sy > 0) || !isfinite(sx) || !isfinite(sy)) {
		s->why[SF_FIT] = WHY_CONST;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		double dx = (ref[i] - xbar) / sx, dy = (model[i] - ybar) / sy;

		kadd(&sw, w[i]);
		kadd(&sxx, w[i] * dx * dx);
		kadd(&sxy, w[i] * dx * dy);
		kadd(&syy, w[i] * dy * dy);
	}
	if (!(kval(&sxx) > 0) || !(kval(&syy) > 0)) {
		s->why[SF_FIT] = WHY_CONST;
		return;
	}
	b = kval(&sxy) / kval(&sxx);	/* slope in units of sy / sx */
	for (size_t i = 0; i < n; i++) {
		double dx = (ref[i] - xbar) / sx, dy = (model[i] - ybar) / sy;
		double r = dy - b * dx;

		kadd(&chi, w[i] * r * r);
	}
	chi2 = fmax(0.0, kval(&chi));	/* in units of sy^2 */
	dof = (double)(n - 2);
	s->fit.slope = b * (sy / sx);
	s->fit.intercept = ybar - s->fit.slope * xbar;
	s->fit.r2 = 1.0 - chi2 / kval(&syy);
	s->fit.se_slope = (sy / sx) * sqrt(chi2 / dof / kval(&sxx));
	s->fit.se_intercept = sy * sqrt(chi2 / dof * (1.0 / kval(&sw) +
				(xbar / sx) * (xbar / sx) / kval(&sxx)));
	s->fit.weighted = weighted;
	s->fit.tau2 = tau2;
}

static int all_finite(const double *model, const double *ref, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(model[i]) || !isfinite(ref[i]))
			return 0;
	return 1;
}

/* kendall 0: Spearman alone (stats_spearman: the same ranks, hence the
 * same number, as rank_correlations), no Kendall. */
static void correlations(struct stats_summary *s, const double *model,
			 const double *ref, size_t n, double *a, double *b,
			 int kendall)
{
	const char *why = n < 3 ? WHY_FEW :
			  is_constant(model, n) || is_constant(ref, n) ?
			  WHY_CONST : NULL;

	s->why[SF_PEARSON] = s->why[SF_SPEARMAN] = s->why[SF_KENDALL] =
		s->why[SF_KENDALL_P] = why;
	if (why) {
		if (!s->why[SF_PEARSON_LOG])
			s->why[SF_PEARSON_LOG] = why;
		return;
	}
	s->pearson = stats_pearson(model, ref, n);
	s->kendall_p = NAN;
	if (kendall)
		rank_correlations(model, ref, n, &s->spearman,
				  &s->kendall_tau_b, &s->kendall_p);
	else
		s->spearman = stats_spearman(model, ref, n);
	if (!s->why[SF_PEARSON_LOG]) {
		s->pearson_log = pearson_log(model, ref, n, a, b);
		if (isnan(s->pearson_log))
			s->why[SF_PEARSON_LOG] = WHY_CONST;
	}
}

/* What compute() computes: every statistic (stats_compute); what
 * stats_null_mixed keeps plus Pearson, Pearson on logs and Spearman,
 * whose Fisher intervals read them (stats_compute_mixed with_corr); what
 * it keeps only (stats_compute_mixed); the first plus the fit
 * (stats_compute_lean). */
enum compute_set { CS_ALL, CS_ERR_CORR, CS_ERR, CS_ERR_CORR_FIT };

static int compute(struct stats_summary *out, const double *model,
		   const double *ref, const double *ref_sd, size_t n,
		   enum compute_set set)
{
	struct stats_summary s;
	double *a = NULL, *b = NULL;
	size_t nzero = 0, nneg = 0;

	memset(&s, 0, sizeof(s));
	set_nan(&s);
	s.n = (long)n;
	/* the correlation core computes it for a roofline model */
	s.why[SF_EFFICIENCY] = WHY_NOTROOF;
	if (n == 0 || !all_finite(model, ref, n)) {
		set_why_all(&s, n == 0 ? WHY_EMPTY : WHY_NOTFINITE);
		s.why[SF_OUTLIERS] = NULL;
		*out = s;
		return 0;
	}
	a = xmalloc(n * sizeof(*a));
	b = xmalloc(n * sizeof(*b));
	for (size_t i = 0; i < n; i++) {
		nzero += ref[i] == 0;
		nneg += ref[i] < 0;
		a[i] = stats_err(model[i], ref[i]);
	}
	err_counts(&s, model, ref, n);
	if (nzero) {
		s.why[SF_MAPE] = s.why[SF_BIAS] = s.why[SF_ABS_ERR] =
			s.why[SF_OUTLIERS] = WHY_REFZERO;
	} else {
		err_stats(&s, a, n, b);
		if (nneg) {
			s.mape = NAN;
			s.why[SF_MAPE] = WHY_REFNONPOS;
		}
	}
	log_stats(&s, model, ref, n, a);
	diff_stats(&s, model, ref, n);
	if (set != CS_ERR)
		correlations(&s, model, ref, n, a, b, set == CS_ALL);
	if (set == CS_ALL || set == CS_ERR_CORR_FIT)
		fit(&s, model, ref, ref_sd, n, a);
	if (set == CS_ALL)
		stats_agree_compute(&s, model, ref, ref_sd, n);
	s.mape_with_noisy = s.mape;
	s.why[SF_MAPE_NOISY] = s.why[SF_MAPE];
	free(a);
	free(b);
	*out = s;
	return 0;
}

int stats_compute(struct stats_summary *out, const double *model,
		  const double *ref, const double *ref_sd, size_t n)
{
	return compute(out, model, ref, ref_sd, n, CS_ALL);
}

int stats_compute_mixed(struct stats_summary *out, const double *model,
			const double *ref, const double *ref_sd, size_t n,
			int with_corr)
{
	return compute(out, model, ref, ref_sd, n,
		       with_corr ? CS_ERR_CORR : CS_ERR);
}

int stats_compute_lean(struct stats_summary *out, const double *model,
		       const double *ref, const double *ref_sd, size_t n)
{
	return compute(out, model, ref, ref_sd, n, CS_ERR_CORR_FIT);
}

void stats_null_mixed(struct stats_summary *s)
{
	static const enum stats_field f[] = { SF_AGG_ERR, SF_RMSE, SF_NRMSE,
		SF_PEARSON, SF_PEARSON_LOG, SF_SPEARMAN, SF_KENDALL, SF_FIT,
		SF_LOA, SF_EFFICIENCY, SF_KENDALL_P, SF_CCC, SF_CCC_LOG,
		SF_DEMING, SF_DEMING_P, SF_PROP_BIAS, SF_PROP_BIAS_P };
	double *d[] = { &s->agg_err, &s->rmse, &s->nrmse, &s->pearson,
		&s->pearson_log, &s->spearman, &s->kendall_tau_b,
		&s->fit.intercept, &s->fit.slope, &s->fit.r2,
		&s->fit.se_intercept, &s->fit.se_slope, &s->loa_low,
		&s->loa_high, &s->efficiency, &s->kendall_p,
		&s->fit_intercept_ci.lo, &s->fit_intercept_ci.hi,
		&s->fit_slope_ci.lo, &s->fit_slope_ci.hi, &s->loa_low_ci.lo,
		&s->loa_low_ci.hi, &s->loa_high_ci.lo, &s->loa_high_ci.hi,
		&s->ccc, &s->ccc_log, &s->ccc_ci.lo, &s->ccc_ci.hi,
		&s->ccc_log_ci.lo, &s->ccc_log_ci.hi, &s->deming.intercept,
		&s->deming.slope, &s->deming.lambda, &s->deming.p_identity,
		&s->prop_bias_slope, &s->prop_bias_p,
		/* the Fisher-z intervals of the correlations nulled above
		 * (issue 19: they outlived their statistic) */
		&s->pearson_ci.lo, &s->pearson_ci.hi, &s->pearson_log_ci.lo,
		&s->pearson_log_ci.hi, &s->spearman_ci.lo, &s->spearman_ci.hi };

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		*d[i] = NAN;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		s->why[f[i]] = STATS_WHY_METRICS;
	s->fit.weighted = 0;
	s->deming.lambda_known = 0;
}

void stats_null_direction(struct stats_summary *s)
{
	s->bias = s->geomean_ratio = NAN;
	s->bias_ci.lo = s->bias_ci.hi = NAN;
	s->geomean_ratio_ci.lo = s->geomean_ratio_ci.hi = NAN;
	s->why[SF_BIAS] = s->why[SF_GEOMEAN] = STATS_WHY_DIRECTION;
}

/* v when mask is all ones, +0 when it is zero: a select without a
 * branch (compilers keep a ?: on doubles as a branch when they like). */
static inline double masked(double v, uint64_t mask)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	b &= mask;
	memcpy(&v, &b, sizeof(v));
	return v;
}

int stats_basic(struct stats_summary *out, const double *model,
		const double *ref, size_t stride, const unsigned char *keep,
		size_t n)
{
	struct stats_summary s;
	double se = 0, sa = 0, m0 = 0, r0 = 0, a = 0, b = 0, aa = 0, bb = 0,
	       ab = 0, sxx, syy, sxy;
	size_t k = 0, nzero = 0, nneg = 0, bad = 0, mvar = 0, rvar = 0;

	memset(&s, 0, sizeof(s));
	set_nan(&s);
	/* One pass of plain sums (a header figure, not a report's): the
	 * moments about the first kept point (shifted data: no cancellation
	 * when values sit far from zero). Which points are kept is data:
	 * they are selected without a branch (a left-out point adds 0),
	 * and the pass reads each value once: it is bound by memory. */
	for (size_t i = 0; i < n; i++) {
		double m = model[i * stride], r = ref[i * stride];
		double e = (m - r) / fabs(r);	/* stats_err; r == 0 counted */
		unsigned ok = !keep || keep[i];
		uint64_t w = -(uint64_t)ok;
		double dm, dr;

		if (ok && k == 0) {	/* once: predictable */
			m0 = m;
			r0 = r;
		}
		dm = masked(m - m0, w);
		dr = masked(r - r0, w);
		k += ok;
		bad += ok & !(isfinite(m) && isfinite(r));
		mvar += ok & (m != m0);
		rvar += ok & (r != r0);
		nzero += ok & (r == 0);
		nneg += ok & (r < 0);
		se += masked(e, w);
		sa += masked(fabs(e), w);
		a += dm;
		b += dr;
		aa += dm * dm;
		bb += dr * dr;
		ab += dm * dr;
	}
	s.n = (long)k;
	if (k == 0 || bad) {
		set_why_all(&s, k == 0 ? WHY_EMPTY : WHY_NOTFINITE);
		*out = s;
		return 0;
	}
	if (nzero) {
		s.why[SF_MAPE] = s.why[SF_BIAS] = WHY_REFZERO;
	} else {
		s.bias = se / (double)k;
		s.mape = nneg ? NAN : sa / (double)k;
		if (nneg)
			s.why[SF_MAPE] = WHY_REFNONPOS;
	}
	sxx = aa - a * a / (double)k;
	syy = bb - b * b / (double)k;
	sxy = ab - a * b / (double)k;
	if (k < 3 || !mvar || !rvar || !(sxx > 0) || !(syy > 0))
		s.why[SF_PEARSON] = k < 3 ? WHY_FEW : WHY_CONST;
	else
		s.pearson = fmax(-1.0, fmin(1.0, sxy / sqrt(sxx * syy)));
	*out = s;
	return 0;
}
