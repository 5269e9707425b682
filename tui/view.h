#ifndef PC_TUI_VIEW_H
#define PC_TUI_VIEW_H
/*
 * A view: state plus a const ops table (tig's view_ops, with designated
 * initialisers). Each view lives in tui/view_<name>.c and ends with its
 * ops table. Views load what they show into memory in open(); draw()
 * never touches SQLite. List views use the generic cursor fields so
 * navigation is shared; text views fill a struct textbuf.
 */
#include <stddef.h>

#include "tui/views.h"

struct tui;
struct view;

/* Handler results (htop HandlerResult), what view_ops.handle returns
 * (tui.h includes this header). 0 = not handled. */
enum tui_result {
	TUI_HANDLED = 1 << 0,
	TUI_REDRAW = 1 << 1,
	TUI_QUIT = 1 << 2,
};

struct view_ops {
	const char *name;	/* keymap name and id: "discrepancies" */
	const char *title;	/* "Discrepancies" */
	const int *footer;	/* ACT_* shown in the footer, 0-terminated */
	/* Load (or reload after data changed); 0 or <0 with a message. */
	int (*open)(struct view *v);
	/* Text for the title bar after the title, into buf. */
	void (*info)(struct view *v, char *buf, size_t len);
	/* Draw the body: rows y .. y+h-1, w columns. */
	void (*draw)(struct view *v, int y, int h, int w);
	/* Handle an action: TUI_* flags, 0 = not handled (generic next). */
	int (*handle)(struct view *v, int action);
	/* 1 when row matches needle (for the generic search), or NULL. */
	int (*match)(struct view *v, size_t row, const char *needle);
	void (*done)(struct view *v);
	/* 1: the view shows annotations it read on open, so a save or an
	 * undo elsewhere (tui_data.ann_gen) opens it again when shown */
	int annotated;
};

/* Lines of text with a theme role each, for text views. */
struct textbuf {
	char **lines;
	int *roles;
	size_t n, cap;
};

struct view {
	const struct view_ops *ops;
	struct tui *tui;
	void *priv;		/* the view's own state, freed by done() */
	size_t nrows;		/* rows (list) or lines (text) */
	size_t cursor, top;	/* cursor row, first visible row */
	int height;		/* body rows at the last draw */
	int col;		/* column cursor */
	int ncols;
	int opened;
	unsigned gen;		/* data generation last loaded */
	unsigned ann_gen;	/* annotation generation last loaded */
	char search[128];	/* the last search */
	struct textbuf text;	/* for text views */
};

#define VIEW_EXTERN_(x, id, kind, ops, key, name, help) \
	extern const struct view_ops ops;
VIEW_LIST(VIEW_EXTERN_, 0)

/* Cursor movement shared by every list view: TUI_* flags, 0 when the
 * action is not a movement. Keeps top so the cursor is visible. */
int view_move(struct view *v, int action);
/* Clamp cursor and top after nrows or height changed. */
void view_clamp(struct view *v);
/* Put the cursor on row, scrolling it into view. */
void view_goto(struct view *v, size_t row);

void textbuf_add(struct textbuf *tb, int role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void textbuf_clear(struct textbuf *tb);
/* Draw tb from v->top into the body; the cursor line highlighted when
 * cursor_line is set. */
void view_draw_text(struct view *v, int y, int h, int w, int cursor_line);
/* The same without a cursor line, a line wider than w wrapped onto the
 * rows below it (at a blank, indented): nothing is cut at 80 columns.
 * The scroll counts screen rows: the cursor's line is shown and at the
 * end the screen stays full (top moves back). */
void view_draw_text_wrap(struct view *v, int y, int h, int w);
/* ops->handle of a text view that scrolls (the cursor is the top line):
 * j/k move the top; view_text_scroll for view_draw_text (the last screen
 * ends at the last line), view_wrap_scroll for view_draw_text_wrap (the
 * top may reach the last line: the drawing keeps the screen full). */
int view_text_scroll(struct view *v, int action);
int view_wrap_scroll(struct view *v, int action);
/* Generic search over text lines (ops->match for text views). */
int view_text_match(struct view *v, size_t row, const char *needle);

#endif
