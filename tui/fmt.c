/* Number formatting (see fmt.h). */
#include "tui/fmt.h"

#include <math.h>
#include <stdio.h>

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
