#ifndef PC_SRC_STATS_STATS_INT_H
#define PC_SRC_STATS_STATS_INT_H
/*
 * Private to src/stats/stats*.c (stats.c, stats_corr.c, stats_fit.c):
 * the compensated sums and the tests every part of stats_compute uses,
 * the reasons by their short names, and the two parts stats.c's
 * compute() calls. The call order is one way: stats.c (the summary)
 * calls stats_corr.c (correlations) and stats_fit.c (the fit), never
 * the other way.
 */
#include <math.h>
#include <stddef.h>

#include "src/stats/stats.h"

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

/* Neumaier-compensated sum: keeps means exact to the last bits. */
struct ksum {
	double s, c;
};

static inline void kadd(struct ksum *k, double v)
{
	double t = k->s + v;

	if (fabs(k->s) >= fabs(v))
		k->c += (k->s - t) + v;
	else
		k->c += (v - t) + k->s;
	k->s = t;
}

static inline double kval(const struct ksum *k)
{
	return k->s + k->c;
}

static inline double mean_of(const double *x, size_t n)
{
	struct ksum k = { 0, 0 };

	for (size_t i = 0; i < n; i++)
		kadd(&k, x[i]);
	return kval(&k) / (double)n;
}

static inline int is_constant(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			return 0;
	return 1;
}

/* stats_corr.c: Spearman and Kendall (tau-b and its p) from one ranking
 * of each series; the same numbers as stats_spearman and stats_kendall. */
void stats_rank_correlations(const double *x, const double *y, size_t n,
			     double *spearman, double *kendall, double *pv);

/* stats_fit.c: the (weighted) least-squares line of model on ref into
 * s->fit, or its reason in s->why[SF_FIT]; w: n doubles of scratch. */
void stats_fit_line(struct stats_summary *s, const double *model,
		    const double *ref, const double *ref_sd, size_t n,
		    double *w);

#endif
