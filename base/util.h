#ifndef PC_SRC_UTIL_H
#define PC_SRC_UTIL_H
/*
 * Allocation wrappers that abort on out-of-memory (callers never check),
 * and small string/number helpers shared by every layer.
 */
#include <stddef.h>
#include <stdio.h>

void *xmalloc(size_t n);
/* xmalloc for a buffer of megabytes filled at once (a pair cache part):
 * from 4 MB on, aligned to 2 MB and advised to be backed by huge pages
 * (Linux; advice only), so that filling it faults once per 2 MB instead
 * of once per 4 KB. free() frees it. */
void *xmalloc_big(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Room for element len of the array v of *cap elements of size bytes:
 * when len == *cap, v grows to twice as many (at least 16) and *cap
 * follows. Returns v, maybe moved. One call per element appended. */
void *xgrow(void *v, size_t *cap, size_t len, size_t size);
/* printf into a new heap string; caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse a whole string as a finite double (leading/trailing blanks allowed).
 * Returns 0 and writes *out, or -1 when it is not a number. */
int util_parse_double(const char *s, double *out);
/* Same for a long integer. */
int util_parse_long(const char *s, long *out);

/* Trim leading and trailing whitespace in place; returns s. */
char *util_trim(char *s);

/* Glob match (* ? [..]) via fnmatch; 1 when it matches. */
int util_glob(const char *pattern, const char *s);

/* Levenshtein distance (bytes). */
size_t util_edit_distance(const char *a, const char *b);

/* The name of names[0..n) closest to want when it is close enough to be
 * a typo (edit distance at most max(2, strlen(want) / 3), the first of
 * the nearest), else NULL: "did you mean ...?". */
const char *util_did_you_mean(const char *want, const char *const *names,
			      size_t n);

/* Current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into buf (>= 21 bytes). */
void util_now_iso(char *buf, size_t len);

/* The user's name for provenance: $USER, else $LOGNAME, else the login
 * name of the real uid in the password database, else "unknown". */
const char *util_user(void);

/* Write s to fp with control characters and escape sequences made
 * visible (\x1b, \n ...), so untrusted names never drive the terminal:
 * C0/C1 controls (also raw C1 bytes and other bytes that are not UTF-8)
 * as \xNN, bidi overrides and isolates (U+202A..E, U+2066..9) as \uNNNN.
 * The one escaping function for names in terminal and text output. */
void util_fputs_safe(const char *s, FILE *fp);
/* The same into a new heap string; caller frees. */
char *util_safe_dup(const char *s);
/* Open path for reading only when it is a regular file: opened
 * non-blocking (a FIFO without a writer would hang), then fstat'ed; a
 * pipe, device or directory is PC_EINVALID naming what ("topology"
 * ..., NULL for a file to import) and the cure. */
int util_fopen_regular(FILE **out, const char *path, const char *what);

/* fprintf whose %s arguments go through util_safe_dup: for lines that
 * name things from files (sources, versions, labels, paths). Supports
 * %s %c %d %i %u %x (l, ll, z) %f %g %e and %%, flags, width and
 * precision (no '*'). */
void util_fprintf_safe(FILE *fp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* 1 when a POSIX extended regex is too costly for glibc's regcomp to
 * compile (longer than 4 KiB, stacked repetitions such as "a+*", or more
 * than 100 000 nodes once {m,n} and '+' are expanded): check every regex
 * that comes from a file before regcomp sees it. */
int util_regex_too_big(const char *ere);

/* 1 when NO_COLOR is set (any value, per no-color.org). */
int util_no_color(void);

#endif
