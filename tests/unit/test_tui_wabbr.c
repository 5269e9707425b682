/* Workload keys without their shared parts (tui/wabbr.c) and values with
 * their units (tui/fmt.c). */
#include "check.h"

#include <string.h>

#include "tui/fmt.h"
#include "tui/wabbr.h"

TEST(one_model)
{
	const char *names[] = {
		"llama3-8b/decode/bs=32/seq=2048/bf16",
		"llama3-8b/decode/bs=8/seq=2048/bf16",
		"llama3-8b/prefill/bs=1/seq=2048/bf16",
		"llama3-8b/decode/bs=32/seq=2048/bf16",	/* a duplicate */
	};
	struct wabbr a;
	char buf[128];

	wabbr_build(&a, names, 4);
	/* shared: the model, seq and precision; kept: phase and batch */
	CHECK_INT((int)a.ncommon, 3);
	CHECK_STR(a.templ, "llama3-8b/*/seq=2048/bf16");
	CHECK_STR(wabbr_apply(&a, names[0], buf, sizeof(buf)), "decode/bs=32");
	CHECK_STR(wabbr_apply(&a, names[2], buf, sizeof(buf)),
		  "prefill/bs=1");
	CHECK_INT(a.fullw, 36);		/* strlen of the first */
	CHECK_INT(a.abbrw, 12);		/* "decode/bs=32", "prefill/bs=1" */
	wabbr_release(&a);
}

TEST(everything_shared_keeps_the_name)
{
	const char *names[] = { "llama3-8b/bf16", "llama3-8b/bf16" };
	struct wabbr a;
	char buf[64];

	wabbr_build(&a, names, 2);
	CHECK_STR(wabbr_apply(&a, names[0], buf, sizeof(buf)),
		  "llama3-8b/bf16");
	wabbr_release(&a);
}

TEST(a_part_is_a_whole_part)
{
	/* "bs=3" is inside "bs=32" as text, not as a part */
	const char *names[] = { "m/bs=3/x", "m/bs=32/x" };
	struct wabbr a;
	char buf[64];

	wabbr_build(&a, names, 2);
	CHECK_INT((int)a.ncommon, 2);	/* m and x */
	CHECK_STR(wabbr_apply(&a, names[0], buf, sizeof(buf)), "bs=3");
	CHECK_STR(wabbr_apply(&a, names[1], buf, sizeof(buf)), "bs=32");
	wabbr_release(&a);
}

TEST(several_models)
{
	const char *names[] = {
		"llama3-8b/decode/bs=32/seq=2048/bf16",
		"llama3-8b/prefill/bs=1/seq=2048/bf16",
		"mixtral-8x7b/decode/bs=8/seq=4096/fp8",
	};
	struct wabbr a;
	char buf[128];

	wabbr_build(&a, names, 3);
	CHECK_INT((int)a.ncommon, 0);	/* no part in all three */
	CHECK(a.templ == NULL);
	CHECK_INT((int)a.ngroups, 2);
	/* level 2: each model's shared seq and precision go; the phase and
	 * batch stay even where one model has one workload */
	CHECK_STR(wabbr_apply2(&a, names[0], 80, buf, sizeof(buf)),
		  "llama3-8b/decode/bs=32");
	CHECK_STR(wabbr_apply2(&a, names[2], 80, buf, sizeof(buf)),
		  "mixtral-8x7b/decode/bs=8");
	CHECK_INT(a.abbrw2, 24);
	/* 17 columns: the name is cut, the rest kept ("mixt" + "~" +
	 * "/decode/bs=8" = 4 + 1 + 12) */
	CHECK_STR(wabbr_apply2(&a, names[2], 17, buf, sizeof(buf)),
		  "mixt~/decode/bs=8");
	CHECK_STR(wabbr_apply2(&a, names[0], 17, buf, sizeof(buf)),
		  "lla~/decode/bs=32");
	wabbr_release(&a);
}

TEST(units)
{
	char buf[64];

	fmt_si_unit(buf, sizeof(buf), 102.2e-6, "s", 0);
	CHECK_STR(buf, "102.2 \xc2\xb5s");
	fmt_si_unit(buf, sizeof(buf), 102.2e-6, "s", 1);
	CHECK_STR(buf, "102.2 us");
	fmt_si_unit(buf, sizeof(buf), 400, "W", 0);
	CHECK_STR(buf, "400 W");
	fmt_si_unit(buf, sizeof(buf), 2510, "tokens/s", 0);
	CHECK_STR(buf, "2.51 ktok/s");
	fmt_si_unit(buf, sizeof(buf), 0.75, "1", 0);
	CHECK_STR(buf, "750m");		/* dimensionless: as fmt_si */
	fmt_si_unit(buf, sizeof(buf), 0, "s", 0);
	CHECK_STR(buf, "0 s");
	fmt_si_unit(buf, sizeof(buf), 0.0 / 0.0, "s", 0);
	CHECK_STR(buf, "-");
}

TEST_MAIN(CASE(one_model), CASE(everything_shared_keeps_the_name),
	  CASE(a_part_is_a_whole_part), CASE(several_models), CASE(units))
