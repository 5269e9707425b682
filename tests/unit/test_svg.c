/* Unit tests: HTML escaping and the SVG figure writers. */
#include "check.h"

#include <stdint.h>

#include "base/html.h"
#include "base/strbuf.h"
#include "src/report/svg.h"
#include "src/report/svg_int.h"
#include "base/util.h"

static const char *const classes[] = { "gemm", "attn<x>", "norm&co" };
static const char *const shapes[] = { "unexplained", "open", "explained",
	"accepted", "fixed" };

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

TEST(escape)
{
	char *s = html_escape_dup("a<b>&\"c'\x1b[31m\n\xff\xc3\xa9");

	CHECK_STR(s, "a&lt;b&gt;&amp;&quot;c&#39;\\x1b[31m\\n\xef\xbf\xbd"
		  "\xc3\xa9");
	free(s);
	s = html_escape_dup("\xc2\x9b x \xed\xa0\x80 \xe2\x82");
	CHECK_STR(s, "\\x9b x \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
		  "\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	s = html_escape_dup(NULL);
	CHECK_STR(s, "");
	free(s);
	CHECK_INT(html_utf8_len((const unsigned char *)"\xf0\x9f\x98\x80"), 4);
	CHECK_INT(html_utf8_len((const unsigned char *)"\xc0\x80"), 0);
}

/* issue 36: bidi controls and C1 made visible (HTML) or \\u-escaped (JSON) */
TEST(escape_bidi)
{
	struct strbuf sb = STRBUF_INIT;
	char *s = html_escape_dup("a\xe2\x80\xae" "b\xe2\x81\xa6" "c\xe2\x81\xa9"
				  "\xe2\x80\xaa\xe2\x80\x8b");

	/* U+200B (not a control) stays, U+202E/2066/2069/202A are shown */
	CHECK_STR(s, "a\\u202e" "b\\u2066" "c\\u2069\\u202a\xe2\x80\x8b");
	free(s);
	strbuf_add_json_str(&sb, "x\xe2\x80\xaey\xc2\x85z\xe2\x81\xa8\xc3\xa9\x01");
	CHECK_STR(strbuf_str(&sb), "\"x\\u202ey\\u0085z\\u2068\xc3\xa9\\u0001\"");
	strbuf_reset(&sb);
	strbuf_add_json_text(&sb, "{\"k\": \"\xe2\x80\xad\xc2\x9b\xe2\x80\xa9\"}");
	CHECK_STR(strbuf_str(&sb), "{\"k\": \"\\u202d\\u009b\xe2\x80\xa9\"}");
	strbuf_release(&sb);
}

TEST(fmt_si)
{
	char b[32];

	svg_fmt_si(b, sizeof(b), 1e-3, "s");
	CHECK_STR(b, "1 ms");
	svg_fmt_si(b, sizeof(b), 2.5e-6, "s");
	CHECK_STR(b, "2.5 \xc2\xb5s");
	svg_fmt_si(b, sizeof(b), 100, "W");
	CHECK_STR(b, "100 W");
	svg_fmt_si(b, sizeof(b), 1e4, "tokens/s");
	CHECK_STR(b, "10 ktokens/s");
	svg_fmt_si(b, sizeof(b), 0.5, "1");
	CHECK_STR(b, "0.5");
}

TEST(scatter_small)
{
	struct strbuf sb = STRBUF_INIT;
	struct svg_point pts[] = {
		{ .x = 1e-3, .y = 1.1e-3, .cls = 0, .shape = 0 },
		{ .x = 2e-3, .y = 1.5e-3, .cls = 1, .shape = 2 },
		{ .x = 5e-4, .y = 5e-4, .cls = 2, .shape = 4 },
		{ .x = 0, .y = 1, .cls = 0, .shape = 0 },
		{ .x = NAN, .y = 1, .cls = 0, .shape = 0 },
	};
	struct svg_scatter sc = {
		.title = "time <model> vs ref", .unit = "s", .classes = classes,
		.nclasses = 3, .shapes = shapes, .pts = pts, .n = 5, .band = 0.1,
	};

	svg_scatter(&sb, &sc);
	CHECK(!strncmp(sb.buf, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39));
	CHECK(strstr(sb.buf, "</svg>\n") != NULL);
	CHECK(strstr(sb.buf, "time &lt;model&gt; vs ref") != NULL);
	CHECK(strstr(sb.buf, "attn&lt;x&gt;") != NULL);
	CHECK(strstr(sb.buf, "norm&amp;co") != NULL);
	CHECK(strstr(sb.buf, "<model>") == NULL);
	CHECK(strstr(sb.buf, "3 points") != NULL);
	CHECK(strstr(sb.buf, "2 not plotted") != NULL);
	CHECK(strstr(sb.buf, "class=\"bd\"") != NULL);	/* band */
	CHECK(strstr(sb.buf, "class=\"id\"") != NULL);	/* y = x */
	CHECK_INT(count(sb.buf, " mk"), 3);		/* one mark each */
	CHECK(strstr(sb.buf, ">1 ms<") != NULL);	/* decade tick */
	CHECK(strstr(sb.buf, ">fixed<") != NULL);	/* used shape */
	CHECK(strstr(sb.buf, ">open<") == NULL);	/* unused shape */
	strbuf_release(&sb);
}

TEST(scatter_million_binned)
{
	size_t n = 1000000;
	struct svg_point *pts = xmalloc(n * sizeof(*pts));
	struct strbuf sb = STRBUF_INIT;
	uint64_t x = 88172645463325252ull;
	struct svg_scatter sc = {
		.title = "big", .unit = "s", .classes = classes, .nclasses = 3,
		.shapes = shapes, .pts = pts, .n = n, .band = 0.1,
	};

	for (size_t i = 0; i < n; i++) {
		double u, v;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		u = (double)(x % 1000000) / 1e6;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = (double)(x % 1000000) / 1e6;
		pts[i].x = pow(10, -9 + 8 * u);		/* 8 decades */
		pts[i].y = pts[i].x * (0.2 + 2 * v);
		pts[i].cls = (unsigned)(i % 3);
		pts[i].shape = (unsigned)(i % 5);
	}
	svg_scatter(&sb, &sc);
	CHECK(sb.len < 2 * 1024 * 1024);
	CHECK(strstr(sb.buf, "binned into") != NULL);
	CHECK(strstr(sb.buf, "1000000 points") != NULL);
	strbuf_release(&sb);
	free(pts);
}

/* Speed-of-light stars: one per violation, or beyond max_marks one per
 * 5-pixel cell holding one; a legend entry only when one is drawn. */
TEST(sol_stars)
{
	struct svg_point pts[40];
	struct strbuf sb = STRBUF_INIT;
	struct svg_scatter sc = {
		.title = "sol", .unit = "s", .classes = classes, .nclasses = 3,
		.shapes = shapes, .pts = pts, .n = 40, .band = 0.1,
	};
	struct svg_errplot ep = {
		.kind = SVG_ERR_SIGNED, .title = "err", .unit = "s",
		.classes = classes, .nclasses = 3, .shapes = shapes,
		.pts = pts, .n = 40, .band = 0.1,
	};

	/* x spread over 1e-6 .. 1e-3 s; points 0 and 1 are identical
	 * (one cell), point 30 far away: 3 violations, 2 cells */
	for (size_t i = 0; i < 40; i++) {
		pts[i] = (struct svg_point){ .x = 1e-6 * pow(10, 3.0 * (double)i
			/ 39), .y = 0, .cls = 0, .shape = 0 };
		pts[i].y = pts[i].x * (1 + 0.02 * (double)(i % 7));
	}
	pts[1] = pts[0];
	pts[0].sol = pts[1].sol = pts[30].sol = 1;
	svg_scatter(&sb, &sc);
	CHECK_INT(count(sb.buf, "class=\"sol\""), 3);
	CHECK_INT(count(sb.buf, "class=\"soll\""), 1);
	CHECK(strstr(sb.buf, "3 speed-of-light violations starred<") ||
	      strstr(sb.buf, "3 speed-of-light violations starred;"));
	strbuf_release(&sb);
	sc.max_marks = 10;		/* binned */
	svg_scatter(&sb, &sc);
	CHECK(strstr(sb.buf, "binned into") != NULL);
	CHECK_INT(count(sb.buf, "class=\"sol\""), 2);
	CHECK(strstr(sb.buf, "3 speed-of-light violations starred (2 cells)")
	      != NULL);
	strbuf_release(&sb);
	for (size_t i = 0; i < 40; i++)	/* the signed error */
		pts[i].y = pts[i].y / pts[i].x - 1;
	svg_errplot(&sb, &ep);
	CHECK_INT(count(sb.buf, "class=\"sol\""), 3);
	CHECK_INT(count(sb.buf, "class=\"soll\""), 1);
	strbuf_release(&sb);
	ep.max_marks = 10;
	svg_errplot(&sb, &ep);
	CHECK(strstr(sb.buf, "marks (one per") != NULL);
	CHECK_INT(count(sb.buf, "class=\"sol\""), 2);
	strbuf_release(&sb);
	pts[0].sol = pts[1].sol = pts[30].sol = 0;
	svg_errplot(&sb, &ep);
	CHECK_INT(count(sb.buf, "class=\"sol"), 0);
	strbuf_release(&sb);
}

/* The k-th smallest (the plots' 98% range) without a sort: sorted by
 * hand, {5,1,4,1,3,9,2,6,5,3} is 1 1 2 3 3 4 5 5 6 9. */
TEST(kth)
{
	static const double v0[10] = { 5, 1, 4, 1, 3, 9, 2, 6, 5, 3 };
	static const double want[10] = { 1, 1, 2, 3, 3, 4, 5, 5, 6, 9 };
	double v[10];

	for (size_t k = 0; k < 10; k++) {
		memcpy(v, v0, sizeof(v));
		CHECK(svg_kth(v, 10, k) == want[k]);
	}
	v[0] = -0.5;
	CHECK(svg_kth(v, 1, 0) == -0.5);
}

TEST(histogram)
{
	struct strbuf sb = STRBUF_INIT;
	double e[200];

	for (int i = 0; i < 200; i++)
		e[i] = (i - 100) / 1000.0;	/* -10% .. +9.9% */
	e[0] = 5;				/* far outlier */
	e[1] = NAN;
	svg_histogram(&sb, "errors", e, 200, 0.1);
	CHECK(strstr(sb.buf, "199 errors") != NULL);
	CHECK(strstr(sb.buf, "0 below and 1 above the range") != NULL);
	CHECK(strstr(sb.buf, "\xe2\x89\xa5") != NULL);	/* open end bin */
	CHECK(strstr(sb.buf, "class=\"lim\"") != NULL);
	strbuf_release(&sb);
	svg_histogram(&sb, "none", e + 1, 1, 0.1);
	CHECK(strstr(sb.buf, "no errors to plot") != NULL);
	strbuf_release(&sb);
}

TEST(trend)
{
	struct strbuf sb = STRBUF_INIT;
	const char *const v[] = { "1.0", "1.1", "2.0<rc>" };
	double t[] = { 0.25, NAN, 0.08 }, p[] = { 0.3, 0.2, 0.1 };
	struct svg_series s[] = { { .name = "time", .y = t },
				  { .name = "power", .y = p } };

	svg_trend(&sb, "MAPE trend", v, 3, s, 2);
	CHECK(strstr(sb.buf, "2.0&lt;rc&gt;") != NULL);
	CHECK(strstr(sb.buf, ">25.0%<") != NULL);
	CHECK(strstr(sb.buf, ">8.0%<") != NULL);
	CHECK_INT(count(sb.buf, "%</text>"), 5 + 6);	/* labels + y ticks */
	strbuf_release(&sb);
}

TEST_MAIN(CASE(escape), CASE(escape_bidi), CASE(fmt_si), CASE(scatter_small),
	  CASE(scatter_million_binned), CASE(sol_stars), CASE(kth), CASE(histogram), CASE(trend))
