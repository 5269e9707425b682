#ifndef PC_DB_ANNOT_H
#define PC_DB_ANNOT_H
/*
 * Annotations: the append-only explanation history of discrepancies.
 * A key is (workload, op, metric, model_source, ref_source); any part may
 * be NULL (= any) or, with is_pattern, a glob. An edit appends a row; the
 * newest row of a key is its current state. Matching a pair to its
 * current annotation lives in src/annot.c.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

/* The error an accepted annotation accepted at one point (schema 3). */
struct annot_err {
	char *workload, *op, *metric;
	char *model_version, *ref_version;
	double err;				/* NaN when undefined */
};

struct annot {
	int64_t id;
	char *workload, *op, *metric;		/* NULL = any */
	char *model_source, *ref_source;	/* NULL = any */
	int is_pattern;				/* key parts are globs */
	char *status;		/* open investigating explained accepted fixed wontfix */
	char *category;		/* modeling-error ... unknown (DOMAIN.md) */
	char *note, *link, *expires;		/* expires: YYYY-MM-DD or NULL */
	char *author, *created_at;		/* set by db_annot_add when NULL */
	char *model_versions;	/* "V", "A..B", "A.." or NULL = every one */
	struct annot_err *errs;	/* accepted errors, sorted by key */
	size_t nerrs;
};

/* Append n annotations in one short write transaction (busy-retried),
 * with their accepted errors (errs). author/created_at default to $USER
 * and now. Invalid status/category is PC_EINVALID. ids_out (may be NULL)
 * receives the new ids. */
int db_annot_add(struct db *db, const struct annot *a, size_t n,
		 int64_t *ids_out);

/* Every row, oldest first, with its accepted errors (callers build their index; the table holds
 * human-written rows, thousands at most). Caller frees with
 * db_annot_free(). */
int db_annot_all(struct db *db, struct annot **out, size_t *n);

/* The history of one exact key, oldest first. NULL parts match NULL. */
int db_annot_history(struct db *db, const char *workload, const char *op,
		     const char *metric, struct annot **out, size_t *n);

void db_annot_free(struct annot *a, size_t n);

/* The accepted error of a's point (workload, op, metric), or NULL. */
const struct annot_err *db_annot_err_find(const struct annot *a,
					  const char *workload, const char *op,
					  const char *metric);

/* Distinct (workload, op, metric) names with stored results, of runs of
 * source when source is not NULL, equal to workload / op / metric where
 * those are not NULL: three parallel arrays of n names (caller frees with
 * db_annot_keys_free). */
struct db_annot_keys {
	char **workload, **op, **metric;
	size_t n;
};
int db_annot_keys(struct db *db, const char *source, const char *workload,
		  const char *op, const char *metric,
		  struct db_annot_keys *out);
void db_annot_keys_free(struct db_annot_keys *k);

/* Valid values (NULL-terminated lists). */
extern const char *const db_annot_statuses[];
extern const char *const db_annot_categories[];

#endif
