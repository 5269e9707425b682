/* The Summary view's plots (tui/summary_plot.c): the fast dot mapping
 * gives exactly the dots of the exact formula, the histogram counts one
 * metric only, and the cache keeps the last few sizes. */
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/pairidx/pairidx.h"
#include "base/util.h"
#include "tui/plot.h"
#include "tui/summary_plot.h"

/* The scatter as the view drew it before the fast path: log10 per
 * value, (int)((log10(v) - lo) / (hi - lo) * (d - 1) + 0.5). */
static void exact_canvas(struct plot_canvas *c, const struct pidx *x,
			 int64_t m, double lo, double hi)
{
	int dw = 2 * c->w, dh = 4 * c->h;

	for (size_t i = 0; i < x->n; i++) {
		double fx, fy;

		if (x->keys[i].m != m || !(x->vals[i].model > 0) ||
		    !(x->vals[i].ref > 0))
			continue;
		fx = (log10(x->vals[i].ref) - lo) / (hi - lo);
		fy = (log10(x->vals[i].model) - lo) / (hi - lo);
		plot_canvas_set(c, (int)(fx * (dw - 1) + 0.5),
				dh - 1 - (int)(fy * (dh - 1) + 0.5));
	}
}

TEST(dots_exact)
{
	size_t n = 200000;
	struct pidx x;
	uint64_t r = 88172645463325252ull;
	struct summary_plot sp;
	const struct summary_plot_one *c, *c2;
	struct plot_canvas want;
	int sizes[][2] = { { 40, 18 }, { 51, 20 }, { 7, 3 }, { 120, 40 } };

	memset(&x, 0, sizeof(x));
	memset(&sp, 0, sizeof(sp));
	x.n = n;
	x.keys = xcalloc(n, sizeof(*x.keys));
	x.vals = xcalloc(n, sizeof(*x.vals));
	x.max_id[2] = 1;
	for (size_t i = 0; i < n; i++) {
		double u, v;

		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		u = (double)(r % 1000000) / 1e6;
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		v = (double)(r % 1000000) / 1e6;
		x.keys[i].m = (int32_t)(i % 2);
		x.vals[i].ref = pow(10, -9 + 8 * u);	/* 1 ns .. 0.1 s */
		x.vals[i].model = x.vals[i].ref * (0.2 + 2 * v);
		if (i % 97 == 0)	/* exact decades and decimal values */
			x.vals[i].ref = pow(10, -(double)(i % 9));
		if (i % 89 == 0)
			x.vals[i].model = 1e-6 * (double)(1 + i % 1000);
		x.keys[i].err = (x.vals[i].model - x.vals[i].ref) /
				x.vals[i].ref;
	}
	x.vals[5].ref = 0;		/* left out of the scatter */
	x.vals[7].model = -1;
	x.keys[9].err = NAN;		/* left out of the histogram */
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		int w = sizes[k][0], h = sizes[k][1];

		for (int64_t m = 0; m < 2; m++) {
			c = summary_plot_build(&sp, &x, 1, m, w, h, 48, 0.5, 0);
			plot_canvas_init(&want, w, h);
			exact_canvas(&want, &x, m, c->lo, c->hi);
			CHECK(!memcmp(want.cells, c->dots.cells,
				      (size_t)w * (size_t)h));
			plot_canvas_release(&want);
		}
	}
	/* metric 1: ref 1e-9 .. 0.1, model 0.2 .. 2.2 x ref: 2e-10 .. 0.22,
	 * so the decades -10 .. 0 */
	c = summary_plot_build(&sp, &x, 1, 1, 40, 18, 48, 0.5, 0);
	CHECK(c->lo == -10 && c->hi == 0);
	/* the histogram counts metric 1's finite errors only, in
	 * plot_histogram's bins */
	{
		double *e = xcalloc(n, sizeof(*e));
		long bins[48];
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (x.keys[i].m == 1)
				e[k++] = x.keys[i].err;
		plot_histogram(e, k, -0.5, 0.5, bins, 48);
		CHECK(!memcmp(bins, c->bins, sizeof(bins)));
		CHECK_INT(c->nerr, (long)k - 1);	/* err[9] is NaN */
		free(e);
	}
	/* cached: the same size again is the same plot; a new data
	 * generation rebuilds */
	c2 = summary_plot_build(&sp, &x, 1, 1, 40, 18, 48, 0.5, 0);
	CHECK(c2 == c);
	c2 = summary_plot_build(&sp, &x, 1, 1, 41, 18, 48, 0.5, 0);
	CHECK(summary_plot_build(&sp, &x, 1, 1, 40, 18, 48, 0.5, 0) == c);
	x.n = 10;
	c2 = summary_plot_build(&sp, &x, 2, 1, 40, 18, 48, 0.5, 0);
	CHECK_INT(c2->nerr, 4);		/* metric 1 of the first 10: points
					   1, 3, 5, 7 and 9, whose error is NaN */
	CHECK_INT(summary_plot_busiest(&sp, &x, 2), 0);	/* 5 and 5: first */
	summary_plot_release(&sp);
	free(x.keys);
	free(x.vals);
}

/* A roofline model (a bound, issue 35): the histogram counts the
 * fraction of speed of light each reference reaches, as the list shows
 * it (roofline / measured for a time, measured / roofline for a rate),
 * over 0 .. 200%, outer bins clamped; the errors' histogram is another
 * cache entry. */
TEST(sol_fraction_bins)
{
	size_t n = 1000;
	struct pidx x;
	struct summary_plot sp;
	const struct summary_plot_one *c, *e;
	double *f = xcalloc(n, sizeof(*f));
	long bins[40];
	uint64_t r = 2463534242ull;

	memset(&x, 0, sizeof(x));
	memset(&sp, 0, sizeof(sp));
	x.n = n;
	x.keys = xcalloc(n, sizeof(*x.keys));
	x.vals = xcalloc(n, sizeof(*x.vals));
	x.max_id[2] = 0;
	for (size_t i = 0; i < n; i++) {
		r ^= r << 13, r ^= r >> 17, r ^= r << 5;
		x.vals[i].ref = 1e-6 * (1 + (double)(r % 1000));
		r ^= r << 13, r ^= r >> 17, r ^= r << 5;
		/* the roofline 0.05 .. 2.5 x the measured value */
		x.vals[i].model = x.vals[i].ref * (0.05 + 2.45 *
					(double)(r % 1000) / 1000);
		x.keys[i].err = (x.vals[i].model - x.vals[i].ref) /
				x.vals[i].ref;
	}
	/* a time: the fraction is roofline / measured, model / ref */
	for (size_t i = 0; i < n; i++)
		f[i] = x.vals[i].model / x.vals[i].ref;
	plot_histogram(f, n, 0, 2, bins, 40);
	c = summary_plot_build(&sp, &x, 1, 0, 30, 10, 40, 1.0, 1);
	CHECK(!memcmp(bins, c->bins, sizeof(bins)));
	CHECK_INT(c->nerr, (long)n);
	CHECK(bins[39] > 0);		/* 2.5x clamped into the last bin */
	/* a rate: measured / roofline, ref / model */
	for (size_t i = 0; i < n; i++)
		f[i] = x.vals[i].ref / x.vals[i].model;
	plot_histogram(f, n, 0, 2, bins, 40);
	c = summary_plot_build(&sp, &x, 1, 0, 30, 10, 40, 1.0, 2);
	CHECK(!memcmp(bins, c->bins, sizeof(bins)));
	/* the errors' histogram of the same size is not the fractions' */
	e = summary_plot_build(&sp, &x, 1, 0, 30, 10, 40, 1.0, 0);
	CHECK(e != c && memcmp(e->bins, c->bins, sizeof(bins)));
	summary_plot_release(&sp);
	free(f);
	free(x.keys);
	free(x.vals);
}

TEST_MAIN(CASE(dots_exact), CASE(sol_fraction_bins))
