#ifndef PC_TUI_PLOT_H
#define PC_TUI_PLOT_H
/*
 * Terminal plotting without a terminal: a dot canvas of w x h character
 * cells with 2 x 4 dots each (braille, U+2800..U+28FF) and its ASCII
 * fallback, sparklines and histogram bins. Pure functions; draw.c puts
 * the text on the screen. The canvas owns its cells.
 */
#include <stddef.h>

struct plot_canvas {
	int w, h;		/* in character cells */
	unsigned char *cells;	/* w * h dot masks, braille bit order */
};

void plot_canvas_init(struct plot_canvas *c, int w, int h);
void plot_canvas_release(struct plot_canvas *c);
/* Set the dot at (x, y): 0 <= x < 2w, 0 <= y < 4h, y = 0 at the top.
 * Dots outside are ignored. */
void plot_canvas_set(struct plot_canvas *c, int x, int y);
void plot_canvas_line(struct plot_canvas *c, int x0, int y0, int x1, int y1);
/* The dot mask of a cell (0 = empty). */
unsigned plot_canvas_cell(const struct plot_canvas *c, int cx, int cy);

/* The glyph for a dot mask: UTF-8 braille, or an ASCII character
 * (' ' . : ' * by how many dots are set) when ascii. buf >= 4 bytes. */
const char *plot_cell_glyph(unsigned mask, int ascii, char *buf);

/* One glyph per value scaled between the finite minimum and maximum
 * (UTF-8 block elements, or "_.-~=+*#" when ascii); NaN is a space.
 * buf receives NUL-terminated text (up to 3 bytes per value). */
void plot_sparkline(const double *v, size_t n, int ascii, char *buf,
		    size_t len);
/* The same on a given scale: lo is the lowest glyph, hi the highest
 * (values outside are drawn at the edge; hi <= lo: the middle glyph),
 * so that several sparklines compare (the trend per op: one scale per
 * metric). */
void plot_sparkline_range(const double *v, size_t n, double lo, double hi,
			  int ascii, char *buf, size_t len);

/* Count the finite values of v into nbins equal bins over [lo, hi);
 * values below lo go to bin 0, at or above hi to the last bin. */
void plot_histogram(const double *v, size_t n, double lo, double hi,
		    long *bins, int nbins);

/* The glyph of row `row` (0 = bottom) of a vertical bar `height` rows
 * tall (fractional: eighths are drawn with block elements). */
const char *plot_bar_glyph(double height, int row, int ascii);

#endif
