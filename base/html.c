/* Escaping for HTML, XHTML and SVG text (see html.h). */
#include "base/html.h"

#include <stdio.h>
#include <strings.h>
#include <string.h>

#include "base/strbuf.h"

size_t html_utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	unsigned long cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	/* noncharacters U+FFFE/U+FFFF are not XML characters */
	if (cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

static void add_control(struct strbuf *sb, unsigned c)
{
	if (c == '\n')
		strbuf_addstr(sb, "\\n");
	else if (c == '\t')
		strbuf_addstr(sb, "\\t");
	else if (c == '\r')
		strbuf_addstr(sb, "\\r");
	else
		strbuf_addf(sb, "\\x%02x", c);
}

void html_escape(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	while (*s) {
		size_t n = html_utf8_len(s);
		unsigned cp;

		if (n == 0) {
			strbuf_addstr(sb, "\xef\xbf\xbd");	/* U+FFFD */
			s++;
			continue;
		}
		if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) {
			add_control(sb, s[1]);	/* C1 control */
		} else if (n == 3 && strbuf_unsafe_cp((const char *)s, &cp)) {
			/* a bidi control would reorder the page: shown */
			strbuf_addf(sb, "\\u%04x", cp);
		} else if (n > 1) {
			strbuf_add(sb, (const char *)s, n);
		} else if (*s < 0x20 || *s == 0x7f) {
			add_control(sb, *s);
		} else {
			switch (*s) {
			case '&': strbuf_addstr(sb, "&amp;"); break;
			case '<': strbuf_addstr(sb, "&lt;"); break;
			case '>': strbuf_addstr(sb, "&gt;"); break;
			case '"': strbuf_addstr(sb, "&quot;"); break;
			case '\'': strbuf_addstr(sb, "&#39;"); break;
			default: strbuf_addch(sb, (char)*s);
			}
		}
		s += n;
	}
}

char *html_escape_dup(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	html_escape(&sb, s);
	return strbuf_detach(&sb);
}

char *html_utf8_fix(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	struct strbuf sb = STRBUF_INIT;
	size_t i, n;

	for (i = 0; s[i]; i += n)
		if (!(n = html_utf8_len(s + i)))
			break;
	if (!s[i])
		return NULL;
	strbuf_add(&sb, str, i);
	for (; s[i]; i += n ? n : 1) {
		n = html_utf8_len(s + i);
		if (n)
			strbuf_add(&sb, (const char *)s + i, n);
		else
			strbuf_addstr(&sb, "\xef\xbf\xbd");
	}
	return strbuf_detach(&sb);
}

int html_link_ok(const char *s)
{
	if (!s || (strncasecmp(s, "http://", 7) && strncasecmp(s, "https://", 8)))
		return 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= 0x20 || *p == 0x7f)
			return 0;
	return 1;
}
