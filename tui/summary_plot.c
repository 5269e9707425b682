/* The Summary view's plots of one metric (see summary_plot.h). */
#include "tui/summary_plot.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/matrix/matrix.h"
#include "src/pairidx/pairidx.h"
#include "base/util.h"

static void ranges(struct summary_plot *sp, const struct pidx *x,
		   unsigned gen)
{
	size_t nm;

	if (sp->have_ranges && sp->gen == gen)
		return;
	nm = x->max_id[2] >= 0 ? (size_t)x->max_id[2] + 1 : 0;
	free(sp->count);
	free(sp->vmin);
	free(sp->vmax);
	sp->count = xcalloc(nm + 1, sizeof(*sp->count));
	sp->vmin = xmalloc((nm + 1) * sizeof(*sp->vmin));
	sp->vmax = xmalloc((nm + 1) * sizeof(*sp->vmax));
	for (size_t m = 0; m <= nm; m++) {
		sp->vmin[m] = INFINITY;
		sp->vmax[m] = -INFINITY;
	}
	for (size_t i = 0; i < x->n; i++) {
		const struct pidx_val *p = &x->vals[i];
		int32_t m = x->keys[i].m;

		if (m < 0 || (size_t)m >= nm)
			continue;
		sp->count[m]++;
		if (!(p->model > 0) || !(p->ref > 0))
			continue;
		/* both > 0, so no NaN: plain compares, not fmin/fmax */
		if (p->model < sp->vmin[m])
			sp->vmin[m] = p->model;
		if (p->ref < sp->vmin[m])
			sp->vmin[m] = p->ref;
		if (p->model > sp->vmax[m])
			sp->vmax[m] = p->model;
		if (p->ref > sp->vmax[m])
			sp->vmax[m] = p->ref;
	}
	sp->nm = nm;
	sp->gen = gen;
	sp->have_ranges = 1;
}

int64_t summary_plot_busiest(struct summary_plot *sp, const struct pidx *x,
			     unsigned gen)
{
	int64_t best = -1;

	ranges(sp, x, gen);
	for (size_t m = 0; m < sp->nm; m++)
		if (sp->count[m] && (best < 0 || sp->count[m] > sp->count[best]))
			best = (int64_t)m;
	return best;
}

int summary_plot_has(struct summary_plot *sp, const struct pidx *x,
		     unsigned gen, int64_t m)
{
	ranges(sp, x, gen);
	return m >= 0 && (size_t)m < sp->nm && sp->count[m] > 0;
}

/* The dot of value v on an axis of d dots over log10 lo .. hi. */
static int dot_of(double v, double lo, double hi, int d)
{
	return (int)((log10(v) - lo) / (hi - lo) * (d - 1) + 0.5);
}

/* log2(1 + k / 1024), k = 0 .. 1024: log10 in a few instructions
 * (a table of the mantissa's top 10 bits, linear between entries: the
 * error is below 2e-7 in log2, 6e-8 in log10). */
#define LOG_BITS 10
static double log2_tab[(1 << LOG_BITS) + 1];

static void log_tab_init(void)
{
	if (log2_tab[1 << LOG_BITS] == 1)
		return;
	for (int k = 0; k <= 1 << LOG_BITS; k++)
		log2_tab[k] = log2(1 + (double)k / (1 << LOG_BITS));
}

/* log10(v) within 1e-7 for a normal v > 0; NaN for anything else. */
static double log10_approx(double v)
{
	const int shift = 52 - LOG_BITS;
	uint64_t b, m;
	int e;
	size_t k;
	double f;

	memcpy(&b, &v, sizeof(b));
	e = (int)(b >> 52 & 0x7ff);
	if (e == 0 || e == 0x7ff || b >> 63)
		return NAN;
	m = b & ((UINT64_C(1) << 52) - 1);
	k = (size_t)(m >> shift);
	f = (double)(m & ((UINT64_C(1) << shift) - 1)) *
	    (1.0 / (double)(UINT64_C(1) << shift));	/* exact */
	return ((e - 1023) + log2_tab[k] + f * (log2_tab[k + 1] -
		log2_tab[k])) * 0.30102999566398119521;
}

/* An axis of d dots over log10 lo .. hi. */
struct dot_axis {
	double lo, hi, scale;
	int d;
};

/* dot_of(v), fast: the approximate log gives the dot unless it lies
 * within 1e-3 of a dot boundary (the approximation moves it by under
 * 1e-4 of a dot on any axis of up to 1000 dots a decade), where the
 * exact formula decides, so the dots are exactly dot_of's. */
static int dot_fast(const struct dot_axis *a, double v)
{
	double u = (log10_approx(v) - a->lo) * a->scale + 0.5, r;
	int k;

	if (!(u >= 0 && u < 1e9))	/* NaN too */
		return dot_of(v, a->lo, a->hi, a->d);
	k = (int)u;
	r = u - k;
	if (r < 1e-3 || r > 1 - 1e-3)
		return dot_of(v, a->lo, a->hi, a->d);
	return k;
}

static void one_release(struct summary_plot_one *c)
{
	plot_canvas_release(&c->dots);
	plot_canvas_release(&c->diag);
	free(c->bins);
	memset(c, 0, sizeof(*c));
}

/* The log10 axis range of metric m: whole decades around its positive
 * values; NaN when it has none. */
static void axis(const struct summary_plot *sp, int64_t m, double *lo,
		 double *hi)
{
	*lo = *hi = NAN;
	if (m < 0 || (size_t)m >= sp->nm || !(sp->vmin[m] <= sp->vmax[m]))
		return;
	*lo = floor(log10(sp->vmin[m]));
	*hi = ceil(log10(sp->vmax[m]));
	if (*hi <= *lo)
		*hi = *lo + 1;
}

/* Fill c for metric m of the index: one pass, the dots exactly
 * dot_of's, the bins plot_histogram's. */
static void build(struct summary_plot *sp, struct summary_plot_one *c,
		  const struct pidx *x, int64_t m)
{
	int dw = 2 * c->w, dh = 4 * c->h, nb = c->nb;
	double lim = c->lim;
	struct dot_axis ax, ay;

	plot_canvas_init(&c->dots, c->w, c->h);
	plot_canvas_init(&c->diag, c->w, c->h);
	c->bins = xcalloc((size_t)(nb > 0 ? nb : 1), sizeof(*c->bins));
	axis(sp, m, &c->lo, &c->hi);
	if (m < 0 || (size_t)m >= sp->nm)
		return;
	if (!isnan(c->lo))
		plot_canvas_line(&c->diag, 0, dh - 1, dw - 1, 0);
	log_tab_init();
	ax = (struct dot_axis){ c->lo, c->hi, (dw - 1) / (c->hi - c->lo), dw };
	ay = (struct dot_axis){ c->lo, c->hi, (dh - 1) / (c->hi - c->lo), dh };
	for (size_t i = 0; i < x->n; i++) {
		const struct pidx_val *p;
		double e;

		if (x->keys[i].m != m)
			continue;
		e = x->keys[i].err;
		p = &x->vals[i];
		if (c->sol)	/* the fraction of speed of light, 0 .. 2 lim */
			e = matrix_sol_fraction(p->ref, p->model, c->sol == 2) -
			    lim;
		if (isfinite(e) && nb > 0) {	/* plot_histogram's bins */
			double f = (e + lim) / (2 * lim) * nb;

			c->bins[f < 0 ? 0 : f >= nb ? nb - 1 : (int)f]++;
			c->nerr++;
		}
		if (!(p->model > 0) || !(p->ref > 0) || isnan(c->lo))
			continue;
		plot_canvas_set(&c->dots, dot_fast(&ax, p->ref),
				dh - 1 - dot_fast(&ay, p->model));
	}
}

void summary_plot_axis(struct summary_plot *sp, const struct pidx *x,
		       unsigned gen, int64_t m, double *lo, double *hi)
{
	ranges(sp, x, gen);
	axis(sp, m, lo, hi);
}

const struct summary_plot_one *summary_plot_build(struct summary_plot *sp,
	const struct pidx *x, unsigned gen, int64_t m, int w, int h, int nb,
	double lim, int sol)
{
	struct summary_plot_one *c, *old = &sp->c[0];

	ranges(sp, x, gen);
	sp->clock++;
	for (size_t i = 0; i < SUMMARY_PLOT_CACHE; i++) {
		c = &sp->c[i];
		if (c->built && c->gen == gen && c->metric == m && c->w == w &&
		    c->h == h && c->nb == nb && c->lim == lim &&
		    c->sol == sol) {
			c->used = sp->clock;
			return c;
		}
		if (c->used < old->used)
			old = c;
	}
	c = old;			/* the least recently used */
	one_release(c);
	*c = (struct summary_plot_one){ .built = 1, .gen = gen, .metric = m,
		.w = w, .h = h, .nb = nb, .lim = lim, .sol = sol,
		.used = sp->clock };
	build(sp, c, x, m);
	return c;
}

void summary_plot_release(struct summary_plot *sp)
{
	for (size_t i = 0; i < SUMMARY_PLOT_CACHE; i++)
		one_release(&sp->c[i]);
	free(sp->count);
	free(sp->vmin);
	free(sp->vmax);
	memset(sp, 0, sizeof(*sp));
}
