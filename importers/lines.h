#ifndef PC_IMPORTERS_LINES_H
#define PC_IMPORTERS_LINES_H
/*
 * The one line reader of the text importers (simulator and RTL logs,
 * stats dumps, MLPerf, vLLM stdout, DCGM ...): one line at a time with
 * its number, "\n" or "\r\n" and a UTF-8 BOM on line 1 stripped. One
 * limit and one NUL rule for every format: a line longer than LINES_MAX
 * bytes or a NUL byte is an error naming file:line (a binary or
 * pathological file is refused, never truncated or OOM-killed); a read
 * error is an error too. Lines are borrowed until the next read.
 */
#include <stddef.h>
#include <stdio.h>

struct imp_input;

#define LINES_MAX (16u << 20)	/* bytes in one line */

struct lines {
	FILE *fp;
	const char *path;	/* for messages */
	long line;		/* number of the line last read (1-based) */
	size_t max;		/* longest line accepted: LINES_MAX (tests
				 * may lower it) */
	int whole;		/* the writer ends every line: a last line
				 * with no line end is refused as cut (at
				 * the read after it) */
	int cut;		/* private: that line was read */
	char *buf;
	size_t cap;
};

void lines_init(struct lines *l, FILE *fp, const char *path);
void lines_release(struct lines *l);

/* Read the next line into *out: 1 when read, 0 at end of file, <0 with
 * "path:line: line longer than N bytes", "... NUL byte in a text file"
 * or a read error; with whole set, "path:line: the last line has no
 * line end (a cut file? ...)" at the read after a last line that is not
 * blank (the line itself is returned first). */
int lines_read(struct lines *l, char **out);

/* Every line of the input to fn with its number (lines_read's rules);
 * a negative return from fn stops with that error. Returns the number of
 * the last line read (>= 0, 0 for an empty input) or <0. */
int lines_each(const struct imp_input *in,
	       int (*fn)(void *ctx, long line, char *s), void *ctx);
/* lines_each for a format whose writer ends every line (whole): a cut
 * inside the last line ("Energy: 12.3 uJ" read "Energy: 1") is refused
 * before fn sees it. */
int lines_each_whole(const struct imp_input *in,
		     int (*fn)(void *ctx, long line, char *s), void *ctx);
/* The same over a bare stream (path for messages). */
long lines_each_fp(FILE *fp, const char *path,
		   int (*fn)(void *ctx, long line, char *s), void *ctx);

/* When s (after leading blanks) starts with prefix, a pointer just past
 * it with blanks skipped; else NULL. */
const char *lines_after(const char *s, const char *prefix);

/* Parse the number at the start of s (blanks allowed before it): 0 with
 * *out and *end set past it, -1 when s does not start with a number.
 * Accepts inf/nan spellings only when allow_special. */
int lines_number(const char *s, double *out, const char **end,
		 int allow_special);

/* A number followed by a unit, glued or after blanks: "154.88 W",
 * "7us", "0.1900ms", "1234 ps", "12 Kbyte/block". The unit is the run of
 * letters, '%', '/', digits after a letter, and UTF-8 bytes (µs)
 * right after the number and its blanks; it is copied into unit (empty
 * when there is none). 0 with *end past the unit (may be NULL), -1 when
 * s does not start with a finite number or the unit does not fit. */
int lines_quantity(const char *s, double *out, char *unit, size_t ulen,
		   const char **end);

#endif
