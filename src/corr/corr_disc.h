#ifndef PC_SRC_CORR_DISC_H
#define PC_SRC_CORR_DISC_H
/*
 * Discrepancies: the one definition that compare, report, the gate's
 * review and the TUI's "N open of M" count with (issue 35 QA).
 *
 * A discrepancy is a pair with a defined error whose |error| exceeds the
 * limit, not within the reference's noise, not excluded (noisy or
 * invalid). It is open while its current annotation's status is open or
 * investigating, or it has none (annot_status_open). A pairing whose
 * model is a roofline is a bound: its pairs are no model's errors, so it
 * has no discrepancies. The limit is the last recorded review's of the
 * two sources (`perfcorr report --since-last-review` records it), else
 * CORR_DISC_LIMIT, report --limit's default.
 *
 * An *outlier* (compare's `outliers`) is another thing: a pair whose
 * error is far from the median error (|e - median e| > 3 x 1.4826 x
 * MAD), a property of the error distribution, limit or not.
 */
#include <stddef.h>

struct corr_set;
struct db;

#define CORR_DISC_LIMIT 0.10

/* 1 when a pair of error err and corr_flags flags is a discrepancy. */
int corr_is_discrepancy(double err, unsigned flags, double limit);

struct corr_disc {
	long n, open;		/* discrepancies, the open ones */
	double limit;		/* the limit they were counted with */
	int from_review;	/* limit: the last review's (1) or the
				   default (0) */
	int bound;		/* the model is a roofline: none counted */
};

/* The limit of the pairing model_source vs ref_source: the last
 * recorded review's, else CORR_DISC_LIMIT (*from_review says which;
 * may be NULL). Errors of the database only (no review is no error). */
int corr_disc_limit(struct db *db, const char *model_source,
		    const char *ref_source, double *limit, int *from_review);

/* Count the discrepancies of s (full or slim points) with limit; the
 * open ones by the points' current annotations. */
void corr_disc_count(struct corr_disc *out, const struct corr_set *s,
		     double limit, int from_review);

#endif
