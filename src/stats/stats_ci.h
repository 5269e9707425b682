#ifndef PC_SRC_STATS_CI_H
#define PC_SRC_STATS_CI_H
/*
 * Bootstrap confidence intervals of the headline error statistics (MAPE,
 * bias, median |error|, geomean ratio) that resample WORKLOADS, not pairs:
 * the ops and metrics of one workload share its configuration and are
 * not independent (docs/statistics.md, "Confidence intervals").
 *
 * One resample draws as many workloads as there are, with replacement,
 * and takes every pair of each drawn workload as many times as it was
 * drawn. The draws are counts per workload: a Poisson(1) base count from
 * a splitmix64 hash of (opts->seed, resample, workload key), fixed up to
 * exactly as many draws as workloads (multinomial: docs/statistics.md,
 * "The draws"); the statistic of the resample is computed
 * in one pass over per-workload sums (MAPE, bias, geomean: O(workloads)
 * per resample, whatever the pairs) and a weighted walk from the middle
 * of the |errors| sorted once (median): counts and index arrays, never
 * copies of the data. The
 * interval is the expanded percentile interval: quantiles a and 1 - a of
 * the resampled statistics, linear interpolation (stats_paired_quantile),
 * a = Phi(-sqrt(G / (G - 1)) t(G* - 1)) (G workloads, G* effective).
 * Two-way (ops crossed with workloads, or asked), MAPE, bias and the
 * geomean get t intervals of a two-way jackknife variance instead, the
 * median the bootstrap's arms widened; the correlations and agreement
 * statistics have jackknife intervals either way (stats_ci_int.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "src/stats/stats.h"
#include "src/stats/stats_paired.h"

#define STATS_CI_RESAMPLES 1000

/* What the intervals treat as independent (stats_paired_opts.cluster,
 * compare --cluster): automatic (workloads and ops when ops are crossed
 * with workloads: at least STATS_CHANGE_MIN_OPS ops each in >= 2
 * workloads, as the release-change test decides), workloads only, or
 * workloads and ops whatever the design. */
enum stats_ci_cluster {
	STATS_CI_AUTO, STATS_CI_WORKLOAD, STATS_CI_WORKLOAD_OP
};

/* Fill s->mape_ci, bias_ci, median_abs_err_ci and geomean_ratio_ci and
 * s->workloads over the n pairs (model[i], ref[i]) of workload wkey[i]
 * (any int64 key; every ref[i] != 0): the summary stats_compute made of
 * the same pairs. An interval is computed only where its statistic is
 * finite and there are at least 2 workloads (with one, nothing measures
 * the spread between workloads); otherwise it stays NaN. opts: NULL or
 * zero fields = STATS_CI_RESAMPLES, STATS_PAIRED_SEED, 0.95. */
/* Also the Fisher-z intervals of pearson, pearson_log and spearman
 * (which treat the n pairs as independent): tanh(atanh r -+ z sqrt(c /
 * (n - 3))), z the normal quantile (1 + level) / 2, c = 1 (Pearson) or
 * 1.06 (Spearman: Fieller, Hartley and Pearson 1957); NaN when r is or
 * n <= 3. */
void stats_ci_compute(struct stats_summary *s, const double *model,
		      const double *ref, const int64_t *wkey, size_t n,
		      const struct stats_paired_opts *opts);

/* The base counts of the first summary, kept for the later ones whose
 * workloads it holds (a base count depends only on the seed, the
 * resample and the workload's key): stats_ci_compute_shared with the
 * same cache gives the same intervals as stats_ci_compute, without
 * hashing again. At most 64 MiB (a nibble per workload and resample). */
struct stats_ci_draws;
struct stats_ci_draws *stats_ci_draws_new(void);
void stats_ci_draws_free(struct stats_ci_draws *d);
void stats_ci_compute_shared(struct stats_summary *s, const double *model,
			     const double *ref, const int64_t *wkey, size_t n,
			     const struct stats_paired_opts *opts,
			     struct stats_ci_draws *draws);
/* The same with the references' standard errors (NULL: none), which a
 * weighted fit's interval needs (its weights; without them a weighted
 * fit has no interval), and each pair's op (okey, NULL: none), which
 * two-way intervals need (opts->cluster; docs/statistics.md, "What each
 * interval resamples"): s->ci_clustered 2 when they are. */
void stats_ci_compute_se(struct stats_summary *s, const double *model,
			 const double *ref, const double *ref_se,
			 const int64_t *wkey, const int64_t *okey, size_t n,
			 const struct stats_paired_opts *opts,
			 struct stats_ci_draws *draws);

/* stats_ci_compute_se is these two: every interval as computed, then
 * stats_ci_bound(s, STATS_CI_MIN_WORKLOADS). */
void stats_ci_compute_raw(struct stats_summary *s, const double *model,
			  const double *ref, const double *ref_se,
			  const int64_t *wkey, const int64_t *okey, size_t n,
			  const struct stats_paired_opts *opts,
			  struct stats_ci_draws *draws);
/* Issue 34: with 2 .. min_workloads - 1 workloads (s->workloads) every
 * interval NaN and s->why[SF_CI] = STATS_WHY_CIFEW (min_workloads <= 0:
 * no minimum, for the simulations that choose it); else mape_ci and
 * median_abs_err_ci cut to [0, max |e|], bias_ci to [-max |e|, max |e|],
 * geomean_ratio_ci to [max(0, 1 - max |e|), 1 + max |e|]: the values
 * those statistics can take on any resample of the data
 * (docs/statistics.md, "How few workloads"). */
void stats_ci_bound(struct stats_summary *s, int min_workloads);

#endif
