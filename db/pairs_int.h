#ifndef PC_DB_PAIRS_INT_H
#define PC_DB_PAIRS_INT_H
/*
 * Private to db/pairs*.c, one module in two files whose calls go one way:
 * pairs_stream.c (the pairing streams) -> pairs.c (resolving the sides,
 * the dictionaries), never back: the platform helpers both need.
 */
#include <stddef.h>

struct strbuf;

/* pairs.c */
int pairs_same_platform(const char *a, const char *b);
void pairs_platform_list(struct strbuf *sb, const char *const *v, size_t n);

#endif
