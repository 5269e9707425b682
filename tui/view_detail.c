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
#include "src/pairidx/pairidx.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "tui/annotate.h"
#include "tui/detail_fp.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/link.h"
#include "tui/status.h"
#include "tui/theme.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "tui/view_discrep.h"

static const char *const kinds[] = { "roofline", "perfsim", "rtl", "emulation",
				     "silicon" };

static int tier(const char *kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (!strcmp(kinds[i], kind))
			return (int)i;
	return -1;
}

/* A glob that matches s literally. */
static char *glob_escape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == '*' || *s == '?' || *s == '[') {
			strbuf_addch(&sb, '[');
			strbuf_addch(&sb, *s);
			strbuf_addch(&sb, ']');
		} else {
			strbuf_addch(&sb, *s);
		}
	}
	return strbuf_detach(&sb);
}

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

static int pad(const char *s, int w);

static void add_point(struct view *v, const struct corr_point *p)
{
	struct tui_data *d = &v->tui->data;
	char m[32], r[32], e[16], sd[32], lo[32], hi[32], cv[16], cnt[16];
	char dir[96];
	const char *unit = data_metric_unit(d, p->metric_id);

	fmt_si_unit(m, sizeof(m), p->model, unit, draw_ascii());
	fmt_si_unit(r, sizeof(r), p->ref, unit, draw_ascii());
	fmt_pct(e, sizeof(e), p->err, 1);
	textbuf_add(&v->text, TH_HEADER, "%s", p->workload);
	textbuf_add(&v->text, TH_NORMAL, "  op %s (class %s)  metric %s",
		    p->op, p->op_class ? p->op_class : "-", p->metric);
	direction(dir, sizeof(dir), v, p);
	textbuf_add(&v->text, TH_NORMAL, "  %s@%s vs %s@%s: model %s  ref %s "
		    " err %s%s%s%s%s%s", d->ix->model.source,
		    d->ix->model.version, d->ix->ref.source,
		    d->ix->ref.version, m, r, e, dir,
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
	textbuf_add(&v->text, TH_NORMAL, "  reference spread: n %s  stddev %s "
		    "(cv %s)  min-max %s..%s", cnt, sd, cv, lo, hi);
}

static int widest(const struct db_detail_row *rows, size_t n, size_t off,
		  int min)
{
	int w = min;

	for (size_t i = 0; i < n; i++) {
		const char *s = *(char *const *)((const char *)&rows[i] + off);
		int l = (int)strlen(s);

		w = l > w ? (l > 24 ? 24 : l) : w;
	}
	return w;
}

/* Spaces that right-align s in w columns (printf pads bytes, and µ is
 * two bytes in one column). */
static int pad(const char *s, int w)
{
	int cols = 0;

	for (; *s; s++)
		cols += ((unsigned char)*s & 0xc0) != 0x80;
	return w > cols ? w - cols : 0;
}

/* A value with its unit; the roofline's limiter as the word it codes
 * (docs/importers-models.md: 0 memory, 1 compute, 2 collective). */
static void value_text(char *buf, size_t len, const char *metric, double v,
		       const char *unit)
{
	static const char *const limiter[] = { "memory", "compute",
		"collective" };

	if (metric && !strcmp(metric, "limiter") && (v == 0 || v == 1 ||
						     v == 2))
		snprintf(buf, len, "%s", limiter[(int)v]);
	else
		fmt_si_unit(buf, len, v, unit, draw_ascii());
}

static void add_values(struct view *v, const struct db_detail_row *rows,
		       size_t n)
{
	char val[32], sd[32], cnt[16];
	int ws = widest(rows, n, offsetof(struct db_detail_row, source), 6);
	int wv = widest(rows, n, offsetof(struct db_detail_row, version), 7);
	int wm = widest(rows, n, offsetof(struct db_detail_row, metric), 6);

	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Values (every source and run)");
	textbuf_add(&v->text, TH_COLHEAD, "  %-8s %-*s %-*s %-*s %12s %5s %12s "
		    "%4s %s", "kind", ws, "source", wv, "version", wm, "metric",
		    "value", "n", "stddev", "run", "file");
	for (size_t i = 0; i < n; i++) {
		const struct db_detail_row *r = &rows[i];

		value_text(val, sizeof(val), r->metric, r->value, r->unit);
		fmt_si_unit(sd, sizeof(sd), r->stddev, r->unit, draw_ascii());
		fmt_num(cnt, sizeof(cnt), r->n, 0);
		textbuf_add(&v->text, TH_NORMAL, "  %-8s %-*.*s %-*.*s %-*.*s "
			    "%*s%s %5s %*s%s %4lld %s%s%s", r->kind, ws, ws,
			    r->source, wv, wv, r->version, wm, wm, r->metric,
			    pad(val, 12), "", val, cnt, pad(sd, 12), "", sd, (long long)r->run_id, r->file,
			    *r->platform ? " on " : "", r->platform);
	}
	if (!n)
		textbuf_add(&v->text, TH_DIM, "  (no stored results)");
}

/* Sources present, latest first per source (rows are ordered by kind). */
static size_t sources_of(const struct db_detail_row *rows, size_t n,
			 const char **src, const char **kind, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < k; j++)
			if (!strcmp(src[j], rows[i].source))
				break;
		if (j == k && k < max) {
			src[k] = rows[i].source;
			kind[k++] = rows[i].kind;
		}
	}
	return k;
}

static const char *side_spec(struct view *v, const char *source, char *buf,
			     size_t len)
{
	const struct pidx *s = v->tui->data.ix;

	if (!strcmp(source, s->model.source))
		snprintf(buf, len, "%s@%s", source, s->model.version);
	else if (!strcmp(source, s->ref.source))
		snprintf(buf, len, "%s@%s", source, s->ref.version);
	else
		snprintf(buf, len, "%s", source);
	return buf;
}

/* The unit of the detail's metric (pairwise lines are all of it). */
static const char *detail_unit(struct view *v)
{
	struct corr_point tmp;
	const struct corr_point *p = data_point(&v->tui->data,
						v->tui->detail_point, &tmp);

	return data_metric_unit(&v->tui->data, p->metric_id);
}

static void pair_line(struct view *v, const char *ms, const char *rs,
		      const struct corr_point *x)
{
	char a[32], b[32], e[16];
	const char *unit = detail_unit(v);

	fmt_si_unit(a, sizeof(a), x->model, unit, draw_ascii());
	fmt_si_unit(b, sizeof(b), x->ref, unit, draw_ascii());
	fmt_pct(e, sizeof(e), x->err, 1);
	textbuf_add(&v->text, TH_NORMAL, "  %-22s %-22s %*s%s %*s%s %8s%s", ms,
		    rs, pad(a, 11), "", a, pad(b, 11), "", b, e, x->flags & CORR_WITHIN_NOISE ? "  within noise" :
		    "");
}

static void add_pair(struct view *v, const struct corr_point *p,
		     const char *model, const char *ref)
{
	const struct pidx *cur = v->tui->data.ix;
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	char ms[128], rs[128];
	char *wg, *og;

	q.model = side_spec(v, model, ms, sizeof(ms));
	q.ref = side_spec(v, ref, rs, sizeof(rs));
	q.roofline = v->tui->data.roofline;
	q.allow_mismatch = v->tui->data.allow_mismatch;
	if (!strcmp(model, cur->model.source) && !strcmp(ref, cur->ref.source)) {
		pair_line(v, ms, rs, p);	/* the loaded pair: no reload */
		return;
	}
	wg = glob_escape(p->workload);
	og = glob_escape(p->op);
	q.metric = p->metric;
	q.workload_glob = wg;
	q.op_glob = og;
	q.only[0] = p->workload_id;	/* read just this key's results */
	q.only[1] = p->op_id;
	if (corr_load(&s, v->tui->db, &q) == 0 && s->n) {
		pair_line(v, ms, rs, &s->points[0]);
	} else {
		textbuf_add(&v->text, TH_DIM, "  %-22s %-22s  (%s)", ms, rs,
			    s ? "no pair" : pc_error_last());
	}
	corr_set_free(s);
	free(wg);
	free(og);
}

static void add_pairs(struct view *v, const struct corr_point *p,
		      const struct db_detail_row *rows, size_t n)
{
	const char *src[16], *kind[16];
	size_t k = sources_of(rows, n, src, kind, 16);

	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Pairwise errors (model vs reference, "
		    "metric %s, from the correlation core)", p->metric);
	textbuf_add(&v->text, TH_COLHEAD, "  %-22s %-22s %11s %11s %8s", "model",
		    "reference", "model", "ref", "err");
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < k; j++)
			if (tier(kind[i]) >= 0 && tier(kind[i]) < tier(kind[j]))
				add_pair(v, p, src[i], src[j]);
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
	add_values(v, rows, n);
	add_pairs(v, p, rows, n);
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
	view_draw_text(v, y, h, w, 0);
}

static int detail_handle(struct view *v, int action)
{
	uint32_t point = (uint32_t)v->tui->detail_point;
	size_t max = v->text.n > (size_t)v->height ?
		     v->text.n - (size_t)v->height : 0;
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
