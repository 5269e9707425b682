/* Lin's concordance correlation coefficient (see stats_lin.h). */
#include "src/stats/stats_lin.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"

/* Neumaier-compensated mean of v[0..n). */
static double mean_of(const double *v, size_t n)
{
	double s = 0, c = 0;

	for (size_t i = 0; i < n; i++) {
		double t = s + v[i];

		c += fabs(s) >= fabs(v[i]) ? (s - t) + v[i] : (v[i] - t) + s;
		s = t;
	}
	return (s + c) / (double)n;
}

static double ccc(const double *x, const double *y, size_t n)
{
	double mx, my, sxx = 0, syy = 0, sxy = 0, d, den;

	if (n < 2)
		return NAN;
	mx = mean_of(x, n);
	my = mean_of(y, n);
	for (size_t i = 0; i < n; i++) {
		double dx = x[i] - mx, dy = y[i] - my;

		sxx += dx * dx;
		syy += dy * dy;
		sxy += dx * dy;
	}
	sxx /= (double)n;
	syy /= (double)n;
	sxy /= (double)n;
	d = mx - my;
	den = sxx + syy + d * d;
	if (!(den > 0) || !isfinite(den))
		return NAN;
	return 2 * sxy / den;
}

double stats_lin_ccc(const double *x, const double *y, size_t n)
{
	return ccc(x, y, n);
}

double stats_lin_ccc_log(const double *x, const double *y, size_t n)
{
	double *lx, *ly, r;

	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0) || !(y[i] > 0))
			return NAN;
	lx = xmalloc((n + 1) * sizeof(*lx));
	ly = xmalloc((n + 1) * sizeof(*ly));
	for (size_t i = 0; i < n; i++) {
		lx[i] = log(x[i]);
		ly[i] = log(y[i]);
	}
	r = ccc(lx, ly, n);
	free(lx);
	free(ly);
	return r;
}

const char *stats_lin_why(const double *x, const double *y, size_t n,
			  int logs)
{
	if (n == 0)
		return "no pairs";
	if (n < 2)
		return "fewer than 2 pairs";
	if (logs)
		for (size_t i = 0; i < n; i++)
			if (!(x[i] > 0) || !(y[i] > 0))
				return "a value is zero or negative";
	if (isnan(logs ? stats_lin_ccc_log(x, y, n) : stats_lin_ccc(x, y, n)))
		return "both series constant and equal";
	return NULL;
}
