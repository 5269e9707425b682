/* Strings of the streaming JSON reader (see jsonstream.h): escapes,
 * \u and surrogate pairs decoded into js->s, or only checked. */
#include "base/jsonstream.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/jsonstream_int.h"
#include "base/util.h"

static void sadd(struct jsonstream *js, const void *p, size_t n)
{
	if (js->slen + n + 1 > js->scap) {
		while (js->slen + n + 1 > js->scap)
			js->scap = js->scap < 64 ? 256 : js->scap * 2;
		js->s = xrealloc(js->s, js->scap);
	}
	memcpy(js->s + js->slen, p, n);
	js->slen += n;
}

static int hex4(const unsigned char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		unsigned c = p[i];

		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -1;
		v = v << 4 | c;
	}
	*out = v;
	return 0;
}

static void add_utf8(struct jsonstream *js, unsigned cp)
{
	unsigned char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (unsigned char)(0xc0 | cp >> 6);
		u[1] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (unsigned char)(0xe0 | cp >> 12);
		u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (unsigned char)(0xf0 | cp >> 18);
		u[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		u[3] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	sadd(js, u, n);
}

/* The escape at pos (a backslash, 2+ bytes there): 0, 1 when the input
 * ends inside it, <0. */
static int escape(struct jsonstream *js, int store)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	long long at = js->base + (long long)js->pos;
	long col = (long)(at - js->lstart) + 1;
	unsigned char c = js->buf[js->pos + 1];
	const char *e = c ? strchr(from, c) : NULL;
	unsigned cp, lo;
	int rc;

	if (e) {
		if (store)
			sadd(js, &to[e - from], 1);
		js->pos += 2;
		return 0;
	}
	if (c != 'u')
		return js_error_at(js, js->line, col, at, "expected an escape "
				   "(\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) "
				   "in a string");
	if ((rc = js_need(js, 6)) < 0)
		return rc;
	if (js->len - js->pos < 6)
		return 1;
	if (hex4(js->buf + js->pos + 2, &cp) < 0)
		return js_error_at(js, js->line, col, at, "expected four hex "
				   "digits after \\u");
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return js_error_at(js, js->line, col, at, "a lone UTF-16 low "
				   "surrogate \\u%04x", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		const unsigned char *q;
		size_t have;

		if ((rc = js_need(js, 12)) < 0)
			return rc;
		q = js->buf + js->pos + 6;
		have = js->len - js->pos - 6;
		/* the input ends inside it: "not closed" unless what is
		 * there already is no low surrogate */
		if (have < 6 && (have < 1 || q[0] == '\\') &&
		    (have < 2 || q[1] == 'u'))
			return 1;
		if (have < 6 || q[0] != '\\' || q[1] != 'u' ||
		    hex4(q + 2, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
			return js_error_at(js, js->line, col, at, "a UTF-16 "
					   "high surrogate \\u%04x not followed "
					   "by a low one", cp);
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		js->pos += 6;
	}
	js->pos += 6;
	if (store)
		add_utf8(js, cp);
	return 0;
}

/* A string from the quote at pos into js->s (when store). */
int js_lex_string(struct jsonstream *js, int store)
{
	long line = js->line;
	long long at = js->base + (long long)js->pos;
	long col = (long)(at - js->lstart) + 1;
	int rc;

	js->slen = 0;
	js->pos++;
	for (;;) {
		const unsigned char *b = js->buf;
		size_t i = js->pos;
		unsigned char c;

		while (i < js->len && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20)
			i++;
		if (store)
			sadd(js, b + js->pos, i - js->pos);
		js->pos = i;
		if (store && js->slen > JSONSTREAM_STRING_MAX)
			return js_error_at(js, line, col, at, "a string longer "
					   "than %u MiB", JSONSTREAM_STRING_MAX
					   >> 20);
		if (i == js->len || (b[i] == '\\' && js->len - i < 2)) {
			if ((rc = js_fill(js)) < 0)
				return rc;
			if (rc == 0)
				break;
			continue;
		}
		c = b[i];
		if (c == '"') {
			js->pos++;
			if (store)
				js->s[js->slen] = '\0';
			return 0;
		}
		if (c == '\\') {
			if ((rc = escape(js, store)) < 0)
				return rc;
			if (rc == 1)
				break;
			continue;
		}
		/* a raw control character: accepted (as cJSON did), but not
		 * NUL, which no text file holds */
		if (c == 0)
			return js_error_at(js, js->line, (long)(js->base +
				(long long)i - js->lstart) + 1, js->base +
				(long long)i, "a NUL byte (not a text file)");
		if (store)
			sadd(js, &c, 1);
		js->pos++;
		if (c == '\n') {
			js->line++;
			js->lstart = js->base + (long long)js->pos;
		}
	}
	/* where cJSON put it: just after the opening quote */
	return js_error_at(js, line, col + 1, at + 1, "a string not closed "
			   "before the end of the file");
}
