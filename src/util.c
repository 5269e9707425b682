/* Allocation wrappers and string helpers (see util.h). */
#include "src/util.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void oom(size_t n)
{
	fprintf(stderr, "perfcorr: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

int util_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (*end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int util_parse_long(const char *s, long *out)
{
	char *end;
	long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno)
		return -1;
	*out = v;
	return 0;
}

char *util_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	*e = '\0';
	return s;
}

int util_glob(const char *pattern, const char *s)
{
	return fnmatch(pattern, s, 0) == 0;
}

void util_now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

const char *util_user(void)
{
	const char *u = getenv("USER");

	if (!u || !*u)
		u = getenv("LOGNAME");
	return u && *u ? u : "unknown";
}

static size_t safe_put(const unsigned char *s, char *out)
{
	size_t n = 0;
	char tmp[8];

	for (; *s; s++) {
		const char *rep = NULL;
		size_t k;

		if (*s == '\n')
			rep = "\\n";
		else if (*s == '\t')
			rep = "\\t";
		else if (*s == '\r')
			rep = "\\r";
		else if (*s < 0x20 || *s == 0x7f) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", *s);
			rep = tmp;
		} else if (*s == 0xc2 && s[1] >= 0x80 && s[1] < 0xa0) {
			/* C1 controls (U+0080..U+009F) encoded in UTF-8 */
			snprintf(tmp, sizeof(tmp), "\\x%02x", s[1]);
			rep = tmp;
			s++;
		}
		if (!rep) {
			if (out)
				out[n] = (char)*s;
			n++;
			continue;
		}
		k = strlen(rep);
		if (out)
			memcpy(out + n, rep, k);
		n += k;
	}
	return n;
}

char *util_safe_dup(const char *s)
{
	size_t n = safe_put((const unsigned char *)s, NULL);
	char *p = xmalloc(n + 1);

	safe_put((const unsigned char *)s, p);
	p[n] = '\0';
	return p;
}

void util_fputs_safe(const char *s, FILE *fp)
{
	char *p = util_safe_dup(s);

	fputs(p, fp);
	free(p);
}

int util_no_color(void)
{
	return getenv("NO_COLOR") != NULL;
}
