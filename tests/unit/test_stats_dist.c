/*
 * stats_w1_log_quantiles against closed forms and plain python3
 * (tests/ref/tail_ref.py's w1(), which splits a segment at its zero
 * crossing explicitly). Pasted from
 *   python3 -c 'import sys; sys.argv=["x","/dev/null","/dev/null"];
 *     exec(open("tests/ref/tail_ref.py").read().replace("main()\n", ""));
 *     print(w1([.5,.9,.99],[.121,.150,.200],[.120,.170,.260]))'
 *   0.0837102298844  (the c=64 tpot key of fixtures/slo: a crossing)
 */
#include <math.h>

#include "check.h"
#include "src/stats/stats_dist.h"

TEST(constant_ratio)
{
	/* model = 1.1 x ref at every level: W = ln 1.1 whatever the levels */
	static const double u[] = { 0.5, 0.9, 0.99 };
	static const double a[] = { 1.1, 2.2, 5.5 }, b[] = { 1, 2, 5 };
	const char *why = "x";

	CHECK_NEAR(stats_w1_log_quantiles(u, a, b, 3, &why), log(1.1), 1e-15);
	CHECK(why == NULL);
	/* symmetric */
	CHECK_NEAR(stats_w1_log_quantiles(u, b, a, 3, NULL), log(1.1), 1e-15);
}

TEST(crossing)
{
	/* d = +ln 2 at p50, -ln 2 at p90: two triangles of height ln 2 and
	 * half the width each: W = (ln 2) / 2 */
	static const double u[] = { 0.5, 0.9 };
	static const double a[] = { 2, 1 }, b[] = { 1, 2 };
	static const double u3[] = { 0.5, 0.9, 0.99 };
	static const double m[] = { 0.121, 0.150, 0.200 };
	static const double r[] = { 0.120, 0.170, 0.260 };

	CHECK_NEAR(stats_w1_log_quantiles(u, a, b, 2, NULL), log(2) / 2,
		   1e-15);
	CHECK_NEAR(stats_w1_log_quantiles(u3, m, r, 3, NULL),
		   0.0837102298844, 1e-12);
}

TEST(edges)
{
	static const double u[] = { 0.5, 0.9 };
	static const double a[] = { 1, 2 }, z[] = { 0, 2 };
	static const double up[] = { 1, 3, 2 };
	const char *why = NULL;

	CHECK(isnan(stats_w1_log_quantiles(u, a, a, 1, &why)));
	CHECK(why && !strcmp(why, "fewer than 2 common percentiles"));
	CHECK(isnan(stats_w1_log_quantiles(u, a, z, 2, &why)));
	CHECK(why && strstr(why, "zero or negative"));
	CHECK_NEAR(stats_w1_log_quantiles(u, a, a, 2, &why), 0, 0);
	CHECK_INT(stats_quantiles_ordered(a, 2), 0);
	CHECK_INT(stats_quantiles_ordered(up, 3), 2);
}

TEST_MAIN(CASE(constant_ratio), CASE(crossing), CASE(edges))
