/*
 * The workload bootstrap intervals (src/stats_ci.c) against an
 * independent computation: tests/ref/stats_ci_ref.py (pure python3: the
 * draws of docs/statistics.md, Poisson base counts by a hash of the
 * workload key fixed up to exactly the workloads' number, each resample
 * built as an explicit list of pairs and summarised with the textbook
 * formulas). Its output, pasted:
 *
 *   200 20261201 0.95
 *     mape (0.05811749803227077, 0.13307851239669422)
 *     bias (-0.01757395382395386, 0.039417989417989414)
 *     med (0.050000000000000044, 0.1)
 *     geo (0.9782422916664079, 1.0370794963638532)
 *   1000 42 0.9
 *     mape (0.06237701692247149, 0.13305785123966943)
 *     bias (-0.017532467532467576, 0.03701298701298699)
 *     med (0.050000000000000044, 0.1)
 *     geo (0.9782514556854641, 1.0330518831806161)
 *
 * Coverage: synthetic studies with a known truth (below) and
 * reproducibility (same seed, same interval; another seed, another).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "src/stats.h"
#include "src/stats_ci.h"

static const double model[] = { 1.10, 2.00, 0.95, 3.30, 1.00, 5.50, 0.80,
				1.21, 2.40, 0.50, 4.00 };
static const double ref[] = { 1.00, 2.10, 1.00, 3.00, 1.00, 5.00, 1.00,
			      1.10, 2.00, 0.55, 4.40 };
static const int64_t wkey[] = { 7, 7, 3, 3, 3, 11, 5, 5, 5, 5, 9 };

static void summary(struct stats_summary *s, unsigned res, uint64_t seed,
		    double level)
{
	struct stats_paired_opts o = { res, seed, level };

	CHECK_INT(stats_compute(s, model, ref, NULL, 11), 0);
	stats_ci_compute(s, model, ref, wkey, 11, &o);
}

TEST(reference)
{
	struct stats_summary s;

	summary(&s, 200, 20261201, 0.95);
	CHECK_INT(s.workloads, 5);
	CHECK_NEAR(s.mape_ci.lo, 0.05811749803227077, 1e-12);
	CHECK_NEAR(s.mape_ci.hi, 0.13307851239669422, 1e-12);
	CHECK_NEAR(s.bias_ci.lo, -0.01757395382395386, 1e-12);
	CHECK_NEAR(s.bias_ci.hi, 0.039417989417989414, 1e-12);
	CHECK_NEAR(s.median_abs_err_ci.lo, 0.050000000000000044, 1e-12);
	CHECK_NEAR(s.median_abs_err_ci.hi, 0.1, 1e-12);
	CHECK_NEAR(s.geomean_ratio_ci.lo, 0.9782422916664079, 1e-12);
	CHECK_NEAR(s.geomean_ratio_ci.hi, 1.0370794963638532, 1e-12);
	/* the point estimate lies inside its interval */
	CHECK(s.mape_ci.lo <= s.mape && s.mape <= s.mape_ci.hi);
	summary(&s, 1000, 42, 0.90);
	CHECK_NEAR(s.mape_ci.lo, 0.06237701692247149, 1e-12);
	CHECK_NEAR(s.mape_ci.hi, 0.13305785123966943, 1e-12);
	CHECK_NEAR(s.bias_ci.lo, -0.017532467532467576, 1e-12);
	CHECK_NEAR(s.bias_ci.hi, 0.03701298701298699, 1e-12);
	CHECK_NEAR(s.median_abs_err_ci.lo, 0.050000000000000044, 1e-12);
	CHECK_NEAR(s.median_abs_err_ci.hi, 0.1, 1e-12);
	CHECK_NEAR(s.geomean_ratio_ci.lo, 0.9782514556854641, 1e-12);
	CHECK_NEAR(s.geomean_ratio_ci.hi, 1.0330518831806161, 1e-12);
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

	summary(&s, 50, 1, 0.95);
	CHECK_NEAR(s.pearson, 0.9867789271727838, 1e-12);
	CHECK_NEAR(s.pearson_ci.lo, 0.9481638176435122, 1e-12);
	CHECK_NEAR(s.pearson_ci.hi, 0.9966769675874114, 1e-12);
	CHECK_NEAR(s.spearman, 0.9677035788144097, 1e-12);
	CHECK_NEAR(s.spearman_ci.lo, 0.8720069857188355, 1e-12);
	CHECK_NEAR(s.spearman_ci.hi, 0.9921506656569007, 1e-12);
	CHECK_NEAR(s.pearson_log_ci.lo, 0.9545528841679294, 1e-12);
	CHECK_NEAR(s.pearson_log_ci.hi, 0.9970954626878873, 1e-12);
	/* n <= 3: none */
	CHECK_INT(stats_compute(&s, model, ref, NULL, 3), 0);
	stats_ci_compute(&s, model, ref, wkey, 3, NULL);
	CHECK(isnan(s.pearson_ci.lo) && isnan(s.spearman_ci.hi));
}

TEST(reproducible)
{
	struct stats_summary a, b, c;

	summary(&a, 500, 7, 0.95);
	summary(&b, 500, 7, 0.95);
	summary(&c, 500, 8, 0.95);
	CHECK(memcmp(&a.mape_ci, &b.mape_ci, sizeof(a.mape_ci)) == 0);
	CHECK(memcmp(&a.median_abs_err_ci, &b.median_abs_err_ci,
		     sizeof(a.mape_ci)) == 0);
	CHECK(a.mape_ci.lo != c.mape_ci.lo || a.mape_ci.hi != c.mape_ci.hi);
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
	struct stats_paired_opts o = { 300, 99, 0.95 };
	struct stats_paired_opts o2 = { 300, 98, 0.95 };
	struct stats_ci_draws *d = stats_ci_draws_new();
	struct stats_summary a, b;

	for (int round = 0; round < 3; round++) {
		const struct stats_paired_opts *op = round == 2 ? &o2 : &o;

		for (int k = 0; k < 6; k++) {
			const int64_t *wk = wks[k];

			CHECK_INT(stats_compute(&a, model, ref, NULL, 11), 0);
			b = a;
			stats_ci_compute(&a, model, ref, wk, 11, op);
			stats_ci_compute_shared(&b, model, ref, wk, 11, op, d);
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
				stats_ci_compute_shared(&b, model, ref, wk, 11,
							op, d);
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
	stats_ci_compute(&s, model, neg, two, 2, NULL);
	CHECK(isnan(s.mape) && isnan(s.mape_ci.lo));
	CHECK(isnan(s.geomean_ratio_ci.lo));
	CHECK(!isnan(s.bias_ci.lo) && !isnan(s.median_abs_err_ci.hi));
	/* nothing */
	CHECK_INT(stats_compute(&s, model, ref, NULL, 0), 0);
	stats_ci_compute(&s, model, ref, wkey, 0, NULL);
	CHECK_INT(s.workloads, 0);
	CHECK(isnan(s.mape_ci.lo));
}

/*
 * A batch (the groups of --group-by: one pass per resample over the
 * cached row for all of them, src/stats_cigroup.c) gives every summary
 * the intervals it gets alone (stats_ci_compute, checked against the
 * reference above), bit for bit. A study of 60 workloads (keys 10..69,
 * 3 pairs each) and summaries of: all of them (the cache's numbering),
 * every third (20: gathered), keys below 50 (40: the cache's numbering
 * with places absent), two workloads, one (no interval), keys outside
 * the cache (hashed alone), a negative reference (no MAPE or geomean
 * interval), several summaries sharing workloads. Three rounds: the
 * cache filled by the whole study first; a fresh cache that the batch's
 * first summary fills; a fresh cache filled by a small summary, so that
 * the larger ones cannot read it (each that holds more workloads fills
 * it again while none is queued). 37 resamples (a last pass of one)
 * and 200.
 */
#define BW 60
#define BP 3
static int pick_all(int64_t k) { return k >= 0; }
static int pick_third(int64_t k) { return k % 3 == 0; }
static int pick_low(int64_t k) { return k < 50; }
static int pick_two(int64_t k) { return k == 12 || k == 67; }
static int pick_one(int64_t k) { return k == 33; }
static int pick_odd(int64_t k) { return k & 1; }

TEST(batch)
{
	static int (*const sel[])(int64_t) = { pick_all, pick_third, pick_low,
		pick_two, pick_one, pick_odd, pick_third, pick_all };
	enum { NS = sizeof(sel) / sizeof(sel[0]) + 2 };
	double m[BW * BP], r[BW * BP], rneg[BW * BP];
	int64_t k[BW * BP], kout[BW * BP];
	uint64_t st = 77;
	static const unsigned nbs[] = { 37, 200 };

	for (int i = 0; i < BW * BP; i++) {
		k[i] = 10 + i / BP;
		kout[i] = 1000 + i / BP;
		r[i] = 1 + (double)(stats_paired_next(&st) >> 40) * 0x1p-20;
		m[i] = r[i] * (0.8 + (double)(stats_paired_next(&st) >> 40) *
				     0x1p-22);
		rneg[i] = i % 7 ? r[i] : -r[i];
	}
	for (int nbi = 0; nbi < 2; nbi++)
		for (int round = 0; round < 3; round++) {
			struct stats_paired_opts o = { nbs[nbi], 5, 0.9 };
			struct stats_ci_draws *d = stats_ci_draws_new();
			struct stats_ci_batch *b;
			struct stats_summary alone[NS], got[NS], whole;
			double sm[NS][BW * BP], sr[NS][BW * BP];
			int64_t sk[NS][BW * BP];
			size_t sn[NS];

			for (int s = 0; s < NS; s++) {
				const int64_t *kk = s == NS - 2 ? kout : k;
				const double *rr = s == NS - 1 ? rneg : r;

				sn[s] = 0;
				for (int i = 0; i < BW * BP; i++)
					if (s >= NS - 2 || sel[s](k[i])) {
						sm[s][sn[s]] = m[i];
						sr[s][sn[s]] = rr[i];
						sk[s][sn[s]++] = kk[i];
					}
				CHECK_INT(stats_compute(&alone[s], sm[s], sr[s],
							NULL, sn[s]), 0);
				got[s] = alone[s];
				stats_ci_compute(&alone[s], sm[s], sr[s], sk[s],
						 sn[s], &o);
			}
			if (round == 0) {	/* the whole study fills it */
				CHECK_INT(stats_compute(&whole, m, r, NULL,
							BW * BP), 0);
				stats_ci_compute_shared(&whole, m, r, k,
							BW * BP, &o, d);
			}
			b = stats_ci_batch_new(&o, d);
			for (int s0 = 0; s0 < NS; s0++) {
				/* round 2: the two-workload summary first */
				int s = round == 2 ? (s0 + 3) % NS : s0;

				/* copies freed at once: the batch keeps what it
				 * needs (ASan checks) */
				double *cm = malloc(sizeof(sm[s]));
				double *cr = malloc(sizeof(sr[s]));
				int64_t *ck = malloc(sizeof(sk[s]));

				memcpy(cm, sm[s], sizeof(sm[s]));
				memcpy(cr, sr[s], sizeof(sr[s]));
				memcpy(ck, sk[s], sizeof(sk[s]));
				stats_ci_batch_add(b, &got[s], cm, cr, ck,
						   sn[s]);
				free(cm);
				free(cr);
				free(ck);
			}
			stats_ci_batch_run(b);
			for (int s = 0; s < NS; s++) {
				CHECK_INT(got[s].workloads, alone[s].workloads);
				CHECK(memcmp(&got[s].mape_ci, &alone[s].mape_ci,
					     sizeof(got[s].mape_ci)) == 0);
				CHECK(memcmp(&got[s].bias_ci, &alone[s].bias_ci,
					     sizeof(got[s].bias_ci)) == 0);
				CHECK(memcmp(&got[s].median_abs_err_ci,
					     &alone[s].median_abs_err_ci,
					     sizeof(got[s].bias_ci)) == 0);
				CHECK(memcmp(&got[s].geomean_ratio_ci,
					     &alone[s].geomean_ratio_ci,
					     sizeof(got[s].bias_ci)) == 0);
				CHECK(memcmp(&got[s].pearson_ci,
					     &alone[s].pearson_ci,
					     sizeof(got[s].bias_ci)) == 0);
			}
			/* each kind of summary was there */
			CHECK(!isnan(got[0].median_abs_err_ci.lo));
			CHECK(isnan(got[4].mape_ci.lo));
			CHECK(isnan(got[NS - 1].mape_ci.lo) &&
			      !isnan(got[NS - 1].bias_ci.lo));
			CHECK(!isnan(got[NS - 2].mape_ci.lo));
			/* a batch dropped fills nothing */
			b = stats_ci_batch_new(&o, d);
			got[1] = alone[1];
			got[1].mape_ci.lo = 0.5;
			stats_ci_batch_add(b, &got[1], sm[1], sr[1], sk[1],
					   sn[1]);
			stats_ci_batch_free(b);
			CHECK(got[1].mape_ci.lo == 0.5);
			stats_ci_draws_free(d);
		}
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
 * 379 at NW 80 (NW 40 not measured again).
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
	struct stats_paired_opts o = { 1000, 0, 0.95 };

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

TEST_MAIN(CASE(reference), CASE(fisher_z), CASE(reproducible),
	  CASE(shared_draws), CASE(edges), CASE(batch),
	  CASE(coverage))
