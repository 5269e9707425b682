/* The log-log scatter of model against reference (see svg.h): axes, the
 * identity band, the legend, every point or one mark per cell when there
 * are too many. Split from svg.c (issue 33). */
#include "src/report/svg.h"
#include "src/report/svg_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "base/html.h"
#include "base/strbuf.h"
#include "base/util.h"

#define NPALETTE SVG_NPALETTE
#define BIN_PX 5.0

struct logaxis {
	double lmin, lmax;	/* log10 bounds, whole decades */
};

static double ax_px(const struct logaxis *a, double v, int flip)
{
	double f = (log10(v) - a->lmin) / (a->lmax - a->lmin);

	return flip ? SC_Y0 + SC_SIDE - f * SC_SIDE : SC_X0 + f * SC_SIDE;
}

static int usable(const struct svg_point *p)
{
	return isfinite(p->x) && isfinite(p->y) && p->x > 0 && p->y > 0;
}

static void scatter_axes(struct strbuf *sb, const struct svg_scatter *sc,
			 const struct logaxis *a)
{
	int span = (int)(a->lmax - a->lmin), step = (span + 7) / 8;
	int x1 = SC_X0 + SC_SIDE, y1 = SC_Y0 + SC_SIDE;
	char lab[48];

	for (int k = (int)a->lmin; k <= (int)a->lmax; k++) {
		double v = pow(10, k), px = ax_px(a, v, 0), py = ax_px(a, v, 1);

		strbuf_addf(sb, "<path class=\"gr\" d=\"M%.1f %dV%dM%d %.1fH%d\"/>",
			    px, SC_Y0, y1, SC_X0, py, x1);
		if ((k - (int)a->lmin) % step)
			continue;
		svg_fmt_si(lab, sizeof(lab), v, sc->unit);
		strbuf_addf(sb, "<text class=\"tx\" x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"middle\">", px, y1 + 19);
		html_escape(sb, lab);
		strbuf_addf(sb, "</text><text class=\"tx\" x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">", SC_X0 - 6, py + 4);
		html_escape(sb, lab);
		strbuf_addstr(sb, "</text>\n");
	}
	strbuf_addf(sb, "<rect class=\"ax\" x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\"/>\n<text class=\"tx\" x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\">", SC_X0, SC_Y0, SC_SIDE, SC_SIDE,
		    SC_X0 + SC_SIDE / 2, y1 + 36);
	svg_label(sb, sc->xlabel ? sc->xlabel : "reference", 60);
	strbuf_addf(sb, "</text><text class=\"tx\" transform=\"translate(16 %d)"
		    " rotate(-90)\" text-anchor=\"middle\">", SC_Y0 + SC_SIDE / 2);
	svg_label(sb, sc->ylabel ? sc->ylabel : "model", 60);
	strbuf_addstr(sb, "</text>\n");
}

/* The +-band region and the y = x line, clipped to the square by
 * construction (lines parallel to the diagonal in log space). */
static void scatter_band(struct strbuf *sb, const struct svg_scatter *sc,
			 const struct logaxis *a)
{
	double lo = a->lmin, hi = a->lmax, u, d;
	double px[6], py[6];

	if (sc->band > 0 && sc->band < 1) {
		u = log10(1 + sc->band);
		d = log10(1 - sc->band);	/* negative */
		px[0] = lo, py[0] = lo + u;
		px[1] = hi - u, py[1] = hi;
		px[2] = hi, py[2] = hi;
		px[3] = hi, py[3] = hi + d;
		px[4] = lo - d, py[4] = lo;
		px[5] = lo, py[5] = lo;
		strbuf_addstr(sb, "<path class=\"bd\" d=\"");
		for (int i = 0; i < 6; i++)
			strbuf_addf(sb, "%c%.1f %.1f", i ? 'L' : 'M',
				    ax_px(a, pow(10, px[i]), 0),
				    ax_px(a, pow(10, py[i]), 1));
		strbuf_addstr(sb, "Z\"/>\n");
	}
	strbuf_addf(sb, "<path class=\"id\" d=\"M%d %dL%d %d\"/>\n", SC_X0,
		    SC_Y0 + SC_SIDE, SC_X0 + SC_SIDE, SC_Y0);
}

static void shape_legend(struct strbuf *sb, const struct svg_scatter *sc,
			 size_t used_shapes, int x, int *yp)
{
	int y = *yp;

	y += 26;
	strbuf_addf(sb, "<text class=\"sm\" x=\"%d\" y=\"%d\">annotation</text>"
		    "\n", x, y);
	for (unsigned s = 0; s < SVG_NSHAPES; s++) {
		if (!(used_shapes & (1u << s)) || !sc->shapes[s])
			continue;
		y += 16;
		svg_marker(sb, s, x + 5, y - 4, 4, "lg", 1);
		strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\">", x + 14,
			    y);
		svg_label(sb, sc->shapes[s], 18);
		strbuf_addstr(sb, "</text>\n");
	}
	*yp = y;
}

void svg_scatter_legend(struct strbuf *sb, const struct svg_scatter *sc,
			const unsigned char *used_cls, size_t used_shapes,
			size_t nsol)
{
	int x = SC_X0 + SC_SIDE + 16, y = SC_Y0 + 6;
	size_t shown = 0, more = 0;
	char cls[16];

	strbuf_addf(sb, "<text class=\"sm\" x=\"%d\" y=\"%d\">op class</text>\n",
		    x, y);
	for (size_t i = 0; i < sc->nclasses; i++) {
		if (!used_cls[i])
			continue;
		if (shown == 12) {
			more++;
			continue;
		}
		y += 16;
		shown++;
		snprintf(cls, sizeof(cls), "k%zu", i % NPALETTE);
		svg_marker(sb, SVG_CIRCLE, x + 5, y - 4, 4, cls, 1);
		strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\">", x + 14,
			    y);
		svg_label(sb, sc->classes[i], 16);
		strbuf_addstr(sb, "</text>\n");
	}
	if (more) {
		y += 16;
		strbuf_addf(sb, "<text class=\"sm\" x=\"%d\" y=\"%d\">+%zu more"
			    "</text>\n", x + 14, y, more);
	}
	if (sc->shapes)
		shape_legend(sb, sc, used_shapes, x, &y);
	if (!nsol)
		return;
	y += 26;
	svg_marker(sb, SVG_CIRCLE, x + 5, y - 4, 3.4, "lg", 1);
	svg_sol_mark(sb, x + 5, y - 4, "soll");
	strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\">speed-of-"
		    "light</text>\n<text class=\"tx\" x=\"%d\" y=\"%d\">"
		    "violation</text>\n", x + 16, y, x + 16, y + 14);
}

struct cell {
	unsigned count;
	unsigned shape;
	unsigned sol;		/* holds a speed-of-light violation */
};

/* Too many points: one mark per occupied BIN_PX cell, a star on each
 * cell holding a speed-of-light violation (into *nsol). Returns marks. */
static size_t scatter_binned(struct strbuf *sb, const struct svg_scatter *sc,
			     const struct logaxis *a, size_t *used,
			     size_t *nsol)
{
	size_t side = (size_t)(SC_SIDE / BIN_PX) + 1, nc = sc->nclasses + 1;
	struct cell *cells = xcalloc(side * side, sizeof(*cells));
	unsigned *counts = xcalloc(side * side * nc, sizeof(*counts));
	unsigned maxc = 1;
	size_t marks = 0;
	char cls[16];

	for (size_t i = 0; i < sc->n; i++) {
		const struct svg_point *p = &sc->pts[i];
		size_t cx, cy, k;
		struct cell *c;

		if (!usable(p))
			continue;
		cx = (size_t)((ax_px(a, p->x, 0) - SC_X0) / BIN_PX);
		cy = (size_t)((ax_px(a, p->y, 1) - SC_Y0) / BIN_PX);
		k = (cy < side ? cy : side - 1) * side +
		    (cx < side ? cx : side - 1);
		c = &cells[k];
		if (!c->count++ || p->shape < c->shape)
			c->shape = p->shape;
		c->sol |= p->sol != 0;
		counts[k * nc + (p->cls < sc->nclasses ? p->cls : nc - 1)]++;
		if (c->count > maxc)
			maxc = c->count;
	}
	for (size_t k = 0; k < side * side; k++) {
		size_t best = 0;
		double op;

		if (!cells[k].count)
			continue;
		for (size_t j = 1; j < nc; j++)
			if (counts[k * nc + j] > counts[k * nc + best])
				best = j;
		op = 0.35 + 0.65 * log((double)cells[k].count) /
		     log((double)maxc + 1);
		snprintf(cls, sizeof(cls), "k%zu mk", best % NPALETTE);
		svg_marker(sb, cells[k].shape, SC_X0 + (double)(k % side) * BIN_PX +
		       BIN_PX / 2, SC_Y0 + (double)(k / side) * BIN_PX +
		       BIN_PX / 2, 2.6, cls, op);
		*used |= 1u << cells[k].shape;
		if (++marks % 8 == 0)
			strbuf_addch(sb, '\n');
	}
	for (size_t k = 0; k < side * side; k++) {	/* stars on top */
		if (!cells[k].sol)
			continue;
		svg_sol_mark(sb, SC_X0 + (double)(k % side) * BIN_PX + BIN_PX / 2,
			     SC_Y0 + (double)(k / side) * BIN_PX + BIN_PX / 2,
			     "sol");
		(*nsol)++;
	}
	free(cells);
	free(counts);
	return marks;
}

static void scatter_points(struct strbuf *sb, const struct svg_scatter *sc,
			   const struct logaxis *a, size_t *used, size_t *nsol)
{
	char cls[16];

	/* highest-priority shapes last, so they are drawn on top */
	for (int s = SVG_NSHAPES - 1; s >= 0; s--) {
		for (size_t i = 0; i < sc->n; i++) {
			const struct svg_point *p = &sc->pts[i];

			if (p->shape != (unsigned)s || !usable(p))
				continue;
			snprintf(cls, sizeof(cls), "k%u mk", (unsigned)(p->cls % NPALETTE));
			svg_tip_open(sb, p->tip);
			svg_marker(sb, p->shape, ax_px(a, p->x, 0), ax_px(a, p->y, 1),
			       3.4, cls, 1);
			svg_tip_close(sb, p->tip);
			strbuf_addch(sb, '\n');
			*used |= 1u << p->shape;
		}
	}
	for (size_t i = 0; i < sc->n; i++) {	/* stars on top */
		const struct svg_point *p = &sc->pts[i];

		if (!p->sol || !usable(p))
			continue;
		svg_sol_mark(sb, ax_px(a, p->x, 0), ax_px(a, p->y, 1), "sol");
		(*nsol)++;
	}
}

void svg_scatter(struct strbuf *sb, const struct svg_scatter *sc)
{
	struct logaxis a;
	double lo = INFINITY, hi = -INFINITY;
	size_t skipped = 0, used = 0, marks = 0, nsol = 0, sol = 0;
	size_t max = sc->max_marks ? sc->max_marks : 3000;
	unsigned char *used_cls;

	for (size_t i = 0; i < sc->n; i++) {
		if (!usable(&sc->pts[i])) {
			skipped++;
			continue;
		}
		lo = fmin(lo, fmin(sc->pts[i].x, sc->pts[i].y));
		hi = fmax(hi, fmax(sc->pts[i].x, sc->pts[i].y));
	}
	svg_open(sb, SC_W, SC_H, sc->title, "scatter");
	if (skipped == sc->n) {
		strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\">no "
			    "positive values to plot</text>\n</svg>\n", SC_X0,
			    SC_Y0 + 40);
		return;
	}
	a.lmin = floor(log10(lo));
	a.lmax = ceil(log10(hi));
	if (a.lmax <= a.lmin)
		a.lmax = a.lmin + 1;
	scatter_axes(sb, sc, &a);
	scatter_band(sb, sc, &a);
	if (sc->n - skipped > max)
		marks = scatter_binned(sb, sc, &a, &used, &nsol);
	else
		scatter_points(sb, sc, &a, &used, &nsol);
	used_cls = xcalloc(sc->nclasses + 1, 1);
	for (size_t i = 0; i < sc->n; i++) {
		if (!usable(&sc->pts[i]))
			continue;
		sol += sc->pts[i].sol != 0;
		if (sc->pts[i].cls < sc->nclasses)
			used_cls[sc->pts[i].cls] = 1;
	}
	svg_scatter_legend(sb, sc, used_cls, used, nsol);
	free(used_cls);
	strbuf_addf(sb, "<text class=\"sm\" x=\"%d\" y=\"%d\">%zu points",
		    SC_X0, SC_H - 8, sc->n - skipped);
	if (marks)
		strbuf_addf(sb, ", binned into %zu cells (shade = density)",
			    marks);
	if (skipped)
		strbuf_addf(sb, "; %zu not plotted (zero, negative or missing)",
			    skipped);
	svg_sol_caption(sb, sol, nsol);
	if (sc->band > 0)
		strbuf_addf(sb, "; band: y = x \xc2\xb1%g%%", sc->band * 100);
	strbuf_addstr(sb, "</text>\n</svg>\n");
}
