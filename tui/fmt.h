#ifndef PC_TUI_FMT_H
#define PC_TUI_FMT_H
/*
 * Number formatting for narrow columns: SI prefixes, signed percents.
 * NaN prints as "-". Pure functions into caller buffers.
 */
#include <stddef.h>

/* 4 significant digits with an SI prefix: 0.001234 -> "1.234m",
 * 2.5e9 -> "2.5G", 0 -> "0". */
void fmt_si(char *buf, size_t len, double v);
/* units_fmt (base/units.h, the CLI's too), shortened for a column:
 * (102.2e-6, "s") -> "102.2 µs" ("102.2 us" when ascii), (400, "W") ->
 * "400 W", (2510, "tokens/s") -> "2.51 ktok/s". A unit "" or "1"
 * (dimensionless) prints as fmt_si (the CLI's units_fmt prints it
 * without a prefix). */
void fmt_si_unit(char *buf, size_t len, double v, const char *unit,
		 int ascii);
/* A fraction as a percent with one decimal: 0.123 -> "+12.3%" (sign
 * when sign is set), 1e3 -> "+99999%" capped, NaN -> "-". */
void fmt_pct(char *buf, size_t len, double frac, int sign);
/* Plain %.*f, NaN -> "-". */
void fmt_num(char *buf, size_t len, double v, int prec);

#endif
