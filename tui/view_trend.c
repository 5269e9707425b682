/*
 * Trend: the core's error statistics for every version of the model
 * source against the same reference, in release order, with
 * sparklines and a braille line chart of MAPE.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/correlate.h"
#include "src/pairidx.h"
#include "src/base/error.h"
#include "src/base/util.h"
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
};

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
	free(t);
	v->priv = NULL;
	v->nrows = 0;
}

static int trend_open(struct view *v)
{
	const struct pidx *set = v->tui->data.ix;
	struct trend *t;
	int rc;

	trend_done(v);
	if (!set)
		return 0;
	t = v->priv = xcalloc(1, sizeof(*t));
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
		t->ok[i] = pidx_summary(v->tui->db, &q, &t->sum[i]) == 0;
		free(spec);
	}
	v->nrows = t->n;
	view_clamp(v);
	return 0;
}

static void trend_info(struct view *v, char *buf, size_t len)
{
	struct trend *t = v->priv;

	if (t)
		snprintf(buf, len, "%s versions vs %s (reference fixed)",
			 t->model, t->ref);
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

static void trend_draw(struct view *v, int y, int h, int w)
{
	struct trend *t = v->priv;
	int th;

	if (!t)
		return;
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

static int trend_handle(struct view *v, int action)
{
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

	return t && r < t->n && strstr(t->versions[r], needle) != NULL;
}

static const int trend_footer[] = { ACT_CYCLE_PAIR, ACT_VIEW_NEXT,
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
