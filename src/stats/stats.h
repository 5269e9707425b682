#ifndef PC_SRC_STATS_H
#define PC_SRC_STATS_H
/*
 * Error statistics between a model series and a reference series, with
 * the exact definitions of ../shared/DOMAIN.md (mirrored in
 * docs/statistics.md). Pure functions over arrays; GSL underneath with
 * its error handler off and every status checked. A statistic that is
 * undefined for the data is NaN, with a reason from stats_why().
 * Errors are fractions (0.05 = 5%).
 */
#include <stddef.h>
#include <stdint.h>

#include "src/stats/stats_summary.h"

/* Compute every statistic over n pairs. ref_sd may be NULL (or hold NaN
 * or 0 somewhere): the fit is weighted only when every ref_sd > 0.
 * Returns 0, or <0 on a GSL failure with a message. n = 0 is valid
 * (everything NaN with reasons). O(n log n); allocates O(n) scratch. */
int stats_compute(struct stats_summary *out, const double *model,
		  const double *ref, const double *ref_sd, size_t n);

/* stats_compute for pairs of several metrics, whose summary the caller
 * passes to stats_null_mixed: what that nulls is not computed (Kendall,
 * the fits, the agreement statistics; the correlations too unless
 * with_corr, for the Fisher intervals of stats_ci that read Pearson and
 * Spearman first) and holds NaN until then. After stats_null_mixed,
 * every field equals stats_compute's + stats_null_mixed's bit for bit
 * (issue 21: a mixed group costs its error statistics only). */
int stats_compute_mixed(struct stats_summary *out, const double *model,
			const double *ref, const double *ref_sd, size_t n,
			int with_corr);

/* stats_compute without Kendall and the agreement statistics (CCC,
 * Deming, proportional bias), which hold NaN: the error statistics, the
 * correlations and the fit, each stats_compute's bit for bit (issue 21:
 * the report's op class tables print no more; tests/unit/test_corrout.c
 * checks every statistic they print). */
int stats_compute_lean(struct stats_summary *out, const double *model,
		       const double *ref, const double *ref_sd, size_t n);

/* Only n, MAPE, bias and Pearson r over model[i * stride],
 * ref[i * stride] for the i < n with keep[i] set (keep NULL = all), in
 * one plain pass with no scratch (stats_compute's definitions; its
 * compensated sums make the two agree to about 1e-12 relative): for a
 * header that follows the keyboard. Other fields are NaN. */
int stats_basic(struct stats_summary *out, const double *model,
		const double *ref, size_t stride, const unsigned char *keep,
		size_t n);

/* A summary over several metrics keeps only the dimensionless error
 * statistics and counts: correlations, fit, RMSE, NRMSE, agg_err, the
 * limits of agreement and efficiency become NaN for STATS_WHY_METRICS. */
void stats_null_mixed(struct stats_summary *s);

/* A summary over metrics of opposite better direction (a time and a
 * rate): bias and geomean_ratio, whose signs mean opposite things for
 * the two (a model 10% optimistic on both reads +10% and -10%) and
 * cancel, become NaN for STATS_WHY_DIRECTION, with their intervals
 * (issue 34): per metric only. */
void stats_null_direction(struct stats_summary *s);

/* Signed relative error (m - r) / |r|; NaN when r == 0. On |r|: a
 * negative reference (a signed metric) keeps the sign of m - r (> 0:
 * the model is above the reference). */
double stats_err(double m, double r);

/* |e| at most this is no error: not "over" nor "under" (the rounding of
 * an exact model converted from cycles is 1e-16). */
#define STATS_TIE_REL 1e-12
/* A deviation from the median error below this (one point of error) is
 * never an outlier, whatever the MAD. */
#define STATS_OUTLIER_FLOOR 0.01

/* Building blocks, exposed for tests and the explain command. */
double stats_pearson(const double *x, const double *y, size_t n);
double stats_spearman(const double *x, const double *y, size_t n);
/* The average ranks of x[0..n) (1-based, ties share their mean rank, as
 * scipy's rankdata) into rank. */
void stats_ranks(const double *x, size_t n, double *rank);
/* Kendall tau-b in O(n log n) (Knight's algorithm), ties handled. */
double stats_kendall_tau_b(const double *x, const double *y, size_t n);
/* The same, and into *p (may be NULL) its two-sided p-value: exact for
 * n <= STATS_KENDALL_EXACT_N without ties (stats_kendall_p_exact), else
 * the normal approximation of S = concordant - discordant with the
 * tie-corrected variance (Kendall 1970; scipy.stats.kendalltau
 * method='asymptotic'). Pair-level: it counts every pair as independent
 * (docs/statistics.md). */
double stats_kendall(const double *x, const double *y, size_t n, double *p);
#define STATS_KENDALL_EXACT_N 50
/* 2 P(D <= c), at most 1, D the inversions of a uniform permutation of
 * n (scipy.stats.kendalltau method='exact'); c = min(discordant,
 * concordant pairs). */
double stats_kendall_p_exact(size_t n, uint64_t c);

/* The relative weights 1 / (tau^2 + b^2 se^2) of the weighted fit f
 * (its tau2 and slope; every se > 0; docs/statistics.md, "fit") into
 * w[0..n), without searching tau^2 again. */
void stats_fit_weights(const struct stats_fit *f, const double *ref_se,
		       size_t n, double *w);

#endif
