/*
 * The trend view's groups (`b`, split from view_trend.c, the functions
 * unchanged): the MAPE of each op class, then each op, per version (the
 * core's groups, as `compare --group-by metric --group-by op`), each
 * row with a sparkline over the versions on one scale per metric.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/corr/correlate.h"
#include "src/corr/corrgroup.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/plot.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "tui/view_trend.h"

const char *const trend_group_keys[TREND_NKEYS] = { NULL, "op_class",
	"op" };

void trend_groups_free(struct trend *t)
{
	for (size_t g = 0; g < t->ng; g++)
		free(t->gnames[g]);
	free(t->gnames);
	free(t->gmape);
	t->gnames = NULL;
	t->gmape = NULL;
	t->ng = 0;
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
int trend_groups_load(struct view *v, struct trend *t)
{
	const char *by[2] = { "metric", trend_group_keys[t->by] };
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
		q.allow_mismatch = v->tui->data.allow_mismatch;
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
			m[gi * t->n + i] = t->bound ? g.stats[k].efficiency :
					   g.stats[k].mape;
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

/* The metric of group g ("gemm time": after the last space). */
static const char *group_metric(const struct trend *t, size_t g)
{
	const char *sp = strrchr(t->gnames[g], ' ');

	return sp ? sp + 1 : t->gnames[g];
}

/* The largest MAPE of any group of metric m in any version: the top of
 * the metric's shared sparkline scale (0 is its bottom). */
static double metric_max(const struct trend *t, const char *m)
{
	double hi = 0;

	for (size_t g = 0; g < t->ng; g++)
		if (!strcmp(group_metric(t, g), m))
			for (size_t i = 0; i < t->n; i++)
				if (isfinite(t->gmape[g * t->n + i]) &&
				    t->gmape[g * t->n + i] > hi)
					hi = t->gmape[g * t->n + i];
	return hi;
}

/* The scale line: "sparklines 0 to: time 25.0%, power 3.0%". */
static void scale_line(const struct trend *t, int y, int w)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "  sparklines share a scale per metric, 0 to:");
	for (size_t g = 0; g < t->ng; g++) {
		const char *m = group_metric(t, g);
		char top[16];
		size_t k;

		for (k = 0; k < g && strcmp(group_metric(t, k), m); k++)
			;
		if (k < g)	/* metric already listed */
			continue;
		fmt_pct(top, sizeof(top), metric_max(t, m), 0);
		strbuf_addf(&sb, "%s %s %s", g ? "," : "", m, top);
	}
	draw_text(y, 0, w, strbuf_str(&sb), TH_DIM);
	strbuf_release(&sb);
}

/* One row per group: its MAPE in the newest versions that fit, and a
 * sparkline over every version, on its metric's scale (0 to the largest
 * MAPE of the metric's groups: rows compare). */
void trend_groups_draw(struct view *v, int y, int h, int w)
{
	struct trend *t = v->priv;
	/* the sparkline (every version) first, then the newest columns */
	int cols = (w - 33 - (int)(t->n < 40 ? t->n : 40)) / 9;
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
	draw_text(y, 31 + 9 * cols, w - 31 - 9 * cols, "  by version",
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
		plot_sparkline_range(t->gmape + g * t->n, t->n, 0,
				     metric_max(t, group_metric(t, g)),
				     draw_ascii(), spark, sizeof(spark));
		draw_textf(y + 1 + k, 31 + 9 * cols, w - 31 - 9 * cols, role,
			   "  %s", spark);
	}
	scale_line(t, y + h - 1, w);
}
