/* A streaming JSON tokenizer (see jsonstream.h): reads, numbers, words
 * and the grammar's state machine; strings are lexed in
 * jsonstream_str.c, cJSON trees built in jsonstream_tree.c. */
#include "base/jsonstream.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/jsonstream_int.h"
#include "base/util.h"

#define CHUNK (256 * 1024)
#define NUM_MAX 512		/* the longest number token */

struct jsonstream *jsonstream_new(FILE *fp, const char *path, unsigned flags)
{
	struct jsonstream *js = xcalloc(1, sizeof(*js));

	js->fp = fp;
	js->path = path;
	js->flags = flags;
	js->buf = xmalloc(CHUNK);
	js->rsize = CHUNK;
	js->line = 1;
	js->state = ST_VALUE;
	return js;
}

void jsonstream_free(struct jsonstream *js)
{
	if (!js)
		return;
	free(js->buf);
	free(js->s);
	free(js);
}

void jsonstream_set_read_size(struct jsonstream *js, size_t n)
{
	js->rsize = n < 1 ? 1 : n > CHUNK ? CHUNK : n;
}

long long jsonstream_offset(const struct jsonstream *js)
{
	return js->base + (long long)js->pos;
}

/* Keep the unread bytes and read more: 1 when some came, 0 at the end of
 * the input, <0 on a read error. */
int js_fill(struct jsonstream *js)
{
	size_t n;

	if (js->eof)
		return 0;
	if (js->pos > 0) {
		memmove(js->buf, js->buf + js->pos, js->len - js->pos);
		js->base += (long long)js->pos;
		js->len -= js->pos;
		js->pos = 0;
	}
	n = CHUNK - js->len < js->rsize ? CHUNK - js->len : js->rsize;
	n = fread(js->buf + js->len, 1, n, js->fp);
	if (n == 0) {
		if (ferror(js->fp))
			return pc_error_set(PC_EIO, "%s: read error", js->path);
		js->eof = 1;
		return 0;
	}
	js->len += n;
	return 1;
}

/* At least n unread bytes unless the input ends first: 0 or <0. */
int js_need(struct jsonstream *js, size_t n)
{
	int rc;

	while (js->len - js->pos < n) {
		if ((rc = js_fill(js)) <= 0)
			return rc;
	}
	return 0;
}

int js_error_at(struct jsonstream *js, long line, long col, long long byte,
		const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	js->failed = 1;
	return pc_error_set(PC_EINVALID, "%s:%ld:%ld: invalid JSON (byte %lld): "
			    "%s", js->path, line, col, byte, msg);
}

/* An error at the next unread byte, naming it (or the end). */
static int error_here(struct jsonstream *js, const char *what)
{
	long long at = js->base + (long long)js->pos;
	char found[32];

	if (js->pos >= js->len)
		snprintf(found, sizeof(found), "the end of the file");
	else if (js->buf[js->pos] >= 0x20 && js->buf[js->pos] < 0x7f)
		snprintf(found, sizeof(found), "'%c'", js->buf[js->pos]);
	else
		snprintf(found, sizeof(found), "byte 0x%02x",
			 js->buf[js->pos]);
	return js_error_at(js, js->line, (long)(at - js->lstart) + 1, at,
			   "expected %s, found %s", what, found);
}

/* Skip white space: the next byte, 256 at the end, or <0. */
static int skip_ws(struct jsonstream *js)
{
	int rc;

	for (;;) {
		while (js->pos < js->len) {
			unsigned char c = js->buf[js->pos];

			if (c == ' ' || c == '\t' || c == '\r') {
				js->pos++;
			} else if (c == '\n') {
				js->pos++;
				js->line++;
				js->lstart = js->base + (long long)js->pos;
			} else {
				return c;
			}
		}
		if ((rc = js_fill(js)) < 0)
			return rc;
		if (rc == 0)
			return 256;
	}
}

static const double pow10s[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
	1e20, 1e21, 1e22 };

/* A number at pos into t->num: exact (a <= 15-digit mantissa times an
 * exact power of ten is one correctly rounded IEEE operation, as strtod
 * gives), else strtod on the token. */
static int lex_number(struct jsonstream *js, struct jsonstream_tok *t,
		      int store)
{
	const unsigned char *b, *p, *end;
	uint64_t m = 0;
	int neg = 0, digits = 0, frac = 0, exp = 0, eneg = 0, exact = 1, rc;
	char nb[NUM_MAX + 1];
	size_t n;

	if ((rc = js_need(js, NUM_MAX + 1)) < 0)
		return rc;
	b = js->buf + js->pos;
	p = b;
	end = js->buf + js->len;
	if (*p == '-') {
		neg = 1;
		p++;
		if (p < end && *p == 'I' && (js->flags & JSONSTREAM_PYTHON) &&
		    end - p >= 8 && !memcmp(p, "Infinity", 8)) {
			js->pos += 9;
			t->num = -INFINITY;
			return 0;
		}
	}
	if (p < end && *p == '0') {
		p++;
	} else if (p < end && *p >= '1' && *p <= '9') {
		while (p < end && *p >= '0' && *p <= '9') {
			if (digits++ < 18)
				m = m * 10 + (uint64_t)(*p - '0');
			else
				exact = 0;
			p++;
		}
	} else {
		js->pos += (size_t)(p - b);
		return error_here(js, "a digit");
	}
	if (p < end && *p == '.') {
		p++;
		if (p == end || *p < '0' || *p > '9') {
			js->pos += (size_t)(p - b);
			return error_here(js, "a digit after '.'");
		}
		while (p < end && *p >= '0' && *p <= '9') {
			if (digits || *p != '0') {
				if (digits++ < 18)
					m = m * 10 + (uint64_t)(*p - '0');
				else
					exact = 0;
			}
			frac++;
			p++;
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p == end || *p < '0' || *p > '9') {
			js->pos += (size_t)(p - b);
			return error_here(js, "a digit in the exponent");
		}
		while (p < end && *p >= '0' && *p <= '9') {
			if (exp < 100000)
				exp = exp * 10 + (*p - '0');
			p++;
		}
	}
	n = (size_t)(p - b);
	if (n > NUM_MAX)
		return js_error_at(js, js->line, (long)(js->base +
			(long long)js->pos - js->lstart) + 1, js->base +
			(long long)js->pos, "a number longer than %d characters",
			NUM_MAX);
	js->pos += n;
	if (!store)
		return 0;
	exp = (eneg ? -exp : exp) - frac;
	if (exact && m < (1ull << 53) && exp >= -22 && exp <= 22) {
		double d = (double)m;

		d = exp < 0 ? d / pow10s[-exp] : d * pow10s[exp];
		t->num = neg ? -d : d;
		return 0;
	}
	memcpy(nb, b, n);
	nb[n] = '\0';
	t->num = strtod(nb, NULL);
	return 0;
}

/* true, false, null, NaN, Infinity at pos. */
static int lex_word(struct jsonstream *js, struct jsonstream_tok *t)
{
	static const struct {
		const char *w;
		enum jsonstream_type type;
		int python;
	} words[] = {
		{ "true", JS_TRUE, 0 }, { "false", JS_FALSE, 0 },
		{ "null", JS_NULL, 0 }, { "NaN", JS_NUMBER, 1 },
		{ "Infinity", JS_NUMBER, 1 },
	};
	int rc;

	if ((rc = js_need(js, 8)) < 0)
		return rc;
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		size_t n = strlen(words[i].w);

		if (js->len - js->pos < n ||
		    memcmp(js->buf + js->pos, words[i].w, n) ||
		    (words[i].python && !(js->flags & JSONSTREAM_PYTHON)))
			continue;
		js->pos += n;
		t->type = words[i].type;
		if (t->type == JS_NUMBER) {
			t->nan = words[i].w[0] == 'N';
			t->num = t->nan ? NAN : INFINITY;
		}
		return 0;
	}
	return error_here(js, "a value");
}

static void after_value(struct jsonstream *js)
{
	js->state = js->depth ? ST_AFTER : ST_END;
}

static int open_container(struct jsonstream *js, struct jsonstream_tok *t,
			  int obj)
{
	if (js->depth == JSONSTREAM_DEPTH_MAX)
		return js_error_at(js, t->line, t->col, t->byte, "nested "
				   "deeper than %d levels", JSONSTREAM_DEPTH_MAX);
	js->stack[js->depth++] = (unsigned char)obj;
	js->pos++;
	t->type = obj ? JS_OBJECT : JS_ARRAY;
	js->state = obj ? ST_FIRST_KEY : ST_FIRST_VALUE;
	return 0;
}

static int close_container(struct jsonstream *js, struct jsonstream_tok *t)
{
	js->pos++;
	t->type = js->stack[--js->depth] ? JS_OBJECT_END : JS_ARRAY_END;
	t->depth = js->depth;
	after_value(js);
	return 0;
}

static int value(struct jsonstream *js, struct jsonstream_tok *t, int c)
{
	int rc;

	switch (c) {
	case '{':
	case '[':
		return open_container(js, t, c == '{');
	case '"':
		t->type = JS_STRING;
		if ((rc = js_lex_string(js, !js->nostore)) < 0)
			return rc;
		t->str = js->nostore ? "" : js->s;
		t->len = js->nostore ? 0 : js->slen;
		break;
	case '-':
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		t->type = JS_NUMBER;
		if ((rc = lex_number(js, t, !js->nostore)) < 0)
			return rc;
		break;
	default:
		if ((rc = lex_word(js, t)) < 0)
			return rc;
	}
	after_value(js);
	return 0;
}

/* After '{' or ',' in an object: a key and its ':'. */
static int key(struct jsonstream *js, struct jsonstream_tok *t, int c)
{
	int rc;

	if (c != '"')
		return error_here(js, js->state == ST_FIRST_KEY ?
				  "a key (a string) or '}'" :
				  "a key (a string) after ','");
	t->type = JS_KEY;
	if ((rc = js_lex_string(js, 1)) < 0)
		return rc;
	t->str = js->s;
	t->len = js->slen;
	if ((c = skip_ws(js)) < 0)
		return c;
	if (c != ':')
		return error_here(js, "':' after the key");
	js->pos++;
	js->state = ST_VALUE;
	return 0;
}

static int first_token(struct jsonstream *js)
{
	int rc;

	js->started = 1;
	if ((rc = js_need(js, 3)) < 0)
		return rc;
	if (js->len >= 3 && !memcmp(js->buf, "\xef\xbb\xbf", 3)) {
		js->pos = 3;
		js->lstart = 3;
	}
	return 0;
}

int jsonstream_next(struct jsonstream *js, struct jsonstream_tok *t)
{
	int c, rc;

	if (js->failed)
		return PC_EINVALID;
	if (!js->started && (rc = first_token(js)) < 0)
		return rc;
	for (;;) {
		if ((c = skip_ws(js)) < 0)
			return c;
		memset(t, 0, sizeof(*t));
		t->line = js->line;
		t->byte = js->base + (long long)js->pos;
		t->col = (long)(t->byte - js->lstart) + 1;
		t->depth = js->depth;
		if (js->state == ST_END) {
			if (c == 256) {
				t->type = JS_EOF;
				return 0;
			}
			if (!(js->flags & JSONSTREAM_MULTI))
				return error_here(js, "the end of the file "
						  "after the document");
			js->state = ST_VALUE;
		}
		if (c == 256) {
			if (js->state == ST_VALUE && js->depth == 0 &&
			    !js->ndocs) {
				t->type = JS_EOF;
				js->state = ST_END;
				return 0;
			}
			return error_here(js, js->state == ST_VALUE ||
					  js->state == ST_FIRST_VALUE ?
					  "a value" : js->state != ST_AFTER ?
					  "a key (a string)" :
					  js->stack[js->depth - 1] ?
					  "more of an object (',' or '}')" :
					  "more of an array (',' or ']')");
		}
		if (c == 0)
			return error_here(js, "a value (a NUL byte: not a text "
					  "file)");
		switch (js->state) {
		case ST_FIRST_VALUE:
			if (c == ']')
				return close_container(js, t);
			/* fall through */
		case ST_VALUE:
			if (js->depth == 0)
				js->ndocs++;
			return value(js, t, c);
		case ST_FIRST_KEY:
			if (c == '}')
				return close_container(js, t);
			/* fall through */
		case ST_KEY:
			return key(js, t, c);
		default:	/* ST_AFTER */
			if (c == (js->stack[js->depth - 1] ? '}' : ']'))
				return close_container(js, t);
			if (c != ',')
				return error_here(js, js->stack[js->depth - 1] ?
						  "',' or '}' after a member" :
						  "',' or ']' after an element");
			js->pos++;
			js->state = js->stack[js->depth - 1] ? ST_KEY :
				    ST_VALUE;
		}
	}
}

int jsonstream_skip(struct jsonstream *js, const struct jsonstream_tok *tok)
{
	struct jsonstream_tok t;
	int rc = 0;

	if (tok->type != JS_OBJECT && tok->type != JS_ARRAY)
		return 0;
	js->nostore = 1;
	for (;;) {
		if ((rc = jsonstream_next(js, &t)) < 0)
			break;
		if ((t.type == JS_OBJECT_END || t.type == JS_ARRAY_END) &&
		    t.depth == tok->depth)
			break;
	}
	js->nostore = 0;
	return rc;
}
