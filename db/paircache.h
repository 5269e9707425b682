#ifndef PC_DB_PAIRCACHE_H
#define PC_DB_PAIRCACHE_H
/*
 * The pair cache's SQL: named binary parts (the packed points, their
 * detail chunks, sort orders, group statistics) of one pairing, stored
 * under a key the correlation core derives from everything the pairing
 * depends on (src/pairidx.c). The core owns the byte layout; db/ only
 * stores and returns bytes. A deleted run clears the whole cache (a
 * trigger, db/schema.sql), so a reused run id can never match a stale
 * entry. An insert replaces entries with the same label (the same sides
 * and versions: older runs, or an older layout of the parts) and prunes
 * all but the newest PCACHE_KEEP.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

#define PCACHE_KEEP 8

struct pcache_part {
	const char *name;
	const void *data;
	size_t len;
};

/* The entry for key: its id (0 when there is none). */
int db_pcache_find(struct db *db, const char *key, int64_t *id);

/* One part of entry id into a new buffer (caller frees); PC_ENOTFOUND
 * when the entry has no such part, PC_EINVALID when entry id is no
 * longer the one of key (replaced since it was found: its id reused).
 * Reads straight into the buffer (incremental blob I/O): one copy. */
int db_pcache_read(struct db *db, int64_t id, const char *key,
		   const char *name, void **out, size_t *len);

/* Store an entry (replacing any with the same key or label) with its
 * parts in one short write transaction; prunes old entries. With nowait,
 * a write lock held by another process (a long import) is not waited
 * for: PC_EDB at once, and nothing is stored. */
int db_pcache_put(struct db *db, const char *key, const char *label,
		  const struct pcache_part *parts, size_t nparts, int nowait,
		  int64_t *id);

/* Add (or replace) parts of entry id in one short write transaction
 * (a part computed after the entry was stored: the statistics of a
 * grouping a view asked for). An entry that is gone meanwhile (or whose
 * id is now another key's) takes nothing and is not an error. nowait as
 * for db_pcache_put. */
int db_pcache_add(struct db *db, int64_t id, const char *key,
		  const struct pcache_part *parts, size_t nparts, int nowait);

/* Drop every entry. */
int db_pcache_clear(struct db *db);

/* What is cached: one line per entry via cb (label, created, bytes). */
int db_pcache_list(struct db *db,
		   void (*cb)(void *arg, int64_t id, const char *label,
			      const char *created_at, int64_t bytes),
		   void *arg);

#endif
