#ifndef PC_TUI_DRAW_H
#define PC_TUI_DRAW_H
/*
 * Drawing helpers on the one screen (stdscr): clipped, width-aware text
 * (untrusted names are safe: control characters become '?'), fills,
 * braille canvases and sparklines from plot.h. Only tui/ uses them.
 */
#include <stddef.h>

#include "tui/theme.h"

struct plot_canvas;

/* Glyph mode: 1 = ASCII only (no locale UTF-8, or --ascii). */
void draw_set_ascii(int ascii);
int draw_ascii(void);
/* 1 when the locale's codeset is UTF-8. */
int draw_locale_utf8(void);

/* Text at (y, x) in at most w columns; returns the columns used. */
int draw_text(int y, int x, int w, const char *s, enum theme_role role);
int draw_textf(int y, int x, int w, enum theme_role role, const char *fmt,
	       ...) __attribute__((format(printf, 5, 6)));
/* Like draw_text, but a text too long ends in "~" (the one mark of a
 * cut, docs/tui.md): its head in w - 1 columns, then "~". */
int draw_text_cut(int y, int x, int w, const char *s, enum theme_role role);
/* text over at most rows rows from (y, x), each w columns, broken at
 * blanks; the last row ends in "~" when text goes on. Returns the rows
 * used. */
int draw_text_wrapped(int y, int x, int w, const char *text,
		      enum theme_role role, int rows);
/* Like draw_text, but a text too long keeps its head and tail with
 * "~" between (workload keys differ at both ends). */
int draw_text_mid(int y, int x, int w, const char *s, enum theme_role role);
/* Right-aligned in w columns. */
int draw_text_right(int y, int x, int w, const char *s,
		    enum theme_role role);
/* w blanks with role's attribute. */
void draw_fill(int y, int x, int w, enum theme_role role);
/* The screen's width in columns (COLS). */
int draw_cols(void);
/* Display columns of s (as draw_text would use without a limit). */
int draw_width(const char *s);

/* A canvas at (y, x); cells with dots of top use top_role, the others
 * (dots of base only) base_role. base may be NULL. In ASCII mode a
 * non-NULL top_ascii / base_ascii replaces the dot-count glyph of such
 * cells (e.g. "o" for points, "/" for the y = x line). */
void draw_canvas(int y, int x, const struct plot_canvas *top,
		 enum theme_role top_role, const char *top_ascii,
		 const struct plot_canvas *base, enum theme_role base_role,
		 const char *base_ascii);

/* A box of h rows and w columns at (y, x): line glyphs (ASCII + - |
 * with --ascii), so it shows without colour (NO_COLOR). */
void draw_box(int y, int x, int h, int w, enum theme_role role);
/* A horizontal rule of w columns. */
void draw_hline(int y, int x, int w, enum theme_role role);

#endif
