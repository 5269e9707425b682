/*
 * Summary: the core's statistics per group (op class, op, metric or
 * workload), a log-log braille scatter of model against reference with
 * the y = x line, and a histogram of the signed errors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/correlate.h"
#include "src/pairidx.h"
#include "src/base/error.h"
#include "src/corrgroup.h"
#include "src/base/util.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/plot.h"
#include "tui/rows.h"
#include "tui/status.h"
#include "tui/tui.h"
#include "tui/view.h"

#define HIST_LIMIT 0.5		/* the histogram spans -50% .. +50% */

struct summary {
	size_t by;			/* index in the index's group keys */
	const struct corrgroup *groups;	/* the core's, from the pair index
					   (compare --group-by); borrowed */
	struct plot_canvas dots, diag;	/* cached for plot_w x plot_h */
	int plot_w, plot_h;
	long *bins;			/* histogram, cached for nbins */
	int nbins;
};

static void free_groups(struct summary *s)
{
	s->groups = NULL;
	plot_canvas_release(&s->dots);
	plot_canvas_release(&s->diag);
	s->plot_w = s->plot_h = 0;
	free(s->bins);
	s->bins = NULL;
	s->nbins = 0;
}

static const char *key_name(struct view *v)
{
	const struct pidx *x = v->tui->data.ix;
	struct summary *s = v->priv;

	return x && s && s->by < x->ngroup_keys ? x->group_keys[s->by] : "?";
}

/* Groups for the current key: op class, op, metric, workload, then each
 * workload parameter (param.bs, param.phase ...), precomputed by the
 * pair index, so a key costs a read, not a grouping. */
static int summary_open(struct view *v)
{
	struct summary *s = v->priv;
	struct pidx *x = v->tui->data.ix;
	int rc;

	if (!s)
		s = v->priv = xcalloc(1, sizeof(*s));
	free_groups(s);
	v->nrows = 1;
	if (!x || !x->ngroup_keys)
		return 0;
	if (s->by >= x->ngroup_keys)
		s->by = 0;
	if ((rc = pidx_groups(x, x->group_keys[s->by], &s->groups)) < 0)
		return rc;
	v->nrows = s->groups->n + 1;
	view_clamp(v);
	return 0;
}

static void summary_done(struct view *v)
{
	if (v->priv)
		free_groups(v->priv);
	free(v->priv);
	v->priv = NULL;
}

static void summary_info(struct view *v, char *buf, size_t len)
{
	struct summary *s = v->priv;
	char pair[256];

	snprintf(buf, len, "%s | by %s", data_pair_label(&v->tui->data, pair,
		 sizeof(pair)), s ? key_name(v) : "?");
}

/* A group's value; the workloads without the parameter: "(no bs)". */
static const char *group_label(struct view *v, size_t g, char *buf,
			       size_t len)
{
	struct summary *s = v->priv;
	const char *key = key_name(v);

	if (*s->groups->values[g])
		return s->groups->values[g];
	snprintf(buf, len, "(no %s)", !strncmp(key, "param.", 6) ? key + 6 :
		 key);
	return buf;
}

static void stat_row(int y, int w, const char *name,
		     const struct stats_summary *st, enum theme_role role)
{
	char mape[16], bias[16], p90[16], mx[16], r[16], rho[16], agg[16];

	fmt_pct(mape, sizeof(mape), st->mape, 0);
	fmt_pct(bias, sizeof(bias), st->bias, 1);
	fmt_pct(p90, sizeof(p90), st->p90_abs_err, 0);
	fmt_pct(mx, sizeof(mx), st->max_abs_err, 0);
	fmt_pct(agg, sizeof(agg), st->agg_err, 0);
	fmt_num(r, sizeof(r), st->pearson, 3);
	fmt_num(rho, sizeof(rho), st->spearman, 3);
	if (role == TH_CURSOR)
		draw_fill(y, 0, w, TH_CURSOR);
	draw_textf(y, 0, w, role, "  %-22.22s %7ld %7s %7s %7s %7s %7s %6s %6s",
		   name, st->n, mape, bias, p90, mx, agg, r, rho);
}

/* Fill the scatter canvases for a w x h cell plot from the index's
 * log-log occupancy grid (one cell of the grid is a dot or less). */
static void build_scatter(struct view *v, int w, int h)
{
	struct summary *s = v->priv;
	const struct pidx_scatter *g = pidx_scatter(v->tui->data.ix);
	int dw = 2 * w, dh = 4 * h;

	plot_canvas_release(&s->dots);
	plot_canvas_release(&s->diag);
	plot_canvas_init(&s->dots, w, h);
	plot_canvas_init(&s->diag, w, h);
	s->plot_w = w;
	s->plot_h = h;
	if (!g || g->empty)
		return;
	plot_canvas_line(&s->diag, 0, dh - 1, dw - 1, 0);
	for (int gy = 0; gy < PIDX_GRID; gy++)
		for (int gx = 0; gx < PIDX_GRID; gx++) {
			int x, y;

			if (!(g->cell[gy][gx / 8] & (1u << (gx % 8))))
				continue;
			x = (int)((double)gx * (dw - 1) / (PIDX_GRID - 1) + 0.5);
			y = (int)((double)gy * (dh - 1) / (PIDX_GRID - 1) + 0.5);
			plot_canvas_set(&s->dots, x, dh - 1 - y);
		}
}

static void draw_scatter(struct view *v, int y, int h, int w)
{
	struct summary *s = v->priv;
	const struct pidx_scatter *g = pidx_scatter(v->tui->data.ix);
	char lo[16], hi[16];
	int pw = w - 9, ph = h - 2;

	if (pw < 8 || ph < 3 || !g)
		return;
	if (s->plot_w != pw || s->plot_h != ph)
		build_scatter(v, pw, ph);
	draw_text(y, 0, w, "model vs reference (log-log, y = x)", TH_HEADER);
	fmt_si(lo, sizeof(lo), pow(10, g->lo));
	fmt_si(hi, sizeof(hi), pow(10, g->hi));
	draw_text_right(y + 1, 0, 8, hi, TH_DIM);
	draw_text_right(y + ph, 0, 8, lo, TH_DIM);
	draw_canvas(y + 1, 9, &s->dots, TH_PLOT, "o", &s->diag, TH_PLOT_REF,
		    "/");
	draw_textf(y + 1 + ph, 9, pw, TH_DIM, "%-*s%s", pw - (int)strlen(hi),
		   lo, hi);
}

static void draw_histogram(struct view *v, int y, int x0, int h, int w)
{
	struct summary *s = v->priv;
	const struct pidx *x = v->tui->data.ix;
	int nb = w - 2 > 60 ? 60 : w - 2, bh = h - 2;
	long *bins, top = 0;

	if (nb < 5 || bh < 2)
		return;
	if (s->nbins != nb) {
		double *err = xmalloc((x->n ? x->n : 1) * sizeof(*err));

		for (size_t i = 0; i < x->n; i++)
			err[i] = x->keys[i].err;
		free(s->bins);
		s->bins = xcalloc((size_t)nb, sizeof(*s->bins));
		s->nbins = nb;
		plot_histogram(err, x->n, -HIST_LIMIT, HIST_LIMIT, s->bins,
			       nb);
		free(err);
	}
	bins = s->bins;
	for (int b = 0; b < nb; b++)
		if (bins[b] > top)
			top = bins[b];
	draw_textf(y, x0, w, TH_HEADER, "error histogram (max %ld a bin)",
		   top);
	for (int b = 0; top && b < nb; b++) {
		double height = (double)bins[b] / (double)top * bh;
		double mid = -HIST_LIMIT + (b + 0.5) * 2 * HIST_LIMIT / nb;
		int sev = data_severity(&v->tui->data, mid);
		enum theme_role role = sev == 2 ? TH_SEV_FAIL : sev == 1 ?
				       TH_SEV_WARN : TH_SEV_OK;

		for (int r = 0; r < bh; r++)
			draw_text(y + bh - r, x0 + 1 + b, 1, plot_bar_glyph(height, r,
				  draw_ascii()), role);
	}
	draw_textf(y + bh + 1, x0 + 1, nb, TH_DIM, "%-*s0%*s", nb / 2, "-50%",
		   nb - nb / 2 - 1, "+50%");
}

static void summary_draw(struct view *v, int y, int h, int w)
{
	struct summary *s = v->priv;
	int rows = (int)v->nrows, th, half = w / 2;
	char none[64];

	if (!s || !v->tui->data.ix || !s->groups)
		return;
	th = rows < h / 2 - 1 ? rows : h / 2 - 1;
	draw_textf(y, 0, w, TH_COLHEAD, "  %-22s %7s %7s %7s %7s %7s %7s %6s "
		   "%6s", key_name(v), "n", "MAPE", "bias", "p90", "max",
		   "agg", "r", "rho");
	v->height = th > 0 ? th : 1;
	view_clamp(v);
	for (int k = 0; k < th && v->top + (size_t)k < v->nrows; k++) {
		size_t i = v->top + (size_t)k;
		enum theme_role role = i == v->cursor ? TH_CURSOR :
				       i ? TH_NORMAL : TH_HEADER;

		if (i == 0)
			stat_row(y + 1 + k, w, "(all)", &v->tui->data.sum, role);
		else
			stat_row(y + 1 + k, w, group_label(v, i - 1, none,
				 sizeof(none)), &s->groups->stats[i - 1], role);
	}
	y += th + 2;
	h -= th + 2;
	draw_scatter(v, y, h, half - 1);
	draw_histogram(v, y, half, h, w - half);
}

static int summary_handle(struct view *v, int action)
{
	struct summary *s = v->priv;

	if (!s)
		return 0;
	switch (action) {
	case ACT_GROUP_BY:
		s->by = v->tui->data.ix && s->by + 1 <
			v->tui->data.ix->ngroup_keys ? s->by + 1 : 0;
		v->cursor = v->top = 0;
		if (summary_open(v) < 0)
			status_error("%s", pc_error_last());
		else
			status_report("grouped by %s", key_name(v));
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_CYCLE_PAIR:
		if (data_cycle_pair(&v->tui->data) < 0) {
			status_error("%s", pc_error_last());
			return TUI_HANDLED;
		}
		v->tui->detail_point = (size_t)-1;
		v->cursor = v->top = 0;
		if (summary_open(v) < 0)
			status_error("%s", pc_error_last());
		v->gen = v->tui->data.gen;
		return TUI_HANDLED | TUI_REDRAW;
	}
	return 0;
}

static int summary_match(struct view *v, size_t row, const char *needle)
{
	struct summary *s = v->priv;

	return s->groups && row > 0 && row <= s->groups->n &&
	       rows_contains(s->groups->values[row - 1], needle);
}

static const int summary_footer[] = { ACT_GROUP_BY, ACT_CYCLE_PAIR,
	ACT_VIEW_NEXT, ACT_VIEW_HELP, ACT_BACK, 0 };

const struct view_ops summary_ops = {
	.name = "summary",
	.title = "Summary",
	.footer = summary_footer,
	.open = summary_open,
	.info = summary_info,
	.draw = summary_draw,
	.handle = summary_handle,
	.match = summary_match,
	.done = summary_done,
};
