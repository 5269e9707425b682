/* Error plots of the HTML report (see svg.h): the signed error against
 * the reference and the Bland-Altman panel, on the scatter's geometry
 * (svg_int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/html.h"
#include "base/strbuf.h"
#include "src/report/svg.h"
#include "src/report/svg_int.h"
#include "base/util.h"

#define CELL_PX 5.0

struct frame {
	double lmin, lmax;	/* x: log10 bounds, whole decades */
	double r;		/* y: -r .. r linear */
	double rmax;		/* y: beyond r up to rmax compressed (log)
				   into the outer bands; rmax == r: none */
};

/* The share of a half-height that is linear when the outer bands hold
 * gross outliers (issue 35: never clip the worst points). */
#define INNER 0.78
/* Outliers up to this many times the 98% range stretch the linear
 * range (+41.6% beside a 25% range); beyond it the outer bands hold
 * them on a log scale, so one 300x error does not flatten the rest. */
#define STRETCH 4.0

static double fx(const struct frame *f, double v)
{
	return SC_X0 + (log10(v) - f->lmin) / (f->lmax - f->lmin) * SC_SIDE;
}

static double fy(const struct frame *f, double v)
{
	double h = SC_SIDE / 2.0, a = fabs(v), d;

	if (f->rmax <= f->r) {
		d = fmin(a, f->r) / f->r * h;
	} else if (a <= f->r) {
		d = a / f->r * INNER * h;
	} else {
		d = (INNER + (1 - INNER) * log(fmin(a, f->rmax) / f->r) /
		     log(f->rmax / f->r)) * h;
	}
	return SC_Y0 + h - (v < 0 ? -d : d);
}

static int usable(const struct svg_point *p)
{
	return isfinite(p->x) && isfinite(p->y) && p->x > 0;
}

/* The y tick label of v: a percent error, or a model/ref ratio. */
static void ytick(char *b, size_t len, const struct svg_errplot *ep, double v)
{
	if (ep->kind == SVG_ERR_BA)
		snprintf(b, len, "%.3g\xc3\x97", exp(v));
	else
		snprintf(b, len, "%s%g%%", v > 0 ? "+" : "", v * 100);
}

static void axes(struct strbuf *sb, const struct svg_errplot *ep,
		 const struct frame *f)
{
	int span = (int)(f->lmax - f->lmin), step = (span + 7) / 8;
	int y1 = SC_Y0 + SC_SIDE;
	char lab[48];

	for (int k = (int)f->lmin; k <= (int)f->lmax; k++) {
		double px = fx(f, pow(10, k));

		strbuf_addf(sb, "<path class=\"gr\" d=\"M%.1f %dV%d\"/>", px,
			    SC_Y0, y1);
		if ((k - (int)f->lmin) % step)
			continue;
		svg_fmt_si(lab, sizeof(lab), pow(10, k), ep->unit);
		strbuf_addf(sb, "<text class=\"tx\" x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"middle\">", px, y1 + 19);
		html_escape(sb, lab);
		strbuf_addstr(sb, "</text>\n");
	}
	for (int i = -2; i <= 2; i++) {
		double v = f->r * i / 2, py = fy(f, v);

		ytick(lab, sizeof(lab), ep, v);
		strbuf_addf(sb, "<path class=\"%s\" d=\"M%d %.1fH%d\"/><text "
			    "class=\"tx\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
			    "%s</text>\n", abs(i) == 2 && f->rmax > f->r ? "lim" :
			    "gr", SC_X0, py, SC_X0 + SC_SIDE, SC_X0 - 6, py + 4,
			    lab);
	}
	/* the compressed outer bands: their ends, the largest |y| */
	for (int i = -1; f->rmax > f->r && i <= 1; i += 2) {
		double py = fy(f, i * f->rmax);

		ytick(lab, sizeof(lab), ep, i * f->rmax);
		strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">%s</text>\n", SC_X0 - 6,
			    py + (i > 0 ? 9 : 0), lab);
	}
	strbuf_addf(sb, "<rect class=\"ax\" x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\"/>\n<path class=\"id\" d=\"M%d %.1fH%d\"/>\n"
		    "<text class=\"tx\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		    SC_X0, SC_Y0, SC_SIDE, SC_SIDE, SC_X0, fy(f, 0),
		    SC_X0 + SC_SIDE, SC_X0 + SC_SIDE / 2, y1 + 36);
	svg_label(sb, ep->xlabel ? ep->xlabel : "reference", 60);
	strbuf_addf(sb, "</text><text class=\"tx\" transform=\"translate(16 %d)"
		    " rotate(-90)\" text-anchor=\"middle\">%s</text>\n",
		    SC_Y0 + SC_SIDE / 2, ep->kind == SVG_ERR_BA ?
		    "model / ref (log scale)" : "signed error (model - ref) / ref");
}

/* The +-band of a signed plot, the limits of agreement of a BA one:
 * the lines under the marks, then (text) their names over them, with
 * a white halo. */
static void guides(struct strbuf *sb, const struct svg_errplot *ep,
		   const struct frame *f, int text)
{
	/* the outer bands' scale, in the margin between their ticks */
	for (int i = -1; text && f->rmax > f->r && i <= 1; i += 2)
		strbuf_addf(sb, "<text class=\"sm\" x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">(log)</text>\n", SC_X0 - 6,
			    (fy(f, i * f->r) + fy(f, i * f->rmax)) / 2 + 4);
	if (ep->kind == SVG_ERR_SIGNED && ep->band > 0 && !text) {
		double b = fmin(ep->band, f->r);

		strbuf_addf(sb, "<rect class=\"bd\" x=\"%d\" y=\"%.1f\" width="
			    "\"%d\" height=\"%.1f\"/>\n", SC_X0, fy(f, b),
			    SC_SIDE, fy(f, -b) - fy(f, b));
		return;
	}
	if (ep->kind != SVG_ERR_BA || !isfinite(ep->lo) || !isfinite(ep->hi))
		return;
	for (int i = 0; i < 3; i++) {
		double v = i == 0 ? ep->lo : i == 1 ? ep->hi :
			   (ep->lo + ep->hi) / 2;
		char lab[48];

		ytick(lab, sizeof(lab), ep, v);
		if (!text)
			strbuf_addf(sb, "<path class=\"lim\" d=\"M%d %.1fH%d\"/>"
				    "\n", SC_X0, fy(f, v), SC_X0 + SC_SIDE);
		else
			strbuf_addf(sb, "<text class=\"sm hl\" x=\"%d\" y=\"%.1f\""
				    " text-anchor=\"end\">%s %s</text>\n",
				    SC_X0 + SC_SIDE - 4, fy(f, v) - 3, i == 2 ?
				    "mean" : i ? "upper LoA" : "lower LoA", lab);
	}
}

static size_t cell_of(double x, double y)
{
	size_t side = (size_t)(SC_SIDE / CELL_PX) + 1;
	size_t cx = (size_t)((x - SC_X0) / CELL_PX);
	size_t cy = (size_t)((y - SC_Y0) / CELL_PX);

	return (cy < side ? cy : side - 1) * side + (cx < side ? cx : side - 1);
}

/* The stars of the speed-of-light violations, on top of the marks: one
 * per point, or beyond max one per CELL_PX cell (occ non-NULL, reused
 * as the cells already starred). Returns the stars drawn. */
static size_t sol_marks(struct strbuf *sb, const struct svg_errplot *ep,
			const struct frame *f, unsigned char *occ)
{
	size_t side = (size_t)(SC_SIDE / CELL_PX) + 1, n = 0;

	if (occ)
		memset(occ, 0, side * side);
	for (size_t i = 0; i < ep->n; i++) {
		const struct svg_point *p = &ep->pts[i];
		double x, y;

		if (!p->sol || !usable(p))
			continue;
		x = fx(f, p->x);
		y = fy(f, p->y);
		if (occ) {
			size_t k = cell_of(x, y);

			if (occ[k])
				continue;
			occ[k] = 1;
		}
		svg_sol_mark(sb, x, y, "sol");
		n++;
	}
	return n;
}

/* Marks, at most one per CELL_PX cell beyond max, then the stars (their
 * count into *nsol); returns marks drawn. */
static size_t marks(struct strbuf *sb, const struct svg_errplot *ep,
		    const struct frame *f, size_t max, size_t *used,
		    size_t *clipped, size_t *nsol)
{
	size_t side = (size_t)(SC_SIDE / CELL_PX) + 1, drawn = 0, nuse = 0;
	unsigned char *occ = NULL;
	char cls[24];

	for (size_t i = 0; i < ep->n; i++)
		nuse += usable(&ep->pts[i]);
	if (nuse > max)
		occ = xcalloc(side * side, 1);
	for (size_t i = 0; i < ep->n; i++) {
		const struct svg_point *p = &ep->pts[i];
		double x, y;
		int clip;

		if (!usable(p))
			continue;
		x = fx(f, p->x);
		y = fy(f, p->y);
		clip = fabs(p->y) > fmax(f->r, f->rmax);
		*clipped += (size_t)clip;
		if (occ) {
			size_t k = cell_of(x, y);

			if (occ[k])
				continue;
			occ[k] = 1;
		}
		snprintf(cls, sizeof(cls), "k%u mk%s", p->cls % SVG_NPALETTE,
			 clip ? " cr" : "");
		svg_tip_open(sb, p->tip);
		svg_marker(sb, p->shape, x, y, 3.4, cls, 1);
		svg_tip_close(sb, p->tip);
		strbuf_addch(sb, '\n');
		*used |= 1u << p->shape;
		drawn++;
	}
	*nsol = sol_marks(sb, ep, f, occ);
	free(occ);
	return drawn;
}

/* Where a point's name was written (its baseline y, x extent). */
struct label_box {
	double x0, x1, y;
};

/* Does a label at baseline y over box[j]'s x extent touch one of the
 * first j? (10-px text: 11 px apart is clear.) */
static int overlaps(const struct label_box *box, size_t j, double y)
{
	for (size_t i = 0; i < j; i++)
		if (box[i].x0 < box[j].x1 && box[j].x0 < box[i].x1 &&
		    fabs(box[i].y - y) < 11)
			return 1;
	return 0;
}

/* Name the nlabel points of largest |y| next to their marks. */
static void labels(struct strbuf *sb, const struct svg_errplot *ep,
		   const struct frame *f)
{
	size_t k = ep->nlabel < 8 ? ep->nlabel : 8, pick[8];
	size_t got = 0;
	struct label_box box[8];

	if (!ep->labels)
		return;
	for (; got < k; got++) {
		long best = -1;

		for (size_t i = 0; i < ep->n; i++) {
			int taken = 0;

			if (!usable(&ep->pts[i]) || !ep->labels[i])
				continue;
			for (size_t j = 0; j < got; j++)
				taken |= pick[j] == i;
			if (!taken && (best < 0 || fabs(ep->pts[i].y) >
				       fabs(ep->pts[best].y)))
				best = (long)i;
		}
		if (best < 0)
			break;
		pick[got] = (size_t)best;
	}
	for (size_t j = 0; j < got; j++) {
		const struct svg_point *p = &ep->pts[pick[j]];
		double x = fx(f, p->x), y = fy(f, p->y), ty;
		int left = x > SC_X0 + SC_SIDE * 0.6;
		/* above the mark unless that leaves the plot; near the
		 * bottom edge (axis labels below) always above */
		int above = p->y >= 0 ? y - 14 > SC_Y0 :
			    y + 14 > SC_Y0 + SC_SIDE;
		size_t len = strlen(ep->labels[pick[j]]);

		box[j].x0 = left ? x - 6 - 5.6 * (double)(len < 28 ? len : 28) :
			    x + 6;
		box[j].x1 = left ? x - 6 : x + 6 + 5.6 * (double)(len < 28 ?
								 len : 28);
		ty = y + (above ? -5 : 12);
		/* two marks at the same place (clipped to an edge): step
		 * the later label away from the edge until it is clear */
		for (int tries = 0; tries < 8 && overlaps(box, j, ty); tries++)
			ty += y > SC_Y0 + SC_SIDE / 2.0 ? -11 : 11;
		box[j].y = ty;
		strbuf_addf(sb, "<text class=\"sm wl\" x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"%s\">", left ? x - 6 : x + 6, ty,
			    left ? "end" : "start");
		svg_label(sb, ep->labels[pick[j]], 28);
		strbuf_addstr(sb, "</text>\n");
	}
}

/* x decades and the y range: linear over the range that holds 98% of
 * the |y| (and the guides), stretched to hold the largest when that is
 * at most STRETCH times as far, else the largest on a log scale in the
 * outer bands: no point is ever clipped onto an edge (issue 35 item 6:
 * +41.6% was drawn on a +25% edge). */
static int frame_of(const struct svg_errplot *ep, struct frame *f)
{
	double lo = INFINITY, hi = -INFINITY, *v, q, need, top;
	size_t m = 0;

	v = xmalloc((ep->n ? ep->n : 1) * sizeof(*v));
	for (size_t i = 0; i < ep->n; i++) {
		if (!usable(&ep->pts[i]))
			continue;
		lo = fmin(lo, ep->pts[i].x);
		hi = fmax(hi, ep->pts[i].x);
		v[m++] = fabs(ep->pts[i].y);
	}
	if (!m) {
		free(v);
		return 0;
	}
	q = svg_kth(v, m, (size_t)(0.98 * (double)(m - 1)));
	top = svg_kth(v, m, m - 1);
	free(v);
	need = ep->kind == SVG_ERR_SIGNED ? ep->band * 1.5 :
	       isfinite(ep->lo) && isfinite(ep->hi) ?
	       fmax(fabs(ep->lo), fabs(ep->hi)) * 1.15 : 0;
	f->r = svg_nice_ceil(fmax(fmax(q * 1.05, need), 0.01));
	/* the worst points are what the reader looks for: a few beyond
	 * the 98% range stretch it, gross ones get the outer bands */
	if (top > f->r * STRETCH)
		f->rmax = top;
	else
		f->r = f->rmax = svg_nice_ceil(fmax(f->r, top * 1.05));
	f->lmin = floor(log10(lo));
	f->lmax = ceil(log10(hi));
	if (f->lmax <= f->lmin)
		f->lmax = f->lmin + 1;
	return (int)(m > 0);
}

void svg_errplot(struct strbuf *sb, const struct svg_errplot *ep)
{
	struct svg_scatter leg;
	struct frame f;
	size_t used = 0, clipped = 0, drawn, skipped = 0, nsol = 0, sol = 0;
	size_t max = ep->max_marks ? ep->max_marks : 3000;
	unsigned char *used_cls;

	svg_open(sb, SC_W, SC_H, ep->title, ep->kind == SVG_ERR_BA ? "ba" :
		 "err");
	if (!frame_of(ep, &f)) {
		strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\">no "
			    "positive values to plot</text>\n</svg>\n", SC_X0,
			    SC_Y0 + 40);
		return;
	}
	axes(sb, ep, &f);
	guides(sb, ep, &f, 0);
	drawn = marks(sb, ep, &f, max, &used, &clipped, &nsol);
	guides(sb, ep, &f, 1);
	labels(sb, ep, &f);
	used_cls = xcalloc(ep->nclasses + 1, 1);
	for (size_t i = 0; i < ep->n; i++) {
		if (!usable(&ep->pts[i])) {
			skipped++;
			continue;
		}
		sol += ep->pts[i].sol != 0;
		if (ep->pts[i].cls < ep->nclasses)
			used_cls[ep->pts[i].cls] = 1;
	}
	memset(&leg, 0, sizeof(leg));
	leg.classes = ep->classes;
	leg.nclasses = ep->nclasses;
	leg.shapes = ep->shapes;
	svg_scatter_legend(sb, &leg, used_cls, used, nsol);
	free(used_cls);
	strbuf_addf(sb, "<text class=\"sm\" x=\"%d\" y=\"%d\">%zu points",
		    SC_X0, SC_H - 8, ep->n - skipped);
	if (drawn < ep->n - skipped)
		strbuf_addf(sb, ", %zu marks (one per %g-pixel cell, largest "
			    "error first)", drawn, CELL_PX);
	if (clipped)
		strbuf_addf(sb, "; %zu beyond the range on its edge (crosses)",
			    clipped);

	if (skipped)
		strbuf_addf(sb, "; %zu not plotted", skipped);
	svg_sol_caption(sb, sol, nsol);
	strbuf_addstr(sb, "</text>\n</svg>\n");
}
