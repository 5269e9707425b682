#ifndef PC_IMPORTERS_DIST_H
#define PC_IMPORTERS_DIST_H
/*
 * Per-request distributions of the serving tools' per-request files
 * (AIPerf profile_export.jsonl, inference-perf per_request_lifecycle_
 * metrics.json): one double per request and metric, kept until the end,
 * then the statistics of stacks.h: mean, sample stddev (n-1), min, max,
 * n and p50/p90/p99 by linear interpolation (numpy.percentile's
 * default), so every such importer states the same statistics.
 */
#include <stddef.h>

#include "importers/stacks.h"

struct dist {
	double *v;
	size_t n, cap;
	long line;		/* of the first value */
};

/* Add one value (line: where it came from, for messages). */
void dist_add(struct dist *d, double v, long line);

/* The statistics of d into *st (stk_stat_init'ed here); sorts d->v.
 * 0 when d holds values, 1 when it is empty (*st left empty). */
int dist_stat(struct dist *d, struct stk_stat *st);

/* numpy.percentile's default (linear) of sorted v[0..n-1], n >= 1. */
double dist_pct(const double *v, size_t n, double p);

void dist_release(struct dist *d);

#endif
