/* Allocation wrappers and string helpers (see util.h). */
#define _DEFAULT_SOURCE	/* madvise, MADV_HUGEPAGE (Linux) */
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pwd.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"

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

#define HUGE_PAGE ((size_t)2 << 20)

void *xmalloc_big(size_t n)
{
	void *p = NULL;

	if (n < 2 * HUGE_PAGE)
		return xmalloc(n);
	/* aligned to a huge page, so that all of it can be one */
	if (posix_memalign(&p, HUGE_PAGE, n) != 0)
		oom(n);
#ifdef MADV_HUGEPAGE
	/* only advice: a kernel without (or with them off) ignores it */
	madvise(p, n & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
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

void *xgrow(void *v, size_t *cap, size_t len, size_t size)
{
	if (len < *cap)
		return v;
	*cap = *cap < 8 ? 16 : *cap * 2;
	if (*cap > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(v, *cap * size);
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

size_t util_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof(size_t)), r;

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	r = row[lb];
	free(row);
	return r;
}

const char *util_did_you_mean(const char *want, const char *const *names,
			      size_t n)
{
	size_t lim = strlen(want) / 3, bd = (size_t)-1;
	const char *best = NULL;

	if (lim < 2)
		lim = 2;
	for (size_t i = 0; i < n; i++) {
		size_t d = util_edit_distance(want, names[i]);

		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return bd <= lim ? best : NULL;
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

	static char pwname[256];

	if (!u || !*u)
		u = getenv("LOGNAME");
	if (u && *u)
		return u;
	/* containers and CI often set neither: the password database */
	if (!pwname[0]) {
		struct passwd *pw = getpwuid(getuid());

		if (pw && pw->pw_name && *pw->pw_name)
			snprintf(pwname, sizeof(pwname), "%s", pw->pw_name);
	}
	return pwname[0] ? pwname : "unknown";
}

/* Length of the valid UTF-8 sequence at s and its code point; 0 when
 * the bytes are not valid UTF-8 (a stray byte, an overlong form ...). */
static size_t utf8_seq(const unsigned char *s, unsigned long *cp)
{
	size_t n;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, *cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, *cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, *cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return n;
}

/* The one escaping rule for every name printed to a terminal or a
 * text file: C0 controls and DEL, C1 controls (UTF-8 encoded or raw
 * bytes), bytes that are not UTF-8, and the bidi embedding, override
 * and isolate controls (U+202A..U+202E, U+2066..U+2069: they reorder
 * what a reader sees) become visible escapes. */
static size_t safe_put(const unsigned char *s, char *out)
{
	size_t n = 0;
	char tmp[16];

	while (*s) {
		unsigned long cp;
		size_t len = utf8_seq(s, &cp), k;
		const char *rep = NULL;

		if (len == 0) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", *s);
			rep = tmp;
			len = 1;
		} else if (cp == '\n') {
			rep = "\\n";
		} else if (cp == '\t') {
			rep = "\\t";
		} else if (cp == '\r') {
			rep = "\\r";
		} else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
			snprintf(tmp, sizeof(tmp), "\\x%02lx", cp);
			rep = tmp;
		} else if ((cp >= 0x202a && cp <= 0x202e) ||
			   (cp >= 0x2066 && cp <= 0x2069)) {
			snprintf(tmp, sizeof(tmp), "\\u%04lx", cp);
			rep = tmp;
		}
		if (!rep) {
			if (out)
				memcpy(out + n, s, len);
			n += len;
			s += len;
			continue;
		}
		k = strlen(rep);
		if (out)
			memcpy(out + n, rep, k);
		n += k;
		s += len;
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

void util_fprintf_safe(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	char spec[32], buf[512];

	va_start(ap, fmt);
	for (const char *p = fmt; *p; p++) {
		const char *q = p + 1;
		size_t k;
		int lng = 0, size = 0;

		if (*p != '%') {
			fputc(*p, fp);
			continue;
		}
		if (*q == '%') {
			fputc('%', fp);
			p = q;
			continue;
		}
		while (*q && strchr("-+ #0123456789.", *q))
			q++;
		for (; *q == 'l'; q++)
			lng++;
		if (*q == 'z')
			size = 1, q++;
		k = (size_t)(q + 1 - p);
		if (!*q || k >= sizeof(spec))
			break;		/* a programming error: stop */
		memcpy(spec, p, k);
		spec[k] = '\0';
		switch (*q) {
		case 's': {
			const char *a = va_arg(ap, const char *);
			char *s = util_safe_dup(a ? a : "");

			spec[k - 1] = 's';
			fprintf(fp, spec, s);
			free(s);
			break;
		}
		case 'd': case 'i': case 'u': case 'x':
			if (size)
				snprintf(buf, sizeof(buf), spec,
					 va_arg(ap, size_t));
			else if (lng >= 2)
				snprintf(buf, sizeof(buf), spec,
					 va_arg(ap, long long));
			else if (lng)
				snprintf(buf, sizeof(buf), spec,
					 va_arg(ap, long));
			else
				snprintf(buf, sizeof(buf), spec,
					 va_arg(ap, int));
			fputs(buf, fp);
			break;
		case 'f': case 'g': case 'e':
			snprintf(buf, sizeof(buf), spec, va_arg(ap, double));
			fputs(buf, fp);
			break;
		case 'c':
			snprintf(buf, sizeof(buf), "%c", va_arg(ap, int));
			util_fputs_safe(buf, fp);
			break;
		default:
			goto out;	/* unsupported: a programming error */
		}
		p = q;
	}
out:
	va_end(ap);
}

int util_fopen_regular(FILE **out, const char *path, const char *what)
{
	const char *sp = what ? " " : "";
	struct stat sb;
	int fd, fl;

	*out = NULL;
	what = what ? what : "";
	/* non-blocking: opening a FIFO without a writer must not hang */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return pc_error_set(PC_EIO, "cannot open %s%s'%s': %s", what,
				    sp, path, strerror(errno));
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return pc_error_set(PC_EINVALID, "%s%s'%s' is not a regular "
			"file (a pipe, device, directory or <(...)): perfcorr "
			"reads files it can hash and re-read; save it to a "
			"file first%s", what, sp, path, *what ? "" :
			" (or pipe it into 'perfcorr import -')");
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ||
	    !(*out = fdopen(fd, "rb"))) {
		int e = errno;

		close(fd);
		return pc_error_set(PC_EIO, "cannot open %s%s'%s': %s", what,
				    sp, path, strerror(e));
	}
	return 0;
}
