#ifndef PC_SRC_STATS_SUMMARY_H
#define PC_SRC_STATS_SUMMARY_H
/*
 * What a summary of error statistics holds (struct stats_summary, filled
 * by stats.c, stats_agree.c and stats_ci.c) and the "why" codes: per
 * field (enum stats_field) the static reason a statistic is NaN. The
 * bottom of src/stats/: stats.h and stats_agree.h both include it, so
 * neither includes the other (issue 33). Definitions in stats_summary.c.
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
	int weighted;		/* 1 when weighted (stats_fit_weights) */
	double tau2;		/* the model's error variance the weights
				   hold (0 unweighted) */
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
extern const char STATS_WHY_REFCONST[];		/* proportional bias */
extern const char STATS_WHY_DIRECTION[];	/* see stats_null_direction */
extern const char STATS_WHY_CIFEW[];		/* see STATS_CI_MIN_WORKLOADS */

/*
 * The fewest workloads an interval needs (issue 34): with fewer, every
 * interval of a summary that resamples workloads is unknown (NaN, why
 * SF_CI = STATS_WHY_CIFEW), not a number that does not hold its level.
 * Chosen by simulation: the smallest number of workloads at which every
 * 95% interval covered at least 90% of seeded clustered studies
 * (docs/statistics.md, "How few workloads"; tests/unit/
 * test_stats_cover_few.c).
 */
#define STATS_CI_MIN_WORKLOADS 5

/* Reasons only stats.c gives (extern so that stats_why_static, beside
 * them in stats_summary.c, can map a cached reason back to its string). */
extern const char STATS_WHY_EMPTY[];		/* no pairs */
extern const char STATS_WHY_FEW2[];		/* fewer than 2 pairs */
extern const char STATS_WHY_REFZERO[];
extern const char STATS_WHY_REFNONPOS[];
extern const char STATS_WHY_SUMZERO[];
extern const char STATS_WHY_MEANZERO[];
extern const char STATS_WHY_PAIRZERO[];
extern const char STATS_WHY_EQUAL[];		/* both constant and equal */
extern const char STATS_WHY_NOTROOF[];		/* not a roofline model */

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
	/* The correlations' intervals (stats_ci_compute: clustered, or
	 * Fisher-z with one workload). */
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
	/* How the intervals and Deming's and the proportional bias's p
	 * treat the pairs (docs/statistics.md, "What each interval
	 * resamples"): 2 workloads and ops (two-way), 1 workloads of which
	 * one at least holds several pairs, 0 pair-level (Fisher-z, t,
	 * Lin's z, the jackknife over pairs: every pair independent; or
	 * one pair per workload, no op crossed). */
	int ci_clustered;
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
	SF_CI,		/* every interval: why they are all unknown */
	SF_COUNT
};
_Static_assert(SF_COUNT <= STATS_NWHY, "stats_summary.why holds a reason "
	       "per enum stats_field");

/* Reason a field is undefined, or NULL when it is defined. */
const char *stats_why(const struct stats_summary *s, enum stats_field f);
/* The static reason string equal to text (a reason read back from the
 * pair cache), "undefined" when unknown, NULL for NULL. */
const char *stats_why_static(const char *text);

/* When s's intervals are unknown for too few workloads (SF_CI), the
 * reason with the count and what would decide into buf ("only 3
 * workloads; an interval needs >= 5 (2 more would decide)") and 1;
 * else 0 (buf untouched). */
int stats_ci_unknown(const struct stats_summary *s, char *buf, size_t len);

/* 1 when s rests on fewer pairs than s->min_pairs asks for. */
int stats_few_pairs(const struct stats_summary *s);

#endif
