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

/* Slots in stats_summary.why: room for every enum stats_field (checked
 * below). The pair cache stores exactly this many reasons per summary
 * (src/pairidx_build.c), so changing it changes the cache's layout. */
#define STATS_NWHY 32

struct stats_ci {
	double lo, hi;
};

struct stats_fit {
	double intercept, slope, r2, se_intercept, se_slope;
	int weighted;		/* 1 when weighted by 1/ref_sd^2 */
};

/* Why a statistic of a summary over several metrics is null; why a
 * roofline's efficiency is for a metric that is not a time or rate. */
extern const char STATS_WHY_METRICS[];
extern const char STATS_WHY_NOTSOL[];
/* Reasons shared with src/stats_agree.c. */
extern const char STATS_WHY_FEW[];		/* fewer than 3 pairs */
extern const char STATS_WHY_CONST[];		/* a series is constant */
extern const char STATS_WHY_NONPOS[];		/* a value <= 0 */
extern const char STATS_WHY_NOTFINITE[];
extern const char STATS_WHY_UNCORR[];		/* covariance exactly 0 */
extern const char STATS_WHY_EXACT[];		/* no residual to test */
extern const char STATS_WHY_FEWPAIRS[];		/* see stats_summary */

/* Deming regression model = intercept + slope * ref (src/stats_agree.c). */
struct stats_deming {
	double intercept, slope;
	double lambda;		/* error variance of model / of ref */
	double p_identity;	/* joint test of slope 1, intercept 0 */
	int lambda_known;	/* 1: from the reference's stddev; 0: 1 */
};

struct stats_summary {
	long n;
	double mape, bias;
	double median_abs_err, p90_abs_err, p95_abs_err, max_abs_err;
	double geomean_ratio, agg_err, rpd, rmse, nrmse;
	long within_1pct, within_5pct, within_10pct, under, over;
	double pearson, pearson_log, spearman, kendall_tau_b;
	struct stats_fit fit;	/* model = intercept + slope * ref */
	double loa_low, loa_high;	/* Bland-Altman on ln(model/ref) */
	long outliers;		/* MAD rule, k = 3 */
	long excluded_noisy;	/* filled by the correlation core */
	long sol_violations;	/* filled by the correlation core */
	/* Filled by the correlation core (docs/statistics.md): pairs left
	 * out for a zero reference; pairs whose model predicts better /
	 * worse than the reference (by each metric's better direction);
	 * the fraction of speed of light a roofline model says the
	 * reference reaches (NaN unless a roofline and one time or rate
	 * metric). */
	long excluded_zero_ref, optimistic, pessimistic;
	double efficiency;
	/* Bootstrap confidence intervals (src/stats_ci.h; NaN unless
	 * computed), and the distinct workloads they resampled (0 when not
	 * computed). */
	struct stats_ci mape_ci, bias_ci, median_abs_err_ci, geomean_ratio_ci;
	long workloads;
	/* Fisher-z intervals of the correlations (stats_ci_compute). */
	struct stats_ci pearson_ci, pearson_log_ci, spearman_ci;
	/* Agreement (src/stats_agree.h; issue 19): Kendall's p (two-sided,
	 * normal approximation with ties); the fit's t intervals and the
	 * Bland-Altman limits' intervals (stats_ci_compute); Lin's
	 * concordance on values and logs with its interval; Deming; the
	 * proportional bias (slope of ln(m/r) on the mean log, its p). */
	double kendall_p;
	struct stats_ci fit_intercept_ci, fit_slope_ci;
	struct stats_ci loa_low_ci, loa_high_ci;
	double ccc, ccc_log;
	struct stats_ci ccc_ci, ccc_log_ci;
	struct stats_deming deming;
	double prop_bias_slope, prop_bias_p;
	/* MAPE over the pairs the noisy-reference exclusion left out too
	 * (filled by the correlation core; = mape when it removed none). */
	double mape_with_noisy;
	/* Set by the caller: the pairs a statistic should rest on (the
	 * policy's min_pairs or --min-pairs; 0 = no such rule). n below it
	 * marks the summary "few pairs" (stats_few_pairs). */
	long min_pairs;
	/* Why a statistic is NaN: a static string or NULL, indexed by
	 * enum stats_field (see stats_why). */
	const char *why[STATS_NWHY];
};

enum stats_field {
	SF_MAPE, SF_BIAS, SF_ABS_ERR, SF_GEOMEAN, SF_AGG_ERR, SF_RPD, SF_RMSE,
	SF_NRMSE, SF_PEARSON, SF_PEARSON_LOG, SF_SPEARMAN, SF_KENDALL, SF_FIT,
	SF_LOA, SF_OUTLIERS, SF_EFFICIENCY, SF_KENDALL_P, SF_CCC, SF_CCC_LOG,
	SF_DEMING, SF_DEMING_P, SF_PROP_BIAS, SF_PROP_BIAS_P, SF_MAPE_NOISY,
	SF_COUNT
};
_Static_assert(SF_COUNT <= STATS_NWHY, "stats_summary.why holds a reason "
	       "per enum stats_field");

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

/* Reason a field is undefined, or NULL when it is defined. */
const char *stats_why(const struct stats_summary *s, enum stats_field f);
/* The static reason string equal to text (a reason read back from the
 * pair cache), "undefined" when unknown, NULL for NULL. */
const char *stats_why_static(const char *text);

/* Signed relative error (m - r) / r; NaN when r == 0. */
double stats_err(double m, double r);

/* Building blocks, exposed for tests and the explain command. */
double stats_pearson(const double *x, const double *y, size_t n);
double stats_spearman(const double *x, const double *y, size_t n);
/* Kendall tau-b in O(n log n) (Knight's algorithm), ties handled. */
double stats_kendall_tau_b(const double *x, const double *y, size_t n);
/* The same, and into *p (may be NULL) its two-sided p-value: the normal
 * approximation of S = concordant - discordant with the tie-corrected
 * variance (Kendall 1970; scipy.stats.kendalltau method='asymptotic'). */
double stats_kendall(const double *x, const double *y, size_t n, double *p);

/* 1 when s rests on fewer pairs than s->min_pairs asks for. */
int stats_few_pairs(const struct stats_summary *s);

#endif
