#ifndef PC_SRC_DIFF_H
#define PC_SRC_DIFF_H
/*
 * What moved between two pairings of the same sources (two model
 * versions against one reference, or one model against two reference
 * versions): the pairs both hold, matched on (workload, op, metric),
 * with the change of their error and whether the model value, the
 * reference value or both changed. perfcorr diff prints it and the
 * TUI's regressions view shows it. Every error is the core's.
 */
#include <stddef.h>

#include "src/corr/corrchange.h"
#include "src/corr/correlate.h"
#include "src/stats/stats.h"

enum diff_cause { DIFF_NONE, DIFF_MODEL, DIFF_REF, DIFF_BOTH };
extern const char *const diff_cause_names[4];	/* "none", "model", ... */

struct diff_change {
	const struct corr_point *b, *a;	/* before, after */
	double delta;			/* err after - err before */
	enum diff_cause cause;
};

struct diff {
	struct corr_set *before, *after;	/* owned, but see borrowed */
	int borrowed;		/* set by the caller: after is not freed */
	double tol;		/* a value changed: relative move > tol */
	double min_delta;	/* a pair moved: |delta| >= min_delta */
	struct diff_change *ch;	/* common pairs, largest |delta| first */
	size_t n, moved, only_before, only_after;
	/* the pairs only one pairing holds, in (workload, op, metric)
	 * order: into before (gone) and after (added) */
	const struct corr_point **gone, **added;
	long causes[4];
	struct stats_summary sb, sa, model_only, ref_only;
	struct corr_change change;	/* significance of the MAPE change */
};

/* Match before and after (d owns them from here, even on error) and
 * summarise both; tol and min_delta as in struct diff. */
int diff_build(struct diff *d, struct corr_set *before,
	       struct corr_set *after, double tol, double min_delta);
void diff_release(struct diff *d);

/* A regression: |error| grew by at least min_delta; an improvement: it
 * shrank by at least that much. */
int diff_is_regression(const struct diff *d, const struct diff_change *c);
int diff_is_improvement(const struct diff *d, const struct diff_change *c);
/* |err after| - |err before| of c. */
double diff_abs_change(const struct diff_change *c);
/* The regressions (reg) or improvements of d as indexes into d->ch,
 * largest |error| change first, into *out (caller frees); the count. */
size_t diff_list(const struct diff *d, int reg, size_t **out);

#endif
