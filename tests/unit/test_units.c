/* Unit tests: decimal SI conversion (issue 20: no float noise). */
#include "check.h"

#include <math.h>

#include "base/strbuf.h"
#include "base/units.h"

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

/* The decimal shift by its definition (the code before the fast path):
 * print v's shortest round-trip text of 15 to 17 digits, add k to its
 * exponent, read it back. */
static double shift_by_text(double v, int k)
{
	char buf[48], *e;
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	e = strchr(buf, 'e');
	snprintf(e + 1, sizeof(buf) - (size_t)(e + 1 - buf), "%ld",
		 strtol(e + 1, NULL, 10) + k);
	return strtod(buf, NULL);
}

/* The fast path (a 15-digit decimal scaled by one exact operation) gives
 * the very double the text shift gives: values as tools print them (1
 * to 17 significant digits, exponents -30..30), both signs, every power
 * of ten a unit scales by. */
TEST(decimal_shift_fast_path_exact)
{
	static const int ks[] = { -18, -15, -12, -9, -6, -3, -2, -1, 1, 2, 3,
				  6, 9, 12, 15, 18 };
	unsigned long long x = 88172645463325252ULL;
	long bad = 0, n = 0;
	char text[64];

	for (int i = 0; i < 400000; i++) {
		int digits, ex, k;
		long long mant;
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		digits = 1 + (int)(x % 17);
		ex = (int)((x >> 8) % 61) - 30;
		mant = (long long)((x >> 16) % 100000000000000000ULL);
		snprintf(text, sizeof(text), "%s%.*lld.%llde%d",
			 (x >> 60) & 1 ? "-" : "", 1, mant % 10,
			 (mant / 10) % 10000000000000000LL, ex);
		/* keep `digits` significant digits of that decimal */
		snprintf(text, sizeof(text), "%.*e", digits - 1,
			 strtod(text, NULL));
		v = strtod(text, NULL);
		if (v == 0 || v == floor(v))
			continue;
		k = ks[(x >> 40) % (sizeof(ks) / sizeof(ks[0]))];
		n++;
		if (units_to_si(v, k < 0 ? 1.0 / pow(10, -k) : pow(10, k)) !=
		    shift_by_text(v, k) && bad++ < 5)
			fprintf(stderr, "  %s x 1e%d: %.17g, text shift %.17g\n",
				text, k, units_to_si(v, k < 0 ? 1.0 /
				pow(10, -k) : pow(10, k)), shift_by_text(v, k));
	}
	CHECK(n > 200000);
	CHECK_INT(bad, 0);
	/* the cases the fast path leaves to the text: 17 digits, tiny */
	CHECK(units_to_si(0.1234567890123456, 1e-6) ==
	      shift_by_text(0.1234567890123456, -6));
	CHECK(units_to_si(3.3e-25, 1e-9) == shift_by_text(3.3e-25, -9));
	CHECK(units_to_si(-26.59, 1e-6) == -dec("26.59e-6"));
}

static const char *fmt(double v, const char *unit, unsigned flags)
{
	static char buf[64];

	units_fmt(buf, sizeof(buf), v, unit, flags);
	return buf;
}

/* A value in its unit for people (issue 35 item 8): an SI prefix for a
 * unit with a dimension or a count word, none for a dimensionless one. */
TEST(fmt_units)
{
	CHECK_STR(fmt(0.0001203, "s", 0), "120.3 \xc2\xb5s");
	CHECK_STR(fmt(3.714e-07, "s", 0), "371.4 ns");
	CHECK_STR(fmt(0.0001009, "s", UNITS_FMT_ASCII), "100.9 us");
	CHECK_STR(fmt(-0.0215, "s", 0), "-21.5 ms");
	CHECK_STR(fmt(249600, "cycles", 0), "249.6 kcycles");
	CHECK_STR(fmt(400, "W", 0), "400 W");
	CHECK_STR(fmt(2510, "tokens/s", 0), "2.51 ktokens/s");
	CHECK_STR(fmt(2510, "tokens/s", UNITS_FMT_SHORT), "2.51 ktok/s");
	CHECK_STR(fmt(0, "s", 0), "0 s");
	/* dimensionless: no prefix (999.5m before) */
	CHECK_STR(fmt(0.9995, "1", 0), "0.9995");
	CHECK_STR(fmt(999.5, "", 0), "999.5");
	CHECK_STR(fmt(12345, "1", 0), "12345");
	CHECK_STR(fmt(0.000123, NULL, 0), "0.000123");
	CHECK_STR(fmt(45, "%", 0), "45 %");
	CHECK_STR(fmt(NAN, "s", 0), "-");
	CHECK_STR(fmt(NAN, "1", 0), "-");
}

TEST_MAIN(CASE(decimal_shift_fast_path_exact), CASE(decimal_shift),
	  CASE(fmt_units))
