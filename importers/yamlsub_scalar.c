/* yamlsub's scalars, flow collections and keys (see yamlsub_scalar.h). */
#include "importers/yamlsub_scalar.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

static int serr(const struct yamlsub_src *src, long line, const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: YAML: %s", src->path, line,
			    what);
}

static int only_space(const char *s)
{
	return strspn(s, " \t") == strlen(s);
}

/* ---- plain scalars: YAML 1.1 as PyYAML's resolver reads them ---- */

static int is_in(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(s, *set))
			return 1;
	return 0;
}

/* digits (with '_') of base into *v; 0 when s is all such digits. */
static int digits(const char *s, int base, double *v)
{
	int any = 0;

	*v = 0;
	for (; *s; s++) {
		int d;

		if (*s == '_')
			continue;
		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			return -1;
		if (d >= base)
			return -1;
		*v = *v * base + d;
		any = 1;
	}
	return any ? 0 : -1;
}

/* A YAML 1.1 int or float (PyYAML's patterns, plus JSON's 1e5): 0. */
static int number(const char *t, double *out)
{
	static const char *const inf[] = { ".inf", ".Inf", ".INF", NULL };
	static const char *const nan[] = { ".nan", ".NaN", ".NAN", NULL };
	const char *s = t;
	double sign = 1, v;
	char buf[128];
	size_t n = 0;

	if (*s == '-' || *s == '+')
		sign = *s++ == '-' ? -1 : 1;
	if (is_in(s, inf)) {
		*out = sign * INFINITY;
		return 0;
	}
	if (s == t && is_in(s, nan)) {
		*out = NAN;
		return 0;
	}
	if (!strncmp(s, "0x", 2) && !digits(s + 2, 16, &v))
		goto whole;
	if (!strncmp(s, "0b", 2) && !digits(s + 2, 2, &v))
		goto whole;
	if (s[0] == '0' && s[1] && !strchr(s, '.') && !strchr(s, 'e') &&
	    !strchr(s, 'E') && !strchr(s, ':')) {
		if (digits(s + 1, 8, &v))
			return -1;
		goto whole;
	}
	if (strchr(s, ':')) {	/* sexagesimal 1:30 = 90 */
		double acc = 0, part;
		const char *p = s;

		while (*p) {
			const char *e = strchr(p, ':');
			size_t k = e ? (size_t)(e - p) : strlen(p);

			if (!k || k >= sizeof(buf))
				return -1;
			memcpy(buf, p, k);
			buf[k] = '\0';
			if (e ? digits(buf, 10, &part) :
			    util_parse_double(buf, &part))
				return -1;
			acc = acc * 60 + part;
			p += k + (e ? 1 : 0);
			if (e && !*p)
				return -1;
		}
		v = acc;
		goto whole;
	}
	/* decimal: int [1-9][0-9_]* or float [0-9][0-9_]*.[0-9_]*([eE][-+][0-9]+)?
	 * (YAML 1.1: the dot, and the exponent's sign, are required) */
	{
		const char *p = s;
		int dot = 0;

		if (!isdigit((unsigned char)*p) &&
		    !(*p == '.' && s == t && isdigit((unsigned char)p[1])))
			return -1;
		for (; isdigit((unsigned char)*p) || *p == '_'; p++)
			;
		if (*p == '.') {
			dot = 1;
			for (p++; isdigit((unsigned char)*p) || *p == '_'; p++)
				;
			if ((*p == 'e' || *p == 'E') && (p[1] == '-' || p[1] == '+') &&
			    isdigit((unsigned char)p[2]))
				for (p += 2; isdigit((unsigned char)*p); p++)
					;
		}
		if (*p || (!dot && s[0] == '0' && s[1]))
			return -1;
	}
	for (const char *p = s; *p && n + 1 < sizeof(buf); p++)
		if (*p != '_')
			buf[n++] = *p;
	buf[n] = '\0';
	if (util_parse_double(buf, &v))
		return -1;
whole:
	*out = sign * v;
	return 0;
}

cJSON *yamlsub_resolve(const char *t)
{
	static const char *const nul[] = { "", "~", "null", "Null", "NULL",
					   NULL };
	static const char *const yes[] = { "yes", "Yes", "YES", "true",
		"True", "TRUE", "on", "On", "ON", NULL };
	static const char *const no[] = { "no", "No", "NO", "false", "False",
		"FALSE", "off", "Off", "OFF", NULL };
	double v;

	if (is_in(t, nul))
		return cJSON_CreateNull();
	if (is_in(t, yes))
		return cJSON_CreateTrue();
	if (is_in(t, no))
		return cJSON_CreateFalse();
	if (!number(t, &v))	/* .nan: no value */
		return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
	return cJSON_CreateString(t);
}

/* ---- quoted scalars ---- */

static void utf8(struct strbuf *b, unsigned long c)
{
	if (c < 0x80) {
		strbuf_addch(b, (char)c);
	} else if (c < 0x800) {
		strbuf_addch(b, (char)(0xc0 | (c >> 6)));
		strbuf_addch(b, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		strbuf_addch(b, (char)(0xe0 | (c >> 12)));
		strbuf_addch(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		strbuf_addch(b, (char)(0x80 | (c & 0x3f)));
	} else {
		strbuf_addch(b, (char)(0xf0 | (c >> 18)));
		strbuf_addch(b, (char)(0x80 | ((c >> 12) & 0x3f)));
		strbuf_addch(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		strbuf_addch(b, (char)(0x80 | (c & 0x3f)));
	}
}

/* One escape after '\' at *pp (double quotes): 0, -1 when unknown. */
int yamlsub_escape(struct strbuf *b, const char **pp)
{
	static const char from[] = "0abtnvfre \"/\\N_LP\t";
	static const char *const to[] = { "\0", "\a", "\b", "\t", "\n", "\v",
		"\f", "\r", "\x1b", " ", "\"", "/", "\\", "\xc2\x85",
		"\xc2\xa0", "\xe2\x80\xa8", "\xe2\x80\xa9", "\t" };
	const char *p = *pp, *f = strchr(from, *p);
	int len = *p == 'x' ? 2 : *p == 'u' ? 4 : *p == 'U' ? 8 : 0;

	if (len) {
		unsigned long c = 0;

		for (int k = 1; k <= len; k++) {
			if (!isxdigit((unsigned char)p[k]))
				return -1;
			c = c * 16 + (unsigned long)(isdigit((unsigned char)p[k]) ?
				p[k] - '0' : tolower((unsigned char)p[k]) - 'a' + 10);
		}
		if (c == 0 || c > 0x10ffff)
			return -1;	/* a NUL would cut the text */
		utf8(b, c);
		*pp = p + len + 1;
		return 0;
	}
	if (!*p || !f || *p == '0')
		return -1;
	strbuf_addstr(b, to[f - from]);
	*pp = p + 1;
	return 0;
}

/* The quoted scalar opening at line i, column col (on the quote). Lines
 * fold: a line break is a space, n empty lines n newlines; in double
 * quotes '\' at the end of a line joins without one. On success *end_i
 * and *end are where the closing quote is, past it. */
static int quoted(const struct yamlsub_src *src, size_t i, int col,
		  int parent, struct strbuf *b, size_t *end_i,
		  const char **end)
{
	const char *s = yamlsub_line(src, i, NULL, NULL) + col;
	char q = *s;
	long lineno;
	const char *p = s + 1;

	yamlsub_line(src, i, NULL, &lineno);
	for (;;) {
		size_t keep = b->len;	/* trailing blanks after it fold */
		int joined = 0, empty = 0, ind;
		const char *l;

		for (; *p; p++) {
			if (*p == q) {
				if (q == '\'' && p[1] == '\'') {
					strbuf_addch(b, '\'');
					p++;
					keep = b->len;
					continue;
				}
				*end_i = i;
				*end = p + 1;
				return 0;
			}
			if (q == '"' && *p == '\\') {
				if (!p[1]) {
					joined = 1;
					break;
				}
				p++;
				if (yamlsub_escape(b, &p) < 0)
					return serr(src, lineno, "an unknown "
						    "escape in a double-quoted "
						    "scalar (or \\0, a NUL)");
				p--;
				keep = b->len;
				continue;
			}
			strbuf_addch(b, *p);
			if (*p != ' ' && *p != '\t')
				keep = b->len;
		}
		if (!joined && b->buf) {	/* '\' keeps the blanks before it */
			b->len = keep;
			b->buf[keep] = '\0';
		}
		for (;;) {	/* the next line that is not empty */
			l = yamlsub_line(src, ++i, &ind, &lineno);
			if (!l)
				return serr(src, lineno, "a quoted scalar not "
					    "closed before the end");
			if (!only_space(l))
				break;
			empty++;
		}
		if (ind <= parent)
			return serr(src, lineno, "a quoted scalar not closed "
				    "(the next line is not indented)");
		if (!joined) {
			if (empty)
				while (empty--)
					strbuf_addch(b, '\n');
			else
				strbuf_addch(b, ' ');
		}
		for (p = l; *p == ' ' || *p == '\t'; p++)
			;
	}
}

/* ---- plain scalars over several lines ---- */

/* The end of the plain text at s on one line (a " #" comment cut),
 * trailing blanks dropped. */
static size_t plain_len(const char *s)
{
	size_t n;

	for (n = 0; s[n]; n++)
		if (s[n] == '#' && n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			break;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

static int plain(const struct yamlsub_src *src, size_t i, int col,
		 int parent, cJSON **out)
{
	struct strbuf b = STRBUF_INIT;
	const char *s = yamlsub_line(src, i, NULL, NULL) + col;
	size_t empty = 0;

	strbuf_add(&b, s, plain_len(s));
	for (;;) {
		int ind;
		const char *l = yamlsub_line(src, i + 1 + empty, &ind, NULL);

		if (!l)
			break;
		if (only_space(l)) {
			empty++;
			continue;
		}
		while (*l == ' ' || *l == '\t')
			l++;
		if (ind <= parent || *l == '#')
			break;
		for (const char *c = l; *c && c < l + plain_len(l); c++)
			if (*c == ':' && (c[1] == ' ' || !c[1])) {
				long lineno;

				yamlsub_line(src, i + 1 + empty, NULL, &lineno);
				strbuf_release(&b);
				return serr(src, lineno, "': ' inside a plain "
					    "scalar (bad indentation?)");
			}
		if (empty)
			for (size_t k = 0; k < empty; k++)
				strbuf_addch(&b, '\n');
		else
			strbuf_addch(&b, ' ');
		strbuf_add(&b, l, plain_len(l));
		i += 1 + empty;
		empty = 0;
	}
	yamlsub_set_next(src, i + 1);
	*out = yamlsub_resolve(b.buf ? b.buf : "");
	strbuf_release(&b);
	return 0;
}

/* ---- block scalars: | and > ---- */

static int block(const struct yamlsub_src *src, size_t i, int col,
		 int parent, cJSON **out)
{
	const char *h = yamlsub_line(src, i, NULL, NULL) + col;
	char style = *h, chomp = 'c';
	int want = 0, ind, first = 1, more_prev = 0;
	size_t empty = 0, j;
	struct strbuf b = STRBUF_INIT;
	long lineno;

	yamlsub_line(src, i, NULL, &lineno);
	for (h++; *h && *h != ' ' && *h != '#'; h++) {
		if ((*h == '-' || *h == '+') && chomp == 'c')
			chomp = *h;
		else if (*h >= '1' && *h <= '9' && !want)
			want = (parent < 0 ? 0 : parent) + (*h - '0');
		else
			return serr(src, lineno, "a bad block scalar header");
	}
	if (!only_space(h) && h[strspn(h, " ")] != '#')
		return serr(src, lineno, "text after a block scalar header");
	for (j = i + 1;; j++) {
		const char *l = yamlsub_line(src, j, &ind, &lineno);
		int more;

		if (!l)
			break;
		if (only_space(l) && (!want || (int)strlen(l) <= want)) {
			empty++;
			continue;
		}
		if (!want)
			want = ind;
		if (ind < want || want <= parent) {
			if (ind > parent && !only_space(l)) {
				strbuf_release(&b);
				return serr(src, lineno, "a block scalar line "
					    "less indented than its first");
			}
			break;
		}
		more = l[want] == ' ' || l[want] == '\t';
		if (!first) {
			if (style == '>' && !more && !more_prev && !empty)
				strbuf_addch(&b, ' ');
			else
				strbuf_addch(&b, '\n');
			if (style == '>' && !more && !more_prev && empty)
				empty--;
		}
		while (empty) {
			strbuf_addch(&b, '\n');
			empty--;
		}
		strbuf_addstr(&b, l + want);
		first = 0;
		more_prev = more;
	}
	if (!first && chomp != '-')
		strbuf_addch(&b, '\n');
	if (chomp == '+')
		while (empty--)
			strbuf_addch(&b, '\n');
	yamlsub_set_next(src, j);
	*out = cJSON_CreateString(b.buf ? b.buf : "");
	strbuf_release(&b);
	return 0;
}

/* ---- the entry points ---- */

int yamlsub_scalar_node(const struct yamlsub_src *src, size_t i, int col,
			int parent, cJSON **out)
{
	const char *line = yamlsub_line(src, i, NULL, NULL), *s = line + col;
	const char *end = s;
	struct strbuf b = STRBUF_INIT;
	long lineno;
	size_t end_i = i;
	int rc;

	yamlsub_line(src, i, NULL, &lineno);
	if (*s == '&' || *s == '*' || *s == '!')
		return serr(src, lineno, "an anchor, alias or tag: not read");
	if (*s == '%' || *s == '@' || *s == '`')
		return serr(src, lineno, "a reserved indicator ('%', '@', "
			    "'`') starts a value");
	if (*s == '|' || *s == '>')
		return block(src, i, col, parent, out);
	if (*s == '[' || *s == '{') {
		end = s;
		if ((rc = yamlsub_flow(src, lineno, &end, out)) < 0)
			return rc;
		end_i = i;
	} else if (*s == '\'' || *s == '"') {
		if ((rc = quoted(src, i, col, parent, &b, &end_i, &end)) < 0) {
			strbuf_release(&b);
			return rc;
		}
		*out = cJSON_CreateString(b.buf ? b.buf : "");
		strbuf_release(&b);
	} else {
		return plain(src, i, col, parent, out);
	}
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end && *end != '#') {
		yamlsub_line(src, end_i, NULL, &lineno);
		cJSON_Delete(*out);
		*out = NULL;
		return serr(src, lineno, "text after a quoted scalar or a flow "
			    "collection");
	}
	yamlsub_set_next(src, end_i + 1);
	return 0;
}
