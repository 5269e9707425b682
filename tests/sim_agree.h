#ifndef PC_TESTS_SIM_AGREE_H
#define PC_TESTS_SIM_AGREE_H
/*
 * The false-alarm rate and power of the agreement tests on simulated
 * studies (issue 34): Deming's joint test of the identity (p_identity:
 * slope 1 and intercept 0) and the proportional bias's p. Shared by
 * tests/unit/test_stats_agree_null.c (CI-sized) and
 * tests/bench/sim_coverage.c (the big version behind docs/statistics.md).
 * Header only; it reports, the caller asserts.
 *
 * tests/sim_study.h's studies are no null for either test: there ln m =
 * ln r + d with d independent of ln r, so Var ln m = Var ln r + Var d and
 * the log difference rises with the log mean (a proportional-bias slope
 * of about 0.003), and E[m | r] = r e^(s^2/2), Deming's slope above 1.
 * What the tests claim (docs/statistics.md, "The agreement tests' null"):
 *
 *   - proportional bias: the slope of D = ln m - ln r on A = (ln m +
 *     ln r) / 2 is 0: D is uncorrelated with A, equivalently Var ln m =
 *     Var ln r (Pitman and Morgan's test of equal variances);
 *   - Deming with lambda = 1 (no reference stddev: orthogonal
 *     regression): the principal axis of (ref, model) is the identity,
 *     E m = E r and Var m = Var r; with lambda the ratio of the error
 *     variances, model = T + e_m and ref = T + e_r of one truth T.
 *
 * Both hold exactly when model and reference are exchangeable around a
 * truth: a study here draws for pair (w, o) of workload w and op o
 *
 *     A = ln 1e-6 + mag_w Z_w + mag_o Z_o + mag_p Z_wo   (its magnitude)
 *     D = a[w] + b[o] + e[w, o] + prop (A - ln 1e-6)      (its log error)
 *     ln m = A + D / 2 + ln scale,   ln r = A - D / 2
 *
 * a ~ N(0, sd_w) shared by the ops of a workload (the clustering of every
 * real study), b ~ N(0, sd_o) shared by an op across the workloads (0 for
 * the workload-clustered design), e ~ N(0, sd_p). The magnitudes span
 * decades (sd about 1.5, as sim_study.h's references) and cluster too: a
 * workload's kernels share its batch and sequence, an op's its shape.
 * That is what makes a pair-level test wrong: with magnitudes
 * independent across pairs a shared error averages out of the slope's
 * numerator sum (A - mean A) D, with magnitudes shared it does not.
 * prop = 0 and scale = 1 is the null of both tests; prop != 0 a real
 * proportional bias (the log error rises by prop per e-fold of size:
 * model ~ ref^(1 + prop) near the identity), scale != 1 a model
 * scale x the reference everywhere (Deming slope scale, intercept 0;
 * no proportional bias).
 *
 * Seeded (tests/sim_study.h's splitmix64): the same seed, the same
 * studies.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim_study.h"
#include "src/stats/stats.h"
#include "src/stats/stats_ci.h"

struct sim_agree_design {
	const char *name;
	double sd_w, sd_o, sd_p;	/* the log error's components */
	double mag_w, mag_o, mag_p;	/* the log magnitude's */
};

/* How a run lays its studies out for the intervals: the design's
 * workloads and ops (compare's view), or every pair in one workload (the
 * pair-level p the tests print without clusters). */
enum { SA_CLUSTERED, SA_PAIR_LEVEL };

struct sim_agree {
	int studies;
	int defined[2], reject[2];	/* [0] Deming, [1] prop. bias */
	int basis[3];			/* studies per ci_clustered */
};

/* One study of design d into m, r, w, o (n pairs; arrays of at least
 * 40 x 15): nw workloads (0: 20-40, drawn; at most 40). */
static inline size_t sim_agree_study(struct sim_rng *rng,
				     const struct sim_agree_design *d,
				     double prop, double scale, double *m,
				     double *r, int64_t *w, int64_t *o,
				     size_t nw_fixed)
{
	size_t nw = nw_fixed ? (nw_fixed < 40 ? nw_fixed : 40) :
		    20 + sim_index(rng, 21);
	size_t no = 5 + sim_index(rng, 11);
	double aw[40], mw[40], bo[15], mo[15], ls = log(scale);
	size_t n = 0;

	for (size_t i = 0; i < nw; i++) {
		aw[i] = d->sd_w * sim_normal(rng);
		mw[i] = d->mag_w * sim_normal(rng);
	}
	for (size_t j = 0; j < no; j++) {
		bo[j] = d->sd_o * sim_normal(rng);
		mo[j] = d->mag_o * sim_normal(rng);
	}
	for (size_t i = 0; i < nw; i++)
		for (size_t j = 0; j < no; j++, n++) {
			double a = mw[i] + mo[j] + d->mag_p * sim_normal(rng);
			double dd = aw[i] + bo[j] + d->sd_p * sim_normal(rng) +
				    prop * a;

			m[n] = 1e-6 * exp(a + dd / 2 + ls);
			r[n] = 1e-6 * exp(a - dd / 2);
			w[n] = (int64_t)i;
			o[n] = (int64_t)j;
		}
	return n;
}

/*
 * The rejection rates at alpha of nstudy studies of design d from seed
 * (alternative prop, scale; 0, 1: the null), intervals with opts o, laid
 * out as how (SA_CLUSTERED: the study's workloads and ops; SA_PAIR_LEVEL:
 * one workload) into out. 0, or -1 when out of memory or stats_compute
 * fails.
 */
static inline int sim_agree_run_nw(const struct sim_agree_design *d,
				   double prop, double scale, int nstudy,
				   uint64_t seed, double alpha,
				   const struct stats_paired_opts *o, int how,
				   size_t nw, struct sim_agree *out)
{
	size_t cap = 40 * 15;
	double *m = malloc(cap * sizeof(*m)), *r = malloc(cap * sizeof(*r));
	int64_t *w = malloc(cap * sizeof(*w)), *k = malloc(cap * sizeof(*k));
	int64_t *one = calloc(cap, sizeof(*one));
	struct sim_rng rng;
	int rc = m && r && w && k && one ? 0 : -1;

	memset(out, 0, sizeof(*out));
	sim_rng_seed(&rng, seed);
	for (int t = 0; t < nstudy && rc == 0; t++) {
		size_t n = sim_agree_study(&rng, d, prop, scale, m, r, w, k,
					   nw);
		struct stats_summary s;
		double p[2];

		if (stats_compute(&s, m, r, NULL, n) < 0) {
			rc = -1;
			break;
		}
		stats_ci_compute_se(&s, m, r, NULL, how == SA_PAIR_LEVEL ?
				    one : w, how == SA_PAIR_LEVEL ? NULL : k,
				    n, o, NULL);
		out->studies++;
		out->basis[s.ci_clustered < 0 || s.ci_clustered > 2 ? 0 :
			   s.ci_clustered]++;
		p[0] = s.deming.p_identity;
		p[1] = s.prop_bias_p;
		for (int j = 0; j < 2; j++) {
			out->defined[j] += !isnan(p[j]);
			out->reject[j] += p[j] < alpha;
		}
	}
	free(m);
	free(r);
	free(w);
	free(k);
	free(one);
	return rc;
}

/* sim_agree_run_nw of 20-40 workloads. */
static inline int sim_agree_run(const struct sim_agree_design *d,
				double prop, double scale, int nstudy,
				uint64_t seed, double alpha,
				const struct stats_paired_opts *o, int how,
				struct sim_agree *out)
{
	return sim_agree_run_nw(d, prop, scale, nstudy, seed, alpha, o, how,
				0, out);
}

/* Test j's rejection rate in percent. */
static inline double sim_agree_pct(const struct sim_agree *a, int j)
{
	return a->studies ? 100.0 * a->reject[j] / a->studies : NAN;
}

#endif
