/*
 * Discrepancies (the start view): one row per pair, sorted by |error|
 * descending, coloured by severity; header with the pair and the core's
 * summary. Filter, sort, search and marks work on struct rows, so a key
 * costs one pass over the index at most.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/corr/correlate.h"
#include "base/error.h"
#include "src/pairidx/pairidx.h"
#include "base/util.h"
#include "tui/annotate.h"
#include "tui/draw.h"
#include "db/annot.h"
#include "db/db.h"
#include "tui/export.h"
#include "tui/link.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/rows.h"
#include "tui/status.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "tui/view_discrep.h"

struct discrep *discrep_priv(struct view *v)
{
	if (!v->priv) {
		struct discrep *d = xcalloc(1, sizeof(*d));

		d->sort_col = -1;
		v->priv = d;
		v->col = RC_ERR;
	}
	return v->priv;
}

static const struct pidx_key *key_at(struct view *v, size_t row)
{
	struct discrep *d = v->priv;

	return &v->tui->data.ix->keys[d->rows.idx[row]];
}

void discrep_remember_cursor(struct view *v)
{
	struct discrep *d = v->priv;

	if (d->have_rows && v->cursor < d->rows.n) {
		const struct pidx_key *k = key_at(v, v->cursor);

		d->at = (struct mkey){ k->w, k->o, k->m };
		d->have_at = 1;
	}
}

/* Rebuild the per-point marks from the keys after a reload. */
static void remap_marks(struct view *v)
{
	struct discrep *d = v->priv;
	struct pidx *x = v->tui->data.ix;
	size_t kept = 0;

	free(d->marked);
	d->marked = xcalloc(x->n ? x->n : 1, 1);
	for (size_t i = 0; i < d->nmarks; i++) {
		long k = pidx_find(x, d->marks[i].w, d->marks[i].o,
				   d->marks[i].m);

		if (k >= 0) {
			d->marked[k] = 1;
			d->marks[kept++] = d->marks[i];
		}
	}
	d->nmarks = kept;
}

/* The header's figures for the filtered rows: O(n), every keystroke. */
static void filtered_summary(struct view *v)
{
	struct discrep *d = v->priv;

	if (d->filter.n > 0 && d->rows.n == data_npoints(&v->tui->data)) {
		d->fsum = v->tui->data.sum;	/* every row matches */
		d->have_fsum = 1;
		return;
	}
	/* the filter's mask from the last pass: the points in the rows */
	d->have_fsum = d->filter.n > 0 && d->filter.mask &&
		       pidx_basic(v->tui->data.ix, d->filter.mask, &d->fsum) == 0;
}

/* The parts every listed workload shares (for a narrow column): the
 * index's, found once when it was built. */
static void shared_parts(struct view *v)
{
	struct discrep *d = v->priv;

	wabbr_release(&d->wa);
	pidx_wabbr(v->tui->data.ix, &d->wa);
}

/* The widest value of a metric whose values print without an SI prefix
 * (dimensionless, %: 0.0001234, 123456789), when wider than at: one
 * pass over the values of those metrics, none when there is no such
 * metric; most values are passed over by a bound on their width. */
static int plain_width(const struct tui_data *data, int at)
{
	const struct pidx *x = data->ix;
	size_t nm = (size_t)x->max_id[2] + 1;
	const char **plain = xcalloc(nm, sizeof(*plain));	/* its unit */
	int *extra = xcalloc(nm, sizeof(*extra)), any = 0;
	const unsigned char *bb = fmt_plain_binades();

	for (size_t m = 0; m < nm; m++) {
		const char *unit = data_metric_unit(data, (int64_t)m);

		if (fmt_unit_plain(unit)) {
			plain[m] = unit ? unit : "";
			/* " %" after the number */
			extra[m] = *plain[m] && strcmp(plain[m], "1") ?
				   1 + (int)strlen(plain[m]) : 0;
			any = 1;
		}
	}
	for (size_t i = 0; any && i < x->n; i++) {
		int32_t m = x->keys[i].m;
		uint64_t bm, br;

		if (m < 0 || (size_t)m >= nm || !plain[m])
			continue;
		memcpy(&bm, &x->vals[i].model, sizeof(bm));
		memcpy(&br, &x->vals[i].ref, sizeof(br));
		if (bb[bm >> 52] + extra[m] <= at &&
		    bb[br >> 52] + extra[m] <= at)
			continue;
		at = fmt_plain_width_max((const double[]){ x->vals[i].model,
					 x->vals[i].ref }, 2, plain[m], at);
	}
	free(plain);
	free(extra);
	return at;
}

static int discrep_open(struct view *v)
{
	struct discrep *d = discrep_priv(v);
	struct tui_data *data = &v->tui->data;
	long row;

	/* the cursor's key was remembered at the last draw: the old rows
	 * may index a set that is gone */
	if (d->have_rows)
		rows_release(&d->rows);
	d->have_rows = 0;
	v->nrows = 0;
	if (!data->ix)
		return pc_error_set(PC_ENOTFOUND, "nothing loaded");
	/* column widths from the names (ids up to the largest in use) */
	d->opw = d->mw = 0;
	for (int64_t id = 0; id <= data->ix->max_id[1]; id++) {
		int ol = (int)strlen(pidx_op(data->ix, id));

		d->opw = ol > d->opw ? ol : d->opw;
	}
	for (int64_t id = 0; id <= data->ix->max_id[2]; id++) {
		int ml = (int)strlen(pidx_metric(data->ix, id));

		d->mw = ml > d->mw ? ml : d->mw;
	}
	/* values with their units: "999.9 us" is as wide as one gets,
	 * but a value without a prefix is as wide as it is (12345678) */
	d->vw = 6;
	for (int64_t id = 0; id <= data->ix->max_id[2]; id++) {
		char buf[64];
		int vw;

		if (fmt_unit_plain(data_metric_unit(data, id)))
			continue;
		fmt_si_unit(buf, sizeof(buf), 999.9e-6,
			    data_metric_unit(data, id), 1);
		vw = (int)strlen(buf);
		d->vw = vw > d->vw ? vw : d->vw;
	}
	d->vw = plain_width(data, d->vw);
	shared_parts(v);
	rows_init(&d->rows, &data->src);
	/* a bound's rows by the fraction of speed of light, highest (the
	 * violations) first: the header's SoL v, not the core's |err| */
	if (d->sort_col < 0 && data->src.bound)
		rows_sort(&d->rows, RC_ERR, 1);
	else
		rows_sort(&d->rows, d->sort_col, d->sort_desc);
	rows_apply(&d->rows, &d->filter);
	d->have_rows = 1;
	v->nrows = d->rows.n;
	remap_marks(v);
	filtered_summary(v);
	row = d->have_at ? rows_find(&d->rows, d->at.w, d->at.o, d->at.m) : -1;
	if (row >= 0)
		view_goto(v, (size_t)row);
	else
		view_clamp(v);
	return 0;
}

static void discrep_done(struct view *v)
{
	struct discrep *d = v->priv;

	if (!d)
		return;
	if (d->have_rows)
		rows_release(&d->rows);
	rows_filter_release(&d->filter);
	wabbr_release(&d->wa);
	free(d->marked);
	free(d->marks);
	free(d);
	v->priv = NULL;
}

static void discrep_info(struct view *v, char *buf, size_t len)
{
	struct discrep *d = discrep_priv(v);
	char pair[256], marks[32] = "";

	if (d->nmarks)
		snprintf(marks, sizeof(marks), " | %zu marked", d->nmarks);
	snprintf(buf, len, "row %zu/%zu%s | %s", v->nrows ? v->cursor + 1 : 0,
		 v->nrows, marks, data_pair_label(&v->tui->data, pair,
						  sizeof(pair),
						  draw_cols() < 100));
}

/* Keep the cursor on the same point after the order changed. */
static void follow(struct view *v, uint32_t point)
{
	struct discrep *d = v->priv;

	v->nrows = d->rows.n;
	for (size_t k = 0; k < d->rows.n; k++)
		if (d->rows.idx[k] == point) {
			view_goto(v, k);
			return;
		}
	v->cursor = v->top = 0;
}

static int sort_by_column(struct view *v)
{
	struct discrep *d = v->priv;
	uint32_t at = d->rows.n ? d->rows.idx[v->cursor] : 0;
	int col = v->col, desc;

	if (col == d->rows.col || (d->rows.col < 0 && col == RC_ERR))
		desc = d->rows.col < 0 ? 0 : !d->rows.desc;
	else
		desc = col >= RC_MODEL;	/* numbers: largest first */
	if (col == RC_ERR && desc && !d->rows.src->bound) {
		col = -1;	/* |err| descending is the core's order */
		desc = 0;
	}
	rows_sort(&d->rows, col, desc);
	rows_apply(&d->rows, &d->filter);
	d->sort_col = col;
	d->sort_desc = desc;
	follow(v, at);
	status_report("sorted by %s %s", discrep_col_names[v->col],
		      col < 0 || desc ? "descending" : "ascending");
	return TUI_HANDLED | TUI_REDRAW;
}

struct live {
	struct view *v;
	char *before;
};

/* Filter as you type: apply every parseable prefix. */
static void filter_changed(struct tui *t, const char *text, void *arg)
{
	struct live *l = arg;
	struct discrep *d = l->v->priv;
	struct filter f;

	(void)t;
	if (rows_filter_parse(&f, text) < 0) {
		status_error("%s", pc_error_last());
		return;
	}
	status_clear();
	/* keep the pass's scratch: a new one would fault its pages in */
	f.mask = d->filter.mask;
	f.mask_len = d->filter.mask_len;
	d->filter.mask = NULL;
	rows_filter_release(&d->filter);
	d->filter = f;
	rows_apply(&d->rows, &d->filter);
	/* the statistics wait for Enter: typing costs one pass, Enter the
	 * other (each well under a keystroke's budget at 1M rows) */
	d->have_fsum = 0;
	l->v->nrows = d->rows.n;
	l->v->cursor = l->v->top = 0;
}

static int filter_prompt(struct view *v)
{
	struct discrep *d = v->priv;
	struct live l = { v, xstrdup(d->filter.text ? d->filter.text : "") };
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", l.before);
	if (!status_prompt(v->tui, "filter: ", buf, sizeof(buf),
			   filter_changed, &l)) {
		filter_changed(v->tui, l.before, &l);	/* Esc: put it back */
	} else {
		struct filter check;

		if (rows_filter_parse(&check, buf) < 0)
			status_error("%s", pc_error_last());
		else
			rows_filter_release(&check);
	}
	free(l.before);
	filtered_summary(v);
	if (d->filter.n)
		status_report("%zu of %zu rows match '%s'", d->rows.n,
			      d->rows.src->n, d->filter.text);
	return TUI_HANDLED | TUI_REDRAW;
}

int discrep_set_filter(struct view *v, const char *text)
{
	struct discrep *d = discrep_priv(v);
	struct filter f;

	if (rows_filter_parse(&f, text) < 0)
		return PC_EINVALID;
	rows_filter_release(&d->filter);
	d->filter = f;
	rows_apply(&d->rows, &d->filter);
	v->nrows = d->rows.n;
	v->cursor = v->top = 0;
	d->have_fsum = 0;
	filtered_summary(v);
	return 0;
}

static int search(struct view *v, int action)
{
	struct discrep *d = v->priv;
	char buf[sizeof(v->search)] = "";
	long row;
	int dir, wrapped;
	size_t total, rank;

	if (action == ACT_SEARCH) {
		if (!status_prompt(v->tui, "/", buf, sizeof(buf), NULL, NULL) ||
		    !buf[0])
			return TUI_HANDLED | TUI_REDRAW;
		snprintf(v->search, sizeof(v->search), "%s", buf);
	}
	if (!v->search[0]) {
		status_report("no search yet: press / first");
		return TUI_HANDLED;
	}
	dir = action == ACT_FIND_PREV ? -1 : 1;
	row = rows_search(&d->rows, v->search, v->cursor, dir);
	if (row < 0) {
		status_error("'%s' not found", v->search);
		return TUI_HANDLED | TUI_REDRAW;
	}
	wrapped = dir > 0 ? (size_t)row <= v->cursor : (size_t)row >= v->cursor;
	view_goto(v, (size_t)row);
	total = rows_search_count(&d->rows, v->search, (size_t)row, &rank);
	status_report("'%s': match %zu/%zu%s", v->search, rank, total,
		      wrapped ? ", search wrapped" : "");
	return TUI_HANDLED | TUI_REDRAW;
}

static void toggle_mark(struct view *v)
{
	struct discrep *d = v->priv;
	uint32_t i = d->rows.idx[v->cursor];
	const struct pidx_key *p = key_at(v, v->cursor);

	d->marked[i] = !d->marked[i];
	if (d->marked[i]) {
		d->marks = xrealloc(d->marks, (d->nmarks + 1) *
				    sizeof(*d->marks));
		d->marks[d->nmarks++] = (struct mkey){ p->w, p->o, p->m };
	} else {
		for (size_t k = 0; k < d->nmarks; k++)
			if (d->marks[k].w == p->w && d->marks[k].o == p->o &&
			    d->marks[k].m == p->m)
				d->marks[k] = d->marks[--d->nmarks];
	}
	if (v->cursor + 1 < v->nrows)
		v->cursor++;
}

int discrep_mark(struct view *v, uint32_t point, uint32_t *next)
{
	struct discrep *d = v->priv;
	size_t row = v->cursor;

	if (!d->have_rows || !d->rows.n) {
		status_error("no rows");
		return -1;
	}
	if (row >= d->rows.n || d->rows.idx[row] != point) {
		for (row = 0; row < d->rows.n && d->rows.idx[row] != point;
		     row++)
			;
		if (row == d->rows.n) {
			status_error("the row is not in the list (the filter "
				     "leaves it out): nothing marked");
			return -1;
		}
		view_goto(v, row);
	}
	toggle_mark(v);
	*next = d->rows.idx[v->cursor];
	status_report("%s: %zu row%s marked (a in the list annotates them "
		      "all, u unmarks)", d->marked[point] ? "marked" :
		      "unmarked", d->nmarks, d->nmarks == 1 ? "" : "s");
	return d->marked[point];
}

static void clear_marks(struct view *v)
{
	struct discrep *d = v->priv;

	memset(d->marked, 0, d->rows.src->n ? d->rows.src->n : 1);
	d->nmarks = 0;
}

static int annotate(struct view *v)
{
	struct discrep *d = v->priv;
	uint32_t *pts;
	size_t n = 0;
	int rc;

	if (!d->rows.n)
		return TUI_HANDLED;
	pts = xmalloc((d->nmarks ? d->rows.src->n : 1) * sizeof(*pts));
	for (size_t i = 0; d->nmarks && i < d->rows.src->n; i++)
		if (d->marked[i])
			pts[n++] = (uint32_t)i;
	if (!n)
		pts[n++] = d->rows.idx[v->cursor];
	rc = annotate_points(v->tui, pts, n);
	free(pts);
	if (rc > 0) {
		if (d->nmarks)
			clear_marks(v);
		rows_forget(&d->rows, RC_STATUS);
		if (d->rows.col == RC_STATUS)
			rows_sort(&d->rows, RC_STATUS, d->rows.desc);
	} else if (rc < 0) {
		status_error("annotation not saved: %s", pc_error_last());
	}
	return TUI_HANDLED | TUI_REDRAW;
}

static int discrep_handle(struct view *v, int action)
{
	struct discrep *d = discrep_priv(v);
	char pair[256];

	if (!d->have_rows)
		return 0;
	switch (action) {
	case ACT_ENTER:
		if (!d->rows.n)
			return TUI_HANDLED;
		v->tui->detail_point = d->rows.idx[v->cursor];
		tui_show(v->tui, VIEW_DETAIL);
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_COL_LEFT:
		/* over the columns left out at this width */
		do
			v->col = v->col > 0 ? v->col - 1 : 0;
		while (v->col > 0 && d->have_cw && !d->cw[v->col]);
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_COL_RIGHT:
		do
			v->col = v->col + 1 < RC_COUNT ? v->col + 1 :
				 RC_COUNT - 1;
		while (v->col < RC_COUNT - 1 && d->have_cw && !d->cw[v->col]);
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_SORT:
		return sort_by_column(v);
	case ACT_FILTER:
		return filter_prompt(v);
	case ACT_FILTER_CLEAR:
		filter_changed(v->tui, "", &(struct live){ v, NULL });
		status_report("filter cleared");
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_SEARCH:
	case ACT_FIND_NEXT:
	case ACT_FIND_PREV:
		return search(v, action);
	case ACT_MARK:
		if (d->rows.n)
			toggle_mark(v);
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_MARK_CLEAR:
		clear_marks(v);
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_ANNOTATE:
		return annotate(v);
	case ACT_NEXT_OPEN: {
		uint32_t pt;

		discrep_step(v, 0, &pt);
		return TUI_HANDLED | TUI_REDRAW;
	}
	case ACT_FILTER_NEW:
		return discrep_toggle_new(v);
	case ACT_EXPORT:
		return discrep_export(v);
	case ACT_OPEN_LINK: {
		struct corr_point tmp;
		const struct corr_point *p;

		if (!d->rows.n)
			return TUI_HANDLED;
		p = data_point(&v->tui->data, d->rows.idx[v->cursor], &tmp);
		link_open(p->ann ? p->ann->link : NULL);
		return TUI_HANDLED | TUI_REDRAW;
	}
	case ACT_UNDO:
		discrep_undo(v);
		return TUI_HANDLED | TUI_REDRAW;
	case ACT_CYCLE_PAIR:
		if (data_cycle_pair(&v->tui->data) < 0) {
			status_error("%s", pc_error_last());
			return TUI_HANDLED;
		}
		d->have_at = 0;
		d->nmarks = 0;	/* marks belong to the previous pair */
		v->tui->detail_point = (size_t)-1;
		v->cursor = v->top = 0;
		discrep_open(v);
		v->gen = v->tui->data.gen;
		status_report("pair: %s%s", data_pair_label(&v->tui->data,
			      pair, sizeof(pair), 0), data_bound(&v->tui->data)
			      ? ": the fraction of speed of light the "
			      "reference reaches, not errors" : "");
		return TUI_HANDLED | TUI_REDRAW;
	}
	return 0;
}

static const int discrep_footer[] = { ACT_ENTER, ACT_ANNOTATE, ACT_MARK,
	ACT_FILTER, ACT_SEARCH, ACT_SORT, ACT_CYCLE_PAIR, ACT_VIEW_HELP,
	ACT_BACK, 0 };

const struct view_ops discrep_ops = {
	.name = "discrepancies",
	.title = "Discrepancies",
	.footer = discrep_footer,
	.open = discrep_open,
	.info = discrep_info,
	.draw = discrep_draw,
	.handle = discrep_handle,
	.done = discrep_done,
};
