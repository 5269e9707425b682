/* Inline SVG figures for the HTML report (see svg.h). */
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

/* Okabe-Ito (colour-blind safe) first, then Tableau 10 extras. */
static const char *const palette[] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
	"#F0E442", "#000000", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPALETTE SVG_NPALETTE
_Static_assert(sizeof(palette) / sizeof(palette[0]) == SVG_NPALETTE,
	       "svg_int.h counts the palette");

/* Histogram and trend geometry. */
enum { CH_W = 560, CH_H = 320, CH_X0 = 56, CH_X1 = 540, CH_Y0 = 40,
       CH_Y1 = 250 };

#define BIN_PX 5.0
#define PI 3.14159265358979323846

const char *svg_colour(size_t i)
{
	return palette[i % NPALETTE];
}

void svg_fmt_si(char *buf, size_t len, double v, const char *unit)
{
	static const char *const pre[] = { "f", "p", "n", "\xc2\xb5", "m", "",
		"k", "M", "G", "T", "P" };
	int e3;

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (!unit || !*unit || !strcmp(unit, "1") || v == 0) {
		snprintf(buf, len, "%.3g%s%s", v, unit && *unit &&
			 strcmp(unit, "1") ? " " : "", unit && strcmp(unit, "1")
			 ? unit : "");
		return;
	}
	e3 = (int)floor(log10(fabs(v)) / 3.0 + 1e-9) * 3;
	if (e3 < -15)
		e3 = -15;
	if (e3 > 15)
		e3 = 15;
	snprintf(buf, len, "%.3g %s%s", v / pow(10, e3), pre[e3 / 3 + 5],
		 unit);
}

/* Escape s into sb, at most max characters (an ellipsis marks a cut). */
void svg_label(struct strbuf *sb, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t chars = 0, bytes = 0;
	char *cut;

	while (p[bytes] && chars < max) {
		size_t n = html_utf8_len(p + bytes);

		bytes += n ? n : 1;
		chars++;
	}
	if (!p[bytes]) {
		html_escape(sb, s);
		return;
	}
	cut = xstrndup(s, bytes);
	html_escape(sb, cut);
	strbuf_addstr(sb, "\xe2\x80\xa6");
	free(cut);
}

void svg_open(struct strbuf *sb, int w, int h, const char *title,
		     const char *kind)
{
	strbuf_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		    "class=\"fig fig-%s\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		    "height=\"%d\" role=\"img\" aria-label=\"", kind, w, h, w,
		    h);
	html_escape(sb, title);
	strbuf_addstr(sb, "\">\n<title>");
	html_escape(sb, title);
	strbuf_addstr(sb, "</title>\n<style>"
		      ".ax{stroke:#333;stroke-width:1;fill:none}"
		      ".gr{stroke:#e3e3e3;stroke-width:1}"
		      ".tx{font:11px sans-serif;fill:#222}"
		      ".ti{font:bold 13px sans-serif;fill:#111}"
		      ".sm{font:10px sans-serif;fill:#555}"
		      ".bd{fill:#009E73;fill-opacity:.18;stroke:none}"
		      ".id{stroke:#009E73;stroke-width:1.2}"
		      ".lim{stroke:#009E73;stroke-width:1;stroke-dasharray:4 3}"
		      ".cr{fill:none;stroke-width:1.6}"
		      ".sol,.soll{fill:none;stroke:#B00020;stroke-width:1.5;"
		      "stroke-linejoin:round}"
		      /* a point's name stays legible over other marks */
		      ".wl,.hl{paint-order:stroke;stroke:#fff;stroke-width:3px;"
		      "stroke-linejoin:round}");
	for (size_t i = 0; i < NPALETTE; i++)
		strbuf_addf(sb, ".k%zu{fill:%s;stroke:%s}", i, palette[i],
			    palette[i]);
	strbuf_addstr(sb, ".mk{fill-opacity:.75;stroke-width:.6}"
		      ".lg{fill:#666;stroke:#666}</style>\n");
	strbuf_addf(sb, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n"
		    "<text class=\"ti\" x=\"%d\" y=\"22\">", w, h, 12);
	svg_label(sb, title, 80);
	strbuf_addstr(sb, "</text>\n");
}

void svg_tip_open(struct strbuf *sb, const char *tip)
{
	if (!tip)
		return;
	strbuf_addstr(sb, "<g><title>");
	strbuf_add_lines(sb, tip, html_escape, "&#10;");
	strbuf_addstr(sb, "</title>");
}

void svg_tip_close(struct strbuf *sb, const char *tip)
{
	if (tip)
		strbuf_addstr(sb, "</g>");
}

/* One marker of shape at (x, y), half-size s, with the given classes. */
void svg_marker(struct strbuf *sb, unsigned shape, double x, double y,
		   double s, const char *cls, double opacity)
{
	char op[40] = "";

	if (opacity < 1)
		snprintf(op, sizeof(op), " fill-opacity=\"%.2f\"", opacity);
	switch (shape) {
	case SVG_TRIANGLE:
		strbuf_addf(sb, "<path class=\"%s\"%s d=\"M%.1f %.1fl%.1f "
			    "%.1fh%.1fz\"/>", cls, op, x, y - 1.2 * s, 1.15 * s,
			    2.1 * s, -2.3 * s);
		break;
	case SVG_SQUARE:
		strbuf_addf(sb, "<path class=\"%s\"%s d=\"M%.1f %.1fh%.1fv%.1f"
			    "h%.1fz\"/>", cls, op, x - 0.9 * s, y - 0.9 * s,
			    1.8 * s, 1.8 * s, -1.8 * s);
		break;
	case SVG_DIAMOND:
		strbuf_addf(sb, "<path class=\"%s\"%s d=\"M%.1f %.1fl%.1f %.1f"
			    "l%.1f %.1fl%.1f %.1fz\"/>", cls, op, x, y - 1.3 * s,
			    1.2 * s, 1.3 * s, -1.2 * s, 1.3 * s, -1.2 * s,
			    -1.3 * s);
		break;
	case SVG_CROSS:
		strbuf_addf(sb, "<path class=\"%s cr\" d=\"M%.1f %.1fl%.1f %.1f"
			    "m0 %.1fl%.1f %.1f\"/>", cls, x - s, y - s, 2 * s,
			    2 * s, -2 * s, -2 * s, 2 * s);
		break;
	default:
		strbuf_addf(sb, "<circle class=\"%s\"%s cx=\"%.1f\" cy=\"%.1f\" "
			    "r=\"%.1f\"/>", cls, op, x, y, s);
		break;
	}
}

/* A hollow five-pointed star, outer radius 9 and inner 4.2 px: around a
 * 3.4-px mark it reads as a burst, in colour or in grey. */
void svg_sol_mark(struct strbuf *sb, double x, double y, const char *cls)
{
	strbuf_addf(sb, "<path class=\"%s\" d=\"", cls);
	for (int i = 0; i < 10; i++) {
		double a = PI / 5 * i - PI / 2, r = i % 2 ? 4.2 : 9;

		strbuf_addf(sb, "%c%.1f %.1f", i ? 'L' : 'M', x + r * cos(a),
			    y + r * sin(a));
	}
	strbuf_addstr(sb, "Z\"/>\n");
}

void svg_sol_caption(struct strbuf *sb, size_t nsol, size_t nmarks)
{
	if (!nsol)
		return;
	strbuf_addf(sb, "; %zu speed-of-light violation%s starred", nsol,
		    nsol == 1 ? "" : "s");
	if (nmarks != nsol)
		strbuf_addf(sb, " (%zu cell%s)", nmarks, nmarks == 1 ? "" : "s");
}

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
			    "text-anchor=\"middle\">", px, y1 + 16);
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

/* The smallest of 1, 2, 2.5, 5 x 10^k that is >= v (v > 0). */
double svg_nice_ceil(double v)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double p = pow(10, floor(log10(v)));

	for (size_t i = 0; i < 5; i++)
		if (steps[i] * p >= v * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

double svg_kth(double *v, size_t m, size_t k)
{
	return gsl_stats_select(v, 1, m, k);
}

/* y axis of counts or percent from 0 to top, 5 gridlines. */
static void chart_yaxis(struct strbuf *sb, double top, int percent)
{
	for (int i = 0; i <= 5; i++) {
		double v = top * i / 5, y = CH_Y1 - (CH_Y1 - CH_Y0) * i / 5.0;

		strbuf_addf(sb, "<path class=\"gr\" d=\"M%d %.1fH%d\"/><text "
			    "class=\"tx\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
			    "%g%s</text>\n", CH_X0, y, CH_X1, CH_X0 - 6, y + 4,
			    percent ? v * 100 : v, percent ? "%" : "");
	}
}

enum { HBINS = 40 };

static double hist_x(double e, double r)
{
	return CH_X0 + (e + r) / (2 * r) * (CH_X1 - CH_X0);
}

static void hist_bars(struct strbuf *sb, const long *bins, long top)
{
	double w = (double)(CH_X1 - CH_X0) / HBINS;

	for (int i = 0; i < HBINS; i++) {
		double h = (double)bins[i] / (double)top * (CH_Y1 - CH_Y0);

		if (!bins[i])
			continue;
		strbuf_addf(sb, "<rect class=\"%s\" fill-opacity=\".8\" "
			    "x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			    "<title>%ld</title></rect>\n", i < HBINS / 2 ? "k0" :
			    "k1", CH_X0 + i * w + 0.5, CH_Y1 - h, w - 1, h,
			    bins[i]);
	}
}

/* Axes, zero and limit lines, labels and captions of the histogram. */
static void hist_frame(struct strbuf *sb, double r, double band, size_t m,
		       long under, long over)
{
	for (int i = -2; i <= 2; i++)
		strbuf_addf(sb, "<text class=\"tx\" x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"middle\">%s%g%%</text>\n",
			    hist_x(r * i / 2, r), CH_Y1 + 16,
			    (i == -2 && under) ? "\xe2\x89\xa4" :
			    (i == 2 && over) ? "\xe2\x89\xa5" : "",
			    r * i / 2 * 100);
	strbuf_addf(sb, "<path class=\"ax\" d=\"M%d %dV%dH%d\"/>"
		    "<path class=\"id\" d=\"M%.1f %dV%d\"/>\n", CH_X0, CH_Y0,
		    CH_Y1, CH_X1, hist_x(0, r), CH_Y0, CH_Y1);
	if (band > 0 && band < r)
		strbuf_addf(sb, "<path class=\"lim\" d=\"M%.1f %dV%dM%.1f %dV%d"
			    "\"/>\n", hist_x(-band, r), CH_Y0, CH_Y1,
			    hist_x(band, r), CH_Y0, CH_Y1);
	strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\" text-anchor="
		    "\"middle\">signed error (model - ref) / ref</text>\n"
		    "<text class=\"sm\" x=\"%d\" y=\"%d\">%zu errors; blue: "
		    "model under, orange: model over", (CH_X0 + CH_X1) / 2,
		    CH_Y1 + 34, CH_X0, CH_H - 20, m);
	if (band > 0)
		strbuf_addf(sb, "; dashed: \xc2\xb1%g%%", band * 100);
	strbuf_addstr(sb, "</text>\n");
	if (under || over)
		strbuf_addf(sb, "<text class=\"sm\" x=\"%d\" y=\"%d\">%ld below "
			    "and %ld above the range are counted in the end "
			    "bins</text>\n", CH_X0, CH_H - 6, under, over);
}

void svg_histogram(struct strbuf *sb, const char *title, const double *err,
		   size_t n, double band)
{
	double *v = xmalloc((n ? n : 1) * sizeof(*v)), r;
	long bins[HBINS] = { 0 }, top = 1, under = 0, over = 0;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(err[i]))
			v[m++] = fabs(err[i]);
	svg_open(sb, CH_W, CH_H, title, "hist");
	if (!m) {
		strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\">no errors "
			    "to plot</text>\n</svg>\n", CH_X0, CH_Y0 + 40);
		free(v);
		return;
	}
	r = svg_nice_ceil(fmax(fmax(svg_kth(v, m, (size_t)(0.98 *
						 (double)(m - 1))),
				band * 1.5), 0.01));
	free(v);
	for (size_t i = 0; i < n; i++) {
		double e = err[i];
		long b;

		if (!isfinite(e))
			continue;
		b = (long)floor((e + r) / (2 * r) * HBINS);
		if (b < 0 || e < -r)
			b = 0, under += e < -r;
		if (b >= HBINS || e > r)
			b = HBINS - 1, over += e > r;
		if (++bins[b] > top)
			top = bins[b];
	}
	top = (long)svg_nice_ceil((double)top);
	if (top < 5)
		top = 5;
	chart_yaxis(sb, (double)top, 0);
	hist_bars(sb, bins, top);
	hist_frame(sb, r, band, m, under, over);
	strbuf_addstr(sb, "</svg>\n");
}

static double trend_x(size_t i, size_t nx)
{
	if (nx < 2)
		return (CH_X0 + CH_X1) / 2.0;
	return CH_X0 + 30 + (double)i * (CH_X1 - CH_X0 - 60) / (double)(nx - 1);
}

static void trend_series(struct strbuf *sb, const struct svg_series *s,
			 size_t nx, size_t k, double top, int labels)
{
	int pen = 0;
	char cls[16];

	snprintf(cls, sizeof(cls), "k%zu", k % NPALETTE);
	strbuf_addf(sb, "<path class=\"%s\" fill=\"none\" stroke-width=\"2\" "
		    "style=\"fill:none\" d=\"", cls);
	for (size_t i = 0; i < nx; i++) {
		if (!isfinite(s->y[i])) {
			pen = 0;
			continue;
		}
		strbuf_addf(sb, "%c%.1f %.1f", pen ? 'L' : 'M', trend_x(i, nx),
			    CH_Y1 - s->y[i] / top * (CH_Y1 - CH_Y0));
		pen = 1;
	}
	strbuf_addstr(sb, "\"/>\n");
	for (size_t i = 0; i < nx; i++) {
		double y;

		if (!isfinite(s->y[i]))
			continue;
		y = CH_Y1 - s->y[i] / top * (CH_Y1 - CH_Y0);
		svg_marker(sb, (unsigned)(k % SVG_NSHAPES), trend_x(i, nx), y, 3.6,
		       cls, 1);
		if (labels)	/* more than two series: labels collide */
			strbuf_addf(sb, "<text class=\"sm\" x=\"%.1f\" y=\"%.1f\""
				    " text-anchor=\"middle\">%.1f%%</text>\n",
				    trend_x(i, nx), k % 2 ? y + 16 : y - 8,
				    s->y[i] * 100);
	}
}

void svg_trend(struct strbuf *sb, const char *title,
	       const char *const *xlabels, size_t nx,
	       const struct svg_series *series, size_t ns)
{
	double top = 0;
	int tilt = nx > 6, h = tilt ? CH_H + 40 : CH_H;
	char cls[16];

	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < nx; i++)
			if (isfinite(series[k].y[i]))
				top = fmax(top, series[k].y[i]);
	svg_open(sb, CH_W, h, title, "trend");
	if (!nx || top <= 0)
		top = 0.1;
	top = svg_nice_ceil(top * 1.12);
	chart_yaxis(sb, top, 1);
	strbuf_addf(sb, "<path class=\"ax\" d=\"M%d %dV%dH%d\"/>\n", CH_X0,
		    CH_Y0, CH_Y1, CH_X1);
	for (size_t i = 0; i < nx; i++) {
		double x = trend_x(i, nx);

		strbuf_addf(sb, "<text class=\"tx\" x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"%s\"", x, CH_Y1 + 16, tilt ? "end" :
			    "middle");
		if (tilt)
			strbuf_addf(sb, " transform=\"rotate(-30 %.1f %d)\"", x,
				    CH_Y1 + 16);
		strbuf_addch(sb, '>');
		svg_label(sb, xlabels[i], tilt ? 14 : 20);
		strbuf_addstr(sb, "</text>\n");
	}
	for (size_t k = 0; k < ns; k++)
		trend_series(sb, &series[k], nx, k, top, ns <= 2);
	for (size_t k = 0; k < ns && k < 6; k++) {
		double x = CH_X0 + 8 + (double)k * 80;

		snprintf(cls, sizeof(cls), "k%zu", k % NPALETTE);
		svg_marker(sb, (unsigned)(k % SVG_NSHAPES), x, h - 12, 3.6, cls, 1);
		strbuf_addf(sb, "<text class=\"tx\" x=\"%.1f\" y=\"%d\">", x + 8,
			    h - 8);
		svg_label(sb, series[k].name, 10);
		strbuf_addstr(sb, "</text>\n");
	}
	strbuf_addstr(sb, "</svg>\n");
}
