#ifndef PC_DB_RUNINFO_H
#define PC_DB_RUNINFO_H
/*
 * Provenance of runs by id: source, version, file name, content hash,
 * import time and who imported it, for reports that must say where every
 * number came from. Returned arrays own their strings.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

struct runinfo {
	int64_t id;
	char *source, *kind, *version, *format;
	char *file_name, *sha256, *platform;
	char *imported_at, *imported_by;	/* imported_by may be NULL */
	int64_t file_size;			/* -1 when unknown */
	int64_t n_results;
	double clock_hz;			/* NaN when unknown */
	double cost;				/* what the run cost, in */
	char *cost_unit;			/* this unit; NULL: unknown */
	char *identity;				/* what the command line said
						   (docs/schema.md), or NULL */
};

/* The runs with the given ids, in the order of ids. An id that is not in
 * the database is PC_ENOTFOUND naming it. Caller frees with
 * db_runinfo_free(out, n). */
int db_runinfo_get(struct db *db, const int64_t *ids, size_t n,
		   struct runinfo **out);

void db_runinfo_free(struct runinfo *r, size_t n);

/* *out 1 when some run has a recorded cost (runs.cost), else 0. */
int db_runs_have_cost(struct db *db, int *out);

/* The number of distinct workloads run id has results of into *out (what
 * a run's cost is spread over: issue 38 item 5). */
int db_run_workloads(struct db *db, int64_t id, long *out);

/* The metadata JSON object text of run id (importer and user metadata,
 * the workload fingerprint's "fp.FIELD" members among them) into *out
 * (caller frees; "{}" when the run has none). An unknown id is
 * PC_ENOTFOUND naming it. */
int db_run_metadata(struct db *db, int64_t id, char **out);

#endif
