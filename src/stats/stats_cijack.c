/*
 * The clustered variances of the intervals (issue 34; src/stats_ci_int.h,
 * docs/statistics.md, "What each interval resamples"): delete-one
 * jackknives over workloads and ops of the moments (stats_cimom.c's
 * sums) and of the error statistics (stats_ci.c's), the pairs' residual
 * term of a two-way variance, the effective numbers of clusters, and
 * from them the moments' intervals and Deming's and the proportional
 * bias's p.
 *
 * Why a jackknife (CR3, MacKinnon, Nielsen and Webb 2023) and not the
 * workload bootstrap's standard deviation, and why the effective number
 * of clusters (Carter, Schnepel and Steigerwald 2017) and not their
 * count for the degrees of freedom: over references spanning decades,
 * Pearson, Lin's CCC and the fit's slope weigh a pair by ref^2, so a few
 * workloads hold most of the information; the bootstrap's variance then
 * falls short (it never draws beyond the sample) and t(G - 1) pretends
 * to G clusters where there are a handful. Coverage measured in
 * tests/unit/test_stats_coverage.c.
 */
#include "src/stats/stats_ci_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "src/stats/stats_agree.h"
#include "base/util.h"

/* Leave-one-out statistics undefined (a subset whose series is
 * constant) are left out; below this fraction defined, no interval. */
#define JK_MIN_DEFINED 0.9
#define LOA_Z 1.96
/* The least one less a cluster's leverage counts as (dem_cr2): a
 * cluster holding nearly all the references' spread. */
#define LEV_FLOOR 0.05

/* The effective-count weights of the moments: each statistic's share of
 * a cluster is its pairs' (LoA, the mean log ratio) or its sum of
 * squared centred references in the statistic's series. */
enum { KW_CNT, KW_VAL, KW_LOG, KW_RANK, KW_WFIT, KW_N };

/* Welford's running moments of the transformed leave-one-out values. */
struct jk {
	double mean[MOM_NSTAT], m2[MOM_NSTAT];
	size_t k[MOM_NSTAT], g;		/* defined; clusters */
	double ks[KW_N], kq[KW_N];	/* Kish: sum, sum of squares */
};

static int is_corr(int k)
{
	return k == MS_PEARSON || k == MS_PEARSON_LOG || k == MS_SPEARMAN ||
	       k == MS_CCC || k == MS_CCC_LOG;
}

/* The scale a statistic's interval is computed on: atanh for a
 * correlation (near normal there; NaN beyond -+1), else itself. */
static double fwd(int k, double v)
{
	if (!is_corr(k))
		return v;
	return fabs(v) < 1 ? atanh(v) : NAN;
}

static int group_of(const struct ci_mom *m, int k)
{
	switch (k) {
	case MS_PEARSON: case MS_CCC: case MS_DEM_A: case MS_DEM_B:
		return MOM_VAL;
	case MS_SLOPE: case MS_ICPT:
		return m->has[MOM_WFIT] ? MOM_WFIT : MOM_VAL;
	case MS_SPEARMAN:
		return MOM_RANK;
	default:
		return MOM_LOG;
	}
}

static int kw_of(const struct ci_mom *m, int k)
{
	static const int gk[MOM_NGRP] = { KW_VAL, KW_LOG, KW_RANK, KW_WFIT };

	if (k == MS_LOA_LO || k == MS_LOA_HI || k == MS_LMEAN ||
	    k == MS_LSD || k == MS_ICPT)
		return KW_CNT;
	return gk[group_of(m, k)];
}

/* The jackknife over the ng clusters' sums S (ng x K; a cluster with no
 * pair is skipped) around the totals t, the rank group's leave-one-out
 * sums re-ranked by rk (ng x 5; NULL: none); ab (NULL: not kept): each
 * cluster's leave-one-out Deming (intercept, slope), NaN where undefined
 * or skipped. */
static void jackknife(const struct ci_mom *m, const double *S, size_t ng,
		      const double *t, const double *rk, struct jk *j,
		      double *ab)
{
	size_t K = m->K;

	memset(j, 0, sizeof(*j));
	for (size_t c = 0; c < ng; c++) {
		const double *x = S + c * K;
		double tt[MOM_MAXK], out[MOM_NSTAT];
		double q[KW_N] = { x[0], 0, 0, 0, 0 };

		if (ab)
			ab[2 * c] = ab[2 * c + 1] = NAN;
		if (!(x[0] > 0))
			continue;
		j->g++;
		for (int g = 0; g < MOM_NGRP; g++)
			if (m->has[g])
				q[KW_VAL + g] = x[m->g[g].off + 2];
		for (int w = 0; w < KW_N; w++) {
			j->ks[w] += q[w];
			j->kq[w] += q[w] * q[w];
		}
		for (size_t i = 0; i < K; i++)
			tt[i] = t[i] - x[i];
		for (size_t i = 0; rk && i < 5; i++)
			tt[m->g[MOM_RANK].off + i] -= rk[5 * c + i];
		stats_cimom_of(m, tt, out);
		for (int k = 0; k < MOM_NSTAT; k++) {
			double v = fwd(k, out[k]), d;

			if (!isfinite(v))
				continue;
			d = v - j->mean[k];
			j->mean[k] += d / (double)++j->k[k];
			j->m2[k] += d * (v - j->mean[k]);
		}
		if (ab && isfinite(out[MS_DEM_A]) && isfinite(out[MS_DEM_B])) {
			ab[2 * c] = out[MS_DEM_A];
			ab[2 * c + 1] = out[MS_DEM_B];
		}
	}
}

/* The jackknife variance of statistic k: (k - 1) / k sum (v - mean)^2
 * over its k defined leave-one-out values; NaN below JK_MIN_DEFINED. */
static double jvar(const struct jk *j, int k)
{
	double d = (double)j->k[k];

	if (j->k[k] < 2 || d < JK_MIN_DEFINED * (double)j->g)
		return NAN;
	return (d - 1) / d * j->m2[k];
}

/* The square root of the symmetric 2 x 2 matrix (p, q; q, r) into R[3]
 * (R11, R12, R22), its eigenvalues floored at LEV_FLOOR. */
static void sqrt2(double p, double q, double r, double *R)
{
	double h = (p - r) / 2, d = sqrt(h * h + q * q), l1, l2, c, s2;

	l1 = (p + r) / 2 + d;
	l2 = (p + r) / 2 - d;
	/* the eigenvector of l1: (cos, sin) of half the angle of (h, q) */
	c = d > 0 ? h / d : 1;	/* cos 2 phi */
	s2 = d > 0 ? q / d : 0;	/* sin 2 phi */
	l1 = sqrt(fmax(l1, LEV_FLOOR));
	l2 = sqrt(fmax(l2, LEV_FLOOR));
	/* R = l1 v v' + l2 w w', v = (cos phi, sin phi), w = (-sin, cos) */
	R[0] = (l1 + l2) / 2 + (l1 - l2) / 2 * c;
	R[1] = (l1 - l2) / 2 * s2;
	R[2] = (l1 + l2) / 2 - (l1 - l2) / 2 * c;
}

/*
 * Deming's jackknife covariance of (intercept, slope) over the ng
 * clusters of sums S (their leave-one-out values ab, NaN: undefined),
 * each cluster's deviation from the mean shrunk by the square root of
 * one less its leverage: the bias-reduced linearisation (CR2: Bell and
 * McCaffrey 2002; Pustejovsky and Tipton 2018) where the jackknife is
 * CR3, inflated by one less the leverage itself. The leverage is that
 * of the line through the references: X = (1, u), u the centred
 * references, H_gg's 2 x 2 form S_g = A^1/2 X_g'X_g A^1/2, A = (X'X)^-1
 * = diag(1 / N, 1 / Suu); a deviation d becomes A^1/2 (I - S_g)^1/2
 * A^-1/2 d. Over references spanning decades one workload holds most
 * of Suu, and CR3 rejected 2.1% of null studies at 5% (issue 34: tests/
 * unit/test_stats_agree_null.c). cov: (aa, bb, ab), NaN when fewer
 * than JK_MIN_DEFINED of the clusters have a value.
 */
static void dem_cr2(const struct ci_mom *m, const double *S, size_t ng,
		    const double *t, const double *ab, double *cov)
{
	size_t K = m->K, off = m->g[MOM_VAL].off, k = 0, g = 0;
	double N = t[0], mu = t[off] / N, suu = t[off + 2] - t[off] * mu;
	double ma = 0, mb = 0, aa = 0, bb = 0, xy = 0, f;

	cov[0] = cov[1] = cov[2] = NAN;
	for (size_t c = 0; c < ng; c++) {
		g += S[c * K] > 0;
		if (!isfinite(ab[2 * c]))
			continue;
		k++;
		ma += ab[2 * c];
		mb += ab[2 * c + 1];
	}
	if (k < 2 || (double)k < JK_MIN_DEFINED * (double)g || !(suu > 0))
		return;
	ma /= (double)k;
	mb /= (double)k;
	for (size_t c = 0; c < ng; c++) {
		const double *x = S + c * K;
		double n = x[0], su = x[off] - n * mu, R[3], da, db, ea, eb;

		if (!isfinite(ab[2 * c]))
			continue;
		sqrt2(1 - n / N, -su / sqrt(N * suu),
		      1 - (x[off + 2] - 2 * mu * x[off] + n * mu * mu) / suu,
		      R);
		da = (ab[2 * c] - ma) * sqrt(N);
		db = (ab[2 * c + 1] - mb) * sqrt(suu);
		ea = (R[0] * da + R[1] * db) / sqrt(N);
		eb = (R[1] * da + R[2] * db) / sqrt(suu);
		aa += ea * ea;
		bb += eb * eb;
		xy += ea * eb;
	}
	f = (double)(k - 1) / (double)k;
	cov[0] = f * aa;
	cov[1] = f * bb;
	cov[2] = f * xy;
}

/* The size of sum i of totals t, for a derivative's step: a count (or
 * the weights') itself; a sum of squares or products itself; a sum of
 * centred values (near 0) the count times their standard deviation. */
static double scale(const struct ci_mom *m, const double *t, size_t i)
{
	for (int g = 0; g < MOM_NGRP; g++) {
		size_t off = m->g[g].off;
		double W = t[g == MOM_WFIT ? m->wtot : 0];

		if (!m->has[g] || i < off || i >= off + 5)
			continue;
		if (i < off + 2)	/* u or v: sqrt(W sum uu) */
			return sqrt(W * fabs(t[i + 2])) + 1e-300;
		return fabs(t[i]) + 1e-300;
	}
	return fabs(t[i]) + 1e-300;
}

/* The pairs' residual term of every statistic (two-way): J' R J of its
 * group's residual cross products R, J the gradient of the statistic's
 * transform at the totals (central differences), times (N - 1) / N,
 * N the pairs (the linearised delete-one-pair jackknife of the
 * residuals). */
static void residual(const struct ci_mom *m, const double *t,
		     const double *full, double *ve)
{
	double J[MOM_NSTAT][MOM_MAXK];
	double N = t[0], tt[MOM_MAXK], up[MOM_NSTAT], dn[MOM_NSTAT];

	memset(J, 0, sizeof(J));
	memcpy(tt, t, sizeof(tt));
	for (size_t i = 0; i < m->K; i++) {
		double h = 1e-6 * scale(m, t, i);

		if (!(h > 0))
			continue;
		tt[i] = t[i] + h;
		stats_cimom_of(m, tt, up);
		tt[i] = t[i] - h;
		stats_cimom_of(m, tt, dn);
		tt[i] = t[i];
		/* the statistic's own derivative, then atanh's (analytic:
		 * near 1 atanh is too curved for the difference) */
		for (int k = 0; k < MOM_NSTAT; k++)
			J[k][i] = (up[k] - dn[k]) / (2 * h) /
				  (is_corr(k) ? 1 - full[k] * full[k] : 1);
	}
	for (int k = 0; k < MOM_NSTAT; k++) {
		int g = group_of(m, k);
		size_t at[MOM_RES];
		double v = 0;

		if (!m->has[g])
			continue;
		at[0] = g == MOM_WFIT ? m->wtot : 0;
		for (int a = 1; a < MOM_RES; a++)
			at[a] = m->g[g].off + (size_t)a - 1;
		for (int a = 0; a < MOM_RES; a++)
			for (int b = 0; b < MOM_RES; b++)
				v += J[k][at[a]] * J[k][at[b]] *
				     m->res[g][a][b];
		ve[k] = v * (N - 1) / N;
	}
}

void stats_ci_var(const struct ci_var *v, int two_way, double *var,
		  double *df)
{
	double gw = isfinite(v->gw) ? fmin(v->gw, (double)v->nw) :
		    (double)v->nw;
	double go = isfinite(v->go) ? fmin(v->go, (double)v->no) :
		    (double)v->no;
	double dw = fmax(1, gw - 1), dgo = fmax(1, go - 1), s;

	if (!two_way) {
		*var = v->vw;
		*df = dw;
		return;
	}
	s = v->vw + v->vo;
	*var = fmax(s - (isfinite(v->ve) ? v->ve : 0), fmax(v->vw, v->vo));
	*df = s > 0 ? s * s / (v->vw * v->vw / dw + v->vo * v->vo / dgo) : dw;
	*df = fmax(1, fmin(*df, (double)(v->nw + v->no) - 2));
}

/* The interval of statistic k (estimate est, centred at c: est, or a
 * bias-corrected value) from its variance parts; NaN when undefined. */
static void interval(struct stats_ci *ci, int k, double est, double c,
		     const struct ci_var *v, int two_way, double level)
{
	double var, df, e, h;

	ci->lo = ci->hi = NAN;
	if (is_corr(k) && fabs(est) >= 1) {	/* perfect: no spread */
		ci->lo = ci->hi = est;
		return;
	}
	if (!isfinite(est) || !isfinite(v->vw) || (two_way && !isfinite(v->vo)))
		return;
	stats_ci_var(v, two_way, &var, &df);
	e = fwd(k, isfinite(fwd(k, c)) ? c : est);
	h = gsl_cdf_tdist_Pinv((1 + level) / 2, df) * sqrt(var);
	ci->lo = is_corr(k) ? tanh(e - h) : e - h;
	ci->hi = is_corr(k) ? tanh(e + h) : e + h;
}

/*
 * Deming's joint p of (intercept 0, slope 1) from the CR2 covariances
 * of its intercept and slope in scaled units (a, b) over workloads cw
 * and, two-way, ops co (aa, bb, ab; dem_cr2): C = C_w, or C_w + C_o
 * two-way (the pigeonhole bootstrap's variance, as the release-change
 * test's: with CR2 the intersection term taken off as the intervals do
 * rejected 7.1% of crossed null studies at 5%, the sum 4.7%), W = d'
 * C^-1 d, p = (1 + W / df)^(-df / 2) (F(2, df)), df the slope's (Kish's
 * effective workloads less one; two-way Satterthwaite's).
 */
static void deming_p(struct stats_summary *s, const struct ci_mom *m,
		     const double *full, const struct ci_var *vb,
		     const double *cw, const double *co, int two_way)
{
	const struct ci_mgrp *G = &m->g[MOM_VAL];
	struct ci_var v = *vb;
	double caa = cw[0], cbb = cw[1], cxy = cw[2], var, df, det, w, da, db;

	s->deming.p_identity = NAN;
	s->why[SF_DEMING_P] = STATS_WHY_EXACT;
	v.vw = cw[1];
	v.vo = co[1];
	v.ve = NAN;		/* not taken off */
	stats_ci_var(&v, two_way, &var, &df);
	if (two_way) {
		caa += co[0];
		cbb += co[1];
		cxy += co[2];
	}
	if (!isfinite(caa) || !isfinite(cbb) || !isfinite(cxy))
		return;
	da = full[MS_DEM_A] - (G->mx - G->my) / G->sy;
	db = full[MS_DEM_B] - G->sx / G->sy;
	det = caa * cbb - cxy * cxy;
	if (det > 1e-24 * caa * cbb && caa > 0 && cbb > 0) {
		w = (da * da * cbb - 2 * da * db * cxy + db * db * caa) / det;
		s->deming.p_identity = pow(1 + w / df, -df / 2);
		s->why[SF_DEMING_P] = NULL;
	}
}

/* The statistic's parts: jackknives jw, jo, residual ve. */
static struct ci_var parts(const struct ci_mom *m, int k, const struct jk *jw,
			   const struct jk *jo, const double *ve)
{
	int w = kw_of(m, k);
	struct ci_var v = { jvar(jw, k), NAN, NAN,
			    stats_ci_kish(jw->ks[w], jw->kq[w]), NAN, jw->g, 0 };

	if (jo) {
		v.vo = jvar(jo, k);
		v.ve = ve[k];
		v.go = stats_ci_kish(jo->ks[w], jo->kq[w]);
		v.no = jo->g;
	}
	return v;
}

/*
 * The limits' intervals, by the method of variance estimates recovery
 * (MOVER: Zou 2013, the Bland-Altman limits with several observations
 * per subject): a limit is m -+ z s, m the mean log ratio and s their
 * sd, each with its own interval (m -+ t sqrt V(m); s on the log scale,
 * s exp(-+ t sqrt V(ln s)): its sampling distribution is skewed, and
 * its spread follows it), combined as m + z s - sqrt((m - l_m)^2 + z^2
 * (s - l_s)^2) and + sqrt((u_m - m)^2 + z^2 (u_s - s)^2). And around
 * a bias-corrected s: the sample sd falls short of the population's by
 * the variance of the mean (E s0^2 = sigma^2 - V(m)), so s is taken as
 * sqrt(s0^2 + V(m)); the printed limits stay Bland and Altman's.
 */
static void loa(struct stats_summary *s, const struct ci_var *pm,
		const struct ci_var *pl, int two_way, double level)
{
	double N = (double)s->n, z = LOA_Z, q = (1 + level) / 2;
	double sd = (s->loa_high - s->loa_low) / (2 * z), vm, vl, dm, dl;
	double sc, am, lo, hi, c;

	s->loa_low_ci.lo = s->loa_low_ci.hi = NAN;
	s->loa_high_ci.lo = s->loa_high_ci.hi = NAN;
	if (!isfinite(pm->vw) || !isfinite(pl->vw) ||
	    (two_way && (!isfinite(pm->vo) || !isfinite(pl->vo))) || !(N > 1))
		return;
	stats_ci_var(pm, two_way, &vm, &dm);
	stats_ci_var(pl, two_way, &vl, &dl);
	sc = sqrt(sd * sd * (N - 1) / N + vm);
	am = gsl_cdf_tdist_Pinv(q, dm);
	am = am * am * vm;
	lo = sc * exp(-gsl_cdf_tdist_Pinv(q, dl) * sqrt(vl));
	hi = sc * exp(gsl_cdf_tdist_Pinv(q, dl) * sqrt(vl));
	c = z * (sc - sd);
	s->loa_high_ci.lo = s->loa_high + c - sqrt(am + z * z * (sc - lo) *
						   (sc - lo));
	s->loa_high_ci.hi = s->loa_high + c + sqrt(am + z * z * (hi - sc) *
						   (hi - sc));
	s->loa_low_ci.lo = s->loa_low - c - sqrt(am + z * z * (hi - sc) *
						 (hi - sc));
	s->loa_low_ci.hi = s->loa_low - c + sqrt(am + z * z * (sc - lo) *
						 (sc - lo));
}

void stats_cimom_finish(struct ci_mom *m, struct stats_summary *s,
			const struct ci_clus *c, double level)
{
	struct stats_ci none = { NAN, NAN };
	double t[MOM_MAXK] = { 0 }, full[MOM_NSTAT], ve[MOM_NSTAT];
	double bc[MOM_NSTAT];
	double cw[3], co[3] = { NAN, NAN, NAN }, *ab = NULL;
	struct jk *jw = xcalloc(2, sizeof(*jw)), *jo = NULL;
	int two = c->ocl != NULL;
	int dem = isfinite(s->deming.slope) && m->lam > 0 && c->nc > 2;

	for (int k = 0; k < MOM_NSTAT; k++)
		ve[k] = NAN;
	for (size_t g = 0; g < c->nw; g++)
		for (size_t q = 0; q < m->K; q++)
			t[q] += m->sum[g * m->K + q];
	stats_cimom_of(m, t, full);
	if (dem)	/* Deming's leave-one-out values, for dem_cr2 */
		ab = xmalloc((2 * (two && c->no > c->nw ? c->no : c->nw) + 2) *
			     sizeof(*ab));
	jackknife(m, m->sum, c->nw, t, m->rk, jw, ab);
	if (dem)
		dem_cr2(m, m->sum, c->nw, t, ab, cw);
	if (two) {
		jo = jw + 1;
		jackknife(m, m->osum, c->no, t, m->ork, jo, ab);
		if (dem)
			dem_cr2(m, m->osum, c->no, t, ab, co);
		residual(m, t, full, ve);
	}
	free(ab);
	/* the log-scale correlations' intervals are centred at their
	 * jackknife bias-corrected values (Quenouille: est - (G - 1)
	 * (mean of the leave-one-out values - est), over workloads and,
	 * two-way, ops): on clustered data they sit above the truth by
	 * what the sample's variance of the log ratios misses (E s0^2 =
	 * sigma^2 - V(mean)), half a standard error in the crossed design;
	 * on values, over references spanning decades, that estimate is
	 * noise (measured worse), so they keep their own centre */
	for (int k = 0; k < MOM_NSTAT; k++) {
		double f = fwd(k, full[k]);

		bc[k] = NAN;
		if (k != MS_PEARSON_LOG && k != MS_CCC_LOG)
			continue;
		bc[k] = f - (double)(jw->k[k] - 1) * (jw->mean[k] - f);
		if (jo)
			bc[k] -= (double)(jo->k[k] - 1) * (jo->mean[k] - f);
		bc[k] = tanh(bc[k]);
	}
	if (dem) {
		struct ci_var vb = parts(m, MS_DEM_B, jw, jo, ve);

		deming_p(s, m, full, &vb, cw, co, two);
	}
	if (isfinite(s->prop_bias_slope) && isfinite(s->prop_bias_p) &&
	    c->nc > 2) {
		struct ci_var v = parts(m, MS_PROP, jw, jo, ve);
		double var, df;

		stats_ci_var(&v, two, &var, &df);
		s->prop_bias_p = var > 0 ? stats_t_p2(s->prop_bias_slope /
						      sqrt(var), df) : NAN;
		if (isnan(s->prop_bias_p))
			s->why[SF_PROP_BIAS_P] = STATS_WHY_EXACT;
	}
#define IV(ci, est, k) do { \
		if (isfinite(est) && c->nc > 2) { \
			struct ci_var v_ = parts(m, k, jw, jo, ve); \
			interval(&s->ci, k, est, bc[k], &v_, two, level); \
		} else if (isfinite(est)) { \
			s->ci = none; \
		} \
	} while (0)
	IV(pearson_ci, s->pearson, MS_PEARSON);
	IV(pearson_log_ci, s->pearson_log, MS_PEARSON_LOG);
	IV(spearman_ci, s->spearman, MS_SPEARMAN);
	IV(ccc_ci, s->ccc, MS_CCC);
	IV(ccc_log_ci, s->ccc_log, MS_CCC_LOG);
	if (isfinite(s->fit.slope) && (!s->fit.weighted ||
				       m->has[MOM_WFIT])) {
		IV(fit_slope_ci, s->fit.slope, MS_SLOPE);
		IV(fit_intercept_ci, s->fit.intercept, MS_ICPT);
	} else if (isfinite(s->fit.slope)) {
		s->fit_slope_ci = s->fit_intercept_ci = none;
	}
#undef IV
	if (isfinite(s->loa_low) && isfinite(s->loa_high) && c->nc > 2) {
		struct ci_var pm = parts(m, MS_LMEAN, jw, jo, ve);
		struct ci_var pl = parts(m, MS_LSD, jw, jo, ve);

		loa(s, &pm, &pl, two, level);
	} else if (isfinite(s->loa_low)) {
		s->loa_low_ci = s->loa_high_ci = none;
	}
	free(jw);
	free(m->sum);
	free(m->osum);
	free(m->rk);
	free(m->ork);
	memset(m, 0, sizeof(*m));
}

void stats_ci_errvar(const struct wsums *x, size_t nw, const struct wsums *o,
		     size_t no, const double *r2, struct ci_var *v)
{
	double N = 0, A = 0, E = 0, L = 0, ks = 0, kq = 0;
	const struct wsums *src[2] = { x, o };
	size_t nc[2] = { nw, no };

	for (size_t c = 0; c < nw; c++) {
		N += x->cnt[c];
		A += x->sabs[c];
		E += x->serr[c];
		L += x->slog[c];
	}
	for (int k = 0; k < 3; k++)
		v[k] = (struct ci_var){ NAN, NAN, NAN, NAN, NAN, 0, 0 };
	for (int side = 0; side < (o ? 2 : 1); side++) {
		const struct wsums *y = src[side];
		double mean[3] = { 0 }, m2[3] = { 0 };
		size_t g = 0;

		ks = kq = 0;
		for (size_t c = 0; c < nc[side]; c++) {
			double n1 = N - y->cnt[c], val[3];

			if (!y->cnt[c])
				continue;
			ks += y->cnt[c];
			kq += (double)y->cnt[c] * y->cnt[c];
			val[0] = log((A - y->sabs[c]) / n1);
			val[1] = (E - y->serr[c]) / n1;
			val[2] = (L - y->slog[c]) / n1;
			g++;
			for (int k = 0; k < 3; k++) {
				double d = val[k] - mean[k];

				mean[k] += d / (double)g;
				m2[k] += d * (val[k] - mean[k]);
			}
		}
		for (int k = 0; k < 3; k++) {
			double var = g > 1 && isfinite(m2[k]) ?
				     (double)(g - 1) / (double)g * m2[k] : NAN;

			if (side == 0) {
				v[k].vw = var;
				v[k].gw = stats_ci_kish(ks, kq);
				v[k].nw = g;
			} else {
				v[k].vo = var;
				v[k].go = stats_ci_kish(ks, kq);
				v[k].no = g;
			}
		}
	}
	if (o && r2 && N > 1) {
		/* the residual term: the gradients of ln(A / N), E / N and
		 * L / N in the sums of |e|, e and ln(m / r) (the counts'
		 * residuals are 0) */
		v[0].ve = r2[0] / (A * A) * (N - 1) / N;
		v[1].ve = r2[1] / (N * N) * (N - 1) / N;
		v[2].ve = r2[2] / (N * N) * (N - 1) / N;
	}
}
