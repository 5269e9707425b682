/* Number formatting (see fmt.h). */
#include "tui/fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fmt_si(char *buf, size_t len, double v)
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

void fmt_si_unit(char *buf, size_t len, double v, const char *unit,
		 int ascii)
{
	char num[32], u[64];
	size_t n;
	const char *tok;

	fmt_si(num, sizeof(num), v);
	if (!unit || !*unit || !strcmp(unit, "1") || isnan(v) || isinf(v)) {
		snprintf(buf, len, "%s", num);
		return;
	}
	/* "tokens" -> "tok" inside the unit (tokens/s, tokens/J) */
	if ((tok = strstr(unit, "tokens")))
		snprintf(u, sizeof(u), "%.*stok%s", (int)(tok - unit), unit,
			 tok + 6);
	else
		snprintf(u, sizeof(u), "%s", unit);
	n = strlen(num);
	if (n && strchr("afpnumkMGTPE", num[n - 1]) && v != 0) {
		char p = num[n - 1];

		num[n - 1] = '\0';
		snprintf(buf, len, "%s %s%s", num, p == 'u' && !ascii ?
			 "\xc2\xb5" : (char[]){ p, '\0' }, u);
	} else {
		snprintf(buf, len, "%s %s", num, u);
	}
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
