/*
 * The clustered intervals of MAPE, bias and the geomean, and the sums
 * they and the median's bootstrap read (issue 34; src/stats_ci_int.h,
 * docs/statistics.md, "What each interval resamples"): per-cluster
 * error sums, their two-way residual term, the t intervals of the
 * jackknife variances (stats_cijack.c), the median's arms widened,
 * whether ops are crossed with workloads.
 */
#include "src/stats/stats_ci_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "base/util.h"

/* est's t interval from its variance parts v (one- or two-way), on the
 * log scale when lg (a positive statistic, skewed: MAPE, the geomean). */
void stats_ci_wald(struct stats_ci *ci, double est, const struct ci_var *v,
		   int two, double level, int lg)
{
	double var, df, h;

	ci->lo = ci->hi = NAN;
	stats_ci_var(v, two, &var, &df);
	if (!isfinite(est) || !isfinite(var))
		return;
	if (lg && est == 0 && var == 0) {
		ci->lo = ci->hi = 0;
		return;
	}
	h = gsl_cdf_tdist_Pinv((1 + level) / 2, df) * sqrt(var);
	ci->lo = lg ? est * exp(-h) : est - h;
	ci->hi = lg ? est * exp(h) : est + h;
}

/* The arms of the percentile interval ci around est scaled by f, on
 * the log scale when both ends are positive. */
void stats_ci_widen(struct stats_ci *ci, double est, double f)
{
	if (ci->lo > 0 && est > 0) {
		ci->lo = est * pow(ci->lo / est, f);
		ci->hi = est * pow(ci->hi / est, f);
	} else {
		ci->lo = est - f * (est - ci->lo);
		ci->hi = est + f * (ci->hi - est);
	}
}

/* Ops found in at least 2 workloads: stats_change's rule of a crossed
 * design (two-way when STATS_CHANGE_MIN_OPS or more). */
size_t stats_ci_crossed_ops(const uint32_t *cl, const uint32_t *ocl,
			    size_t n, size_t no)
{
	uint32_t *first = xmalloc(no * sizeof(*first));
	uint8_t *many = xcalloc(no, 1);
	size_t k = 0;

	for (size_t o = 0; o < no; o++)
		first[o] = UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		uint32_t o = ocl[i];

		if (first[o] == UINT32_MAX)
			first[o] = cl[i];
		else if (first[o] != cl[i])
			many[o] = 1;
	}
	for (size_t o = 0; o < no; o++)
		k += many[o];
	free(first);
	free(many);
	return k;
}

void stats_ci_wsums_alloc(struct wsums *x, size_t nw)
{
	x->cnt = xcalloc(nw, sizeof(*x->cnt));
	x->mcnt = xcalloc(nw, sizeof(*x->mcnt));
	x->sabs = xcalloc(nw, sizeof(*x->sabs));
	x->serr = xcalloc(nw, sizeof(*x->serr));
	x->slog = xcalloc(nw, sizeof(*x->slog));
}

void stats_ci_wsums_free(struct wsums *x)
{
	free(x->cnt);
	free(x->mcnt);
	free(x->sabs);
	free(x->serr);
	free(x->slog);
	memset(x, 0, sizeof(*x));
}

/* The error sums of the pairs per cluster c[i] into x. */
void stats_ci_wsums_fill(struct wsums *x, const double *model,
			 const double *ref, const uint32_t *c, size_t n,
			 int err, int geo)
{
	for (size_t i = 0; i < n; i++) {
		double e = stats_err(model[i], ref[i]);

		x->cnt[c[i]]++;
		if (err) {
			x->sabs[c[i]] += fabs(e);
			x->serr[c[i]] += e;
		}
		if (geo)
			x->slog[c[i]] += log(model[i] / ref[i]);
	}
}

/* Two-way: the error variances' pairs term, the sums of squares of each
 * pair's |e|, e and ln(m / r) less its workload's and op's means. */
static void err_resid(const struct wsums *w, const struct wsums *o,
		      const double *model, const double *ref,
		      const uint32_t *cl, const uint32_t *ocl, size_t n,
		      int geo, double *r2)
{
	double N = 0, A = 0, E = 0, L = 0;

	for (size_t i = 0; i < n; i++) {
		N += 1;
		A += fabs(stats_err(model[i], ref[i]));
		E += stats_err(model[i], ref[i]);
		L += geo ? log(model[i] / ref[i]) : 0;
	}
	r2[0] = r2[1] = r2[2] = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t c = cl[i], q = ocl[i];
		double e = stats_err(model[i], ref[i]), nw = w->cnt[c];
		double no = o->cnt[q], r;

		r = fabs(e) - w->sabs[c] / nw - o->sabs[q] / no + A / N;
		r2[0] += r * r;
		r = e - w->serr[c] / nw - o->serr[q] / no + E / N;
		r2[1] += r * r;
		if (geo) {
			r = log(model[i] / ref[i]) - w->slog[c] / nw -
			    o->slog[q] / no + L / N;
			r2[2] += r * r;
		}
	}
}

/* The clustered variances other than the bootstrap's (stats_cijack.c):
 * the moments' intervals into s, the error statistics' parts into
 * cs->ev. cl in the row's numbering (cs->nw rows). */
void stats_ci_jackknives(struct ci_sum *cs, const double *model,
			 const double *ref, const double *ref_se,
			 const uint32_t *cl, const uint32_t *ocl, size_t no,
			 size_t n)
{
	struct ci_clus c = { cl, ocl, n, cs->nw, no, cs->nc };
	struct ci_mom mom;
	struct wsums ow;
	double r2[3] = { NAN, NAN, NAN };

	if (stats_cimom_prepare(&mom, cs->s, model, ref, ref_se, &c))
		stats_cimom_finish(&mom, cs->s, &c, cs->level);
	if (!cs->do_err && !cs->do_geo)
		return;
	memset(&ow, 0, sizeof(ow));
	if (ocl) {
		stats_ci_wsums_alloc(&ow, no);
		stats_ci_wsums_fill(&ow, model, ref, ocl, n, cs->do_err,
				    cs->do_geo);
		err_resid(&cs->ws, &ow, model, ref, cl, ocl, n, cs->do_geo,
			  r2);
	}
	stats_ci_errvar(&cs->ws, cs->nw, ocl ? &ow : NULL, no, r2, cs->ev);
	stats_ci_wsums_free(&ow);
}

