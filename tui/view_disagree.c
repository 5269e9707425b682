/*
 * Disagreements (5): who disagrees with whom (src/matrix.h). At the top
 * the matrix of the current metric (the metric of the key under the
 * cursor): MAPE of each model row against each reference column and
 * Lin's concordance on logs, on the keys every source holds. Below, the
 * keys three or more non-roofline sources hold, grouped by pattern with
 * counts (disagreements first, agree last), each with its spread, the
 * suggested cause and its annotation. Enter opens the key's detail, `a`
 * annotates it with the suggested category preselected.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "base/error.h"
#include "base/util.h"
#include "src/matrix/matrix.h"
#include "src/pairidx/pairidx.h"
#include "tui/annotate.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/status.h"
#include "tui/tui.h"
#include "tui/view.h"

/* A row: a pattern heading (key = -1) or a key. */
struct drow {
	long key;		/* index into m->keys, or -1 */
	size_t label;		/* index into labels */
};

struct disagree {
	struct matrix *m;
	struct matrix_label *labels;
	size_t nlabels;
	struct drow *rows;
};

static void dis_done(struct view *v)
{
	struct disagree *d = v->priv;

	if (!d)
		return;
	matrix_free(d->m);
	free(d->labels);
	free(d->rows);
	free(d);
	v->priv = NULL;
	v->nrows = 0;
}

static int dis_open(struct view *v)
{
	struct matrix_opts o = MATRIX_OPTS_INIT;
	struct disagree *d;
	size_t *ord, n = 0, r = 0;
	int rc;

	dis_done(v);
	d = v->priv = xcalloc(1, sizeof(*d));
	o.allow_mismatch = v->tui->data.allow_mismatch;
	if ((rc = matrix_build(&d->m, v->tui->db, &o)) < 0)
		return rc;
	d->nlabels = matrix_labels(d->m, &d->labels);
	ord = matrix_order(d->m, &n);
	d->rows = xcalloc(n + d->nlabels + 1, sizeof(*d->rows));
	for (size_t l = 0; l < d->nlabels; l++) {
		d->rows[r].key = -1;
		d->rows[r++].label = l;
		for (long c = 0; c < d->labels[l].count; c++) {
			d->rows[r].key = (long)ord[d->labels[l].first +
						   (size_t)c];
			d->rows[r++].label = l;
		}
	}
	free(ord);
	v->nrows = r;
	if (v->cursor == 0 && r > 1)
		v->cursor = 1;		/* the first key, not its heading */
	view_clamp(v);
	return 0;
}

static const struct matrix_key *cur_key(struct view *v)
{
	struct disagree *d = v->priv;

	if (!d || !d->m || v->cursor >= v->nrows || d->rows[v->cursor].key < 0)
		return NULL;
	return &d->m->keys[d->rows[v->cursor].key];
}

/* The metric shown at the top: the cursor's key's, else the first. */
static long cur_metric(struct view *v)
{
	struct disagree *d = v->priv;
	const struct matrix_key *k;
	size_t row = v->cursor;

	if (!d || !d->m || !d->m->nmetrics)
		return -1;
	if (row < v->nrows && d->rows[row].key < 0 && row + 1 < v->nrows)
		row++;
	k = row < v->nrows && d->rows[row].key >= 0 ?
	    &d->m->keys[d->rows[row].key] : NULL;
	for (size_t i = 0; k && i < d->m->nmetrics; i++)
		if (!strcmp(d->m->metrics[i].metric, k->metric))
			return (long)i;
	return 0;
}

static void dis_info(struct view *v, char *buf, size_t len)
{
	struct disagree *d = v->priv;
	size_t n = 0;

	if (!d || !d->m)
		return;
	for (size_t l = 0; l < d->nlabels; l++)
		n += (size_t)d->labels[l].count;
	snprintf(buf, len, "%zu sources, %zu keys held by 3+ of them, "
		 "tolerance %g%%", d->m->nsrc, n, d->m->opts.tolerance * 100);
}

/* The matrix of metric mi in rows y..; returns the rows used. */
static int draw_matrix(struct view *v, long mi, int y, int h, int w)
{
	const struct matrix *m = ((struct disagree *)v->priv)->m;
	const struct matrix_metric *mm;
	int cw = 14, used = 0;

	if (mi < 0) {
		draw_text(y, 2, w - 2, "no metric is held by all sources",
			  TH_DIM);
		return 1;
	}
	mm = &m->metrics[mi];
	draw_textf(y + used++, 0, w, TH_HEADER, "  %s: MAPE / concordance "
		   "(log) of model row vs reference column, %zu keys all "
		   "hold", mm->metric, mm->ncommon);
	if (used >= h)
		return used;
	draw_text(y + used, 2, 14, "model \\ ref", TH_COLHEAD);
	for (size_t j = 0; j < m->nsrc; j++)
		draw_text_right(y + used, 16 + (int)j * cw, cw - 1,
				m->src[j].label, TH_COLHEAD);
	used++;
	for (size_t i = 0; i < m->nsrc && used < h; i++, used++) {
		draw_text(y + used, 2, 14, m->src[i].label, TH_NORMAL);
		for (size_t j = 0; j < m->nsrc; j++) {
			const struct matrix_cell *c;
			char mape[16], ccc[16], cell[40];

			if (i == j)
				continue;
			c = matrix_cell(m, (size_t)mi, i, j);
			fmt_pct(mape, sizeof(mape), c->s.mape, 0);
			fmt_num(ccc, sizeof(ccc), c->ccc_log, 3);
			snprintf(cell, sizeof(cell), "%s %s", mape, ccc);
			if (!c->keys && c->refused)	/* issue 37 */
				snprintf(cell, sizeof(cell), "not comparable");
			draw_text_right(y + used, 16 + (int)j * cw, cw - 1,
					cell, c->s.mape >= 0.15 ? TH_SEV_FAIL :
					c->s.mape >= 0.05 ? TH_SEV_WARN :
					TH_SEV_OK);
		}
	}
	return used;
}

static void draw_counts(struct view *v, int y, int w)
{
	struct disagree *d = v->priv;
	char line[1024];
	size_t at = 0;

	line[0] = '\0';
	for (size_t l = 0; l < d->nlabels && at < sizeof(line); l++)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s %ld",
				       l ? ", " : "", d->labels[l].label,
				       d->labels[l].count);
	draw_textf(y, 0, w, TH_NORMAL, "  %s", d->nlabels ? line :
		   "no key is held by 3 non-roofline sources");
}

static void key_row(struct view *v, int y, int w, const struct drow *r,
		    enum theme_role role)
{
	struct disagree *d = v->priv;
	const struct matrix_key *k;
	char spread[16], ann[64];

	if (role == TH_CURSOR)
		draw_fill(y, 0, w, TH_CURSOR);
	if (r->key < 0) {
		const struct matrix_label *l = &d->labels[r->label];

		draw_textf(y, 0, w, role == TH_CURSOR ? role : TH_HEADER,
			   "%s (%ld key%s)", l->label, l->count,
			   l->count == 1 ? "" : "s");
		return;
	}
	k = &d->m->keys[r->key];
	fmt_pct(spread, sizeof(spread), k->spread, 0);
	/* one word per state: none (or an undone first one) is open */
	if (data_annot_none(k->ann))
		snprintf(ann, sizeof(ann), "%s", ANNOT_STATE_NONE);
	else
		snprintf(ann, sizeof(ann), "%s/%s", k->ann->status,
			 k->ann->category);
	draw_textf(y, 0, w, role, "  %-38.38s %-11.11s %-6.6s %7s  %-19.19s "
		   "%-30.30s %s", k->workload, k->op, k->metric, spread,
		   k->cause ? k->cause : "-", ann, k->sol ? "SoL" : "");
}

static void dis_draw(struct view *v, int y, int h, int w)
{
	struct disagree *d = v->priv;
	const struct matrix_key *k;
	long mi;
	int top, lh;

	if (!d || !d->m)
		return;
	mi = cur_metric(v);
	top = draw_matrix(v, mi, y, h / 2, w);
	if (top + 3 >= h)
		return;
	draw_counts(v, y + top, w);
	if ((k = cur_key(v)))
		draw_textf(y + top + 1, 0, w, TH_DIM, "  %s: %s%s%s (tolerance "
			   "%.1f%%%s%s)", k->label, k->cause ? k->cause : "",
			   k->cause ? " by the rule: " : "", k->rule,
			   k->tol * 100, k->tol_src >= 0 ? ", the spread of " :
			   "", k->tol_src >= 0 ? d->m->src[k->tol_src].label :
			   "");
	top++;
	draw_textf(y + top + 1, 0, w, TH_COLHEAD, "  %-38s %-11s %-6s %7s  "
		   "%-19s %-30s %s", "workload", "op", "metric", "spread",
		   "suggested", "annotation", "roofline");
	lh = h - top - 2;
	v->height = lh > 0 ? lh : 1;
	view_clamp(v);
	for (int i = 0; i < lh && v->top + (size_t)i < v->nrows; i++) {
		size_t r = v->top + (size_t)i;

		key_row(v, y + top + 2 + i, w, &d->rows[r],
			r == v->cursor ? TH_CURSOR : TH_NORMAL);
	}
}

/* Show the key's detail: in the current pair, else the next pair that
 * holds it. */
static int to_detail(struct view *v, const struct matrix_key *k)
{
	struct tui *t = v->tui;
	struct tui_data *td = &t->data;
	long i = -1;

	for (size_t tries = 0; tries < td->npairs && td->ix; tries++) {
		if ((i = pidx_find(td->ix, k->workload_id, k->op_id,
				   k->metric_id)) >= 0)
			break;
		if (data_cycle_pair(td) < 0) {
			pc_error_clear();
			break;
		}
	}
	if (i < 0) {
		status_error("no source pair holds %s %s %s", k->workload,
			     k->op, k->metric);
		return TUI_HANDLED | TUI_REDRAW;
	}
	t->detail_point = (size_t)i;
	tui_show(t, VIEW_DETAIL);
	return TUI_HANDLED | TUI_REDRAW;
}

static int dis_handle(struct view *v, int action)
{
	struct disagree *d = v->priv;
	const struct matrix_key *k = cur_key(v);
	int rc;

	if (action != ACT_ENTER && action != ACT_ANNOTATE)
		return 0;
	if (!k) {
		status_report("a pattern heading: move to one of its keys");
		return TUI_HANDLED | TUI_REDRAW;
	}
	if (action == ACT_ENTER)
		return to_detail(v, k);
	rc = annotate_key(v->tui, k->workload, k->op, k->metric,
			  k->odd >= 0 ? d->m->src[k->odd].source : NULL,
			  k->cause, k->rule, k->ann);
	if (rc < 0)
		status_error("annotation not saved: %s", pc_error_last());
	return TUI_HANDLED | TUI_REDRAW;
}

/* Case-insensitive substring. */
static int has(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (!strncasecmp(s, needle, n))
			return 1;
	return !*needle;
}

static int dis_match(struct view *v, size_t row, const char *needle)
{
	struct disagree *d = v->priv;
	const struct matrix_key *k;

	if (!d || row >= v->nrows)
		return 0;
	if (d->rows[row].key < 0)
		return has(d->labels[d->rows[row].label].label, needle);
	k = &d->m->keys[d->rows[row].key];
	return has(k->workload, needle) || has(k->op, needle) ||
	       has(k->label, needle);
}

static const int dis_footer[] = { ACT_ENTER, ACT_ANNOTATE, ACT_SEARCH,
	ACT_VIEW_NEXT, ACT_VIEW_HELP, ACT_BACK, 0 };

const struct view_ops disagree_ops = {
	.name = "disagreements",
	.title = "Disagreements",
	.footer = dis_footer,
	.open = dis_open,
	.info = dis_info,
	.draw = dis_draw,
	.handle = dis_handle,
	.match = dis_match,
	.done = dis_done,
	.annotated = 1,
};
