#ifndef PC_SRC_STATS_AGREE_H
#define PC_SRC_STATS_AGREE_H
/*
 * Agreement statistics a method-comparison reviewer expects beside the
 * correlations (docs/statistics.md, "Agreement"): Kendall's tau-b
 * p-value, Lin's concordance (values and logs), Deming regression with
 * the joint test of slope = 1 and intercept = 0, proportional bias (the
 * Bland-Altman difference regressed on the mean), and the intervals that
 * need a confidence level: the fit's t intervals, the Bland-Altman
 * limits' intervals (Bland and Altman 1999) and Lin's z intervals.
 * Pure functions over arrays; NaN with a reason (s->why) when undefined.
 */
#include <stddef.h>

#include "src/stats/stats_summary.h"

/* The point estimates: ccc, ccc_log, deming, prop_bias. Called by
 * stats_compute on finite data with n >= 1 (ref_sd may be NULL). */
void stats_agree_compute(struct stats_summary *s, const double *model,
			 const double *ref, const double *ref_sd, size_t n);

/* The intervals at level (0 < level < 1): fit_intercept_ci,
 * fit_slope_ci, loa_low_ci, loa_high_ci, ccc_ci, ccc_log_ci. Called by
 * stats_ci_compute over the summary stats_compute made of the same
 * pairs. */
void stats_agree_ci(struct stats_summary *s, const double *model,
		    const double *ref, size_t n, double level);

/* Two-sided p of Student's t with dof degrees of freedom, accurate in
 * the far tail (regularised incomplete beta, not 1 - cdf). */
double stats_t_p2(double t, double dof);

#endif
