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
/* units_fmt (base/units.h), the CLI's rule, shortened for a column:
 * (102.2e-6, "s") -> "102.2 µs" ("102.2 us" when ascii), (400, "W") ->
 * "400 W", (2510, "tokens/s") -> "2.51 ktok/s", (249600, "cycles") ->
 * "249.6 kcycles"; a dimensionless value (unit "" or "1"), a percent or
 * degrees Celsius without a prefix: 0.9995 -> "0.9995", 12345 ->
 * "12345", 999.5 -> "999.5" (issue 35 item 8). */
void fmt_si_unit(char *buf, size_t len, double v, const char *unit,
		 int ascii);
/* 1 when unit's values print without an SI prefix (fmt_si_unit): their
 * width depends on the value ("0.0001234", "123456789"), not only on
 * the unit, so a column of them is as wide as its widest value. */
int fmt_unit_plain(const char *unit);
/* The width of the widest fmt_si_unit(v[i], unit) for a plain unit
 * (fmt_unit_plain), i < n, when wider than at, else at: most values
 * are passed over by a bound on their width, the rest are measured. */
int fmt_plain_width_max(const double *v, size_t n, const char *unit, int at);
/* A bound on the width of a plain unit's number (fmt_si_unit without
 * the unit) for every double of one sign and binary exponent: entry
 * bits >> 52 of a double's bits (the sign and the exponent) is at least
 * the number's width, so a pass over a million values skips most with
 * one load each (fmt_plain_width_max measures the rest). 17: no bound
 * (NaN, inf, 1e9 and up). Built on the first call; static. */
const unsigned char *fmt_plain_binades(void);
/* A fraction as a percent with one decimal: 0.123 -> "+12.3%" (sign
 * when sign is set), 1e3 -> "+99999%" capped, NaN -> "-". */
void fmt_pct(char *buf, size_t len, double frac, int sign);
/* Plain %.*f, NaN -> "-". */
void fmt_num(char *buf, size_t len, double v, int prec);

#endif
