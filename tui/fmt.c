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

/* The CLI's formatter (base/units_fmt.c), "tokens" shortened; a
 * dimensionless value keeps its SI prefix here (the narrow columns are
 * sized for "999.9 us"). */
void fmt_si_unit(char *buf, size_t len, double v, const char *unit,
		 int ascii)
{
	if (!unit || !*unit || !strcmp(unit, "1"))
		units_si(buf, len, v);
	else
		units_fmt(buf, len, v, unit, UNITS_FMT_SHORT |
			  (ascii ? UNITS_FMT_ASCII : 0));
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
