/*
 * waiver_judge: every reason an accepted annotation does or does not
 * waive a point. Expected values by hand: the default tolerance is
 * max(2 pp, 25% of |accepted|): for -38.6% that is 9.65 pp, so -48.25%
 * still holds and -48.3% does not; for +4% it is 2 pp.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "db/annot.h"
#include "src/corr/correlate.h"
#include "src/gate/waiver.h"

static char *V[] = { "2.2.0", "2.3.0", "2.4.0", "2.5.0" };

static struct annot_err E = { "w", "o", "m", "2.3.0", "1", -0.386 };

static void setup(struct annot *a, struct corr_point *p, double err)
{
	memset(a, 0, sizeof(*a));
	memset(p, 0, sizeof(*p));
	a->status = "accepted";
	a->created_at = "2026-11-01T10:00:00Z";
	a->errs = &E;
	a->nerrs = 1;
	p->workload = "w";
	p->op = "o";
	p->metric = "m";
	p->err = err;
	p->ann = a;
}

TEST(tolerance)
{
	struct waiver_rules r = WAIVER_RULES_INIT;
	struct waiver_verdict v;
	struct annot a;
	struct corr_point p;

	setup(&a, &p, -0.4825);
	waiver_judge(&v, &a, &p, "2.4.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_OK);
	CHECK_NEAR(v.tol, 0.0965, 1e-12);
	setup(&a, &p, -0.2895);		/* the other side */
	waiver_judge(&v, &a, &p, "2.4.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_OK);
	setup(&a, &p, -0.612);
	waiver_judge(&v, &a, &p, "2.4.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_EXCEEDED);
	CHECK_STR(v.why, "waiver exceeded: accepted -38.6% at 2.3.0, now "
		  "-61.2% (tolerance 9.7 pp)");
	setup(&a, &p, -0.483);
	waiver_judge(&v, &a, &p, "2.4.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_EXCEEDED);
	setup(&a, &p, NAN);
	waiver_judge(&v, &a, &p, "2.4.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_EXCEEDED);	/* undefined now: no waiver */
	r.tol_abs = 0.5;			/* absolute wins when larger */
	setup(&a, &p, 0.1);
	waiver_judge(&v, &a, &p, "2.4.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_OK);
}

TEST(versions_and_rules)
{
	struct waiver_rules r = WAIVER_RULES_INIT;
	struct waiver_verdict v;
	struct annot a;
	struct corr_point p;

	CHECK_INT(waiver_version_in(NULL, "2.4.0", V, 4), 1);
	CHECK_INT(waiver_version_in("2.4.0", "2.4.0", V, 4), 1);
	CHECK_INT(waiver_version_in("2.4.0", "2.5.0", V, 4), 0);
	CHECK_INT(waiver_version_in("2.3.0..2.4.0", "2.4.0", V, 4), 1);
	CHECK_INT(waiver_version_in("2.3.0..2.4.0", "2.5.0", V, 4), 0);
	CHECK_INT(waiver_version_in("2.3.0..2.4.0", "2.2.0", V, 4), 0);
	CHECK_INT(waiver_version_in("2.3.0..", "2.5.0", V, 4), 1);
	CHECK_INT(waiver_version_in("2.3.0..", "9.9", V, 4), 0);
	CHECK_INT(waiver_version_in("2.3.0..3.0", "2.4.0", V, 4), -1);

	setup(&a, &p, -0.386);
	a.model_versions = "2.3.0..2.4.0";
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_VERSION);
	CHECK_STR(v.why, "waiver limited to model versions 2.3.0..2.4.0, not "
		  "2.5.0");
	a.model_versions = NULL;
	a.expires = "2026-11-30";
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_EXPIRED);
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-11-30", &r);
	CHECK_INT(v.state, WAIVER_OK);		/* the last day */
	a.expires = NULL;
	r.max_days = 30;			/* 2026-11-01 + 30 = 12-01 */
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_OK);
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-12-02", &r);
	CHECK_INT(v.state, WAIVER_EXPIRED);
	r.max_days = 0;
	r.require_expiry = 1;
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_INCOMPLETE);
	a.expires = "2027-01-01";
	r.require_link = 1;
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_INCOMPLETE);
	a.link = "https://x";
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_OK);
	p.op = "other";				/* nothing recorded there */
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_UNRECORDED);
	a.status = "explained";
	waiver_judge(&v, &a, &p, "2.5.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_NONE);
	waiver_judge(&v, NULL, &p, "2.5.0", V, 4, "2026-12-01", &r);
	CHECK_INT(v.state, WAIVER_NONE);
	CHECK_INT(waiver_day("1970-01-01"), 0);
	CHECK_INT(waiver_day("2026-12-01") - waiver_day("2026-11-01"), 30);
	CHECK_INT(waiver_day("2024-03-01") - waiver_day("2024-02-28"), 2);
	CHECK_INT(waiver_day("nope"), -1);
}

TEST_MAIN(CASE(tolerance), CASE(versions_and_rules))
