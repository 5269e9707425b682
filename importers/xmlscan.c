/* Tolerant streaming XML tag scanner (see xmlscan.h). */
#include "importers/xmlscan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

#define MAX_DEPTH 64

void xmlscan_init(struct xmlscan *x, FILE *fp, const char *path)
{
	memset(x, 0, sizeof(*x));
	x->fp = fp;
	x->path = path;
	x->line = 1;
	x->max_tag = 1u << 20;
	x->stack = xcalloc(MAX_DEPTH, sizeof(*x->stack));
	x->stack_line = xcalloc(MAX_DEPTH, sizeof(*x->stack_line));
}

void xmlscan_release(struct xmlscan *x)
{
	for (int i = 0; i < x->depth; i++)
		free(x->stack[i]);
	free(x->stack);
	free(x->stack_line);
	free(x->buf);
	free(x->an);
	free(x->av);
	memset(x, 0, sizeof(*x));
}

static int get(struct xmlscan *x)
{
	int ch = getc(x->fp);

	if (ch == '\n')
		x->line++;
	return ch;
}

static int push(struct xmlscan *x, int ch)
{
	if (x->len + 1 >= x->cap) {
		if (x->cap >= x->max_tag)
			return pc_error_set(PC_EINVALID, "%s:%ld: tag longer "
				"than %zu bytes", x->path, x->tag.line,
				x->max_tag);
		x->cap = x->cap ? 2 * x->cap : 256;
		x->buf = xrealloc(x->buf, x->cap);
	}
	x->buf[x->len++] = (char)ch;
	return 0;
}

/* Skip up to and including the terminator (e.g. "-->"). */
static int until(struct xmlscan *x, const char *term)
{
	char last[8] = "";	/* the last n bytes read */
	size_t n = strlen(term), got = 0;
	int ch;

	while ((ch = get(x)) != EOF) {
		memmove(last, last + 1, n - 1);
		last[n - 1] = (char)ch;
		if (++got >= n && !memcmp(last, term, n))
			return 0;
	}
	return pc_error_set(PC_EINVALID, "%s:%ld: unterminated markup (no "
			    "'%s' before the end)", x->path, x->tag.line, term);
}

/* Decode &amp; &lt; &gt; &quot; &apos; &#N; &#xN; in place. */
static void decode(char *s)
{
	static const struct {
		const char *ent;
		char ch;
	} ents[] = { { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		     { "&quot;", '"' }, { "&apos;", '\'' } };
	char *o = s;

	while (*s) {
		size_t i, n = sizeof(ents) / sizeof(ents[0]);

		if (*s != '&') {
			*o++ = *s++;
			continue;
		}
		for (i = 0; i < n; i++)
			if (!strncmp(s, ents[i].ent, strlen(ents[i].ent)))
				break;
		if (i < n) {
			*o++ = ents[i].ch;
			s += strlen(ents[i].ent);
		} else if (s[1] == '#') {
			char *end;
			long c = s[2] == 'x' ? strtol(s + 3, &end, 16) :
				 strtol(s + 2, &end, 10);

			if (*end == ';' && c > 0 && c < 128) {
				*o++ = (char)c;
				s = end + 1;
			} else {
				*o++ = *s++;
			}
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

/* Read a tag's text after '<' up to its '>' (quotes may hold '>'). */
static int read_tag(struct xmlscan *x, int first)
{
	int ch = first, quote = 0, rc;

	x->len = 0;
	for (;;) {
		if (ch == EOF)
			return pc_error_set(PC_EINVALID, "%s:%ld: unterminated "
					    "tag", x->path, x->tag.line);
		if (quote) {
			if (ch == quote)
				quote = 0;
		} else if (ch == '"' || ch == '\'') {
			quote = ch;
		} else if (ch == '>') {
			break;
		} else if (ch == '<') {
			return pc_error_set(PC_EINVALID, "%s:%ld: '<' inside a "
					    "tag", x->path, x->line);
		}
		if ((rc = push(x, ch)) < 0)
			return rc;
		ch = get(x);
	}
	return push(x, '\0');
}

static int add_attr(struct xmlscan *x, const char *name, const char *value)
{
	if (x->tag.nattr == x->acap) {
		x->acap = x->acap ? 2 * x->acap : 16;
		x->an = xrealloc(x->an, x->acap * sizeof(*x->an));
		x->av = xrealloc(x->av, x->acap * sizeof(*x->av));
	}
	x->an[x->tag.nattr] = name;
	x->av[x->tag.nattr++] = value;
	return 0;
}

static int bad_attr(struct xmlscan *x)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: malformed attribute in <%s>",
			    x->path, x->tag.line, x->tag.name);
}

/* Split buf into the tag name and its attributes. */
static int parse_tag(struct xmlscan *x)
{
	char *p = x->buf, *end = x->buf + strlen(x->buf);

	x->tag.kind = XML_OPEN;
	x->tag.nattr = 0;
	if (*p == '/') {
		x->tag.kind = XML_CLOSE;
		p++;
	} else if (end > p && end[-1] == '/') {
		x->tag.kind = XML_EMPTY;
		*--end = '\0';
	}
	x->tag.name = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	if (p == x->tag.name)
		return pc_error_set(PC_EINVALID, "%s:%ld: tag without a name",
				    x->path, x->tag.line);
	while (*p) {
		char *name, q;

		if (!isspace((unsigned char)*p))
			return bad_attr(x);
		*p++ = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		name = p;
		while (*p && *p != '=' && !isspace((unsigned char)*p))
			p++;
		while (isspace((unsigned char)*p))
			*p++ = '\0';
		if (*p != '=' || p == name)
			return bad_attr(x);
		*p++ = '\0';
		while (isspace((unsigned char)*p))
			p++;
		q = *p;
		if (q != '"' && q != '\'')
			return bad_attr(x);
		add_attr(x, name, ++p);
		while (*p && *p != q)
			p++;
		if (!*p)
			return bad_attr(x);
		*p++ = '\0';
		decode((char *)x->av[x->tag.nattr - 1]);
	}
	x->tag.attr_name = x->an;
	x->tag.attr_value = x->av;
	return 0;
}

/* Keep the element stack: every start tag must be closed in order. */
static int nest(struct xmlscan *x)
{
	struct xml_tag *t = &x->tag;

	t->depth = x->depth;
	if (t->kind == XML_OPEN) {
		if (x->depth == MAX_DEPTH)
			return pc_error_set(PC_EINVALID, "%s:%ld: elements "
				"nested deeper than %d", x->path, t->line,
				MAX_DEPTH);
		x->stack[x->depth] = xstrdup(t->name);
		x->stack_line[x->depth++] = t->line;
	} else if (t->kind == XML_CLOSE) {
		if (!x->depth || strcmp(x->stack[x->depth - 1], t->name))
			return pc_error_set(PC_EINVALID, "%s:%ld: </%s> does "
				"not close %s%s%s", x->path, t->line, t->name,
				x->depth ? "<" : "any element",
				x->depth ? x->stack[x->depth - 1] : "",
				x->depth ? ">" : "");
		free(x->stack[--x->depth]);
		t->depth = x->depth;
	}
	return 0;
}

static int skip_markup(struct xmlscan *x, int c2)
{
	char kw[8];
	int i = 0, ch;

	if (c2 == '?')
		return until(x, "?>");
	while (i < 7 && (ch = get(x)) != EOF) {
		kw[i++] = (char)ch;
		if ((i == 2 && !strncmp(kw, "--", 2)))
			return until(x, "-->");
		if (i == 7 && !strncmp(kw, "[CDATA[", 7))
			return until(x, "]]>");
		if (ch == '>')
			return 0;
	}
	return until(x, ">");
}

int xmlscan_next(struct xmlscan *x, const struct xml_tag **out)
{
	int ch, rc;

	while ((ch = get(x)) != EOF) {
		if (ch != '<')
			continue;
		x->tag.line = x->line;
		ch = get(x);
		if (ch == '?' || ch == '!') {
			if ((rc = skip_markup(x, ch)) < 0)
				return rc;
			continue;
		}
		if ((rc = read_tag(x, ch)) < 0 || (rc = parse_tag(x)) < 0 ||
		    (rc = nest(x)) < 0)
			return rc;
		*out = &x->tag;
		return 1;
	}
	if (ferror(x->fp))
		return pc_error_set(PC_EIO, "%s: read error", x->path);
	if (x->depth)
		return pc_error_set(PC_EINVALID, "%s:%ld: <%s> (line %ld) is "
				    "never closed", x->path, x->line,
				    x->stack[x->depth - 1],
				    x->stack_line[x->depth - 1]);
	return 0;
}

const char *xml_attr(const struct xml_tag *t, const char *name)
{
	for (size_t i = 0; i < t->nattr; i++)
		if (!strcmp(t->attr_name[i], name))
			return t->attr_value[i];
	return NULL;
}
