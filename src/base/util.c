/* Allocation wrappers and string helpers (see util.h). */
#include "src/base/util.h"

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
	/* strtod reads hexadecimal ("0x10" = 16): no tool writes a
	 * measurement that way, and a mangled cell must not become one */
	if ((s[0] == '+' || s[0] == '-') ? (s[1] == '0' &&
	    (s[2] == 'x' || s[2] == 'X')) : (s[0] == '0' &&
	    (s[1] == 'x' || s[1] == 'X')))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s)
		return -1;
	/* a non-zero number below the smallest double ("1e-400") would be
	 * stored as 0 */
	if (errno == ERANGE && v == 0)
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

/*
 * glibc's regcomp expands bounded and '+' repetition by copying the
 * repeated subtree, so "((a{99}){99}){99}" or 40 nested "(...)+" need
 * gigabytes. Estimate the expanded size of an ERE (sum over a sequence,
 * x2 for '+', x max(m, n) for {m,n}) and refuse patterns that would not
 * fit in RE_MAX_NODES, or that stack repetitions, before regcomp sees
 * them. Found by fuzz_kmap; used for every user-supplied regex.
 */
#define RE_MAX_NODES 100000.0

static double re_seq(const char **pp, int depth);

static const char *re_bracket(const char *p)
{
	p++;				/* '[' */
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (p[0] == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			char close = p[1];

			p += 2;
			while (*p && !(p[0] == close && p[1] == ']'))
				p++;
			if (*p)
				p += 2;
			continue;
		}
		p++;
	}
	return *p ? p + 1 : p;
}

static double re_quant(const char **pp, double size)
{
	const char *p = *pp;
	int n = 0;

	for (;; n++) {
		if (n == 1 && (*p == '*' || *p == '?' || *p == '+' ||
			       *p == '{')) {
			/* "a+*", "a{2}+": undefined in POSIX, and glibc's
			 * epsilon closure over stacked repeats takes seconds */
			size = RE_MAX_NODES * 2;
			break;
		}
		if (*p == '*' || *p == '?') {
			p++;
		} else if (*p == '+') {
			size *= 2;
			p++;
		} else if (*p == '{') {
			char *end;
			double lo = strtod(p + 1, &end), hi = lo;

			if (*end == ',')
				hi = end[1] == '}' ? lo + 1 : strtod(end + 1, &end);
			while (*end && *end != '}')
				end++;
			size *= (hi > lo ? hi : lo) > 1 ? (hi > lo ? hi : lo) : 1;
			p = *end ? end + 1 : end;
		} else {
			break;
		}
		if (size > RE_MAX_NODES)
			break;
	}
	*pp = p;
	return size;
}

/* Expanded size of a sequence up to ')' or the end; alternatives add. */
static double re_seq(const char **pp, int depth)
{
	const char *p = *pp;
	double total = 0, atom;

	while (*p && *p != ')' && total <= RE_MAX_NODES) {
		if (*p == '|' || *p == '^' || *p == '$') {
			p++;
			continue;
		}
		if (*p == '(') {
			p++;
			atom = depth > 100 ? RE_MAX_NODES * 2 : re_seq(&p, depth + 1);
			if (*p == ')')
				p++;
		} else if (*p == '[') {
			p = re_bracket(p);
			atom = 1;
		} else {
			p += p[0] == '\\' && p[1] ? 2 : 1;
			atom = 1;
		}
		total += re_quant(&p, atom + 1);
	}
	*pp = p;
	return total;
}

int util_regex_too_big(const char *re)
{
	double n = 0;

	if (strlen(re) > 4096)
		return 1;
	while (*re && n <= RE_MAX_NODES) {
		n += re_seq(&re, 0);
		if (*re == ')')
			re++;
	}
	return n > RE_MAX_NODES;
}
