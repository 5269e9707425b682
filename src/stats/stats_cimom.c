/*
 * The per-cluster sums of the correlations and agreement statistics
 * (issue 34; src/stats_ci_int.h, docs/statistics.md, "What each interval
 * resamples"): Pearson on values and logs, Spearman, Lin's concordance
 * on values and logs, the Bland-Altman limits, the fit's slope and
 * intercept, Deming's (intercept, slope) for its joint test and the
 * proportional bias for its p are each a function of the first and
 * second moments of a pair of series, so the statistic of any set of
 * clusters needs, per workload (and per op, two-way), five sums of each
 * pair of series (u, v, uu, vv, uv) and the count of its pairs: the
 * series are centred at the sample's means and scaled by their largest
 * deviation (no cancellation, no overflow), (ref, model) on values, on
 * logs, on the sample's average ranks (Spearman: a leave-one-out
 * sample's re-ranking is what stats_cirank.c adds per cluster), and
 * with the fit's weights when it is weighted. The statistic of a
 * subset is that of its totals (stats_cimom_of): the jackknives of
 * stats_cijack.c take one cluster's sums off the totals, O(clusters).
 * Two-way, each pair's sums less its workload's and op's means (the
 * residual) give the pairs' term of the two-way variance.
 */
#include "src/stats/stats_ci_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define LOA_Z 1.96

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

/* Group g of the sums, for series x (ref) and y (model) over the pairs
 * of clusters c. */
static void fill(struct ci_mom *m, int g, const double *x, const double *y,
		 const double *w, const struct ci_clus *c)
{
	struct ci_mgrp *G = &m->g[g];
	size_t n = c->n;

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
		double *t = m->sum + (size_t)c->cl[i] * m->K;
		double u = (x[i] - G->mx) / G->sx, v = (y[i] - G->my) / G->sy;
		double wi = w ? w[i] : 1;

		add5(t + G->off, u, v, wi);
		if (w)
			t[m->wtot] += wi;
		if (c->ocl) {
			t = m->osum + (size_t)c->ocl[i] * m->K;
			add5(t + G->off, u, v, wi);
			if (w)
				t[m->wtot] += wi;
		}
	}
}

/*
 * Two-way: the residual term of group g, sum over the pairs of r r'
 * where r = s_i - s_w - s_o + s, s_i the pair's six sums (its count or
 * weight, then u, v, uu, vv, uv, weighted), s_w and s_o the means of
 * its workload's and its op's pairs, s the mean of all: the part of a
 * pair's influence neither its workload nor its op shares, what both
 * V_w and V_o count (stats_cijack.c takes it off once).
 */
static void resid(struct ci_mom *m, int g, const double *x, const double *y,
		  const double *w, const struct ci_clus *c)
{
	const struct ci_mgrp *G = &m->g[g];
	size_t K = m->K, i0 = g == MOM_WFIT ? m->wtot : 0, at[MOM_RES];
	double tot[MOM_RES] = { 0 }, N = 0, (*R)[MOM_RES] = m->res[g];

	at[0] = i0;
	for (int j = 1; j < MOM_RES; j++)
		at[j] = G->off + (size_t)j - 1;
	for (size_t k = 0; k < c->nw; k++) {
		N += m->sum[k * K];
		for (int j = 0; j < MOM_RES; j++)
			tot[j] += m->sum[k * K + at[j]];
	}
	for (size_t i = 0; i < c->n; i++) {
		const double *a = m->sum + (size_t)c->cl[i] * K;
		const double *b = m->osum + (size_t)c->ocl[i] * K;
		double u = (x[i] - G->mx) / G->sx, v = (y[i] - G->my) / G->sy;
		double wi = w ? w[i] : 1, r[MOM_RES];
		double s[MOM_RES] = { wi, wi * u, wi * v, wi * u * u,
				      wi * v * v, wi * u * v };

		for (int j = 0; j < MOM_RES; j++)
			r[j] = s[j] - a[at[j]] / a[0] - b[at[j]] / b[0] +
			       tot[j] / N;
		for (int p = 0; p < MOM_RES; p++)
			for (int q = p; q < MOM_RES; q++)
				R[p][q] += r[p] * r[q];
	}
	for (int p = 0; p < MOM_RES; p++)
		for (int q = 0; q < p; q++)
			R[p][q] = R[q][p];
}

/* Group g's sums, and its residual term when two-way. */
static void group(struct ci_mom *m, int g, const double *x, const double *y,
		  const double *w, const struct ci_clus *c)
{
	fill(m, g, x, y, w, c);
	if (c->ocl)
		resid(m, g, x, y, w, c);
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
			const double *ref_se, const struct ci_clus *c)
{
	int val = isfinite(s->pearson) || isfinite(s->ccc) ||
		  isfinite(s->fit.slope) || isfinite(s->deming.slope);
	int lg = isfinite(s->pearson_log) || isfinite(s->ccc_log) ||
		 isfinite(s->loa_low) || isfinite(s->prop_bias_slope);
	int rk = isfinite(s->spearman);
	int wf = isfinite(s->fit.slope) && s->fit.weighted && ref_se;
	size_t K = 1, n = c->n;

	memset(m, 0, sizeof(*m));
	if (!val && !lg && !rk)
		return 0;
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
	/* a fixed stride, the unused sums 0 */
	m->K = K = MOM_MAXK;
	m->sum = xcalloc(c->nw * K + 1, sizeof(*m->sum));
	for (size_t i = 0; i < n; i++)
		m->sum[(size_t)c->cl[i] * K] += 1;
	if (c->ocl) {
		m->osum = xcalloc(c->no * K + 1, sizeof(*m->osum));
		for (size_t i = 0; i < n; i++)
			m->osum[(size_t)c->ocl[i] * K] += 1;
	}
	if (val)
		group(m, MOM_VAL, ref, model, NULL, c);
	if (lg || rk || wf) {
		double *a = xmalloc((n + 1) * sizeof(*a));
		double *b = xmalloc((n + 1) * sizeof(*b));

		if (lg) {
			for (size_t i = 0; i < n; i++) {
				a[i] = log(ref[i]);
				b[i] = log(model[i]);
			}
			group(m, MOM_LOG, a, b, NULL, c);
		}
		if (rk) {
			stats_ranks(ref, n, a);
			stats_ranks(model, n, b);
			group(m, MOM_RANK, a, b, NULL, c);
		}
		if (rk && c->nc > 2) {	/* the intervals need 3 */
			m->rk = xmalloc((c->nw + 1) * 5 * sizeof(*m->rk));
			if (c->ocl)
				m->ork = xmalloc((c->no + 1) * 5 *
						 sizeof(*m->ork));
			stats_cirank_loo(ref, model, n, &m->g[MOM_RANK], c->cl,
					 c->nw, m->rk, c->ocl, c->no, m->ork);
		}
		if (wf) {
			stats_fit_weights(&s->fit, ref_se, n, a);
			group(m, MOM_WFIT, ref, model, a, c);
		}
		free(a);
		free(b);
	}
	if (isfinite(s->deming.slope) && val) {
		const struct ci_mgrp *G = &m->g[MOM_VAL];

		m->lam = s->deming.lambda * (G->sx / G->sy) * (G->sx / G->sy);
	}
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

void stats_cimom_of(const struct ci_mom *m, const double *t, double *out)
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
		out[MS_LMEAN] = md;
		if (vd >= 0 && N > 1) {
			double sd = sqrt(vd * N / (N - 1));

			out[MS_LOA_LO] = md - LOA_Z * sd;
			out[MS_LOA_HI] = md + LOA_Z * sd;
			out[MS_LSD] = sd > 0 ? log(sd) : NAN;
		}
		if (va > 0)
			out[MS_PROP] = (vy - vx) / 2 / va;
	}
	if (m->has[MOM_RANK]) {
		struct m2 q = moments(t + m->g[MOM_RANK].off, N);

		out[MS_SPEARMAN] = corr(&q);
	}
}
