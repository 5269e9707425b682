/*
 * stats_cpd (E-Divisive change points) against an independent
 * computation: tests/ref/stats_cpd_ref.py (pure python3: every Q summed
 * afresh from the definition, the permutation test with the documented
 * generator and shuffle). Its output, pasted (the series are printed
 * there with repr, the shortest round-trip digits):
 *
 *   step8 q [1.2, 2.25, 4.0, 2.25, 1.2]
 *   noisy12 q [... 5.551839154104433 (tau 7) ...]
 *   noisy12 ediv ([(7, 5.551839154104433, 0.01)], (3, 0.2162..., 0.165))
 *   two16 ediv ([(5, 10.262133771011644, 0.01),
 *                (11, 10.772924571558015, 0.01)], (2, 0.2322..., 0.385))
 *   flat10 ediv ([], (2, 0.4164406987727679, 0.35))
 *   vec9 ediv ([(4, 1.0855211117184946, 0.02)], (2, 0.00325..., 0.685))
 *
 * and seeded simulations of the error rate: on step-free series the share
 * with a change point stays within alpha (simulation error allowed); a
 * step of 4 sigma is found at its index.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "src/stats/stats_cpd.h"

static const double noisy12[] = {
	-0.0013575466321541054, 0.09113190768105722, 0.08131516439852263,
	-0.04545069772279662, -0.04672410698865213, -0.07231576408768399,
	-0.019422914800916694, 0.9644117374333853, 1.0962642873780608,
	1.0419229141143873, 0.9841088775166444, 1.0118288445366181 };
static const double noisy12_q[] = { 0.5953483149855403, 1.0916819516607907,
	1.6452997263666451, 2.4921449447253465, 3.7321397797358626,
	5.551839154104433, 3.9201223054022014, 2.519584062705597,
	1.4711450301582942 };
static const double two16[] = { 0.1119642992450721, 0.02594828062589891,
	-0.12638396779637953, -0.09019942240864358, 0.12410018267766328,
	2.119108333221789, 1.9406556407351625, 1.8979454811886156,
	1.972715496515614, 2.0651192767282556, 2.111119009328481,
	-0.07757941957386212, -0.10976421489445362, 0.004344176675828149,
	0.01470622867207093, -0.06836852942728007 };
static const double flat10[] = { -0.3867897971384481, -0.17517519194242426,
	0.23443153663982474, -0.1538422358658209, 0.1190916545212678,
	-0.12018541828280371, 0.003585382873624976, -0.015700896294866262,
	0.05359121872856043, 0.2021648853830207 };
static const double vec9[] = {
	0.04706920774048412, 0.037688651061238955, -0.02462293613957637,
	0.02565356370507721, 0.04046692578221457, 0.035435842408062926,
	-0.02528394780051777, 0.026702478334421454, -0.005789908414177103,
	0.028880171140292857, -0.026937986665960114, -0.005940792012391583,
	0.04089024046463266, 0.498614493886812, -0.0307837055327573,
	-0.004164187825287424, 0.4916210239409014, -0.020460656863612526,
	0.024283967059509318, 0.49601031421177283, -0.02338508306135685,
	0.03143537743450612, 0.5142335727609825, -0.021634691614346547,
	-0.02295110928796018, 0.47913667672617577, -0.048614976100508925 };

/* Hand-worked: 0 0 0 0 1 1 1 1. At tau 4 the between term is 16 pairs
 * at distance 1 (2/16 * 16 = 2), both within terms 0: Q = 16/8 * 2 = 4.
 * At tau 3 (right 0 1 1 1 1; the best end is the series' end): between
 * 12 (2/15 * 12 = 1.6), right within 4 / C(5,2) = 0.4: Q = 15/8 * 1.2 =
 * 2.25. */
TEST(hand_worked_step)
{
	static const double x[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const double want[] = { 1.2, 2.25, 4.0, 2.25, 1.2 };
	double q[9];
	struct stats_cpd c;

	stats_cpd_q_curve(x, 8, 1, 2, q);
	CHECK(isnan(q[0]) && isnan(q[1]) && isnan(q[7]) && isnan(q[8]));
	for (int t = 2; t <= 6; t++)
		CHECK_NEAR(q[t], want[t - 2], 1e-12);
	CHECK_INT(stats_cpd_edivisive(&c, x, 8, 1, NULL), 0);
	CHECK_INT(c.n, 1);
	CHECK_INT(c.v[0].at, 4);
	CHECK_NEAR(c.v[0].q, 4.0, 1e-12);
	/* no shuffle of two groups of 4 reaches Q 4 but the one labelling
	 * (and its mirror) that is the observed split: p <= 0.05 */
	CHECK(c.v[0].p <= 0.05);
	stats_cpd_release(&c);
}

TEST(q_curve_matches_reference)
{
	double q[13];

	stats_cpd_q_curve(noisy12, 12, 1, 2, q);
	for (int t = 2; t <= 10; t++)
		CHECK_NEAR(q[t], noisy12_q[t - 2], 1e-11);
}

TEST(search_matches_reference)
{
	struct stats_cpd c;

	stats_cpd_edivisive(&c, noisy12, 12, 1, NULL);
	CHECK_INT(c.n, 1);
	if (c.n == 1) {
		CHECK_INT(c.v[0].at, 7);
		CHECK_NEAR(c.v[0].q, 5.551839154104433, 1e-11);
		CHECK_NEAR(c.v[0].p, 0.01, 1e-12);
	}
	CHECK_INT(c.at_stop, 3);
	CHECK_NEAR(c.p_stop, 0.165, 1e-12);
	stats_cpd_release(&c);

	/* a bump (up at 5, back at 11): both ends */
	stats_cpd_edivisive(&c, two16, 16, 1, NULL);
	CHECK_INT(c.n, 2);
	if (c.n == 2) {
		CHECK_INT(c.v[0].at, 5);
		CHECK_NEAR(c.v[0].q, 10.262133771011644, 1e-11);
		CHECK_NEAR(c.v[0].p, 0.01, 1e-12);
		CHECK_INT(c.v[1].at, 11);
		CHECK_NEAR(c.v[1].q, 10.772924571558015, 1e-11);
		CHECK_NEAR(c.v[1].p, 0.01, 1e-12);
	}
	CHECK_NEAR(c.p_stop, 0.385, 1e-12);
	stats_cpd_release(&c);

	stats_cpd_edivisive(&c, flat10, 10, 1, NULL);
	CHECK_INT(c.n, 0);
	CHECK_INT(c.at_stop, 2);
	CHECK_NEAR(c.q_stop, 0.4164406987727679, 1e-11);
	CHECK_NEAR(c.p_stop, 0.35, 1e-12);
	stats_cpd_release(&c);

	/* three values per observation, the second steps at 4 */
	stats_cpd_edivisive(&c, vec9, 9, 3, NULL);
	CHECK_INT(c.n, 1);
	if (c.n == 1) {
		CHECK_INT(c.v[0].at, 4);
		CHECK_NEAR(c.v[0].q, 1.0855211117184946, 1e-11);
		CHECK_NEAR(c.v[0].p, 0.02, 1e-12);
	}
	CHECK_NEAR(c.p_stop, 0.685, 1e-12);
	stats_cpd_release(&c);
}

TEST(edges)
{
	static const double c5[] = { 3, 3, 3, 3, 3, 3 };
	struct stats_cpd c;

	/* too short to split: nothing tested */
	stats_cpd_edivisive(&c, c5, 3, 1, NULL);
	CHECK_INT(c.n, 0);
	CHECK(isnan(c.p_stop));
	stats_cpd_release(&c);
	/* a constant series: every Q is 0, every shuffle ties: p = 1 */
	stats_cpd_edivisive(&c, c5, 6, 1, NULL);
	CHECK_INT(c.n, 0);
	CHECK_NEAR(c.p_stop, 1.0, 0);
	stats_cpd_release(&c);
}


static uint64_t sim_state;

static double unif(void)
{
	uint64_t z = (sim_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) * 0x1.0p-53;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif());
}

/* Step-free series: the share with any change point is alpha's. 400
 * series of 12 and 400 of 30 observations, alpha 0.05: expected 20 of
 * 400 each, sd 4.4; allowed up to 0.05 + 3 sd (33 of 400). */
TEST(null_false_detection_rate)
{
	static const size_t len[2] = { 12, 30 };
	double x[30];

	for (int k = 0; k < 2; k++) {
		int hits = 0;

		sim_state = 20261204u + (uint64_t)k;
		for (int s = 0; s < 400; s++) {
			struct stats_cpd c;

			for (size_t i = 0; i < len[k]; i++)
				x[i] = gauss();
			stats_cpd_edivisive(&c, x, len[k], 1, NULL);
			hits += c.n > 0;
			stats_cpd_release(&c);
		}
		fprintf(stderr, "null n=%zu: %d of 400 with a change point\n",
			len[k], hits);
		CHECK(hits <= 33);
		CHECK(hits >= 5);	/* the test is not vacuous */
	}
}

/* One step of 4 sigma at index 7 of 12 (a model's 8th version): found in
 * at least 95% of 200 series, at 7 in at least 90% (measured: 200 and
 * 195; at 3 sigma 176 and 157, docs/statistics.md). */
TEST(step_found_at_its_index)
{
	double x[12];
	int found = 0, right = 0;

	sim_state = 7;
	for (int s = 0; s < 200; s++) {
		struct stats_cpd c;

		for (size_t i = 0; i < 12; i++)
			x[i] = gauss() + (i >= 7 ? 4.0 : 0.0);
		stats_cpd_edivisive(&c, x, 12, 1, NULL);
		found += c.n > 0;
		for (size_t k = 0; k < c.n; k++)
			right += c.v[k].at == 7;
		stats_cpd_release(&c);
	}
	fprintf(stderr, "4 sigma step at 7 of 12: found in %d of 200, at 7 in "
		"%d\n", found, right);
	CHECK(found >= 190);
	CHECK(right >= 180);
}

TEST_MAIN(CASE(hand_worked_step), CASE(q_curve_matches_reference),
	  CASE(search_matches_reference), CASE(edges),
	  CASE(null_false_detection_rate), CASE(step_found_at_its_index))
