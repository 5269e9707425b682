/* Number formatting (see fmt.h). */
#include "tui/fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"

void fmt_si(char *buf, size_t len, double v)
{
	units_si(buf, len, v);
}

/* The CLI's formatter (base/units_fmt.c), "tokens" shortened. */
void fmt_si_unit(char *buf, size_t len, double v, const char *unit,
		 int ascii)
{
	units_fmt(buf, len, v, unit, UNITS_FMT_SHORT |
		  (ascii ? UNITS_FMT_ASCII : 0));
}

int fmt_unit_plain(const char *unit)
{
	return !unit || !*unit || !strcmp(unit, "1") || !strcmp(unit, "%") ||
	       !strcmp(unit, "C");
}

/* The most characters units_fmt's number can take for v, by compares
 * only: a whole number prints in full ("%.0f"), under 1e9 in at most 9
 * digits; anything else as "%.4g", whose width grows only with the
 * zeros after the point (0.0001234) or an exponent (1.235e+05,
 * 1.235e-105); rounding to 4 digits can only shorten it ("0.1",
 * "1e+04"). 17 (NaN, inf, 1e9 and up): no bound, measure. */
static int plain_bound(double v)
{
	int s = signbit(v) != 0 && !isnan(v);	/* the sign, -0 too */
	double a = fabs(v);

	if (a < 1e4)
		return s + (a >= 1 ? 5 : a >= 0.1 ? 6 : a >= 0.01 ? 7 :
			    a >= 1e-3 ? 8 : a >= 1e-4 ? 9 : a == 0 ? 1 :
			    a < 1e-99 ? 10 : 9);
	return a < 1e9 ? s + 9 : 17;
}

/* plain_bound is constant between the decimal boundaries above; a
 * binade (a factor of 2) holds at most one of them, so the larger of
 * the bounds at its ends bounds every value in it. */
const unsigned char *fmt_plain_binades(void)
{
	static unsigned char tab[4096];
	static int ready;

	if (ready)
		return tab;
	for (int k = 0; k < 4096; k++) {
		int e = k & 0x7ff, sg = k >> 11, a, b;
		double lo, hi;

		if (e == 0x7ff) {
			tab[k] = 17;
			continue;
		}
		lo = e ? ldexp(1, e - 1023) : 0;	/* 0 and subnormals */
		hi = nextafter(ldexp(1, e ? e - 1022 : -1022), 0);
		a = plain_bound(sg ? -lo : lo);
		b = plain_bound(sg ? -hi : hi);
		tab[k] = (unsigned char)(a > b ? a : b);
	}
	ready = 1;
	return tab;
}

/* The exact width of fmt_si_unit(v, unit): a whole number's digits,
 * else printed. */
static int plain_width(double v, const char *unit, int extra)
{
	char buf[64];
	double a = fabs(v);
	int w;

	if (a < 1e15 && a == floor(a)) {
		w = 1 + (signbit(v) != 0) + extra;
		for (double p = 10; p <= a; p *= 10)
			w++;
		return w;
	}
	units_fmt(buf, sizeof(buf), v, unit, 0);
	return (int)strlen(buf);
}

int fmt_plain_width_max(const double *v, size_t n, const char *unit, int at)
{
	/* " %" after the number, but not after "-" (NaN) */
	int extra = unit && *unit && (unit[0] != '1' || unit[1]) ?
		    1 + (int)strlen(unit) : 0;

	for (size_t i = 0; i < n; i++) {
		int w;

		if (plain_bound(v[i]) + extra <= at)
			continue;
		w = plain_width(v[i], unit, isnan(v[i]) ? 0 : extra);
		at = w > at ? w : at;
	}
	return at;
}

void fmt_pct(char *buf, size_t len, double frac, int sign)
{
	double p = frac * 100;

	if (isnan(frac)) {
		snprintf(buf, len, "-");
		return;
	}
	if (p > 99999)
		p = 99999;
	if (p < -99999)
		p = -99999;
	if (fabs(p) >= 1000)
		snprintf(buf, len, sign ? "%+.0f%%" : "%.0f%%", p);
	else
		snprintf(buf, len, sign ? "%+.1f%%" : "%.1f%%", p);
}

void fmt_num(char *buf, size_t len, double v, int prec)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", prec, v);
}
