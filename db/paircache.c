/* The pair cache's SQL (see paircache.h). */
#include "db/paircache.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "db/db.h"
#include "src/base/error.h"
#include "src/base/util.h"

int db_pcache_find(struct db *db, const char *key, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	*id = 0;
	db_prepare(db, &rc, &st, "SELECT id FROM pair_cache WHERE key = ?");
	if (rc)
		return rc;
	db_bind_text(st, 1, key);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
	       db_fail(db, "reading the pair cache");
}

int db_pcache_read(struct db *db, int64_t id, const char *name, void **out,
		   size_t *len)
{
	sqlite3_stmt *st = NULL;
	sqlite3_blob *b = NULL;
	int64_t row = 0, n = 0;
	void *buf;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT id, length(data) FROM "
		   "pair_cache_parts WHERE cache_id = ? AND name = ?");
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	db_bind_text(st, 2, name);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		row = sqlite3_column_int64(st, 0);
		n = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return pc_error_set(PC_ENOTFOUND, "pair cache %lld has no "
				    "part '%s'", (long long)id, name);
	if (rc != SQLITE_ROW)
		return db_fail(db, "reading the pair cache");
	buf = xmalloc(n ? (size_t)n : 1);
	if (n && (sqlite3_blob_open(db_sqlite(db), "main", "pair_cache_parts",
				    "data", row, 0, &b) != SQLITE_OK ||
		  sqlite3_blob_read(b, buf, (int)n, 0) != SQLITE_OK)) {
		rc = db_fail(db, "reading the pair cache");
		sqlite3_blob_close(b);
		free(buf);
		return rc;
	}
	sqlite3_blob_close(b);
	*out = buf;
	*len = (size_t)n;
	return 0;
}

static int put_parts(struct db *db, int64_t id,
		     const struct pcache_part *parts, size_t nparts)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "INSERT OR REPLACE INTO pair_cache_parts "
		   "(cache_id, name, data) VALUES (?, ?, ?)");
	for (size_t i = 0; !rc && i < nparts; i++) {
		if (parts[i].len > 0x7fffffff) {
			rc = pc_error_set(PC_EINVALID, "pair cache part '%s' "
					  "is over 2 GB", parts[i].name);
			break;
		}
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, parts[i].name);
		sqlite3_bind_blob(st, 3, parts[i].len ? parts[i].data : "",
				  (int)parts[i].len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(db, "writing the pair cache");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

static int put_entry(struct db *db, const char *key, const char *label,
		     int64_t *id)
{
	sqlite3_stmt *st = NULL;
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
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(db, "writing the pair cache");
		sqlite3_finalize(st);
		st = NULL;
	}
	db_prepare(db, &rc, &st, "INSERT INTO pair_cache (key, label, "
		   "created_at) VALUES (?, ?, ?)");
	if (rc)
		return rc;
	db_bind_text(st, 1, key);
	db_bind_text(st, 2, label);
	db_bind_text(st, 3, now);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, "writing the pair cache");
	else
		*id = sqlite3_last_insert_rowid(db_sqlite(db));
	sqlite3_finalize(st);
	st = NULL;
	db_prepare(db, &rc, &st, "DELETE FROM pair_cache WHERE id NOT IN "
		   "(SELECT id FROM pair_cache ORDER BY id DESC LIMIT ?)");
	if (rc)
		return rc;
	sqlite3_bind_int(st, 1, PCACHE_KEEP);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, "pruning the pair cache");
	sqlite3_finalize(st);
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
	sqlite3_stmt *st = NULL;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT c.id, c.label, c.created_at, "
		   "(SELECT coalesce(sum(length(p.data)), 0) FROM "
		   "pair_cache_parts p WHERE p.cache_id = c.id) FROM "
		   "pair_cache c ORDER BY c.id");
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cb(arg, sqlite3_column_int64(st, 0), db_column_text(st, 1),
		   db_column_text(st, 2), sqlite3_column_int64(st, 3));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, "listing the pair cache");
}
