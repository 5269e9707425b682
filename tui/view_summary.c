/*
 * Summary: the core's statistics per group (op class, op, metric or
 * workload), a log-log braille scatter of model against reference of
 * one metric with the y = x line and a histogram of that metric's
 * signed errors (never a plot across metrics: `m` picks the metric;
 * grouped by metric, the cursor's; tui/summary_plot.c). Enter lists the
 * group under the cursor in the Discrepancies view (its filter set to
 * the group).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/calib.h"
#include "src/corr/corr_calib.h"
#include "src/corr/correlate.h"
#include "src/corr/corrout.h"
#include "src/pairidx/pairidx.h"
#include "base/error.h"
#include "src/corr/corrgroup.h"
#include "base/util.h"
#include "src/corr/wabbr.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keycol.h"
#include "tui/keys.h"
#include "tui/plot.h"
#include "tui/rows.h"
#include "tui/status.h"
#include "tui/summary_plot.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "tui/view_discrep.h"

#define HIST_LIMIT 0.5		/* the histogram spans -50% .. +50% */
#define SOL_LIMIT 1.0		/* a bound's: 0 .. 200% of speed of light */

struct summary {
	size_t by;			/* index in the index's group keys */
	const struct corrgroup *groups;	/* the core's, from the pair index
					   (compare --group-by); borrowed */
	struct summary_plot plot;	/* of one metric, cached: a regroup
					   keeps it */
	int64_t metric;			/* the metric `m` chose, -1 = the
					   one with most points */
	struct wabbr wa;		/* grouped by workload: the parts
					   every group shares (keycol.h) */
	int have_wa;
	struct corr_calib cal;		/* calibration vs held out (issue
					   38 item 4); cal.have 0: no mark
					   calibrates a pair */
};

#define NAME_W 22	/* the group column */

static const char *key_name(struct view *v)
{
	const struct pidx *x = v->tui->data.ix;
	struct summary *s = v->priv;

	return x && s && s->by < x->ngroup_keys ? x->group_keys[s->by] : "?";
}

/* The calibration marks of the pair (perfcorr mark): when any applies,
 * the pairing is loaded once (full points, as compare loads it) and
 * split; nothing is read otherwise. A failure is said, the view goes
 * on. */
static void load_calib(struct view *v, struct summary *s)
{
	const struct pidx *x = v->tui->data.ix;
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *set = NULL;
	char m[256], r[256];
	int any = 0;

	memset(&s->cal, 0, sizeof(s->cal));
	if (db_calib_any(v->tui->db, x->model.source, &any) < 0 || !any) {
		pc_error_clear();
		return;
	}
	snprintf(m, sizeof(m), "%s@%s", x->model.source, x->model.version);
	snprintf(r, sizeof(r), "%s@%s", x->ref.source, x->ref.version);
	q.model = m;
	q.ref = r;
	q.roofline = v->tui->data.roofline;
	q.allow_mismatch = v->tui->data.allow_mismatch;
	q.no_params = 1;
	if (corr_load(&set, v->tui->db, &q) < 0 ||
	    corr_calib_build(&s->cal, set, v->tui->db, 0) < 0) {
		status_error("calibration marks: %s", pc_error_last());
		memset(&s->cal, 0, sizeof(s->cal));
	}
	corr_set_free(set);
}

/* "calibration 12 MAPE 2.79% bias -2.76% | held out 38 MAPE ..." */
static void draw_calib(const struct summary *s, int y, int w)
{
	char a[16], b[16], c[16], d[16];

	if (!s->cal.have)
		return;
	fmt_pct(a, sizeof(a), s->cal.cal.mape, 0);
	fmt_pct(b, sizeof(b), s->cal.cal.bias, 1);
	fmt_pct(c, sizeof(c), s->cal.held.mape, 0);
	fmt_pct(d, sizeof(d), s->cal.held.bias, 1);
	if (!s->cal.held.n)
		draw_textf(y, 2, w - 2, TH_SEV_WARN, "calibration %ld MAPE %s "
			   "bias %s | held out: none (perfcorr mark)",
			   s->cal.cal.n, a, b);
	else
		draw_textf(y, 2, w - 2, TH_HEADER, "calibration %ld MAPE %s "
			   "bias %s | held out %ld MAPE %s bias %s",
			   s->cal.cal.n, a, b, s->cal.held.n, c, d);
}

/* Groups for the current key: op class, op, metric, workload, then each
 * workload parameter (param.bs, param.phase ...), precomputed by the
 * pair index, so a key costs a read, not a grouping. */
static int summary_open(struct view *v)
{
	struct summary *s = v->priv;
	struct pidx *x = v->tui->data.ix;
	int rc;

	if (!s) {
		s = v->priv = xcalloc(1, sizeof(*s));
		s->metric = -1;
	}
	s->groups = NULL;
	v->nrows = 1;
	if (!x || !x->ngroup_keys)
		return 0;
	if (s->by >= x->ngroup_keys)
		s->by = 0;
	if ((rc = pidx_groups(x, x->group_keys[s->by], &s->groups)) < 0)
		return rc;
	load_calib(v, s);
	/* workload keys leave out what they all share, as every list of
	 * keys does (llama3-8b/max_concurre twice said nothing) */
	if (s->have_wa)
		wabbr_release(&s->wa);
	s->have_wa = !strcmp(x->group_keys[s->by], "workload");
	if (s->have_wa)
		wabbr_build(&s->wa, (const char *const *)s->groups->values,
			    s->groups->n);
	v->nrows = s->groups->n + 1;
	view_clamp(v);
	return 0;
}

static void summary_done(struct view *v)
{
	if (v->priv && ((struct summary *)v->priv)->have_wa)
		wabbr_release(&((struct summary *)v->priv)->wa);
	if (v->priv)
		summary_plot_release(&((struct summary *)v->priv)->plot);
	free(v->priv);
	v->priv = NULL;
}

static void summary_info(struct view *v, char *buf, size_t len)
{
	struct summary *s = v->priv;
	char pair[256];

	snprintf(buf, len, "%s | by %s", data_pair_label(&v->tui->data, pair,
		 sizeof(pair), draw_cols() < 100), s ? key_name(v) : "?");
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

/* The columns: the table's statistics for the Summary view (corrout.h),
 * an error 7 wide in percent (signed for the bias), a number 6 wide. */
static int col_width(const struct corrout_stat *st)
{
	return st->pct || st->count ? 7 : 6;
}

/* A roofline model is a bound, not a model (issue 35): its groups say
 * the fraction of speed of light the reference reaches (the core's
 * efficiency: the geomean of roofline / measured for a time, measured /
 * roofline for a rate) and how many pairs beat it, as the list's
 * header does; no MAPE, bias or error percentiles. */
static int bound_cols(char *buf, size_t len, const struct stats_summary *st)
{
	char f[16];

	fmt_pct(f, sizeof(f), st->efficiency, 0);
	return snprintf(buf, len, " %7s %6ld", f, st->sol_violations);
}

static void stat_cols(char *buf, size_t len, const struct stats_summary *st,
		      int bound)
{
	size_t at = 0;
	int n0;

	buf[0] = '\0';
	if (bound && (n0 = bound_cols(buf, len, st)) > 0)
		at = (size_t)n0 < len ? (size_t)n0 : len;
	for (size_t k = 0; k < corrout_stats_count() && at < len; k++) {
		const struct corrout_stat *c = corrout_stats_at(k);
		double v;
		char cell[16];
		int n;

		if (!(c->views & CORROUT_V_TUI) || (bound && c->pct))
			continue;
		v = corrout_stat_value(c, st);
		if (c->pct)
			fmt_pct(cell, sizeof(cell), v, !strcmp(c->key, "bias"));
		else if (c->count)
			snprintf(cell, sizeof(cell), "%.0f", v);
		else
			fmt_num(cell, sizeof(cell), v, 3);
		n = snprintf(buf + at, len - at, " %*s", col_width(c), cell);
		at += n > 0 ? (size_t)n : 0;
	}
}

static void stat_heads(char *buf, size_t len, int bound)
{
	size_t at = 0;
	int n0;

	buf[0] = '\0';
	/* SoL: the geomean fraction; beat: the pairs over 100% */
	if (bound && (n0 = snprintf(buf, len, " %7s %6s", "SoL", "beat")) > 0)
		at = (size_t)n0 < len ? (size_t)n0 : len;
	for (size_t k = 0; k < corrout_stats_count() && at < len; k++) {
		const struct corrout_stat *c = corrout_stats_at(k);
		int n;

		if (!(c->views & CORROUT_V_TUI) || (bound && c->pct))
			continue;
		n = snprintf(buf + at, len - at, " %*s", col_width(c),
			     c->abbr);
		at += n > 0 ? (size_t)n : 0;
	}
}

/* A group's row: its name in NAME_W columns (a workload key without the
 * parts every group shares, cut in the middle with ~ when still too
 * wide), then the statistics. */
static void stat_row(struct view *v, int y, int w, const char *name,
		     const struct stats_summary *st, enum theme_role role)
{
	struct summary *s = v->priv;
	char cols[256], buf[256];
	int ww;

	stat_cols(cols, sizeof(cols), st, data_bound(&v->tui->data));
	if (role == TH_CURSOR)
		draw_fill(y, 0, w, TH_CURSOR);
	if (s->have_wa && name[0] != '(')
		name = keycol_apply(&s->wa, keycol_fit(&s->wa, NAME_W, 0, &ww),
				    NAME_W, name, buf, sizeof(buf));
	draw_text_mid(y, 2, NAME_W, name, role);
	draw_textf(y, 2 + NAME_W, w - 2 - NAME_W, role, " %7ld%s", st->n,
		   cols);
}

/* The scatter's metric: grouped by metric, the cursor's group; else the
 * one `m` chose, else the one with the most points. */
static int64_t scatter_metric(struct view *v)
{
	struct summary *s = v->priv;
	const struct pidx *x = v->tui->data.ix;

	if (!strcmp(key_name(v), "metric") && v->cursor > 0 && s->groups &&
	    v->cursor <= s->groups->n)
		for (int64_t m = 0; m <= x->max_id[2]; m++)
			if (!strcmp(pidx_metric(x, m),
				    s->groups->values[v->cursor - 1]))
				return m;
	if (s->metric >= 0 && summary_plot_has(&s->plot, x, v->tui->data.gen,
						s->metric))
		return s->metric;
	return summary_plot_busiest(&s->plot, x, v->tui->data.gen);
}

/* `m`: the next metric (by id) that has points. */
static void next_metric(struct view *v)
{
	struct summary *s = v->priv;
	const struct pidx *x = v->tui->data.ix;
	int64_t cur = scatter_metric(v);

	for (int64_t k = 1; k <= x->max_id[2] + 1; k++) {
		int64_t m = (cur + k) % (x->max_id[2] + 1);

		if (summary_plot_has(&s->plot, x, v->tui->data.gen, m)) {
			s->metric = m;
			break;
		}
	}
	status_report("scatter: %s", pidx_metric(x, scatter_metric(v)));
}

/* The scatter's axis labels of metric m (lo and hi from its range, ""
 * when it has none) and their column's width: 8 ("100 ms"), wider for
 * a dimensionless value printed in full (100000000). */
static int axis_labels(struct view *v, int64_t m, char *lo, char *hi,
		       size_t len)
{
	struct summary *s = v->priv;
	const char *unit = data_metric_unit(&v->tui->data, m);
	double a, b;
	int w;

	lo[0] = hi[0] = '\0';
	if (m < 0)
		return 8;
	summary_plot_axis(&s->plot, v->tui->data.ix, v->tui->data.gen, m, &a,
			  &b);
	if (isnan(a))
		return 8;
	fmt_si_unit(lo, len, pow(10, a), unit, draw_ascii());
	fmt_si_unit(hi, len, pow(10, b), unit, draw_ascii());
	w = draw_width(lo) > draw_width(hi) ? draw_width(lo) : draw_width(hi);
	return w > 8 ? w : 8;
}

static void draw_scatter(struct view *v, int y, int h, int w, int64_t m,
			 const struct summary_plot_one *sp)
{
	const struct pidx *x = v->tui->data.ix;
	char lo[32], hi[32], name[32];
	int lw = axis_labels(v, m, lo, hi, sizeof(lo));
	int pw = w - lw - 1, ph = h - 2;

	if (pw < 8 || ph < 3 || !sp)
		return;
	/* the key `m` stays in sight at 80 columns (half is 39) */
	snprintf(name, sizeof(name), "%.20s", pidx_metric(x, m));
	if ((int)strlen(name) + 41 <= w)
		draw_textf(y, 0, w, TH_HEADER, "%s: model vs reference, "
			   "log-log (m: metric)", name);
	else
		draw_textf(y, 0, w, TH_HEADER, "%s: model vs ref, log-log "
			   "(m)", name);
	if (!isfinite(sp->lo)) {
		draw_text(y + 1, 2, w - 2, "no positive values to plot",
			  TH_DIM);
		return;
	}
	draw_text_right(y + 1, 0, lw, hi, TH_DIM);
	draw_text_right(y + ph, 0, lw, lo, TH_DIM);
	draw_canvas(y + 1, lw + 1, &sp->dots, TH_PLOT, "o", &sp->diag,
		    TH_PLOT_REF, "/");
	draw_textf(y + 1 + ph, lw + 1, pw, TH_DIM, "%-*s%s",
		   pw - draw_width(hi), lo, hi);
}

/* The number of histogram bins for a panel w wide (< 5: none). */
static int hist_bins(int w)
{
	return w - 2 > 60 ? 60 : w - 2;
}

/* The histogram's bins: the signed errors over -50% .. +50%, coloured
 * by severity; for a bound the fraction of speed of light each
 * reference reaches over 0 .. 200%, over 100% (beating the bound) in
 * the failing colour. */
static void draw_histogram(struct view *v, int y, int x0, int h, int w,
			   int64_t m, const struct summary_plot_one *sp)
{
	int nb = hist_bins(w), bh = h - 2, bound = sp && sp->sol;
	const long *bins;
	long top = 0;

	if (nb < 5 || bh < 2 || !sp)
		return;
	bins = sp->bins;
	for (int b = 0; b < nb; b++)
		if (bins[b] > top)
			top = bins[b];
	draw_textf(y, x0, w, TH_HEADER, "%s: %s (max %ld a bin)",
		   pidx_metric(v->tui->data.ix, m), bound ? "fraction of SoL" :
		   "error histogram", top);
	for (int b = 0; top && b < nb; b++) {
		double height = (double)bins[b] / (double)top * bh;
		double mid = -HIST_LIMIT + (b + 0.5) * 2 * HIST_LIMIT / nb;
		int sev = data_severity(&v->tui->data, mid);
		enum theme_role role = sev == 2 ? TH_SEV_FAIL : sev == 1 ?
				       TH_SEV_WARN : TH_SEV_OK;

		if (bound)	/* bin b's middle, as a fraction */
			role = (b + 0.5) * 2 * SOL_LIMIT / nb > 1 ?
			       TH_SEV_FAIL : TH_PLOT;
		for (int r = 0; r < bh; r++)
			draw_text(y + bh - r, x0 + 1 + b, 1, plot_bar_glyph(height, r,
				  draw_ascii()), role);
	}
	if (bound)
		draw_textf(y + bh + 1, x0 + 1, nb, TH_DIM, "%-*s100%%%*s",
			   nb / 2 - 2, "0%", nb - nb / 2 - 2, "200%");
	else
		draw_textf(y + bh + 1, x0 + 1, nb, TH_DIM, "%-*s0%*s", nb / 2,
			   "-50%", nb - nb / 2 - 1, "+50%");
}

static void summary_draw(struct view *v, int y, int h, int w)
{
	struct summary *s = v->priv;
	int rows = (int)v->nrows, th, half = w / 2;
	int bound = data_bound(&v->tui->data);
	int64_t m;
	const struct summary_plot_one *sp = NULL;
	char none[64], heads[256], alo[32], ahi[32];

	if (!s || !v->tui->data.ix || !s->groups)
		return;
	stat_heads(heads, sizeof(heads), data_bound(&v->tui->data));
	draw_text_cut(y, 2, NAME_W, s->have_wa ? keycol_heading(&s->wa,
		      keycol_fit(&s->wa, NAME_W, 0, &th)) : key_name(v),
		      TH_COLHEAD);
	draw_textf(y, 2 + NAME_W, w - 2 - NAME_W, TH_COLHEAD, " %7s%s", "n",
		   heads);
	th = rows < h / 2 - 1 ? rows : h / 2 - 1;
	v->height = th > 0 ? th : 1;
	view_clamp(v);
	for (int k = 0; k < th && v->top + (size_t)k < v->nrows; k++) {
		size_t i = v->top + (size_t)k;
		enum theme_role role = i == v->cursor ? TH_CURSOR :
				       i ? TH_NORMAL : TH_HEADER;

		if (i == 0)
			stat_row(v, y + 1 + k, w, "(all)", &v->tui->data.sum, role);
		else
			stat_row(v, y + 1 + k, w, group_label(v, i - 1, none,
				 sizeof(none)), &s->groups->stats[i - 1], role);
	}
	draw_calib(s, y + th + 1, w);
	y += th + 2;
	h -= th + 2;
	m = scatter_metric(v);
	if (m >= 0)	/* both plots of metric m, one pass, cached */
		sp = summary_plot_build(&s->plot, v->tui->data.ix,
					v->tui->data.gen, m, half - 1 -
					axis_labels(v, m, alo, ahi,
						    sizeof(alo)) - 1, h - 2,
					hist_bins(w - half), bound ? SOL_LIMIT :
					HIST_LIMIT, !bound ? 0 :
					data_metric_higher(&v->tui->data, m) ?
					2 : 1);
	draw_scatter(v, y, h, half - 1, m, sp);
	draw_histogram(v, y, half, h, w - half, m, sp);
}

/* Append value to the filter text so that `=` matches it exactly (glob
 * characters escaped). 0, or -1 when the filter cannot say it. */
static int filter_value(char *buf, size_t len, const char *field,
			const char *value)
{
	size_t n = (size_t)snprintf(buf, len, "%s=", field);

	if (!*value || strpbrk(value, " \t"))
		return -1;
	for (const char *p = value; *p && n + 2 < len; p++) {
		if (strchr("*?[\\", *p))
			buf[n++] = '\\';
		buf[n++] = *p;
	}
	buf[n] = '\0';
	return 0;
}

/* Enter: the Discrepancies view, filtered to the group under the cursor
 * ((all): no filter). */
static int drill(struct view *v)
{
	struct summary *s = v->priv;
	struct tui *t = v->tui;
	const char *key = key_name(v), *field = NULL, *value;
	char text[512];

	if (!s->groups || v->cursor == 0) {
		text[0] = '\0';
	} else {
		value = s->groups->values[v->cursor - 1];
		field = !strcmp(key, "op_class") ? "class" :
			!strcmp(key, "op") ? "op" :
			!strcmp(key, "metric") ? "metric" :
			!strcmp(key, "workload") ? "workload" : NULL;
		if (!field) {
			status_error("the list cannot filter by %s: group by "
				     "op class, op, metric or workload to open "
				     "a group", key);
			return TUI_HANDLED | TUI_REDRAW;
		}
		if (filter_value(text, sizeof(text), field, value) < 0) {
			status_error("the list's filter cannot name '%s' (empty "
				     "or with spaces)", value);
			return TUI_HANDLED | TUI_REDRAW;
		}
	}
	if (tui_show(t, VIEW_DISCREP) < 0)
		return TUI_HANDLED | TUI_REDRAW;
	if (discrep_set_filter(t->cur, text) < 0) {
		status_error("%s", pc_error_last());
		return TUI_HANDLED | TUI_REDRAW;
	}
	if (text[0])
		status_report("%zu rows match '%s' (the %s group of the "
			      "summary; F clears)", t->cur->nrows, text, key);
	return TUI_HANDLED | TUI_REDRAW;
}

static int summary_handle(struct view *v, int action)
{
	struct summary *s = v->priv;

	if (!s)
		return 0;
	switch (action) {
	case ACT_ENTER:
		return drill(v);
	case ACT_SCATTER_METRIC:
		if (v->tui->data.ix)
			next_metric(v);
		return TUI_HANDLED | TUI_REDRAW;
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

static const int summary_footer[] = { ACT_ENTER, ACT_GROUP_BY,
	ACT_SCATTER_METRIC, ACT_CYCLE_PAIR,
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
