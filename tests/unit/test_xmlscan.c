/* The XML tag scanner used by the cocotb importer, and the line reader. */
#include "check.h"

#include "importers/lines.h"
#include "importers/xmlscan.h"
#include "base/error.h"

static FILE *text(const char *s)
{
	FILE *fp = tmpfile();

	fputs(s, fp);
	rewind(fp);
	return fp;
}

TEST(tags_attributes_entities)
{
	FILE *fp = text("<?xml version='1.0'?>\n<!-- a <comment> --->\n"
			"<a x=\"1\" y='t&amp;&lt;&#65;'>\n"
			"  text &amp; <![CDATA[ <b> not a tag ]]>\n"
			"  <b   z = \"q>r\" /></a>");
	struct xmlscan x;
	const struct xml_tag *t;

	xmlscan_init(&x, fp, "t.xml");
	CHECK_INT(xmlscan_next(&x, &t), 1);
	CHECK_STR(t->name, "a");
	CHECK_INT(t->kind, XML_OPEN);
	CHECK_INT(t->line, 3);
	CHECK_STR(xml_attr(t, "x"), "1");
	CHECK_STR(xml_attr(t, "y"), "t&<A");
	CHECK(xml_attr(t, "z") == NULL);
	CHECK_INT(xmlscan_next(&x, &t), 1);
	CHECK_STR(t->name, "b");
	CHECK_INT(t->kind, XML_EMPTY);
	CHECK_INT(t->depth, 1);
	CHECK_STR(xml_attr(t, "z"), "q>r");
	CHECK_INT(xmlscan_next(&x, &t), 1);
	CHECK_INT(t->kind, XML_CLOSE);
	CHECK_INT(xmlscan_next(&x, &t), 0);
	xmlscan_release(&x);
	fclose(fp);
}

static void refused(const char *doc, const char *needle)
{
	FILE *fp = text(doc);
	struct xmlscan x;
	const struct xml_tag *t;
	int rc;

	xmlscan_init(&x, fp, "bad.xml");
	while ((rc = xmlscan_next(&x, &t)) > 0)
		;
	CHECK_INT(rc, PC_EINVALID);
	if (!strstr(pc_error_last(), needle)) {
		fprintf(stderr, "message '%s' lacks '%s'\n", pc_error_last(),
			needle);
		CHECK(0);
	}
	xmlscan_release(&x);
	fclose(fp);
}

TEST(malformed)
{
	refused("<a>\n<b>\n</a>", "bad.xml:3: </a> does not close <b>");
	refused("<a>\n<b/>\n", "bad.xml:3: <a> (line 1) is never closed");
	refused("<a x=1/>", "bad.xml:1: malformed attribute in <a>");
	refused("<a x=\"1\"y=\"2\"/>", "malformed attribute");
	refused("<a>\n<b x=\"unterminated", "bad.xml:2: unterminated tag");
	refused("</a>", "</a> does not close any element");
	refused("<a><!-- never ends", "unterminated");
}

TEST(lines_crlf_bom_limit)
{
	FILE *fp = text("\xef\xbb\xbfone\r\ntwo\n\nlast");
	struct lines l;
	char *s;

	lines_init(&l, fp, "l.txt");
	CHECK_INT(lines_read(&l, &s), 1);
	CHECK_STR(s, "one");
	CHECK_INT(lines_read(&l, &s), 1);
	CHECK_STR(s, "two");
	CHECK_INT(lines_read(&l, &s), 1);
	CHECK_STR(s, "");
	CHECK_INT(lines_read(&l, &s), 1);
	CHECK_STR(s, "last");
	CHECK_INT(l.line, 4);
	CHECK_INT(lines_read(&l, &s), 0);
	lines_release(&l);
	fclose(fp);

	fp = text("short\nthis line is far too long for the limit\n");
	lines_init(&l, fp, "l.txt");
	l.max = 16;
	CHECK_INT(lines_read(&l, &s), 1);
	CHECK_INT(lines_read(&l, &s), PC_EINVALID);
	CHECK(strstr(pc_error_last(), "l.txt:2: line longer") != NULL);
	lines_release(&l);
	fclose(fp);
}

TEST(lines_helpers)
{
	double v;
	const char *end;

	CHECK_STR(lines_after("  gpu_ipc =  1.5", "gpu_ipc"), "=  1.5");
	CHECK(lines_after("gpu_tot_ipc = 1", "gpu_ipc") == NULL);
	CHECK_INT(lines_number(" 61.8322% ", &v, &end, 0), 0);
	CHECK_NEAR(v, 61.8322, 1e-15);
	CHECK_STR(end, "% ");
	CHECK_INT(lines_number("nan", &v, &end, 0), -1);
	CHECK_INT(lines_number("nan", &v, &end, 1), 0);
	CHECK(isnan(v));
	CHECK_INT(lines_number("abc", &v, &end, 1), -1);
}

TEST_MAIN(CASE(tags_attributes_entities), CASE(malformed),
	  CASE(lines_crlf_bom_limit), CASE(lines_helpers))
