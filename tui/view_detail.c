/*
 * Detail (Enter): one workload + op across every source kind: the
 * values with their runs and files, pairwise errors from the core, the
 * reference's spread, the raw kernel names, the annotation history and
 * the pair's workload fingerprints (tui/detail_fp.c).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/detail.h"
#include "db/pairs.h"
#include "src/corr/correlate.h"
#include "src/matrix/matrix.h"
#include "src/pairidx/pairidx.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "tui/annotate.h"
#include "tui/detail_fp.h"
#include "tui/detail_values.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/link.h"
#include "tui/status.h"
#include "tui/theme.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "tui/view_discrep.h"

/* 1 when a higher value of metric is better, 0 when lower, -1 unknown. */
static int metric_higher(struct db *db, const char *metric)
{
	struct db_name *m = NULL;
	size_t n = 0;
	int higher = -1;

	if (db_pairs_names(db, DB_DICT_METRICS, &m, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m[i].name, metric))
			higher = m[i].higher != 0;
	db_names_free(m, n);
	return higher;
}

/* "  optimistic (less time)": whether the model predicts better or worse
 * than measured, by the metric's better direction; "" when equal or
 * unknown. */
static void direction(char *buf, size_t len, struct view *v,
		      const struct corr_point *p)
{
	int higher = metric_higher(v->tui->db, p->metric);

	buf[0] = '\0';
	if (higher < 0 || !(p->model != p->ref) || isnan(p->model - p->ref))
		return;
	snprintf(buf, len, "  %s (%s %s)", (p->model > p->ref) ==
		 (higher != 0) ? "optimistic" : "pessimistic",
		 p->model < p->ref ? "less" : "more", p->metric);
}

static void add_point(struct view *v, const struct corr_point *p)
{
	struct tui_data *d = &v->tui->data;
	char m[32], r[32], e[16], sd[32], lo[32], hi[32], cv[16], cnt[16];
	char dir[96], mm[80] = "";
	const char *unit = data_metric_unit(d, p->metric_id);

	fmt_si_unit(m, sizeof(m), p->model, unit, draw_ascii());
	fmt_si_unit(r, sizeof(r), p->ref, unit, draw_ascii());
	fmt_pct(e, sizeof(e), p->err, 1);
	if (data_bound(d)) {
		/* a roofline is a bound: the fraction of speed of light the
		 * reference reaches, not an error (issue 35) */
		char f[16];

		fmt_pct(f, sizeof(f), matrix_sol_fraction(p->ref, p->model,
			data_metric_higher(d, p->metric_id)), 0);
		snprintf(dir, sizeof(dir), "reaches %s of speed of light", f);
	}
	textbuf_add(&v->text, TH_HEADER, "%s", p->workload);
	textbuf_add(&v->text, TH_NORMAL, "  op %s (class %s)  metric %s",
		    p->op, p->op_class ? p->op_class : "-", p->metric);
	if (!data_bound(d))
		direction(dir, sizeof(dir), v, p);
	textbuf_add(&v->text, TH_NORMAL, "  %s@%s vs %s@%s:", d->ix->model.source,
		    d->ix->model.version, d->ix->ref.source,
		    d->ix->ref.version);
	textbuf_add(&v->text, TH_NORMAL, "  model %s  ref %s  %s%s%s%s%s%s%s",
		    m, r, data_bound(d) ? "" : "err ", data_bound(d) ? "" : e,
		    dir,
		    p->flags & CORR_WITHIN_NOISE ? "  within noise" : "",
		    p->flags & CORR_UNVERIFIED ? "  unverified (?)" : "",
		    p->flags & CORR_SOL_VIOLATION ? "  speed-of-light "
		    "violation" : "", p->flags & CORR_NOISY_REF ?
		    "  noisy reference (excluded)" : "");
	/* which value beats the roofline of the key (issue 35) */
	if (p->flags & CORR_SOL_VIOLATION)
		textbuf_add(&v->text, TH_NORMAL, "  S: %s the roofline "
			    "(faster than speed of light)",
			    (p->flags & CORR_SOL_MODEL) &&
			    (p->flags & CORR_SOL_REF) ? "model and reference "
			    "beat" : p->flags & CORR_SOL_MODEL ?
			    "the model beats" : "the reference beats");
	fmt_si_unit(sd, sizeof(sd), p->ref_sd, unit, draw_ascii());
	fmt_si_unit(lo, sizeof(lo), p->ref_min, unit, draw_ascii());
	fmt_si_unit(hi, sizeof(hi), p->ref_max, unit, draw_ascii());
	fmt_pct(cv, sizeof(cv), p->ref_sd / p->ref, 0);
	fmt_num(cnt, sizeof(cnt), p->ref_n, 0);
	/* the parts the reference states ('min-max -..-' said nothing) */
	if (isfinite(p->ref_min) || isfinite(p->ref_max))
		snprintf(mm, sizeof(mm), "  min-max %s..%s", lo, hi);
	textbuf_add(&v->text, TH_NORMAL, "  reference spread: n %s  stddev %s "
		    "(cv %s)%s", cnt, sd, cv, mm);
}

static void add_raw_names(struct view *v, const struct corr_point *p)
{
	struct db_raw_name *names = NULL;
	size_t n = 0;

	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Raw names mapped to '%s'", p->op);
	if (db_op_raw_names(v->tui->db, p->workload_id, p->op_id, &names,
			    &n) < 0)
		textbuf_add(&v->text, TH_ERROR, "  %s", pc_error_last());
	for (size_t i = 0; i < n; i++)
		textbuf_add(&v->text, TH_NORMAL, "  %s@%s run %lld: %s x%ld",
			    names[i].source, names[i].version,
			    (long long)names[i].run_id, names[i].raw_name,
			    names[i].instances);
	if (!n)
		textbuf_add(&v->text, TH_DIM, "  (none recorded)");
	db_raw_names_free(names, n);
}

static void add_history(struct view *v, const struct corr_point *p)
{
	struct annot *h = NULL;
	size_t n = 0;

	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Annotation history (oldest first)");
	if (db_annot_history(v->tui->db, p->workload, p->op, p->metric, &h,
			     &n) < 0)
		textbuf_add(&v->text, TH_ERROR, "  %s", pc_error_last());
	for (size_t i = 0; i < n; i++) {
		const struct annot *a = &h[i];
		char *note = xstrdup(a->note ? a->note : ""), *save = NULL;

		textbuf_add(&v->text, TH_NORMAL, "  %s  %s  %s  %s%s%s%s%s",
			    a->created_at, a->author, a->status, a->category,
			    a->model_source ? "  " : "", a->model_source ?
			    a->model_source : "", a->ref_source ? " vs " : "",
			    a->ref_source ? a->ref_source : "");
		for (char *l = strtok_r(note, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save))
			textbuf_add(&v->text, TH_NORMAL, "      %s", l);
		if (a->link && *a->link)
			textbuf_add(&v->text, TH_NORMAL, "      link: %s",
				    a->link);
		if (a->expires && *a->expires)
			textbuf_add(&v->text, TH_NORMAL, "      expires: %s",
				    a->expires);
		free(note);
	}
	if (!n)
		textbuf_add(&v->text, TH_DIM, "  (not annotated yet: press a)");
	db_annot_free(h, n);
}

static int detail_open(struct view *v)
{
	struct tui_data *d = &v->tui->data;
	struct db_detail_row *rows = NULL;
	size_t n = 0, keep = v->top;
	struct corr_point pt;
	const struct corr_point *p = &pt;
	int rc;

	/* a new row starts at the top; a reload keeps the scroll */
	if (v->ncols != (int)v->tui->detail_point + 1 || v->gen != d->gen)
		keep = v->gen == d->gen ? 0 : keep;
	v->ncols = (int)v->tui->detail_point + 1;
	textbuf_clear(&v->text);
	v->nrows = 0;
	if (v->tui->detail_point >= data_npoints(d))
		return pc_error_set(PC_ENOTFOUND, "no row selected");
	if ((rc = data_point_full(d, v->tui->detail_point, &pt)) < 0)
		return rc;
	add_point(v, p);
	if ((rc = db_detail_results(v->tui->db, p->workload_id, p->op_id,
				    &rows, &n)) < 0)
		return rc;
	detail_values_add(v, rows, n);
	detail_pairs_add(v, p, rows, n);
	db_detail_free(rows, n);
	add_raw_names(v, p);
	add_history(v, p);
	detail_fp_add(v, p);
	v->nrows = v->text.n;
	v->cursor = v->top = keep < v->nrows ? keep : 0;
	return 0;
}

static void detail_info(struct view *v, char *buf, size_t len)
{
	const struct tui_data *d = &v->tui->data;

	struct corr_point tmp;
	const struct corr_point *p;

	if (v->tui->detail_point < data_npoints(d)) {
		p = data_point(d, v->tui->detail_point, &tmp);
		snprintf(buf, len, "%s %s", p->op, p->metric);
	}
}

static void detail_draw(struct view *v, int y, int h, int w)
{
	view_draw_text_wrap(v, y, h, w);
}

static int detail_handle(struct view *v, int action)
{
	uint32_t point = (uint32_t)v->tui->detail_point;
	/* lines wrap (view_draw_text_wrap keeps the screen full at the
	 * end): the last line may be the top one */
	size_t max = v->text.n ? v->text.n - 1 : 0;
	int rc;

	switch (action) {
	case ACT_MOVE_DOWN:
		v->top += v->top < max;
		v->cursor = v->top;
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_MOVE_UP:
		v->top -= v->top > 0;
		v->cursor = v->top;
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_ROW_NEXT:
	case ACT_ROW_PREV:
	case ACT_NEXT_OPEN:
		/* the list's cursor moves; this view follows it */
		if (discrep_step(v->tui->views[VIEW_DISCREP], action ==
				 ACT_NEXT_OPEN ? 0 : action == ACT_ROW_NEXT ? 1
				 : -1, &point) == 0) {
			v->tui->detail_point = point;
			if (detail_open(v) < 0)
				status_error("%s", pc_error_last());
		}
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_MARK:
		/* as in the list: mark the row, then show the next one */
		if (point < data_npoints(&v->tui->data) &&
		    discrep_mark(v->tui->views[VIEW_DISCREP], point,
				 &point) >= 0 &&
		    point != (uint32_t)v->tui->detail_point) {
			v->tui->detail_point = point;
			if (detail_open(v) < 0)
				status_error("%s", pc_error_last());
		}
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_OPEN_LINK: {
		struct corr_point tmp;
		const struct corr_point *p;

		if (v->tui->detail_point >= data_npoints(&v->tui->data))
			return TUI_HANDLED;
		p = data_point(&v->tui->data, v->tui->detail_point, &tmp);
		link_open(p->ann ? p->ann->link : NULL);
		return TUI_HANDLED | TUI_REDRAW;
	}
	case ACT_UNDO:
		discrep_undo(v->tui->views[VIEW_DISCREP]);
		detail_open(v);	/* the history shows the new row */
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_ANNOTATE:
		if (!v->tui->data.ix)
			return TUI_HANDLED;
		rc = annotate_points(v->tui, &point, 1);
		if (rc < 0)
			status_error("annotation not saved: %s",
				     pc_error_last());
		else if (rc > 0)
			detail_open(v);
		return TUI_HANDLED | TUI_REDRAW;
	}
	return 0;
}

static void detail_done(struct view *v)
{
	textbuf_clear(&v->text);
}

static const int detail_footer[] = { ACT_ANNOTATE, ACT_ROW_NEXT,
	ACT_ROW_PREV, ACT_NEXT_OPEN, ACT_SEARCH, ACT_BACK, ACT_VIEW_HELP, 0 };

const struct view_ops detail_ops = {
	.name = "detail",
	.title = "Detail",
	.footer = detail_footer,
	.open = detail_open,
	.info = detail_info,
	.draw = detail_draw,
	.handle = detail_handle,
	.match = view_text_match,
	.done = detail_done,
	.annotated = 1,
};
