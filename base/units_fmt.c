/* A value in its unit for people (see units.h, units_fmt): the one
 * formatter of the CLI and the TUI (issue 35 item 8). */
#include "base/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Units that take no SI prefix: dimensionless ("" and "1"), percent
 * and degrees Celsius. */
static int no_prefix(const char *unit)
{
	return !unit || !*unit || !strcmp(unit, "1") || !strcmp(unit, "%") ||
	       !strcmp(unit, "C");
}

void units_si(char *buf, size_t len, double v)
{
	static const char prefix[] = "afpnum kMGTPE";
	double a = fabs(v);
	int i = 6;	/* index of ' ' */

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (isinf(v) || a == 0) {
		snprintf(buf, len, "%g", v);
		return;
	}
	while (a >= 999.95 && i < 12) {
		a /= 1000;
		v /= 1000;
		i++;
	}
	while (a < 0.99995 && i > 0) {
		a *= 1000;
		v *= 1000;
		i--;
	}
	if (prefix[i] == ' ')
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "%.4g%c", v, prefix[i]);
}

/* A dimensionless number: whole numbers in full (12345), others with 4
 * significant digits (0.9995, 999.5). */
static void plain(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isfinite(v) && v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

void units_fmt(char *buf, size_t len, double v, const char *unit,
	       unsigned flags)
{
	char num[32], u[64];
	size_t n;
	const char *tok;

	if (no_prefix(unit)) {
		plain(num, sizeof(num), v);
		if (!unit || !*unit || !strcmp(unit, "1") || isnan(v))
			snprintf(buf, len, "%s", num);
		else
			snprintf(buf, len, "%s %s", num, unit);
		return;
	}
	units_si(num, sizeof(num), v);
	if (isnan(v) || isinf(v)) {
		snprintf(buf, len, "%s", num);
		return;
	}
	/* "tokens" -> "tok" inside the unit (tokens/s, tokens/J) */
	if ((flags & UNITS_FMT_SHORT) && (tok = strstr(unit, "tokens")))
		snprintf(u, sizeof(u), "%.*stok%s", (int)(tok - unit), unit,
			 tok + 6);
	else
		snprintf(u, sizeof(u), "%s", unit);
	n = strlen(num);
	if (n && strchr("afpnumkMGTPE", num[n - 1]) && v != 0) {
		char p = num[n - 1];

		num[n - 1] = '\0';
		snprintf(buf, len, "%s %s%s", num, p == 'u' &&
			 !(flags & UNITS_FMT_ASCII) ? "\xc2\xb5" :
			 (char[]){ p, '\0' }, u);
	} else {
		snprintf(buf, len, "%s %s", num, u);
	}
}
