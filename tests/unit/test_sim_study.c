/* Unit tests: the simulated-study generator tests/sim_study.h (issue 34)
 * makes what it says: the layout, the seed, the variance components. */
#include "check.h"
#include "sim_study.h"

TEST(layout_and_seed)
{
	struct sim_rng r1, r2;
	struct sim_study *a, *b;

	sim_rng_seed(&r1, 7);
	sim_rng_seed(&r2, 7);
	a = sim_study_make(&r1, 30, 8, 0.1, 0.05, 0.02, 0);
	b = sim_study_make(&r2, 30, 8, 0.1, 0.05, 0.02, 0);
	CHECK_INT(a->n, 240);
	CHECK_INT(a->pairs[17].workload, 2);
	CHECK_INT(a->pairs[17].op, 1);
	for (size_t k = 0; k < a->n; k++) {
		const struct sim_pair *p = &a->pairs[k];

		CHECK(p->model == b->pairs[k].model);
		CHECK_NEAR(p->log_err, a->workload_effect[p->workload] +
			   a->op_effect[p->op] + a->pair_noise[k], 1e-9);
		CHECK_NEAR(p->err, sim_study_err(a, k, p->model), 1e-12);
	}
	sim_study_free(a);
	sim_study_free(b);
}

/* Over many draws: the workload effect's sd, the pair noise's, a
 * growth of 0.3 scaling every log error by 1.3, and a release with
 * keep 0 being independent of the first (correlation ~ 0), keep 1 the
 * same model. */
TEST(components)
{
	struct sim_rng r;
	double sw = 0, sp = 0, cov = 0, va = 0, vb = 0;
	size_t nw = 0, np = 0;

	sim_rng_seed(&r, 11);
	for (int t = 0; t < 200; t++) {
		struct sim_study *s = sim_study_make(&r, 20, 5, 0.2, 0, 0.05,
						     0.3);
		double m2[100], m3[100];

		CHECK(sim_study_release(s, &r, 0, 0, m2) == 0);
		CHECK(sim_study_release(s, &r, 1, 0.3, m3) == 0);
		for (size_t w = 0; w < 20; w++, nw++)
			sw += s->workload_effect[w] * s->workload_effect[w];
		for (size_t k = 0; k < 100; k++, np++) {
			double la = s->pairs[k].log_err;
			double lb = log(m2[k] / s->pairs[k].ref);

			sp += s->pair_noise[k] * s->pair_noise[k];
			cov += la * lb;
			va += la * la;
			vb += lb * lb;
			CHECK_NEAR(m3[k], s->pairs[k].model, 1e-12);
			CHECK_NEAR(la, 1.3 * (s->workload_effect[k / 5] +
					      s->pair_noise[k]), 1e-9);
		}
		sim_study_free(s);
	}
	CHECK_NEAR(sqrt(sw / (double)nw), 0.2, 0.05);
	CHECK_NEAR(sqrt(sp / (double)np), 0.05, 0.05);
	CHECK(fabs(cov / sqrt(va * vb)) < 0.05);
	CHECK_NEAR(sqrt(vb / (double)np), sqrt(va / (double)np) / 1.3, 0.06);
}

TEST_MAIN(CASE(layout_and_seed), CASE(components))
