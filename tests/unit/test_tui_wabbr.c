/* Workload keys without their shared parts (src/wabbr.c) and values with
 * their units (tui/fmt.c). */
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/fmt.h"
#include "base/strbuf.h"
#include "src/corr/wabbr.h"

TEST(one_model)
{
	const char *names[] = {
		"llama3-8b/decode/bs=32/seq=2048/bf16",
		"llama3-8b/decode/bs=8/seq=2048/bf16",
		"llama3-8b/prefill/bs=1/seq=2048/bf16",
		"llama3-8b/decode/bs=32/seq=2048/bf16",	/* a duplicate */
	};
	struct wabbr a;
	char buf[128];

	wabbr_build(&a, names, 4);
	/* shared: the model, seq and precision; kept: phase and batch */
	CHECK_INT((int)a.ncommon, 3);
	CHECK_STR(a.templ, "llama3-8b/*/seq=2048/bf16");
	CHECK_STR(wabbr_apply(&a, names[0], buf, sizeof(buf)), "decode/bs=32");
	CHECK_STR(wabbr_apply(&a, names[2], buf, sizeof(buf)),
		  "prefill/bs=1");
	CHECK_INT(a.fullw, 36);		/* strlen of the first */
	CHECK_INT(a.abbrw, 12);		/* "decode/bs=32", "prefill/bs=1" */
	wabbr_release(&a);
}

TEST(everything_shared_keeps_the_name)
{
	const char *names[] = { "llama3-8b/bf16", "llama3-8b/bf16" };
	struct wabbr a;
	char buf[64];

	wabbr_build(&a, names, 2);
	CHECK_STR(wabbr_apply(&a, names[0], buf, sizeof(buf)),
		  "llama3-8b/bf16");
	wabbr_release(&a);
}

TEST(a_part_is_a_whole_part)
{
	/* "bs=3" is inside "bs=32" as text, not as a part */
	const char *names[] = { "m/bs=3/x", "m/bs=32/x" };
	struct wabbr a;
	char buf[64];

	wabbr_build(&a, names, 2);
	CHECK_INT((int)a.ncommon, 2);	/* m and x */
	CHECK_STR(wabbr_apply(&a, names[0], buf, sizeof(buf)), "bs=3");
	CHECK_STR(wabbr_apply(&a, names[1], buf, sizeof(buf)), "bs=32");
	wabbr_release(&a);
}

TEST(several_models)
{
	const char *names[] = {
		"llama3-8b/decode/bs=32/seq=2048/bf16",
		"llama3-8b/prefill/bs=1/seq=2048/bf16",
		"mixtral-8x7b/decode/bs=8/seq=4096/fp8",
	};
	struct wabbr a;
	char buf[128];

	wabbr_build(&a, names, 3);
	CHECK_INT((int)a.ncommon, 0);	/* no part in all three */
	CHECK(a.templ == NULL);
	CHECK_INT((int)a.ngroups, 2);
	/* level 2: each model's shared seq and precision go; the phase and
	 * batch stay even where one model has one workload */
	CHECK_STR(wabbr_apply2(&a, names[0], 80, buf, sizeof(buf)),
		  "llama3-8b/decode/bs=32");
	CHECK_STR(wabbr_apply2(&a, names[2], 80, buf, sizeof(buf)),
		  "mixtral-8x7b/decode/bs=8");
	CHECK_INT(a.abbrw2, 24);
	/* 17 columns: the name is cut, the rest kept ("mixt" + "~" +
	 * "/decode/bs=8" = 4 + 1 + 12) */
	CHECK_STR(wabbr_apply2(&a, names[2], 17, buf, sizeof(buf)),
		  "mixt~/decode/bs=8");
	CHECK_STR(wabbr_apply2(&a, names[0], 17, buf, sizeof(buf)),
		  "lla~/decode/bs=32");
	wabbr_release(&a);
}

TEST(units)
{
	char buf[64];

	fmt_si_unit(buf, sizeof(buf), 102.2e-6, "s", 0);
	CHECK_STR(buf, "102.2 \xc2\xb5s");
	fmt_si_unit(buf, sizeof(buf), 102.2e-6, "s", 1);
	CHECK_STR(buf, "102.2 us");
	fmt_si_unit(buf, sizeof(buf), 400, "W", 0);
	CHECK_STR(buf, "400 W");
	fmt_si_unit(buf, sizeof(buf), 2510, "tokens/s", 0);
	CHECK_STR(buf, "2.51 ktok/s");
	/* dimensionless: the CLI's rule, no prefix (issue 35 item 8) */
	fmt_si_unit(buf, sizeof(buf), 0.75, "1", 0);
	CHECK_STR(buf, "0.75");
	fmt_si_unit(buf, sizeof(buf), 0.9995, "", 0);
	CHECK_STR(buf, "0.9995");
	fmt_si_unit(buf, sizeof(buf), 12345, "", 0);
	CHECK_STR(buf, "12345");
	fmt_si_unit(buf, sizeof(buf), 999.5, "1", 1);
	CHECK_STR(buf, "999.5");
	fmt_si_unit(buf, sizeof(buf), 249600, "cycles", 0);
	CHECK_STR(buf, "249.6 kcycles");	/* a count keeps its prefix */
	fmt_si_unit(buf, sizeof(buf), 0, "s", 0);
	CHECK_STR(buf, "0 s");
	fmt_si_unit(buf, sizeof(buf), 0.0 / 0.0, "s", 0);
	CHECK_STR(buf, "-");
}

/* fmt_plain_binades' bound of v. */
static int binade(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	return fmt_plain_binades()[b >> 52];
}

/* fmt_plain_width_max is the printed width of the widest value and
 * fmt_plain_binades a bound on every width (they pass a value over only
 * when it cannot be wider): every
 * decade from 1e-110 to 1e110 at several mantissas, whole numbers of
 * every length, signs, 0, -0, NaN, inf, for "", "1" and "%". */
TEST(plain_widths_are_the_printed_ones)
{
	static const char *const units[] = { "", "1", "%" };
	static const double mant[] = { 1, 1.5, 9.9996, 9.99949, 1.23456,
		5, 9.5, 3.14159 };
	char buf[64];
	int bad = 0;

	for (size_t u = 0; u < 3; u++)
		for (int e = -110; e <= 110; e++)
			for (size_t k = 0; k < sizeof(mant) / sizeof(mant[0]);
			     k++)
				for (int sg = -1; sg <= 1; sg += 2) {
					double v = sg * mant[k] * pow(10, e);
					int w;

					fmt_si_unit(buf, sizeof(buf), v,
						    units[u], 0);
					w = (int)strlen(buf);
					bad += !u && binade(v) < w;
					for (int at = 0; at <= 14; at++)
						bad += fmt_plain_width_max(&v,
							1, units[u], at) !=
						       (w > at ? w : at);
				}
	CHECK_INT(bad, 0);
	/* the binade bound, at the edges of every decimal bucket */
	for (int e = -330; e <= 330; e++)
		for (int d = -3; d <= 3; d++) {
			double v = nextafter(pow(10, e), d < 0 ? 0 : INFINITY);

			for (int k = 0; k < (d < 0 ? -d : d); k++)
				v = nextafter(v, d < 0 ? 0 : INFINITY);
			for (int sg = -1; sg <= 1; sg += 2) {
				fmt_si_unit(buf, sizeof(buf), sg * v, "", 0);
				bad += binade(sg * v) < (int)strlen(buf);
			}
		}
	bad += binade(4.9e-324) < 10 || binade(-0.0) < 2 || binade(NAN) < 17;
	CHECK_INT(bad, 0);
	for (double v = 1; v < 1e16; v = v * 10 + 7) {
		fmt_si_unit(buf, sizeof(buf), v, "", 0);
		CHECK_INT(fmt_plain_width_max(&v, 1, "", 0),
			  (int)strlen(buf));
	}
	CHECK_INT(fmt_plain_width_max((double[]){ 0.0 }, 1, "", 0), 1);
	CHECK_INT(fmt_plain_width_max((double[]){ -0.0 }, 1, "", 0), 2);
	CHECK_INT(fmt_plain_width_max((double[]){ NAN }, 1, "%", 0), 1);
	CHECK_INT(fmt_plain_width_max((double[]){ -INFINITY }, 1, "", 0), 4);
	CHECK_INT(fmt_plain_width_max((double[]){ 0.5, 0.0001234, 3 }, 3, "",
				      0), 9);
	CHECK_INT(fmt_plain_width_max((double[]){ 12345678 }, 1, "", 8), 8);
	CHECK_INT(fmt_plain_width_max((double[]){ 12345678, 1.5 }, 2, "%",
				      0), 10);	/* "12345678 %" */
	CHECK_INT(fmt_unit_plain(""), 1);
	CHECK_INT(fmt_unit_plain("%"), 1);
	CHECK_INT(fmt_unit_plain("cycles"), 0);
	CHECK_INT(fmt_unit_plain("s"), 0);
}

/* The widths wabbr_build counts without printing (the first screen of a
 * sweep: 125k workloads) are the widths of what the applies print, over
 * names with every edge the printing has: empty parts, a leading or
 * trailing '/', UTF-8, several models, parts shared by one model only,
 * a name that is only shared parts, one longer than the print buffer. */
static void widths_match(const char *const *names, size_t n)
{
	static char buf[4096];
	int fw = 0, aw = 0, aw2 = 0;
	struct wabbr a;

	wabbr_build(&a, names, n);
	for (size_t i = 0; i < n; i++) {
		int w = wabbr_width(names[i]);

		fw = w > fw ? w : fw;
		w = wabbr_width(wabbr_apply(&a, names[i], buf, 1024));
		aw = w > aw ? w : aw;
		w = wabbr_width(wabbr_apply2(&a, names[i], 1 << 20, buf, 1024));
		aw2 = w > aw2 ? w : aw2;
	}
	CHECK_INT(a.fullw, fw);
	CHECK_INT(a.abbrw, aw);
	CHECK_INT(a.abbrw2, aw2);
	wabbr_release(&a);
}

TEST(counted_widths_are_the_printed_ones)
{
	static const char *parts[] = {
		"", "decode", "prefill", "bs=1", "bs=32", "seq=2048",
		"seq=4096", "bf16", "fp8", "gr\xc3\xb6\xc3\x9f" "e", "\xe2\x82\xac=3",
	};
	static const char *models[] = {
		"llama3-8b", "mixtral-8x7b", "", "\xc3\xa9t\xc3\xa9",
	};
	static char store[400][96];
	const char *names[400];
	unsigned r = 12345;
	char *longname = malloc(1500);

	/* several models, random parts (xorshift), some shared by all */
	for (int i = 0; i < 400; i++) {
		int np;
		size_t used;

		r ^= r << 13, r ^= r >> 17, r ^= r << 5;
		used = (size_t)snprintf(store[i], sizeof(store[i]), "%s%s/"
					"seq=2048", r % 9 == 0 ? "/" : "",
					models[r % 4]);
		np = (int)(r >> 8) % 5;
		for (int k = 0; k < np; k++) {
			r ^= r << 13, r ^= r >> 17, r ^= r << 5;
			used += (size_t)snprintf(store[i] + used,
						 sizeof(store[i]) - used,
						 "/%s", parts[r % 11]);
		}
		if (r % 7 == 0)
			snprintf(store[i] + used, sizeof(store[i]) - used, "/");
		names[i] = store[i];
	}
	widths_match(names, 400);
	widths_match(names, 1);		/* every part shared */
	widths_match(names + 17, 3);
	/* one model: level 2 and the template both apply */
	for (int i = 0; i < 40; i++) {
		snprintf(store[i], sizeof(store[i]), "m/%s/bs=%d/bf16/x=%d",
			 i % 3 ? "decode" : "prefill", i % 5, i % 2);
		names[i] = store[i];
	}
	widths_match(names, 40);
	/* longer than the buffer the applies print into (1024): cut */
	memset(longname, 'x', 1499);
	longname[1499] = '\0';
	longname[3] = longname[700] = '/';
	names[40] = longname;
	widths_match(names, 41);
	free(longname);
}

/* What the pair index stores (wabbr_put) reads back (wabbr_get) as the
 * same abbreviation: every field, and the applies print the same; bytes
 * cut anywhere or a count past the end are refused, never read. */
TEST(stored_and_read_back)
{
	const char *names[] = {
		"llama3-8b/decode/bs=32/seq=2048/bf16",
		"llama3-8b/prefill/bs=1/seq=2048/bf16",
		"mixtral-8x7b/decode/bs=8/seq=2048/bf16",
		"mixtral-8x7b/prefill/bs=8/seq=2048/bf16/tp=2",
	};
	struct strbuf sb = STRBUF_INIT;
	struct wabbr a, b;
	char x[128], y[128];

	wabbr_build(&a, names, 4);
	/* the case has something in every field */
	CHECK(a.ncommon == 2 && a.templ && a.ngroups == 2);
	wabbr_put(&a, &sb);
	CHECK_INT(wabbr_get(&b, sb.buf, sb.len), 0);
	CHECK_INT((int)b.ncommon, (int)a.ncommon);
	for (size_t i = 0; i < a.ncommon && i < b.ncommon; i++)
		CHECK_STR(b.common[i], a.common[i]);
	CHECK_STR(b.templ, "*/seq=2048/bf16/*");	/* the longest name: tp=2 */
	CHECK_STR(b.templ, a.templ);
	CHECK_INT(b.fullw, a.fullw);
	CHECK_INT(b.abbrw, a.abbrw);
	CHECK_INT(b.abbrw2, a.abbrw2);
	CHECK_INT((int)b.ngroups, 2);
	CHECK_INT((int)b.nconstkv, (int)a.nconstkv);
	for (size_t i = 0; i < 4; i++) {
		CHECK_STR(wabbr_apply(&b, names[i], y, sizeof(y)),
			  wabbr_apply(&a, names[i], x, sizeof(x)));
		CHECK_STR(wabbr_apply2(&b, names[i], 20, y, sizeof(y)),
			  wabbr_apply2(&a, names[i], 20, x, sizeof(x)));
		CHECK_STR(wabbr_apply_tight(&b, names[i], y, sizeof(y)),
			  wabbr_apply_tight(&a, names[i], x, sizeof(x)));
	}
	/* level 2 of the read one: the shared parts of each model gone */
	CHECK_STR(wabbr_apply2(&b, names[3], 80, y, sizeof(y)),
		  "mixtral-8x7b/prefill/bs=8/tp=2");
	wabbr_release(&b);
	for (size_t cut = 0; cut < sb.len; cut++) {
		CHECK_INT(wabbr_get(&b, sb.buf, cut), -1);
		CHECK(b.ncommon == 0 && b.templ == NULL && b.ngroups == 0);
	}
	/* a byte more, and a common-part count of 2^32 - 1 */
	strbuf_addch(&sb, 'x');
	CHECK_INT(wabbr_get(&b, sb.buf, sb.len), -1);
	memset(sb.buf + 12, 0xff, 4);
	CHECK_INT(wabbr_get(&b, sb.buf, sb.len - 1), -1);
	strbuf_release(&sb);
	wabbr_release(&a);
}

TEST_MAIN(CASE(one_model), CASE(stored_and_read_back), CASE(everything_shared_keeps_the_name),
	  CASE(a_part_is_a_whole_part), CASE(several_models), CASE(units),
	  CASE(plain_widths_are_the_printed_ones),
	  CASE(counted_widths_are_the_printed_ones))
