/* The pair cache's SQL (see paircache.h). */
#include "db/paircache.h"

#include <stdlib.h>

#include "db/db.h"
#include "base/error.h"
#include "base/util.h"

int db_pcache_find(struct db *db, const char *key, int64_t *id)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	*id = 0;
	db_prepare(db, &rc, &st, "SELECT id FROM pair_cache WHERE key = ?");
	if (rc)
		return rc;
	db_bind_text(st, 1, key);
	rc = db_step(st);
	if (rc == DB_ROW)
		*id = db_column_int64(st, 0);
	db_finalize(st);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
	       db_fail(db, "reading the pair cache");
}

int db_pcache_read(struct db *db, int64_t id, const char *key,
		   const char *name, void **out, size_t *len)
{
	struct db_stmt *st = NULL;
	int64_t row = 0, n = 0;
	void *buf;
	int rc = 0;

	/* the entry's key too: an id freed by a replaced entry can be the
	 * next entry's (SQLite reuses the largest rowid), and a part read
	 * later (an order, a detail chunk) must be of the pairing opened */
	db_prepare(db, &rc, &st, "SELECT p.id, length(p.data), CASE WHEN "
		   "c.key = ? THEN 1 ELSE 0 END FROM pair_cache_parts p JOIN "
		   "pair_cache c ON c.id = p.cache_id WHERE p.cache_id = ? AND "
		   "p.name = ?");
	if (rc)
		return rc;
	db_bind_text(st, 1, key);
	db_bind_int64(st, 2, id);
	db_bind_text(st, 3, name);
	rc = db_step(st);
	if (rc == DB_ROW) {
		row = db_column_int64(st, 0);
		n = db_column_int64(st, 1);
		if (!db_column_int64(st, 2))
			rc = PC_EINVALID;
	}
	db_finalize(st);
	if (rc == PC_EINVALID)
		return pc_error_set(PC_EINVALID, "the pair cache entry was "
				    "replaced since it was opened (runs "
				    "imported, or perfcorr index): reopen "
				    "the pairing");
	if (rc == DB_DONE)
		return pc_error_set(PC_ENOTFOUND, "pair cache %lld has no "
				    "part '%s'", (long long)id, name);
	if (rc != DB_ROW)
		return db_fail(db, "reading the pair cache");
	buf = xmalloc_big(n ? (size_t)n : 1);
	if ((rc = db_blob_read(db, "pair_cache_parts", "data", row, buf,
			       (size_t)n)) < 0) {
		free(buf);
		return rc;
	}
	*out = buf;
	*len = (size_t)n;
	return 0;
}

static int put_parts(struct db *db, int64_t id,
		     const struct pcache_part *parts, size_t nparts)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "INSERT INTO pair_cache_parts "
		   "(cache_id, name, data) VALUES (?, ?, ?) ON CONFLICT "
		   "(cache_id, name) DO UPDATE SET data = excluded.data");
	for (size_t i = 0; !rc && i < nparts; i++) {
		if (parts[i].len > 0x7fffffff) {
			rc = pc_error_set(PC_EINVALID, "pair cache part '%s' "
					  "is over 2 GB", parts[i].name);
			break;
		}
		db_bind_int64(st, 1, id);
		db_bind_text(st, 2, parts[i].name);
		db_bind_blob_static(st, 3, parts[i].data, parts[i].len);
		if (db_step(st) != DB_DONE)
			rc = db_fail(db, "writing the pair cache");
		db_reset(st);
	}
	db_finalize(st);
	return rc;
}

static int put_entry(struct db *db, const char *key, const char *label,
		     int64_t *id)
{
	struct db_stmt *st = NULL;
	char now[32];
	int rc = 0;

	util_now_iso(now, sizeof(now));
	/* the same key, and entries of the same label: those were made
	 * from other runs of these versions or by an older layout, and no
	 * open will ask for them again */
	db_prepare(db, &rc, &st, "DELETE FROM pair_cache WHERE key = ? OR "
		   "label = ?");
	if (!rc) {
		db_bind_text(st, 1, key);
		db_bind_text(st, 2, label);
		if (db_step(st) != DB_DONE)
			rc = db_fail(db, "writing the pair cache");
		db_finalize(st);
		st = NULL;
	}
	db_prepare(db, &rc, &st, "INSERT INTO pair_cache (key, label, "
		   "created_at) VALUES (?, ?, ?) RETURNING id");
	if (rc)
		return rc;
	db_bind_text(st, 1, key);
	db_bind_text(st, 2, label);
	db_bind_text(st, 3, now);
	if (db_step(st) != DB_ROW)
		rc = db_fail(db, "writing the pair cache");
	else
		*id = db_column_int64(st, 0);
	db_finalize(st);
	st = NULL;
	db_prepare(db, &rc, &st, "DELETE FROM pair_cache WHERE id NOT IN "
		   "(SELECT id FROM pair_cache ORDER BY id DESC LIMIT ?)");
	if (rc)
		return rc;
	db_bind_int(st, 1, PCACHE_KEEP);
	if (db_step(st) != DB_DONE)
		rc = db_fail(db, "pruning the pair cache");
	db_finalize(st);
	return rc;
}

int db_pcache_put(struct db *db, const char *key, const char *label,
		  const struct pcache_part *parts, size_t nparts, int nowait,
		  int64_t *id)
{
	int rc;

	if ((rc = nowait ? db_begin_nowait(db) : db_begin(db)) < 0)
		return rc;
	if ((rc = put_entry(db, key, label, id)) == 0)
		rc = put_parts(db, *id, parts, nparts);
	return db_end(db, rc);
}

int db_pcache_add(struct db *db, int64_t id, const char *key,
		  const struct pcache_part *parts, size_t nparts, int nowait)
{
	struct db_stmt *st = NULL;
	int rc;

	if ((rc = nowait ? db_begin_nowait(db) : db_begin(db)) < 0)
		return rc;
	/* the entry may have been replaced or dropped since it was read
	 * (and its id be another entry's now) */
	db_prepare(db, &rc, &st, "SELECT 1 FROM pair_cache WHERE id = ? AND "
		   "key = ?");
	if (!rc) {
		db_bind_int64(st, 1, id);
		db_bind_text(st, 2, key);
		rc = db_step(st);
		db_finalize(st);
		rc = rc == DB_ROW ? put_parts(db, id, parts, nparts) :
		     rc == DB_DONE ? 0 : db_fail(db, "reading the pair cache");
	}
	return db_end(db, rc);
}

int db_pcache_clear(struct db *db)
{
	int rc;

	if ((rc = db_begin(db)) < 0)
		return rc;
	return db_end(db, db_exec(db, "DELETE FROM pair_cache"));
}

int db_pcache_list(struct db *db,
		   void (*cb)(void *arg, int64_t id, const char *label,
			      const char *created_at, int64_t bytes),
		   void *arg)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT c.id, c.label, c.created_at, "
		   "(SELECT coalesce(sum(length(p.data)), 0) FROM "
		   "pair_cache_parts p WHERE p.cache_id = c.id) FROM "
		   "pair_cache c ORDER BY c.id");
	if (rc)
		return rc;
	while ((rc = db_step(st)) == DB_ROW)
		cb(arg, db_column_int64(st, 0), db_column_text(st, 1),
		   db_column_text(st, 2), db_column_int64(st, 3));
	db_finalize(st);
	return rc == DB_DONE ? 0 : db_fail(db, "listing the pair cache");
}
