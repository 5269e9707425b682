/* Drawing helpers (see draw.h). */
#include "tui/draw.h"

#include <curses.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "tui/plot.h"

static int ascii_mode = 1;

void draw_set_ascii(int ascii)
{
	ascii_mode = ascii;
}

int draw_ascii(void)
{
	return ascii_mode;
}

int draw_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

/* Walk s: for each displayable unit, its byte length and width; bad or
 * control characters are reported as width -1 (drawn as '?'). */
static size_t next_char(const char *s, size_t left, int *width)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;

	if ((unsigned char)*s < 0x80) {
		*width = (unsigned char)*s < 32 || *s == 127 ? -1 : 1;
		return 1;
	}
	if (MB_CUR_MAX == 1) {
		*width = -1;
		return 1;
	}
	memset(&st, 0, sizeof(st));
	n = mbrtowc(&wc, s, left, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*width = -1;
		return 1;
	}
	*width = iswprint((wint_t)wc) ? wcwidth(wc) : -1;
	if (*width == 0)
		*width = -1;	/* combining marks: keep columns simple */
	return n;
}

int draw_cols(void)
{
	return COLS;
}

int draw_width(const char *s)
{
	size_t left = strlen(s);
	int cols = 0, cw;

	while (left) {
		size_t n = next_char(s, left, &cw);

		cols += cw < 0 ? 1 : cw;
		s += n;
		left -= n;
	}
	return cols;
}

int draw_text(int y, int x, int w, const char *s, enum theme_role role)
{
	size_t left = s ? strlen(s) : 0;
	int used = 0, cw;

	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	attrset((attr_t)theme_attr(role));
	move(y, x);
	while (left) {
		size_t n = next_char(s, left, &cw);

		if (used + (cw < 0 ? 1 : cw) > w)
			break;
		if (cw < 0)
			addch('?');
		else
			addnstr(s, (int)n);
		used += cw < 0 ? 1 : cw;
		s += n;
		left -= n;
	}
	attrset(A_NORMAL);
	return used;
}

int draw_text_cut(int y, int x, int w, const char *s, enum theme_role role)
{
	int used;

	if (w < 2 || draw_width(s) <= w)
		return draw_text(y, x, w, s, role);
	used = draw_text(y, x, w - 1, s, role);
	return used + draw_text(y, x + used, 1, "~", role);
}

int draw_text_wrapped(int y, int x, int w, const char *text,
		      enum theme_role role, int rows)
{
	char buf[1024];
	int used = 0;

	while (*text && used < rows) {
		size_t n = strlen(text), cut = n;

		if (draw_width(text) > w && used + 1 < rows) {
			/* the last blank that leaves the row within w */
			for (cut = 0; cut < n; cut++) {
				size_t next = cut + 1;

				while (next < n && text[next] != ' ')
					next++;
				snprintf(buf, sizeof(buf), "%.*s", (int)next,
					 text);
				if (draw_width(buf) > w)
					break;
				cut = next;
				if (next >= n)
					break;
			}
			if (!cut)
				cut = n;
		}
		snprintf(buf, sizeof(buf), "%.*s", (int)cut, text);
		draw_text_cut(y + used++, x, w, buf, role);
		text += cut;
		while (*text == ' ')
			text++;
	}
	return used;
}

int draw_text_mid(int y, int x, int w, const char *s, enum theme_role role)
{
	size_t len = strlen(s), cut;
	int head = (w - 1) / 2, used;

	if (draw_width(s) <= w || w < 8)
		return draw_text(y, x, w, s, role);
	used = draw_text(y, x, head, s, role);
	used += draw_text(y, x + used, 1, "~", role);
	/* the tail: the shortest suffix that fits */
	cut = len;
	while (cut > 0) {
		size_t back = cut - 1;

		while (back > 0 && ((unsigned char)s[back] & 0xc0) == 0x80)
			back--;
		if (draw_width(s + back) > w - used)
			break;
		cut = back;
	}
	return used + draw_text(y, x + used, w - used, s + cut, role);
}

int draw_textf(int y, int x, int w, enum theme_role role, const char *fmt,
	       ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return draw_text(y, x, w, buf, role);
}

int draw_text_right(int y, int x, int w, const char *s,
		    enum theme_role role)
{
	int sw = draw_width(s);

	if (sw < w)
		draw_fill(y, x, w - sw, role);
	return draw_text(y, sw < w ? x + w - sw : x, sw < w ? sw : w, s, role);
}

void draw_fill(int y, int x, int w, enum theme_role role)
{
	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	attrset((attr_t)theme_attr(role));
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void draw_hline(int y, int x, int w, enum theme_role role)
{
	if (w <= 0 || y < 0 || y >= LINES)
		return;
	attrset((attr_t)theme_attr(role));
	for (int i = 0; i < w && x + i < COLS; i++)
		mvaddstr(y, x + i, ascii_mode ? "-" : "\xe2\x94\x80");
	attrset(A_NORMAL);
}

void draw_box(int y, int x, int h, int w, enum theme_role role)
{
	static const char *const utf[] = { "\xe2\x94\x8c", "\xe2\x94\x90",
		"\xe2\x94\x94", "\xe2\x94\x98", "\xe2\x94\x82" };
	static const char *const asc[] = { "+", "+", "+", "+", "|" };
	const char *const *g = ascii_mode ? asc : utf;

	if (h < 2 || w < 2)
		return;
	draw_hline(y, x + 1, w - 2, role);
	draw_hline(y + h - 1, x + 1, w - 2, role);
	draw_text(y, x, 1, g[0], role);
	draw_text(y, x + w - 1, 1, g[1], role);
	draw_text(y + h - 1, x, 1, g[2], role);
	draw_text(y + h - 1, x + w - 1, 1, g[3], role);
	for (int r = 1; r < h - 1; r++) {
		draw_text(y + r, x, 1, g[4], role);
		draw_text(y + r, x + w - 1, 1, g[4], role);
	}
}

void draw_canvas(int y, int x, const struct plot_canvas *top,
		 enum theme_role top_role, const char *top_ascii,
		 const struct plot_canvas *base, enum theme_role base_role,
		 const char *base_ascii)
{
	char glyph[8];

	for (int cy = 0; cy < top->h; cy++)
		for (int cx = 0; cx < top->w; cx++) {
			unsigned t = plot_canvas_cell(top, cx, cy);
			unsigned b = base ? plot_canvas_cell(base, cx, cy) : 0;

			if (!t && !b)
				continue;
			if (y + cy >= LINES || x + cx >= COLS)
				continue;
			attrset((attr_t)theme_attr(t ? top_role : base_role));
			if (ascii_mode && t && top_ascii)
				mvaddstr(y + cy, x + cx, top_ascii);
			else if (ascii_mode && !t && base_ascii)
				mvaddstr(y + cy, x + cx, base_ascii);
			else
				mvaddstr(y + cy, x + cx, plot_cell_glyph(t | b,
					 ascii_mode, glyph));
		}
	attrset(A_NORMAL);
}
