#ifndef PC_SRC_CORRCHANGE_H
#define PC_SRC_CORRCHANGE_H
/*
 * Is the change between two releases significant? (issue 19; `trend`
 * and `diff`.) On the pairs both sets hold (same workload, op, metric)
 * and use in their statistics (not invalid, not noisy, reference != 0,
 * not waived with skip_waived): |error| before and after, through
 * stats_paired (the function the gate's max_mape_increase uses): the
 * MAPE change on those pairs, its paired bootstrap interval and the
 * Wilcoxon signed-rank p-values. docs/statistics.md, "Versions".
 */
#include <stdio.h>

#include "src/corr/correlate.h"
#include "src/stats/stats_paired.h"

struct corr_change {
	struct stats_paired p;
	size_t only_before, only_after;	/* usable pairs in one set only */
	double p_two;		/* two-sided Wilcoxon: 2 min(p_inc, p_dec) */
	int significant;	/* interval excludes 0 and p_two < 1 - level */
	const char *verdict;	/* "worse", "better", "not significant",
				   "no common pairs" */
};

/* Compute; opts NULL = the defaults of stats_paired.h. Returns 0. */
int corr_change_compute(struct corr_change *out, const struct corr_set *before,
			const struct corr_set *after, int skip_waived,
			const struct stats_paired_opts *opts);

/* The JSON object {common, mape_before, mape_after, delta, delta_ci,
 * level, resamples, seed, test, p_increase, p_decrease, p_two_sided,
 * significant, verdict, only_before, only_after}. */
void corr_change_json(FILE *fp, const struct corr_change *c);

/* One line: "+1.20 pt on 35 common pairs, 95% CI [+0.40, +2.10] pt,
 * Wilcoxon p 0.0031: worse". */
void corr_change_text(FILE *fp, const struct corr_change *c);
/* Short, for a table cell: "+1.20 pt *" / "+0.10 pt" / "". */
const char *corr_change_cell(char *buf, size_t len,
			     const struct corr_change *c);

#endif
