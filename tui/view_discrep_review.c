/*
 * The Discrepancies view's review actions (see view_discrep.h): the
 * progress ("N open of M"), the next open discrepancy and ]/[ from the
 * detail, undo, the CSV export and the new-since-the-review toggle.
 * Split from view_discrep.c (loading, filter, sort, keys).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "db/db.h"
#include "tui/export.h"
#include "tui/status.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "tui/view_discrep.h"

void discrep_progress(struct view *v)
{
	struct discrep *d = discrep_priv(v);
	struct tui_data *data = &v->tui->data;

	if (!data->ix || (d->have_prog && d->prog_gen == data->gen &&
			  d->prog_ann == data->ann_gen))
		return;
	data_progress(data, &d->ndisc, &d->nopen);
	d->prog_gen = data->gen;
	d->prog_ann = data->ann_gen;
	d->have_prog = 1;
}

/* The next open discrepancy after the cursor in the list's order. */
static long next_open(struct view *v)
{
	struct discrep *d = v->priv;

	for (size_t k = 1; k <= d->rows.n; k++) {
		size_t row = (v->cursor + k) % d->rows.n;

		if (data_is_open(&v->tui->data, d->rows.idx[row]))
			return (long)row;
	}
	return -1;
}

int discrep_step(struct view *v, int dir, uint32_t *point)
{
	struct discrep *d = discrep_priv(v);
	long row;

	if (!d->have_rows || !d->rows.n) {
		status_error("no rows");
		return -1;
	}
	if (dir == 0) {
		discrep_progress(v);
		row = next_open(v);
		if (row < 0 && data_bound(&v->tui->data)) {
			status_report("a roofline is a bound, not a model: no "
				      "discrepancy to review (f flag=sol lists "
				      "the violations)");
			return -1;
		}
		if (row < 0) {
			status_report("no open discrepancy in the list "
				      "(%zu open of %zu discrepancies, "
				      "|err| > %g%%)", d->nopen, d->ndisc,
				      v->tui->data.limit * 100);
			return -1;
		}
		if ((size_t)row <= v->cursor)
			status_report("search wrapped: open discrepancy "
				      "(%zu open of %zu)", d->nopen, d->ndisc);
		else
			status_report("open discrepancy (%zu open of %zu)",
				      d->nopen, d->ndisc);
	} else {
		row = (long)v->cursor + dir;
		if (row < 0 || (size_t)row >= d->rows.n) {
			status_report("%s row of the list", dir > 0 ? "last" :
				      "first");
			return -1;
		}
	}
	view_goto(v, (size_t)row);
	*point = d->rows.idx[row];
	return 0;
}

void discrep_undo(struct view *v)
{
	struct discrep *d = discrep_priv(v);
	size_t n;

	if (data_undo(&v->tui->data, &n) < 0) {
		status_error("%s", pc_error_last());
		return;
	}
	if (d->have_rows) {
		rows_forget(&d->rows, RC_STATUS);
		if (d->rows.col == RC_STATUS)
			rows_sort(&d->rows, RC_STATUS, d->rows.desc);
	}
	status_report("undone: %zu row%s back to the annotation before (a "
		      "compensating row in the history)", n, n == 1 ? "" : "s");
}

/* The rows shown to a CSV file named at a prompt. */
int discrep_export(struct view *v)
{
	struct discrep *d = v->priv;
	char path[512] = "perfcorr-rows.csv", order[64];
	struct export_info info;
	size_t n;

	if (!status_prompt(v->tui, "export the rows shown to: ", path,
			   sizeof(path), NULL, NULL) || !path[0]) {
		status_report("export cancelled: nothing written");
		return TUI_HANDLED | TUI_REDRAW;
	}
	snprintf(order, sizeof(order), "%s %s", d->rows.col < 0 ? "|err|" :
		 discrep_col_names[d->rows.col], d->rows.col < 0 ||
		 d->rows.desc ? "descending" : "ascending");
	info.filter = d->filter.n ? d->filter.text : NULL;
	info.order = order;
	info.db = db_path(v->tui->db);
	if (export_csv(&v->tui->data, &d->rows, &info, path, &n) < 0)
		status_error("%s", pc_error_last());
	else
		status_report("wrote %zu row%s to %s%s%s%s", n, n == 1 ? "" :
			      "s", path, d->filter.n ? " (filter '" : "",
			      d->filter.n ? d->filter.text : "",
			      d->filter.n ? "')" : "");
	return TUI_HANDLED | TUI_REDRAW;
}

/* flag=new: add the term to the filter, or take it out. */
int discrep_toggle_new(struct view *v)
{
	struct discrep *d = v->priv;
	const char *cur = d->filter.text ? d->filter.text : "";
	char buf[512];
	const char *at = strstr(cur, "flag=new");

	if (!v->tui->data.have_review) {
		status_report("no review recorded for these sources yet "
			      "(perfcorr report --record): nothing is new");
		return TUI_HANDLED;
	}
	if (at)
		snprintf(buf, sizeof(buf), "%.*s%s", (int)(at - cur), cur,
			 at + strlen("flag=new"));
	else
		snprintf(buf, sizeof(buf), "%s%sflag=new", cur, *cur ? " " : "");
	if (discrep_set_filter(v, buf) < 0) {
		status_error("%s", pc_error_last());
		return TUI_HANDLED | TUI_REDRAW;
	}
	if (at)
		status_report("showing every row");
	else
		status_report("%zu new or changed since the review of %s",
			      d->rows.n, v->tui->data.review_at);
	return TUI_HANDLED | TUI_REDRAW;
}

