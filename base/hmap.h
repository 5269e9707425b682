#ifndef PC_SRC_HMAP_H
#define PC_SRC_HMAP_H
/*
 * String -> int64 hash map (open addressing). The map owns copies of
 * its keys. Used for id caches in the db writer and lookups elsewhere.
 */
#include <stddef.h>
#include <stdint.h>

struct hmap_slot;

struct hmap {
	struct hmap_slot *slots;
	size_t cap;
	size_t len;
};

void hmap_init(struct hmap *m);
void hmap_release(struct hmap *m);
/* 1 and *out when found, 0 when absent. */
int hmap_get(const struct hmap *m, const char *key, int64_t *out);
/* Insert or overwrite. */
void hmap_put(struct hmap *m, const char *key, int64_t value);
uint64_t hmap_hash(const char *s, size_t n);

#endif
