/*
 * stats_paired against an independent computation: tests/ref/
 * stats_paired_ref.py (pure python3: the Wilcoxon p-value by brute-force
 * enumeration of every sign assignment, the normal approximation from
 * its textbook formula, the bootstrap re-implemented from the documented
 * generator and quantile rule). Its output, pasted:
 *
 *   d [0.03, 0.0, 0.06, -0.01, 0.03, 0.03, 0.02, -0.01]  (float noise)
 *   delta 0.018750000000000003
 *   exact (25.0, 0.0390625, 0.9765625)
 *   boot (0.0037500000000000085, 0.03375)
 *   ties exact (35.5, 0.07421875, 0.9375)
 *   n60 nz 58 norm (1116.0, 2.014694395612381, 0.021968339897919166,
 *                   0.9784347080728298) delta 0.01883333333333333
 *   boot60 (0.004991666666666666, 0.03334166666666667)
 */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "src/stats/stats_paired.h"

static const double before[] = { 0.10, 0.05, 0.20, 0.08, 0.12, 0.30, 0.07,
				 0.15 };
static const double after[] = { 0.13, 0.05, 0.26, 0.07, 0.15, 0.33, 0.09,
				0.14 };

TEST(small_exact)
{
	struct stats_paired s;

	CHECK_INT(stats_paired_compute(&s, before, after, 8, NULL), 0);
	CHECK_INT(s.n, 8);
	CHECK_INT(s.n_nonzero, 7);	/* one zero difference dropped */
	CHECK_NEAR(s.delta, 0.018750000000000003, 1e-12);
	CHECK_NEAR(s.mean_after - s.mean_before, s.delta, 1e-12);
	CHECK_INT(s.exact, 1);
	CHECK_NEAR(s.w_plus, 25.0, 0);
	CHECK_NEAR(s.p_increase, 0.0390625, 1e-12);
	CHECK_NEAR(s.p_decrease, 0.9765625, 1e-12);
	CHECK_INT(s.resamples, STATS_PAIRED_RESAMPLES);
	CHECK_NEAR(s.ci_lo, 0.0037500000000000085, 1e-12);
	CHECK_NEAR(s.ci_hi, 0.03375, 1e-12);
	CHECK(s.why == NULL);
}

TEST(ties_exact)
{
	static const double d[] = { 1, 1, -1, 2, 2, 2, 3, -3, 0, 4 };
	struct stats_paired s = { 0 };

	stats_paired_wilcoxon(&s, d, 10);
	CHECK_INT(s.n_nonzero, 9);
	CHECK_INT(s.exact, 1);
	CHECK_NEAR(s.w_plus, 35.5, 0);
	CHECK_NEAR(s.p_increase, 0.07421875, 1e-12);
	CHECK_NEAR(s.p_decrease, 0.9375, 1e-12);
}

TEST(normal_approximation)
{
	double b[60], a[60];
	struct stats_paired_opts o = { .resamples = 500, .seed = 7,
				       .level = 0.90 };
	struct stats_paired s;

	for (int i = 0; i < 60; i++) {
		b[i] = 0;
		a[i] = ((i * 37) % 23 - 9) / 100.0;
	}
	stats_paired_compute(&s, b, a, 60, &o);
	CHECK_INT(s.n_nonzero, 58);
	CHECK_INT(s.exact, 0);
	CHECK_NEAR(s.w_plus, 1116.0, 0);
	CHECK_NEAR(s.z, 2.014694395612381, 1e-12);
	CHECK_NEAR(s.p_increase, 0.021968339897919166, 1e-10);
	CHECK_NEAR(s.p_decrease, 0.9784347080728298, 1e-10);
	CHECK_NEAR(s.delta, 0.01883333333333333, 1e-12);
	CHECK_NEAR(s.ci_lo, 0.004991666666666666, 1e-12);
	CHECK_NEAR(s.ci_hi, 0.03334166666666667, 1e-12);
	CHECK_INT(s.seed, 7);
	CHECK_INT(s.resamples, 500);
}

TEST(edges)
{
	static const double z[] = { 0.1, 0.2 };
	double nan2[] = { NAN, 0.3 };
	struct stats_paired s;

	stats_paired_compute(&s, z, z, 0, NULL);
	CHECK_INT(s.n, 0);
	CHECK(isnan(s.delta) && isnan(s.p_increase) && s.why);
	stats_paired_compute(&s, z, z, 2, NULL);	/* no change at all */
	CHECK_NEAR(s.delta, 0, 0);
	CHECK_NEAR(s.p_increase, 1, 0);
	CHECK_NEAR(s.ci_lo, 0, 0);
	stats_paired_compute(&s, nan2, z, 2, NULL);	/* NaN pair skipped */
	CHECK_INT(s.n, 1);
	CHECK_NEAR(s.delta, 0.2 - 0.3, 1e-12);
}

TEST_MAIN(CASE(small_exact), CASE(ties_exact), CASE(normal_approximation),
	  CASE(edges))
