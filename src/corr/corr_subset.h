#ifndef PC_SRC_CORR_SUBSET_H
#define PC_SRC_CORR_SUBSET_H
/*
 * A subset of a correlation set: the points a keep function selects, as
 * a set of its own that every consumer of a corr_set (summaries, groups,
 * the gate) reads like any other. Ownership: the subset owns its points
 * array only; every string, the sides, the store (names, parameters,
 * annotations) are the parent's, which must outlive it. The counts of
 * the points' flags (noisy, invalid, speed-of-light violations) are the
 * subset's own; the counts of pairs refused before pairing
 * (fingerprints, superseded) stay the parent's.
 */
#include <stddef.h>

#include "src/corr/correlate.h"

/* The points of s (full points: a slim set is PC_EINVALID) keep selects
 * (NULL: all), in s's order, into *out. */
int corr_subset(struct corr_set *out, const struct corr_set *s,
		int (*keep)(const struct corr_point *p, void *arg), void *arg);
/* Free the points array; the parent is untouched. */
void corr_subset_release(struct corr_set *sub);

#endif
