#ifndef PC_SRC_SVG_INT_H
#define PC_SRC_SVG_INT_H
/*
 * Private to the svg module, which is four files whose calls go one way,
 * down to svg.c (the frame, colours, markers, labels): svg_scatter.c (the
 * scatter), svg_chart.c (histogram, trend and the axis helpers
 * svg_nice_ceil and svg_kth) and svg_err.c (the error-against-reference
 * and Bland-Altman plots), which calls the other three.
 */
#include <stddef.h>

#include "src/report/svg.h"

struct strbuf;

/* Scatter geometry: a square plot area with the legend to its right. */
enum { SC_W = 560, SC_H = 440, SC_X0 = 84, SC_Y0 = 36, SC_SIDE = 340 };
#define SVG_NPALETTE 12

/* Open an <svg> of w x h with its title, style sheet and background. */
void svg_open(struct strbuf *sb, int w, int h, const char *title,
	      const char *kind);
/* One marker of shape at (x, y), half-size s, CSS classes cls. */
void svg_marker(struct strbuf *sb, unsigned shape, double x, double y,
		double s, const char *cls, double opacity);
/* Escape s into sb, at most max characters (an ellipsis marks a cut). */
void svg_label(struct strbuf *sb, const char *s, size_t max);
/* The smallest of 1, 2, 2.5, 5 x 10^k that is >= v (v > 0). */
double svg_nice_ceil(double v);
/* The k-th smallest of v[0..m) (k < m; every v[i] a number): v sorted
 * and indexed at k, found in O(m) (quickselect; v is reordered). */
double svg_kth(double *v, size_t m, size_t k);
/* <g><title>tip</title> ... </g> around a mark (the tip's lines as
 * lines of the tooltip); nothing when tip is NULL. */
void svg_tip_open(struct strbuf *sb, const char *tip);
void svg_tip_close(struct strbuf *sb, const char *tip);
/* The op class and shape legend right of a SC_ plot area; nsol > 0
 * adds the speed-of-light star. */
void svg_scatter_legend(struct strbuf *sb, const struct svg_scatter *sc,
			const unsigned char *used_cls, size_t used_shapes,
			size_t nsol);
/* The hollow star of a speed-of-light violation around (x, y), of CSS
 * class cls ("sol" on a point, "soll" in the legend). */
void svg_sol_mark(struct strbuf *sb, double x, double y, const char *cls);
/* The caption's count of starred points ("; 3 speed-of-light ..."). */
void svg_sol_caption(struct strbuf *sb, size_t nsol, size_t nmarks);

#endif
