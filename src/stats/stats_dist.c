/* Distances between distributions stated by quantiles (stats_dist.h). */
#include "src/stats/stats_dist.h"

#include <math.h>

/* The integral of |d(u)| over a segment of width w where d is linear
 * from a to b. */
static double seg_abs(double a, double b, double w)
{
	if ((a >= 0 && b >= 0) || (a <= 0 && b <= 0))
		return w * (fabs(a) + fabs(b)) / 2;
	/* the zero splits the segment: two triangles */
	return w * (a * a + b * b) / (2 * (fabs(a) + fabs(b)));
}

double stats_w1_log_quantiles(const double *u, const double *qa,
			      const double *qb, size_t k, const char **why)
{
	double sum = 0, c = 0, prev = 0;

	if (why)
		*why = NULL;
	if (k < 2) {
		if (why)
			*why = "fewer than 2 common percentiles";
		return NAN;
	}
	for (size_t j = 0; j < k; j++) {
		double d, t, y;

		if (!(qa[j] > 0) || !(qb[j] > 0)) {
			if (why)
				*why = "a quantile is zero or negative "
				       "(no logarithm)";
			return NAN;
		}
		d = log(qa[j]) - log(qb[j]);
		if (j) {
			/* Neumaier summation of the segments */
			y = seg_abs(prev, d, u[j] - u[j - 1]);
			t = sum + y;
			c += fabs(sum) >= fabs(y) ? (sum - t) + y :
			     (y - t) + sum;
			sum = t;
		}
		prev = d;
	}
	return (sum + c) / (u[k - 1] - u[0]);
}

size_t stats_quantiles_ordered(const double *q, size_t k)
{
	for (size_t j = 1; j < k; j++)
		if (q[j] < q[j - 1])
			return j;
	return 0;
}
