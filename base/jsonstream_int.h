#ifndef PC_BASE_JSONSTREAM_INT_H
#define PC_BASE_JSONSTREAM_INT_H
/* The reader's state, shared by jsonstream.c (tokens), jsonstream_str.c
 * (strings) and jsonstream_tree.c (cJSON trees); nothing else includes it. */
#include <stdio.h>

#include "base/jsonstream.h"

enum js_state {
	ST_VALUE,		/* a value is next */
	ST_FIRST_VALUE,		/* after '[': a value or ']' */
	ST_FIRST_KEY,		/* after '{': a key or '}' */
	ST_KEY,			/* after ',' in an object */
	ST_AFTER,		/* after a value in a container */
	ST_END,			/* after a whole document */
};

struct jsonstream {
	FILE *fp;
	const char *path;
	unsigned flags;
	unsigned char *buf;	/* CHUNK bytes; [pos, len) unread */
	size_t pos, len;
	size_t rsize;		/* the most one read asks for */
	long long base;		/* the file offset of buf[0] */
	long line;
	long long lstart;	/* the offset of the line's first byte */
	int eof, started, failed, nostore;
	long long ndocs;
	int state, depth;
	unsigned char stack[JSONSTREAM_DEPTH_MAX];	/* 1 object, 0 array */
	char *s;		/* the last string, decoded */
	size_t slen, scap;
};

/* Set "PATH:LINE:COL: invalid JSON (byte N): ..." and stop the reader. */
int js_error_at(struct jsonstream *js, long line, long col, long long byte,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Keep the unread bytes and read more: 1 when some came, 0 at the end
 * of the input, <0 on a read error. */
int js_fill(struct jsonstream *js);
/* At least n unread bytes unless the input ends first: 0 or <0. */
int js_need(struct jsonstream *js, size_t n);
/* The string whose quote is at pos, decoded into js->s when store. */
int js_lex_string(struct jsonstream *js, int store);

#endif
