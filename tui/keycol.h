#ifndef PC_TUI_KEYCOL_H
#define PC_TUI_KEYCOL_H
/*
 * A column of workload keys, the same in every list of keys the TUI
 * shows (Discrepancies, Regressions, Disagreements; issue 35): when the
 * keys do not fit, the parts every key shares are left out of the rows
 * and shown once in the heading as a template (src/corr/wabbr.h), then
 * the parts each model's keys share (several models), then KEY=VALUE
 * parts the same wherever KEY is (in every row when the widest key
 * needs it); a key still too wide is cut in the middle with "~" (its
 * head and tail differ). No curses.
 */
#include <stddef.h>

struct wabbr;

/* The level of abbreviation (0 none, 1 shared parts out, 2 per model)
 * and the width for a column of at most room columns; *w_out receives
 * the width (no wider than the widest shown key, nor than room; with
 * widen, as wide as the heading's template where room allows, else
 * the heading is cut with "~"). */
int keycol_fit(const struct wabbr *a, int room, int widen, int *w_out);
/* The heading: the template at level 1, else "workload". */
const char *keycol_heading(const struct wabbr *a, int level);
/* name as shown in a column w wide at level into buf; returns buf or
 * name (draw it with draw_text_mid: a name still too wide is cut in
 * the middle). */
const char *keycol_apply(const struct wabbr *a, int level, int w,
			 const char *name, char *buf, size_t len);

#endif
