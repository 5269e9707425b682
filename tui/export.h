#ifndef PC_TUI_EXPORT_H
#define PC_TUI_EXPORT_H
/*
 * Export from the TUI: the rows the list shows (its filter and order) as
 * CSV. No curses.
 */
#include <stddef.h>

struct tui_data;
struct rows;

/* What the export says about itself in its header. */
struct export_info {
	const char *filter;	/* the filter's text, or NULL/"" */
	const char *order;	/* "err descending", "|err| descending" */
	const char *db;		/* the database's path */
};

/* Write r's rows to path: first a header of lines starting with "# "
 * (the pairing: model and reference source@version and kind, the
 * roofline when one bounds it; the filter with its row count and the
 * order; the database, who exported and when, UTC), then the column
 * names and one line per row: workload, op, metric, unit, model, ref
 * (SI, shortest round-trip), err, flags, status (open when none),
 * category, since (new / changed / blank), note, link (the current
 * annotation's). Written to path.tmp and renamed, so a failure leaves
 * no half-written file. *n gets the rows written. */
int export_csv(const struct tui_data *d, const struct rows *r,
	       const struct export_info *info, const char *path, size_t *n);

#endif
