/* The gate verdict in a report (see report_gate.h): the policy judged
 * over the report's sides exactly as `perfcorr gate --dry-run` would,
 * history included, and nothing recorded. */
#include "src/report/report_gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/gate.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "src/corr/corr_calib.h"
#include "src/gate/gate.h"
#include "src/gate/policy.h"
#include "src/report/report_model.h"
#include "base/strbuf.h"
#include "base/util.h"

/* "FAIL: ..." then one line per rule. */
static char *gate_text(const struct gate_result *g)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s: %ld of %zu rules passed, %ld warned, %ld failed "
		    "(policy '%s', sha256 %.12s)", gate_status_label(g->verdict),
		    g->npass, g->nrules, g->nwarn, g->nfail, g->policy->name,
		    g->policy->hash);
	for (size_t i = 0; i < g->nrules; i++) {
		const struct gate_rule_result *x = &g->rules[i];

		strbuf_addf(&sb, "\n%s %s: ", gate_status_label(x->status),
			    x->rule->name);
		for (int j = 0; j < x->nchecks; j++) {
			if (j)
				strbuf_addstr(&sb, "; ");
			gate_check_text(&x->checks[j], &sb);
		}
		if (x->nwaived)
			strbuf_addf(&sb, " (%ld waived)", x->nwaived);
		if (x->calib_why)
			strbuf_addf(&sb, "; %s", x->calib_why);
	}
	return strbuf_detach(&sb);
}

int report_gate_load(struct report *r)
{
	int rc;

	if (r->policy)
		return 0;
	if ((rc = policy_load(&r->policy, r->opts.policy)) < 0)
		return rc;
	r->min_pairs = policy_min_pairs(r->policy);
	return 0;
}

void report_gate_free(struct report *r)
{
	policy_free(r->policy);
	r->policy = NULL;
}

int report_gate(struct report *r, struct db *db)
{
	struct policy *p;
	struct gate_inputs in = { 0 };
	struct gate_result *g = NULL;
	struct corr_set *own = NULL;
	const struct corr_set *set = r->set;
	int rc;

	if ((rc = report_gate_load(r)) < 0)
		return rc;
	p = r->policy;
	/* summaries over fewer pairs than the policy asks are marked "few
	 * pairs" (issue 19; the largest min_pairs a rule sets) */
	r->all.min_pairs = r->min_pairs;
	for (size_t i = 0; i < r->ngroups; i++)
		r->groups[i].s.min_pairs = r->all.min_pairs;
	/* the gate excludes noisy references at the policy's limit */
	if (fabs(p->max_ref_cv - r->opts.max_ref_cv) > 1e-12) {
		struct corr_query q = CORR_QUERY_INIT;
		char *m = xasprintf("%s@%s", set->model.source,
				    set->model.version);
		char *f = xasprintf("%s@%s", set->ref.source, set->ref.version);

		q.model = m;
		q.ref = f;
		q.max_ref_cv = p->max_ref_cv;
		q.roofline = r->opts.roofline;
		q.allow_mismatch = r->allow;
		rc = corr_load(&own, db, &q);
		free(m);
		free(f);
		set = own;
	}
	/* pairs whose runs ran different workloads: the gate judges no
	 * subset (perfcorr gate fails 'not comparable', exit 2) */
	if (!rc && set->not_comparable) {
		r->gate_text = xasprintf("not comparable: %ld of the pairs were "
					 "refused (%ld run pairs): %s; or the "
					 "policy's \"allow_mismatch\": "
					 "[\"%s\"]", set->not_comparable,
					 set->not_comparable_runs,
					 set->not_comparable_why,
					 set->not_comparable_field);
		corr_set_free(own);
		return 0;
	}
	/* the gate's own set gets the calibration marks too (r->set has
	 * them when report_calib_build found any) */
	if (!rc && own && r->calib)
		rc = corr_calib_apply(own, db, &(long){ 0 });
	if (!rc && !(rc = gate_inputs_load(&in, db, p, set)) &&
	    !(rc = gate_evaluate(&g, p, set, &in, NULL, r->opts.top)) &&
	    !(r->calib && (rc = gate_calib_check(g)) < 0)) {
		r->gate_text = gate_text(g);
		r->gate_verdict = (int)g->verdict;
	}
	gate_result_free(g);
	gate_inputs_release(&in);
	corr_set_free(own);
	return rc;
}
