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
/* Append s as a JSON string literal, quotes included. */
void strbuf_add_json_str(struct strbuf *sb, const char *s);
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
