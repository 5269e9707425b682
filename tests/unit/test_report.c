/* Unit tests: the report's markdown escaping, number formats and the
 * discrepancy rule. */
#include "check.h"

#include "src/corr/correlate.h"
#include "src/report/report.h"
#include "base/strbuf.h"

static char *md(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	report_md_escape(&sb, s);
	return strbuf_detach(&sb);
}

TEST(md_escape)
{
	char *s;

	s = md("gemm_qkv");
	CHECK_STR(s, "gemm_qkv");		/* intraword: no emphasis */
	free(s);
	s = md("_x_ a|b <i>&amp; `c` *d* [e](f) ~~g~~ \\");
	CHECK_STR(s, "\\_x\\_ a\\|b \\<i\\>\\&amp; \\`c\\` \\*d\\* \\[e\\](f) "
		  "\\~\\~g\\~\\~ \\\\");
	free(s);
	s = md("a\x1b[31mb\nc");
	CHECK_STR(s, "a\\\\x1b\\[31mb\\\\nc");	/* visible, then escaped */
	free(s);
	s = md(NULL);
	CHECK_STR(s, "");
	free(s);
}

TEST(formats)
{
	char b[32];

	report_fmt_pct(b, sizeof(b), 0.12345);
	CHECK_STR(b, "12.35%");
	report_fmt_pct(b, sizeof(b), NAN);
	CHECK_STR(b, "n/a");
	report_fmt_num(b, sizeof(b), 0.98765);
	CHECK_STR(b, "0.9877");
	report_fmt_num(b, sizeof(b), INFINITY);
	CHECK_STR(b, "n/a");
}

TEST(discrepancy)
{
	struct corr_point p;

	memset(&p, 0, sizeof(p));
	p.err = 0.11;
	CHECK(report_is_discrepancy(&p, 0.10));
	p.err = -0.11;
	CHECK(report_is_discrepancy(&p, 0.10));
	p.err = 0.10;
	CHECK(!report_is_discrepancy(&p, 0.10));	/* strictly above */
	p.err = 0.5;
	p.flags = CORR_WITHIN_NOISE;
	CHECK(!report_is_discrepancy(&p, 0.10));
	p.flags = CORR_NOISY_REF;
	CHECK(!report_is_discrepancy(&p, 0.10));
	p.flags = CORR_INVALID;
	CHECK(!report_is_discrepancy(&p, 0.10));
	p.flags = CORR_WAIVED | CORR_SOL_VIOLATION;	/* still listed */
	CHECK(report_is_discrepancy(&p, 0.10));
	p.flags = 0;
	p.err = NAN;
	CHECK(!report_is_discrepancy(&p, 0.10));
	CHECK_STR(report_status(&p), "open");	/* one word (issue 35) */
}

TEST_MAIN(CASE(md_escape), CASE(formats), CASE(discrepancy))
