/* Gate evaluation over a correlation set (see gate.h). */
#include "src/gate/gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/gate.h"
#include "src/corr/corr_sens.h"
#include "src/corr/correlate.h"
#include "src/gate/gate_movers.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

struct sel {
	const struct policy_rule *rule;
	const struct gate_result *g;
	const unsigned char *map;	/* gate_select_map of g->set */
};

/* Points the statistics see: selected and not waived (noisy and invalid
 * points are left out by corr_summary itself). */
static int keep(const struct corr_point *p, void *arg)
{
	const struct sel *s = arg;
	size_t i = (size_t)(p - s->g->set->points);

	return s->map[i] && !gate_point_waived(s->g, i);
}

static void push(size_t **v, size_t *n, size_t i)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(size_t));
	(*v)[(*n)++] = i;
}

static void count(struct gate_rule_result *rr, const struct gate_result *g,
		  const unsigned char *map)
{
	const struct corr_set *set = g->set;

	for (size_t i = 0; i < set->n; i++) {
		const struct corr_point *p = &set->points[i];

		if (!map[i])
			continue;
		rr->nselected++;
		rr->nbounded += (p->flags & CORR_SOL_BOUND) != 0;
		if (p->flags & CORR_NOISY_REF) {
			rr->nnoisy++;
		} else if (p->flags & CORR_INVALID) {
			rr->ninvalid++;
		} else if (gate_point_waived(g, i)) {
			push(&rr->waived, &rr->nwaived_pts, i);
			rr->nwaived++;
		} else if (g->wv[i].state != WAIVER_NONE) {
			push(&rr->unwaived, &rr->nunwaived, i);
		}
	}
}

static void key_of(struct strbuf *sb, const struct corr_point *p)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, p->workload ? p->workload : "");
	strbuf_addch(sb, '\x1f');
	strbuf_addstr(sb, p->op ? p->op : "");
	strbuf_addch(sb, '\x1f');
	strbuf_addstr(sb, p->metric ? p->metric : "");
}

static int usable(const struct corr_point *p)
{
	return !(p->flags & (CORR_NOISY_REF | CORR_INVALID)) &&
	       !isnan(p->err);
}

/* The paired change of |error| from the baseline release: the points
 * the rule judges now (selected: map, usable, not waived) that the
 * baseline also has usable (selected: bmap), and the coverage change. */
static void paired(struct gate_rule_result *rr, const struct gate_result *g,
		   const struct corr_set *base, const unsigned char *map,
		   const unsigned char *bmap)
{
	const struct corr_set *set = g->set;
	struct strbuf sb = STRBUF_INIT;
	struct hmap ix, now;
	double *b = xcalloc(set->n + 1, sizeof(double));
	double *a = xcalloc(set->n + 1, sizeof(double));
	int64_t *wk = xcalloc(set->n + 1, sizeof(int64_t));
	int64_t *ok = xcalloc(set->n + 1, sizeof(int64_t));
	double sig = rr->rule->significance;
	size_t m = 0;

	hmap_init(&ix);
	hmap_init(&now);
	for (size_t j = 0; j < base->n; j++) {
		if (!bmap[j] || !usable(&base->points[j]))
			continue;
		key_of(&sb, &base->points[j]);
		hmap_put(&ix, strbuf_str(&sb), (int64_t)j);
	}
	for (size_t i = 0; i < set->n; i++) {
		const struct corr_point *p = &set->points[i];
		int64_t j;

		if (!map[i] || !usable(p))
			continue;
		key_of(&sb, p);
		hmap_put(&now, strbuf_str(&sb), (int64_t)i);
		if (!hmap_get(&ix, strbuf_str(&sb), &j)) {
			rr->only_new++;
			continue;
		}
		if (gate_point_waived(g, i))
			continue;
		wk[m] = p->workload_id;
		ok[m] = p->op_id;
		b[m] = fabs(base->points[j].err);
		a[m++] = fabs(p->err);
	}
	for (size_t j = 0; j < base->n; j++) {
		int64_t k;

		if (!bmap[j] || !usable(&base->points[j]))
			continue;
		key_of(&sb, &base->points[j]);
		rr->only_old += !hmap_get(&now, strbuf_str(&sb), &k);
	}
	rr->common = (long)m;
	/* at 1 - 2 significance: each end of the interval is the one-sided
	 * test at the significance the rule asks */
	stats_change_compute(&rr->paired, b, a, wk, ok, m,
			     isnan(sig) ? 0 : 1 - 2 * sig);
	rr->have_paired = 1;
	hmap_release(&ix);
	hmap_release(&now);
	strbuf_release(&sb);
	free(b);
	free(a);
	free(wk);
	free(ok);
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
 * (max_abs_err, speed-of-light, max_abs_err_increase), else the worst by |error|; at most top,
 * largest |error| first (the set is sorted that way). map: the rule's
 * gate_select_map, or NULL. */
static void offenders(struct gate_rule_result *rr, const struct gate_result *g,
		      size_t top, const unsigned char *map)
{
	const struct corr_set *set = g->set;
	const struct gate_check *abs = failed_check(rr, PL_MAX_ABS_ERR);
	const struct gate_check *sol = failed_check(rr, PL_MAX_SOL_VIOLATIONS);
	const struct gate_check *inc = failed_check(rr,
						    PL_MAX_ABS_ERR_INCREASE);

	free(rr->offenders);
	rr->noffenders = 0;
	rr->offenders = xcalloc(top ? top : 1, sizeof(size_t));
	/* a verdict rule that fails or is unknown: its flips, then its
	 * near-limit keys, worst first */
	if (!abs && !sol && !inc && (rr->rule->has &
				     (1u << PL_MAX_VERDICT_FLIPS))) {
		for (size_t i = 0; i < rr->nvflips + rr->nvnear &&
		     rr->noffenders < top; i++)
			rr->offenders[rr->noffenders++] = rr->vkeys[i].point;
		if (rr->noffenders)
			return;
	}
	for (size_t i = 0; i < set->n && rr->noffenders < top; i++) {
		const struct corr_point *p = &set->points[i];

		if ((p->flags & (CORR_NOISY_REF | CORR_INVALID)) ||
		    !(map ? map[i] : gate_selects(rr->rule, p)) ||
		    gate_point_waived(g, i))
			continue;
		if (abs || sol || inc) {
			int hit = (abs && fabs(p->err) > abs->limit) ||
				  (sol && (p->flags & CORR_SOL_VIOLATION)) ||
				  (inc && gate_increase_at(rr, i, g) >
				   inc->limit + 1e-12);

			if (!hit)
				continue;
		} else if (isnan(p->err)) {
			continue;
		}
		rr->offenders[rr->noffenders++] = i;
	}
}

static int sweep_cmp(const void *a, const void *b)
{
	const struct gate_sweep *x = a, *y = b;
	double dx = fabs(x->e_model - x->e_ref), dy = fabs(y->e_model - y->e_ref);
	int c;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if ((c = strcmp(x->knob, y->knob)) || (c = strcmp(x->op, y->op)) ||
	    (c = strcmp(x->metric, y->metric)))
		return c;
	return strcmp(x->fixed, y->fixed);
}

/* max_blind_knobs: the sweeps along the points the rule judges (keep),
 * its flagged ones worst first (at most top kept). No sweep at all
 * leaves have_sens 0 (the check says n/a, and fails). */
static int sensitivity(struct gate_rule_result *rr, struct sel *s,
		       size_t top)
{
	struct corr_sens c;
	size_t n = 0;
	int rc;

	rc = corr_sens_build_keep(&c, s->g->set, NULL, keep, s);
	if (rc == PC_ENOTFOUND) {
		pc_error_clear();
		return 0;
	}
	if (rc < 0)
		return rc;
	rr->have_sens = 1;
	rr->nsweeps = c.sweeps;
	rr->nblind = c.blind;
	rr->nwrong = c.wrong;
	rr->sweeps = xcalloc(c.blind + c.wrong + 1, sizeof(*rr->sweeps));
	for (size_t i = 0; i < c.n; i++) {
		const struct corr_knob *k = &c.knobs[i];

		for (size_t j = 0; j < k->nsweeps; j++) {
			const struct corr_sweep *w = &k->sweeps[j];
			struct gate_sweep *o;

			if (w->flag == SENS_OK)
				continue;
			o = &rr->sweeps[n++];
			o->knob = xstrdup(k->knob);
			o->op = xstrdup(k->op);
			o->metric = xstrdup(k->metric);
			o->fixed = xstrdup(w->fixed);
			o->flag = w->flag;
			o->n = w->n;
			o->e_model = w->e_model;
			o->e_ref = w->e_ref;
			o->tau = w->tau;
		}
	}
	qsort(rr->sweeps, n, sizeof(*rr->sweeps), sweep_cmp);
	for (size_t i = top; i < n; i++) {
		free(rr->sweeps[i].knob);
		free(rr->sweeps[i].op);
		free(rr->sweeps[i].metric);
		free(rr->sweeps[i].fixed);
	}
	rr->nflagged_kept = n < top ? n : top;
	corr_sens_release(&c);
	return 0;
}

/* max_verdict_flips: the verdicts of the points the rule judges (keep)
 * against the policy's slo (g->slo, resolved); the flips and the
 * near-limit keys kept, at most top of each. None of a limited metric
 * leaves have_slo 0 (n/a, which fails). */
static int limited(const struct corr_slo *slo, const char *metric)
{
	for (size_t i = 0; metric && i < slo->n; i++)
		if (!strcmp(slo->lim[i].metric, metric))
			return 1;
	return 0;
}

/* ... For a verdict_only rule, *flips (set->n bytes, caller frees) marks
 * its flipped keys: its movers are those. */
static int verdicts(struct gate_rule_result *rr, struct sel *s, size_t top,
		    unsigned char **flips)
{
	const struct corr_set *set = s->g->set;
	struct corr_slo_result v;
	size_t nf, nn;
	int rc;

	rr->slo_why = s->g->slo_why;
	if (s->g->slo_why)
		return 0;
	if ((rc = corr_slo_judge(&v, &s->g->slo, set, keep, s, 0)) < 0)
		return rc;
	rr->have_slo = v.all.keys > 0;
	rr->slo = v.all;
	rr->verdict_only = (rr->rule->has & ~(1u << PL_MIN_PAIRS)) ==
			   1u << PL_MAX_VERDICT_FLIPS;
	if (rr->verdict_only) {
		*flips = xcalloc(set->n + 1, 1);
		for (size_t i = 0; i < v.nflips; i++)
			(*flips)[v.keys[i].point] = 1;
		for (size_t i = 0; i < rr->nwaived_pts; i++)
			rr->nvwaived += limited(&s->g->slo, set->points[
					 rr->waived[i]].metric);
	}
	nf = v.nflips < top ? v.nflips : top;
	nn = v.nnear < top ? v.nnear : top;
	rr->vkeys = xcalloc(nf + nn + 1, sizeof(*rr->vkeys));
	memcpy(rr->vkeys, v.keys, nf * sizeof(*v.keys));
	memcpy(rr->vkeys + nf, v.keys + v.nflips, nn * sizeof(*v.keys));
	rr->nvflips = nf;
	rr->nvnear = nn;
	corr_slo_result_release(&v);
	return 0;
}

static int eval_rule(struct gate_rule_result *rr, const struct gate_result *g,
		     const struct gate_prior *prior,
		     const struct corr_set *base, size_t top)
{
	struct sel s = { rr->rule, g, gate_select_map(rr->rule, g->set) };
	unsigned char *bmap = NULL, *flips = NULL;
	int rc;

	count(rr, g, s.map);
	if ((rc = corr_summary(&rr->sum, g->set, keep, &s, 0)) < 0 ||
	    ((rr->rule->has & (1u << PL_MAX_BLIND_KNOBS)) &&
	     (rc = sensitivity(rr, &s, top)) < 0) ||
	    ((rr->rule->has & (1u << PL_MAX_VERDICT_FLIPS)) &&
	     (rc = verdicts(rr, &s, top, &flips)) < 0)) {
		free((void *)s.map);
		free(flips);
		return rc;
	}
	if (prior) {
		rr->prior = *prior;
		rr->prior.base_version = prior->base_version ?
			xstrdup(prior->base_version) : NULL;
	}
	if (base && prior && prior->have_base) {
		bmap = gate_select_map(rr->rule, base);
		/* a verdict rule's movers: its flipped keys */
		gate_movers(rr, g, base, flips ? flips : s.map, bmap, top);
		if (rr->rule->has & (1u << PL_MAX_MAPE_INCREASE))
			paired(rr, g, base, s.map, bmap);
	}
	gate_judge(rr, &rr->sum, prior);
	if (rr->status != GATE_PASS)
		offenders(rr, g, top, s.map);
	free((void *)s.map);
	free(bmap);
	free(flips);
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

int gate_inputs_load(struct gate_inputs *in, struct db *db,
		     const struct policy *p, const struct corr_set *set)
{
	int rc;

	memset(in, 0, sizeof(*in));
	in->nrules = p->nrules;
	in->priors = xcalloc(p->nrules + 1, sizeof(*in->priors));
	in->base = xcalloc(p->nrules + 1, sizeof(*in->base));
	if ((rc = gate_priors_load(db, p, set, in->priors)) < 0 ||
	    (rc = corr_versions(db, set->model.source, &in->versions,
				&in->nversions)) < 0)
		return rc;
	for (size_t i = 0; i < p->nrules; i++) {
		const struct gate_prior *pr = &in->priors[i];
		struct corr_query q = CORR_QUERY_INIT;
		char *m, *r;

		/* every rule names its movers since its baseline */
		if (!pr->have_base || !pr->base_version)
			continue;
		for (size_t j = 0; j < i && !in->base[i]; j++)
			if (in->base[j] && in->priors[j].base_version &&
			    !strcmp(in->priors[j].base_version,
				    pr->base_version))
				in->base[i] = in->base[j];
		if (in->base[i])
			continue;
		m = xasprintf("%s@%s", set->model.source, pr->base_version);
		r = xasprintf("%s@%s", set->ref.source, set->ref.version);
		q.model = m;
		q.ref = r;
		q.max_ref_cv = p->max_ref_cv;
		q.no_roofline = 1;	/* the increase reads no SoL flag */
		/* gone (runs deleted): fall back to the recorded MAPE */
		if (corr_load(&in->base[i], db, &q) < 0)
			in->base[i] = NULL;
		free(m);
		free(r);
	}
	return 0;
}

void gate_inputs_release(struct gate_inputs *in)
{
	for (size_t i = 0; in->base && i < in->nrules; i++) {
		int shared = 0;

		for (size_t j = i + 1; j < in->nrules; j++)
			if (in->base[j] == in->base[i])
				shared = 1;
		if (!shared)
			corr_set_free(in->base[i]);
	}
	for (size_t i = 0; in->priors && i < in->nrules; i++)
		gate_prior_release(&in->priors[i]);
	for (size_t i = 0; i < in->nversions; i++)
		free(in->versions[i]);
	free(in->versions);
	free(in->priors);
	free(in->base);
	memset(in, 0, sizeof(*in));
}

int gate_evaluate(struct gate_result **out, const struct policy *p,
		  const struct corr_set *set, const struct gate_inputs *in,
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
	g->wv = xcalloc(set->n + 1, sizeof(*g->wv));
	/* the limits of max_verdict_flips, checked against these pairs: a
	 * limit they cannot judge makes those rules n/a (and fail) */
	for (size_t i = 0; i < p->nrules && !g->slo.lim; i++)
		if (p->rules[i].has & (1u << PL_MAX_VERDICT_FLIPS)) {
			corr_slo_copy(&g->slo, &p->slo);
			if (corr_slo_resolve(&g->slo, set, "the policy's slo") <
			    0) {
				g->slo_why = xstrdup(pc_error_last());
				pc_error_clear();
			}
		}
	for (size_t i = 0; i < set->n; i++)
		waiver_judge(&g->wv[i], set->points[i].ann, &set->points[i],
			     set->model.version, in ? in->versions : NULL,
			     in ? in->nversions : 0, g->today, &p->waivers);
	for (size_t i = 0; i < p->nrules; i++) {
		g->rules[i].rule = &p->rules[i];
		rc = eval_rule(&g->rules[i], g, in && in->priors ?
			       &in->priors[i] : NULL, in && in->base ?
			       in->base[i] : NULL, top);
		if (rc < 0) {
			pc_error_prefix("rule '%s'", p->rules[i].name);
			gate_result_free(g);
			return rc;
		}
	}
	gate_control(g);
	for (size_t i = 0; i < p->nrules; i++) {
		struct gate_rule_result *rr = &g->rules[i];

		if (!rr->have_adj)
			continue;
		if (rr->status != GATE_PASS) {
			offenders(rr, g, top, NULL);
		} else {
			free(rr->offenders);
			rr->offenders = NULL;
			rr->noffenders = 0;
		}
	}
	gate_verdict(g);
	*out = g;
	return 0;
}

/* The raw p of rule rr's release-change test, or NaN when it has none. */
static double raw_p(const struct gate_rule_result *rr)
{
	for (int i = 0; i < rr->nchecks; i++)
		if (rr->checks[i].lim == PL_MAX_MAPE_INCREASE)
			return rr->checks[i].p_raw;
	return NAN;
}

void gate_control(struct gate_result *g)
{
	double *p = xcalloc(g->nrules + 1, sizeof(double));
	double *adj = xcalloc(g->nrules + 1, sizeof(double));
	size_t *at = xcalloc(g->nrules + 1, sizeof(size_t));
	size_t k = 0;

	for (size_t i = 0; i < g->nrules; i++) {
		double x = raw_p(&g->rules[i]);

		if (!isnan(x)) {
			at[k] = i;
			p[k++] = x;
		}
	}
	g->ntests = k;
	if (k > 1 && g->policy->error_control != PEC_NONE) {
		gate_adjust(p, k, g->policy->error_control, adj);
		for (size_t j = 0; j < k; j++) {
			struct gate_rule_result *rr = &g->rules[at[j]];

			rr->have_adj = 1;
			rr->p_adj = adj[j];
			gate_judge(rr, &rr->sum, &rr->prior);
		}
	}
	free(p);
	free(adj);
	free(at);
}
