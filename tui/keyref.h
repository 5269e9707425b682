#ifndef PC_TUI_KEYREF_H
#define PC_TUI_KEYREF_H
/*
 * The reference of every view and key, generated from the view table
 * (views.h) and the key table (keys.c), never written by hand: the help
 * view shows it, `perfcorr tui --help` prints it and the man page's
 * KEYS section is it (src/cmd/cmd_tui.c hands it to both). A second
 * entry point from src/cmd besides tui_run; no curses.
 */
#include <stddef.h>

/* What keyref_each reports, in order: a heading, then its rows. */
enum keyref_kind { KR_HEADING, KR_ROW };

/* Call fn for each heading ("Views", the action groups) and each row:
 * keys ("1", "j, Down", "Enter"), name (the view's title or the action's
 * name) and help (with "[views]" for keys only some views bind). */
void keyref_each(void (*fn)(void *ctx, enum keyref_kind kind,
			    const char *keys, const char *name,
			    const char *help), void *ctx);

/* The whole reference as plain text, rows wrapped at 72 columns: built
 * once, kept for the program's life (a static string). */
const char *keyref_text(void);

#endif
