/* The status line and the one-line prompt (see status.h). */
#include "tui/status.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tui/draw.h"

static struct status_loop loop;		/* the main loop's callbacks */
static char message[512];
static int is_error;
static const char *prompt_label;	/* non-NULL while prompting */
static const char *prompt_buf;

static void vreport(int err, const char *fmt, va_list ap)
{
	vsnprintf(message, sizeof(message), fmt, ap);
	is_error = err;
}

void status_report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(0, fmt, ap);
	va_end(ap);
}

void status_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(1, fmt, ap);
	va_end(ap);
}

void status_clear(void)
{
	message[0] = '\0';
	is_error = 0;
}

const char *status_text(void)
{
	return message;
}

void status_draw(int y, int w)
{
	int used;

	draw_fill(y, 0, w, TH_STATUS);
	if (prompt_label) {
		used = draw_text(y, 0, w, prompt_label, TH_STATUS);
		used += draw_text(y, used, w - used, prompt_buf, TH_STATUS);
		if (message[0] && used + 4 < w)
			draw_textf(y, used + 2, w - used - 2, is_error ?
				   TH_ERROR : TH_STATUS, "[%s]", message);
		move(y, used < w ? used : w - 1);
		return;
	}
	draw_text(y, 0, w, message, is_error ? TH_ERROR : TH_STATUS);
}

int status_rows(int w)
{
	return !prompt_label && message[0] && draw_width(message) > w ? 2 : 1;
}

void status_draw_wrapped(int y, int rows, int w)
{
	if (rows < 2 || prompt_label) {
		status_draw(y + rows - 1, w);
		return;
	}
	for (int r = 0; r < rows; r++)
		draw_fill(y + r, 0, w, TH_STATUS);
	draw_text_wrapped(y, 0, w, message, is_error ? TH_ERROR : TH_STATUS,
			  rows);
}

static void backspace(char *buf)
{
	size_t n = strlen(buf);

	/* drop a whole UTF-8 character */
	while (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0x80)
		n--;
	if (n > 0)
		n--;
	buf[n] = '\0';
}

void status_set_loop(const struct status_loop *l)
{
	if (l)
		loop = *l;
	else
		memset(&loop, 0, sizeof(loop));
}

int status_prompt(struct tui *t, const char *prompt, char *buf, size_t len,
		  void (*changed)(struct tui *t, const char *text, void *arg),
		  void *arg)
{
	int result = -1;

	if (!loop.read_key)
		return 0;
	prompt_label = prompt;
	prompt_buf = buf;
	loop.modal(loop.arg, 1);
	curs_set(1);
	while (result < 0) {
		int key;
		size_t n = strlen(buf);

		loop.redraw(loop.arg);
		key = loop.read_key(loop.arg);
		if (key == -1 || key == 27 || key == 7 /* ^G */) {
			result = 0;
		} else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
			result = 1;
		} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
			backspace(buf);
		} else if (key == 21 /* ^U */) {
			buf[0] = '\0';
		} else if (key >= 32 && key < 256 && key != 127 && n + 1 < len) {
			buf[n] = (char)key;
			buf[n + 1] = '\0';
		} else {
			continue;
		}
		if (result < 0 && changed)
			changed(t, buf, arg);
	}
	curs_set(0);
	loop.modal(loop.arg, -1);
	prompt_label = NULL;
	prompt_buf = NULL;
	return result;
}
