/*
 * The workload bootstrap of the correlations and agreement statistics
 * (issue 34; src/stats_ci_int.h, docs/statistics.md, "What each interval
 * resamples"): Pearson on values and logs, Spearman, Lin's concordance
 * on values and logs, the Bland-Altman limits, the fit's slope and
 * intercept, Deming's (intercept, slope) for its joint test and the
 * proportional bias for its p, each recomputed on the same resamples of
 * workloads as MAPE (the same rows of counts, read once).
 *
 * Each is a function of the first and second moments of a pair of
 * series, so a resample needs, per workload, five sums of each pair of
 * series (u, v, uu, vv, uv) and the count of its pairs: the series are
 * centred at the sample's means and scaled by their largest deviation
 * (no cancellation, no overflow), (ref, model) on values, on logs, on
 * the sample's average ranks (Spearman: the ranks are not recomputed per
 * resample, the usual bootstrap of a rank correlation's sampling
 * variance), and with the fit's weights when it is weighted. A resample's
 * totals are then sum_c w_c x sums_c, O(workloads) whatever the pairs.
 */
#include "src/stats/stats_ci_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "src/stats/stats_agree.h"
#include "base/util.h"

#define LOA_Z 1.96

/* Resamples whose statistic is undefined (a resample whose series is
 * constant) are left out; below this fraction defined the interval is
 * not computed. */
#define MOM_MIN_DEFINED 0.9

static double kmean(const double *v, size_t n, size_t stride)
{
	double s = 0, c = 0;

	for (size_t i = 0; i < n; i++) {
		double x = v[i * stride], t = s + x;

		c += fabs(s) >= fabs(x) ? (s - t) + x : (x - t) + s;
		s = t;
	}
	return (s + c) / (double)n;
}

/* Centre and scale of x[0..n): the mean and the largest deviation (1
 * when x is constant: its sums are then 0 and the statistics NaN). */
static void centre(const double *x, size_t n, double *m, double *sc)
{
	double d = 0;

	*m = kmean(x, n, 1);
	for (size_t i = 0; i < n; i++)
		d = fmax(d, fabs(x[i] - *m));
	*sc = d > 0 && isfinite(d) ? d : 1;
}

/* Add pair (x, y) with weight w to the five sums at t. */
static inline void add5(double *t, double u, double v, double w)
{
	t[0] += w * u;
	t[1] += w * v;
	t[2] += w * u * u;
	t[3] += w * v * v;
	t[4] += w * u * v;
}

/* Group g of the sums, for series x (ref) and y (model) over the pairs. */
static void fill(struct ci_mom *m, int g, const double *x, const double *y,
		 const double *w, const uint32_t *cl, size_t n)
{
	struct ci_mgrp *G = &m->g[g];

	if (w) {
		/* weighted means */
		double sw = 0, sx = 0, sy = 0, dx = 0, dy = 0;

		for (size_t i = 0; i < n; i++) {
			sw += w[i];
			sx += w[i] * x[i];
			sy += w[i] * y[i];
		}
		G->mx = sx / sw;
		G->my = sy / sw;
		for (size_t i = 0; i < n; i++) {
			dx = fmax(dx, fabs(x[i] - G->mx));
			dy = fmax(dy, fabs(y[i] - G->my));
		}
		G->sx = dx > 0 ? dx : 1;
		G->sy = dy > 0 ? dy : 1;
	} else {
		centre(x, n, &G->mx, &G->sx);
		centre(y, n, &G->my, &G->sy);
	}
	for (size_t i = 0; i < n; i++) {
		double *t = m->sum + (size_t)cl[i] * m->K;

		add5(t + G->off, (x[i] - G->mx) / G->sx,
		     (y[i] - G->my) / G->sy, w ? w[i] : 1);
		if (w)
			t[m->wtot] += w[i];
	}
}

int stats_cimom_wanted(const struct stats_summary *s)
{
	return isfinite(s->pearson) || isfinite(s->ccc) ||
	       isfinite(s->fit.slope) || isfinite(s->deming.slope) ||
	       isfinite(s->pearson_log) || isfinite(s->ccc_log) ||
	       isfinite(s->loa_low) || isfinite(s->prop_bias_slope) ||
	       isfinite(s->spearman);
}

int stats_cimom_prepare(struct ci_mom *m, const struct stats_summary *s,
			const double *model, const double *ref,
			const double *ref_se, const uint32_t *cl, size_t n,
			size_t nw, unsigned nb)
{
	int val = isfinite(s->pearson) || isfinite(s->ccc) ||
		  isfinite(s->fit.slope) || isfinite(s->deming.slope);
	int lg = isfinite(s->pearson_log) || isfinite(s->ccc_log) ||
		 isfinite(s->loa_low) || isfinite(s->prop_bias_slope);
	int rk = isfinite(s->spearman);
	int wf = isfinite(s->fit.slope) && s->fit.weighted && ref_se;
	size_t K = 1;

	memset(m, 0, sizeof(*m));
	for (int g = 0; g < MOM_NGRP; g++)
		m->g[g].off = 0;
	if (!val && !lg && !rk)
		return 0;
	m->on = 1;
	m->nb = nb;
	m->nw = nw;
	m->has[MOM_VAL] = val;
	m->has[MOM_LOG] = lg;
	m->has[MOM_RANK] = rk;
	m->has[MOM_WFIT] = wf;
	for (int g = 0; g < MOM_NGRP; g++)
		if (m->has[g]) {
			m->g[g].off = K;
			K += 5;
		}
	if (wf)
		m->wtot = K++;	/* the weights' sum */
	/* a fixed stride (stats_cimom_rows), the unused sums 0 */
	m->K = K = MOM_MAXK;
	m->sum = xcalloc(nw * K + 1, sizeof(*m->sum));
	for (size_t i = 0; i < n; i++)
		m->sum[(size_t)cl[i] * K] += 1;
	if (val)
		fill(m, MOM_VAL, ref, model, NULL, cl, n);
	if (lg || rk || wf) {
		double *a = xmalloc((n + 1) * sizeof(*a));
		double *b = xmalloc((n + 1) * sizeof(*b));

		if (lg) {
			for (size_t i = 0; i < n; i++) {
				a[i] = log(ref[i]);
				b[i] = log(model[i]);
			}
			fill(m, MOM_LOG, a, b, NULL, cl, n);
		}
		if (rk) {
			stats_ranks(ref, n, a);
			stats_ranks(model, n, b);
			fill(m, MOM_RANK, a, b, NULL, cl, n);
		}
		if (wf) {
			stats_fit_weights(&s->fit, ref_se, n, a);
			fill(m, MOM_WFIT, ref, model, a, cl, n);
		}
		free(a);
		free(b);
	}
	if (isfinite(s->deming.slope) && val) {
		const struct ci_mgrp *G = &m->g[MOM_VAL];

		m->lam = s->deming.lambda * (G->sx / G->sy) * (G->sx / G->sy);
	}
	m->res = xmalloc((size_t)MOM_NSTAT * nb * sizeof(*m->res));
	return 1;
}

/* Moments of group G from the totals t (count W = t[0] or the weights'). */
struct m2 {
	double mu, mv, vu, vv, cuv;
};

static struct m2 moments(const double *t, double W)
{
	struct m2 r;

	r.mu = t[0] / W;
	r.mv = t[1] / W;
	r.vu = t[2] / W - r.mu * r.mu;
	r.vv = t[3] / W - r.mv * r.mv;
	r.cuv = t[4] / W - r.mu * r.mv;
	return r;
}

static double corr(const struct m2 *q)
{
	double r;

	if (!(q->vu > 0) || !(q->vv > 0))
		return NAN;
	r = q->cuv / sqrt(q->vu * q->vv);
	return fmax(-1.0, fmin(1.0, r));
}

/* Lin's concordance of group G's series (x = ref, y = model) in data
 * units over a common scale. */
static double lin(const struct ci_mgrp *G, const struct m2 *q)
{
	double S = fmax(G->sx, G->sy), fx = G->sx / S, fy = G->sy / S;
	double d = (G->mx - G->my) / S + fx * q->mu - fy * q->mv;
	double den = fx * fx * q->vu + fy * fy * q->vv + d * d;

	return den > 0 ? 2 * fx * fy * q->cuv / den : NAN;
}

static double dem_slope(double suu, double svv, double suv, double lam)
{
	double a = svv - lam * suu, d = sqrt(a * a + 4 * lam * suv * suv);

	if (suv == 0)
		return NAN;
	if (a >= 0)
		return (a + d) / (2 * suv);
	return 2 * lam * suv / (d - a);
}

/* The statistics of one resample's totals t into out[MOM_NSTAT]. */
static void stats_of(const struct ci_mom *m, const double *t, double *out)
{
	double N = t[0];

	for (int k = 0; k < MOM_NSTAT; k++)
		out[k] = NAN;
	if (m->has[MOM_VAL]) {
		const struct ci_mgrp *G = &m->g[MOM_VAL];
		struct m2 q = moments(t + G->off, N);

		out[MS_PEARSON] = corr(&q);
		out[MS_CCC] = lin(G, &q);
		if (q.vu > 0) {
			double b = (G->sy / G->sx) * q.cuv / q.vu;

			out[MS_SLOPE] = b;
			out[MS_ICPT] = (G->my + G->sy * q.mv) -
				       b * (G->mx + G->sx * q.mu);
		}
		if (m->lam > 0) {
			double b = dem_slope(q.vu, q.vv, q.cuv, m->lam);

			out[MS_DEM_B] = b;
			out[MS_DEM_A] = q.mv - b * q.mu;
		}
	}
	if (m->has[MOM_WFIT]) {
		const struct ci_mgrp *G = &m->g[MOM_WFIT];
		struct m2 q = moments(t + G->off, t[m->wtot]);

		if (q.vu > 0) {
			double b = (G->sy / G->sx) * q.cuv / q.vu;

			out[MS_SLOPE] = b;
			out[MS_ICPT] = (G->my + G->sy * q.mv) -
				       b * (G->mx + G->sx * q.mu);
		}
	}
	if (m->has[MOM_LOG]) {
		const struct ci_mgrp *G = &m->g[MOM_LOG];
		struct m2 q = moments(t + G->off, N);
		double vx = G->sx * G->sx * q.vu, vy = G->sy * G->sy * q.vv;
		double cxy = G->sx * G->sy * q.cuv;
		double md = (G->my - G->mx) + G->sy * q.mv - G->sx * q.mu;
		double vd = vx + vy - 2 * cxy, va = (vx + vy + 2 * cxy) / 4;

		out[MS_PEARSON_LOG] = corr(&q);
		out[MS_CCC_LOG] = lin(G, &q);
		if (vd >= 0 && N > 1) {
			double sd = sqrt(vd * N / (N - 1));

			out[MS_LOA_LO] = md - LOA_Z * sd;
			out[MS_LOA_HI] = md + LOA_Z * sd;
		}
		if (va > 0)
			out[MS_PROP] = (vy - vx) / 2 / va;
	}
	if (m->has[MOM_RANK]) {
		struct m2 q = moments(t + m->g[MOM_RANK].off, N);

		out[MS_SPEARMAN] = corr(&q);
	}
}

void stats_cimom_rows(struct ci_mom *m, const uint8_t *const *rows,
		      unsigned k, unsigned b0)
{
	size_t K = m->K, nw = m->nw;
	double t[STATS_CI_ROWS][MOM_MAXK];

	memset(t, 0, sizeof(t));
	if (k == STATS_CI_ROWS) {
		/* no branch on a zero count (a third of them: mispredicted)
		 * and a fixed trip count the compiler vectorises */
		const uint8_t *r0 = rows[0], *r1 = rows[1], *r2 = rows[2],
			      *r3 = rows[3];

		for (size_t c = 0; c < nw; c++) {
			const double *x = m->sum + c * K;
			double w0 = r0[c], w1 = r1[c], w2 = r2[c], w3 = r3[c];

			for (size_t q = 0; q < MOM_MAXK; q++) {
				t[0][q] += w0 * x[q];
				t[1][q] += w1 * x[q];
				t[2][q] += w2 * x[q];
				t[3][q] += w3 * x[q];
			}
		}
	} else {
		for (size_t c = 0; c < nw; c++) {
			const double *x = m->sum + c * K;

			for (unsigned j = 0; j < k; j++)
				for (size_t q = 0; q < K; q++)
					t[j][q] += rows[j][c] * x[q];
		}
	}
	for (unsigned j = 0; j < k; j++) {
		double out[MOM_NSTAT];

		stats_of(m, t[j], out);
		for (int q = 0; q < MOM_NSTAT; q++)
			m->res[(size_t)q * m->nb + b0 + j] = out[q];
	}
}

void stats_cimom_row32(struct ci_mom *m, const uint32_t *w, unsigned b)
{
	size_t K = m->K;
	double t[MOM_MAXK], out[MOM_NSTAT];

	memset(t, 0, sizeof(t));
	for (size_t c = 0; c < m->nw; c++)
		for (size_t q = 0; q < K; q++)
			t[q] += (double)w[c] * m->sum[c * K + q];
	stats_of(m, t, out);
	for (int q = 0; q < MOM_NSTAT; q++)
		m->res[(size_t)q * m->nb + b] = out[q];
}

/*
 * The interval of estimate est from its resamples v[0..nb) over nc
 * workloads (issue 34): est -+ t(G - 1) x sqrt(G / (G - 1)) x the
 * bootstrap's standard deviation, on the atanh scale for a correlation
 * (z: its sampling distribution is near normal there, the percentiles'
 * is skewed), G = nc: the cluster-robust variance's small-sample
 * correction and degrees of freedom (Cameron and Miller 2015). NaN when
 * fewer than MOM_MIN_DEFINED of the resamples are defined.
 */
static void wald(struct stats_ci *ci, double est, const double *v,
		 size_t nb, double level, size_t nc, int z)
{
	double m = 0, ss = 0, e, h, g = (double)nc;
	size_t k = 0;

	ci->lo = ci->hi = NAN;
	if (nc < 3 || !isfinite(est))
		return;
	if (z && fabs(est) >= 1) {
		ci->lo = ci->hi = est;
		return;
	}
	for (size_t i = 0; i < nb; i++) {
		double x = z ? atanh(fmax(-1 + 1e-15, fmin(1 - 1e-15, v[i]))) :
			   v[i];

		if (isfinite(v[i]) && isfinite(x)) {
			m += x;
			k++;
		}
	}
	if ((double)k < MOM_MIN_DEFINED * (double)nb || k < 3)
		return;
	m /= (double)k;
	for (size_t i = 0; i < nb; i++) {
		double x = z ? atanh(fmax(-1 + 1e-15, fmin(1 - 1e-15, v[i]))) :
			   v[i];

		if (isfinite(v[i]) && isfinite(x))
			ss += (x - m) * (x - m);
	}
	e = z ? atanh(est) : est;
	h = gsl_cdf_tdist_Pinv((1 + level) / 2, g - 1) *
	    sqrt(ss / (double)(k - 1) * g / (g - 1));
	ci->lo = z ? tanh(e - h) : e - h;
	ci->hi = z ? tanh(e + h) : e + h;
}

/* The bootstrap covariance of the finite pairs (x_b, y_b). */
static int cov2(const double *x, const double *y, size_t nb, double *cxx,
		double *cyy, double *cxy)
{
	double mx = 0, my = 0;
	size_t k = 0;

	for (size_t i = 0; i < nb; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			mx += x[i];
			my += y[i];
			k++;
		}
	if ((double)k < MOM_MIN_DEFINED * (double)nb || k < 3)
		return 0;
	mx /= (double)k;
	my /= (double)k;
	*cxx = *cyy = *cxy = 0;
	for (size_t i = 0; i < nb; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			*cxx += (x[i] - mx) * (x[i] - mx);
			*cyy += (y[i] - my) * (y[i] - my);
			*cxy += (x[i] - mx) * (y[i] - my);
		}
	*cxx /= (double)(k - 1);
	*cyy /= (double)(k - 1);
	*cxy /= (double)(k - 1);
	return 1;
}

void stats_cimom_finish(struct ci_mom *m, struct stats_summary *s,
			double level, size_t nc)
{
	size_t nb = m->nb;
	double *r = m->res;
	struct stats_ci none = { NAN, NAN };
	double full[MOM_NSTAT], t[MOM_MAXK];

	if (!m->on)
		return;
	/* the sample itself: every workload once */
	memset(t, 0, sizeof(t));
	for (size_t c = 0; c < m->nw; c++)
		for (size_t q = 0; q < m->K; q++)
			t[q] += m->sum[c * m->K + q];
	stats_of(m, t, full);
	/* the Deming and proportional-bias tests read the resamples before
	 * the intervals sort them */
	if (isfinite(s->deming.slope) && m->lam > 0 && nc > 2) {
		const struct ci_mgrp *G = &m->g[MOM_VAL];
		double caa, cbb, cab, da, db, det, w;

		s->deming.p_identity = NAN;
		s->why[SF_DEMING_P] = STATS_WHY_EXACT;
		if (cov2(r + (size_t)MS_DEM_A * nb, r + (size_t)MS_DEM_B * nb,
			 nb, &caa, &cbb, &cab)) {
			da = full[MS_DEM_A] - (G->mx - G->my) / G->sy;
			db = full[MS_DEM_B] - G->sx / G->sy;
			det = caa * cbb - cab * cab;
			if (det > 1e-24 * caa * cbb && caa > 0 && cbb > 0) {
				double g1 = (double)(nc - 1);

				w = (da * da * cbb - 2 * da * db * cab +
				     db * db * caa) / det;
				s->deming.p_identity = pow(1 + w / g1, -g1 / 2);
				s->why[SF_DEMING_P] = NULL;
			}
		}
	}
	if (isfinite(s->prop_bias_slope) && isfinite(s->prop_bias_p) &&
	    nc > 2) {
		double c, d2, e;

		s->prop_bias_p = NAN;
		if (cov2(r + (size_t)MS_PROP * nb, r + (size_t)MS_PROP * nb, nb,
			 &c, &d2, &e) && c > 0)
			s->prop_bias_p = stats_t_p2(s->prop_bias_slope /
						    sqrt(c), (double)(nc - 1));
		if (isnan(s->prop_bias_p))
			s->why[SF_PROP_BIAS_P] = STATS_WHY_EXACT;
	}
#define IV(ci, est, k, z) do { \
		if (isfinite(est)) \
			wald(&s->ci, est, r + (size_t)(k) * nb, nb, level, nc, \
			     z); \
	} while (0)
	IV(pearson_ci, s->pearson, MS_PEARSON, 1);
	IV(pearson_log_ci, s->pearson_log, MS_PEARSON_LOG, 1);
	IV(spearman_ci, s->spearman, MS_SPEARMAN, 1);
	IV(ccc_ci, s->ccc, MS_CCC, 1);
	IV(ccc_log_ci, s->ccc_log, MS_CCC_LOG, 1);
	IV(loa_low_ci, s->loa_low, MS_LOA_LO, 0);
	IV(loa_high_ci, s->loa_high, MS_LOA_HI, 0);
	if (isfinite(s->fit.slope) && (!s->fit.weighted ||
				       m->has[MOM_WFIT])) {
		IV(fit_slope_ci, s->fit.slope, MS_SLOPE, 0);
		IV(fit_intercept_ci, s->fit.intercept, MS_ICPT, 0);
	} else if (isfinite(s->fit.slope)) {
		s->fit_slope_ci = s->fit_intercept_ci = none;
	}
#undef IV
	free(m->sum);
	free(m->res);
	memset(m, 0, sizeof(*m));
}
