/*
 * Error statistics (see stats.h and docs/statistics.md). Every statistic
 * follows ../shared/DOMAIN.md literally; undefined ones are NaN with a
 * static reason in why[]. GSL does the sorting, quantiles and fits.
 * Here: the summary (location and spread of the errors, their counts,
 * the log ratios, RMSE) and compute(), which calls the correlations
 * (stats_corr.c) and the fit (stats_fit.c) through stats_int.h.
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
#include "src/stats/stats_int.h"
#include "base/util.h"

#define LOA_Z 1.96
#define MAD_K 3.0
#define MAD_SCALE 1.4826
#define MEANAD_SCALE 1.2533

double stats_err(double m, double r)
{
	return r == 0 ? NAN : (m - r) / fabs(r);
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

static int all_finite(const double *model, const double *ref, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(model[i]) || !isfinite(ref[i]))
			return 0;
	return 1;
}

/* kendall 0: Spearman alone (stats_spearman: the same ranks, hence the
 * same number, as stats_rank_correlations), no Kendall. */
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
		stats_rank_correlations(model, ref, n, &s->spearman,
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
		stats_fit_line(&s, model, ref, ref_sd, n, a);
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
