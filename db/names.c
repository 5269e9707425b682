/* Names for completion (see names.h). */
#include "db/names.h"

#include <stddef.h>

#include "db/db.h"

/* ?1 = arg, ?2 = prefix (compared byte-wise, no LIKE wildcards). */
#define PREFIX(col) " WHERE substr(" col ", 1, length(?2)) = ?2"
static const char *const sql[] = {
	[DB_NAMES_SOURCES] = "SELECT name FROM sources" PREFIX("name")
		" ORDER BY name",
	[DB_NAMES_VERSIONS] = "SELECT DISTINCT r.version FROM runs r "
		"JOIN sources s ON s.id = r.source_id" PREFIX("r.version")
		" AND s.name = ?1 ORDER BY r.version",
	[DB_NAMES_METRICS] = "SELECT name FROM metrics" PREFIX("name")
		" ORDER BY name",
	[DB_NAMES_OPS] = "SELECT name FROM ops" PREFIX("name")
		" ORDER BY name",
	[DB_NAMES_WORKLOADS] = "SELECT key FROM workloads" PREFIX("key")
		" ORDER BY key",
	[DB_NAMES_PARAMS] = "SELECT DISTINCT name FROM workload_params"
		PREFIX("name") " ORDER BY name",
	[DB_NAMES_PARAM_VALUES] = "SELECT DISTINCT value FROM workload_params"
		PREFIX("value") " AND name = ?1 ORDER BY value",
};

int db_names(struct db *db, enum db_names_kind kind, const char *arg,
	     const char *prefix, void (*fn)(const char *name, void *ctx),
	     void *ctx)
{
	struct db_stmt *st = NULL;
	int rc = 0, n = 0, step = DB_DONE;

	db_prepare(db, &rc, &st, sql[kind]);
	if (rc)
		return rc;
	db_bind_text(st, 1, arg ? arg : "");
	db_bind_text(st, 2, prefix ? prefix : "");
	while (n < DB_NAMES_MAX && (step = db_step(st)) == DB_ROW) {
		fn(db_column_text(st, 0), ctx);
		n++;
	}
	if (n < DB_NAMES_MAX && step != DB_DONE)
		n = db_fail(db, "listing names");
	db_finalize(st);
	return n;
}

const char *db_sqlite_version(void)
{
	return db_engine_version();
}
