#ifndef PC_TUI_EXPORT_H
#define PC_TUI_EXPORT_H
/*
 * Export from the TUI: the rows the list shows (its filter and order) as
 * CSV. No curses.
 */
#include <stddef.h>

struct tui_data;
struct rows;

/* Write r's rows to path: workload, op, metric, unit, model, ref (SI,
 * shortest round-trip), err, flags, status, category, since (new /
 * changed / blank). Written to path.tmp and renamed, so a failure leaves
 * no half-written file. *n gets the rows written. */
int export_csv(const struct tui_data *d, const struct rows *r,
	       const char *path, size_t *n);

#endif
