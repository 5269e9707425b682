#ifndef PC_IMPORTERS_XMLSCAN_H
#define PC_IMPORTERS_XMLSCAN_H
/*
 * A small, tolerant, streaming XML tag scanner: enough for JUnit-style
 * result files (cocotb results.xml), not a general XML parser. It yields
 * start, empty and end tags with their attributes (entities decoded),
 * skips text, comments, processing instructions, DOCTYPE and CDATA, and
 * checks nesting. Memory is bounded by the longest tag. Tags are
 * borrowed until the next xmlscan_next().
 */
#include <stddef.h>
#include <stdio.h>

enum xml_kind { XML_OPEN, XML_EMPTY, XML_CLOSE };

struct xml_tag {
	enum xml_kind kind;
	const char *name;
	long line;		/* where the tag starts */
	size_t nattr;
	const char **attr_name, **attr_value;
	int depth;		/* elements open around it */
};

struct xmlscan {
	FILE *fp;
	const char *path;
	long line;
	size_t max_tag;		/* bytes; default 1 MiB */
	/* private */
	char *buf;
	size_t len, cap;
	const char **an, **av;
	size_t acap;
	char **stack;
	long *stack_line;
	int depth;
	struct xml_tag tag;
};

void xmlscan_init(struct xmlscan *x, FILE *fp, const char *path);
void xmlscan_release(struct xmlscan *x);

/* The next tag: 1 and *out, 0 at the end of the document, <0 with
 * "path:line: ..." for a malformed document (unterminated tag, bad
 * attribute, mismatched or unclosed element). */
int xmlscan_next(struct xmlscan *x, const struct xml_tag **out);

/* The value of attribute name, or NULL; borrowed. */
const char *xml_attr(const struct xml_tag *t, const char *name);

#endif
