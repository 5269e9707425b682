/*
 * Trend: the core's error statistics for every version of the model
 * source against the same reference, in release order, with
 * sparklines and a braille line chart of MAPE. `b` shows the MAPE of
 * each op class, then each op, per version (the core's groups, as
 * `compare --group-by`). Enter opens the regressions between the
 * version under the cursor and the one before it (grouped: between the
 * last two versions, in the group under the cursor).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/corr/correlate.h"
#include "src/pairidx/pairidx.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/plot.h"
#include "tui/status.h"
#include "tui/trend_series.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "tui/view_trend.h"

static void trend_done(struct view *v)
{
	struct trend *t = v->priv;

	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->versions[i]);
	free(t->versions);
	free(t->sum);
	free(t->ok);
	free(t->model);
	free(t->ref);
	trend_series_release(&t->ser);
	free(t->ser_err);
	trend_groups_free(t);
	free(t);
	v->priv = NULL;
	v->nrows = 0;
}

static int trend_open(struct view *v)
{
	const struct pidx *set = v->tui->data.ix;
	struct trend *t;
	size_t by = v->priv ? ((struct trend *)v->priv)->by : 0;
	int rc;

	trend_done(v);
	if (!set)
		return 0;
	t = v->priv = xcalloc(1, sizeof(*t));
	t->by = by;
	t->bound = data_bound(&v->tui->data);
	t->model = xstrdup(set->model.source);
	t->ref = xasprintf("%s@%s", set->ref.source, set->ref.version);
	if ((rc = corr_versions(v->tui->db, t->model, &t->versions, &t->n)) < 0)
		return rc;
	t->sum = xcalloc(t->n ? t->n : 1, sizeof(*t->sum));
	t->ok = xcalloc(t->n ? t->n : 1, sizeof(*t->ok));
	for (size_t i = 0; i < t->n; i++) {
		struct corr_query q = CORR_QUERY_INIT;
		char *spec = xasprintf("%s@%s", t->model, t->versions[i]);

		/* from the pair cache: a summary read, not a pairing */
		q.model = spec;
		q.ref = t->ref;
		q.roofline = v->tui->data.roofline;
		q.allow_mismatch = v->tui->data.allow_mismatch;
		t->ok[i] = pidx_summary(v->tui->db, &q, &t->sum[i]) == 0;
		free(spec);
	}
	v->nrows = t->n;
	if (t->by && (rc = trend_groups_load(v, t)) < 0)
		return rc;
	/* a version that cannot be paired (cycles without a clock ...)
	 * leaves the summaries shown and says why the tests are not */
	if (!t->by && !t->bound && trend_series_load(&t->ser, v->tui->db,
						     t->model, t->ref,
					v->tui->data.roofline,
					v->tui->data.allow_mismatch, t->versions,
					t->n) < 0) {
		t->ser_err = xstrdup(pc_error_last());
		pc_error_clear();
	}
	view_clamp(v);
	return 0;
}

static void trend_info(struct view *v, char *buf, size_t len)
{
	struct trend *t = v->priv;

	if (t)
		snprintf(buf, len, "%s versions%s vs %s (reference fixed)%s%s%s",
			 t->model, t->bound ? " (bound)" : "", t->ref,
			 t->by ? ", " : "", t->by ? (t->bound ? "SoL per " :
			 "MAPE per ") : "", t->by ? (t->by == 1 ? "op class" :
			 "op") : "");
}

/* The columns at width w: p90 from 92 columns (the rest fit 80). */
static int show_p90(int w)
{
	return w >= 92;
}

static int version_width(int w)
{
	int vw = w - 66 - (show_p90(w) ? 8 : 0);

	return vw < 8 ? 8 : vw > 20 ? 20 : vw;
}

/* The release-change test's verdict, short: worse, better, n.s.,
 * unknown (no test: too few workloads). */
static const char *verdict_cell(const struct corr_change *c)
{
	if (!c->verdict || c->p.n == 0)
		return "-";
	if (!strcmp(c->verdict, "not significant"))
		return "n.s.";
	return c->verdict;
}

/* A bound's row (issue 35): the fraction of speed of light the
 * reference reaches (the core's efficiency, geomean), the pairs that
 * beat it, r; its versions differ by how close the bound is, not by an
 * error to test. */
static void bound_row(int y, int w, const struct trend *t, size_t i,
		      enum theme_role role)
{
	const struct stats_summary *s = &t->sum[i];
	int vw = version_width(w);
	char f[16], r[16];

	fmt_pct(f, sizeof(f), s->efficiency, 0);
	fmt_num(r, sizeof(r), s->pearson, 3);
	draw_textf(y, 0, w, role, "  %-*.*s %6ld %7s %7ld %6s", vw, vw,
		   t->versions[i], s->n, f, s->sol_violations, r);
}

static void row(int y, int w, const struct trend *t, size_t i,
		enum theme_role role)
{
	const struct stats_summary *s = &t->sum[i];
	int vw = version_width(w);
	char mape[16], bias[16], p90[16], r[16], ch[48], p[16], cols[24];
	const char *step = trend_series_step(&t->ser, i);
	const struct corr_change *c = t->ser.has_ch && t->ser.has_ch[i] ?
				      &t->ser.ch[i] : NULL;

	if (role == TH_CURSOR)
		draw_fill(y, 0, w, TH_CURSOR);
	if (!t->ok[i]) {
		draw_textf(y, 0, w, role == TH_CURSOR ? role : TH_DIM,
			   "  %-*.*s  (nothing paired)", vw, vw,
			   t->versions[i]);
		return;
	}
	if (t->bound) {
		bound_row(y, w, t, i, role);
		return;
	}
	fmt_pct(mape, sizeof(mape), s->mape, 0);
	fmt_pct(bias, sizeof(bias), s->bias, 1);
	fmt_pct(p90, sizeof(p90), s->p90_abs_err, 0);
	fmt_num(r, sizeof(r), s->pearson, 3);
	snprintf(cols, sizeof(cols), show_p90(w) ? " %7s" : "%s",
		 show_p90(w) ? p90 : "");
	if (c && isfinite(c->p.delta))
		snprintf(ch, sizeof(ch), "%+.2f pt", c->p.delta * 100);
	else
		snprintf(ch, sizeof(ch), "%s", c ? "-" : "");
	if (c && isfinite(c->p.p_two))
		snprintf(p, sizeof(p), "%.2g", c->p.p_two);
	else
		snprintf(p, sizeof(p), "%s", c ? "-" : "");
	draw_textf(y, 0, w, role, "  %-*.*s %6ld %7s %7s%s %6s %10s %7s %-7s "
		   "%-6s", vw, vw, t->versions[i], s->n, mape, bias, cols, r,
		   ch, p, c ? verdict_cell(c) : "", step ? step : "");
}

/* The change points, under the table: a heading and one line per step
 * (at most h lines in all). Returns the lines drawn. */
static int steps_draw(const struct trend *t, int y, int h, int w)
{
	const struct corr_cpd *c = &t->ser.cpd;
	char a[16], b[16];
	int k = 0;

	if (h >= 1 && t->bound) {
		draw_text(y, 0, w, "  a bound: no release-change test or change "
			  "points (they judge MAPE)", TH_DIM);
		return 1;
	}
	if (h >= 1 && t->ser_err) {
		draw_text(y, 0, w, "  release changes and change points not "
			  "computed:", TH_DIM);
		if (h >= 2)
			draw_textf(y + 1, 0, w, TH_DIM, "    %s", t->ser_err);
		return h >= 2 ? 2 : 1;
	}
	if (h < 1 || !t->ser.ch)
		return 0;
	if (c->why) {
		draw_textf(y, 0, w, TH_DIM, "  change points: not searched: %s",
			   c->why);
		return 1;
	}
	if (!c->nsteps) {
		draw_textf(y, 0, w, TH_DIM, "  change points: none (the best "
			   "split has p %.3g > %g)", c->p_stop, c->opts.alpha);
		return 1;
	}
	draw_textf(y, 0, w, TH_HEADER, "  change points (E-Divisive, %zu "
		   "common pairs, alpha %g):", c->common, c->opts.alpha);
	for (k = 0; k < (int)c->nsteps && k + 1 < h; k++) {
		const struct corr_cpd_step *st = &c->steps[k];

		fmt_pct(a, sizeof(a), st->mape_before, 0);
		fmt_pct(b, sizeof(b), st->mape_after, 0);
		draw_textf(y + 1 + k, 0, w, TH_NORMAL, "    %s -> %s: MAPE %s ->"
			   " %s, p %.3g: %s", t->versions[st->prev],
			   t->versions[st->version], a, b, st->p, st->label);
	}
	return k + 1;
}

/* The version labels under the chart: the first and the last, then
 * every other that fits without touching a neighbour. */
static void x_labels(const struct trend *t, int y, int x0, int cw, int w)
{
	char *used = xcalloc((size_t)w + 1, 1);

	for (size_t pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < t->n; k++) {
			size_t i = pass ? k : (k ? t->n - 1 : 0);
			int end = pass ? 0 : 1, col, len, at, free_run = 1;

			if ((pass && (i == 0 || i == t->n - 1)) ||
			    (!pass && k > (size_t)end))
				continue;
			col = x0 + (int)((double)i / (double)(t->n - 1) *
					 (2 * cw - 1)) / 2;
			len = (int)strlen(t->versions[i]);
			len = len > 12 ? 12 : len;
			at = col - len / 2;
			at = at < x0 ? x0 : at + len > w ? w - len : at;
			if (at < 0)
				continue;
			for (int c = at - 1; c <= at + len && free_run; c++)
				if (c >= 0 && c < w && used[c])
					free_run = 0;
			if (!free_run)
				continue;
			memset(used + at, 1, (size_t)len);
			draw_textf(y, at, len, TH_DIM, "%.*s", len,
				   t->versions[i]);
		}
	free(used);
}

static void chart(struct view *v, int y, int h, int w)
{
	struct trend *t = v->priv;
	double *mape = xmalloc((t->n ? t->n : 1) * sizeof(*mape));
	double *bias = xmalloc((t->n ? t->n : 1) * sizeof(*bias));
	double hi = 0;
	char spark[1024], top[16];
	struct plot_canvas c;
	int cw = w - 12, ch = h - 5, px = -1, py = -1;

	/* a bound: the fraction of speed of light and the pairs that beat
	 * it, in the places of MAPE and |bias| */
	for (size_t i = 0; i < t->n; i++) {
		mape[i] = !t->ok[i] ? NAN : t->bound ? t->sum[i].efficiency :
			  t->sum[i].mape;
		bias[i] = !t->ok[i] ? NAN : t->bound ?
			  (double)t->sum[i].sol_violations :
			  fabs(t->sum[i].bias);
		if (isfinite(mape[i]) && mape[i] > hi)
			hi = mape[i];
	}
	if (h >= 1) {
		plot_sparkline(mape, t->n, draw_ascii(), spark, sizeof(spark));
		draw_textf(y, 0, w, TH_NORMAL, "    %s %s", t->bound ? " SoL" :
			   "MAPE", spark);
	}
	if (h >= 2) {
		/* |bias|: a bias shrinking towards 0 draws lower (better) */
		plot_sparkline(bias, t->n, draw_ascii(), spark, sizeof(spark));
		draw_textf(y + 1, 0, w, TH_NORMAL, "  %s %s", t->bound ?
			   "  beat" : "|bias|", spark);
	}
	if (ch >= 2 && cw >= 8 && t->n > 1 && hi > 0) {
		plot_canvas_init(&c, cw, ch);
		for (size_t i = 0; i < t->n; i++) {
			int x, yy;

			if (!isfinite(mape[i]))
				continue;
			x = (int)((double)i / (double)(t->n - 1) * (2 * cw - 1));
			yy = 4 * ch - 1 - (int)(mape[i] / hi * (4 * ch - 1));
			if (px >= 0)
				plot_canvas_line(&c, px, py, x, yy);
			plot_canvas_set(&c, x, yy);
			px = x;
			py = yy;
		}
		fmt_pct(top, sizeof(top), hi, 0);
		draw_text(y + 3, 0, w, t->bound ? "  SoL by version (geomean)" :
			  "  MAPE by version", TH_HEADER);
		draw_text_right(y + 4, 0, 8, top, TH_DIM);
		draw_text_right(y + 3 + ch, 0, 8, "0%", TH_DIM);
		draw_canvas(y + 4, 10, &c, TH_PLOT, NULL, NULL, TH_PLOT, NULL);
		plot_canvas_release(&c);
		x_labels(t, y + 4 + ch, 10, cw, w);
	}
	free(mape);
	free(bias);
}

static void trend_draw(struct view *v, int y, int h, int w)
{
	struct trend *t = v->priv;
	int th, vw = version_width(w), used;

	if (!t)
		return;
	if (t->by && t->n) {
		trend_groups_draw(v, y, h, w);
		return;
	}
	if (!t->n) {
		draw_text(y, 2, w - 2, "no versions", TH_DIM);
		return;
	}
	th = (int)t->n < h / 2 - 2 ? (int)t->n : h / 2 - 2;
	if (th < 1)
		th = 1;
	if (t->bound)
		draw_textf(y, 0, w, TH_COLHEAD, "  %-*s %6s %7s %7s %6s", vw,
			   "version", "n", "SoL", "beat", "r");
	else
		draw_textf(y, 0, w, TH_COLHEAD, "  %-*s %6s %7s %7s%s %6s %10s "
			   "%7s %-7s %-6s", vw, "version", "n", "MAPE", "bias",
			   show_p90(w) ? "     p90" : "", "r", "change", "p",
			   "verdict", "step");
	v->height = th;
	view_clamp(v);
	for (int k = 0; k < th && v->top + (size_t)k < t->n; k++) {
		size_t i = v->top + (size_t)k;

		row(y + 1 + k, w, t, i, i == v->cursor ? TH_CURSOR : TH_NORMAL);
	}
	used = 1 + th;
	if (v->cursor < t->n && t->ser.has_ch && t->ser.has_ch[v->cursor]) {
		struct strbuf sb = STRBUF_INIT;

		corr_change_line(&sb, &t->ser.ch[v->cursor]);
		draw_textf(y + used, 0, w, TH_DIM, "  %s vs %s: %s",
			   t->versions[v->cursor],
			   t->versions[t->ser.prev[v->cursor]], strbuf_str(&sb));
		strbuf_release(&sb);
	}
	used++;
	used += steps_draw(t, y + used, h - used - 2 > 1 ? (h - used) / 3 : 1,
			   w);
	chart(v, y + used, h - used, w);
}

static void spec(char *buf, size_t len, const char *src, const char *ver)
{
	snprintf(buf, len, "%s@%s", src, ver);
}

/* Enter: the regressions view between two versions. */
static int open_regressions(struct view *v)
{
	struct trend *t = v->priv;
	struct tui *tu = v->tui;
	size_t to;

	if (!t || t->n < 2) {
		status_error("one version only: nothing to compare it with");
		return TUI_HANDLED | TUI_REDRAW;
	}
	to = t->by ? t->n - 1 : v->cursor;
	if (to == 0) {
		status_error("%s is the first version: nothing before it",
			     t->versions[0]);
		return TUI_HANDLED | TUI_REDRAW;
	}
	spec(tu->regress_from, sizeof(tu->regress_from), t->model,
	     t->versions[to - 1]);
	spec(tu->regress_to, sizeof(tu->regress_to), t->model,
	     t->versions[to]);
	snprintf(tu->regress_ref, sizeof(tu->regress_ref), "%s", t->ref);
	tu->regress_by[0] = tu->regress_group[0] = '\0';
	if (t->by && v->cursor < t->ng) {
		/* "gemm time": the key's value, then the metric */
		const char *name = t->gnames[v->cursor];
		const char *sp = strrchr(name, ' ');

		snprintf(tu->regress_by, sizeof(tu->regress_by), "%s",
			 trend_group_keys[t->by]);
		snprintf(tu->regress_group, sizeof(tu->regress_group), "%.*s",
			 (int)(sp ? (size_t)(sp - name) : strlen(name)), name);
		snprintf(tu->regress_metric, sizeof(tu->regress_metric), "%s",
			 sp ? sp + 1 : "");
	}
	tui_show(tu, VIEW_REGRESS);
	return TUI_HANDLED | TUI_REDRAW;
}

static int trend_handle(struct view *v, int action)
{
	struct trend *t = v->priv;

	if (action == ACT_ENTER)
		return open_regressions(v);
	if (action == ACT_GROUP_BY && t) {
		t->by = (t->by + 1) % TREND_NKEYS;
		v->cursor = v->top = 0;
		if (trend_open(v) < 0)
			status_error("%s", pc_error_last());
		return TUI_HANDLED | TUI_REDRAW;
	}
	if (action != ACT_CYCLE_PAIR)
		return 0;
	if (data_cycle_pair(&v->tui->data) < 0) {
		status_error("%s", pc_error_last());
		return TUI_HANDLED;
	}
	v->tui->detail_point = (size_t)-1;
	if (trend_open(v) < 0)
		status_error("%s", pc_error_last());
	v->gen = v->tui->data.gen;
	return TUI_HANDLED | TUI_REDRAW;
}

static int trend_match(struct view *v, size_t r, const char *needle)
{
	struct trend *t = v->priv;

	if (t && t->by)
		return r < t->ng && strstr(t->gnames[r], needle) != NULL;
	return t && r < t->n && strstr(t->versions[r], needle) != NULL;
}

static const int trend_footer[] = { ACT_ENTER, ACT_GROUP_BY, ACT_CYCLE_PAIR,
	ACT_VIEW_NEXT,
	ACT_VIEW_HELP, ACT_BACK, 0 };

const struct view_ops trend_ops = {
	.name = "trend",
	.title = "Trend",
	.footer = trend_footer,
	.open = trend_open,
	.info = trend_info,
	.draw = trend_draw,
	.handle = trend_handle,
	.match = trend_match,
	.done = trend_done,
};
