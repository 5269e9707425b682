#ifndef PC_SRC_STATS_PAIRED_H
#define PC_SRC_STATS_PAIRED_H
/*
 * Is a change between two releases real or noise? Paired statistics over
 * the points two releases have in common: before[i] and after[i] are the
 * same (workload, op, metric), usually |error| of each release against
 * the same reference. Pure functions; no allocation survives a call.
 * Definitions (docs/gate.md, "Statistics"):
 *
 *  - delta = mean(after) - mean(before) = mean(d), d[i] = after[i] -
 *    before[i] (for |error|: the MAPE change on the common points);
 *  - a paired percentile bootstrap interval for delta: `resamples`
 *    resamples of the n points with replacement (whole pairs: the
 *    workloads are resampled, not the two sides separately), means
 *    sorted, quantiles (1 -+ level) / 2 by linear interpolation (numpy's
 *    default); indexes from splitmix64 seeded with `seed`:
 *    idx = floor(u * n), u = (x >> 11) * 2^-53;
 *  - the Wilcoxon signed-rank test on d: zero differences dropped
 *    (Wilcoxon's method), ties given average ranks; |d| within
 *    STATS_PAIRED_EPS of zero is zero and within it of the smallest of a
 *    group is a tie (errors computed from the same values differ by
 *    float rounding, ~1e-17), W+ = sum of the
 *    ranks of positive d. p is one-sided for an increase, P(W+ >= w+)
 *    under H0 (and p_decrease = P(W+ <= w+)). Exact (the permutation
 *    distribution of the observed ranks, ties included, enumerated by
 *    dynamic programming over doubled ranks) when at most
 *    STATS_PAIRED_EXACT_MAX differences are nonzero; otherwise the normal
 *    approximation with the tie correction of the variance and a 0.5
 *    continuity correction.
 */
#include <stddef.h>
#include <stdint.h>

#define STATS_PAIRED_RESAMPLES 2000
#define STATS_PAIRED_SEED 20261201u
#define STATS_PAIRED_LEVEL 0.95
#define STATS_PAIRED_EXACT_MAX 50
#define STATS_PAIRED_EPS 1e-12

struct stats_paired_opts {
	unsigned resamples;	/* 0 = STATS_PAIRED_RESAMPLES */
	uint64_t seed;		/* 0 = STATS_PAIRED_SEED */
	double level;		/* 0 = STATS_PAIRED_LEVEL */
	int cluster;		/* the intervals' clusters (stats_ci.h:
				   enum stats_ci_cluster; 0 = automatic) */
};

struct stats_paired {
	size_t n;		/* pairs used (both values finite) */
	double mean_before, mean_after, delta;
	double ci_lo, ci_hi;	/* bootstrap interval of delta */
	double level;
	unsigned resamples;
	uint64_t seed;
	size_t n_nonzero;	/* differences the Wilcoxon test ranks */
	double w_plus;		/* sum of ranks of positive differences */
	double z;		/* normal approximation (NaN when exact) */
	double p_increase;	/* one-sided: after > before */
	double p_decrease;	/* one-sided: after < before */
	int exact;		/* 1: exact distribution; 0: normal */
	const char *why;	/* NULL, or why p / the interval are NaN */
};

/* Compute over the i < n with before[i] and after[i] both finite (others
 * skipped). opts may be NULL (the defaults). With no usable pair
 * everything is NaN and why says so; with no nonzero difference the
 * p-values are 1. Returns 0 (it cannot fail). */
int stats_paired_compute(struct stats_paired *out, const double *before,
			 const double *after, size_t n,
			 const struct stats_paired_opts *opts);

/* Only the Wilcoxon part over differences d[0..n) (NaN skipped). */
void stats_paired_wilcoxon(struct stats_paired *out, const double *d,
			   size_t n);

/* The seeded generator the bootstrap uses (splitmix64), for tests. */
uint64_t stats_paired_next(uint64_t *state);

/* The resampling primitives, shared with the workload bootstrap of
 * src/stats_ci.c: an index in [0, n) drawn as above (n > 0); sort
 * doubles ascending; numpy's default quantile of sorted[0..n) (n > 0). */
size_t stats_paired_draw(uint64_t *state, size_t n);
void stats_paired_sort(double *a, size_t n);
double stats_paired_quantile(const double *sorted, size_t n, double q);

#endif
