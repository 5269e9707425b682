#ifndef PC_TUI_STATUS_H
#define PC_TUI_STATUS_H
/*
 * The status line: this module alone owns the bottom row (tig's
 * status_win; a message wider than the screen borrows the footer's row
 * above it). Messages last until the next key; errors come from
 * pc_error_last() through status_error. The prompt edits one line on
 * that row and calls back after each edit (filter as you type).
 */
#include <stddef.h>

struct tui;

void status_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void status_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void status_clear(void);
/* The current message ("" when none); borrowed. */
const char *status_text(void);
/* Draw the status row at y, w columns wide. */
void status_draw(int y, int w);
/* The rows the message needs at width w: 1, or 2 when it is wider (a
 * message cut at the edge lost its cure: 'perfcorr report --record):
 * nothing is'); the caller gives it the footer's row above, until the
 * next key clears it. */
int status_rows(int w);
/* The message from row y over rows rows (the last one only when rows is
 * 1 or a prompt is open), broken at blanks, "~" when still longer. */
void status_draw_wrapped(int y, int rows, int w);

/* The main loop's side of a prompt, handed over by tui.c when it starts
 * (so this module never calls into the loop): redraw the screen, read
 * the next key (-1 at the end of a script), and count an open modal
 * prompt (delta +1 when it opens, -1 when it closes). NULL: none. */
struct status_loop {
	void (*redraw)(void *arg);
	int (*read_key)(void *arg);
	void (*modal)(void *arg, int delta);
	void *arg;
};
void status_set_loop(const struct status_loop *loop);

/* Edit a line after prompt (buf holds the initial text) with the keys
 * of the loop set by status_set_loop. changed is called after every
 * edit with the current text (may be NULL; t is passed through).
 * Returns 1 on Enter (buf = the text), 0 on Esc, the end of a script or
 * when no loop is set. */
int status_prompt(struct tui *t, const char *prompt, char *buf, size_t len,
		  void (*changed)(struct tui *t, const char *text, void *arg),
		  void *arg);

#endif
