#ifndef PC_DB_REVIEW_H
#define PC_DB_REVIEW_H
/*
 * Recorded reviews (`perfcorr report --record`): when a review happened,
 * which model and reference versions and runs it covered, and the
 * discrepancies it listed, so the next report can say what is new and
 * what was resolved. Structs returned here own their strings.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

struct review {
	int64_t id;
	char *created_at, *author;	/* defaults: now, $USER */
	char *model_source, *model_version;
	char *ref_source, *ref_version;
	char *runs;		/* JSON array of run ids, e.g. "[1,2]" */
	double limit;		/* |error| limit of the listing; NaN = unknown */
};

/* One listed discrepancy, keyed by (workload, op, metric). */
struct review_item {
	char *workload, *op, *metric;
	double model, ref, err;
};

/* Store r with its n items in one transaction; id_out (may be NULL)
 * receives the new id. Duplicate keys in items are PC_EINVALID. */
int db_review_add(struct db *db, const struct review *r,
		  const struct review_item *items, size_t n, int64_t *id_out);

/* The newest review of (model_source, ref_source), with its items
 * sorted by key. PC_ENOTFOUND (no message needed) when there is none.
 * Caller releases out with db_review_release and frees items with
 * db_review_items_free. */
int db_review_last(struct db *db, const char *model_source,
		   const char *ref_source, struct review *out,
		   struct review_item **items, size_t *n);

/* Number of reviews recorded for the pair of sources. */
int db_review_count(struct db *db, const char *model_source,
		    const char *ref_source, long *out);

void db_review_release(struct review *r);
void db_review_items_free(struct review_item *items, size_t n);

#endif
