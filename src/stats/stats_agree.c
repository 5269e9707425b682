/*
 * Agreement statistics and the intervals that need a level (see
 * stats_agree.h and docs/statistics.md, "Agreement"). Moments are taken
 * on data centred by a compensated mean and scaled by their largest
 * deviation, as the fit of stats.c does, so 1e-100 and 1e100 values
 * neither underflow nor overflow.
 */
#include "src/stats/stats_agree.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>

#include "src/stats/stats_lin.h"
#include "base/util.h"

/* Bland-Altman's multiplier of the limits (stats.c's LOA_Z) */
#define LOA_Z 1.96
/* a residual sum of squares below this fraction of the total is the
 * rounding of an exact fit: no test statistic is made of it */
#define EXACT_REL 1e-24

static double cmean(const double *v, size_t n)
{
	double s = 0, c = 0;

	for (size_t i = 0; i < n; i++) {
		double t = s + v[i];

		c += fabs(s) >= fabs(v[i]) ? (s - t) + v[i] : (v[i] - t) + s;
		s = t;
	}
	return (s + c) / (double)n;
}

static double maxdev(const double *v, double m, size_t n)
{
	double d = 0;

	for (size_t i = 0; i < n; i++)
		d = fmax(d, fabs(v[i] - m));
	return d;
}

double stats_t_p2(double t, double dof)
{
	gsl_sf_result r;

	double x, a;

	if (!isfinite(t) || !(dof > 0))
		return NAN;
	/* I_x(a, 1/2) ~ x^a / (a B(a, 1/2)) for small x: below the
	 * smallest double it is 0 (GSL would report an underflow) */
	x = dof / (dof + t * t);
	a = dof / 2;
	if (a * log(x) - log(a) - gsl_sf_lnbeta(a, 0.5) < -700)
		return 0;
	if (gsl_sf_beta_inc_e(dof / 2, 0.5, dof / (dof + t * t), &r) !=
	    GSL_SUCCESS)
		return NAN;
	return r.val;
}

/* Centred, scaled moments of x and y: u = (x - mx) / sx, v = (y - my) /
 * sy; suu, svv, suv their sums of squares and products. */
struct mom {
	double mx, my, sx, sy, su, sv, suu, svv, suv;
};

static int moments(struct mom *m, const double *x, const double *y,
		   size_t n)
{
	m->mx = cmean(x, n);
	m->my = cmean(y, n);
	m->sx = maxdev(x, m->mx, n);
	m->sy = maxdev(y, m->my, n);
	m->su = m->sv = m->suu = m->svv = m->suv = 0;
	if (!(m->sx > 0) || !(m->sy > 0) || !isfinite(m->sx) ||
	    !isfinite(m->sy))
		return -1;
	for (size_t i = 0; i < n; i++) {
		double u = (x[i] - m->mx) / m->sx, v = (y[i] - m->my) / m->sy;

		m->su += u;
		m->sv += v;
		m->suu += u * u;
		m->svv += v * v;
		m->suv += u * v;
	}
	return 0;
}

/* Deming slope from sums of squares and products, lambda = error
 * variance of v over that of u; the root without cancellation. */
static double deming_slope(double suu, double svv, double suv, double lam)
{
	double a = svv - lam * suu, d = sqrt(a * a + 4 * lam * suv * suv);

	if (suv == 0)
		return NAN;
	if (a >= 0)
		return (a + d) / (2 * suv);
	return 2 * lam * suv / (d - a);
}

/*
 * Deming regression of model (y) on ref (x). lambda = var(model error) /
 * var(reference error): with every ref_sd > 0, the reference's error
 * variance is mean(ref_sd^2) and the model's is what is left of the
 * variance of (model - ref) beyond it (at least 0); else lambda = 1
 * (orthogonal regression). The joint test of slope = 1 and intercept =
 * 0: Wald's W = d' C^-1 d, d = estimate - (0, 1), C the leave-one-out
 * jackknife covariance of (intercept, slope) at the same lambda, and p =
 * P(F(2, n - 2) >= W / 2) = (1 + W / (n - 2))^(-(n - 2) / 2). All in
 * the centred, scaled coordinates (W is invariant under that affine map).
 */
static void deming(struct stats_summary *s, const double *model,
		   const double *ref, const double *ref_sd, size_t n)
{
	struct mom m;
	double lam, b, a, a0, b0, nn = (double)(n - 1);
	double ma = 0, mb = 0, caa = 0, cbb = 0, cab = 0, det, da, db, w;
	int known = ref_sd != NULL;
	double *ja, *jb;

	if (n < 3) {
		s->why[SF_DEMING] = s->why[SF_DEMING_P] = STATS_WHY_FEW;
		return;
	}
	if (moments(&m, ref, model, n) < 0) {
		s->why[SF_DEMING] = s->why[SF_DEMING_P] = STATS_WHY_CONST;
		return;
	}
	for (size_t i = 0; known && i < n; i++)
		if (!(ref_sd[i] > 0) || !isfinite(ref_sd[i]))
			known = 0;
	lam = 1;
	if (known) {
		/* in units of sy: vd = var(model - ref), vx = mean(sd^2) */
		double *d = xmalloc(n * sizeof(*d)), md, vd = 0, vx = 0;
		double vxu = 0;

		for (size_t i = 0; i < n; i++)
			d[i] = (model[i] - ref[i]) / m.sy;
		md = cmean(d, n);
		for (size_t i = 0; i < n; i++) {
			double q = ref_sd[i] / m.sy, qu = ref_sd[i] / m.sx;

			vd += (d[i] - md) * (d[i] - md);
			vx += q * q;
			vxu += qu * qu;
		}
		free(d);
		vd /= nn;
		vx /= (double)n;
		vxu /= (double)n;
		/* lambda in the scaled coordinates: (vy / sy^2) / (vx / sx^2) */
		lam = fmax(0.0, vd - vx) / vxu;
		if (!isfinite(lam)) {
			lam = 1;
			known = 0;
		}
	}
	if (!known)
		lam = (m.sx / m.sy) * (m.sx / m.sy);	/* 1 in data units */
	{
		double suu = m.suu - m.su * m.su / (double)n;
		double svv = m.svv - m.sv * m.sv / (double)n;
		double suv = m.suv - m.su * m.sv / (double)n;

		b = deming_slope(suu, svv, suv, lam);
	}
	if (!isfinite(b)) {
		s->why[SF_DEMING] = s->why[SF_DEMING_P] = STATS_WHY_UNCORR;
		return;
	}
	a = m.sv / (double)n - b * m.su / (double)n;
	s->deming.slope = b * m.sy / m.sx;
	s->deming.intercept = m.my + m.sy * a - s->deming.slope * m.mx;
	s->deming.lambda = lam * (m.sy / m.sx) * (m.sy / m.sx);
	s->deming.lambda_known = known;
	/* the jackknife */
	ja = xmalloc(n * sizeof(*ja));
	jb = xmalloc(n * sizeof(*jb));
	for (size_t i = 0; i < n; i++) {
		double u = (ref[i] - m.mx) / m.sx, v = (model[i] - m.my) / m.sy;
		double su = m.su - u, sv = m.sv - v;
		double suu = m.suu - u * u - su * su / nn;
		double svv = m.svv - v * v - sv * sv / nn;
		double suv = m.suv - u * v - su * sv / nn;

		jb[i] = deming_slope(suu, svv, suv, lam);
		ja[i] = sv / nn - jb[i] * su / nn;
		ma += ja[i];
		mb += jb[i];
	}
	ma /= (double)n;
	mb /= (double)n;
	for (size_t i = 0; i < n; i++) {
		caa += (ja[i] - ma) * (ja[i] - ma);
		cbb += (jb[i] - mb) * (jb[i] - mb);
		cab += (ja[i] - ma) * (jb[i] - mb);
	}
	free(ja);
	free(jb);
	caa *= nn / (double)n;
	cbb *= nn / (double)n;
	cab *= nn / (double)n;
	/* (0, 1) in the scaled coordinates */
	b0 = m.sx / m.sy;
	a0 = (m.mx - m.my) / m.sy;
	da = a - a0;
	db = b - b0;
	det = caa * cbb - cab * cab;
	if (!isfinite(det)) {
		s->why[SF_DEMING_P] = STATS_WHY_NOTFINITE;
		return;
	}
	/* leave-one-out estimates that differ only by rounding (scaled
	 * coordinates: the intercept is of order 1) are an exact fit */
	if ((sqrt(caa) <= 1e-10 && sqrt(cbb) <= 1e-10 * fabs(b)) ||
	    !(det > 1e-24 * (caa * cbb)) || !(caa > 0) || !(cbb > 0)) {
		s->why[SF_DEMING_P] = STATS_WHY_EXACT;
		return;
	}
	w = (da * da * cbb - 2 * da * db * cab + db * db * caa) / det;
	s->deming.p_identity = pow(1 + w / (double)(n - 2),
				   -(double)(n - 2) / 2);
}

/*
 * Proportional bias: the Bland-Altman difference d = ln m - ln r
 * regressed (OLS) on the mean a = (ln m + ln r) / 2; slope and the
 * two-sided p of t = slope / se with n - 2 degrees of freedom. A
 * difference that is constant to rounding has slope 0 and no p.
 */
static void prop_bias(struct stats_summary *s, const double *model,
		      const double *ref, size_t n)
{
	double *d, *a, md, ma, sdd = 0, saa = 0, sad = 0, sse, b, sd, sa;

	for (size_t i = 0; i < n; i++)
		if (!(model[i] > 0) || !(ref[i] > 0)) {
			s->why[SF_PROP_BIAS] = s->why[SF_PROP_BIAS_P] =
				STATS_WHY_NONPOS;
			return;
		}
	if (n < 3) {
		s->why[SF_PROP_BIAS] = s->why[SF_PROP_BIAS_P] = STATS_WHY_FEW;
		return;
	}
	d = xmalloc(n * sizeof(*d));
	a = xmalloc(n * sizeof(*a));
	for (size_t i = 0; i < n; i++) {
		double lm = log(model[i]), lr = log(ref[i]);

		d[i] = lm - lr;
		a[i] = 0.5 * (lm + lr);
	}
	md = cmean(d, n);
	ma = cmean(a, n);
	sa = maxdev(a, ma, n);
	sd = maxdev(d, md, n);
	{
		/* a constant reference: d and a are both ln m plus constants,
		 * so the slope is 2 whatever the model does (issue 34:
		 * slope 2, p = 1e-24): refused. d - 2 a = -2 ln r. */
		double lr0 = log(ref[0]), dev = 0;

		for (size_t i = 0; i < n; i++)
			dev = fmax(dev, fabs(log(ref[i]) - lr0));
		if (!(dev > 1e-12 * (1 + fabs(lr0)))) {
			free(d);
			free(a);
			s->why[SF_PROP_BIAS] = s->why[SF_PROP_BIAS_P] =
				STATS_WHY_REFCONST;
			return;
		}
	}
	if (!(sa > 0)) {
		free(d);
		free(a);
		s->why[SF_PROP_BIAS] = s->why[SF_PROP_BIAS_P] = STATS_WHY_CONST;
		return;
	}
	if (!(sd > 1e-12 * (1 + fabs(md)))) {
		/* model = c * ref: the difference is constant */
		free(d);
		free(a);
		s->prop_bias_slope = 0;
		s->why[SF_PROP_BIAS_P] = STATS_WHY_EXACT;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		double x = (a[i] - ma) / sa, y = (d[i] - md) / sd;

		saa += x * x;
		sdd += y * y;
		sad += x * y;
	}
	free(d);
	free(a);
	b = sad / saa;
	sse = fmax(0.0, sdd - b * sad);
	s->prop_bias_slope = b * sd / sa;
	if (!(sse > EXACT_REL * sdd)) {
		s->why[SF_PROP_BIAS_P] = STATS_WHY_EXACT;
		return;
	}
	s->prop_bias_p = stats_t_p2(b / sqrt(sse / (double)(n - 2) / saa),
				    (double)(n - 2));
}

void stats_agree_compute(struct stats_summary *s, const double *model,
			 const double *ref, const double *ref_sd, size_t n)
{
	s->ccc = stats_lin_ccc(model, ref, n);
	if (isnan(s->ccc))
		s->why[SF_CCC] = stats_why_static(stats_lin_why(model, ref, n,
								0));
	s->ccc_log = stats_lin_ccc_log(model, ref, n);
	if (isnan(s->ccc_log))
		s->why[SF_CCC_LOG] = stats_why_static(stats_lin_why(model, ref,
								    n, 1));
	deming(s, model, ref, ref_sd, n);
	prop_bias(s, model, ref, n);
}

/*
 * Lin's interval (Lin 1989, with the correction of Lin 2000): z =
 * atanh(ccc) with variance 1/(n - 2) [(1 - r^2) ccc^2 / ((1 - ccc^2)
 * r^2) + 2 ccc^3 (1 - ccc) u^2 / (r (1 - ccc^2)^2) - ccc^4 u^4 / (2 r^2
 * (1 - ccc^2)^2)], r Pearson's r, u = (mean x - mean y) / sqrt(s_x s_y),
 * moments over n; tanh(z -+ zq sqrt(var)).
 */
static void lin_ci(struct stats_ci *ci, const double *x, const double *y,
		   size_t n, double zq)
{
	struct mom m;
	double S, fx, fy, vx, vy, cxy, dm, r, c, u2, c2, v, z, h;

	if (n <= 2 || moments(&m, x, y, n) < 0)
		return;
	/* one common scale S keeps the ratios (ccc is not invariant under
	 * separate scales of x and y) */
	S = fmax(m.sx, m.sy);
	fx = m.sx / S;
	fy = m.sy / S;
	vx = fx * fx * (m.suu - m.su * m.su / (double)n) / (double)n;
	vy = fy * fy * (m.svv - m.sv * m.sv / (double)n) / (double)n;
	cxy = fx * fy * (m.suv - m.su * m.sv / (double)n) / (double)n;
	dm = (m.mx - m.my) / S + (fx * m.su - fy * m.sv) / (double)n;
	r = cxy / sqrt(vx * vy);
	c = 2 * cxy / (vx + vy + dm * dm);
	u2 = dm * dm / sqrt(vx * vy);
	if (!isfinite(c) || !isfinite(r) || r == 0 || !isfinite(u2))
		return;
	if (fabs(c) >= 1) {
		ci->lo = ci->hi = c;
		return;
	}
	c2 = c * c;
	v = ((1 - r * r) * c2 / ((1 - c2) * r * r) +
	     2 * c2 * c * (1 - c) * u2 / (r * (1 - c2) * (1 - c2)) -
	     c2 * c2 * u2 * u2 / (2 * r * r * (1 - c2) * (1 - c2))) /
	    (double)(n - 2);
	if (!(v >= 0) || !isfinite(v))
		return;
	z = atanh(c);
	h = zq * sqrt(v);
	ci->lo = tanh(z - h);
	ci->hi = tanh(z + h);
}

void stats_agree_ci(struct stats_summary *s, const double *model,
		    const double *ref, size_t n, double level)
{
	double q = (1 + level) / 2;

	if (isfinite(s->fit.slope) && n > 2) {
		double t = gsl_cdf_tdist_Pinv(q, (double)(n - 2));

		s->fit_slope_ci.lo = s->fit.slope - t * s->fit.se_slope;
		s->fit_slope_ci.hi = s->fit.slope + t * s->fit.se_slope;
		s->fit_intercept_ci.lo = s->fit.intercept -
					 t * s->fit.se_intercept;
		s->fit_intercept_ci.hi = s->fit.intercept +
					 t * s->fit.se_intercept;
	}
	if (isfinite(s->loa_low) && isfinite(s->loa_high) && n > 1) {
		/* Bland and Altman 1999, section 5.2: var(limit) = (1/n +
		 * z^2 / (2 (n - 1))) s^2, t with n - 1 degrees of freedom */
		double sd = (s->loa_high - s->loa_low) / (2 * LOA_Z);
		double se = sd * sqrt(1.0 / (double)n + LOA_Z * LOA_Z /
				      (2.0 * (double)(n - 1)));
		double t = gsl_cdf_tdist_Pinv(q, (double)(n - 1));

		s->loa_low_ci.lo = s->loa_low - t * se;
		s->loa_low_ci.hi = s->loa_low + t * se;
		s->loa_high_ci.lo = s->loa_high - t * se;
		s->loa_high_ci.hi = s->loa_high + t * se;
	}
	{
		double zq = gsl_cdf_ugaussian_Pinv(q);

		if (isfinite(s->ccc))
			lin_ci(&s->ccc_ci, ref, model, n, zq);
		if (isfinite(s->ccc_log)) {
			double *lm = xmalloc(n * sizeof(*lm));
			double *lr = xmalloc(n * sizeof(*lr));

			for (size_t i = 0; i < n; i++) {
				lm[i] = log(model[i]);
				lr[i] = log(ref[i]);
			}
			lin_ci(&s->ccc_log_ci, lr, lm, n, zq);
			free(lm);
			free(lr);
		}
	}
}
