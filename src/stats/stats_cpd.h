#ifndef PC_SRC_STATS_CPD_H
#define PC_SRC_STATS_CPD_H
/*
 * Change points of a series (issue 34 item 5): where did it step? E-Divisive
 * with means (Matteson & James 2014, "A nonparametric approach for multiple
 * change point analysis of multivariate data", JASA 109; the method of
 * MongoDB's CI, signal-processing-algorithms, and of Apache Otava/Hunter),
 * with the energy distance's exponent 1. Pure functions; docs/statistics.md
 * "Change points".
 *
 * The series is n observations x[0..n) of d values each (row-major:
 * x[i * d + k]); the distance of two is the root mean square of their
 * differences (Euclidean / sqrt(d)). For a segment [a, b), a split tau
 * and an end kappa (left L = [a, tau), right R = [tau, kappa), sizes m1,
 * m2 >= min_size):
 *
 *   E = 2/(m1 m2) sum_{i in L, j in R} D_ij - sum_{i<j in L} D_ij / C(m1,2)
 *       - sum_{i<j in R} D_ij / C(m2,2)
 *   Q(tau) = max over kappa of m1 m2 / (m1 + m2) E
 *
 * (the end kappa as in the paper and R's ecp::e.divisive: a step that
 * is later undone, a bump, is found too; a within term of one
 * observation is 0). Divisive: the split with the
 * largest Q over every current segment is the candidate (the earliest on
 * a tie); a permutation test judges it: the segment's observations are
 * shuffled `permutations` times (Fisher-Yates, splitmix64 seeded with
 * `seed`, index floor(u (i + 1)), u = (x >> 11) 2^-53; one stream for the
 * whole search), the largest Q over the splits of each shuffle is
 * recorded and p = (1 + #{shuffled max >= observed Q (1 - 1e-9)}) /
 * (permutations + 1). p <= alpha: a change point, the segment splits and
 * the search goes on; otherwise it stops. On a series without a change
 * the first test rejects with probability <= alpha (the permutation test
 * is exact), so alpha bounds the rate of series with a false change point.
 */
#include <stddef.h>
#include <stdint.h>

#define STATS_CPD_ALPHA 0.05
#define STATS_CPD_PERMUTATIONS 199
#define STATS_CPD_SEED 20261204u
#define STATS_CPD_MIN_SIZE 2

struct stats_cpd_opts {
	double alpha;		/* significance of each split */
	int permutations;	/* shuffles per test */
	uint64_t seed;
	size_t min_size;	/* observations in a segment, at least 1 */
};

/* The defaults above. */
void stats_cpd_opts_default(struct stats_cpd_opts *o);

struct stats_cpd_point {
	size_t at;	/* first observation after the step */
	double q;	/* its Q */
	double p;	/* its permutation p */
};

struct stats_cpd {
	struct stats_cpd_point *v;	/* change points, by at */
	size_t n;
	double p_stop;	/* p of the candidate that stopped the search; NaN
			   when no segment could split */
	double q_stop;
	size_t at_stop;	/* that candidate's split (0 when none) */
};

/* Change points of x (n observations of d values; finite). opts NULL:
 * the defaults. Fewer than 2 min_size observations: none (p_stop NaN).
 * Returns 0; stats_cpd_release frees. */
int stats_cpd_edivisive(struct stats_cpd *out, const double *x, size_t n,
			size_t d, const struct stats_cpd_opts *opts);
void stats_cpd_release(struct stats_cpd *c);

/* Q(tau) of every split of x[0..n) (d values each; the largest over
 * kappa) into q[0..n]: q[tau] for min_size <= tau <= n - min_size, NaN
 * elsewhere. For tests. */
void stats_cpd_q_curve(const double *x, size_t n, size_t d, size_t min_size,
		       double *q);

#endif
