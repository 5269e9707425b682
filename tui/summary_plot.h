#ifndef PC_TUI_SUMMARY_PLOT_H
#define PC_TUI_SUMMARY_PLOT_H
/*
 * The Summary view's plots of one metric: a log-log dot canvas of model
 * against reference and a histogram of its signed errors (never one
 * across metrics: a histogram pooling time and throughput errors is a
 * statistic that mixes metrics). Built in one pass over the index's
 * points and cached for (data generation, metric, size), so a regroup
 * (`b`) or a cursor move costs nothing; the per-metric point counts
 * and value ranges take one pass per data generation. Owns its arrays.
 */
#include <stddef.h>
#include <stdint.h>

#include "tui/plot.h"

struct pidx;

/* One metric's plots at one size. */
struct summary_plot_one {
	int built;
	unsigned gen;
	int64_t metric;
	int w, h, nb;
	double lim;
	double lo, hi;			/* log10 axis range; NaN: nothing
					   to plot */
	int sol;			/* the histogram's quantity: 0 the
					   errors; 1 (a time) or 2 (a rate)
					   the fraction of speed of light */
	struct plot_canvas dots, diag;
	long *bins, nerr;		/* nb bins over -lim .. +lim (the
					   errors) or 0 .. 2 lim (the
					   fractions), the finite ones
					   counted */
	unsigned used;			/* last use, for replacement */
};

/* The plots of the last few sizes: the table above them is as tall as
 * the grouping has rows, so `b` changes their height, and cycling
 * through the groupings meets the same few heights again. */
#define SUMMARY_PLOT_CACHE 4

struct summary_plot {
	/* per metric id, for the data generation gen */
	unsigned gen;
	int have_ranges;
	size_t nm;
	long *count;			/* points */
	double *vmin, *vmax;		/* of the values > 0 (model, ref) */
	struct summary_plot_one c[SUMMARY_PLOT_CACHE];
	unsigned clock;
};

/* The metric with the most points (-1: none), and whether m has any. */
int64_t summary_plot_busiest(struct summary_plot *sp, const struct pidx *x,
			     unsigned gen);
int summary_plot_has(struct summary_plot *sp, const struct pidx *x,
		     unsigned gen, int64_t m);
/* The scatter's log10 axis range for metric m (whole decades; NaN:
 * no positive values), known before the plot is built (its labels'
 * width sets the plot's). */
void summary_plot_axis(struct summary_plot *sp, const struct pidx *x,
		       unsigned gen, int64_t m, double *lo, double *hi);
/* The scatter (w x h cells) and the histogram (nb bins, outer bins
 * clamp) of metric m, built or from the cache; valid until the next
 * call. The histogram's bins: sol 0, the signed errors over -lim ..
 * +lim; a roofline model (a bound, issue 35), the fraction of speed of
 * light each reference reaches (as the list shows it,
 * matrix_sol_fraction) over 0 .. 2 lim, sol 1 for a time (model / ref),
 * 2 for a rate (ref / model). */
const struct summary_plot_one *summary_plot_build(struct summary_plot *sp,
	const struct pidx *x, unsigned gen, int64_t m, int w, int h, int nb,
	double lim, int sol);
void summary_plot_release(struct summary_plot *sp);

#endif
