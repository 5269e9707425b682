/*
 * The correlations (see stats.h and docs/statistics.md): Pearson,
 * Spearman's average ranks and Kendall's tau-b with its p-value, by
 * radix and merge sorts that count inversions; part of stats.c, whose
 * compute() calls stats_rank_correlations (stats_int.h).
 */
#include "src/stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/radix.h"
#include "base/util.h"
#include "src/stats/stats_int.h"

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
 * stats_rank_correlations): runs sorted by insertion, then merges that swap
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
void stats_rank_correlations(const double *x, const double *y, size_t n,
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
