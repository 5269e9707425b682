/* Gate evaluation over a correlation set (see gate.h). */
#include "src/gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/gate.h"
#include "src/correlate.h"
#include "src/base/error.h"
#include "src/base/strbuf.h"
#include "src/base/util.h"

struct sel {
	const struct policy_rule *rule;
	const char *today;
};

/* Points the statistics see: selected and not waived (noisy and invalid
 * points are left out by corr_summary itself). */
static int keep(const struct corr_point *p, void *arg)
{
	const struct sel *s = arg;

	return gate_selects(s->rule, p) && !gate_waived(p, s->today);
}

static void count(struct gate_rule_result *rr, const struct corr_set *set,
		  const char *today)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct corr_point *p = &set->points[i];

		if (!gate_selects(rr->rule, p))
			continue;
		rr->nselected++;
		if (p->flags & CORR_NOISY_REF) {
			rr->nnoisy++;
		} else if (p->flags & CORR_INVALID) {
			rr->ninvalid++;
		} else if (gate_waived(p, today)) {
			rr->waived = xrealloc(rr->waived, (rr->nwaived_pts + 1) *
					      sizeof(size_t));
			rr->waived[rr->nwaived_pts++] = i;
			rr->nwaived++;
		}
	}
}

static const struct gate_check *failed_check(const struct gate_rule_result *rr,
					     enum policy_limit l)
{
	for (int i = 0; i < rr->nchecks; i++)
		if (rr->checks[i].lim == l && rr->checks[i].failed)
			return &rr->checks[i];
	return NULL;
}

/* The points behind a failure: those over a failed per-point limit
 * (max_abs_err, speed-of-light), else the worst by |error|; at most top,
 * largest |error| first (the set is sorted that way). */
static void offenders(struct gate_rule_result *rr, const struct corr_set *set,
		      const char *today, size_t top)
{
	const struct gate_check *abs = failed_check(rr, PL_MAX_ABS_ERR);
	const struct gate_check *sol = failed_check(rr, PL_MAX_SOL_VIOLATIONS);

	rr->offenders = xcalloc(top ? top : 1, sizeof(size_t));
	for (size_t i = 0; i < set->n && rr->noffenders < top; i++) {
		const struct corr_point *p = &set->points[i];

		if ((p->flags & (CORR_NOISY_REF | CORR_INVALID)) ||
		    !gate_selects(rr->rule, p) || gate_waived(p, today))
			continue;
		if (abs || sol) {
			int hit = (abs && fabs(p->err) > abs->limit) ||
				  (sol && (p->flags & CORR_SOL_VIOLATION));

			if (!hit)
				continue;
		} else if (isnan(p->err)) {
			continue;
		}
		rr->offenders[rr->noffenders++] = i;
	}
}

static int eval_rule(struct gate_rule_result *rr, const struct corr_set *set,
		     const struct gate_prior *prior, const char *today,
		     size_t top)
{
	struct sel s = { rr->rule, today };
	int rc;

	count(rr, set, today);
	if ((rc = corr_summary(&rr->sum, set, keep, &s, 0)) < 0)
		return rc;
	if (prior) {
		rr->prior = *prior;
		rr->prior.base_version = prior->base_version ?
			xstrdup(prior->base_version) : NULL;
	}
	gate_judge(rr, &rr->sum, prior);
	if (rr->status != GATE_PASS)
		offenders(rr, set, today, top);
	return 0;
}

char *gate_runs_json(const struct corr_side *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addch(&sb, '[');
	for (size_t i = 0; i < s->nruns; i++)
		strbuf_addf(&sb, "%s%lld", i ? "," : "",
			    (long long)s->runs[i]);
	strbuf_addch(&sb, ']');
	return strbuf_detach(&sb);
}

int gate_priors_load(struct db *db, const struct policy *p,
		       const struct corr_set *set, struct gate_prior *pr)
{
	char *mr = gate_runs_json(&set->model);
	char *rr = gate_runs_json(&set->ref);
	char *inputs = xasprintf("%s|%s", mr, rr);
	char **versions = NULL;
	size_t nv = 0;
	int rc;

	rc = corr_versions(db, set->model.source, &versions, &nv);
	for (size_t i = 0; !rc && i < p->nrules; i++) {
		struct db_gate_hist *h = NULL;
		size_t n = 0;

		rc = db_gate_hist(db, p->name, set->model.source,
				  set->ref.source, p->rules[i].name, &h, &n);
		if (!rc)
			gate_prior_compute(&pr[i], h, n, inputs,
					   set->model.version, versions, nv);
		db_gate_hist_free(h, n);
	}
	for (size_t i = 0; i < nv; i++)
		free(versions[i]);
	free(versions);
	free(inputs);
	free(mr);
	free(rr);
	return rc;
}

int gate_evaluate(struct gate_result **out, const struct policy *p,
		  const struct corr_set *set, const struct gate_prior *priors,
		  const char *today, size_t top)
{
	struct gate_result *g = xcalloc(1, sizeof(*g));
	char now[32];
	int rc;

	if (!today) {
		util_now_iso(now, sizeof(now));
		now[10] = 0;
		today = now;
	}
	snprintf(g->today, sizeof(g->today), "%.10s", today);
	g->policy = p;
	g->set = set;
	g->rules = xcalloc(p->nrules ? p->nrules : 1, sizeof(*g->rules));
	g->nrules = p->nrules;
	for (size_t i = 0; i < p->nrules; i++) {
		g->rules[i].rule = &p->rules[i];
		rc = eval_rule(&g->rules[i], set, priors ? &priors[i] : NULL,
			       g->today, top);
		if (rc < 0) {
			pc_error_prefix("rule '%s'", p->rules[i].name);
			gate_result_free(g);
			return rc;
		}
	}
	gate_verdict(g);
	*out = g;
	return 0;
}
