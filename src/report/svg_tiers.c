/* The accuracy-against-cost figure of the tiers (see svg.h). */
#include "src/report/svg.h"
#include "src/report/svg_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"

/* Plot area and the legend to its right. */
enum { TW = 660, TH = 420, TX0 = 74, TX1 = 470, TY0 = 44, TY1 = 350 };

static double xpos(double cost, double lo, double hi)
{
	return TX0 + 14 + (log10(cost) - lo) / (hi - lo) * (TX1 - TX0 - 28);
}

static double ypos(double mape, double top)
{
	return TY1 - mape / top * (TY1 - TY0);
}

static int pt_cmp(const void *a, const void *b)
{
	const struct svg_tier_pt *x = *(const struct svg_tier_pt *const *)a;
	const struct svg_tier_pt *y = *(const struct svg_tier_pt *const *)b;

	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	return (x->cost > y->cost) - (x->cost < y->cost);
}

static void axes(struct strbuf *sb, double lo, double hi, double top,
		 const char *unit)
{
	char b[32];

	for (int k = 0; k <= 4; k++) {
		double v = top * k / 4, y = ypos(v, top);

		strbuf_addf(sb, "<path class=\"gr\" d=\"M%d %.1fH%d\"/>\n"
			    "<text class=\"tx\" x=\"%d\" y=\"%.1f\" text-anchor="
			    "\"end\">%.3g%%</text>\n", TX0, y, TX1, TX0 - 6,
			    y + 4, 100 * v);
	}
	for (int e = (int)lo; e <= (int)hi; e++) {
		double x = xpos(pow(10, e), lo, hi);

		svg_fmt_si(b, sizeof(b), pow(10, e), unit);
		strbuf_addf(sb, "<path class=\"gr\" d=\"M%.1f %dV%d\"/>\n"
			    "<text class=\"tx\" x=\"%.1f\" y=\"%d\" text-anchor="
			    "\"middle\">", x, TY0, TY1, x, TY1 + 16);
		svg_label(sb, b, 12);
		strbuf_addstr(sb, "</text>\n");
	}
	strbuf_addf(sb, "<path class=\"ax\" d=\"M%d %dV%dH%d\"/>\n"
		    "<text class=\"tx\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		    "cost per workload (", TX0, TY0, TY1, TX1, (TX0 + TX1) / 2,
		    TY1 + 34);
	svg_label(sb, unit, 12);
	strbuf_addf(sb, ", log)</text>\n<text class=\"tx\" transform=\""
		    "rotate(-90 16 %d)\" x=\"16\" y=\"%d\" text-anchor=\"middle\">"
		    "MAPE</text>\n", (TY0 + TY1) / 2, (TY0 + TY1) / 2);
}

static void legend(struct strbuf *sb, const struct svg_tiers *t)
{
	int y = TY0 + 4;

	strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\">class</text>\n",
		    TX1 + 24, y);
	for (size_t k = 0; k < t->nclasses && k < 10; k++) {
		char cls[16];

		y += 16;
		snprintf(cls, sizeof(cls), "k%zu", k % SVG_NPALETTE);
		strbuf_addf(sb, "<path class=\"%s\" stroke-width=\"2\" d=\"M%d "
			    "%dh14\"/>\n<text class=\"tx\" x=\"%d\" y=\"%d\">",
			    cls, TX1 + 24, y - 4, TX1 + 44, y);
		svg_label(sb, t->classes[k], 18);
		strbuf_addstr(sb, "</text>\n");
	}
	y += 26;
	strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\">tier</text>\n",
		    TX1 + 24, y);
	for (size_t s = 0; s < t->nshapes && s < SVG_NSHAPES; s++) {
		y += 16;
		svg_marker(sb, (unsigned)s, TX1 + 31, y - 4, 4, "lg", 1);
		strbuf_addf(sb, "<text class=\"tx\" x=\"%d\" y=\"%d\">",
			    TX1 + 44, y);
		svg_label(sb, t->shapes[s], 18);
		strbuf_addstr(sb, "</text>\n");
	}
}

void svg_tiers(struct strbuf *sb, const struct svg_tiers *t)
{
	const struct svg_tier_pt **p = xcalloc(t->n + 1, sizeof(*p));
	double lo = INFINITY, hi = -INFINITY, top = 0;
	size_t n = 0, bad = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (!(t->pts[i].cost > 0) || !isfinite(t->pts[i].cost) ||
		    !isfinite(t->pts[i].mape)) {
			bad++;
			continue;
		}
		p[n++] = &t->pts[i];
		lo = fmin(lo, floor(log10(t->pts[i].cost)));
		hi = fmax(hi, ceil(log10(t->pts[i].cost)));
		top = fmax(top, t->pts[i].mape);
	}
	if (!n)
		lo = 0, hi = 1;
	if (hi <= lo)
		hi = lo + 1;
	top = svg_nice_ceil(top > 0 ? top * 1.1 : 0.1);
	svg_open(sb, TW, TH, t->title, "tiers");
	axes(sb, lo, hi, top, t->unit);
	qsort(p, n, sizeof(*p), pt_cmp);
	/* one line per class through its tiers, cheapest first */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		char cls[16];

		snprintf(cls, sizeof(cls), "k%u", p[i]->cls % SVG_NPALETTE);
		strbuf_addf(sb, "<path class=\"%s\" stroke-width=\"1.5\" "
			    "style=\"fill:none\" d=\"", cls);
		for (; j < n && p[j]->cls == p[i]->cls; j++)
			strbuf_addf(sb, "%c%.1f %.1f", j == i ? 'M' : 'L',
				    xpos(p[j]->cost, lo, hi),
				    ypos(p[j]->mape, top));
		strbuf_addstr(sb, "\"/>\n");
		for (; i < j; i++) {
			svg_tip_open(sb, p[i]->tip);
			svg_marker(sb, p[i]->shape, xpos(p[i]->cost, lo, hi),
				   ypos(p[i]->mape, top), 4.5, cls, 1);
			svg_tip_close(sb, p[i]->tip);
			strbuf_addch(sb, '\n');
		}
	}
	if (t->limit > 0 && t->limit < top) {
		strbuf_addf(sb, "<path class=\"lim\" d=\"M%d %.1fH%d\"/>\n"
			    "<text class=\"sm\" x=\"%d\" y=\"%.1f\" text-anchor="
			    "\"end\">limit %.3g%%</text>\n", TX0, ypos(t->limit,
			    top), TX1, TX1 - 4, ypos(t->limit, top) - 4,
			    100 * t->limit);
	}
	legend(sb, t);
	strbuf_addf(sb, "<text class=\"sm\" x=\"12\" y=\"%d\">%zu point%s "
		    "(class x tier)", TH - 14, n, n == 1 ? "" : "s");
	if (bad + t->left_out)
		strbuf_addf(sb, "; %zu left out (no cost, another cost unit, "
			    "or no error)", bad + t->left_out);
	strbuf_addstr(sb, "; the reference is at 0 by definition</text>\n"
		      "</svg>\n");
	free(p);
}
