/* String -> int64 hash map with linear probing (see hmap.h). */
#include "base/hmap.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct hmap_slot {
	char *key;
	uint64_t hash;
	int64_t value;
};

uint64_t hmap_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

void hmap_init(struct hmap *m)
{
	m->slots = NULL;
	m->cap = m->len = 0;
}

void hmap_release(struct hmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	hmap_init(m);
}

static struct hmap_slot *find(const struct hmap *m, const char *key,
			      uint64_t h)
{
	size_t i = h & (m->cap - 1);

	for (;;) {
		struct hmap_slot *s = &m->slots[i];

		if (!s->key || (s->hash == h && !strcmp(s->key, key)))
			return s;
		i = (i + 1) & (m->cap - 1);
	}
}

static void grow(struct hmap *m)
{
	struct hmap_slot *old = m->slots;
	size_t oldcap = m->cap;

	m->cap = oldcap ? oldcap * 2 : 64;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < oldcap; i++) {
		if (old[i].key)
			*find(m, old[i].key, old[i].hash) = old[i];
	}
	free(old);
}

int hmap_get(const struct hmap *m, const char *key, int64_t *out)
{
	struct hmap_slot *s;

	if (!m->cap)
		return 0;
	s = find(m, key, hmap_hash(key, strlen(key)));
	if (!s->key)
		return 0;
	*out = s->value;
	return 1;
}

void hmap_put(struct hmap *m, const char *key, int64_t value)
{
	uint64_t h = hmap_hash(key, strlen(key));
	struct hmap_slot *s;

	if ((m->len + 1) * 4 >= m->cap * 3)
		grow(m);
	s = find(m, key, h);
	if (!s->key) {
		s->key = xstrdup(key);
		s->hash = h;
		m->len++;
	}
	s->value = value;
}
