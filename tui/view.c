/* Shared view behaviour: list navigation and text buffers. */
#include "tui/view.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "tui/actions.h"
#include "tui/draw.h"
#include "tui/rows.h"

void view_clamp(struct view *v)
{
	size_t h = v->height > 0 ? (size_t)v->height : 1;

	if (!v->nrows) {
		v->cursor = v->top = 0;
		return;
	}
	if (v->cursor >= v->nrows)
		v->cursor = v->nrows - 1;
	if (v->top > v->cursor)
		v->top = v->cursor;
	if (v->cursor >= v->top + h)
		v->top = v->cursor - h + 1;
	if (v->top + h > v->nrows)
		v->top = v->nrows > h ? v->nrows - h : 0;
}

void view_goto(struct view *v, size_t row)
{
	size_t h = v->height > 0 ? (size_t)v->height : 1;

	v->cursor = row;
	if (v->cursor < v->top || v->cursor >= v->top + h)
		v->top = v->cursor > h / 2 ? v->cursor - h / 2 : 0;
	view_clamp(v);
}

int view_move(struct view *v, int action)
{
	size_t page = v->height > 1 ? (size_t)v->height - 1 : 1;

	switch (action) {
	case ACT_MOVE_DOWN:
		if (v->cursor + 1 < v->nrows)
			v->cursor++;
		break;
	case ACT_MOVE_UP:
		if (v->cursor > 0)
			v->cursor--;
		break;
	case ACT_PAGE_DOWN:
		v->cursor += page;
		v->top += page;
		break;
	case ACT_PAGE_UP:
		v->cursor = v->cursor > page ? v->cursor - page : 0;
		v->top = v->top > page ? v->top - page : 0;
		break;
	case ACT_MOVE_FIRST:
		v->cursor = v->top = 0;
		break;
	case ACT_MOVE_LAST:
		v->cursor = v->nrows ? v->nrows - 1 : 0;
		break;
	default:
		return 0;
	}
	view_clamp(v);
	return TUI_HANDLED | TUI_REDRAW;
}

void textbuf_add(struct textbuf *tb, int role, const char *fmt, ...)
{
	va_list ap;
	char buf[2048];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (tb->n == tb->cap) {
		tb->cap = tb->cap ? tb->cap * 2 : 64;
		tb->lines = xrealloc(tb->lines, tb->cap * sizeof(*tb->lines));
		tb->roles = xrealloc(tb->roles, tb->cap * sizeof(*tb->roles));
	}
	tb->lines[tb->n] = xstrdup(buf);
	tb->roles[tb->n++] = role;
}

void textbuf_clear(struct textbuf *tb)
{
	for (size_t i = 0; i < tb->n; i++)
		free(tb->lines[i]);
	free(tb->lines);
	free(tb->roles);
	memset(tb, 0, sizeof(*tb));
}

void view_draw_text(struct view *v, int y, int h, int w, int cursor_line)
{
	v->nrows = v->text.n;
	view_clamp(v);
	for (int r = 0; r < h && v->top + (size_t)r < v->text.n; r++) {
		size_t i = v->top + (size_t)r;
		int role = cursor_line && i == v->cursor ? TH_CURSOR :
			   v->text.roles[i];

		if (role == TH_CURSOR)
			draw_fill(y + r, 0, w, TH_CURSOR);
		draw_text(y + r, 0, w, v->text.lines[i], (enum theme_role)role);
	}
}

/* The byte length of the first piece of s that fits in w columns,
 * ending at a blank where one is (beyond the first quarter), else cut
 * hard; the whole of s when it fits. */
static size_t wrap_piece(const char *s, int w)
{
	size_t len = strlen(s), at = 0, blank = 0;
	int cols = 0;

	while (at < len) {
		size_t n = 1;

		while (at + n < len && ((unsigned char)s[at + n] & 0xc0) == 0x80)
			n++;
		if (cols + 1 > w)
			break;
		cols++;
		at += n;
		if (s[at - n] == ' ' && cols > w / 4)
			blank = at;
	}
	return at >= len ? len : blank ? blank : at ? at : 1;
}

/* Screen rows line s takes at width w (continuations indented). */
static int wrap_rows(const char *s, int w, int indent)
{
	int rows = 1;
	size_t n;

	while ((n = wrap_piece(s, rows == 1 ? w : w - indent)) < strlen(s)) {
		s += n;
		while (*s == ' ')
			s++;
		rows++;
	}
	return rows;
}

static int lead(const char *s)
{
	int n = 0;

	while (s[n] == ' ')
		n++;
	return n + 4 < 16 ? n + 4 : 16;
}

static int line_rows(const struct view *v, size_t i, int w)
{
	return wrap_rows(v->text.lines[i], w, lead(v->text.lines[i]));
}

/* Lines wrap, so the scroll is counted in screen rows, not lines (the
 * line-based view_clamp stopped the top h lines before the end, and the
 * last wrapped rows - the annotation history at 80 columns - could not
 * be reached): the cursor's line is on screen (G, PgDn), and the top is
 * at most the first line from which the rest fits (the screen stays
 * full at the end). */
static void wrap_clamp(struct view *v, int h, int w)
{
	size_t n = v->text.n, end;
	int rows = 0;

	if (v->cursor >= n)
		v->cursor = n - 1;
	if (v->top > v->cursor)
		v->top = v->cursor;
	for (size_t i = v->top; i <= v->cursor; i++)
		rows += line_rows(v, i, w);
	while (v->top < v->cursor && rows > h)
		rows -= line_rows(v, v->top++, w);
	end = n - 1;
	rows = line_rows(v, end, w);
	while (end > 0 && rows + line_rows(v, end - 1, w) <= h)
		rows += line_rows(v, --end, w);
	if (v->top > end)
		v->top = end;
}

void view_draw_text_wrap(struct view *v, int y, int h, int w)
{
	int r = 0;

	v->nrows = v->text.n;
	if (!v->nrows) {
		v->cursor = v->top = 0;
		return;
	}
	if (h <= 0 || w <= 0)
		return;
	wrap_clamp(v, h, w);
	for (size_t i = v->top; r < h && i < v->text.n; i++) {
		const char *s = v->text.lines[i];
		int in = lead(s), first = 1;
		enum theme_role role = (enum theme_role)v->text.roles[i];

		while (r < h) {
			size_t n = wrap_piece(s, first ? w : w - in);
			char piece[2048];

			snprintf(piece, sizeof(piece), "%.*s", (int)n, s);
			draw_text(y + r++, first ? 0 : in, first ? w : w - in,
				  piece, role);
			s += n;
			while (*s == ' ')
				s++;
			if (!*s)
				break;
			first = 0;
		}
	}
}

static int scroll(struct view *v, int action, size_t max)
{
	if (action != ACT_MOVE_DOWN && action != ACT_MOVE_UP)
		return 0;
	if (action == ACT_MOVE_DOWN && v->top < max)
		v->top++;
	else if (action == ACT_MOVE_UP && v->top > 0)
		v->top--;
	v->cursor = v->top;
	return TUI_HANDLED | TUI_REDRAW;
}

int view_text_scroll(struct view *v, int action)
{
	return scroll(v, action, v->text.n > (size_t)v->height ?
				 v->text.n - (size_t)v->height : 0);
}

int view_wrap_scroll(struct view *v, int action)
{
	return scroll(v, action, v->text.n ? v->text.n - 1 : 0);
}

int view_text_match(struct view *v, size_t row, const char *needle)
{
	return row < v->text.n && rows_contains(v->text.lines[row], needle);
}
