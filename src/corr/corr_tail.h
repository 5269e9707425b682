#ifndef PC_SRC_CORR_TAIL_H
#define PC_SRC_CORR_TAIL_H
/*
 * Tails and distributions (issue 38 item 2): where the pairs hold
 * stated percentiles (metrics "<base>_pNN" such as ttft_p50, ttft_p99:
 * what the serving importers store, importers/serving.h and stacks.h),
 * the error at each percentile separately (one summary per stated
 * percentile) and, per key (workload, op, base metric), a distance
 * between the model's and the reference's distributions: Wasserstein-1
 * on the log scale from the percentiles both state
 * (src/stats/stats_dist.h). docs/statistics.md, "Tails and
 * distributions".
 *
 * Ownership: a corr_tails owns its arrays and base names; workload, op
 * and metric names are borrowed from the corr_set it was built from.
 * Works on full and slim sets alike.
 */
#include <stddef.h>

#include "src/stats/stats.h"

struct corr_set;

/* One stated percentile of one base metric, over the pairs of the
 * metric "<base>_pNN". */
struct corr_tail_pct {
	char *base;		/* "ttft" */
	const char *metric;	/* "ttft_p99" */
	double u;		/* its level, 0.99 */
	struct stats_summary sum;
};

/* One key (workload, op, base metric) with stated percentiles on both
 * sides. */
struct corr_tail_key {
	const char *workload, *op;
	const char *base;	/* the corr_tail_pct's */
	size_t k;		/* common levels (pairs in the statistics) */
	double *u, *model, *ref;	/* k each, u ascending (one block) */
	double w1;		/* W1 of ln values; NaN: why */
	const char *why;
	double err_lo, err_hi;	/* error at the lowest / highest level */
};

struct corr_tails {
	struct corr_tail_pct *pct;	/* by base, then level */
	size_t npct;
	struct corr_tail_key *keys;	/* largest w1 first, NaN last */
	size_t nkeys, nw;		/* nw: keys with a distance */
	long excluded;		/* percentile pairs left out: invalid,
				   noisy reference, waived (skip_waived) */
};

/* 1 when metric is "<base>_pNN" with 0 < NN < 100 (decimals allowed:
 * p99.9): base (len bytes) and *u = NN / 100. */
int corr_tail_level(const char *metric, char *base, size_t len, double *u);

/* The tails of s: out->npct 0 when no pair is a stated percentile.
 * Points left out as the summaries leave them out (invalid, noisy;
 * waived with skip_waived). */
int corr_tails_build(struct corr_tails *out, const struct corr_set *s,
		     int skip_waived);
void corr_tails_release(struct corr_tails *t);

/* "p99", "p99.9" for a level (buf of len bytes). */
const char *corr_tail_name(char *buf, size_t len, double u);

#endif
