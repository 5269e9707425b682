/* TUI pieces without a terminal: braille canvas, sparkline, histogram,
 * number formats, key table and script parsing. */
#include "check.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/error.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/plot.h"
#include "tui/script.h"

TEST(braille_cells)
{
	struct plot_canvas c;
	char g[8];

	plot_canvas_init(&c, 2, 1);
	plot_canvas_set(&c, 0, 0);	/* dot 1 */
	plot_canvas_set(&c, 1, 3);	/* dot 8 */
	plot_canvas_set(&c, 2, 1);	/* second cell, dot 2 */
	plot_canvas_set(&c, 4, 0);	/* outside: ignored */
	plot_canvas_set(&c, -1, 0);
	CHECK_INT(plot_canvas_cell(&c, 0, 0), 0x81);
	CHECK_INT(plot_canvas_cell(&c, 1, 0), 0x02);
	CHECK_STR(plot_cell_glyph(0x81, 0, g), "\xe2\xa2\x81");	/* U+2881 */
	CHECK_STR(plot_cell_glyph(0xff, 0, g), "\xe2\xa3\xbf");	/* U+28FF */
	CHECK_STR(plot_cell_glyph(0, 1, g), " ");
	CHECK_STR(plot_cell_glyph(0x01, 1, g), "'");
	CHECK_STR(plot_cell_glyph(0x40, 1, g), ".");
	CHECK_STR(plot_cell_glyph(0xff, 1, g), "*");
	plot_canvas_release(&c);
}

TEST(canvas_line_ends)
{
	struct plot_canvas c;
	int dots = 0;

	plot_canvas_init(&c, 4, 2);	/* 8 x 8 dots */
	plot_canvas_line(&c, 0, 7, 7, 0);
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 4; x++)
			for (unsigned m = plot_canvas_cell(&c, x, y); m; m &= m - 1)
				dots++;
	CHECK_INT(dots, 8);	/* one dot per column on a diagonal */
	CHECK(plot_canvas_cell(&c, 0, 1) & 0x40);	/* (0,7): bottom left */
	CHECK(plot_canvas_cell(&c, 3, 0) & 0x08);	/* (7,0): top right */
	plot_canvas_release(&c);
}

TEST(sparkline)
{
	double v[] = { 0, 7, NAN, 3.5 };
	char buf[64];

	plot_sparkline(v, 4, 1, buf, sizeof(buf));
	CHECK_STR(buf, "_# =");
	plot_sparkline(v, 4, 0, buf, sizeof(buf));
	CHECK_STR(buf, "\xe2\x96\x81\xe2\x96\x88 \xe2\x96\x85");
	plot_sparkline(v, 1, 1, buf, sizeof(buf));	/* flat: middle */
	CHECK_STR(buf, "~");
}

TEST(histogram)
{
	double v[] = { -0.9, -0.25, 0, 0.01, 0.49, 0.5, NAN };
	long bins[4];

	plot_histogram(v, 7, -0.5, 0.5, bins, 4);
	CHECK_INT(bins[0], 1 + 0);	/* -0.9 clamps into bin 0 */
	CHECK_INT(bins[1], 1);
	CHECK_INT(bins[2], 2);
	CHECK_INT(bins[3], 2);		/* 0.49 and 0.5 (clamped) */
	CHECK_STR(plot_bar_glyph(2.5, 0, 1), "#");
	CHECK_STR(plot_bar_glyph(2.5, 2, 0), "\xe2\x96\x84");	/* half */
	CHECK_STR(plot_bar_glyph(2.5, 3, 0), " ");
}

TEST(formats)
{
	char b[32];

	fmt_si(b, sizeof(b), 0.001234);
	CHECK_STR(b, "1.234m");
	fmt_si(b, sizeof(b), 2.5e9);
	CHECK_STR(b, "2.5G");
	fmt_si(b, sizeof(b), 999.96);
	CHECK_STR(b, "1k");
	fmt_si(b, sizeof(b), 0);
	CHECK_STR(b, "0");
	fmt_si(b, sizeof(b), NAN);
	CHECK_STR(b, "-");
	fmt_pct(b, sizeof(b), -0.2857, 1);
	CHECK_STR(b, "-28.6%");
	fmt_pct(b, sizeof(b), 0.05, 1);
	CHECK_STR(b, "+5.0%");
	fmt_pct(b, sizeof(b), 12.345, 0);
	CHECK_STR(b, "1234%");
	fmt_pct(b, sizeof(b), 1e9, 1);
	CHECK_STR(b, "+99999%");
}

TEST(key_table)
{
	char buf[64];
	const char *s;

	CHECK_INT(keys_lookup("discrepancies", 'j'), ACT_MOVE_DOWN);
	CHECK_INT(keys_lookup("discrepancies", ' '), ACT_MARK);
	CHECK_INT(keys_lookup("summary", 'b'), ACT_GROUP_BY);
	CHECK_INT(keys_lookup("runs", 'b'), ACT_NONE);
	CHECK_INT(keys_lookup("runs", 'a'), ACT_NONE);
	CHECK_INT(keys_action_by_name("move-down"), ACT_MOVE_DOWN);
	CHECK_INT(keys_action_by_name("nope"), ACT_NONE);
	CHECK_STR(keys_action_name(ACT_SORT), "sort");
	CHECK_INT(keys_for_action("discrepancies", ACT_MOVE_DOWN, buf,
				  sizeof(buf)), 2);
	CHECK_STR(buf, "j, Down");
	CHECK_INT(keys_for_action("discrepancies", ACT_ENTER, buf,
				  sizeof(buf)), 1);
	CHECK_STR(buf, "Enter");
	s = "x<Down><C-l><lt><Esc><F2><S-Tab><Bogus>";
	CHECK_INT(keys_parse(&s), 'x');
	CHECK_INT(keys_parse(&s), KEY_DOWN);
	CHECK_INT(keys_parse(&s), 12);
	CHECK_INT(keys_parse(&s), '<');
	CHECK_INT(keys_parse(&s), 27);
	CHECK_INT(keys_parse(&s), KEY_F(2));
	CHECK_INT(keys_parse(&s), KEY_BTAB);
	CHECK_INT(keys_parse(&s), -1);
	CHECK_STR(keys_name(KEY_NPAGE, buf, sizeof(buf)), "PgDn");
	CHECK_STR(keys_name(6, buf, sizeof(buf)), "^F");
}

TEST(every_action_has_a_way_in)
{
	size_t n;
	const struct action_info *a = keys_actions(&n);
	char keys[96], maps[96];

	for (size_t i = 0; i < n; i++) {
		if (!a[i].action)
			continue;
		/* bound to a key, or typed as a :command: the help says so */
		CHECK(a[i].help && *a[i].help);
		CHECK(keys_describe(a[i].action, keys, sizeof(keys), maps,
				    sizeof(maps)) > 0);
	}
}

TEST(script_items)
{
	char path[] = "/tmp/perfcorr-script-XXXXXX";
	int fd = mkstemp(path), key = 0;
	FILE *fp = fdopen(fd, "w");
	struct script *s;
	const char *cmd = NULL;

	fputs("# a comment\njk\n:save-screen a.screen\n  f<Enter>\n<Nope>\n",
	      fp);
	fclose(fp);
	CHECK_INT(script_open(&s, path), 0);
	CHECK_INT(script_next(s, &key, &cmd), SCRIPT_KEY);
	CHECK_INT(key, 'j');
	CHECK_INT(script_next(s, &key, &cmd), SCRIPT_KEY);
	CHECK_INT(key, 'k');
	CHECK_INT(script_next(s, &key, &cmd), SCRIPT_CMD);
	CHECK_STR(cmd, "save-screen a.screen");
	CHECK_INT(script_line(s), 3);
	CHECK_INT(script_next(s, &key, &cmd), SCRIPT_KEY);
	CHECK_INT(key, 'f');
	CHECK_INT(script_next(s, &key, &cmd), SCRIPT_KEY);
	CHECK_INT(key, '\n');
	CHECK_INT(script_next(s, &key, &cmd), SCRIPT_ERROR);
	CHECK(strstr(pc_error_last(), ":5: unknown key") != NULL);
	CHECK_INT(script_next(s, &key, &cmd), SCRIPT_END);
	script_free(s);
	unlink(path);
	CHECK(script_open(&s, "/nonexistent/x") < 0);
}

TEST_MAIN(CASE(braille_cells), CASE(canvas_line_ends), CASE(sparkline),
	  CASE(histogram), CASE(formats), CASE(key_table),
	  CASE(every_action_has_a_way_in), CASE(script_items))
