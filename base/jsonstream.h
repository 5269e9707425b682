#ifndef PC_BASE_JSONSTREAM_H
#define PC_BASE_JSONSTREAM_H
/*
 * A streaming JSON reader: tokens pulled from a FILE * in 256 KiB reads,
 * so memory is bounded by the longest string (JSONSTREAM_STRING_MAX) and
 * the nesting depth (JSONSTREAM_DEPTH_MAX), never by the file. The
 * grammar (RFC 8259; Python's NaN, Infinity and -Infinity with
 * JSONSTREAM_PYTHON) is checked as the tokens come, so a caller sees only
 * well-formed sequences; a UTF-8 BOM at the start is skipped. Every error
 * is set with pc_error_set as "PATH:LINE:COL: invalid JSON (byte N): what
 * was expected" (COL counts bytes from 1, N from 0). One value at a time
 * can be skipped or materialised as a small cJSON tree, which the caller
 * deletes. Tokens' strings are borrowed until the next call.
 */
#include <stddef.h>
#include <stdio.h>

struct cJSON;

#define JSONSTREAM_STRING_MAX (64u << 20)
#define JSONSTREAM_DEPTH_MAX 1000

enum jsonstream_type {
	JS_EOF,			/* the end of the input (after a document) */
	JS_OBJECT, JS_OBJECT_END,
	JS_ARRAY, JS_ARRAY_END,
	JS_KEY,			/* a member's name; its value comes next */
	JS_STRING, JS_NUMBER, JS_TRUE, JS_FALSE, JS_NULL,
};

enum jsonstream_flags {
	JSONSTREAM_MULTI = 1 << 0,	/* documents one after another (JSON
					 * lines); else text after the first
					 * one is an error */
	JSONSTREAM_PYTHON = 1 << 1,	/* NaN, Infinity, -Infinity */
};

struct jsonstream_tok {
	enum jsonstream_type type;
	const char *str;	/* KEY, STRING: decoded UTF-8, NUL-terminated */
	size_t len;		/* its length (it may hold a \u0000) */
	double num;		/* NUMBER */
	int nan;		/* NUMBER: Python's NaN */
	int depth;		/* containers around it (0 = the top level); a
				 * container's end has its start's depth */
	long line, col;		/* where it starts */
	long long byte;
};

struct jsonstream;

/* A reader of fp; path names it in messages (borrowed, kept). */
struct jsonstream *jsonstream_new(FILE *fp, const char *path, unsigned flags);
void jsonstream_free(struct jsonstream *js);

/* The next token into *out: 0, or <0 with a positioned message. Empty
 * input (white space only) gives JS_EOF at once. */
int jsonstream_next(struct jsonstream *js, struct jsonstream_tok *out);

/* Skip the rest of the value that tok (just returned) starts: nothing
 * for a scalar, the whole container for '{' or '['. Still checked. */
int jsonstream_skip(struct jsonstream *js, const struct jsonstream_tok *tok);

/* Whether a member of the value being built is kept: called for each
 * member of the outermost object with its key, its first token and the
 * object built so far (borrowed). */
typedef int (*jsonstream_keep_fn)(const char *key,
				  const struct jsonstream_tok *value,
				  const struct cJSON *sofar, void *ctx);

/* Materialise the value tok starts as a cJSON tree into *out (caller
 * deletes). keep (or NULL for all) filters the outermost object's
 * members; a dropped member is skipped, not built. At most max bytes of
 * input may be built (dropped members do not count), else PC_EINVALID
 * "PATH:LINE: JSON document larger than N MiB". NaN becomes the string
 * "-" (a missing value); a string holding \u0000 is refused. */
int jsonstream_tree(struct jsonstream *js, const struct jsonstream_tok *tok,
		    struct cJSON **out, size_t max, jsonstream_keep_fn keep,
		    void *ctx);

/* Read at most n bytes at a time (1 .. 256 KiB; tests and the fuzz
 * target put tokens across reads with it). */
void jsonstream_set_read_size(struct jsonstream *js, size_t n);

/* The file offset of the next unread byte. */
long long jsonstream_offset(const struct jsonstream *js);

#endif
