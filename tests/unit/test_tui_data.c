/* Severity colours: default limits and a policy's per-point limits. */
#include "check.h"

#include <string.h>

#include "src/corr/correlate.h"
#include "src/gate/policy.h"
#include "tui/data.h"

static const char policy_json[] =
	"{\"name\": \"t\", \"rules\": ["
	"{\"name\": \"gemm\", \"metric\": \"time\", \"op\": \"gemm_*\", "
	"\"max_abs_err\": \"20%\", \"severity\": \"fail\"},"
	"{\"name\": \"gemm-warn\", \"op\": \"gemm_*\", \"max_abs_err\": "
	"\"10%\", \"severity\": \"warn\"},"
	"{\"name\": \"e2e\", \"op\": \"e2e\", \"max_mape\": \"2%\", "
	"\"severity\": \"fail\"}]}";

static struct corr_point point(const char *op, const char *metric, double err)
{
	struct corr_point p;

	memset(&p, 0, sizeof(p));
	p.workload = "w";
	p.op = op;
	p.op_class = "c";
	p.metric = metric;
	p.err = err;
	return p;
}

TEST(defaults)
{
	struct tui_data d;

	memset(&d, 0, sizeof(d));
	d.warn = 0.05;
	d.fail = 0.15;
	CHECK_INT(data_severity(&d, 0.049), 0);
	CHECK_INT(data_severity(&d, -0.05), 1);
	CHECK_INT(data_severity(&d, 0.1499), 1);
	CHECK_INT(data_severity(&d, -0.15), 2);
	CHECK_INT(data_severity(&d, NAN), 2);
}

TEST(policy_limits)
{
	struct tui_data d;
	struct corr_point p;

	memset(&d, 0, sizeof(d));
	d.warn = 0.05;
	d.fail = 0.15;
	CHECK_INT(policy_parse(&d.policy, policy_json, strlen(policy_json),
			       "t.json"), 0);
	p = point("gemm_qkv", "time", 0.09);
	CHECK_INT(data_point_severity(&d, &p), 0);	/* under the 10% warn */
	p.err = -0.12;
	CHECK_INT(data_point_severity(&d, &p), 1);
	p.err = 0.18;
	CHECK_INT(data_point_severity(&d, &p), 1);	/* default 15% ignored */
	p.err = 0.21;
	CHECK_INT(data_point_severity(&d, &p), 2);
	p = point("gemm_qkv", "energy", 0.12);	/* only the warn rule */
	CHECK_INT(data_point_severity(&d, &p), 1);
	p.err = 0.16;
	CHECK_INT(data_point_severity(&d, &p), 2);	/* default fail */
	p = point("e2e", "ttft", 0.03);		/* max_mape as the guide */
	CHECK_INT(data_point_severity(&d, &p), 2);
	p = point("attn", "time", 0.06);		/* no rule: defaults */
	CHECK_INT(data_point_severity(&d, &p), 1);
	policy_free(d.policy);
}

TEST_MAIN(CASE(defaults), CASE(policy_limits))
