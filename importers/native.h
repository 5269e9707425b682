#ifndef PC_IMPORTERS_NATIVE_H
#define PC_IMPORTERS_NATIVE_H
/*
 * What perfcorr-csv and perfcorr-json share to read an `export results`
 * back without loss: the flags as words and the run facts (version,
 * platform, clock_hz) that an export repeats on every row.
 */
#include "importers/importer.h"

/* "invalid skipped" (words separated by blanks, ';', '|' or ',') ->
 * IMP_* bits; "" = none. -1 on an unknown word (copied into bad). */
int native_flags(const char *words, unsigned *out, char *bad, size_t blen);

/* The words native_flags() reads, for messages. */
#define NATIVE_FLAG_WORDS "invalid, skipped, derived, capped"

/* Run facts repeated on every row: the first value goes to the sink's
 * meta, a later different one is an error naming both lines. */
struct native_run {
	char *val[3];		/* version, platform, clock_hz */
	long line[3];
};

void native_run_release(struct native_run *r);
/* key: "version", "platform" or "clock_hz"; "" values are skipped. */
int native_run_fact(struct native_run *r, struct imp_sink *sink,
		    const char *key, const char *value, const char *path,
		    long line);

#endif
