#ifndef PC_TESTS_SIM_COVERAGE_H
#define PC_TESTS_SIM_COVERAGE_H
/*
 * Coverage of the printed intervals on simulated studies (issue 34):
 * shared by tests/unit/test_stats_coverage.c (CI-sized) and
 * tests/bench/sim_coverage.c (the big version behind docs/statistics.md).
 * Header only, after check.h is not needed: it reports, the caller
 * asserts.
 *
 * A study is tests/sim_study.h's: 20-40 workloads x 5-15 ops, each op in
 * every workload, log(model / ref) = workload effect + op effect + pair
 * noise, references ref = 1e-6 exp(1.5 Z) spanning decades. Its pairs
 * all have the same distribution whatever the study's shape (ref = c
 * exp(1.5 Z), model = ref e^d, d ~ N(0, s^2), s^2 the sum of the three
 * variances, d independent of ref; the workloads and ops only make the
 * pairs dependent), so each statistic's true value is a closed form of
 * the moments E ref^k = c^k exp(k^2 1.5^2 / 2) and E e^(k d) =
 * exp(k^2 s^2 / 2) (sim_cov_truth). An interval covers when it holds its
 * statistic's true value.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim_study.h"
#include "src/stats/stats.h"
#include "src/stats/stats_ci.h"

enum { SC_MAPE, SC_BIAS, SC_MEDIAN, SC_GEOMEAN, SC_PEARSON,
       SC_PEARSON_LOG, SC_SPEARMAN, SC_CCC, SC_CCC_LOG, SC_LOA_LO,
       SC_LOA_HI, SC_SLOPE, SC_ICPT, SC_N };
static const char *const sim_cov_name[SC_N] = {
	"MAPE", "bias", "median |e|", "geomean", "Pearson", "Pearson log",
	"Spearman", "CCC", "CCC log", "LoA low", "LoA high", "fit slope",
	"fit intercept" };

struct sim_cov_design {
	const char *name;
	double sd_w, sd_o, sd_p;
};

struct sim_cov {
	int studies, hit[SC_N], low[SC_N], high[SC_N];	/* truth below lo,
							   above hi */
	int basis[3];		/* studies per ci_basis (ci_clustered) */
	int defined[SC_N];	/* studies with an interval */
	double width[SC_N];	/* summed widths */
};

static inline double sim_cov_phi(double x)
{
	return 0.5 * erfc(-x / sqrt(2));
}

/* The true values of design d into v[SC_N] (slope, intercept: of the
 * least-squares fit model = a + b ref, c = 1e-6). */
static inline void sim_cov_truth(const struct sim_cov_design *d, double *v)
{
	double s2 = d->sd_w * d->sd_w + d->sd_o * d->sd_o + d->sd_p * d->sd_p;
	double s = sqrt(s2), g2 = 1.5 * 1.5, c = 1e-6;
	double ex = exp(g2 / 2), ex2 = exp(2 * g2), vx = ex2 - ex * ex;
	double m1 = exp(s2 / 2), m2 = exp(2 * s2);
	double vy = ex2 * m2 - ex * ex * m1 * m1, cxy = m1 * vx;
	double dm = ex - ex * m1, rl = sqrt(g2 / (g2 + s2));
	double lo = 0, hi = 1;

	v[SC_MAPE] = m1 * erf(s / sqrt(2));
	v[SC_BIAS] = m1 - 1;
	/* the median of |e^d - 1|: P(ln(1 - m) < d < ln(1 + m)) = 1/2 */
	for (int i = 0; i < 200; i++) {
		double m = (lo + hi) / 2;

		if (sim_cov_phi(log1p(m) / s) - sim_cov_phi(log1p(-m) / s) <
		    0.5)
			lo = m;
		else
			hi = m;
	}
	v[SC_MEDIAN] = (lo + hi) / 2;
	v[SC_GEOMEAN] = 1;	/* exp(E d) */
	v[SC_PEARSON] = cxy / sqrt(vx * vy);
	v[SC_PEARSON_LOG] = rl;	/* corr(X, X + d), X ~ N(., 1.5^2) */
	/* bivariate normal logs: Spearman = (6 / pi) asin(r / 2) */
	v[SC_SPEARMAN] = 6 / 3.14159265358979323846 * asin(rl / 2);
	v[SC_CCC] = 2 * cxy / (vx + vy + dm * dm);
	v[SC_CCC_LOG] = 2 * g2 / (2 * g2 + s2);
	v[SC_LOA_LO] = -1.96 * s;
	v[SC_LOA_HI] = 1.96 * s;
	v[SC_SLOPE] = m1;	/* Cov(ref, model) / Var ref */
	v[SC_ICPT] = c * (ex * m1 - m1 * ex);	/* 0 */
}

static inline void sim_cov_intervals(const struct stats_summary *s,
				     struct stats_ci *c)
{
	c[SC_MAPE] = s->mape_ci;
	c[SC_BIAS] = s->bias_ci;
	c[SC_MEDIAN] = s->median_abs_err_ci;
	c[SC_GEOMEAN] = s->geomean_ratio_ci;
	c[SC_PEARSON] = s->pearson_ci;
	c[SC_PEARSON_LOG] = s->pearson_log_ci;
	c[SC_SPEARMAN] = s->spearman_ci;
	c[SC_CCC] = s->ccc_ci;
	c[SC_CCC_LOG] = s->ccc_log_ci;
	c[SC_LOA_LO] = s->loa_low_ci;
	c[SC_LOA_HI] = s->loa_high_ci;
	c[SC_SLOPE] = s->fit_slope_ci;
	c[SC_ICPT] = s->fit_intercept_ci;
}

/* The statistics and intervals of study st with opts o: workload keys
 * wkey (NULL: the study's), its ops as the op keys unless no_ops. 0, or
 * -1 when out of memory or stats_compute fails. */
static inline int sim_cov_summary_min(const struct sim_study *st,
				      const int64_t *wkey, int no_ops,
				      const struct stats_paired_opts *o,
				      int min_workloads,
				      struct stats_summary *s)
{
	double *m = malloc((st->n + 1) * sizeof(*m));
	double *r = malloc((st->n + 1) * sizeof(*r));
	int64_t *w = malloc((st->n + 1) * sizeof(*w));
	int64_t *k = malloc((st->n + 1) * sizeof(*k));
	int rc = -1;

	if (m && r && w && k) {
		for (size_t i = 0; i < st->n; i++) {
			m[i] = st->pairs[i].model;
			r[i] = st->pairs[i].ref;
			w[i] = wkey ? wkey[i] : (int64_t)st->pairs[i].workload;
			k[i] = (int64_t)st->pairs[i].op;
		}
		rc = stats_compute(s, m, r, NULL, st->n);
		if (rc == 0) {
			stats_ci_compute_raw(s, m, r, NULL, w,
					     no_ops ? NULL : k, st->n, o,
					     NULL);
			if (min_workloads >= 0)
				stats_ci_bound(s, min_workloads);
		}
	}
	free(m);
	free(r);
	free(w);
	free(k);
	return rc;
}

/* The same with the product's minimum of workloads (what compare
 * prints). */
static inline int sim_cov_summary(const struct sim_study *st,
				  const int64_t *wkey, int no_ops,
				  const struct stats_paired_opts *o,
				  struct stats_summary *s)
{
	return sim_cov_summary_min(st, wkey, no_ops, o,
				   STATS_CI_MIN_WORKLOADS, s);
}

/*
 * Coverage of nstudy studies of design d from seed, intervals with opts
 * o (one_workload: every pair in one workload, the pair-level intervals;
 * no_ops: no op keys given) into out. 0, or -1 when out of memory.
 */
struct sim_cov_shape {
	size_t nw_lo, nw_hi;	/* workloads: uniform in [lo, hi] */
	int min_workloads;	/* stats_ci_bound's (0: no minimum, cut to
				   the range; < 0: neither) */
};

static inline int sim_cov_run_shape(const struct sim_cov_design *d,
				    int nstudy, uint64_t seed,
				    const struct stats_paired_opts *o,
				    const struct sim_cov_shape *sh,
				    int one_workload, int no_ops,
				    struct sim_cov *out)
{
	struct sim_rng rng;
	double truth[SC_N];

	memset(out, 0, sizeof(*out));
	sim_rng_seed(&rng, seed);
	sim_cov_truth(d, truth);
	for (int t = 0; t < nstudy; t++) {
		size_t nw = sh->nw_lo + sim_index(&rng, sh->nw_hi - sh->nw_lo +
						  1);
		size_t no = 5 + sim_index(&rng, 11);
		struct sim_study *st = sim_study_make(&rng, nw, no, d->sd_w,
						      d->sd_o, d->sd_p, 0);
		int64_t *one = st ? calloc(st->n + 1, sizeof(*one)) : NULL;
		struct stats_summary s;
		struct stats_ci c[SC_N];

		if (!one || sim_cov_summary_min(st, one_workload ? one : NULL,
						no_ops, o, sh->min_workloads,
						&s) < 0) {
			free(one);
			sim_study_free(st);
			return -1;
		}
		out->studies++;
		out->basis[s.ci_clustered < 0 || s.ci_clustered > 2 ? 0 :
			   s.ci_clustered]++;
		sim_cov_intervals(&s, c);
		for (int k = 0; k < SC_N; k++) {
			out->hit[k] += c[k].lo <= truth[k] &&
				       truth[k] <= c[k].hi;
			out->low[k] += truth[k] < c[k].lo;
			out->high[k] += truth[k] > c[k].hi;
			out->width[k] += c[k].hi - c[k].lo;
			out->defined[k] += !isnan(c[k].lo) && !isnan(c[k].hi);
		}
		free(one);
		sim_study_free(st);
	}
	return 0;
}

/* sim_cov_run_shape of 20-40 workloads, the product's minimum. */
static inline int sim_cov_run(const struct sim_cov_design *d, int nstudy,
			      uint64_t seed, const struct stats_paired_opts *o,
			      int one_workload, int no_ops,
			      struct sim_cov *out)
{
	static const struct sim_cov_shape sh = { 20, 40,
						 STATS_CI_MIN_WORKLOADS };

	return sim_cov_run_shape(d, nstudy, seed, o, &sh, one_workload,
				 no_ops, out);
}

/* Coverage of statistic k in percent. */
static inline double sim_cov_pct(const struct sim_cov *c, int k)
{
	return c->studies ? 100.0 * c->hit[k] / c->studies : NAN;
}

#endif
