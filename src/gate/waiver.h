#ifndef PC_SRC_WAIVER_H
#define PC_SRC_WAIVER_H
/*
 * Does an accepted annotation still waive a point? (docs/gate.md,
 * "Waivers"). An annotation waives a point of a model release only when
 * it is `accepted`, not past its expiry nor the policy's max_days, has
 * what the policy requires (expiry, link), covers the release's version
 * (model_versions, in release order), recorded the error it accepted at
 * this point, and the point's error is still within the tolerance of
 * that accepted error. Anything else is no waiver, with the reason.
 */
#include <stddef.h>

struct annot;
struct annot_err;
struct corr_point;

struct waiver_rules {
	double tol_abs;		/* absolute tolerance (fraction; 0.02 = 2 pp) */
	double tol_rel;		/* relative to |accepted error| */
	int require_expiry, require_link;
	long max_days;		/* 0 = no cap */
};

#define WAIVER_TOL_ABS 0.02
#define WAIVER_TOL_REL 0.25
#define WAIVER_RULES_INIT { WAIVER_TOL_ABS, WAIVER_TOL_REL, 0, 0, 0 }

enum waiver_state {
	WAIVER_NONE,		/* no annotation, or not accepted */
	WAIVER_OK,		/* waived */
	WAIVER_EXPIRED,		/* past expires or max_days */
	WAIVER_INCOMPLETE,	/* lacks the expiry / link the policy needs */
	WAIVER_VERSION,		/* limited to other model versions */
	WAIVER_UNRECORDED,	/* accepted no error at this point */
	WAIVER_EXCEEDED,	/* the error moved past the tolerance */
};

struct waiver_verdict {
	enum waiver_state state;
	const struct annot_err *acc;	/* the accepted error, or NULL */
	double tol;			/* the tolerance that applied */
	char why[200];			/* "" for NONE and OK */
};

/* Judge annotation a (may be NULL) for point p of model version version;
 * versions[0..nv) is the model source's release order; today is
 * "YYYY-MM-DD". */
void waiver_judge(struct waiver_verdict *out, const struct annot *a,
		  const struct corr_point *p, const char *version,
		  char *const *versions, size_t nv, const char *today,
		  const struct waiver_rules *r);

/* 1 when version lies in spec ("V", "A..B", "A..", NULL = any) by the
 * release order versions[0..nv); 0 when outside; -1 when an end of spec
 * is not a known version. */
int waiver_version_in(const char *spec, const char *version,
		      char *const *versions, size_t nv);

/* Days from 1970-01-01 of "YYYY-MM-DD..." (-1 when not a date). */
long waiver_day(const char *date);

/* "state" names for JSON: "none" "waived" "expired" ... */
const char *waiver_state_name(enum waiver_state s);

#endif
