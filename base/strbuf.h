#ifndef PC_SRC_STRBUF_H
#define PC_SRC_STRBUF_H
/*
 * Growable string buffer (git's strbuf, trimmed). The buffer is always
 * NUL-terminated; strbuf_release frees it and leaves an empty buffer.
 */
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const char *s, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append s as a JSON string literal, quotes included; controls (C0, DEL,
 * C1) and the bidi embeddings, overrides and isolates (U+202A..U+202E,
 * U+2066..U+2069) as \uXXXX, so no viewer of the JSON reorders it. */
void strbuf_add_json_str(struct strbuf *sb, const char *s);
/* Append JSON text (another writer's, e.g. cJSON_Print) with its C1 and
 * bidi characters as \uXXXX (they occur only inside its strings). */
void strbuf_add_json_text(struct strbuf *sb, const char *text);
/* 2 or 3 when s starts with a C1 control or a bidi control in UTF-8
 * (its code point in *cp), else 0. */
size_t strbuf_unsafe_cp(const char *s, unsigned *cp);
/* Append a double with the shortest form that reads back exactly. */
void strbuf_add_double(struct strbuf *sb, double v);
/* Append the lines of s (split at '\n', a '\r' before it dropped, a
 * final empty line dropped), each through add, joined by sep. Renders a
 * multi-line note natively in each output format. */
void strbuf_add_lines(struct strbuf *sb, const char *s,
		      void (*add)(struct strbuf *, const char *),
		      const char *sep);
/* Give the heap string to the caller (never NULL); sb becomes empty. */
char *strbuf_detach(struct strbuf *sb);
/* The text, "" when empty; borrowed. */
const char *strbuf_str(const struct strbuf *sb);

#endif
