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
#include "src/corr/wabbr.h"
#include "src/matrix/matrix.h"
#include "src/pairidx/pairidx.h"
#include "tui/annotate.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keycol.h"
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
	struct wabbr wa;	/* the keys' shared parts (keycol.h) */
	int hcol;		/* h/l: the first scrolled column shown */
};

/* The key table's columns after the workload (which stays): h/l
 * scroll them, as they scroll the matrix's reference columns. */
enum { KC_OP, KC_METRIC, KC_SPREAD, KC_CAUSE, KC_ANN, KC_SOL, KC_COUNT };
static const char *const kc_head[KC_COUNT] = { "op", "metric", "spread",
	"suggested", "annotation", "roofline" };

static void dis_done(struct view *v)
{
	struct disagree *d = v->priv;

	if (!d)
		return;
	matrix_free(d->m);
	wabbr_release(&d->wa);
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
	const char **names;
	int rc, hcol = v->priv ? ((struct disagree *)v->priv)->hcol : 0;

	dis_done(v);
	d = v->priv = xcalloc(1, sizeof(*d));
	d->hcol = hcol;	/* a reload keeps the scroll */
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
	/* the shared parts of the keys listed (the classified ones) */
	names = xcalloc(d->m->nkeys + 1, sizeof(*names));
	n = 0;
	for (size_t k = 0; k < d->m->nkeys; k++)
		if (d->m->keys[k].pattern != MP_NONE)
			names[n++] = d->m->keys[k].workload;
	wabbr_build(&d->wa, names, n);
	free(names);
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

/* The text of cell (i, j) of metric mi and its colour: MAPE and Lin's
 * concordance; the roofline's row and column the fraction of speed of
 * light (matrix_sol_fmt, as perfcorr matrix words it), dim: a bound is
 * no error to colour (issue 35), a violation in the warning colour. */
static enum theme_role cell_text(const struct matrix *m, size_t mi, size_t i,
				 size_t j, char *buf, size_t len)
{
	const struct matrix_cell *c = matrix_cell(m, mi, i, j);
	char mape[16], ccc[16];

	if (!c->keys && c->refused) {	/* issue 37 */
		snprintf(buf, len, "not comparable");
		return TH_DIM;
	}
	if (c->sol.kind != MSOL_NONE) {
		matrix_sol_fmt(buf, len, &c->sol);
		return c->sol.violations ? TH_SEV_WARN : TH_DIM;
	}
	if (!c->keys) {
		snprintf(buf, len, "no common keys");
		return TH_DIM;
	}
	fmt_pct(mape, sizeof(mape), c->s.mape, 0);
	fmt_num(ccc, sizeof(ccc), c->ccc_log, 3);
	snprintf(buf, len, "%s %s", mape, ccc);
	return c->s.mape >= 0.15 ? TH_SEV_FAIL : c->s.mape >= 0.05 ?
	       TH_SEV_WARN : TH_SEV_OK;
}

/* Reference column j's width: its label and its widest cell. */
static int col_width(const struct matrix *m, size_t mi, size_t j)
{
	char buf[64];
	int cw = draw_width(m->src[j].label);

	for (size_t i = 0; i < m->nsrc; i++)
		if (i != j && matrix_in_grid(m, mi, i)) {
			cell_text(m, mi, i, j, buf, sizeof(buf));
			cw = draw_width(buf) > cw ? draw_width(buf) : cw;
		}
	return cw + 2;
}

/* Who is left out of metric mi's grid (a source without the metric),
 * dim in one row; returns the rows used. */
static int draw_absent(const struct matrix *m, size_t mi, int y, int w)
{
	char line[1024];
	size_t at = 0;

	line[0] = '\0';
	for (int why = MA_NONE; why <= MA_ALONE; why++) {
		char *note = matrix_absent_note(m, mi, why);

		if (note && at < sizeof(line))
			at += (size_t)snprintf(line + at, sizeof(line) - at,
					       "%s%s", at ? "; " : "", note);
		free(note);
	}
	if (!at)
		return 0;
	draw_text_cut(y, 2, w - 2, line, TH_DIM);
	return 1;
}

/* The matrix of metric mi in rows y..; returns the rows used. The row
 * labels stay; h/l scroll the reference columns, "<" and ">" saying
 * that more lie to the left or right. */
static int draw_matrix(struct view *v, long mi, int y, int h, int w)
{
	const struct disagree *d = v->priv;
	const struct matrix *m = d->m;
	const struct matrix_metric *mm;
	int lw = 11, used = 0, x, cw;
	size_t first, j, left;

	if (mi < 0) {
		/* why no metric has a grid (perfcorr matrix's words) */
		return draw_text_wrapped(y, 2, w - 2, m->nskipped ? m->skipped[0] :
				    "no metric is held by two sources", TH_DIM,
				    h > 2 ? 2 : 1);
	}
	mm = &m->metrics[mi];
	draw_textf(y + used++, 0, w, TH_HEADER, "  %s: MAPE, concordance "
		   "(log); row model, column reference; %zu keys", mm->metric,
		   mm->ncommon);
	if (used >= h)
		return used;
	for (size_t i = 0; i < m->nsrc; i++)
		lw = draw_width(m->src[i].label) > lw ?
		     draw_width(m->src[i].label) : lw;
	lw = lw > 20 ? 20 : lw;
	/* h/l scroll the grid's columns: a source without the metric is
	 * not in it (said below the grid) */
	for (first = 0, left = 0; first < m->nsrc; first++)
		if (matrix_in_grid(m, (size_t)mi, first) &&
		    left++ == (size_t)d->hcol)
			break;
	if (first == m->nsrc) {	/* scrolled past the last: the last */
		while (first > 0 && !matrix_in_grid(m, (size_t)mi, first - 1))
			first--;
		first--;
	}
	left--;		/* the grid's columns left of the first shown */
	draw_text(y + used, 2, lw, "model \\ ref", TH_COLHEAD);
	if (left)
		draw_text(y + used, 2 + lw, 1, "<", TH_COLHEAD);
	for (x = 3 + lw, j = first; j < m->nsrc; j++, x += cw) {
		cw = 0;
		if (!matrix_in_grid(m, (size_t)mi, j))
			continue;
		cw = col_width(m, (size_t)mi, j);
		if (x + cw > w - 1)
			break;
		draw_text_right(y + used, x, cw - 1, m->src[j].label,
				TH_COLHEAD);
	}
	if (j < m->nsrc)
		draw_text(y + used, w - 1, 1, ">", TH_COLHEAD);
	used++;
	for (size_t i = 0; i < m->nsrc && used < h; i++) {
		if (!matrix_in_grid(m, (size_t)mi, i))
			continue;
		draw_text_cut(y + used, 2, lw, m->src[i].label, TH_NORMAL);
		for (x = 3 + lw, j = first; j < m->nsrc; j++, x += cw) {
			char cell[64];
			enum theme_role role;

			cw = 0;
			if (!matrix_in_grid(m, (size_t)mi, j))
				continue;
			cw = col_width(m, (size_t)mi, j);
			if (x + cw > w - 1)
				break;
			if (i == j)
				continue;
			role = cell_text(m, (size_t)mi, i, j, cell,
					 sizeof(cell));
			draw_text_right(y + used, x, cw - 1, cell, role);
		}
		used++;
	}
	if (used < h)
		used += draw_absent(m, (size_t)mi, y + used, w);
	return used;
}

static int draw_counts(struct view *v, int y, int w)
{
	struct disagree *d = v->priv;
	char line[1024];
	size_t at = 0;

	line[0] = '\0';
	for (size_t l = 0; l < d->nlabels && at < sizeof(line); l++)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s %ld",
				       l ? ", " : "", d->labels[l].label,
				       d->labels[l].count);
	if (!d->nlabels)
		at = (size_t)snprintf(line, sizeof(line), "%s",
				      d->m->unclassified ? "no key classified" :
				      "no key is held by 3 non-roofline "
				      "sources");
	/* the keys the fingerprints keep out (issue 37), never silently */
	if (d->m->unclassified && at < sizeof(line))
		snprintf(line + at, sizeof(line) - at, "; not classified %ld: "
			 "their voters' runs do not pair (perfcorr matrix says "
			 "why)", d->m->unclassified);
	return draw_text_wrapped(y, 2, w - 2, line, TH_NORMAL, 2);
}

/* The key table's columns scrolled out by h/l: after the op, which
 * stays with the workload (a key is its workload and op: without it
 * three rows read 'decode/bs=1 rtl-bug'), up to hcol of them, the last
 * never. */
static int key_scrolled(const struct disagree *d, int c)
{
	int s = d->hcol < KC_COUNT - 2 ? d->hcol : KC_COUNT - 2;

	return c != KC_OP && c <= s;
}

/* The annotation cell of key k: one word per state, none (or an undone
 * first one) is open; else status/category. */
static void ann_text(char *buf, size_t len, const struct matrix_key *k)
{
	if (annot_none(k->ann))
		snprintf(buf, len, "%s", ANNOT_STATE_NONE);
	else
		snprintf(buf, len, "%s/%s", k->ann->status, k->ann->category);
}

/* The key table's column widths at the screen's width: the workload
 * (its shared parts left out, keycol.h) and the op stay; the others
 * from hcol on while they fit (the first always, cut when it must be).
 * *level gets the workload's abbreviation. */
static void key_layout(struct view *v, int w, int *ww, int *level,
		       int cw[KC_COUNT])
{
	struct disagree *d = v->priv;
	static const int cap[KC_COUNT] = { 14, 18, 7, 19, 36, 24 };
	int x, room = w * 2 / 5, nat[KC_COUNT], full = 0, spare;
	char ann[256];

	*level = keycol_fit(&d->wa, room, 0, ww);
	for (int c = 0; c < KC_COUNT; c++)
		cw[c] = draw_width(kc_head[c]);
	for (size_t k = 0; k < d->m->nkeys; k++) {
		const struct matrix_key *mk = &d->m->keys[k];
		const char *t[KC_COUNT] = { mk->op, mk->metric, "100.0%",
			mk->cause ? mk->cause : "-", ann,
			mk->sol ? mk->sol : "" };

		if (mk->pattern == MP_NONE)
			continue;
		ann_text(ann, sizeof(ann), mk);
		for (int c = 0; c < KC_COUNT; c++)
			if (draw_width(t[c]) > cw[c])
				cw[c] = draw_width(t[c]);
	}
	memcpy(nat, cw, sizeof(nat));
	x = 2 + *ww + 1;
	for (int c = 0; c < KC_COUNT; c++) {
		cw[c] = cw[c] > cap[c] ? cap[c] : cw[c];
		/* the free text (annotation, violations) is worth a cut */
		if ((c == KC_ANN || c == KC_SOL) && !full && x + 10 < w - 1 &&
		    x + cw[c] > w - 1)
			cw[c] = w - 1 - x;
		full |= x + cw[c] > w - 1 && c != KC_OP &&
			!(key_scrolled(d, c - 1) || c - 1 == KC_OP);
		if (key_scrolled(d, c) || full) {
			cw[c] = 0;	/* scrolled out, or beyond the edge */
			continue;
		}
		if (x + cw[c] > w - 1)
			cw[c] = w - 1 - x;
		x += cw[c] + 1;
	}
	/* every column shown and room left (160 columns): the caps give way
	 * to the free text cut by them, the violations (the last column)
	 * first, then the annotation (issue 35 QA: "h100-cloud, h1~") */
	spare = w - x;
	for (int i = 0, c = KC_SOL; !full && i < 2; i++, c = KC_ANN)
		if (cw[c] && cw[c] < nat[c] && spare > 0) {
			int add = nat[c] - cw[c] < spare ? nat[c] - cw[c] :
				  spare;

			cw[c] += add;
			spare -= add;
		}
}

static void key_heads(struct view *v, int y, int w, int ww, int level,
		      const int *cw)
{
	struct disagree *d = v->priv;
	int x = 2 + ww + 1, more = 0;

	draw_text_cut(y, 2, ww, keycol_heading(&d->wa, level), TH_COLHEAD);
	for (int c = 0; c < KC_COUNT; c++) {
		if (!cw[c]) {
			more |= !key_scrolled(d, c);
			continue;
		}
		if (c == KC_SPREAD)
			draw_text_right(y, x, cw[c], kc_head[c], TH_COLHEAD);
		else
			draw_text_cut(y, x, cw[c], kc_head[c], TH_COLHEAD);
		x += cw[c] + 1;
		/* after the op: columns scrolled out to the left */
		if (c == KC_OP && key_scrolled(d, KC_OP + 1))
			draw_text(y, x - 1, 1, "<", TH_COLHEAD);
	}
	if (more)
		draw_text(y, w - 1, 1, ">", TH_COLHEAD);
}

static void key_row(struct view *v, int y, int w, const struct drow *r,
		    enum theme_role role, int ww, int level, const int *cw)
{
	struct disagree *d = v->priv;
	const struct matrix_key *k;
	char spread[16], ann[256], buf[256];
	const char *t[KC_COUNT];
	int x = 2 + ww + 1;

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
	ann_text(ann, sizeof(ann), k);
	t[KC_OP] = k->op;
	t[KC_METRIC] = k->metric;
	t[KC_SPREAD] = spread;
	t[KC_CAUSE] = k->cause ? k->cause : "-";
	t[KC_ANN] = ann;
	t[KC_SOL] = k->sol ? k->sol : "";
	draw_text_mid(y, 2, ww, keycol_apply(&d->wa, level, ww, k->workload,
					     buf, sizeof(buf)), role);
	for (int c = 0; c < KC_COUNT; c++) {
		if (!cw[c])
			continue;
		if (c == KC_SPREAD)
			draw_text_right(y, x, cw[c], t[c], role);
		else
			draw_text_cut(y, x, cw[c], t[c], role);
		x += cw[c] + 1;
	}
}

static void dis_draw(struct view *v, int y, int h, int w)
{
	struct disagree *d = v->priv;
	const struct matrix_key *k;
	int top, lh, ww, level, cw[KC_COUNT];
	long mi;

	if (!d || !d->m)
		return;
	mi = cur_metric(v);
	top = draw_matrix(v, mi, y, h / 2, w);
	if (top + 4 >= h)
		return;
	top += draw_counts(v, y + top, w);
	if ((k = cur_key(v))) {
		char why[1024];

		snprintf(why, sizeof(why), "%s: %s%s%s (tolerance %.1f%%%s%s)"
			 "%s%s", k->label, k->cause ? k->cause : "",
			 k->cause ? " by the rule: " : "", k->rule,
			 k->tol * 100, k->tol_src >= 0 ? ", the spread of " :
			 "", k->tol_src >= 0 ? d->m->src[k->tol_src].label :
			 "", k->vote_why ? "; left out of the vote: " : "",
			 k->vote_why ? k->vote_why : "");
		top += draw_text_wrapped(y + top, 2, w - 2, why, TH_DIM,
					 k->vote_why ? 3 : 2);
	}
	key_layout(v, w, &ww, &level, cw);
	key_heads(v, y + top, w, ww, level, cw);
	top++;
	lh = h - top;
	v->height = lh > 0 ? lh : 1;
	view_clamp(v);
	for (int i = 0; i < lh && v->top + (size_t)i < v->nrows; i++) {
		size_t r = v->top + (size_t)i;

		key_row(v, y + top + i, w, &d->rows[r], r == v->cursor ?
			TH_CURSOR : TH_NORMAL, ww, level, cw);
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

	if (action == ACT_COL_LEFT || action == ACT_COL_RIGHT) {
		/* scroll the matrix's columns and the key table's */
		int max = KC_COUNT - 1 > (int)d->m->nsrc - 1 ? KC_COUNT - 1 :
			  (int)d->m->nsrc - 1;

		if (action == ACT_COL_LEFT && d->hcol > 0)
			d->hcol--;
		else if (action == ACT_COL_RIGHT && d->hcol < max)
			d->hcol++;
		return TUI_HANDLED | TUI_REDRAW;
	}
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

static const int dis_footer[] = { ACT_ENTER, ACT_ANNOTATE, ACT_COL_RIGHT,
	ACT_SEARCH,
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
