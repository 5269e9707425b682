/* The report's disagreement heatmap (see report_matrix_int.h): one SVG
 * per metric of the matrix, a cell per ordered pair of its grid. */
#include "src/report/report_matrix_int.h"

#include <math.h>
#include <stdio.h>

#include "base/html.h"
#include "base/strbuf.h"
#include "src/matrix/matrix.h"
#include "src/report/report_model.h"

static const char *heat(double mape)
{
	if (!isfinite(mape))
		return "#eeeeee";
	if (mape < 0.05)
		return "#c7e9c0";
	if (mape < 0.15)
		return "#fee08b";
	if (mape < 0.50)
		return "#fc8d59";
	return "#d73027";
}

/* A roofline cell of the heatmap: grey (a bound is not an error, so
 * no error colour), the fraction of speed of light written in it, a
 * red outline and the count when a source beats the roofline. */
static void sol_rect(struct strbuf *sb, const struct matrix_sol *s, int x,
		     int y, int cw, int ch)
{
	char a[32];

	if (s->kind == MSOL_FRAC)
		snprintf(a, sizeof(a), "%.1f%% SoL", s->frac * 100);
	else
		snprintf(a, sizeof(a), "n/a");
	/* the outline inside the cell: a neighbour's must not read as
	 * this one's */
	strbuf_addf(sb, "<rect class=\"sol\" x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\" fill=\"#eaeef2\" stroke=\"%s\" "
		    "stroke-width=\"1.5\"/><text x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\" fill=\"#424a53\">%s</text>", x + 1,
		    y + 1, cw - 4, ch - 4, s->violations ? "#cf222e" : "#eaeef2",
		    x + cw / 2, y + ch / 2 + (s->violations ? -1 : 4), a);
	if (s->violations)
		strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle"
			    "\" font-size=\"9\" fill=\"#cf222e\">%ld over SoL"
			    "</text>", x + cw / 2, y + ch - 6, s->violations);
}

/* An SVG heatmap of metric mi: a cell per ordered pair, colour by MAPE,
 * the value written in it (n and the concordance are in the table). */
void report_matrix_heatmap(struct strbuf *sb, const struct matrix *m,
			   size_t mi)
{
	const int lw = 120, cw = 84, ch = 30, top = 40;
	int nin = (int)m->metrics[mi].nin;
	int w = lw + cw * nin + 10, h = top + ch * nin + 10, col = 0, y;
	char a[32];

	strbuf_addf(sb, "<figure class=\"fig fig-heatmap\"><svg xmlns=\"http://"
		    "www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox="
		    "\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\" "
		    "role=\"img\">", w, h, w, h);
	/* the grid's sources only (a source without the metric is not in
	 * it): row and column positions count them */
	for (size_t j = 0; j < m->nsrc; j++) {
		if (!matrix_in_grid(m, mi, j))
			continue;
		strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
			    lw + cw * col++ + cw / 2, top - 8);
		html_escape(sb, m->src[j].label);
		strbuf_addstr(sb, "</text>");
	}
	y = top - ch;
	for (size_t i = 0; i < m->nsrc; i++) {
		if (!matrix_in_grid(m, mi, i))
			continue;
		y += ch;
		col = 0;
		strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			    lw - 6, y + ch / 2 + 4);
		html_escape(sb, m->src[i].label);
		strbuf_addstr(sb, "</text>");
		for (size_t j = 0; j < m->nsrc; j++) {
			const struct matrix_cell *c;
			int x = lw + cw * col;

			if (!matrix_in_grid(m, mi, j))
				continue;
			col++;
			if (i == j) {
				strbuf_addf(sb, "<rect x=\"%d\" y=\"%d\" width="
					    "\"%d\" height=\"%d\" fill=\"#ffffff"
					    "\" stroke=\"#cccccc\"/>", x, y,
					    cw - 2, ch - 2);
				continue;
			}
			c = matrix_cell(m, mi, i, j);
			if (c->sol.kind != MSOL_NONE) {
				sol_rect(sb, &c->sol, x, y, cw, ch);
				continue;
			}
			if (c->keys)
				report_fmt_pct(a, sizeof(a), c->s.mape);
			else	/* words, small enough for the cell */
				snprintf(a, sizeof(a), "%s", c->refused ?
					 "not comparable" : "no common keys");
			strbuf_addf(sb, "<rect x=\"%d\" y=\"%d\" width="
				    "\"%d\" height=\"%d\" fill=\"%s\" stroke="
				    "\"#ffffff\"/><text x=\"%d\" y=\"%d\" "
				    "text-anchor=\"middle\"%s>%s</text>", x, y,
				    cw - 2, ch - 2, heat(c->s.mape), x + cw / 2,
				    y + ch / 2 + 4, c->keys ? "" :
				    " font-size=\"9\"", a);
		}
	}
	strbuf_addstr(sb, "</svg><figcaption>");
	html_escape(sb, m->metrics[mi].metric);
	strbuf_addstr(sb, ": MAPE of each model (row) against each reference "
		      "(column) on the keys every source of the grid holds; "
		      "green under "
		      "5%, yellow under 15%, orange under 50%, red above. The "
		      "roofline is a bound, not a model: its row and column "
		      "(grey) hold the other source's median fraction of speed "
		      "of light on the keys both hold, outlined in red with "
		      "the count of keys faster than the roofline."
		      "</figcaption></figure>\n");
}
