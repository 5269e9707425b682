/*
 * Unit tests: the release-change test (src/stats_change.c, issue 34).
 *
 * The closed form against an independent computation (tests/ref/
 * stats_change_ref.py, numpy/scipy: the CGM variance written from the
 * paper's formula, scipy.stats.t), then the simulations: seeded studies
 * from tests/sim_study.h (20-40 workloads x 5-15 ops, two releases of
 * one model), the rejection rate at alpha 0.05 under the null (the same
 * error distribution) within [2%, 8%] for a workload-clustered and a
 * workload x op crossed design, >= 80% at a 30% error growth; and the
 * pair-level test it replaces (stats_paired: pair bootstrap + Wilcoxon)
 * rejecting far more than 5% under the same null.
 */
#include "check.h"
#include "sim_study.h"

#include "src/stats/stats_change.h"
#include "src/stats/stats_paired.h"

struct design {
	double sd_w, sd_o, sd_p, keep;
};

static const struct design CLUSTERED = { 0.12, 0, 0.04, 0.9 };
static const struct design CROSSED = { 0.08, 0.08, 0.04, 0.9 };

/* One study's two releases: |error| before and after, keys. */
struct pairset {
	size_t n;
	double *b, *a;
	int64_t *w, *o;
};

static void draw(struct pairset *ps, struct sim_rng *r, const struct design *d,
		 double growth)
{
	size_t nw = 20 + sim_index(r, 21), no = 5 + sim_index(r, 11);
	struct sim_study *s = sim_study_make(r, nw, no, d->sd_w, d->sd_o,
					     d->sd_p, 0);
	double *m2 = calloc(s->n, sizeof(double));

	sim_study_release(s, r, d->keep, growth, m2);
	ps->n = s->n;
	ps->b = calloc(s->n, sizeof(double));
	ps->a = calloc(s->n, sizeof(double));
	ps->w = calloc(s->n, sizeof(int64_t));
	ps->o = calloc(s->n, sizeof(int64_t));
	for (size_t k = 0; k < s->n; k++) {
		ps->b[k] = fabs(s->pairs[k].err);
		ps->a[k] = fabs(sim_study_err(s, k, m2[k]));
		ps->w[k] = (int64_t)s->pairs[k].workload;
		ps->o[k] = (int64_t)s->pairs[k].op + 1000;
	}
	free(m2);
	sim_study_free(s);
}

static void pairset_free(struct pairset *ps)
{
	free(ps->b);
	free(ps->a);
	free(ps->w);
	free(ps->o);
}

/* Rejections of "no change" at 0.05 in nstudies studies: the new test
 * (old 0) or the pair-level one it replaces (old 1). */
static int rejections(const struct design *d, double growth, int nstudies,
		      int old, uint64_t seed)
{
	struct sim_rng r;
	int k = 0;

	sim_rng_seed(&r, seed);
	for (int t = 0; t < nstudies; t++) {
		struct pairset ps;

		draw(&ps, &r, d, growth);
		if (old) {
			struct stats_paired p;
			struct stats_paired_opts o = { 200, 0, 0, 0 };
			double p2;

			stats_paired_compute(&p, ps.b, ps.a, ps.n, &o);
			p2 = 2 * fmin(p.p_increase, p.p_decrease);
			k += (p.ci_lo > 0 || p.ci_hi < 0) && p2 < 0.05;
		} else {
			struct stats_change c;

			stats_change_compute(&c, ps.b, ps.a, ps.w, ps.o, ps.n,
					     0.95);
			k += c.p_two < 0.05;
			/* the interval and the p agree */
			CHECK((c.p_two < 0.05) == (c.ci_lo > 0 || c.ci_hi < 0));
		}
		pairset_free(&ps);
	}
	return k;
}

/* tests/ref/stats_change_ref.py, pasted:
 * one-way {'delta': 0.02375, 'se': 0.003145764348029479, 'df': 3,
 *   'lo': 0.013738773873323179, 'hi': 0.03376122612667682,
 *   'p_inc': 0.0024091152340701694, 'p_two': 0.004818230468140339,
 *   'p_above': 0.0110759839669059}
 * two-way {'delta': 0.024999999999999998, 'se': 0.006649282890881011,
 *   'df': 3.9101448757569797, 'lo': 0.006370108684389222,
 *   'hi': 0.04362989131561078, 'p_inc': 0.01030280611363521,
 *   'p_two': 0.02060561222727042, 'p_above': 0.044306856519479965} */
TEST(reference)
{
	static const double b1[] = { 0.10, 0.12, 0.05, 0.07, 0.20, 0.22, 0.15,
				     0.11 };
	static const double a1[] = { 0.13, 0.14, 0.05, 0.10, 0.21, 0.27, 0.15,
				     0.16 };
	static const int64_t w1[] = { 1, 1, 2, 2, 3, 3, 4, 4 };
	static const int64_t o1[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const double b2[] = { 0.10, 0.12, 0.05, 0.07, 0.20, 0.22, 0.15,
				     0.11, 0.09, 0.30, 0.02, 0.04 };
	static const double a2[] = { 0.13, 0.14, 0.05, 0.10, 0.21, 0.27, 0.15,
				     0.16, 0.08, 0.36, 0.03, 0.09 };
	static const int64_t w2[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4 };
	static const int64_t o2[] = { 7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9 };
	struct stats_change c;

	/* 4 workloads: no interval, no p (issue 34: an interval needs
	 * STATS_CI_MIN_WORKLOADS); the formulas, without that minimum */
	stats_change_compute(&c, b1, a1, w1, o1, 8, 0.95);
	CHECK(isnan(c.ci_lo) && isnan(c.p_two) && isnan(c.se));
	CHECK(c.why == STATS_CHANGE_WHY_FEW);
	CHECK_NEAR(c.delta, 0.02375, 1e-12);
	CHECK(isnan(stats_change_p_above(&c, 0.01)));
	stats_change_compute(&c, b2, a2, w2, o2, 12, 0.95);
	CHECK(isnan(c.ci_lo) && c.why == STATS_CHANGE_WHY_FEW);
	stats_change_compute_raw(&c, b1, a1, w1, o1, 8, 0.95);
	CHECK_INT(c.two_way, 0);
	CHECK_STR(c.design, "workloads");
	CHECK_INT(c.n_workloads, 4);
	CHECK_NEAR(c.delta, 0.02375, 1e-12);
	CHECK_NEAR(c.se, 0.003145764348029479, 1e-12);
	CHECK_NEAR(c.df, 3, 0);
	CHECK_NEAR(c.ci_lo, 0.013738773873323179, 1e-7);
	CHECK_NEAR(c.ci_hi, 0.03376122612667682, 1e-7);
	CHECK_NEAR(c.p_increase, 0.0024091152340701694, 1e-6);
	CHECK_NEAR(c.p_two, 0.004818230468140339, 1e-6);
	CHECK_NEAR(stats_change_p_above(&c, 0.01), 0.0110759839669059, 1e-6);
	stats_change_compute_raw(&c, b2, a2, w2, o2, 12, 0.95);
	CHECK_INT(c.two_way, 1);
	CHECK_STR(c.design, "workloads x ops");
	CHECK_INT(c.n_ops, 3);
	CHECK_NEAR(c.delta, 0.025, 1e-12);
	CHECK_NEAR(c.se, 0.006649282890881011, 1e-12);
	CHECK_NEAR(c.df, 3.9101448757569797, 1e-12);
	CHECK_NEAR(c.ci_lo, 0.006370108684389222, 1e-7);
	CHECK_NEAR(c.ci_hi, 0.04362989131561078, 1e-7);
	CHECK_NEAR(c.p_increase, 0.01030280611363521, 1e-6);
	CHECK_NEAR(c.p_two, 0.02060561222727042, 1e-6);
	CHECK_NEAR(stats_change_p_above(&c, 0.01), 0.044306856519479965, 1e-6);
}

/* No interval where nothing measures the spread (one workload, no
 * pairs); an exact change where every pair changed alike. */
TEST(degenerate)
{
	static const double b[] = { 0.1, 0.2, 0.3, 0.4 };
	static const double a[] = { 0.2, 0.3, 0.4, 0.5 };
	static const int64_t one[] = { 1, 1, 1, 1 }, w[] = { 1, 1, 2, 2 };
	static const int64_t o[] = { 1, 2, 3, 4 };
	struct stats_change c;

	stats_change_compute(&c, b, a, one, o, 4, 0);
	CHECK_NEAR(c.delta, 0.1, 1e-12);
	CHECK(isnan(c.ci_lo) && isnan(c.p_two) && c.why);
	CHECK_NEAR(c.level, 0.95, 0);
	stats_change_compute(&c, b, a, w, o, 4, 0.9);
	CHECK_NEAR(c.p_increase, 0, 0);	/* +0.1 on every pair: exact */
	CHECK_NEAR(c.p_two, 0, 0);
	CHECK_NEAR(c.ci_lo, c.delta, 0);
	CHECK_NEAR(stats_change_p_above(&c, 0.2), 1, 0);
	CHECK(c.se == 0 && c.why);
	stats_change_compute(&c, b, a, w, o, 0, 0.9);
	CHECK_INT(c.n, 0);
	CHECK(isnan(c.delta) && c.why);
}

#define NSTUDIES 200

TEST(null_clustered)
{
	int k = rejections(&CLUSTERED, 0, NSTUDIES, 0, 101);

	fprintf(stderr, "null clustered: %d / %d\n", k, NSTUDIES);
	CHECK(k >= NSTUDIES * 2 / 100 && k <= NSTUDIES * 8 / 100);
}

TEST(null_crossed)
{
	int k = rejections(&CROSSED, 0, NSTUDIES, 0, 202);

	fprintf(stderr, "null crossed: %d / %d\n", k, NSTUDIES);
	CHECK(k >= NSTUDIES * 2 / 100 && k <= NSTUDIES * 8 / 100);
}

TEST(power)
{
	int k1 = rejections(&CLUSTERED, 0.3, 100, 0, 303);
	int k2 = rejections(&CROSSED, 0.3, 100, 0, 404);

	fprintf(stderr, "power: clustered %d / 100, crossed %d / 100\n", k1,
		k2);
	CHECK(k1 >= 80);
	CHECK(k2 >= 80);
}

/* What the old pair-level test said under the same null. */
TEST(old_pair_level_false_alarms)
{
	int k1 = rejections(&CLUSTERED, 0, 100, 1, 101);
	int k2 = rejections(&CROSSED, 0, 100, 1, 202);

	fprintf(stderr, "old pair-level: clustered %d / 100, crossed %d / "
		"100\n", k1, k2);
	CHECK(k1 > 10);
	CHECK(k2 > 10);
}

TEST_MAIN(CASE(reference), CASE(degenerate), CASE(null_clustered), CASE(null_crossed), CASE(power),
	  CASE(old_pair_level_false_alarms))
