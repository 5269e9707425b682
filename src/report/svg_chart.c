/* The histogram of signed errors and the MAPE trend (see svg.h), and the
 * axis helpers they share with svg_err.c. Split from svg.c (issue 33). */
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

/* Histogram and trend geometry. */
enum { CH_W = 560, CH_H = 320, CH_X0 = 56, CH_X1 = 540, CH_Y0 = 40,
       CH_Y1 = 250 };

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
			    hist_x(r * i / 2, r), CH_Y1 + 19,
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

/* The longest legend name (characters, ellipsis included) that lets
 * the first 6 entries fit the chart's width. */
static size_t legend_cap(const struct svg_series *series, size_t ns)
{
	size_t cap = 16;

	for (; cap > 4; cap--) {
		double w = 0;

		for (size_t k = 0; k < ns && k < 6; k++) {
			size_t len = strlen(series[k].name);

			w += 8 + 6.6 * (double)((len < cap ? len : cap) + 1) +
			     16;
		}
		if (w <= CH_X1 - CH_X0 - 8)
			break;
	}
	return cap;
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
	/* the legend: each entry as wide as its name (11-px text, at most
	 * 6.6 px a character), so a long name never runs into the next
	 * (issue 35: "output_thr..." touched "tpot") */
	for (size_t k = 0, x0 = 0, cap = legend_cap(series, ns); k < ns &&
	     k < 6; k++) {
		size_t len = strlen(series[k].name) < cap ?
			     strlen(series[k].name) : cap;
		double x = CH_X0 + 8 + (double)x0;

		snprintf(cls, sizeof(cls), "k%zu", k % NPALETTE);
		svg_marker(sb, (unsigned)(k % SVG_NSHAPES), x, h - 12, 3.6, cls, 1);
		strbuf_addf(sb, "<text class=\"tx\" x=\"%.1f\" y=\"%d\">", x + 8,
			    h - 8);
		svg_label(sb, series[k].name, cap);
		strbuf_addstr(sb, "</text>\n");
		x0 += 8 + (size_t)(6.6 * (double)(len + 1)) + 16;
	}
	strbuf_addstr(sb, "</svg>\n");
}
