/* Braille canvas, sparklines and histograms (see plot.h). */
#include "tui/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Braille dot bits by (x, y) inside a cell. */
static const unsigned char dot_bit[4][2] = {
	{ 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 }, { 0x40, 0x80 },
};

static const char *const blocks[9] = {
	" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
	"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88",
};
static const char ascii_levels[] = "_.-~=+*#";

void plot_canvas_init(struct plot_canvas *c, int w, int h)
{
	c->w = w > 0 ? w : 1;
	c->h = h > 0 ? h : 1;
	c->cells = xcalloc((size_t)c->w * (size_t)c->h, 1);
}

void plot_canvas_release(struct plot_canvas *c)
{
	free(c->cells);
	c->cells = NULL;
	c->w = c->h = 0;
}

void plot_canvas_set(struct plot_canvas *c, int x, int y)
{
	if (x < 0 || y < 0 || x >= 2 * c->w || y >= 4 * c->h)
		return;
	c->cells[(size_t)(y / 4) * (size_t)c->w + (size_t)(x / 2)] |=
		dot_bit[y % 4][x % 2];
}

void plot_canvas_line(struct plot_canvas *c, int x0, int y0, int x1, int y1)
{
	int dx = abs(x1 - x0), dy = -abs(y1 - y0);
	int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, e = dx + dy;

	for (;;) {
		int e2 = 2 * e;

		plot_canvas_set(c, x0, y0);
		if (x0 == x1 && y0 == y1)
			break;
		if (e2 >= dy) {
			e += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			e += dx;
			y0 += sy;
		}
	}
}

unsigned plot_canvas_cell(const struct plot_canvas *c, int cx, int cy)
{
	if (cx < 0 || cy < 0 || cx >= c->w || cy >= c->h)
		return 0;
	return c->cells[(size_t)cy * (size_t)c->w + (size_t)cx];
}

const char *plot_cell_glyph(unsigned mask, int ascii, char *buf)
{
	if (ascii) {
		int n = 0, top = mask & 0x09, bottom = mask & 0xc0;

		for (unsigned m = mask; m; m &= m - 1)
			n++;
		buf[0] = n == 0 ? ' ' : n >= 5 ? '*' : n >= 3 ? ':' :
			 top && !bottom ? '\'' : '.';
		buf[1] = '\0';
		return buf;
	}
	buf[0] = (char)0xe2;
	buf[1] = (char)(0xa0 | ((mask >> 6) & 0x03));
	buf[2] = (char)(0x80 | (mask & 0x3f));
	buf[3] = '\0';
	return buf;
}

void plot_sparkline(const double *v, size_t n, int ascii, char *buf,
		    size_t len)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i])) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	plot_sparkline_range(v, n, lo, hi, ascii, buf, len);
}

void plot_sparkline_range(const double *v, size_t n, double lo, double hi,
			  int ascii, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int level;
		const char *g;
		size_t gl;

		if (!isfinite(v[i]))
			level = -1;
		else if (hi > lo)
			level = (int)lround((fmin(fmax(v[i], lo), hi) - lo) /
					    (hi - lo) * 7.0);
		else
			level = 3;
		if (ascii) {
			char one[2] = { level < 0 ? ' ' :
					ascii_levels[level], '\0' };

			g = one;
			gl = 1;
			if (used + gl < len) {
				memcpy(buf + used, g, gl);
				used += gl;
			}
			continue;
		}
		g = level < 0 ? " " : blocks[level + 1];
		gl = strlen(g);
		if (used + gl >= len)
			break;
		memcpy(buf + used, g, gl);
		used += gl;
	}
	if (len)
		buf[used < len ? used : len - 1] = '\0';
}

void plot_histogram(const double *v, size_t n, double lo, double hi,
		    long *bins, int nbins)
{
	memset(bins, 0, (size_t)nbins * sizeof(*bins));
	if (nbins <= 0 || !(hi > lo))
		return;
	for (size_t i = 0; i < n; i++) {
		double f;
		int b;

		if (!isfinite(v[i]))
			continue;
		f = (v[i] - lo) / (hi - lo) * nbins;
		b = f < 0 ? 0 : f >= nbins ? nbins - 1 : (int)f;
		bins[b]++;
	}
}

const char *plot_bar_glyph(double height, int row, int ascii)
{
	double part = height - row;

	if (part <= 0)
		return " ";
	if (part >= 1)
		return ascii ? "#" : blocks[8];
	if (ascii)
		return part >= 0.5 ? "#" : part >= 0.125 ? "_" : " ";
	return blocks[(int)lround(part * 8) < 1 ? 1 : (int)lround(part * 8)];
}
