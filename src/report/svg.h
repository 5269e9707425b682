#ifndef PC_SRC_SVG_H
#define PC_SRC_SVG_H
/*
 * Inline SVG figures for the HTML report: a log-log scatter of model vs
 * reference, a histogram of signed errors and a MAPE trend. Each writer
 * appends one self-contained <svg> element (XML well-formed, no external
 * references, no script) to a strbuf. Callers own every input; labels
 * are untrusted and escaped here. Values are plotted, never computed:
 * errors come from the correlation core.
 */
#include <stddef.h>

struct strbuf;

/* Marker shapes, used for annotation status in the scatter. */
enum svg_shape {
	SVG_CIRCLE, SVG_TRIANGLE, SVG_SQUARE, SVG_DIAMOND, SVG_CROSS,
	SVG_NSHAPES
};

/* Colour i of the palette (Okabe-Ito, then Tableau; cycles). */
const char *svg_colour(size_t i);

struct svg_point {
	double x, y;		/* reference, model (same unit) */
	unsigned cls;		/* colour index (op class) */
	unsigned shape;		/* enum svg_shape */
	const char *tip;	/* the mark's <title> tooltip, or NULL */
	unsigned sol;		/* a speed-of-light violation: a hollow
				   star around the mark (see below) */
};

struct svg_scatter {
	const char *title;	/* e.g. "time: model vs reference" */
	const char *unit;	/* SI unit of both axes ("s", "W", "1") */
	const char *xlabel, *ylabel;
	const char *const *classes;	/* legend names of the colours */
	size_t nclasses;
	const char *const *shapes;	/* legend names, SVG_NSHAPES or NULL */
	const struct svg_point *pts;
	size_t n;
	double band;		/* draw y = x (1 +- band); 0 = none */
	size_t max_marks;	/* more points than this are binned; 0 = 3000 */
};

/* Speed-of-light violations (sol set) are drawn as every other point,
 * then ringed by a hollow star, a shape no annotation status uses, so
 * it survives print and colour blindness: one <path class="sol"> per
 * such point, or per binned cell holding at least one, on top of the
 * marks. When any is drawn the legend shows the star (class "soll")
 * and the caption counts them. The same holds for svg_errplot. */

/* Append the scatter. Points with a non-positive or non-finite value
 * are left out and counted in the caption. Beyond max_marks the points
 * are binned on a pixel grid (one mark per occupied cell, coloured by
 * its most frequent class, shaped by its highest-priority shape, i.e.
 * the lowest enum value), so the size is bounded whatever n is. */
void svg_scatter(struct strbuf *sb, const struct svg_scatter *sc);

/* Histogram of signed errors (fractions, shown in percent). The range
 * is symmetric, chosen to hold 98% of the values; the rest are counted
 * in the outermost bins, which are labelled as open. NaNs are skipped.
 * band > 0 marks +-band. */
void svg_histogram(struct strbuf *sb, const char *title, const double *err,
		   size_t n, double band);

struct svg_series {
	const char *name;
	const double *y;	/* nx values (fractions); NaN = no value */
};

/* A line per series over categorical x labels (model versions in
 * release order), y in percent from 0. */
void svg_trend(struct strbuf *sb, const char *title,
	       const char *const *xlabels, size_t nx,
	       const struct svg_series *series, size_t ns);

/* What an error plot's axes are. */
enum svg_err_kind {
	SVG_ERR_SIGNED,	/* x = reference, y = (model - ref) / ref */
	SVG_ERR_BA,	/* Bland-Altman: x = sqrt(model * ref), y = ln(model /
			   ref), with the limits of agreement lo, hi */
};

struct svg_errplot {
	enum svg_err_kind kind;
	const char *title;
	const char *unit;	/* SI unit of x */
	const char *xlabel;
	const char *const *classes;	/* legend names of the colours */
	size_t nclasses;
	const char *const *shapes;	/* legend names, SVG_NSHAPES or NULL */
	const struct svg_point *pts;	/* x, y as kind says; tip each */
	const char *const *labels;	/* short name per point, or NULL */
	size_t n;
	double band;		/* SIGNED: shade +-band; 0 = none */
	double lo, hi;		/* BA: limits of agreement (ln); NaN = none */
	size_t nlabel;		/* name the nlabel points of largest |y| */
	size_t max_marks;	/* more points than this: one mark per 5-px
				   cell, the first in pts order; 0 = 3000 */
};

/* Append an error plot: x on a log axis, y linear and symmetric about
 * 0 over a range that holds 98% of the points (the rest drawn open on
 * the edge and counted), each mark with its tip as a <title>, the
 * worst nlabel named. Points with x <= 0 or a non-finite value are left
 * out and counted. Plots values, computes no statistic. */
void svg_errplot(struct strbuf *sb, const struct svg_errplot *ep);

/* One point of the tiers figure: a tier's cost per workload and its MAPE
 * in one class. */
struct svg_tier_pt {
	double cost, mape;	/* x (> 0, in the figure's unit), y (fraction) */
	unsigned cls;		/* colour: the class */
	unsigned shape;		/* enum svg_shape: the tier (ladder order) */
	const char *tip;	/* tooltip, or NULL */
};

struct svg_tiers {
	const char *title;
	const char *unit;		/* the costs' unit ("s", "core-h") */
	const char *const *classes;	/* legend names of the colours */
	size_t nclasses;
	const char *const *shapes;	/* legend names of the shapes */
	size_t nshapes;
	const struct svg_tier_pt *pts;
	size_t n;
	size_t left_out;	/* points the caller left out (counted) */
	double limit;		/* a max_mape line; 0 = none */
};

/* Accuracy against cost (issue 38 item 5): x the cost per workload on a
 * log axis, y the MAPE from 0, one line per class through its tiers in
 * order of cost, a marker per tier. A point without a positive cost or
 * a finite MAPE is left out and counted. */
void svg_tiers(struct strbuf *sb, const struct svg_tiers *t);

/* Format v with an SI prefix and unit ("1.5 ms", "20 W", "0.5") into
 * buf; a unit of NULL, "" or "1" prints the plain number. */
void svg_fmt_si(char *buf, size_t len, double v, const char *unit);

#endif
