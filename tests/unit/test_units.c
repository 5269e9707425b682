/* Unit tests: decimal SI conversion (issue 20: no float noise). */
#include "check.h"

#include "src/base/strbuf.h"
#include "src/base/units.h"

/* The double nearest the decimal text, as the C library parses it. */
static double dec(const char *s)
{
	return strtod(s, NULL);
}

TEST(decimal_shift)
{
	struct strbuf sb = STRBUF_INIT;

	/* 102.201 us: multiplying gives 0.00010220099999999999 (python3:
	 * 102.201 * 1e-6), the decimal shift the double nearest 0.000102201 */
	CHECK(102.201 * 1e-6 != dec("0.000102201"));
	CHECK(units_to_si(102.201, units_lookup("us")->factor) ==
	      dec("0.000102201"));
	CHECK(units_to_si(0.12, 1e-3) == dec("0.00012"));
	CHECK(units_to_si(55.4, 1e-6) == dec("5.54e-05"));
	CHECK(units_to_si(87.5, units_lookup("%")->factor) == dec("0.875"));
	CHECK(units_to_si(1.5, 1e3) == 1500);
	CHECK(units_to_si(2.5e-3, 1e9) == dec("2500000"));
	/* integers take one correctly rounded division */
	CHECK(units_to_si(571284, 1e-9) == dec("0.000571284"));
	/* other factors multiply */
	CHECK(units_to_si(2, 1024) == 2048);
	CHECK(units_to_si(0, 1e-6) == 0);
	/* printed shortest round trip */
	strbuf_add_double(&sb, units_to_si(102.201, 1e-6));
	CHECK_STR(sb.buf, "0.000102201");
	strbuf_release(&sb);
}

TEST_MAIN(CASE(decimal_shift))
