/* Per-request distributions (see dist.h). */
#include "importers/dist.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"

void dist_add(struct dist *d, double v, long line)
{
	if (!d->n)
		d->line = line;
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 256;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	d->v[d->n++] = v;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double dist_pct(const double *v, size_t n, double p)
{
	double h = (double)(n - 1) * p / 100.0, lo = floor(h);
	size_t k = (size_t)lo;

	return k + 1 < n ? v[k] + (h - lo) * (v[k + 1] - v[k]) : v[k];
}

int dist_stat(struct dist *d, struct stk_stat *st)
{
	double mean = 0, m2 = 0;

	stk_stat_init(st);
	if (!d->n)
		return 1;
	for (size_t k = 0; k < d->n; k++) {	/* Welford */
		double e = d->v[k] - mean;

		mean += e / (double)(k + 1);
		m2 += e * (d->v[k] - mean);
	}
	qsort(d->v, d->n, sizeof(*d->v), cmp);
	st->mean = mean;
	st->n = (double)d->n;
	st->min = d->v[0];
	st->max = d->v[d->n - 1];
	if (d->n >= 2)
		st->std = sqrt(m2 / (double)(d->n - 1));
	stk_stat_set(st, "p50", dist_pct(d->v, d->n, 50));
	stk_stat_set(st, "p90", dist_pct(d->v, d->n, 90));
	stk_stat_set(st, "p99", dist_pct(d->v, d->n, 99));
	return 0;
}

void dist_release(struct dist *d)
{
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}
