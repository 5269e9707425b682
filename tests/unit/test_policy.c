/* Unit tests: the gate policy parser (src/policy.c). */
#include "check.h"

#include "base/error.h"
#include "src/gate/policy.h"

static const char good[] =
	"{\n"
	"  \"name\": \"release\",\n"
	"  \"model\": \"archsim\",\n"
	"  \"ref\": \"h100-lab@2024\",\n"
	"  \"max_ref_cv\": 0.2, \"slo\": \"ttft_p99=2s\",\n"
	"  \"rules\": [\n"
	"    {\n"
	"      \"name\": \"e2e\", \"metric\": \"time\", \"op\": \"e2e\",\n"
	"      \"max_mape\": 0.15, \"max_abs_err\": \"40%\",\n"
	"      \"max_p95_abs_err\": 0.3, \"max_bias\": 0.1,\n"
	"      \"min_pearson\": 0.9, \"min_spearman\": 0.8,\n"
	"      \"min_kendall\": -0.5, \"slope_range\": [0.8, 1.25],\n"
	"      \"max_nrmse\": 0.2, \"max_sol_violations\": 0,\n"
	"      \"min_pairs\": 4, \"max_mape_increase\": 0.02,"
	" \"max_blind_knobs\": 3, \"max_abs_err_increase\": \"10%\","
	" \"max_verdict_flips\": 1\n"
	"    },\n"
	"    { \"name\": \"decode\", \"workload\": \"llama*\",\n"
	"      \"op_class\": \"gemm\", \"param.batch_size\": 32.0,\n"
	"      \"param.precision\": \"BF16\", \"severity\": \"warn\",\n"
	"      \"consecutive\": 3, \"max_mape\": 0.2 }\n"
	"  ]\n"
	"}\n";

TEST(parse_good)
{
	struct policy *p = NULL;
	const struct policy_rule *r;

	CHECK_INT(policy_parse(&p, good, sizeof(good) - 1, "p.json"), 0);
	if (!p)
		return;
	CHECK_STR(p->name, "release");
	CHECK_STR(p->model, "archsim");
	CHECK_STR(p->ref, "h100-lab@2024");
	CHECK_NEAR(p->max_ref_cv, 0.2, 0);
	CHECK_INT(p->nrules, 2);
	CHECK_INT(strlen(p->hash), 64);
	r = &p->rules[0];
	CHECK_STR(r->name, "e2e");
	CHECK_INT(r->line, 7);
	CHECK_INT(r->has, (1u << PL_COUNT) - 1);
	CHECK_NEAR(r->lim[PL_MAX_ABS_ERR], 0.40, 1e-12);
	CHECK_NEAR(r->lim[PL_SLOPE_RANGE], 0.8, 0);
	CHECK_NEAR(r->slope_hi, 1.25, 0);
	CHECK_NEAR(r->lim[PL_MIN_PAIRS], 4, 0);
	CHECK_NEAR(r->lim[PL_MAX_BLIND_KNOBS], 3, 0);
	CHECK_NEAR(r->lim[PL_MAX_ABS_ERR_INCREASE], 0.10, 1e-12);
	CHECK_INT(r->severity, POLICY_FAIL);
	CHECK_INT(r->consecutive, 1);
	r = &p->rules[1];
	CHECK_INT(r->line, 16);
	CHECK_INT(r->severity, POLICY_WARN);
	CHECK_INT(r->consecutive, 3);
	CHECK_INT(r->has, (1u << PL_MAX_MAPE) | (1u << PL_MIN_PAIRS));
	CHECK_NEAR(r->lim[PL_MIN_PAIRS], 1, 0);	/* default coverage */
	CHECK_INT(r->nparams, 2);
	CHECK_STR(r->param_names[0], "bs");
	CHECK_STR(r->param_values[0], "32");
	CHECK_STR(r->param_names[1], "precision");
	CHECK_STR(r->param_values[1], "bf16");
	CHECK_STR(r->op_class_glob, "gemm");
	policy_free(p);
}

/* Parse text that must fail; return the message. */
static const char *bad(const char *text)
{
	struct policy *p = NULL;
	int rc = policy_parse(&p, text, strlen(text), "p.json");

	CHECK_INT(rc, PC_EINVALID);
	CHECK(p == NULL);
	policy_free(p);
	return pc_error_last();
}

#define R(rule) "{\"name\": \"x\",\n\"rules\": [\n{\"name\": \"r\",\n" rule "}]}"

TEST(errors_structure)
{
	CHECK_STR(bad("{\n  \"name\": \"x\",\n  \"rules\": [ ,\n"),
		  "p.json:3:14: invalid JSON");
	CHECK_STR(bad("[1]"), "p.json:1: expected a policy object, got an "
		  "array");
	CHECK_STR(bad("{\"name\": \"x\",\n\"colour\": 1, \"rules\": []}"),
		  "p.json:2: colour: unknown key (a policy has name, "
		  "description, model, ref, max_ref_cv, allow_mismatch, "
		  "error_control, unknown, waiver_tolerance, waivers, slo and "
		  "rules)");
	CHECK_STR(bad("{\"name\": \"x\", \"error_control\": \"bonferroni\", "
		      "\"rules\": []}"), "p.json:1: error_control: expected "
		  "holm, bh or none, got \"bonferroni\"");
	CHECK_STR(bad("{\"name\": \"x\", \"unknown\": 1, \"rules\": []}"),
		  "p.json:1: unknown: expected a string, got a number");
	CHECK_STR(bad("{\"name\": \"x\"}"), "p.json:1: missing required key "
		  "'rules'");
	CHECK_STR(bad("{\"rules\": [{\"name\": \"r\", \"max_mape\": 0.1}]}"),
		  "p.json:1: missing required key 'name'");
	CHECK_STR(bad("{\"name\": \"x\",\n\"rules\": []}"),
		  "p.json:2: rules: a policy needs at least one rule");
	CHECK_STR(bad("{\"name\": \"x\",\n\"rules\": {}}"),
		  "p.json:2: rules: expected an array of rules, got an object");
	CHECK_STR(bad("{\"name\": \"x\", \"rules\": [\n7]}"),
		  "p.json:2: rules[0]: expected a rule object, got a number");
	CHECK_STR(bad("{\"name\": 3, \"rules\": []}"),
		  "p.json:1: name: expected a string, got a number");
	CHECK_STR(bad("{\"name\": \"\", \"rules\": []}"),
		  "p.json:1: name: must not be empty");
	CHECK_STR(bad("{\"name\": \"x\",\n\"max_ref_cv\": 0, \"rules\": []}"),
		  "p.json:2: max_ref_cv: must be > 0 (got 0)");
	CHECK_STR(bad("{\"name\": \"x\",\n\"name\": \"y\", \"rules\": []}"),
		  "p.json:2: name: duplicate key");
}

TEST(errors_rules)
{
	CHECK_STR(bad(R("\"max_mapee\": 0.1")), "p.json:4: rules[0].max_mapee: "
		  "unknown key (a rule has name, description, metric, op, "
		  "op_class, workload, param.NAME, severity, consecutive, "
		  "significance and limits such as max_mape; see docs/gate.md)");
	CHECK_STR(bad(R("\"max_mape\": \"high\"")), "p.json:4: "
		  "rules[0].max_mape: expected a fraction (0.15) or a "
		  "percentage (\"15%\"), got \"high\"");
	CHECK_STR(bad(R("\"max_mape\": true")), "p.json:4: rules[0].max_mape: "
		  "expected a number, got a boolean");
	CHECK_STR(bad(R("\"max_mape\": -0.1")), "p.json:4: rules[0].max_mape: "
		  "must be >= 0 (got -0.1)");
	CHECK_STR(bad(R("\"max_bias\": \"-5%\"")), "p.json:4: "
		  "rules[0].max_bias: must be >= 0 (got -0.05)");
	CHECK_STR(bad(R("\"max_mape\": 15")), "p.json:4: rules[0].max_mape: 15 "
		  "looks like a percentage: write a fraction (0.15) or a "
		  "string (\"15%\")");
	CHECK_STR(bad(R("\"min_pearson\": 1.5")), "p.json:4: "
		  "rules[0].min_pearson: must be between -1 and 1 (got 1.5)");
	CHECK_STR(bad(R("\"min_spearman\": \"0.9\"")), "p.json:4: "
		  "rules[0].min_spearman: expected a number, got a string");
	CHECK_STR(bad(R("\"min_kendall\": -2")), "p.json:4: "
		  "rules[0].min_kendall: must be between -1 and 1 (got -2)");
	CHECK_STR(bad(R("\"slope_range\": [1.2,\n 0.8]")), "p.json:4: "
		  "rules[0].slope_range: low end 1.2 is above high end 0.8");
	CHECK_STR(bad(R("\"slope_range\": [1]")), "p.json:4: "
		  "rules[0].slope_range: expected [low, high], got an array of "
		  "another length");
	CHECK_STR(bad(R("\"slope_range\": [0.9,\n\"x\"]")), "p.json:5: "
		  "rules[0].slope_range[1]: expected a number, got a string");
	CHECK_STR(bad(R("\"max_nrmse\": null")), "p.json:4: "
		  "rules[0].max_nrmse: expected a number, got null");
	CHECK_STR(bad(R("\"max_sol_violations\": -1")), "p.json:4: "
		  "rules[0].max_sol_violations: must be >= 0 (got -1)");
	CHECK_STR(bad(R("\"max_sol_violations\": 0.5")), "p.json:4: "
		  "rules[0].max_sol_violations: expected a whole number "
		  "(got 0.5)");
	CHECK_STR(bad(R("\"min_pairs\": 0")), "p.json:4: rules[0].min_pairs: "
		  "must be >= 1 (got 0)");
	CHECK_STR(bad(R("\"max_blind_knobs\": -1")), "p.json:4: "
		  "rules[0].max_blind_knobs: must be >= 0 (got -1)");
	CHECK_STR(bad(R("\"max_mape_increase\": -0.01")), "p.json:4: "
		  "rules[0].max_mape_increase: must be >= 0 (got -0.01)");
	CHECK_STR(bad(R("\"max_mape\": 0.1, \"consecutive\": 0")), "p.json:4: "
		  "rules[0].consecutive: must be >= 1 (got 0)");
	CHECK_STR(bad(R("\"max_mape\": 0.1,\n\"severity\": \"error\"")),
		  "p.json:5: rules[0].severity: expected \"fail\" or \"warn\", "
		  "got \"error\"");
	CHECK_STR(bad(R("\"param.\": 1")), "p.json:4: rules[0].param.: "
		  "expected param.NAME with a parameter name (the workload "
		  "name is 'workload')");
	CHECK_STR(bad(R("\"param.bs\": [1]")), "p.json:4: rules[0].param.bs: "
		  "expected a string or a number, got an array");
	CHECK_STR(bad(R("\"metric\": \"time\"")), "p.json:3: rules[0]: rule "
		  "'r' has no limits (max_mape, min_pairs, ... see "
		  "docs/gate.md)");
	CHECK_STR(bad("{\"name\": \"x\", \"rules\": [\n{\"max_mape\": 0.1}]}"),
		  "p.json:2: rules[0]: missing required key 'name'");
	CHECK_STR(bad("{\"name\": \"x\", \"rules\": [\n"
		      "{\"name\": \"a\", \"max_mape\": 0.1},\n"
		      "{\"name\": \"a\", \"max_mape\": 0.2}]}"),
		  "p.json:3: rules[1].name: duplicate rule name 'a' (also "
		  "rules[0])");
	CHECK_STR(bad(R("\"max_mape\": 0.1,\n\"max_mape\": 0.2")), "p.json:5: "
		  "rules[0].max_mape: duplicate key");
}

/* "slo" (issue 38): a spec string or an object of limits; a rule with
 * max_verdict_flips needs it; its errors name the file and line. */
TEST(slo_block)
{
	static const char s1[] = "{\"name\": \"x\", \"slo\": "
		"\"mlperf:llama2-70b\",\n\"rules\": [{\"name\": \"r\", "
		"\"max_verdict_flips\": 2}]}";
	static const char s2[] = "{\"name\": \"x\", \"slo\": {\"ttft_p99\": "
		"\"2s\", \"output_throughput\": \">=1500tokens/s\"},\n"
		"\"rules\": [{\"name\": \"r\", \"max_verdict_flips\": 0}]}";
	struct policy *p = NULL;

	CHECK_INT(policy_parse(&p, s1, sizeof(s1) - 1, "p.json"), 0);
	if (p) {
		CHECK_INT(p->slo.n, 2);
		CHECK_STR(p->slo.lim[0].metric, "ttft_p99");
		CHECK_NEAR(p->slo.lim[0].limit, 2.0, 1e-15);
		CHECK_STR(p->slo.lim[1].metric, "tpot_p99");
		CHECK_NEAR(p->slo.lim[1].limit, 0.2, 1e-15);
		CHECK_STR(p->slo.lim[1].from, "mlperf:llama2-70b");
		CHECK_NEAR(p->rules[0].lim[PL_MAX_VERDICT_FLIPS], 2, 0);
		policy_free(p);
		p = NULL;
	}
	CHECK_INT(policy_parse(&p, s2, sizeof(s2) - 1, "p.json"), 0);
	if (p) {
		CHECK_INT(p->slo.n, 2);
		CHECK_STR(p->slo.lim[0].text, "ttft_p99=2s");
		CHECK_INT(p->slo.lim[0].op, '=');
		CHECK_STR(p->slo.lim[1].metric, "output_throughput");
		CHECK_INT(p->slo.lim[1].op, '>');
		CHECK_NEAR(p->slo.lim[1].limit, 1500, 0);
		policy_free(p);
	}
	CHECK_STR(bad(R("\"max_verdict_flips\": 1")), "p.json:1: rule 'r' "
		  "has max_verdict_flips and the policy no 'slo' (the limits "
		  "its keys are judged against: docs/gate.md)");
	CHECK_STR(bad(R("\"max_verdict_flips\": 0.5")), "p.json:4: "
		  "rules[0].max_verdict_flips: expected a whole number "
		  "(got 0.5)");
	CHECK_STR(bad("{\"name\": \"x\",\n\"slo\": \"ttft_p99=2parsec\", "
		      "\"rules\": [{\"name\": \"r\", \"max_mape\": 0.1}]}"),
		  "p.json:2: slo: 'ttft_p99': unknown unit 'parsec' (a unit "
		  "perfcorr reads: s, ms, us, tokens/s, req/s, W ...)");
	CHECK_STR(bad("{\"name\": \"x\",\n\"slo\": {\"ttft_p99\": 2}, "
		      "\"rules\": [{\"name\": \"r\", \"max_mape\": 0.1}]}"),
		  "p.json:2: slo.ttft_p99: expected a limit such as \"2s\", "
		  "\"<=100ms\" or \">=1500tokens/s\", got a number");
	CHECK_STR(bad("{\"name\": \"x\",\n\"slo\": [1], "
		      "\"rules\": [{\"name\": \"r\", \"max_mape\": 0.1}]}"),
		  "p.json:2: slo: expected limits, a string (\"ttft_p99=2s,"
		  "tpot_p99=100ms\") or an object, got an array");
}

/* The line finder walks strings with brackets, escapes and nesting. */
TEST(error_lines_tricky_text)
{
	CHECK_STR(bad("{\"description\": \"a }] \\\" [{ ,\",\n"
		      "\"name\": \"x\", \"rules\": [\n"
		      "{\"name\": \"a\", \"slope_range\": [0.9, 1.1],\n"
		      "\"description\": \"{[\\\\\"},\n"
		      "  {\"name\": \"b\",\n"
		      "   \"max_bias\": -0.5}]}"),
		  "p.json:6: rules[1].max_bias: must be >= 0 (got -0.5)");
}

TEST(load_missing_file)
{
	struct policy *p = NULL;

	CHECK_INT(policy_load(&p, "/nonexistent/p.json"), PC_EIO);
	CHECK_STR(pc_error_last(), "cannot open '/nonexistent/p.json'");
}

TEST(load_example)
{
	struct policy *p = NULL;
	char path[1024];

	snprintf(path, sizeof(path), "%s/policy/example.json",
		 check_fixtures());
	CHECK_INT(policy_load(&p, path), 0);
	CHECK(p && p->nrules >= 3);
	policy_free(p);
}

TEST(waivers_and_significance)
{
	static const char ok[] = "{\"name\": \"w\", \"waiver_tolerance\": "
		"{\"abs\": \"3%\", \"rel\": 0.5}, \"waivers\": "
		"{\"require_expiry\": true, \"require_link\": true, "
		"\"max_days\": 90}, \"rules\": [{\"name\": \"r\", "
		"\"max_mape_increase\": \"2%\", \"significance\": 0.05}], "
		"\"error_control\": \"bh\", \"unknown\": \"fail\"}";
	static const char dflt[] = "{\"name\": \"w\", \"rules\": [{\"name\": "
		"\"r\", \"max_mape\": 0.1}]}";
	struct policy *p = NULL;

	CHECK_INT(policy_parse(&p, ok, sizeof(ok) - 1, "p.json"), 0);
	CHECK_NEAR(p->waivers.tol_abs, 0.03, 1e-12);
	CHECK_NEAR(p->waivers.tol_rel, 0.5, 0);
	CHECK_INT(p->waivers.require_expiry, 1);
	CHECK_INT(p->waivers.require_link, 1);
	CHECK_INT(p->waivers.max_days, 90);
	CHECK_NEAR(p->rules[0].significance, 0.05, 0);
	CHECK_INT(p->error_control, PEC_BH);
	CHECK_INT(p->unknown_as, PU_FAIL);
	CHECK_INT(p->rules[0].unknown_as, PU_FAIL);	/* after the rules */
	policy_free(p);
	CHECK_INT(policy_parse(&p, dflt, sizeof(dflt) - 1, "p.json"), 0);
	CHECK_NEAR(p->waivers.tol_abs, 0.02, 0);	/* documented default */
	CHECK_NEAR(p->waivers.tol_rel, 0.25, 0);
	CHECK_INT(p->waivers.require_expiry, 0);
	CHECK_INT(p->waivers.max_days, 0);
	CHECK(isnan(p->rules[0].significance));
	CHECK_INT(p->error_control, PEC_HOLM);	/* documented defaults */
	CHECK_INT(p->unknown_as, PU_UNKNOWN);
	policy_free(p);
	CHECK_STR(bad("{\"name\": \"x\",\n\"waiver_tolerance\": 5, \"rules\": []}"),
		  "p.json:2: waiver_tolerance: 5 looks like a percentage: write "
		  "a fraction (0.05) or a string (\"5%\")");
	CHECK_STR(bad("{\"name\": \"x\",\n\"waivers\": {\"max_days\": 0}, "
		      "\"rules\": []}"),
		  "p.json:2: waivers.max_days: must be >= 1 (got 0)");
	CHECK_STR(bad("{\"name\": \"x\",\n\"waivers\": {\"expiry\": true}, "
		      "\"rules\": []}"),
		  "p.json:2: waivers.expiry: unknown key (waivers has "
		  "require_expiry, require_link and max_days)");
	CHECK_STR(bad(R("\"max_mape_increase\": 0.02, \"significance\": 5")),
		  "p.json:4: rules[0].significance: must be between 0 and 1, "
		  "exclusive (got 5)");
	CHECK_STR(bad(R("\"max_mape\": 0.02, \"significance\": 0.05")),
		  "p.json:3: rules[0]: rule 'r': significance applies to "
		  "max_mape_increase, and it has none");
}

TEST_MAIN(CASE(parse_good), CASE(waivers_and_significance), CASE(errors_structure), CASE(errors_rules),
	  CASE(error_lines_tricky_text), CASE(slo_block),
	  CASE(load_missing_file), CASE(load_example))
