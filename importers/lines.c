/* Bounded line reader for log importers (see lines.h). */
#include "importers/lines.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/error.h"
#include "src/base/util.h"

void lines_init(struct lines *l, FILE *fp, const char *path)
{
	memset(l, 0, sizeof(*l));
	l->fp = fp;
	l->path = path;
	l->max = 1u << 20;
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

	if (!l->buf) {
		l->cap = 256;
		l->buf = xmalloc(l->cap);
	}
	while ((ch = getc_unlocked(l->fp)) != EOF) {
		any = 1;
		if (ch == '\n')
			break;
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
	if (l->line == 1 && !strncmp(l->buf, "\xef\xbb\xbf", 3))
		memmove(l->buf, l->buf + 3, len - 2);
	*out = l->buf;
	return 1;
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
