#ifndef PC_SRC_REPORT_REVIEW_H
#define PC_SRC_REPORT_REVIEW_H
/*
 * Reviews in the report (docs/report.md, "Reviews"): --since-last-review
 * compares the current discrepancies with the items of the newest review
 * of the same two sources (new, resolved with why, still listed);
 * --record stores this one.
 */
#include <stddef.h>
#include <stdint.h>

struct db;
struct report;
struct review_item;

/* Fill r->is_new, news, resolved, nstill, last and have_review; the
 * last review's items into *items (the resolved entries borrow them).
 * No review yet: every discrepancy is new. */
int report_review_build(struct report *r, struct db *db,
			struct review_item **items, size_t *n);

/* Record the review: the sides, their runs, every current discrepancy. */
int report_review_record(struct db *db, const struct report *r,
			 int64_t *id_out);

#endif
