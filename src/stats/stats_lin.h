#ifndef PC_SRC_STATS_LIN_H
#define PC_SRC_STATS_LIN_H
/*
 * Lin's concordance correlation coefficient (Lin 1989, Biometrics 45:
 * 255-268): agreement with the line y = x, which Pearson's r does not
 * measure (r = 1 for y = 2x; the concordance is below 1).
 *
 *   ccc = 2 s_xy / (s_x^2 + s_y^2 + (mean x - mean y)^2)
 *
 * with the moments over n (not n - 1), as Lin defines the estimate.
 * Pure functions over arrays; NaN when undefined, with a reason.
 */
#include <stddef.h>

/* Over the values. NaN when n < 2 or the denominator is 0 (both
 * series constant and equal). */
double stats_lin_ccc(const double *x, const double *y, size_t n);
/* Over ln x and ln y. NaN also when any value is <= 0. */
double stats_lin_ccc_log(const double *x, const double *y, size_t n);
/* Why stats_lin_ccc (logs: 1) would be NaN for these data, or NULL. */
const char *stats_lin_why(const double *x, const double *y, size_t n,
			  int logs);

#endif
