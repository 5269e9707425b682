/* Inline SVG figures for the HTML report (see svg.h): the frame, colours,
 * labels and markers every figure uses; the scatter is svg_scatter.c, the
 * histogram and trend svg_chart.c, the error plots svg_err.c. */
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
