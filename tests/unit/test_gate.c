/* Unit tests: gate judgement, selection, waivers, history (src/gate.c). */
#include "check.h"

#include "db/annot.h"
#include "db/gate.h"
#include "src/corr/correlate.h"
#include "src/gate/gate.h"
#include "base/strbuf.h"

/* A summary that passes every limit of rule_all(). */
static struct stats_summary good_sum(void)
{
	struct stats_summary s;

	memset(&s, 0, sizeof(s));
	s.n = 10;
	s.mape = 0.10;
	s.bias = -0.05;
	s.max_abs_err = 0.20;
	s.p95_abs_err = 0.18;
	s.pearson = 0.95;
	s.spearman = 0.90;
	s.kendall_tau_b = 0.80;
	s.fit.slope = 1.0;
	s.nrmse = 0.12;
	s.sol_violations = 0;
	return s;
}

static struct policy_rule rule_all(void)
{
	struct policy_rule r;

	memset(&r, 0, sizeof(r));
	r.name = "r";
	r.consecutive = 1;
	r.severity = POLICY_FAIL;
	r.has = (1u << PL_COUNT) - 1;
	r.lim[PL_MIN_PAIRS] = 5;
	r.lim[PL_MAX_MAPE] = 0.15;
	r.lim[PL_MAX_ABS_ERR] = 0.25;
	r.lim[PL_MAX_P95_ABS_ERR] = 0.20;
	r.lim[PL_MAX_BIAS] = 0.08;
	r.lim[PL_MIN_PEARSON] = 0.90;
	r.lim[PL_MIN_SPEARMAN] = 0.85;
	r.lim[PL_MIN_KENDALL] = 0.70;
	r.lim[PL_SLOPE_RANGE] = 0.8;
	r.slope_hi = 1.25;
	r.lim[PL_MAX_NRMSE] = 0.15;
	r.lim[PL_MAX_SOL_VIOLATIONS] = 1;
	r.lim[PL_MAX_MAPE_INCREASE] = 0.02;
	r.lim[PL_MAX_BLIND_KNOBS] = 2;
	r.lim[PL_MAX_VERDICT_FLIPS] = 1;
	return r;
}

static void judge(struct gate_rule_result *rr, const struct policy_rule *r,
		  const struct stats_summary *s, const struct gate_prior *pr)
{
	memset(rr, 0, sizeof(*rr));
	rr->rule = r;
	rr->have_sens = 1;	/* 8 sweeps, 1 blind, 1 wrong: 2 <= 2 */
	rr->nsweeps = 8;
	rr->nblind = rr->nwrong = 1;
	rr->have_slo = 1;	/* 6 keys, 1 flip, none near: 1 <= 1 */
	rr->slo.keys = 6;
	rr->slo.cell[SLO_BOTH_MEET] = 5;
	rr->slo.cell[SLO_MODEL_MEETS] = 1;
	gate_judge(rr, s, pr);
}

TEST(all_pass)
{
	struct policy_rule r = rule_all();
	struct stats_summary s = good_sum();
	struct gate_prior pr = { .streak = 0, .have_base = 1,
					.base_mape = 0.09 };
	struct gate_rule_result rr;

	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.nchecks, PL_COUNT);
	CHECK_INT(rr.failed, 0);
	CHECK_INT(rr.status, GATE_PASS);
	CHECK(rr.message == NULL);
	CHECK_NEAR(rr.checks[PL_MAX_MAPE_INCREASE].value, 0.01, 1e-9);
	CHECK_NEAR(rr.checks[PL_MAX_BIAS].value, 0.05, 1e-12);
	free(rr.message);
}

/* Move one statistic across its limit: pass on one side, fail on the
 * other, with the expected message. */
#include <stddef.h>
#define F(f) offsetof(struct stats_summary, f)

static void across(enum policy_limit l, size_t off, double ok, double bad,
		   const char *msg)
{
	struct policy_rule r = rule_all();
	struct stats_summary s = good_sum();
	struct gate_prior pr = { .streak = 0, .have_base = 1,
					.base_mape = 0.14 };
	struct gate_rule_result rr;
	double *f;

	(void)l;
	s = good_sum();
	f = (double *)((char *)&s + off);
	*f = ok;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_PASS);
	if (rr.message)
		fprintf(stderr, "unexpected: %s\n", rr.message);
	free(rr.message);
	*f = bad;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_STR(rr.message, msg);
	free(rr.message);
}

TEST(every_limit_both_sides)
{
	across(PL_MAX_MAPE, F(mape), 0.1499, 0.1501,
	       "max_mape 15.01% > 15%");
	across(PL_MAX_ABS_ERR, F(max_abs_err), 0.25, 0.2501,
	       "max_abs_err 25.01% > 25%");
	across(PL_MAX_P95_ABS_ERR, F(p95_abs_err), 0.199, 0.201,
	       "max_p95_abs_err 20.1% > 20%");
	across(PL_MAX_BIAS, F(bias), -0.079, -0.081,
	       "max_bias 8.1% > 8%");
	across(PL_MAX_BIAS, F(bias), 0.079, 0.081, "max_bias 8.1% > 8%");
	across(PL_MIN_PEARSON, F(pearson), 0.90, 0.899,
	       "min_pearson 0.899 < 0.900");
	across(PL_MIN_SPEARMAN, F(spearman), 0.851, 0.849,
	       "min_spearman 0.849 < 0.850");
	across(PL_MIN_KENDALL, F(kendall_tau_b), 0.701, 0.699,
	       "min_kendall 0.699 < 0.700");
	across(PL_SLOPE_RANGE, F(fit.slope), 0.801, 0.799,
	       "slope 0.799 outside [0.8, 1.25]");
	across(PL_SLOPE_RANGE, F(fit.slope), 1.249, 1.251,
	       "slope 1.251 outside [0.8, 1.25]");
	across(PL_MAX_NRMSE, F(nrmse), 0.149, 0.151,
	       "max_nrmse 15.1% > 15%");
	across(PL_MIN_PEARSON, F(pearson), 0.95, NAN,
	       "min_pearson n/a (undefined), limit 0.900");
}

TEST(counts_both_sides)
{
	struct policy_rule r = rule_all();
	struct stats_summary s = good_sum();
	struct gate_rule_result rr;

	s.sol_violations = 1;
	judge(&rr, &r, &s, NULL);
	CHECK_INT(rr.status, GATE_PASS);
	free(rr.message);
	s.sol_violations = 2;
	judge(&rr, &r, &s, NULL);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_STR(rr.message, "max_sol_violations 2 > 1");
	free(rr.message);
	s = good_sum();
	s.n = 5;
	judge(&rr, &r, &s, NULL);
	CHECK_INT(rr.status, GATE_PASS);
	free(rr.message);
	s.n = 4;
	judge(&rr, &r, &s, NULL);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_INT(rr.coverage_failed, 1);
	CHECK_STR(rr.message, "min_pairs 4 < 5");
	free(rr.message);
}

/* max_blind_knobs counts blind and wrong-direction sweeps; a rule whose
 * points hold no sweep is n/a and fails (never a pass). */
TEST(blind_knobs)
{
	struct policy_rule r = rule_all();
	struct stats_summary s = good_sum();
	struct gate_rule_result rr;

	memset(&rr, 0, sizeof(rr));
	rr.rule = &r;
	rr.have_slo = 1;
	rr.have_sens = 1;
	rr.nsweeps = 8;
	rr.nblind = 2;
	rr.nwrong = 1;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_STR(rr.message, "max_blind_knobs 3 > 2");
	free(rr.message);
	memset(&rr, 0, sizeof(rr));
	rr.rule = &r;
	rr.have_slo = 1;
	rr.have_sens = 1;
	rr.nsweeps = 8;
	rr.nwrong = 2;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_PASS);
	CHECK_NEAR(rr.checks[PL_MAX_BLIND_KNOBS].value, 2, 0);
	free(rr.message);
	memset(&rr, 0, sizeof(rr));
	rr.rule = &r;
	rr.have_slo = 1;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK(isnan(rr.checks[PL_MAX_BLIND_KNOBS].value));
	CHECK_STR(rr.message, "max_blind_knobs n/a (no sweep among the "
		  "rule's pairs: a sweep is one op and metric over >= 3 "
		  "positive values of one workload parameter, the rest of "
		  "the key fixed), limit 2");
	free(rr.message);
}

/* max_verdict_flips (issue 38): the confident flips against the limit;
 * within it unless the near-limit keys could carry it over: unknown
 * (or as the policy's "unknown" says); no judged key is n/a and fails. */
TEST(verdict_flips)
{
	struct policy_rule r = rule_all();
	struct stats_summary s = good_sum();
	struct gate_rule_result rr;
	const struct gate_check *c;

	r.has = (1u << PL_MIN_PAIRS) | (1u << PL_MAX_VERDICT_FLIPS);
	r.lim[PL_MAX_VERDICT_FLIPS] = 1;
	judge(&rr, &r, &s, NULL);	/* 1 flip, 0 near */
	CHECK_INT(rr.status, GATE_PASS);
	c = &rr.checks[1];
	CHECK_INT(c->lim, PL_MAX_VERDICT_FLIPS);
	CHECK_NEAR(c->value, 1, 0);
	CHECK_INT(c->unknown, 0);
	free(rr.message);
	rr.slo.cell[SLO_MODEL_MISSES] = 1;	/* 2 flips > 1 */
	rr.message = NULL;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_STR(rr.message, "max_verdict_flips 2 > 1");
	free(rr.message);
	rr.slo.cell[SLO_MODEL_MISSES] = 0;	/* 1 flip + 1 near: unknown */
	rr.slo.cell[SLO_NEAR] = 1;
	rr.message = NULL;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_UNKNOWN);
	CHECK_INT(rr.checks[1].unknown, 1);
	CHECK_STR(rr.message, "max_verdict_flips 1 <= 1 (and 1 near the "
		  "limit, within the reference's spread: with them it could "
		  "be over: unknown)");
	free(rr.message);
	r.unknown_as = PU_FAIL;
	rr.message = NULL;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_FAIL);
	free(rr.message);
	r.unknown_as = PU_PASS;
	rr.message = NULL;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_PASS);
	free(rr.message);
	r.unknown_as = PU_UNKNOWN;
	r.lim[PL_MAX_VERDICT_FLIPS] = 2;	/* 1 + 1 near <= 2: pass */
	rr.message = NULL;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_PASS);
	free(rr.message);
	memset(&rr, 0, sizeof(rr));		/* nothing judged: n/a, fails */
	rr.rule = &r;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_STR(rr.message, "max_verdict_flips n/a (no pair of the rule's "
		  "has a metric the policy's slo limits), limit 2");
	free(rr.message);
}

TEST(mape_increase)
{
	struct policy_rule r = rule_all();
	struct stats_summary s = good_sum();
	struct gate_prior pr = { .streak = 0, .have_base = 1,
					.base_mape = 0.08 };
	struct gate_rule_result rr;

	judge(&rr, &r, &s, &pr);	/* +2 pp exactly: passes */
	CHECK_INT(rr.status, GATE_PASS);
	free(rr.message);
	pr.base_mape = 0.0799;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_STR(rr.message, "max_mape_increase +2.01 pp > +2 pp");
	free(rr.message);
	pr.have_base = 0;	/* no baseline: not applicable (the other
				   limits evaluated: still a pass) */
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_PASS);
	CHECK_INT(rr.checks[PL_MAX_MAPE_INCREASE].na, 1);
	free(rr.message);
}

/* A rule whose only limit is an increase, without a baseline release,
 * evaluated nothing: unknown, never a pass (it passed before); the
 * policy's "unknown" decides what it counts as; with a baseline it is
 * judged; every point waived still passes (documented). */
TEST(nothing_evaluated)
{
	struct policy_rule r;
	struct stats_summary s = good_sum();
	struct gate_rule_result rr;
	struct gate_prior pr = { .have_base = 0, .base_mape = NAN,
		.why_none = "the first release of the model in the database: "
			    "nothing to compare with" };

	memset(&r, 0, sizeof(r));
	r.has = (1u << PL_MIN_PAIRS) | (1u << PL_MAX_ABS_ERR_INCREASE);
	r.lim[PL_MIN_PAIRS] = 1;
	r.lim[PL_MAX_ABS_ERR_INCREASE] = 0.10;
	r.consecutive = 1;
	r.severity = POLICY_FAIL;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_UNKNOWN);
	CHECK_STR(rr.message, "nothing evaluated, no baseline release: "
		  "max_abs_err_increase n/a (the first release of the model "
		  "in the database: nothing to compare with), limit +10 pp");
	CHECK_INT(rr.checks[1].unknown, 1);
	free(rr.message);
	r.severity = POLICY_WARN;	/* an unknown warn rule shows WARN */
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_WARN);
	free(rr.message);
	r.severity = POLICY_FAIL;
	r.unknown_as = PU_FAIL;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK(strstr(rr.message, "limit +10 pp (counted as fail)") != NULL);
	free(rr.message);
	r.unknown_as = PU_PASS;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_PASS);
	CHECK(strstr(rr.message, "(counted as pass)") != NULL);
	free(rr.message);
	r.unknown_as = PU_UNKNOWN;
	s.n = 0;			/* every point waived: passes */
	memset(&rr, 0, sizeof(rr));
	rr.rule = &r;
	rr.nwaived = 3;
	gate_judge(&rr, &s, &pr);
	CHECK_INT(rr.status, GATE_PASS);
	free(rr.message);
}

TEST(empty_selection_fails_coverage)
{
	struct policy_rule r;
	struct stats_summary s;
	struct gate_rule_result rr;
	struct gate_prior pr = { .streak = 5, .have_base = 0,
				 .base_mape = NAN, .base_version = NULL };

	memset(&r, 0, sizeof(r));
	memset(&s, 0, sizeof(s));
	r.has = (1u << PL_MIN_PAIRS) | (1u << PL_MAX_MAPE);
	r.lim[PL_MIN_PAIRS] = 1;
	r.lim[PL_MAX_MAPE] = 0.1;
	r.consecutive = 3;		/* never delays a coverage failure */
	s.mape = NAN;
	pr.streak = 0;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_STR(rr.message, "min_pairs 0 < 1; max_mape n/a (no pairs), "
		  "limit 10%");
	free(rr.message);
}

/* Waived pairs count toward coverage; a rule whose every point is
 * waived passes with its other limits not applicable. */
TEST(waived_coverage)
{
	struct policy_rule r = rule_all();
	struct stats_summary s;
	struct gate_rule_result rr;

	memset(&s, 0, sizeof(s));
	s.mape = s.pearson = s.fit.slope = NAN;
	memset(&rr, 0, sizeof(rr));
	rr.rule = &r;
	rr.nwaived = 5;
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_PASS);
	CHECK_NEAR(rr.checks[0].value, 5, 0);
	CHECK_INT(rr.checks[1].na, 1);
	CHECK_STR(rr.checks[1].why, "every point waived");
	free(rr.message);
	memset(&rr, 0, sizeof(rr));
	rr.rule = &r;
	rr.nwaived = 4;		/* below min_pairs 5 */
	gate_judge(&rr, &s, NULL);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_INT(rr.coverage_failed, 1);
	free(rr.message);
}

TEST(consecutive_and_severity)
{
	struct policy_rule r = rule_all();
	struct stats_summary s = good_sum();
	struct gate_prior pr = { .streak = 0, .have_base = 0,
					.base_mape = NAN };
	struct gate_rule_result rr;

	r.consecutive = 3;
	s.mape = 0.2;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_WARN);
	CHECK_INT(rr.streak, 1);
	CHECK_STR(rr.message, "max_mape 20% > 15% (failure 1 of 3 in a row "
		  "before it fails)");
	free(rr.message);
	pr.streak = 2;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_FAIL);
	CHECK_INT(rr.streak, 3);
	CHECK_STR(rr.message, "max_mape 20% > 15% (failed 3 evaluations in a "
		  "row)");
	free(rr.message);
	r.severity = POLICY_WARN;
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_WARN);
	free(rr.message);
	s.mape = 0.1;		/* passing resets the streak */
	judge(&rr, &r, &s, &pr);
	CHECK_INT(rr.status, GATE_PASS);
	CHECK_INT(rr.streak, 0);
	free(rr.message);
}

TEST(verdict)
{
	struct gate_rule_result rules[3];
	struct gate_result g;

	memset(&g, 0, sizeof(g));
	memset(rules, 0, sizeof(rules));
	g.rules = rules;
	g.nrules = 3;
	gate_verdict(&g);
	CHECK_INT(g.verdict, GATE_PASS);
	rules[1].status = GATE_WARN;
	gate_verdict(&g);
	CHECK_INT(g.verdict, GATE_WARN);
	CHECK_INT(g.nwarn, 1);
	rules[2].status = GATE_FAIL;
	gate_verdict(&g);
	CHECK_INT(g.verdict, GATE_FAIL);
	CHECK_INT(g.npass, 1);
	CHECK_STR(gate_status_name(g.verdict), "fail");
}

TEST(selects)
{
	struct policy_rule r;
	struct corr_point p;
	char *names[] = { "bs" }, *values[] = { "32" };

	memset(&r, 0, sizeof(r));
	memset(&p, 0, sizeof(p));
	p.workload = "llama3-8b/decode/bs=32/seq=2048/bf16";
	p.op = "gemm_qkv";
	p.op_class = "gemm";
	p.metric = "time";
	CHECK(gate_selects(&r, &p));
	r.metric = "time";
	r.op_glob = "gemm_*";
	r.op_class_glob = "gemm";
	r.workload_glob = "llama3-*";
	r.param_names = names;
	r.param_values = values;
	r.nparams = 1;
	CHECK(gate_selects(&r, &p));
	values[0] = "16";
	CHECK(!gate_selects(&r, &p));
	values[0] = "32";
	r.metric = "power";
	CHECK(!gate_selects(&r, &p));
	r.metric = NULL;
	r.op_glob = "attn*";
	CHECK(!gate_selects(&r, &p));
	r.op_glob = NULL;
	r.workload_glob = "gpt*";
	CHECK(!gate_selects(&r, &p));
	r.workload_glob = NULL;
	r.op_class_glob = "attn";
	CHECK(!gate_selects(&r, &p));
}

TEST(waivers)
{
	struct annot a;
	struct corr_point p;

	memset(&a, 0, sizeof(a));
	memset(&p, 0, sizeof(p));
	CHECK(!gate_waived(&p, "2026-01-01"));
	p.ann = &a;
	a.status = "explained";
	CHECK(!gate_waived(&p, "2026-01-01"));
	a.status = "accepted";
	CHECK(gate_waived(&p, "2026-01-01"));		/* no expiry */
	a.expires = "2026-01-01";
	CHECK(gate_waived(&p, "2026-01-01"));		/* last day */
	CHECK(!gate_waived(&p, "2026-01-02"));		/* expired */
	CHECK(gate_waived(&p, "2025-12-31"));
}

static struct db_gate_hist H(const char *ver, const char *in, const char *v,
			     int failed, double mape)
{
	struct db_gate_hist h = { .eval_id = 0, .model_version = (char *)ver,
				  .inputs = (char *)in, .verdict = (char *)v,
				  .have_rule = 1, .failed = failed,
				  .mape = mape };
	return h;
}

TEST(prior_streak_and_baseline)
{
	char *versions[] = { "1.0", "1.1", "1.2", "2.0" };
	struct db_gate_hist h[] = {	/* newest first */
		H("1.2", "[3]|[9]", "fail", 1, 0.30),
		H("1.2", "[3]|[9]", "fail", 1, 0.30),	/* a re-run */
		H("1.1", "[2]|[9]", "warn", 1, 0.25),
		H("1.0", "[1]|[9]", "pass", 0, 0.05),
		H("1.0", "[0]|[9]", "pass", 1, 0.04),
	};
	struct gate_prior pr;

	gate_prior_compute(&pr, h, 5, "[4]|[9]", "2.0", versions, 4);
	CHECK_INT(pr.streak, 2);
	CHECK_INT(pr.have_base, 1);
	CHECK_STR(pr.base_version, "1.1");	/* warn counts as passing */
	CHECK_NEAR(pr.base_mape, 0.25, 0);
	gate_prior_release(&pr);
	/* re-evaluating 1.2 itself: its own rows are not earlier failures,
	 * and the baseline must be an earlier version */
	gate_prior_compute(&pr, h, 5, "[3]|[9]", "1.2", versions, 4);
	CHECK_INT(pr.streak, 1);
	CHECK_STR(pr.base_version, "1.1");
	gate_prior_release(&pr);
	gate_prior_compute(&pr, h, 5, "[1]|[9]", "1.0", versions, 4);
	CHECK_INT(pr.have_base, 0);
	gate_prior_release(&pr);
	/* a rule that did not exist then breaks the streak */
	h[1].have_rule = 0;
	h[0].have_rule = 0;
	gate_prior_compute(&pr, h, 5, "[4]|[9]", "2.0", versions, 4);
	CHECK_INT(pr.streak, 0);
	gate_prior_release(&pr);
}

/* No evaluation of an earlier release passed (issue 35 item 7): the
 * previous version is the baseline, said so, unless an evaluation of it
 * failed or was unknown; the first release has none. */
TEST(prior_previous_version)
{
	char *versions[] = { "1.0", "1.1", "1.2" };
	struct db_gate_hist h[] = {
		H("1.1", "[2]|[9]", "fail", 1, 0.30),
		H("1.0", "[1]|[9]", "fail", 1, 0.20),
	};
	struct gate_prior pr;

	gate_prior_compute(&pr, NULL, 0, "[3]|[9]", "1.2", versions, 3);
	CHECK_INT(pr.have_base, 1);
	CHECK_INT(pr.base_prev, 1);
	CHECK_STR(pr.base_version, "1.1");
	CHECK(isnan(pr.base_mape));
	gate_prior_release(&pr);
	/* 1.1 failed the policy: no baseline, and why */
	gate_prior_compute(&pr, h, 2, "[3]|[9]", "1.2", versions, 3);
	CHECK_INT(pr.have_base, 0);
	CHECK_STR(pr.why_none, "no earlier release passed this policy; the "
		  "previous one failed it or was unknown");
	gate_prior_release(&pr);
	/* an unknown evaluation is no baseline either (db_gate_hist: a
	 * rule's status unknown) */
	h[0].verdict = "unknown";
	h[0].unknown = 1;
	gate_prior_compute(&pr, h, 1, "[3]|[9]", "1.2", versions, 3);
	CHECK_INT(pr.have_base, 0);
	gate_prior_release(&pr);
	/* ... unless its unknown rules only evaluated nothing (no baseline
	 * release for them: unknown 0), else no later release ever has one */
	h[0].unknown = 0;
	gate_prior_compute(&pr, h, 1, "[3]|[9]", "1.2", versions, 3);
	CHECK_INT(pr.have_base, 1);
	CHECK_STR(pr.base_version, "1.1");
	gate_prior_release(&pr);
	/* only 1.0 failed: 1.1 (never judged) is the previous version */
	gate_prior_compute(&pr, h + 1, 1, "[3]|[9]", "1.2", versions, 3);
	CHECK_INT(pr.base_prev, 1);
	CHECK_STR(pr.base_version, "1.1");
	gate_prior_release(&pr);
	/* a passing evaluation wins over the previous version */
	h[1].verdict = "pass";
	gate_prior_compute(&pr, h + 1, 1, "[3]|[9]", "1.2", versions, 3);
	CHECK_INT(pr.base_prev, 0);
	CHECK_STR(pr.base_version, "1.0");
	CHECK_NEAR(pr.base_mape, 0.20, 0);
	gate_prior_release(&pr);
	gate_prior_compute(&pr, NULL, 0, "[1]|[9]", "1.0", versions, 3);
	CHECK_INT(pr.have_base, 0);
	CHECK_STR(pr.why_none, "the first release of the model in the "
		  "database: nothing to compare with");
	gate_prior_release(&pr);
}

TEST(check_text)
{
	struct gate_check c = { .lim = PL_MAX_MAPE, .value = 0.081,
				.limit = 0.15, .limit_hi = NAN, .failed = 0,
				.na = 0, .why = NULL, .paired = 0,
				.significant = 1 };
	struct strbuf sb = STRBUF_INIT;

	gate_check_text(&c, &sb);
	CHECK_STR(sb.buf, "max_mape 8.1% <= 15%");
	strbuf_reset(&sb);
	c.lim = PL_MIN_PAIRS;
	c.value = 12;
	c.limit = 4;
	gate_check_text(&c, &sb);
	CHECK_STR(sb.buf, "min_pairs 12 >= 4");
	strbuf_reset(&sb);
	c.lim = PL_MAX_MAPE;	/* equal when rounded: more digits */
	c.value = 0.1200004;
	c.limit = 0.12;
	c.failed = 1;
	gate_check_text(&c, &sb);
	CHECK_STR(sb.buf, "max_mape 12.00004% > 12%");
	strbuf_release(&sb);
}

TEST_MAIN(CASE(all_pass), CASE(every_limit_both_sides),
	  CASE(counts_both_sides), CASE(blind_knobs), CASE(verdict_flips),
	  CASE(mape_increase), CASE(nothing_evaluated),
	  CASE(empty_selection_fails_coverage), CASE(waived_coverage),
	  CASE(consecutive_and_severity),
	  CASE(verdict), CASE(selects), CASE(waivers),
	  CASE(prior_streak_and_baseline), CASE(prior_previous_version),
	  CASE(check_text))
