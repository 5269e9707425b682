/*
 * Unit tests: the gate's error control and its unknown verdict (issue
 * 34; src/gate/gate.c gate_adjust, gate_judge, src/gate/gate_eval.c
 * gate_control). Holm and Benjamini-Hochberg against hand computations;
 * a 200-rule null policy (every rule's release change simulated under
 * the null, tests/sim_study.h) fails the release in <= 5% of seeded runs
 * with holm and in nearly every run without control; unknown exactly
 * where the interval straddles the limit, counted as the policy says.
 */
#include "check.h"
#include "sim_study.h"

#include "src/gate/gate.h"

/* p = {0.01, 0.04, 0.03, 0.005}, sorted 0.005 0.01 0.03 0.04:
 * Holm 4(0.005) = 0.02, 3(0.01) = 0.03, 2(0.03) = 0.06, max(0.06, 0.04);
 * BH 4(0.005)/1 = 0.02, 4(0.01)/2 = 0.02, 4(0.03)/3 = 0.04, 4(0.04)/4 =
 * 0.04, running minimum from the top. */
TEST(adjust)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double a[4];

	gate_adjust(p, 4, PEC_HOLM, a);
	CHECK_NEAR(a[0], 0.03, 1e-12);
	CHECK_NEAR(a[1], 0.06, 1e-12);
	CHECK_NEAR(a[2], 0.06, 1e-12);
	CHECK_NEAR(a[3], 0.02, 1e-12);
	gate_adjust(p, 4, PEC_BH, a);
	CHECK_NEAR(a[0], 0.02, 1e-12);
	CHECK_NEAR(a[1], 0.04, 1e-12);
	CHECK_NEAR(a[2], 0.04, 1e-12);
	CHECK_NEAR(a[3], 0.02, 1e-12);
	gate_adjust(p, 4, PEC_NONE, a);
	CHECK_NEAR(a[1], 0.04, 0);
}

static struct policy_rule inc_rule(double limit, double alpha)
{
	struct policy_rule r;

	memset(&r, 0, sizeof(r));
	r.name = "inc";
	r.consecutive = 1;
	r.severity = POLICY_FAIL;
	r.has = 1u << PL_MAX_MAPE_INCREASE;
	r.lim[PL_MAX_MAPE_INCREASE] = limit;
	r.significance = alpha;
	r.unknown_as = PU_UNKNOWN;
	return r;
}

/* A rule result whose release change is a simulated study's. */
static void fill(struct gate_rule_result *rr, const struct policy_rule *r,
		 struct sim_rng *rng, size_t nw, size_t no, double growth)
{
	struct sim_study *s = sim_study_make(rng, nw, no, 0.1, 0.05, 0.03, 0);
	double *b = calloc(s->n, sizeof(double)), *a = calloc(s->n,
							      sizeof(double));
	int64_t *w = calloc(s->n, sizeof(int64_t)), *o = calloc(s->n,
								sizeof(int64_t));
	static const struct gate_prior pr = { .streak = 0, .have_base = 1,
					.base_mape = 0.1 };

	sim_study_release(s, rng, 0.9, growth, a);
	for (size_t k = 0; k < s->n; k++) {
		b[k] = fabs(s->pairs[k].err);
		a[k] = fabs(sim_study_err(s, k, a[k]));
		w[k] = (int64_t)s->pairs[k].workload;
		o[k] = (int64_t)s->pairs[k].op;
	}
	memset(rr, 0, sizeof(*rr));
	rr->rule = r;
	rr->prior = pr;
	rr->sum.n = s->n;
	rr->have_paired = 1;
	stats_change_compute(&rr->paired, b, a, w, o, s->n,
			     1 - 2 * r->significance);
	gate_judge(rr, &rr->sum, &rr->prior);
	free(b);
	free(a);
	free(w);
	free(o);
	sim_study_free(s);
}

/* Runs of a 200-rule null policy (limit 0: the strictest null, the true
 * change on the limit) whose verdict is fail, out of nruns. */
static int null_fails(enum policy_error_control ec, int nruns, uint64_t seed)
{
	struct policy pol;
	struct policy_rule r = inc_rule(0, 0.05);
	struct gate_result g;
	struct sim_rng rng;
	int fails = 0;

	memset(&pol, 0, sizeof(pol));
	pol.error_control = ec;
	sim_rng_seed(&rng, seed);
	for (int t = 0; t < nruns; t++) {
		memset(&g, 0, sizeof(g));
		g.policy = &pol;
		g.nrules = 200;
		g.rules = calloc(200, sizeof(*g.rules));
		for (size_t i = 0; i < 200; i++)
			fill(&g.rules[i], &r, &rng, 20, 5, 0);
		gate_control(&g);
		gate_verdict(&g);
		CHECK_INT(g.ntests, 200);
		fails += g.verdict == GATE_FAIL;
		for (size_t i = 0; i < 200; i++)
			free(g.rules[i].message);
		free(g.rules);
	}
	return fails;
}

TEST(null_policy_holm)
{
	int holm = null_fails(PEC_HOLM, 100, 34), none;

	fprintf(stderr, "200-rule null policy: holm fails %d / 100 runs\n",
		holm);
	CHECK(holm <= 5);
	none = null_fails(PEC_NONE, 20, 35);
	fprintf(stderr, "without error control: fails %d / 20 runs\n", none);
	CHECK(none >= 18);
}

/* Unknown exactly where the interval straddles the limit. */
TEST(unknown_where_straddling)
{
	struct policy_rule r = inc_rule(0.01, 0.05);
	static const struct gate_prior pr = { .streak = 0, .have_base = 1,
					.base_mape = 0.1 };
	struct gate_rule_result rr;
	/* delta, se: the 90% interval delta -+ 1.729 se (t, 19 df) */
	static const struct { double delta, se; enum gate_status want; } c[] = {
		{ 0.030, 0.005, GATE_FAIL },	/* [0.021, 0.039] above */
		{ 0.012, 0.005, GATE_UNKNOWN },	/* point above, straddles */
		{ 0.008, 0.005, GATE_UNKNOWN },	/* point within, straddles */
		{ -0.01, 0.005, GATE_PASS },	/* [-0.019, -0.001] within */
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		memset(&rr, 0, sizeof(rr));
		rr.rule = &r;
		rr.have_paired = 1;
		rr.sum.n = 100;
		rr.paired.n = 100;
		rr.paired.n_workloads = 20;
		rr.paired.delta = c[i].delta;
		rr.paired.se = c[i].se;
		rr.paired.df = 19;
		rr.paired.level = 0.9;
		rr.paired.ci_lo = c[i].delta - 1.7291328115213855 * c[i].se;
		rr.paired.ci_hi = c[i].delta + 1.7291328115213855 * c[i].se;
		gate_judge(&rr, &rr.sum, &pr);
		CHECK_INT(rr.status, c[i].want);
		CHECK_INT(rr.checks[0].unknown, c[i].want == GATE_UNKNOWN);
		if (c[i].want == GATE_UNKNOWN) {
			/* 20 (hw / |delta - limit|)^2 - 20, hw = 1.729 se */
			double hw = 1.7291328115213855 * c[i].se;
			double need = 20 * pow(hw / fabs(c[i].delta - 0.01), 2);

			CHECK_INT(rr.checks[0].more_workloads,
				  (long)ceil(need) - 20);
			CHECK(strstr(rr.message, ": unknown (") != NULL);
		}
		free(rr.message);
	}
	/* as the policy says: fail, pass */
	r.unknown_as = PU_FAIL;
	memset(&rr, 0, sizeof(rr));
	rr.rule = &r;
	rr.have_paired = 1;
	rr.sum.n = 100;
	rr.paired = (struct stats_change){ .n = 100, .n_workloads = 20,
					   .delta = 0.012, .se = 0.005,
					   .df = 19, .level = 0.9 };
	gate_judge(&rr, &rr.sum, &pr);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK(strstr(rr.message, "unknown (counted as fail)") != NULL);
	free(rr.message);
	r.unknown_as = PU_PASS;
	rr.message = NULL;
	gate_judge(&rr, &rr.sum, &pr);
	CHECK_INT(rr.status, GATE_PASS);
	free(rr.message);
}

TEST_MAIN(CASE(adjust), CASE(null_policy_holm),
	  CASE(unknown_where_straddling))
