#ifndef PC_TUI_ANNOTATE_H
#define PC_TUI_ANNOTATE_H
/*
 * The annotation form: status, category, note (multi-line), link and
 * expiry, prefilled from the first point's current annotation. Saving
 * appends one row per point in one short transaction (data_annotate);
 * Esc writes nothing.
 */
#include <stddef.h>
#include <stdint.h>

struct tui;

/* Ask and save. Returns 1 saved, 0 cancelled, <0 on a database error
 * (message set; nothing written). */
int annotate_points(struct tui *t, const uint32_t *points, size_t n);

/* The same form for one key across sources (the Disagreements view):
 * category preselected to suggested (when not NULL, else the current
 * annotation's), the rule shown in the title; saving appends one row
 * keyed (workload, op, metric, model_source, no reference) and reloads.
 * cur (may be NULL) prefills status, note, link and expiry. */
struct annot;
int annotate_key(struct tui *t, const char *workload, const char *op,
		 const char *metric, const char *model_source,
		 const char *suggested, const char *rule,
		 const struct annot *cur);

#endif
