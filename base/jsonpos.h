#ifndef PC_SRC_JSONPOS_H
#define PC_SRC_JSONPOS_H
/*
 * Where a JSON path (rules[2].max_mape) sits in text that a JSON parser
 * already accepted: cJSON keeps no positions, so error messages about a
 * parsed tree find their line here. Pure functions over the text.
 */
#include <stddef.h>

/* One step: an object key (its nth occurrence, for duplicate keys) or,
 * when key is NULL, the array index idx. */
struct jsonpos_step {
	const char *key;
	int idx, nth;
};

/* Byte offset of the value at path (or of its key, when at_key and the
 * last step is a key); where the walk stopped when the path is absent. */
size_t jsonpos_locate(const char *text, size_t len,
		      const struct jsonpos_step *path, int depth, int at_key);

/* 1-based line of byte offset off. */
int jsonpos_line(const char *text, size_t len, size_t off);

#endif
