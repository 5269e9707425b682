#ifndef PC_IMPORTERS_LINES_H
#define PC_IMPORTERS_LINES_H
/*
 * A bounded line reader for log-style importers (simulator and RTL
 * logs, stats dumps): one line at a time with its number, CR/LF and a
 * UTF-8 BOM stripped, a length limit so a pathological line is an error
 * naming file:line instead of an OOM kill. Lines are borrowed until the
 * next lines_read().
 */
#include <stddef.h>
#include <stdio.h>

struct lines {
	FILE *fp;
	const char *path;	/* for messages */
	long line;		/* number of the line last read (1-based) */
	size_t max;		/* longest line accepted; default 1 MiB */
	char *buf;
	size_t cap;
};

void lines_init(struct lines *l, FILE *fp, const char *path);
void lines_release(struct lines *l);

/* Read the next line into *out: 1 when read, 0 at end of file, <0 with
 * "path:line: line longer than N bytes" or a read error. */
int lines_read(struct lines *l, char **out);

/* When s (after leading blanks) starts with prefix, a pointer just past
 * it with blanks skipped; else NULL. */
const char *lines_after(const char *s, const char *prefix);

/* Parse the number at the start of s (blanks allowed before it): 0 with
 * *out and *end set past it, -1 when s does not start with a number.
 * Accepts inf/nan spellings only when allow_special. */
int lines_number(const char *s, double *out, const char **end,
		 int allow_special);

#endif
