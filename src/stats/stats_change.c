/* The release-change test: cluster-robust variance of the paired change
 * (see stats_change.h). */
#include "src/stats/stats_change.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "src/stats/stats_summary.h"

struct cu {
	int64_t a, b;		/* sort keys: (workload, op) or (op, workload) */
	double u;		/* d - delta */
};

static int cmp_cu(const void *x, const void *y)
{
	const struct cu *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

/* Sum of squared group sums of u over runs of equal a; the number of
 * groups in *ng. */
static double sumsq(const struct cu *v, size_t n, size_t *ng)
{
	double tot = 0;

	*ng = 0;
	for (size_t i = 0; i < n;) {
		double s = 0;
		size_t j = i;

		while (j < n && v[j].a == v[i].a)
			s += v[j++].u;
		tot += s * s;
		(*ng)++;
		i = j;
	}
	return tot;
}

/* Ops (runs of a, sorted by (op, workload)) found in >= 2 workloads. */
static size_t crossed(const struct cu *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n;) {
		size_t j = i;
		int many = 0;

		while (j < n && v[j].a == v[i].a) {
			many |= v[j].b != v[i].b;
			j++;
		}
		k += many;
		i = j;
	}
	return k;
}

static double crfactor(size_t g)
{
	return g > 1 ? (double)g / (double)(g - 1) : NAN;
}

#define STR_(x) #x
#define STR(x) STR_(x)
const char STATS_CHANGE_WHY_FEW[] = "fewer than "
	STR(STATS_CI_MIN_WORKLOADS) " workloads: too few for an interval "
	"that holds its level (more workloads would decide)";

static void no_interval(struct stats_change *c, const char *why)
{
	c->se = c->df = c->ci_lo = c->ci_hi = c->t = NAN;
	c->p_increase = c->p_decrease = c->p_two = NAN;
	c->why = why;
}

static int compute(struct stats_change *out, const double *before,
		   const double *after, const int64_t *wkey,
		   const int64_t *okey, size_t n, double level,
		   size_t min_workloads);

int stats_change_compute(struct stats_change *out, const double *before,
			 const double *after, const int64_t *wkey,
			 const int64_t *okey, size_t n, double level)
{
	return compute(out, before, after, wkey, okey, n, level,
		       STATS_CI_MIN_WORKLOADS);
}

int stats_change_compute_raw(struct stats_change *out, const double *before,
			     const double *after, const int64_t *wkey,
			     const int64_t *okey, size_t n, double level)
{
	return compute(out, before, after, wkey, okey, n, level, 2);
}

static int compute(struct stats_change *out, const double *before,
		   const double *after, const int64_t *wkey,
		   const int64_t *okey, size_t n, double level,
		   size_t min_workloads)
{
	struct cu *v = xcalloc(n ? n : 1, sizeof(*v));
	double sb = 0, sa = 0, scale = 0, nn, vw, vo, var, tq;
	size_t m = 0, gw, go;

	memset(out, 0, sizeof(*out));
	out->level = level > 0 && level < 1 ? level : STATS_CHANGE_LEVEL;
	out->design = "workloads";
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(before[i]) || !isfinite(after[i]))
			continue;
		sb += before[i];
		sa += after[i];
		v[m++] = (struct cu){ wkey[i], okey[i], after[i] - before[i] };
	}
	out->n = m;
	if (m == 0) {
		out->mean_before = out->mean_after = out->delta = NAN;
		no_interval(out, "no points in common");
		free(v);
		return 0;
	}
	nn = (double)m;
	out->mean_before = sb / nn;
	out->mean_after = sa / nn;
	out->delta = 0;
	for (size_t i = 0; i < m; i++)
		out->delta += v[i].u;
	out->delta /= nn;
	for (size_t i = 0; i < m; i++) {
		scale = fmax(scale, fabs(v[i].u));
		v[i].u -= out->delta;
	}
	qsort(v, m, sizeof(*v), cmp_cu);
	vw = sumsq(v, m, &gw);
	for (size_t i = 0; i < m; i++) {
		int64_t t = v[i].a;

		v[i].a = v[i].b;
		v[i].b = t;
	}
	qsort(v, m, sizeof(*v), cmp_cu);
	vo = sumsq(v, m, &go);
	out->n_workloads = gw;
	out->n_ops = go;
	out->n_crossed = crossed(v, m);
	free(v);
	if (gw < 2) {
		no_interval(out, "one workload: nothing measures the spread "
			    "between workloads");
		return 0;
	}

	vw *= crfactor(gw) / (nn * nn);
	out->two_way = out->n_crossed >= STATS_CHANGE_MIN_OPS && go >= 2;
	if (out->two_way) {
		vo *= crfactor(go) / (nn * nn);
		var = vw + vo;
		out->df = (vw + vo) * (vw + vo) /
			  (vw * vw / (double)(gw - 1) +
			   vo * vo / (double)(go - 1));
		out->df = fmin(out->df, (double)(gw + go - 2));
		out->design = "workloads x ops";
	} else {
		var = vw;
		out->df = (double)(gw - 1);
	}
	/* differences equal up to float rounding (~1e-17): no spread, the
	 * change is the same on every pair, so it is what it is */
	if (!(sqrt(var) > 1e-12 * scale) || !isfinite(out->df)) {
		int zero = !(fabs(out->delta) > 1e-12 * scale);

		out->se = 0;
		out->df = NAN;
		out->t = zero ? 0 : out->delta > 0 ? INFINITY : -INFINITY;
		out->ci_lo = out->ci_hi = zero ? 0 : out->delta;
		out->p_increase = zero || out->delta < 0 ? 1 : 0;
		out->p_decrease = zero || out->delta > 0 ? 1 : 0;
		out->p_two = zero ? 1 : 0;
		out->why = "every pair changed by the same amount: no spread, "
			   "the change is exact";
		return 0;
	}
	/* issue 34: below the workloads an interval needs, none (the
	 * summaries' rule: docs/statistics.md, "How few workloads"); an
	 * exact change, above, is exact whatever the workloads */
	if (gw < min_workloads) {
		no_interval(out, STATS_CHANGE_WHY_FEW);
		return 0;
	}
	out->se = sqrt(var);
	tq = gsl_cdf_tdist_Pinv((1 + out->level) / 2, out->df);
	out->ci_lo = out->delta - tq * out->se;
	out->ci_hi = out->delta + tq * out->se;
	out->t = out->delta / out->se;
	out->p_increase = gsl_cdf_tdist_Q(out->t, out->df);
	out->p_decrease = gsl_cdf_tdist_P(out->t, out->df);
	out->p_two = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df));
	return 0;
}

double stats_change_p_above(const struct stats_change *c, double limit)
{
	if (c->se == 0)	/* exact: above the limit or not */
		return c->delta > limit + 1e-12 ? 0 : 1;
	if (!(c->se > 0))
		return NAN;
	return gsl_cdf_tdist_Q((c->delta - limit) / c->se, c->df);
}

double stats_change_halfwidth(const struct stats_change *c)
{
	return (c->ci_hi - c->ci_lo) / 2;
}
