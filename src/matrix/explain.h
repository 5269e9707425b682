#ifndef PC_SRC_EXPLAIN_H
#define PC_SRC_EXPLAIN_H
/*
 * Error attribution: multiple regression (gsl_multifit_linear) of
 * ln(model/ref) on workload features over the pairs of a correlation
 * set. Numeric features (every value a positive number) enter as ln(v);
 * categorical ones as indicators against their first level (sorted).
 * An explain_result owns its strings; free with explain_release.
 */
#include <stddef.h>

#include "src/corr/correlate.h"

struct explain_term {
	char *name;		/* "(intercept)", "ln param.batch", "op=gemm" */
	/* se, t, p: cluster-robust by workload (CR1), p two-sided from
	 * Student t with G - 1 dof (G workloads); NaN for an exact fit or
	 * fewer than 2 workloads */
	double est, se, t, p;
	/* the classic OLS ones: s^2 (X'X)^-1, t with n - p dof */
	double se_ols, t_ols, p_ols;
};

struct explain_result {
	size_t n;			/* pairs in the fit */
	long skipped;			/* excluded: noisy, invalid, ratio <= 0 */
	double r2, adj_r2, sigma;	/* sigma: residual standard deviation */
	size_t clusters;		/* workloads among the pairs */
	int exact;			/* residuals are round-off: no se */
	struct explain_term *terms;
	size_t nterms;
	char **dropped;			/* "param.x (constant)" */
	size_t ndropped;
};

/* Fit over the pairs of s that corr_summary would use. Too few pairs for
 * the terms, or collinear features, is PC_EINVALID saying so; an unknown
 * feature is PC_EINVALID (corr_group_key). */
int explain_fit(struct explain_result *out, const struct corr_set *s,
		const char *const *features, size_t nfeatures);
void explain_release(struct explain_result *r);

#endif
