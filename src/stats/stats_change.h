#ifndef PC_SRC_STATS_CHANGE_H
#define PC_SRC_STATS_CHANGE_H
/*
 * The release-change test (issue 34): is the change between two
 * releases on their common pairs more than the spread between workloads
 * (and ops) would give by chance? The one test `trend`, `diff`, `gate`
 * (max_mape_increase) and `report` use; docs/statistics.md, "The
 * release-change test".
 *
 * Over the n common pairs, d[i] = after[i] - before[i] (|error| of each
 * release against the same reference: delta = mean d = the MAPE change
 * on the common pairs). The pairs of one workload share its error, and
 * an op may carry an error shared across workloads, so d is not n
 * independent values. The variance of delta is cluster-robust, from the
 * residuals u = d - delta summed per workload and per op:
 *
 *   V_w = Gw/(Gw-1) * sum over workloads (sum u)^2 / n^2
 *   V_o = Go/(Go-1) * sum over ops       (sum u)^2 / n^2
 *
 * one-way: V = V_w (the variance the workload bootstrap estimates, with
 * the small-sample factor); two-way, when ops are crossed with workloads
 * (at least STATS_CHANGE_MIN_OPS ops each in at least 2 workloads): V =
 * V_w + V_o, the variance the pigeonhole bootstrap (resample workloads
 * and ops independently, Owen 2007) estimates: Cameron, Gelbach and
 * Miller's (2011) two-way variance without their subtraction of the
 * pair-level term, so conservative by it (with 5-15 ops the subtracted
 * form rejected 7% at 5% in the simulations; this one 4.4%). The test
 * statistic t = delta / sqrt(V) is referred to Student's t with df =
 * Gw - 1 (one-way) or the Satterthwaite df of V_w + V_o, (V_w + V_o)^2 /
 * (V_w^2/(Gw-1) + V_o^2/(Go-1)) (two-way): with 20 workloads the tails
 * are t's, not the normal's. The interval is delta -+ t_q sqrt(V), q =
 * (1 + level) / 2; p_increase = P(T >= t), the p of H0: delta <= 0;
 * p_two = 2 P(T >= |t|): the interval excludes 0 exactly when p_two <
 * 1 - level. Closed form: no resampling, no seed, O(n log n).
 */
#include <stddef.h>
#include <stdint.h>

#define STATS_CHANGE_LEVEL 0.95
#define STATS_CHANGE_MIN_OPS 3

struct stats_change {
	size_t n;		/* pairs used (both values finite) */
	size_t n_workloads, n_ops, n_crossed;	/* n_crossed: ops in >= 2
						   workloads */
	double mean_before, mean_after, delta;
	double se;		/* sqrt(V) */
	double df;
	double ci_lo, ci_hi, level;
	double t, p_increase, p_decrease, p_two;
	int two_way;		/* 1: workloads and ops; 0: workloads */
	const char *design;	/* "workloads" or "workloads x ops" */
	const char *why;	/* NULL, or why the interval / p are NaN */
};

/* why, with 2 .. STATS_CI_MIN_WORKLOADS - 1 workloads and some spread:
 * no interval, no p (issue 34). */
extern const char STATS_CHANGE_WHY_FEW[];

/* Compute over the i < n with before[i] and after[i] finite; wkey[i]
 * and okey[i] name pair i's workload and op (any int64 keys; a pair's
 * metric is part of neither). level <= 0 or >= 1: STATS_CHANGE_LEVEL.
 * Fewer than 2 workloads, or fewer than STATS_CI_MIN_WORKLOADS and not
 * exact: delta is defined, the interval and p-values are NaN and why
 * says so. Every pair changed by the same amount (up to
 * float rounding, 1e-12 of the largest |d|): se 0, the interval is
 * [delta, delta], the p-values 0 or 1 (the change is exact) and why
 * says so. Returns 0. */
int stats_change_compute(struct stats_change *out, const double *before,
			 const double *after, const int64_t *wkey,
			 const int64_t *okey, size_t n, double level);
/* The same without the minimum of workloads (2 suffice: the tests of
 * its formulas, the simulations). */
int stats_change_compute_raw(struct stats_change *out, const double *before,
			     const double *after, const int64_t *wkey,
			     const int64_t *okey, size_t n, double level);

/* The one-sided p of H0: the true change <= limit (the gate's
 * max_mape_increase): P(T >= (delta - limit) / se). NaN when c has no
 * interval. */
double stats_change_p_above(const struct stats_change *c, double limit);

/* The halfwidth of c's interval at its level (NaN when none). */
double stats_change_halfwidth(const struct stats_change *c);

#endif
