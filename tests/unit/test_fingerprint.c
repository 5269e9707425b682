/* Unit tests: the workload fingerprint's tolerances (issue 37). */
#include "check.h"

#include "base/fingerprint.h"

TEST(within)
{
	/* lengths 2%: |a-b| / max(|a|,|b|) */
	CHECK(fp_within(100, 102, 0.02));
	CHECK(fp_within(102, 100, 0.02));	/* 2/102 */
	CHECK(!fp_within(100, 102.1, 0.02));
	CHECK(!fp_within(100, 103, 0.02));
	CHECK(fp_within(0, 0, 0.02));
	CHECK(!fp_within(0, 1e-9, 0.02));
	CHECK(fp_within(1.0 / 0.0, 1.0 / 0.0, 0.05));
	CHECK(!fp_within(1.0 / 0.0, 1e9, 0.05));
}

TEST(fields)
{
	const struct fp_field *f;
	const char *exp;
	char buf[32];

	CHECK((f = fp_field_find("fp.input_len")) != NULL);
	CHECK(f->checked);
	CHECK(fp_same(f, "1000", "1019.9"));
	CHECK(!fp_same(f, "1000", "1021"));
	CHECK((f = fp_field_find("request_rate")) != NULL);
	CHECK(fp_same(f, "10", "10.5"));
	CHECK(!fp_same(f, "10", "10.6"));
	CHECK(fp_same(f, "inf", "INF"));
	CHECK(!fp_same(f, "inf", "100"));
	CHECK(fp_value_ok(f, "inf", &exp) == 0);
	CHECK(fp_value_ok(f, "-1", &exp) < 0);
	CHECK_STR(fp_canon(f, "Infinity", buf, sizeof(buf)), "inf");
	CHECK((f = fp_field_find("ignore_eos")) != NULL);
	CHECK(fp_same(f, "true", "1"));
	CHECK(!fp_same(f, "true", "false"));
	CHECK(fp_value_ok(f, "maybe", &exp) < 0);
	CHECK_STR(fp_canon(f, "True", buf, sizeof(buf)), "true");
	CHECK((f = fp_field_find("tp")) != NULL);
	CHECK(fp_same(f, "8", "8.0"));
	CHECK(!fp_same(f, "8", "4"));
	CHECK(fp_value_ok(f, "1.5", &exp) < 0);
	CHECK((f = fp_field_find("token_counter")) != NULL);
	CHECK(fp_value_ok(f, "client", &exp) == 0);
	CHECK(fp_value_ok(f, "guess", &exp) < 0);
	CHECK((f = fp_field_find("precision")) != NULL);
	CHECK(!fp_same(f, "bf16", "fp8"));
	/* one precision, the tools' spellings: exact after folding */
	CHECK(fp_same(f, "bfloat16", "bf16"));
	CHECK(fp_same(f, "torch.float16", "half"));
	CHECK(fp_same(f, "FP8", "fp8"));
	CHECK(!fp_same(f, "fp8_e4m3", "fp8"));
	CHECK_STR(fp_canon(f, "BFloat16", buf, sizeof(buf)), "bf16");
	CHECK_STR(fp_canon(f, "torch.float32", buf, sizeof(buf)), "fp32");
	CHECK_STR(fp_canon(f, "W4A16_AWQ", buf, sizeof(buf)), "w4a16_awq");
	CHECK((f = fp_field_find("kv_cache")) != NULL);
	CHECK(fp_same(f, "FP8", "float8"));
	/* the tool is shown, never checked: a model and silicon are
	 * different tools by nature */
	CHECK(!fp_field_find("tool")->checked);
	CHECK(!fp_field_find("tool_version")->checked);
	CHECK(fp_field_find("nonsense") == NULL);
	/* importers/fpstate.h holds FPSTATE_MAX fields */
	CHECK(fp_nfields <= 32);
}

TEST_MAIN(CASE(within), CASE(fields))
