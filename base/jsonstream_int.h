#ifndef PC_BASE_JSONSTREAM_INT_H
#define PC_BASE_JSONSTREAM_INT_H
/* The reader's state, shared by jsonstream.c (tokens) and
 * jsonstream_tree.c (cJSON trees); nothing else includes it. */
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

#endif
