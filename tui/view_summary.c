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
#include "src/error.h"
#include "src/corrgroup.h"
#include "src/util.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/plot.h"
#include "tui/rows.h"
#include "tui/status.h"
#include "tui/tui.h"
#include "tui/view.h"

#define HIST_LIMIT 0.5		/* the histogram spans -50% .. +50% */

static const char *const fixed_keys[] = { "op_class", "op", "metric",
	"workload" };
#define NFIXED (sizeof(fixed_keys) / sizeof(fixed_keys[0]))

struct summary {
	size_t by;			/* index in keys */
	char **keys;			/* fixed keys, then param.NAME */
	size_t nkeys;
	struct corrgroup groups;	/* from the core (compare --group-by) */
	int have_groups;
	struct canvas dots, diag;	/* cached for plot_w x plot_h */
	int plot_w, plot_h;
	double lo, hi;			/* log10 axis range */
};

static void free_groups(struct summary *s)
{
	if (s->have_groups)
		corrgroup_release(&s->groups);
	s->have_groups = 0;
	canvas_release(&s->dots);
	canvas_release(&s->diag);
	s->plot_w = s->plot_h = 0;
}

static void free_keys(struct summary *s)
{
	for (size_t i = 0; i < s->nkeys; i++)
		free(s->keys[i]);
	free(s->keys);
	s->keys = NULL;
	s->nkeys = 0;
}

/* The grouping keys: op class, op, metric, workload, then each workload
 * parameter of the loaded set (param.bs, param.phase ...). */
static void list_keys(struct summary *s, const struct corr_set *set)
{
	char **params = NULL;
	size_t np = 0;

	free_keys(s);
	corr_param_names(set, &params, &np);
	s->keys = xmalloc((NFIXED + np) * sizeof(*s->keys));
	for (size_t i = 0; i < NFIXED; i++)
		s->keys[s->nkeys++] = xstrdup(fixed_keys[i]);
	for (size_t i = 0; i < np; i++) {
		s->keys[s->nkeys++] = xasprintf("param.%s", params[i]);
		free(params[i]);
	}
	free(params);
	if (s->by >= s->nkeys)
		s->by = 0;
}

static int summary_open(struct view *v)
{
	struct summary *s = v->priv;
	const struct corr_set *set = v->tui->data.set;
	const char *by[1];
	int rc;

	if (!s)
		s = v->priv = xcalloc(1, sizeof(*s));
	free_groups(s);
	v->nrows = 1;
	if (!set)
		return 0;
	list_keys(s, set);
	by[0] = s->keys[s->by];
	if ((rc = corrgroup_build(&s->groups, set, by, 1, 0)) < 0)
		return rc;
	s->have_groups = 1;
	v->nrows = s->groups.n + 1;
	view_clamp(v);
	return 0;
}

static void summary_done(struct view *v)
{
	if (v->priv) {
		free_groups(v->priv);
		free_keys(v->priv);
	}
	free(v->priv);
	v->priv = NULL;
}

static void summary_info(struct view *v, char *buf, size_t len)
{
	struct summary *s = v->priv;
	char pair[256];

	snprintf(buf, len, "%s | by %s", data_pair_label(&v->tui->data, pair,
		 sizeof(pair)), s && s->nkeys ? s->keys[s->by] : "?");
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

/* Fill the scatter canvases for a w x h cell plot (log10 both axes). */
static void build_scatter(struct view *v, int w, int h)
{
	struct summary *s = v->priv;
	const struct corr_set *set = v->tui->data.set;
	double lo = INFINITY, hi = -INFINITY, span;
	int dw = 2 * w, dh = 4 * h;

	canvas_release(&s->dots);
	canvas_release(&s->diag);
	canvas_init(&s->dots, w, h);
	canvas_init(&s->diag, w, h);
	s->plot_w = w;
	s->plot_h = h;
	for (size_t i = 0; i < set->n; i++) {
		const struct corr_point *p = &set->points[i];

		if (p->model > 0 && p->ref > 0 && isfinite(p->model) &&
		    isfinite(p->ref)) {
			lo = fmin(lo, fmin(p->model, p->ref));
			hi = fmax(hi, fmax(p->model, p->ref));
		}
	}
	if (!(lo < INFINITY))
		return;
	s->lo = floor(log10(lo));
	s->hi = ceil(log10(hi));
	if (s->hi <= s->lo)
		s->hi = s->lo + 1;
	span = s->hi - s->lo;
	canvas_line(&s->diag, 0, dh - 1, dw - 1, 0);
	for (size_t i = 0; i < set->n; i++) {
		const struct corr_point *p = &set->points[i];
		int x, y;

		if (!(p->model > 0 && p->ref > 0))
			continue;
		x = (int)((log10(p->ref) - s->lo) / span * (dw - 1) + 0.5);
		y = (int)((log10(p->model) - s->lo) / span * (dh - 1) + 0.5);
		canvas_set(&s->dots, x, dh - 1 - y);
	}
}

static void draw_scatter(struct view *v, int y, int h, int w)
{
	struct summary *s = v->priv;
	char lo[16], hi[16];
	int pw = w - 9, ph = h - 2;

	if (pw < 8 || ph < 3)
		return;
	if (s->plot_w != pw || s->plot_h != ph)
		build_scatter(v, pw, ph);
	draw_text(y, 0, w, "model vs reference (log-log, y = x)", TH_HEADER);
	fmt_si(lo, sizeof(lo), pow(10, s->lo));
	fmt_si(hi, sizeof(hi), pow(10, s->hi));
	draw_text_right(y + 1, 0, 8, hi, TH_DIM);
	draw_text_right(y + ph, 0, 8, lo, TH_DIM);
	draw_canvas(y + 1, 9, &s->dots, TH_PLOT, "o", &s->diag, TH_PLOT_REF,
		    "/");
	draw_textf(y + 1 + ph, 9, pw, TH_DIM, "%-*s%s", pw - (int)strlen(hi),
		   lo, hi);
}

static void draw_histogram(struct view *v, int y, int x0, int h, int w)
{
	const struct corr_set *set = v->tui->data.set;
	int nb = w - 2 > 60 ? 60 : w - 2, bh = h - 2;
	long *bins, top = 0;
	double *err;

	if (nb < 5 || bh < 2)
		return;
	bins = xcalloc((size_t)nb, sizeof(*bins));
	err = xmalloc((set->n ? set->n : 1) * sizeof(*err));
	for (size_t i = 0; i < set->n; i++)
		err[i] = set->points[i].err;
	plot_histogram(err, set->n, -HIST_LIMIT, HIST_LIMIT, bins, nb);
	free(err);
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
	free(bins);
}

static void summary_draw(struct view *v, int y, int h, int w)
{
	struct summary *s = v->priv;
	int rows = (int)v->nrows, th, half = w / 2;

	if (!s || !v->tui->data.set || !s->have_groups)
		return;
	th = rows < h / 2 - 1 ? rows : h / 2 - 1;
	draw_textf(y, 0, w, TH_COLHEAD, "  %-22s %7s %7s %7s %7s %7s %7s %6s "
		   "%6s", s->keys[s->by], "n", "MAPE", "bias", "p90", "max",
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
			stat_row(y + 1 + k, w, s->groups.values[i - 1],
				 &s->groups.stats[i - 1], role);
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
		s->by = s->by + 1 < s->nkeys ? s->by + 1 : 0;
		v->cursor = v->top = 0;
		if (summary_open(v) < 0)
			status_error("%s", pc_error_last());
		else
			status_report("grouped by %s", s->keys[s->by]);
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

	return s->have_groups && row > 0 && row <= s->groups.n &&
	       rows_contains(s->groups.values[row - 1], needle);
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
