#ifndef PC_SRC_STATS_DIST_H
#define PC_SRC_STATS_DIST_H
/*
 * A distance between two distributions that are known only by the
 * quantiles both state (issue 38 item 2: tails). No allocation, no
 * state; docs/statistics.md, "Tails and distributions", has the
 * definition and what it assumes.
 */
#include <stddef.h>

/*
 * Wasserstein-1 on the log scale between distributions A and B, each
 * given by its quantiles qa[j], qb[j] at the same levels u[j] (0 < u[0]
 * < ... < u[k-1] < 1), restricted to the band [u[0], u[k-1]] the
 * levels cover: each quantile function is taken as linear in the level
 * between the stated levels (ln q linear in u), nothing is assumed
 * outside the band, and the integral is divided by the band's width:
 *
 *   W = 1/(u[k-1] - u[0]) * integral over [u[0], u[k-1]] of
 *       |ln QA(u) - ln QB(u)| du
 *
 * which is exactly the W1 distance between the two log distributions
 * each conditioned on lying between its own u[0] and u[k-1] quantiles.
 * The integrand is piecewise linear; a segment whose ends differ in
 * sign is integrated on both sides of its zero. Returns NaN when k < 2
 * or a quantile is not > 0 (*why says which; why may be NULL). The
 * caller checks the levels and that each side's quantiles do not
 * decrease (stats_quantiles_ordered).
 */
double stats_w1_log_quantiles(const double *u, const double *qa,
			      const double *qb, size_t k, const char **why);

/* The index of the first j with q[j] < q[j - 1], or 0 when q[0..k) does
 * not decrease. */
size_t stats_quantiles_ordered(const double *q, size_t k);

#endif
