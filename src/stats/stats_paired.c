/* Paired change statistics: bootstrap interval, Wilcoxon signed-rank
 * (see stats_paired.h). */
#include "src/stats/stats_paired.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

uint64_t stats_paired_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

size_t stats_paired_draw(uint64_t *state, size_t n)
{
	double u = (double)(stats_paired_next(state) >> 11) * 0x1.0p-53;
	size_t k = (size_t)(u * (double)n);

	return k < n ? k : n - 1;
}

void stats_paired_sort(double *a, size_t n)
{
	qsort(a, n, sizeof(*a), cmp_double);
}

/* numpy's default quantile (linear interpolation, "type 7"). */
double stats_paired_quantile(const double *sorted, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

struct ranked {
	double abs;
	int sign;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->abs,
			  &((const struct ranked *)b)->abs);
}

/* Exact upper and lower tails of W+ over doubled ranks r2[0..n). */
static void exact_tails(const long *r2, size_t n, long w2, double *upper,
			double *lower)
{
	long total = 0;
	double *cnt, all, up = 0, low = 0;

	for (size_t i = 0; i < n; i++)
		total += r2[i];
	cnt = xcalloc((size_t)total + 1, sizeof(*cnt));
	cnt[0] = 1;
	for (size_t i = 0; i < n; i++)
		for (long s = total; s >= r2[i]; s--)
			cnt[s] += cnt[s - r2[i]];
	all = ldexp(1.0, (int)n);
	for (long s = 0; s <= total; s++) {
		if (s >= w2)
			up += cnt[s];
		if (s <= w2)
			low += cnt[s];
	}
	free(cnt);
	*upper = up / all;
	*lower = low / all;
}

void stats_paired_wilcoxon(struct stats_paired *out, const double *d,
			   size_t n)
{
	struct ranked *r = xcalloc(n ? n : 1, sizeof(*r));
	long *r2 = xcalloc(n ? n : 1, sizeof(*r2));
	double ties = 0, w2 = 0;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(d[i]) && fabs(d[i]) > STATS_PAIRED_EPS)
			r[m++] = (struct ranked){ fabs(d[i]), d[i] > 0 ? 1 : -1 };
	qsort(r, m, sizeof(*r), cmp_ranked);
	for (size_t i = 0; i < m;) {
		size_t j = i;

		while (j < m && r[j].abs - r[i].abs <= STATS_PAIRED_EPS)
			j++;
		/* ranks i+1 .. j share (i+1+j)/2; doubled: i+1+j */
		for (size_t k = i; k < j; k++) {
			r2[k] = (long)(i + 1 + j);
			if (r[k].sign > 0)
				w2 += (double)r2[k];
		}
		ties += pow((double)(j - i), 3) - (double)(j - i);
		i = j;
	}
	out->n_nonzero = m;
	out->w_plus = w2 / 2;
	out->z = NAN;
	out->exact = 0;
	if (m == 0) {
		out->p_increase = out->p_decrease = 1;
	} else if (m <= STATS_PAIRED_EXACT_MAX) {
		out->exact = 1;
		exact_tails(r2, m, (long)w2, &out->p_increase,
			    &out->p_decrease);
	} else {
		double nn = (double)m;
		double mean = nn * (nn + 1) / 4;
		double var = nn * (nn + 1) * (2 * nn + 1) / 24 - ties / 48;
		double sd = sqrt(var);

		if (!(sd > 0)) {
			out->p_increase = out->p_decrease = NAN;
			out->why = "every difference ties";
		} else {
			double zi = (out->w_plus - mean - 0.5) / sd;
			double zd = (out->w_plus - mean + 0.5) / sd;

			out->z = zi;
			out->p_increase = 0.5 * erfc(zi / sqrt(2));
			out->p_decrease = 0.5 * erfc(-zd / sqrt(2));
		}
	}
	free(r);
	free(r2);
}

static void bootstrap(struct stats_paired *out, const double *d, size_t n)
{
	double *means = xcalloc(out->resamples, sizeof(*means));
	uint64_t st = out->seed;
	double a = (1 - out->level) / 2;

	for (unsigned b = 0; b < out->resamples; b++) {
		double sum = 0;

		for (size_t i = 0; i < n; i++)
			sum += d[stats_paired_draw(&st, n)];
		means[b] = sum / (double)n;
	}
	qsort(means, out->resamples, sizeof(*means), cmp_double);
	out->ci_lo = stats_paired_quantile(means, out->resamples, a);
	out->ci_hi = stats_paired_quantile(means, out->resamples, 1 - a);
	free(means);
}

int stats_paired_compute(struct stats_paired *out, const double *before,
			 const double *after, size_t n,
			 const struct stats_paired_opts *opts)
{
	double *d = xcalloc(n ? n : 1, sizeof(*d));
	double sb = 0, sa = 0;
	size_t m = 0;

	memset(out, 0, sizeof(*out));
	out->resamples = opts && opts->resamples ? opts->resamples :
			 STATS_PAIRED_RESAMPLES;
	out->seed = opts && opts->seed ? opts->seed : STATS_PAIRED_SEED;
	out->level = opts && opts->level > 0 && opts->level < 1 ?
		     opts->level : STATS_PAIRED_LEVEL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(before[i]) || !isfinite(after[i]))
			continue;
		sb += before[i];
		sa += after[i];
		d[m++] = after[i] - before[i];
	}
	out->n = m;
	if (m == 0) {
		out->mean_before = out->mean_after = out->delta = NAN;
		out->ci_lo = out->ci_hi = out->z = NAN;
		out->p_increase = out->p_decrease = NAN;
		out->why = "no points in common";
		free(d);
		return 0;
	}
	out->mean_before = sb / (double)m;
	out->mean_after = sa / (double)m;
	out->delta = 0;
	for (size_t i = 0; i < m; i++)
		out->delta += d[i];
	out->delta /= (double)m;
	bootstrap(out, d, m);
	stats_paired_wilcoxon(out, d, m);
	free(d);
	return 0;
}
