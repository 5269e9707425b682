#ifndef PC_SRC_HTML_H
#define PC_SRC_HTML_H
/*
 * Escaping untrusted text (workload, op and file names, annotation notes)
 * for HTML/XHTML and SVG. The output is always well-formed XML character
 * data: markup characters become entities, control characters become
 * visible escapes (as util_safe_dup does for terminals) and bytes that are
 * not UTF-8 become U+FFFD.
 */
#include <stddef.h>

struct strbuf;

/* Append s (NULL = "") escaped for element text and quoted attributes. */
void html_escape(struct strbuf *sb, const char *s);

/* 1 when s is a link a report may make clickable: http:// or https://
 * (any case) and no space or control character; other schemes
 * (javascript:, file:, ...) stay text. */
int html_link_ok(const char *s);

/* The same into a new heap string; caller frees. */
char *html_escape_dup(const char *s);

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes at
 * s are not one (overlong, surrogate, truncated, > U+10FFFF). */
size_t html_utf8_len(const unsigned char *s);

/* A copy of s with every byte sequence that is not UTF-8 replaced by
 * U+FFFD, or NULL when s is valid UTF-8 already; caller frees. */
char *html_utf8_fix(const char *s);

#endif
