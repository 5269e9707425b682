/*
 * The fit of model on ref (see stats.h and docs/statistics.md): least
 * squares, weighted by the references' standard errors and the model's
 * own variance (Paule-Mandel) when every one is known; part of stats.c,
 * whose compute() calls stats_fit_line (stats_int.h).
 */
#include "src/stats/stats.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "src/stats/stats_int.h"

/*
 * model = intercept + slope * ref by (weighted) least squares, in a way
 * that stays exact across many decades and does not depend on the order
 * of the points (GSL's running-mean update does: slope 0.9 for an exact
 * slope-1 set spanning 1e-9 to 1e3). Weights 1 / (tau^2 + b^2 se^2)
 * when every se > 0 (fit_weights), taken relative to the largest (no
 * overflow); weighted means by compensated sums; deviations scaled by
 * their largest value; slope = Sxy / Sxx on the centred data. The
 * weights are relative (tau^2 is estimated), so the standard
 * errors are scaled by the residual variance s^2 = chi^2 / (n - 2):
 * se_slope = sqrt(s^2 / Sxx), se_intercept = sqrt(s^2 (1/W + xbar^2 /
 * Sxx)), W = sum of the weights (unweighted: w = 1, scipy linregress).
 * r2 = 1 - chi^2 / sum w (y - ybar_w)^2.
 */
/* The weighted means of x and of y, in one pass. */
static void wmeans(const double *x, const double *y, const double *w,
		   size_t n, double *xb, double *yb)
{
	struct ksum sw = { 0, 0 }, swx = { 0, 0 }, swy = { 0, 0 };

	for (size_t i = 0; i < n; i++) {
		kadd(&sw, w[i]);
		kadd(&swx, w[i] * x[i]);
		kadd(&swy, w[i] * y[i]);
	}
	*xb = kval(&swx) / kval(&sw);
	*yb = kval(&swy) / kval(&sw);
}

static double max_dev(const double *v, double mean, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		m = fmax(m, fabs(v[i] - mean));
	return m;
}

/* Weighted least squares of y on x about the weighted means xb, yb
 * (plain sums: the weights' search below, not the reported fit): the
 * slope, then chi^2 = sum w r^2 and *sw2r2 = sum w^2 r^2 at it. */
static double wls_slope(const double *x, const double *y, const double *w,
			size_t n, double xb, double yb)
{
	double sxx = 0, sxy = 0;

	for (size_t i = 0; i < n; i++) {
		sxx += w[i] * (x[i] - xb) * (x[i] - xb);
		sxy += w[i] * (x[i] - xb) * (y[i] - yb);
	}
	return sxy / sxx;
}

static double wls_chi2(const double *x, const double *y, const double *w,
		       size_t n, double xb, double yb, double b,
		       double *sw2r2)
{
	double a = yb - b * xb, c = 0, c2 = 0;

	for (size_t i = 0; i < n; i++) {
		double r = y[i] - a - b * x[i];

		c += w[i] * r * r;
		c2 += w[i] * w[i] * r * r;
	}
	if (sw2r2)
		*sw2r2 = c2;
	return c;
}

static double wls(const double *x, const double *y, const double *w,
		  size_t n, double *chi2, double *sw2r2)
{
	double xb, yb, b;

	wmeans(x, y, w, n, &xb, &yb);
	b = wls_slope(x, y, w, n, xb, yb);
	*chi2 = wls_chi2(x, y, w, n, xb, yb, b, sw2r2);
	return b;
}

/* The weights 1 / (t2 + b^2 u^2) into w and their means of x and y, in
 * one pass (wmeans' sums). */
static void weigh(const double *x, const double *y, const double *u,
		  size_t n, double t2, double b, double *w, double *xb,
		  double *yb)
{
	struct ksum sw = { 0, 0 }, swx = { 0, 0 }, swy = { 0, 0 };

	for (size_t i = 0; i < n; i++) {
		w[i] = 1 / (t2 + b * b * u[i] * u[i]);
		kadd(&sw, w[i]);
		kadd(&swx, w[i] * x[i]);
		kadd(&swy, w[i] * y[i]);
	}
	*xb = kval(&swx) / kval(&sw);
	*yb = kval(&swy) / kval(&sw);
}

/*
 * The weights of the weighted fit (issue 34): w_i = 1 / (tau^2 + b^2
 * se_i^2), the variance of pair i's residual when the reference's mean
 * has the standard error se_i (its stddev / sqrt(repetitions)) and the
 * model an error of its own of variance tau^2, which nothing records:
 * it is estimated as Paule and Mandel do (1982; the random-effects
 * meta-regression's estimator), the tau^2 >= 0 at which chi^2 = sum w_i
 * r_i^2 = n - 2, by Newton's method from tau^2 = 0 (chi^2 is convex and
 * decreasing in tau^2: the steps do not overshoot). Weights from se
 * alone let two precisely measured pairs decide the slope whatever the
 * model's scatter. Everything in units of max |x|, |y| (no overflow);
 * returns the weights relative to their largest.
 */
/* chi^2 at tau^2 = t2 with b and the weights of b at their fixed point
 * (b: the start, then the result); *d = sum w^2 r^2 = -dchi^2/dt2. */
static double chi2_at(const double *x, const double *y, const double *u,
		      size_t n, double t2, double *b, double *w, double *d)
{
	double xb, yb;

	/* wls at the weights of the last b until b stays put; chi^2 (a
	 * pass of its own) only at the last: the same bits as computing
	 * it every time (issue 21: the fit was 3/4 of compare's CPU) */
	weigh(x, y, u, n, t2, *b, w, &xb, &yb);
	for (int k = 0;; k++) {
		double b0 = *b;

		*b = wls_slope(x, y, w, n, xb, yb);
		if (!(fabs(*b - b0) > 1e-15 * fabs(*b)) || k == 99)
			return wls_chi2(x, y, w, n, xb, yb, *b, d);
		weigh(x, y, u, n, t2, *b, w, &xb, &yb);
	}
}

static double fit_weights(const double *ref, const double *model,
			  const double *se, size_t n, double *w)
{
	double *x = xmalloc(n * sizeof(*x)), *y = xmalloc(n * sizeof(*y));
	double *u = xmalloc(n * sizeof(*u)), S = 0, b, wmax = 0, d, dlo;
	double target = (double)(n - 2), lo = 0, hi, t2 = 0, c, clo;

	for (size_t i = 0; i < n; i++)
		S = fmax(S, fmax(fabs(ref[i]), fabs(model[i])));
	for (size_t i = 0; i < n; i++) {
		x[i] = ref[i] / S;
		y[i] = model[i] / S;
		u[i] = se[i] / S;
		w[i] = 1;
	}
	b = wls(x, y, w, n, &c, NULL);
	clo = c = chi2_at(x, y, u, n, 0, &b, w, &dlo);
	if (isfinite(c) && c > target && dlo > 0) {
		/* a bracket [lo, hi] of the root, then Newton from its low
		 * end (chi^2 convex, decreasing), bisection when a step
		 * leaves it */
		hi = (c - target) / dlo;
		for (int k = 0; k < 2000 && chi2_at(x, y, u, n, hi, &b, w,
						    &d) > target; k++)
			hi *= 2;
		for (int it = 0; it < 200; it++) {
			t2 = lo + (clo - target) / dlo;
			if (!(t2 > lo && t2 < hi))
				t2 = lo + (hi - lo) / 2;
			c = chi2_at(x, y, u, n, t2, &b, w, &d);
			if (c > target) {
				lo = t2;
				clo = c;
				dlo = d;
			} else {
				hi = t2;
			}
			if (fabs(c - target) <= 1e-15 * target ||
			    !(hi - lo > 1e-16 * hi) || !(dlo > 0))
				break;
		}
	}
	for (size_t i = 0; i < n; i++)
		wmax = fmax(wmax, w[i]);
	for (size_t i = 0; i < n; i++)
		w[i] = isfinite(wmax) && wmax > 0 ? w[i] / wmax : 1;
	free(x);
	free(y);
	free(u);
	return t2 * S * S;
}

void stats_fit_weights(const struct stats_fit *f, const double *ref_se,
		       size_t n, double *w)
{
	double wmax = 0;

	for (size_t i = 0; i < n; i++) {
		w[i] = 1 / (f->tau2 + f->slope * f->slope * ref_se[i] *
			    ref_se[i]);
		wmax = fmax(wmax, w[i]);
	}
	for (size_t i = 0; i < n; i++)
		w[i] = isfinite(wmax) && wmax > 0 ? w[i] / wmax : 1;
}

void stats_fit_line(struct stats_summary *s, const double *model,
		    const double *ref, const double *ref_sd, size_t n,
		    double *w)
{
	struct ksum sw = { 0, 0 }, sxx = { 0, 0 }, sxy = { 0, 0 },
		    syy = { 0, 0 }, chi = { 0, 0 };
	double xbar, ybar, sx, sy, b, chi2, dof;
	int weighted = ref_sd != NULL;
	double tau2 = 0;

	if (n < 3) {
		s->why[SF_FIT] = WHY_FEW;
		return;
	}
	if (is_constant(ref, n) || is_constant(model, n)) {
		s->why[SF_FIT] = WHY_CONST;
		return;
	}
	for (size_t i = 0; weighted && i < n; i++)
		if (!(ref_sd[i] > 0) || !isfinite(ref_sd[i]))
			weighted = 0;
	if (weighted)
		tau2 = fit_weights(ref, model, ref_sd, n, w);
	else
		for (size_t i = 0; i < n; i++)
			w[i] = 1;
	wmeans(ref, model, w, n, &xbar, &ybar);
	sx = max_dev(ref, xbar, n);
	sy = max_dev(model, ybar, n);
	if (!(sx > 0) || !(sy > 0) || !isfinite(sx) || !isfinite(sy)) {
		s->why[SF_FIT] = WHY_CONST;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		double dx = (ref[i] - xbar) / sx, dy = (model[i] - ybar) / sy;

		kadd(&sw, w[i]);
		kadd(&sxx, w[i] * dx * dx);
		kadd(&sxy, w[i] * dx * dy);
		kadd(&syy, w[i] * dy * dy);
	}
	if (!(kval(&sxx) > 0) || !(kval(&syy) > 0)) {
		s->why[SF_FIT] = WHY_CONST;
		return;
	}
	b = kval(&sxy) / kval(&sxx);	/* slope in units of sy / sx */
	for (size_t i = 0; i < n; i++) {
		double dx = (ref[i] - xbar) / sx, dy = (model[i] - ybar) / sy;
		double r = dy - b * dx;

		kadd(&chi, w[i] * r * r);
	}
	chi2 = fmax(0.0, kval(&chi));	/* in units of sy^2 */
	dof = (double)(n - 2);
	s->fit.slope = b * (sy / sx);
	s->fit.intercept = ybar - s->fit.slope * xbar;
	s->fit.r2 = 1.0 - chi2 / kval(&syy);
	s->fit.se_slope = (sy / sx) * sqrt(chi2 / dof / kval(&sxx));
	s->fit.se_intercept = sy * sqrt(chi2 / dof * (1.0 / kval(&sw) +
				(xbar / sx) * (xbar / sx) / kval(&sxx)));
	s->fit.weighted = weighted;
	s->fit.tau2 = tau2;
}
