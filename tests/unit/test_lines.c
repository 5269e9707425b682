/* Unit tests: the one line reader of the text importers (lines.h) and
 * the "number followed by a unit" parser. */
#include "check.h"

#include "importers/importer.h"
#include "importers/lines.h"
#include "base/error.h"

static FILE *text(const char *s, size_t n)
{
	return fmemopen((void *)s, n, "r");
}

static int collect(void *ctx, long line, char *s)
{
	char *out = ctx;

	snprintf(out + strlen(out), 256 - strlen(out), "%ld=%s|", line, s);
	return 0;
}

static int stop_at_2(void *ctx, long line, char *s)
{
	(void)ctx;
	(void)s;
	return line == 2 ? pc_error_set(PC_EINVALID, "x:%ld: stop", line) : 0;
}

TEST(each_crlf_bom)
{
	const char *t = "\xef\xbb\xbf" "a\r\nbb\n\nlast";
	FILE *fp = text(t, strlen(t));
	struct imp_input in = { .fp = fp, .path = "x", .size = -1,
				.opts = NULL };
	char got[256] = "";

	/* 4 lines: BOM and CR dropped, the empty line kept, no final \n */
	CHECK_INT(lines_each(&in, collect, got), 4);
	CHECK_STR(got, "1=a|2=bb|3=|4=last|");
	fclose(fp);
	fp = text("", 0);
	in.fp = fp;
	got[0] = '\0';
	CHECK_INT(lines_each(&in, collect, got), 0);
	fclose(fp);
	fp = text("1\n2\n3\n", 6);
	in.fp = fp;
	CHECK_INT(lines_each(&in, stop_at_2, NULL), PC_EINVALID);
	CHECK_STR(pc_error_last(), "x:2: stop");
	fclose(fp);
}

TEST(one_nul_rule)
{
	/* a NUL byte is an error naming the line, in every text importer */
	static const char t[] = "ok\nbad\0line\n";
	FILE *fp = text(t, sizeof(t) - 1);
	struct imp_input in = { .fp = fp, .path = "bin.log", .size = -1,
				.opts = NULL };
	char got[256] = "";

	CHECK_INT(lines_each(&in, collect, got), PC_EINVALID);
	CHECK_STR(pc_error_last(), "bin.log:2: NUL byte in a text file");
	CHECK_STR(got, "1=ok|");
	fclose(fp);
}

TEST(one_limit)
{
	struct lines l;
	char *s;
	FILE *fp = text("short\nthis line is far too long\n", 31);

	lines_init(&l, fp, "l.txt");
	CHECK_INT(l.max, 16u << 20);	/* one limit: 16 MiB */
	l.max = 16;
	CHECK_INT(lines_read(&l, &s), 1);
	CHECK_INT(lines_read(&l, &s), PC_EINVALID);
	CHECK_STR(pc_error_last(), "l.txt:2: line longer than 16 bytes");
	lines_release(&l);
	fclose(fp);
}

TEST(quantity)
{
	char u[16];
	const char *end;
	double v;

	CHECK_INT(lines_quantity("154.88 W", &v, u, sizeof(u), &end), 0);
	CHECK(v == 154.88);
	CHECK_STR(u, "W");
	CHECK_STR(end, "");
	CHECK_INT(lines_quantity(" 7us (rounded)", &v, u, sizeof(u), &end), 0);
	CHECK(v == 7);
	CHECK_STR(u, "us");
	CHECK_STR(end, " (rounded)");
	CHECK_INT(lines_quantity("0.1900ms", &v, u, sizeof(u), NULL), 0);
	CHECK(v == 0.19);
	CHECK_STR(u, "ms");
	CHECK_INT(lines_quantity("12 Kbyte/block", &v, u, sizeof(u), NULL), 0);
	CHECK_STR(u, "Kbyte/block");
	CHECK_INT(lines_quantity("87.5%", &v, u, sizeof(u), NULL), 0);
	CHECK_STR(u, "%");
	CHECK_INT(lines_quantity("3.2 \xc2\xb5s", &v, u, sizeof(u), NULL), 0);
	CHECK_STR(u, "\xc2\xb5s");
	CHECK_INT(lines_quantity("42", &v, u, sizeof(u), &end), 0);
	CHECK_STR(u, "");
	CHECK_INT(lines_quantity("1234 ps.", &v, u, sizeof(u), &end), 0);
	CHECK_STR(u, "ps");
	CHECK_STR(end, ".");
	CHECK_INT(lines_quantity("W 12", &v, u, sizeof(u), NULL), -1);
	CHECK_INT(lines_quantity("nan W", &v, u, sizeof(u), NULL), -1);
	CHECK_INT(lines_quantity("1 averyveryverylongunit", &v, u, sizeof(u),
				 NULL), -1);
}

TEST_MAIN(CASE(each_crlf_bom), CASE(one_nul_rule), CASE(one_limit),
	  CASE(quantity))
