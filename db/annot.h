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

struct annot {
	int64_t id;
	char *workload, *op, *metric;		/* NULL = any */
	char *model_source, *ref_source;	/* NULL = any */
	int is_pattern;				/* key parts are globs */
	char *status;		/* open investigating explained accepted fixed wontfix */
	char *category;		/* modeling-error ... unknown (DOMAIN.md) */
	char *note, *link, *expires;		/* expires: YYYY-MM-DD or NULL */
	char *author, *created_at;		/* set by db_annot_add when NULL */
};

/* Append n annotations in one short write transaction (busy-retried).
 * author/created_at default to $USER and now. Invalid status/category
 * is PC_EINVALID. ids_out (may be NULL) receives the new ids. */
int db_annot_add(struct db *db, const struct annot *a, size_t n,
		 int64_t *ids_out);

/* Every row, oldest first (callers build their index; the table holds
 * human-written rows, thousands at most). Caller frees with
 * db_annot_free(). */
int db_annot_all(struct db *db, struct annot **out, size_t *n);

/* The history of one exact key, oldest first. NULL parts match NULL. */
int db_annot_history(struct db *db, const char *workload, const char *op,
		     const char *metric, struct annot **out, size_t *n);

void db_annot_free(struct annot *a, size_t n);

/* Valid values (NULL-terminated lists). */
extern const char *const db_annot_statuses[];
extern const char *const db_annot_categories[];

#endif
