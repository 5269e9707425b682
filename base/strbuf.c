/* Growable string buffer (see strbuf.h). */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void strbuf_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->alloc)
		return;
	sb->alloc = sb->alloc ? sb->alloc : 64;
	while (sb->alloc < need)
		sb->alloc *= 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
}

void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	strbuf_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	strbuf_init(sb);
	return p;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

size_t strbuf_unsafe_cp(const char *str, unsigned *cp)
{
	const unsigned char *s = (const unsigned char *)str;

	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] < 0xa0) {
		*cp = s[1];	/* C1 control */
		return 2;
	}
	if (s[0] == 0xe2 && ((s[1] == 0x80 && s[2] >= 0xaa && s[2] <= 0xae) ||
			     (s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9))) {
		*cp = 0x2000u | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu);
		return 3;	/* bidi embedding/override/isolate */
	}
	return 0;
}

void strbuf_add_json_text(struct strbuf *sb, const char *text)
{
	for (const char *p = text; *p;) {
		unsigned cp;
		size_t n = strbuf_unsafe_cp(p, &cp);

		if (n) {
			strbuf_addf(sb, "\\u%04x", cp);
			p += n;
		} else {
			strbuf_addch(sb, *p++);
		}
	}
}

void strbuf_add_json_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		unsigned cp;
		size_t n;

		if ((n = strbuf_unsafe_cp(s, &cp))) {
			strbuf_addf(sb, "\\u%04x", cp);
			s += n - 1;
		} else if (c == '"' || c == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, (char)c);
		} else if (c == '\n') {
			strbuf_addstr(sb, "\\n");
		} else if (c == '\t') {
			strbuf_addstr(sb, "\\t");
		} else if (c == '\r') {
			strbuf_addstr(sb, "\\r");
		} else if (c < 0x20 || c == 0x7f) {
			strbuf_addf(sb, "\\u%04x", c);
		} else {
			strbuf_addch(sb, (char)c);
		}
	}
	strbuf_addch(sb, '"');
}

void strbuf_add_double(struct strbuf *sb, double v)
{
	char buf[40];

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(sb, buf);
}

void strbuf_add_lines(struct strbuf *sb, const char *s,
		      void (*add)(struct strbuf *, const char *),
		      const char *sep)
{
	struct strbuf line = STRBUF_INIT;
	int first = 1;

	s = s ? s : "";
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		strbuf_reset(&line);
		strbuf_add(&line, s, n && s[n - 1] == '\r' ? n - 1 : n);
		if (!first)
			strbuf_addstr(sb, sep);
		add(sb, strbuf_str(&line));
		first = 0;
		s += n + (nl != NULL);
	}
	strbuf_release(&line);
}
