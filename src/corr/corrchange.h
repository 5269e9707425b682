#ifndef PC_SRC_CORRCHANGE_H
#define PC_SRC_CORRCHANGE_H
/*
 * Is the change between two releases significant? (issues 19, 34;
 * `trend`, `diff` and the report's previous-version section.) On the
 * pairs both sets hold (same workload, op, metric) and use in their
 * statistics (not invalid, not noisy, reference != 0, not waived with
 * skip_waived): |error| before and after, through the release-change
 * test of src/stats_change.h (the one the gate's max_mape_increase
 * uses): the MAPE change on those pairs, its workload- (and op-)
 * clustered interval and p-value. The Wilcoxon signed-rank p over the
 * pairs is kept as a pair-level figure (it counts every pair as
 * independent: not the verdict's). docs/statistics.md, "The
 * release-change test".
 */
#include <stdio.h>

#include "src/corr/correlate.h"
#include "src/stats/stats_change.h"

struct corr_change {
	struct stats_change p;
	size_t only_before, only_after;	/* usable pairs in one set only */
	double pair_p;		/* pair-level two-sided Wilcoxon p */
	int pair_exact;		/* its distribution: exact or normal */
	int significant;	/* p.p_two < 1 - level (the interval then
				   excludes 0) */
	const char *verdict;	/* "worse", "better", "not significant",
				   "no common pairs" */
};

/* Order of two points by (workload, op, metric) ids, the pairing key
 * shared by corrchange and diff (which includes this header: the key
 * lives beside the change computation, below diff); diff_ptr_cmp is its
 * qsort form over arrays of point pointers. */
int diff_key_cmp(const struct corr_point *x, const struct corr_point *y);
int diff_ptr_cmp(const void *x, const void *y);

/* Compute; level 0 = STATS_CHANGE_LEVEL. Returns 0. */
int corr_change_compute(struct corr_change *out, const struct corr_set *before,
			const struct corr_set *after, int skip_waived,
			double level);

/* The JSON object {common, mape_before, mape_after, delta, delta_ci,
 * level, test, design, workloads, ops, df, p_increase, p_decrease,
 * p_two_sided, significant, verdict, pair_level, only_before,
 * only_after}. */
void corr_change_json(FILE *fp, const struct corr_change *c);

/* One line: "MAPE change on the 35 common pairs: +1.20 pt (...), 95% CI
 * [+0.40, +2.10] pt, p 0.0031 (7 workloads x 5 ops): worse". */
void corr_change_text(FILE *fp, const struct corr_change *c);
/* The same line, without the newline, appended to sb (the report). */
struct strbuf;
void corr_change_line(struct strbuf *sb, const struct corr_change *c);
/* Short, for a table cell: "+1.20 pt *" / "+0.10 pt" / "". */
const char *corr_change_cell(char *buf, size_t len,
			     const struct corr_change *c);

#endif
