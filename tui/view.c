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

int view_text_match(struct view *v, size_t row, const char *needle)
{
	return row < v->text.n && rows_contains(v->text.lines[row], needle);
}
