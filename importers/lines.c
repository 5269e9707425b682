/* The line reader of the text importers (see lines.h). */
#include "importers/lines.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "importers/importer.h"
#include "base/error.h"
#include "base/util.h"

void lines_init(struct lines *l, FILE *fp, const char *path)
{
	memset(l, 0, sizeof(*l));
	l->fp = fp;
	l->path = path;
	l->max = LINES_MAX;
}

void lines_release(struct lines *l)
{
	free(l->buf);
	l->buf = NULL;
	l->cap = 0;
}

int lines_read(struct lines *l, char **out)
{
	size_t len = 0;
	int ch, any = 0;

	if (l->cut)
		return pc_error_set(PC_EINVALID, "%s:%ld: the last line has no "
				    "line end (a cut file? if the file is "
				    "whole, end it with a newline)", l->path,
				    l->line);
	if (!l->buf) {
		l->cap = 256;
		l->buf = xmalloc(l->cap);
	}
	while ((ch = getc_unlocked(l->fp)) != EOF) {
		any = 1;
		if (ch == '\n')
			break;
		if (ch == 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: NUL byte in "
					    "a text file", l->path,
					    l->line + 1);
		if (len >= l->max)
			return pc_error_set(PC_EINVALID, "%s:%ld: line longer "
					    "than %zu bytes", l->path,
					    l->line + 1, l->max);
		if (len + 1 >= l->cap) {
			l->cap *= 2;
			l->buf = xrealloc(l->buf, l->cap);
		}
		l->buf[len++] = (char)ch;
	}
	if (ferror(l->fp))
		return pc_error_set(PC_EIO, "%s:%ld: read error: %s", l->path,
				    l->line + 1, strerror(errno));
	if (!any)
		return 0;
	if (len && l->buf[len - 1] == '\r')
		len--;
	l->buf[len] = '\0';
	l->line++;
	/* refused at the next read: the reader's own check of the line
	 * ("expected 4 values, found 2") speaks first */
	l->cut = l->whole && ch == EOF && l->buf[strspn(l->buf, " \t")];
	if (l->line == 1 && !strncmp(l->buf, "\xef\xbb\xbf", 3))
		memmove(l->buf, l->buf + 3, len - 2);
	*out = l->buf;
	return 1;
}

static long each(FILE *fp, const char *path, int whole,
		 int (*fn)(void *ctx, long line, char *s), void *ctx)
{
	struct lines l;
	char *s;
	int rc;

	lines_init(&l, fp, path);
	l.whole = whole;
	while ((rc = lines_read(&l, &s)) > 0)
		if ((rc = fn(ctx, l.line, s)) < 0)
			break;
	lines_release(&l);
	return rc < 0 ? rc : l.line;
}

long lines_each_fp(FILE *fp, const char *path,
		   int (*fn)(void *ctx, long line, char *s), void *ctx)
{
	return each(fp, path, 0, fn, ctx);
}

static int each_in(const struct imp_input *in, int whole,
		   int (*fn)(void *ctx, long line, char *s), void *ctx)
{
	long n = each(in->fp, in->path, whole, fn, ctx);

	return n < 0 ? (int)n : n > 0x7fffffffL ? 0x7fffffff : (int)n;
}

int lines_each(const struct imp_input *in,
	       int (*fn)(void *ctx, long line, char *s), void *ctx)
{
	return each_in(in, 0, fn, ctx);
}

int lines_each_whole(const struct imp_input *in,
		     int (*fn)(void *ctx, long line, char *s), void *ctx)
{
	return each_in(in, 1, fn, ctx);
}

const char *lines_after(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, prefix, n))
		return NULL;
	s += n;
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int lines_number(const char *s, double *out, const char **end,
		 int allow_special)
{
	char *e;
	double v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!allow_special) {
		const char *p = s + (*s == '-' || *s == '+');

		if (!isdigit((unsigned char)*p) &&
		    !(*p == '.' && isdigit((unsigned char)p[1])))
			return -1;
	}
	errno = 0;
	v = strtod(s, &e);
	if (e == s || errno == ERANGE)
		return -1;
	*out = v;
	*end = e;
	return 0;
}

static int unit_char(const char *u, size_t n)
{
	unsigned char c = (unsigned char)u[n];

	if (isalpha(c) || c == '%' || c == '/' || c >= 0x80)
		return 1;
	/* digits only after a letter: "m2" */
	return n > 0 && isdigit(c) && isalpha((unsigned char)u[n - 1]);
}

int lines_quantity(const char *s, double *out, char *unit, size_t ulen,
		   const char **end)
{
	const char *e;
	size_t n = 0;

	if (!ulen || lines_number(s, out, &e, 0) < 0 || !isfinite(*out))
		return -1;
	while (*e == ' ' || *e == '\t')
		e++;
	while (e[n] && unit_char(e, n))
		n++;
	if (n >= ulen)
		return -1;
	memcpy(unit, e, n);
	unit[n] = '\0';
	if (end)
		*end = e + n;
	return 0;
}
