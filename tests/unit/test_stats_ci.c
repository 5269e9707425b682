/*
 * The intervals of MAPE, bias, the geomean (jackknife t intervals over
 * workloads, and ops two-way) and the median |error| (the workload
 * bootstrap's expanded percentile interval) of src/stats_ci.c against
 * an independent computation: tests/ref/stats_ci_ref.py (pure python3:
 * each leave-one-out sample and each resample built as an explicit list
 * of pairs and summarised with the textbook formulas; the draws of
 * docs/statistics.md, Poisson base counts by a hash of the workload key
 * fixed up to exactly the workloads' number; t by numerical
 * integration). Its output, pasted (issue 34 moved MAPE, bias and the
 * geomean from the percentile bootstrap, which covered 91-92% on
 * clustered data, to the jackknife):
 *
 *   200 20261201 0.95
 *     mape (0.032508912365187694, 0.2962149511051766)
 *     bias (-0.03242044583716188, 0.054340949575847376)
 *     med (0.050000000000000044, 0.1)
 *     geo (0.9565723522734891, 1.0548915064429445)
 *   1000 42 0.9
 *     mape (0.043538656138700636, 0.221174164311814)
 *     bias (-0.02094942658417663, 0.042869930322862126)
 *     med (0.050000000000000044, 0.1)
 *     geo (0.9690263083636712, 1.0413340081709614)
 *   200 20261201 0.95 two-way
 *     mape (0.035528930670961655, 0.2710361867042338)
 *     bias (-0.053271784258981277, 0.07519228799766678)
 *     med (0.05000000000000004, 0.10000000000000002)
 *     geo (0.943090020410293, 1.0699721425028437)
 *
 * Coverage: synthetic studies with a known truth (below) and
 * reproducibility (same seed, same interval; another seed, another).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "src/stats/stats.h"
#include "src/stats/stats_ci.h"

static const double model[] = { 1.10, 2.00, 0.95, 3.30, 1.00, 5.50, 0.80,
				1.21, 2.40, 0.50, 4.00 };
static const double ref[] = { 1.00, 2.10, 1.00, 3.00, 1.00, 5.00, 1.00,
			      1.10, 2.00, 0.55, 4.40 };
static const int64_t wkey[] = { 7, 7, 3, 3, 3, 11, 5, 5, 5, 5, 9 };
/* ops crossed with the workloads: 1, 2 and 3 in several */
static const int64_t okey[] = { 1, 2, 1, 2, 3, 1, 1, 2, 3, 4, 2 };

static void summary(struct stats_summary *s, unsigned res, uint64_t seed,
		    double level)
{
	struct stats_paired_opts o = { res, seed, level, 0 };

	CHECK_INT(stats_compute(s, model, ref, NULL, 11), 0);
	stats_ci_compute(s, model, ref, wkey, 11, &o);
}

/* MAPE's upper end as computed, before stats_ci_bound cuts it at max |e|
 * (0.2 here: the reference's 0.296 is above any MAPE of these pairs). */
static double raw_mape_hi(unsigned res, uint64_t seed, double level,
			  const int64_t *ok)
{
	struct stats_paired_opts o = { res, seed, level, 0 };
	struct stats_summary s;

	CHECK_INT(stats_compute(&s, model, ref, NULL, 11), 0);
	stats_ci_compute_raw(&s, model, ref, NULL, wkey, ok, 11, &o, NULL);
	CHECK_NEAR(s.max_abs_err, 0.2, 1e-15);
	return s.mape_ci.hi;
}

TEST(reference)
{
	struct stats_summary s;

	struct stats_paired_opts o = { 200, 20261201, 0.95, 0 };

	summary(&s, 200, 20261201, 0.95);
	CHECK_INT(s.workloads, 5);
	CHECK_INT(s.ci_clustered, 1);
	CHECK_NEAR(s.mape_ci.lo, 0.032508912365187694, 1e-11);
	CHECK_NEAR(raw_mape_hi(200, 20261201, 0.95, NULL), 0.2962149511051766,
		   1e-11);
	CHECK_NEAR(s.mape_ci.hi, s.max_abs_err, 0);	/* issue 34: cut */
	CHECK_NEAR(s.bias_ci.lo, -0.03242044583716188, 1e-11);
	CHECK_NEAR(s.bias_ci.hi, 0.054340949575847376, 1e-11);
	CHECK_NEAR(s.median_abs_err_ci.lo, 0.050000000000000044, 1e-12);
	CHECK_NEAR(s.median_abs_err_ci.hi, 0.1, 1e-12);
	CHECK_NEAR(s.geomean_ratio_ci.lo, 0.9565723522734891, 1e-11);
	CHECK_NEAR(s.geomean_ratio_ci.hi, 1.0548915064429445, 1e-11);
	/* the point estimate lies inside its interval */
	CHECK(s.mape_ci.lo <= s.mape && s.mape <= s.mape_ci.hi);
	summary(&s, 1000, 42, 0.90);
	CHECK_NEAR(s.mape_ci.lo, 0.043538656138700636, 1e-11);
	CHECK_NEAR(raw_mape_hi(1000, 42, 0.90, NULL), 0.221174164311814,
		   1e-11);
	CHECK_NEAR(s.mape_ci.hi, s.max_abs_err, 0);
	CHECK_NEAR(s.bias_ci.lo, -0.02094942658417663, 1e-11);
	CHECK_NEAR(s.bias_ci.hi, 0.042869930322862126, 1e-11);
	CHECK_NEAR(s.median_abs_err_ci.lo, 0.050000000000000044, 1e-12);
	CHECK_NEAR(s.median_abs_err_ci.hi, 0.1, 1e-12);
	CHECK_NEAR(s.geomean_ratio_ci.lo, 0.9690263083636712, 1e-11);
	CHECK_NEAR(s.geomean_ratio_ci.hi, 1.0413340081709614, 1e-11);
	/* two-way: the ops given, crossed (auto) */
	CHECK_INT(stats_compute(&s, model, ref, NULL, 11), 0);
	stats_ci_compute_se(&s, model, ref, NULL, wkey, okey, 11, &o, NULL);
	CHECK_INT(s.ci_clustered, 2);
	CHECK_NEAR(s.mape_ci.lo, 0.035528930670961655, 1e-11);
	CHECK_NEAR(raw_mape_hi(200, 20261201, 0.95, okey),
		   0.2710361867042338, 1e-11);
	CHECK_NEAR(s.mape_ci.hi, s.max_abs_err, 0);
	CHECK_NEAR(s.bias_ci.lo, -0.053271784258981277, 1e-11);
	CHECK_NEAR(s.bias_ci.hi, 0.07519228799766678, 1e-11);
	CHECK_NEAR(s.median_abs_err_ci.lo, 0.05000000000000004, 1e-12);
	CHECK_NEAR(s.median_abs_err_ci.hi, 0.10000000000000002, 1e-12);
	CHECK_NEAR(s.geomean_ratio_ci.lo, 0.943090020410293, 1e-11);
	CHECK_NEAR(s.geomean_ratio_ci.hi, 1.0699721425028437, 1e-11);
	/* workloads only, asked: one-way */
	o.cluster = STATS_CI_WORKLOAD;
	stats_ci_compute_se(&s, model, ref, NULL, wkey, okey, 11, &o, NULL);
	CHECK_INT(s.ci_clustered, 1);
	CHECK_NEAR(s.mape_ci.lo, 0.032508912365187694, 1e-11);
}

/* The pairs sorted by |error|, descending, as a correlation set
 * hands them over (issue 21: the median then reads them in place,
 * reversed, without a sorted copy): the same pasted reference. Order
 * by python3 (sorted by -abs((m - r) / r), stable): 0.2 (6, 8), the 0.1 ties
 * as the doubles order them (0, 5, 3, 7), then 9, 10 (1/11), 2
 * (0.05), 1 (0.1/2.1), 4 (0). The median's interval is one of the
 * values (or the mean of two): equal bit for bit; the sums only to
 * their rounding (another summation order). */
TEST(sorted_by_error)
{
	double m[11], r[11];
	int64_t w[11];
	size_t at[11];
	struct stats_paired_opts o = { 200, 20261201, 0.95, 0 };
	struct stats_summary a, s;

	for (size_t i = 0; i < 11; i++) {
		size_t j = i;

		while (j > 0 && fabs(stats_err(model[at[j - 1]],
					       ref[at[j - 1]])) <
			       fabs(stats_err(model[i], ref[i]))) {
			at[j] = at[j - 1];
			j--;
		}
		at[j] = i;
	}
	CHECK_INT((int)at[0], 6);
	CHECK_INT((int)at[1], 8);
	CHECK_INT((int)at[10], 4);
	for (size_t i = 0; i < 11; i++) {
		m[i] = model[at[i]];
		r[i] = ref[at[i]];
		w[i] = wkey[at[i]];
	}
	summary(&a, 200, 20261201, 0.95);
	CHECK_INT(stats_compute(&s, m, r, NULL, 11), 0);
	stats_ci_compute(&s, m, r, w, 11, &o);
	CHECK_INT(s.workloads, 5);
	CHECK(memcmp(&a.median_abs_err_ci, &s.median_abs_err_ci,
		     sizeof(a.median_abs_err_ci)) == 0);
	CHECK_NEAR(s.median_abs_err_ci.lo, 0.050000000000000044, 1e-12);
	CHECK_NEAR(s.median_abs_err_ci.hi, 0.1, 1e-12);
	CHECK_NEAR(s.mape_ci.lo, 0.032508912365187694, 1e-11);
	CHECK_NEAR(s.mape_ci.hi, 0.2, 1e-15);	/* 0.296 cut at max |e| */
	CHECK_NEAR(s.geomean_ratio_ci.hi, 1.0548915064429445, 1e-11);
}

/*
 * Fisher-z intervals at 0.95, from plain python3 (statistics.NormalDist
 * for the quantile, Pearson and average ranks by their textbook
 * formulas) on the 11 pairs above:
 *   pearson 0.9867789271727838 [0.9481638176435122, 0.9966769675874114]
 *   spearman 0.9677035788144097 [0.8720069857188355, 0.9921506656569007]
 *     (c = 1.06)
 *   pearson_log 0.9884367398331081 [0.9545528841679294, 0.9970954626878873]
 */
TEST(fisher_z)
{
	struct stats_summary s;
	static const int64_t one[11] = { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 };
	struct stats_paired_opts o = { 50, 1, 0.95, 0 };

	/* the pair-level intervals: one workload, nothing resampled
	 * (issue 34: with several, the workload bootstrap replaces them) */
	CHECK_INT(stats_compute(&s, model, ref, NULL, 11), 0);
	stats_ci_compute(&s, model, ref, one, 11, &o);
	CHECK_INT(s.ci_clustered, 0);
	CHECK_NEAR(s.pearson, 0.9867789271727838, 1e-12);
	CHECK_NEAR(s.pearson_ci.lo, 0.9481638176435122, 1e-12);
	CHECK_NEAR(s.pearson_ci.hi, 0.9966769675874114, 1e-12);
	CHECK_NEAR(s.spearman, 0.9677035788144097, 1e-12);
	CHECK_NEAR(s.spearman_ci.lo, 0.8720069857188355, 1e-12);
	CHECK_NEAR(s.spearman_ci.hi, 0.9921506656569007, 1e-12);
	CHECK_NEAR(s.pearson_log_ci.lo, 0.9545528841679294, 1e-12);
	CHECK_NEAR(s.pearson_log_ci.hi, 0.9970954626878873, 1e-12);
	/* several workloads: the bootstrap's, about the estimate */
	summary(&s, 50, 1, 0.95);
	CHECK_INT(s.ci_clustered, 1);
	CHECK(s.pearson_ci.lo < s.pearson && s.pearson <= s.pearson_ci.hi &&
	      s.pearson_ci.lo != 0.9481638176435122);
	CHECK(s.spearman_ci.lo < s.spearman && s.spearman <= s.spearman_ci.hi);
	/* n <= 3: none */
	CHECK_INT(stats_compute(&s, model, ref, NULL, 3), 0);
	stats_ci_compute(&s, model, ref, wkey, 3, NULL);
	CHECK(isnan(s.pearson_ci.lo) && isnan(s.spearman_ci.hi));
}

/* Same seed, same intervals; the jackknife's do not depend on it. */
TEST(reproducible)
{
	struct stats_summary a, b, c;

	summary(&a, 500, 7, 0.95);
	summary(&b, 500, 7, 0.95);
	summary(&c, 500, 8, 0.95);
	CHECK(memcmp(&a.mape_ci, &b.mape_ci, sizeof(a.mape_ci)) == 0);
	CHECK(memcmp(&a.median_abs_err_ci, &b.median_abs_err_ci,
		     sizeof(a.mape_ci)) == 0);
	CHECK(memcmp(&a.mape_ci, &c.mape_ci, sizeof(a.mape_ci)) == 0);
}

/* The base counts shared through a cache (what every summary of a
 * correlation set does): the same intervals, bit for bit, as drawing
 * alone, when the cache fills (wkey: 5 workloads), when a summary over
 * 4 of those 5 workloads reads it in the cache's numbering (wkey3: key 5
 * gone: its workloads are places 0, 2, 3, 4 of the cache's rows), when
 * a summary over 2 of them (fewer than half) reads those places into
 * its own numbering (wkey4; wkey5 after wkey11 refilled the cache with
 * 11 workloads: places 8-10, the high nibbles of a row's first block),
 * for workloads it does not hold (wkey2: its own), and for another seed
 * (a refill, not a wrong hit). The next round starts from wkey11's
 * cache (wkey: 5 of its 11 workloads, gathered). */
TEST(shared_draws)
{
	static const int64_t wkey2[] = { 1, 1, 2, 2, 2, 3, 4, 4, 4, 4, 4 };
	static const int64_t wkey3[] = { 7, 7, 3, 3, 3, 11, 9, 9, 9, 9, 9 };
	static const int64_t wkey4[] = { 3, 3, 3, 9, 9, 9, 3, 3, 9, 9, 9 };
	static const int64_t wkey11[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	static const int64_t wkey5[] = { 2, 9, 9, 10, 10, 11, 11, 11, 2, 9, 10 };
	static const int64_t *const wks[] = { wkey, wkey3, wkey4, wkey2, wkey11,
					      wkey5 };
	static const long nwk[] = { 5, 4, 2, 4, 11, 4 };
	struct stats_paired_opts o = { 300, 99, 0.95, 0 };
	struct stats_paired_opts o2 = { 300, 98, 0.95, 0 };
	struct stats_ci_draws *d = stats_ci_draws_new();
	struct stats_summary a, b;

	for (int round = 0; round < 3; round++) {
		const struct stats_paired_opts *op = round == 2 ? &o2 : &o;

		for (int k = 0; k < 6; k++) {
			const int64_t *wk = wks[k];

			CHECK_INT(stats_compute(&a, model, ref, NULL, 11), 0);
			b = a;
			/* as computed: 2-4 workloads are unknown after
			 * stats_ci_bound, and these compare the draws */
			stats_ci_compute_raw(&a, model, ref, NULL, wk, NULL, 11,
					     op, NULL);
			stats_ci_compute_raw(&b, model, ref, NULL, wk, NULL, 11,
					     op, d);
			CHECK_INT(b.workloads, nwk[k]);
			CHECK(!isnan(b.mape_ci.lo));
			CHECK(memcmp(&a.mape_ci, &b.mape_ci,
				     sizeof(a.mape_ci)) == 0);
			CHECK(memcmp(&a.bias_ci, &b.bias_ci,
				     sizeof(a.bias_ci)) == 0);
			CHECK(memcmp(&a.median_abs_err_ci,
				     &b.median_abs_err_ci,
				     sizeof(a.mape_ci)) == 0);
			CHECK(memcmp(&a.geomean_ratio_ci, &b.geomean_ratio_ci,
				     sizeof(a.mape_ci)) == 0);
			/* and again: the cache fills, then hits */
			for (int again = 0; again < 2; again++) {
				b = a;
				stats_ci_compute_raw(&b, model, ref, NULL, wk,
						     NULL, 11, op, d);
				CHECK(memcmp(&a.mape_ci, &b.mape_ci,
					     sizeof(a.mape_ci)) == 0);
				CHECK(memcmp(&a.geomean_ratio_ci,
					     &b.geomean_ratio_ci,
					     sizeof(a.mape_ci)) == 0);
				CHECK(memcmp(&a.median_abs_err_ci,
					     &b.median_abs_err_ci,
					     sizeof(a.mape_ci)) == 0);
			}
		}
	}
	stats_ci_draws_free(d);
}

TEST(edges)
{
	struct stats_summary s;
	static const int64_t one[] = { 1, 1, 1 };
	static const double neg[] = { -1.0, 2.0 };
	static const int64_t two[] = { 1, 2 };

	/* one workload: nothing measures the spread between workloads */
	CHECK_INT(stats_compute(&s, model, ref, NULL, 3), 0);
	stats_ci_compute(&s, model, ref, one, 3, NULL);
	CHECK_INT(s.workloads, 1);
	CHECK(isnan(s.mape_ci.lo) && isnan(s.geomean_ratio_ci.hi));
	/* a negative reference: MAPE and geomean undefined, so are their
	 * intervals; bias and median |error| keep theirs */
	CHECK_INT(stats_compute(&s, model, neg, NULL, 2), 0);
	stats_ci_compute_raw(&s, model, neg, NULL, two, NULL, 2, NULL, NULL);
	CHECK(isnan(s.mape) && isnan(s.mape_ci.lo));
	CHECK(isnan(s.geomean_ratio_ci.lo));
	CHECK(!isnan(s.bias_ci.lo) && !isnan(s.median_abs_err_ci.hi));
	/* issue 34: and 2 workloads are too few for any of them */
	stats_ci_bound(&s, STATS_CI_MIN_WORKLOADS);
	CHECK(isnan(s.bias_ci.lo) && isnan(s.median_abs_err_ci.hi));
	{
		char why[160];

		CHECK_INT(stats_ci_unknown(&s, why, sizeof(why)), 1);
		CHECK_STR(why, "only 2 workloads; an interval needs >= 5 "
			  "(3 more would decide)");
	}
	/* nothing */
	CHECK_INT(stats_compute(&s, model, ref, NULL, 0), 0);
	stats_ci_compute(&s, model, ref, wkey, 0, NULL);
	CHECK_INT(s.workloads, 0);
	CHECK(isnan(s.mape_ci.lo));
}

/* A standard normal from splitmix64 (Box-Muller). */
static double gauss(uint64_t *st)
{
	double u = ((double)(stats_paired_next(st) >> 11) + 0.5) * 0x1.0p-53;
	double v = (double)(stats_paired_next(st) >> 11) * 0x1.0p-53;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/*
 * Coverage with a known truth. A study: NW workloads of NP pairs; the
 * error of pair j of workload w is e = MU + A a_w + B b_wj with a, b
 * standard normal (a shared by the ops of a workload: clustered), the
 * reference 1 + w % 5, the model ref (1 + e). Marginally e ~ N(MU, S^2),
 * S^2 = A^2 + B^2, so the true MAPE is E|e| =
 * S sqrt(2/pi) exp(-MU^2 / 2S^2) + MU erf(MU / (S sqrt 2))  (the folded
 * normal's mean) and the true bias is MU. 400 seeded studies; a 95%
 * interval must cover the truth in 93-97% of them (the binomial sd at
 * 400 trials is 1.1 pp). Resampling pairs instead of workloads would
 * cover far less here (A dominates). Measured: 378 and 379 of 400 at
 * NW 80; at NW 40 the percentile interval covered MAPE 372 times (93.0%,
 * its known slight under-coverage with few clusters: docs/statistics.md).
 * With the draws per study (Poisson base counts fixed up): MAPE 379, bias
 * 379 at NW 80 (NW 40 not measured again). The jackknife t intervals
 * (issue 34): MAPE 384, bias 387.
 */
#define NW 80
#define NP 4
#define MU 0.05
#define A_SD 0.08
#define B_SD 0.03
TEST(coverage)
{
	double m[NW * NP], r[NW * NP];
	int64_t k[NW * NP];
	double S = sqrt(A_SD * A_SD + B_SD * B_SD);
	double truth = S * sqrt(2 / M_PI) * exp(-MU * MU / (2 * S * S)) +
		       MU * erf(MU / (S * sqrt(2)));
	uint64_t st = 12345;
	int cover_mape = 0, cover_bias = 0;
	struct stats_paired_opts o = { 1000, 0, 0.95, 0 };

	for (int t = 0; t < 400; t++) {
		struct stats_summary s;

		for (int w = 0; w < NW; w++) {
			double a = gauss(&st);

			for (int j = 0; j < NP; j++) {
				double e = MU + A_SD * a + B_SD * gauss(&st);

				r[w * NP + j] = 1 + w % 5;
				m[w * NP + j] = r[w * NP + j] * (1 + e);
				k[w * NP + j] = w;
			}
		}
		o.seed = 1000 + (uint64_t)t;
		CHECK_INT(stats_compute(&s, m, r, NULL, NW * NP), 0);
		stats_ci_compute(&s, m, r, k, NW * NP, &o);
		cover_mape += s.mape_ci.lo <= truth && truth <= s.mape_ci.hi;
		cover_bias += s.bias_ci.lo <= MU && MU <= s.bias_ci.hi;
	}
	fprintf(stderr, "coverage of 400: MAPE %d, bias %d (truth %.6f)\n",
		cover_mape, cover_bias, truth);
	CHECK(cover_mape >= 372 && cover_mape <= 388);	/* 93% .. 97% */
	CHECK(cover_bias >= 372 && cover_bias <= 388);
}

TEST_MAIN(CASE(reference), CASE(sorted_by_error), CASE(fisher_z),
	  CASE(reproducible),
	  CASE(shared_draws), CASE(edges),
	  CASE(coverage))
