/* Streaming CSV reader (see csv.h). */
#include "base/csv.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#define DEFAULT_MAX (16u << 20)

void csv_init(struct csv *c, FILE *fp, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->fp = fp;
	c->path = path;
	c->sep = ',';
	c->max_record = DEFAULT_MAX;
	c->next_line = 1;
}

void csv_release(struct csv *c)
{
	free(c->rec);
	free(c->offs);
	free(c->fields);
	c->rec = NULL;
	c->offs = NULL;
	c->fields = NULL;
}

static int fill(struct csv *c)
{
	if (c->eof)
		return 0;
	c->ilen = fread(c->ibuf, 1, sizeof(c->ibuf), c->fp);
	c->ipos = 0;
	if (c->ilen == 0) {
		c->eof = 1;
		return 0;
	}
	return 1;
}

/* Next byte, or -1 at EOF. */
static inline int next(struct csv *c)
{
	if (c->ipos == c->ilen && !fill(c))
		return -1;
	return (unsigned char)c->ibuf[c->ipos++];
}

static inline int peek(struct csv *c)
{
	if (c->ipos == c->ilen && !fill(c))
		return -1;
	return (unsigned char)c->ibuf[c->ipos];
}

static int put(struct csv *c, int ch)
{
	if (c->rlen + 1 >= c->rcap) {
		if (c->rcap >= c->max_record)
			return pc_error_set(PC_EINVALID, "%s:%ld: record longer "
				"than %zu bytes", c->path, c->line,
				c->max_record);
		c->rcap = c->rcap ? c->rcap * 2 : 1024;
		c->rec = xrealloc(c->rec, c->rcap);
	}
	c->rec[c->rlen++] = (char)ch;
	return 0;
}

/* put() of n bytes at once (same limit, same message). */
static int put_n(struct csv *c, const char *p, size_t n)
{
	while (c->rlen + n >= c->rcap) {
		if (c->rcap >= c->max_record)
			return pc_error_set(PC_EINVALID, "%s:%ld: record longer "
				"than %zu bytes", c->path, c->line,
				c->max_record);
		c->rcap = c->rcap ? c->rcap * 2 : 1024;
		c->rec = xrealloc(c->rec, c->rcap);
	}
	memcpy(c->rec + c->rlen, p, n);
	c->rlen += n;
	return 0;
}

/* Length of the run of plain bytes (no separator, line end, quote or
 * NUL) at the read position: copied in one go by csv_read. */
static size_t plain_run(const struct csv *c)
{
	const char *p = c->ibuf + c->ipos, *end = c->ibuf + c->ilen;
	const char *q = p;
	char sep = c->sep;

	while (q < end && *q != sep && *q != '\n' && *q != '\r' && *q != '"' &&
	       *q != '\0')
		q++;
	return (size_t)(q - p);
}

static void end_field(struct csv *c, size_t start, int quoted)
{
	if (c->nfields == c->fcap) {
		c->fcap = c->fcap ? c->fcap * 2 : 32;
		c->offs = xrealloc(c->offs, c->fcap * sizeof(*c->offs));
	}
	if (c->trim_space && !quoted) {
		while (c->rlen > start && isspace((unsigned char)c->rec[c->rlen - 1]))
			c->rlen--;
	}
	c->offs[c->nfields++] = start;
	c->rec[c->rlen++] = '\0';	/* room reserved by put() */
}

/* A NUL inside a field would silently cut every string made of it. */
static int nul_byte(const struct csv *c)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: a NUL byte inside a field "
			    "(a name would be cut there): not a text file?",
			    c->path, c->next_line);
}

int csv_read(struct csv *c)
{
	int ch, rc, quoted = 0, any = 0;
	size_t start = 0;

	if (c->whole && c->unended && !csv_blank(c))
		return pc_error_set(PC_EINVALID, "%s:%ld: the last row has no "
				    "line end (a cut file? if the file is "
				    "whole, end it with a newline)", c->path,
				    c->line);
	c->rlen = 0;
	c->nfields = 0;
	c->line = c->next_line;
	if (!c->started) {
		c->started = 1;
		if (peek(c) == 0xef) {	/* UTF-8 BOM */
			next(c);
			if (peek(c) == 0xbb) {
				next(c);
				if (peek(c) == 0xbf)
					next(c);
			}
		}
	}
	if (peek(c) < 0)
		return 0;
	for (;;) {
		size_t k = plain_run(c);

		if (k) {
			if ((rc = put_n(c, c->ibuf + c->ipos, k)) < 0)
				return rc;
			c->ipos += k;
			continue;
		}
		ch = next(c);
		if (ch < 0 || ch == '\n' || ch == '\r') {
			if (ch == '\r' && peek(c) == '\n')
				next(c);
			if ((rc = put(c, 0)) < 0)	/* reserve the NUL */
				return rc;
			c->rlen--;
			end_field(c, start, quoted);
			if (ch >= 0)
				c->next_line++;
			c->unended = ch < 0;
			break;
		}
		any = 1;
		if (ch == 0)
			return nul_byte(c);
		if (ch == c->sep) {
			if ((rc = put(c, 0)) < 0)
				return rc;
			c->rlen--;
			end_field(c, start, quoted);
			start = c->rlen;
			quoted = 0;
			if (c->trim_space)
				while (peek(c) == ' ' || peek(c) == '\t')
					next(c);
			continue;
		}
		if (ch == '"' && c->rlen == start) {
			quoted = 1;
			for (;;) {
				ch = next(c);
				if (ch < 0)
					return pc_error_set(PC_EINVALID, "%s:%ld: "
						"unterminated quoted field",
						c->path, c->line);
				if (ch == '"') {
					if (peek(c) != '"')
						break;
					next(c);
				}
				if (ch == '\n')
					c->next_line++;
				if (ch == 0)
					return nul_byte(c);
				if ((rc = put(c, ch)) < 0)
					return rc;
			}
			continue;
		}
		if ((rc = put(c, ch)) < 0)
			return rc;
	}
	(void)any;
	if (c->fcap > 0) {
		c->fields = xrealloc(c->fields, c->fcap * sizeof(*c->fields));
		for (size_t i = 0; i < c->nfields; i++)
			c->fields[i] = c->rec + c->offs[i];
	}
	return 1;
}

int csv_blank(const struct csv *c)
{
	const char *p;

	if (c->nfields != 1)
		return 0;
	for (p = c->fields[0]; *p; p++)
		if (!isspace((unsigned char)*p))
			return 0;
	return 1;
}

int csv_col(const struct csv *c, const char *name)
{
	for (size_t i = 0; i < c->nfields; i++) {
		const char *f = c->fields[i];
		size_t n;

		while (isspace((unsigned char)*f))
			f++;
		n = strlen(f);
		while (n && isspace((unsigned char)f[n - 1]))
			n--;
		if (n == strlen(name) && !strncmp(f, name, n))
			return (int)i;
	}
	return -1;
}

long long csv_offset(const struct csv *c)
{
	long long pos = ftell(c->fp);

	return pos < 0 ? 0 : pos - (long long)(c->ilen - c->ipos);
}

int csv_is_missing(const char *s)
{
	static const char *const miss[] = { "N/A", "[N/A]", "n/a", "NA", "nan",
		"NaN", "-nan", "-", "None", "null", NULL };
	char buf[16];
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0)
		return 1;
	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (int i = 0; miss[i]; i++)
		if (!strcmp(buf, miss[i]))
			return 1;
	return 0;
}

int csv_number(const char *s, double *out)
{
	char buf[128];
	size_t j = 0;

	/* no missing-value spelling starts with a digit */
	if (!isdigit((unsigned char)*s) && csv_is_missing(s)) {
		*out = NAN;
		return 0;
	}
	for (; *s && j < sizeof(buf) - 1; s++)
		if (*s != ',')
			buf[j++] = *s;
	if (*s)
		return -1;
	buf[j] = '\0';
	return util_parse_double(buf, out);
}

/* A number as perfcorr writes one ("-1.5", "2e-06", "-inf"): not text a
 * spreadsheet would run as a formula. */
static int plain_number(const char *s)
{
	int digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	if (!strcmp(s, "inf") || !strcmp(s, "nan"))
		return 1;
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return 0;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return *s == '\0';
}

void csv_cell(struct strbuf *sb, const char *s)
{
	/* OWASP "CSV injection": a text cell a spreadsheet would evaluate
	 * (=, +, -, @, or a tab/CR before them) gets a leading quote */
	int formula = s[0] && strchr("=+-@\t\r", s[0]) && !plain_number(s);

	if (formula || strpbrk(s, ",\"\r\n") ||
	    (*s && (s[0] == ' ' || s[strlen(s) - 1] == ' '))) {
		strbuf_addch(sb, '"');
		if (formula)
			strbuf_addch(sb, '\'');
		for (; *s; s++) {
			if (*s == '"')
				strbuf_addch(sb, '"');
			strbuf_addch(sb, *s);
		}
		strbuf_addch(sb, '"');
	} else {
		strbuf_addstr(sb, s);
	}
}

void csv_unquote_formula(char *s)
{
	if (s[0] == '\'' && s[1] && strchr("=+-@\t\r", s[1]) &&
	    !plain_number(s + 1))
		memmove(s, s + 1, strlen(s));
}
