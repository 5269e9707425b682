#ifndef PC_DB_NAMES_H
#define PC_DB_NAMES_H
/*
 * Names the database knows, for shell completion (src/cmd/complete.c):
 * sources, the versions of a source, metrics, ops, workload keys,
 * parameter names and the values of one parameter. Read-only, sorted,
 * at most DB_NAMES_MAX of them.
 */
struct db;

enum db_names_kind {
	DB_NAMES_SOURCES,
	DB_NAMES_VERSIONS,	/* arg: the source */
	DB_NAMES_METRICS,
	DB_NAMES_OPS,
	DB_NAMES_WORKLOADS,
	DB_NAMES_PARAMS,
	DB_NAMES_PARAM_VALUES,	/* arg: the parameter name */
};

#define DB_NAMES_MAX 2000

/* Call fn for each name of that kind starting with prefix (NULL or ""
 * = all). Returns the count, or <0 (pc_error set). */
int db_names(struct db *db, enum db_names_kind kind, const char *arg,
	     const char *prefix, void (*fn)(const char *name, void *ctx),
	     void *ctx);

/* The SQLite library version perfcorr runs with. */
const char *db_sqlite_version(void);

#endif
