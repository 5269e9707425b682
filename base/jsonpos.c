/* Positions of JSON paths in text (see jsonpos.h). */
#include "base/jsonpos.h"

#include <string.h>

struct scan {
	const char *text;
	size_t len;
};

static int is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

static size_t ws(const struct scan *c, size_t i)
{
	while (i < c->len && is_ws(c->text[i]))
		i++;
	return i;
}

static size_t skip_string(const struct scan *c, size_t i)
{
	for (i++; i < c->len && c->text[i] != '"'; i++)
		if (c->text[i] == '\\')
			i++;
	return i + 1;
}

static size_t skip_value(const struct scan *c, size_t i)
{
	int depth = 0;

	while (i < c->len) {
		char ch = c->text[i];

		if (ch == '"') {
			i = skip_string(c, i);
			if (!depth)
				return i;
			continue;
		}
		if (ch == '{' || ch == '[') {
			depth++;
		} else if (ch == '}' || ch == ']') {
			if (depth-- <= 1)
				return depth < 0 ? i : i + 1;
		} else if (!depth && (ch == ',' || is_ws(ch))) {
			return i;
		}
		i++;
	}
	return i;
}

static int key_is(const struct scan *c, size_t i, const char *key)
{
	size_t n = strlen(key);

	return i + n + 1 < c->len && !strncmp(c->text + i + 1, key, n) &&
	       c->text[i + 1 + n] == '"';
}

/* Offset of the value (or, for a key step with at_key, the key) at the
 * current path; the last position found when the path is not there. */
size_t jsonpos_locate(const char *text, size_t len,
		      const struct jsonpos_step *path, int depth, int at_key)
{
	const struct scan sc = { text, len }, *c = &sc;
	size_t i = ws(c, 0);

	for (int d = 0; d < depth; d++) {
		const struct jsonpos_step *s = &path[d];
		int nth = 0, idx = 0;
		size_t start;

		if (i >= c->len || (c->text[i] != '{' && c->text[i] != '['))
			return i;
		for (i = ws(c, i + 1); i < c->len && c->text[i] != '}' &&
		     c->text[i] != ']';
		     i = ws(c, i)) {
			start = i;
			if (s->key) {
				int hit = key_is(c, i, s->key) && nth++ == s->nth;

				i = ws(c, skip_string(c, i)) + 1;
				i = ws(c, i);
				if (hit) {
					if (at_key && d == depth - 1)
						return start;
					break;
				}
			} else if (idx++ == s->idx) {
				break;
			}
			i = ws(c, skip_value(c, i));
			if (i < c->len && c->text[i] == ',')
				i++;
		}
	}
	return i;
}

int jsonpos_line(const char *text, size_t len, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off && i < len; i++)
		line += text[i] == '\n';
	return line;
}

