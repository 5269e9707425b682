/* Runs: every import with its provenance (the `perfcorr runs` listing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/query.h"
#include "base/util.h"
#include "tui/draw.h"
#include "tui/keys.h"
#include "tui/rows.h"
#include "tui/tui.h"
#include "tui/view.h"

#define MAX_WIDTH 28

/* Columns in this order first (the file matters more than the hash). */
static const char *const first[] = { "run_id", "source", "kind", "version",
	"file", "results", "platform", "clock_hz", "format", "imported_at",
	"imported_by", NULL };

struct runs {
	int *order;		/* display position -> cursor column */
	int ncols;
	char **head;
	char **cells;		/* nrows * ncols */
	int *width;
	int hcol;		/* h/l: the first scrolled column shown */
};

/* run_id and source stay; h/l scroll the others (hash, who, when). */
#define FROZEN 2

static void runs_free(struct runs *r)
{
	if (!r)
		return;
	free(r->width);
	free(r->order);
	for (int i = 0; i < r->ncols; i++)
		free(r->head[i]);
	free(r->head);
	free(r);
}

static void runs_done(struct view *v)
{
	struct runs *r = v->priv;

	if (r) {
		for (size_t i = 0; i < v->nrows * (size_t)r->ncols; i++)
			free(r->cells[i]);
		free(r->cells);
	}
	runs_free(r);
	v->priv = NULL;
	v->nrows = 0;
}

static void plan_order(struct runs *r, struct db_cursor *c)
{
	int k = 0, *used = xcalloc((size_t)r->ncols, sizeof(*used));

	for (int f = 0; first[f]; f++)
		for (int i = 0; i < r->ncols; i++)
			if (!used[i] && !strcmp(db_cursor_name(c, i), first[f])) {
				used[i] = 1;
				r->order[k++] = i;
			}
	for (int i = 0; i < r->ncols; i++)
		if (!used[i])
			r->order[k++] = i;
	free(used);
}

/* "1755000000.0" -> "1755 MHz" ("1.5 MHz" below 10 MHz); "" stays. */
static char *clock_text(const char *hz)
{
	char *end;
	double v = strtod(hz, &end);

	if (!*hz || end == hz || *end)
		return xstrdup(hz);
	v /= 1e6;
	return xasprintf(v < 10 ? "%.3g MHz" : "%.0f MHz", v);
}

static int runs_open(struct view *v)
{
	struct db_cursor *c;
	struct runs *r;
	int rc;

	runs_done(v);
	if ((rc = db_list_open(&c, v->tui->db, DB_LIST_RUNS, NULL)) < 0)
		return rc;
	r = xcalloc(1, sizeof(*r));
	r->ncols = db_cursor_ncols(c);
	r->head = xcalloc((size_t)r->ncols, sizeof(*r->head));
	r->width = xcalloc((size_t)r->ncols, sizeof(*r->width));
	r->order = xcalloc((size_t)r->ncols, sizeof(*r->order));
	plan_order(r, c);
	for (int i = 0; i < r->ncols; i++) {
		/* the clock in MHz, as people quote it (1755 MHz) */
		r->head[i] = xstrdup(!strcmp(db_cursor_name(c, i), "clock_hz") ?
				     "clock" : db_cursor_name(c, i));
		r->width[i] = (int)strlen(r->head[i]);
	}
	v->priv = r;
	while ((rc = db_cursor_next(c)) > 0) {
		r->cells = xrealloc(r->cells, (v->nrows + 1) *
				    (size_t)r->ncols * sizeof(*r->cells));
		for (int i = 0; i < r->ncols; i++) {
			char *s = !strcmp(db_cursor_name(c, i), "clock_hz") ?
				  clock_text(db_cursor_text(c, i)) :
				  xstrdup(db_cursor_text(c, i));
			int w = draw_width(s);

			r->cells[v->nrows * (size_t)r->ncols + (size_t)i] = s;
			if (w > r->width[i])
				r->width[i] = w > MAX_WIDTH ? MAX_WIDTH : w;
		}
		v->nrows++;
	}
	db_cursor_close(c);
	return rc < 0 ? rc : 0;
}

static void runs_info(struct view *v, char *buf, size_t len)
{
	snprintf(buf, len, "%zu run%s", v->nrows, v->nrows == 1 ? "" : "s");
}

/* One row: the frozen columns, then the scrolled ones from hcol while
 * they fit (the last cut with "~" when 6 columns or more are left).
 * Returns 1 when columns lie beyond the right edge. */
static int draw_row(struct runs *r, char **cells, int y, int w,
		    enum theme_role role)
{
	int x = 0;

	for (int k = 0; k < r->ncols && x < w; k++) {
		int i = r->order[k];

		if (k >= FROZEN && k < FROZEN + r->hcol)
			continue;
		if (x + r->width[i] > w && (x + 6 > w || k < FROZEN))
			return 1;
		draw_text_cut(y, x, w - x < r->width[i] ? w - x :
			      r->width[i], cells[i], role);
		x += r->width[i] + 1;
		if (x > w && k + 1 < r->ncols)
			return 1;
	}
	return 0;
}

static void runs_draw(struct view *v, int y, int h, int w)
{
	struct runs *r = v->priv;

	if (!r)
		return;
	if (draw_row(r, r->head, y, w - 1, TH_COLHEAD))
		draw_text(y, w - 1, 1, ">", TH_COLHEAD);
	if (r->hcol) {	/* columns scrolled out to the left */
		int x = 0;

		for (int k = 0; k < FROZEN && k < r->ncols; k++)
			x += r->width[r->order[k]] + 1;
		draw_text(y, x - 1, 1, "<", TH_COLHEAD);
	}
	v->height = h - 1;
	view_clamp(v);
	if (!v->nrows)
		draw_text(y + 1, 0, w, "no runs imported yet", TH_DIM);
	for (int k = 0; k < h - 1 && v->top + (size_t)k < v->nrows; k++) {
		size_t i = v->top + (size_t)k;

		if (i == v->cursor)
			draw_fill(y + 1 + k, 0, w, TH_CURSOR);
		draw_row(r, r->cells + i * (size_t)r->ncols, y + 1 + k, w - 1,
			 i == v->cursor ? TH_CURSOR : TH_NORMAL);
	}
}

static int runs_match(struct view *v, size_t row, const char *needle)
{
	struct runs *r = v->priv;

	for (int i = 0; r && i < r->ncols; i++)
		if (rows_contains(r->cells[row * (size_t)r->ncols + (size_t)i],
				  needle))
			return 1;
	return 0;
}

/* h/l scroll the columns after run_id and source. */
static int runs_handle(struct view *v, int action)
{
	struct runs *r = v->priv;

	if (!r || (action != ACT_COL_LEFT && action != ACT_COL_RIGHT))
		return 0;
	if (action == ACT_COL_LEFT && r->hcol > 0)
		r->hcol--;
	else if (action == ACT_COL_RIGHT && r->hcol < r->ncols - FROZEN - 1)
		r->hcol++;
	return TUI_HANDLED | TUI_REDRAW;
}

static const int runs_footer[] = { ACT_BACK, ACT_SEARCH, ACT_COL_RIGHT,
	ACT_VIEW_NEXT, ACT_VIEW_HELP, 0 };

const struct view_ops runs_ops = {
	.name = "runs",
	.title = "Runs",
	.footer = runs_footer,
	.handle = runs_handle,
	.open = runs_open,
	.info = runs_info,
	.draw = runs_draw,
	.match = runs_match,
	.done = runs_done,
};
