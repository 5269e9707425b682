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
#include "src/corr/corrgroup.h"
#include "src/pairidx/pairidx.h"
#include "base/error.h"
#include "base/util.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/plot.h"
#include "tui/status.h"
#include "tui/tui.h"
#include "tui/view.h"

struct trend {
	char **versions;
	size_t n;
	struct stats_summary *sum;
	int *ok;		/* 1 when the version paired anything */
	char *model, *ref;	/* source, ref spec */
	size_t by;		/* 0 overall, else group_keys[by] */
	char **gnames;		/* groups of that key, worst last MAPE first */
	size_t ng;
	double *gmape;		/* [g * n + version], NaN = not there */
};

static const char *const group_keys[] = { NULL, "op_class", "op" };
#define NKEYS (sizeof(group_keys) / sizeof(group_keys[0]))

static void groups_free(struct trend *t)
{
	for (size_t g = 0; g < t->ng; g++)
		free(t->gnames[g]);
	free(t->gnames);
	free(t->gmape);
	t->gnames = NULL;
	t->gmape = NULL;
	t->ng = 0;
}

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
	groups_free(t);
	free(t);
	v->priv = NULL;
	v->nrows = 0;
}

static size_t group_index(struct trend *t, const char *name)
{
	for (size_t g = 0; g < t->ng; g++)
		if (!strcmp(t->gnames[g], name))
			return g;
	t->gnames = xrealloc(t->gnames, (t->ng + 1) * sizeof(*t->gnames));
	t->gnames[t->ng] = xstrdup(name);
	return t->ng++;
}

static const struct trend *sort_t;	/* qsort has no context */

static double last_mape(const struct trend *t, size_t g)
{
	for (size_t i = t->n; i-- > 0;)
		if (isfinite(t->gmape[g * t->n + i]))
			return t->gmape[g * t->n + i];
	return NAN;
}

static int by_last_desc(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	double p = last_mape(sort_t, a), q = last_mape(sort_t, b);

	if (isnan(p) != isnan(q))
		return isnan(p) ? 1 : -1;
	if (p != q && !isnan(p))
		return p > q ? -1 : 1;
	return strcmp(sort_t->gnames[a], sort_t->gnames[b]);
}

/* The MAPE of every group of the key per version: each version paired
 * (corr_load) and grouped by the core (corrgroup_build, one group per
 * metric and key value: MAPE never pools metrics). */
static int load_groups(struct view *v, struct trend *t)
{
	const char *by[2] = { "metric", group_keys[t->by] };
	double *m = NULL;
	size_t *order, cap = 0;
	char **names;
	int rc = 0;

	for (size_t i = 0; !rc && i < t->n; i++) {
		struct corr_query q = CORR_QUERY_INIT;
		struct corr_set *s = NULL;
		struct corrgroup g;
		char *spec = xasprintf("%s@%s", t->model, t->versions[i]);

		q.model = spec;
		q.ref = t->ref;
		q.roofline = v->tui->data.roofline;
		rc = corr_load(&s, v->tui->db, &q);
		free(spec);
		if (rc == PC_ENOTFOUND) {	/* this version pairs nothing */
			pc_error_clear();
			rc = 0;
			continue;
		}
		if (rc < 0 || (rc = corrgroup_build(&g, s, by, 2, 0)) < 0) {
			corr_set_free(s);
			break;
		}
		for (size_t k = 0; k < g.n; k++) {
			char *name = xasprintf("%s %s", g.values[k * 2 + 1],
					       g.values[k * 2]);
			size_t gi = group_index(t, name);

			free(name);
			if (t->ng * t->n > cap) {
				size_t old = cap;

				cap = t->ng * t->n * 2;
				m = xrealloc(m, cap * sizeof(*m));
				for (size_t j = old; j < cap; j++)
					m[j] = NAN;
			}
			m[gi * t->n + i] = g.stats[k].mape;
		}
		corrgroup_release(&g);
		corr_set_free(s);
	}
	t->gmape = m ? m : xcalloc(1, sizeof(*m));
	if (rc < 0)
		return rc;
	/* worst (by the newest version's MAPE) first */
	order = xcalloc(t->ng + 1, sizeof(*order));
	for (size_t g = 0; g < t->ng; g++)
		order[g] = g;
	sort_t = t;
	qsort(order, t->ng, sizeof(*order), by_last_desc);
	sort_t = NULL;
	names = xcalloc(t->ng + 1, sizeof(*names));
	m = xcalloc(t->ng * t->n + 1, sizeof(*m));
	for (size_t g = 0; g < t->ng; g++) {
		names[g] = t->gnames[order[g]];
		memcpy(m + g * t->n, t->gmape + order[g] * t->n,
		       t->n * sizeof(*m));
	}
	free(t->gnames);
	free(t->gmape);
	free(order);
	t->gnames = names;
	t->gmape = m;
	v->nrows = t->ng;
	return 0;
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
		t->ok[i] = pidx_summary(v->tui->db, &q, &t->sum[i]) == 0;
		free(spec);
	}
	v->nrows = t->n;
	if (t->by && (rc = load_groups(v, t)) < 0)
		return rc;
	view_clamp(v);
	return 0;
}

static void trend_info(struct view *v, char *buf, size_t len)
{
	struct trend *t = v->priv;

	if (t)
		snprintf(buf, len, "%s versions vs %s (reference fixed)%s%s",
			 t->model, t->ref, t->by ? ", MAPE per " : "",
			 t->by ? (t->by == 1 ? "op class" : "op") : "");
}

static void row(int y, int w, const char *version,
		const struct stats_summary *s, int ok, enum theme_role role)
{
	char mape[16], bias[16], p90[16], r[16];

	if (role == TH_CURSOR)
		draw_fill(y, 0, w, TH_CURSOR);
	if (!ok) {
		draw_textf(y, 0, w, role == TH_CURSOR ? role : TH_DIM,
			   "  %-20.20s  (nothing paired)", version);
		return;
	}
	fmt_pct(mape, sizeof(mape), s->mape, 0);
	fmt_pct(bias, sizeof(bias), s->bias, 1);
	fmt_pct(p90, sizeof(p90), s->p90_abs_err, 0);
	fmt_num(r, sizeof(r), s->pearson, 3);
	draw_textf(y, 0, w, role, "  %-20.20s %7ld %7s %7s %7s %7s", version,
		   s->n, mape, bias, p90, r);
}

static void chart(struct view *v, int y, int h, int w)
{
	struct trend *t = v->priv;
	double *mape = xmalloc((t->n ? t->n : 1) * sizeof(*mape));
	double *bias = xmalloc((t->n ? t->n : 1) * sizeof(*bias));
	double hi = 0;
	char spark[1024], top[16];
	struct plot_canvas c;
	int cw = w - 10, px = -1, py = -1;

	for (size_t i = 0; i < t->n; i++) {
		mape[i] = t->ok[i] ? t->sum[i].mape : NAN;
		bias[i] = t->ok[i] ? t->sum[i].bias : NAN;
		if (isfinite(mape[i]) && mape[i] > hi)
			hi = mape[i];
	}
	plot_sparkline(mape, t->n, draw_ascii(), spark, sizeof(spark));
	draw_textf(y, 0, w, TH_NORMAL, "  MAPE %s", spark);
	plot_sparkline(bias, t->n, draw_ascii(), spark, sizeof(spark));
	draw_textf(y + 1, 0, w, TH_NORMAL, "  bias %s", spark);
	if (h >= 5 && cw >= 8 && t->n > 1 && hi > 0) {
		plot_canvas_init(&c, cw, h - 3);
		for (size_t i = 0; i < t->n; i++) {
			int x, yy;

			if (!isfinite(mape[i]))
				continue;
			x = (int)((double)i / (double)(t->n - 1) * (2 * cw - 1));
			yy = 4 * (h - 3) - 1 - (int)(mape[i] / hi *
						     (4 * (h - 3) - 1));
			if (px >= 0)
				plot_canvas_line(&c, px, py, x, yy);
			plot_canvas_set(&c, x, yy);
			px = x;
			py = yy;
		}
		fmt_pct(top, sizeof(top), hi, 0);
		draw_text(y + 3, 0, w, "  MAPE by version", TH_HEADER);
		draw_text_right(y + 4, 0, 8, top, TH_DIM);
		draw_text_right(y + h - 2, 0, 8, "0%", TH_DIM);
		draw_canvas(y + 4, 10, &c, TH_PLOT, NULL, NULL, TH_PLOT, NULL);
		plot_canvas_release(&c);
	}
	free(mape);
	free(bias);
}

/* One row per group: its MAPE in the newest versions that fit, and a
 * sparkline over every version. */
static void groups_draw(struct view *v, int y, int h, int w)
{
	struct trend *t = v->priv;
	int cols = (w - 44) / 9;
	size_t first;

	if (cols < 1)
		cols = 1;
	if ((size_t)cols > t->n)
		cols = (int)t->n;
	first = t->n - (size_t)cols;
	draw_textf(y, 0, w, TH_COLHEAD, "  %-28s", t->by == 1 ?
		   "op class, metric" : "op, metric");
	for (int c = 0; c < cols; c++)
		draw_textf(y, 31 + 9 * c, 9, TH_COLHEAD, "%8.8s",
			   t->versions[first + (size_t)c]);
	draw_text(y, 31 + 9 * cols, w - 31 - 9 * cols, "  MAPE by version",
		  TH_COLHEAD);
	v->height = h - 2 > 1 ? h - 2 : 1;
	view_clamp(v);
	if (!t->ng)
		draw_text(y + 1, 2, w - 2, "no group paired", TH_DIM);
	for (int k = 0; k < h - 2 && v->top + (size_t)k < t->ng; k++) {
		size_t g = v->top + (size_t)k;
		enum theme_role role = g == v->cursor ? TH_CURSOR : TH_NORMAL;
		char spark[512], cell[16];
		char *name = util_safe_dup(t->gnames[g]);

		if (role == TH_CURSOR)
			draw_fill(y + 1 + k, 0, w, TH_CURSOR);
		draw_textf(y + 1 + k, 0, 31, role, "  %-28.28s", name);
		free(name);
		for (int c = 0; c < cols; c++) {
			fmt_pct(cell, sizeof(cell), t->gmape[g * t->n + first +
							    (size_t)c], 0);
			draw_textf(y + 1 + k, 31 + 9 * c, 9, role, "%8s", cell);
		}
		plot_sparkline(t->gmape + g * t->n, t->n, draw_ascii(), spark,
			       sizeof(spark));
		draw_textf(y + 1 + k, 31 + 9 * cols, w - 31 - 9 * cols, role,
			   "  %s", spark);
	}
	draw_text(y + h - 1, 2, w - 2, "Enter: what moved in this group "
		  "between the last two versions; b: next grouping", TH_DIM);
}

static void trend_draw(struct view *v, int y, int h, int w)
{
	struct trend *t = v->priv;
	int th;

	if (!t)
		return;
	if (t->by && t->n) {
		groups_draw(v, y, h, w);
		return;
	}
	if (!t->n) {
		draw_text(y, 2, w - 2, "no versions", TH_DIM);
		return;
	}
	th = (int)t->n < h / 2 - 1 ? (int)t->n : h / 2 - 1;
	draw_textf(y, 0, w, TH_COLHEAD, "  %-20s %7s %7s %7s %7s %7s",
		   "version", "n", "MAPE", "bias", "p90", "r");
	v->height = th > 0 ? th : 1;
	view_clamp(v);
	for (int k = 0; k < th && v->top + (size_t)k < t->n; k++) {
		size_t i = v->top + (size_t)k;

		row(y + 1 + k, w, t->versions[i], &t->sum[i], t->ok[i],
		    i == v->cursor ? TH_CURSOR : TH_NORMAL);
	}
	chart(v, y + th + 2, h - th - 2, w);
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
			 group_keys[t->by]);
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
		t->by = (t->by + 1) % NKEYS;
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
