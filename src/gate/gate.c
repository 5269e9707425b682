/* Gate judgement: limits, waivers, history (see gate.h). */
#include "src/gate/gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "db/gate.h"
#include "src/corr/correlate.h"
#include "base/strbuf.h"
#include "base/util.h"

#define EPS 1e-12

const char *gate_status_name(enum gate_status s)
{
	return s == GATE_FAIL ? "fail" : s == GATE_WARN ? "warn" :
	       s == GATE_UNKNOWN ? "unknown" : "pass";
}

const char *gate_status_label(enum gate_status s)
{
	return s == GATE_FAIL ? "FAIL" : s == GATE_WARN ? "WARN" :
	       s == GATE_UNKNOWN ? "UNKNOWN" : "PASS";
}

/* The statistic a limit reads, and the field that says why it is NaN. */
static double measure(const struct stats_summary *s, enum policy_limit l,
		      int *field)
{
	*field = -1;
	switch (l) {
	case PL_MIN_PAIRS:
		return (double)s->n;
	case PL_MAX_MAPE:
	case PL_MAX_MAPE_INCREASE:
		*field = SF_MAPE;
		return s->mape;
	case PL_MAX_ABS_ERR:
		*field = SF_ABS_ERR;
		return s->max_abs_err;
	case PL_MAX_P95_ABS_ERR:
		*field = SF_ABS_ERR;
		return s->p95_abs_err;
	case PL_MAX_BIAS:
		*field = SF_BIAS;
		return fabs(s->bias);
	case PL_MIN_PEARSON:
		*field = SF_PEARSON;
		return s->pearson;
	case PL_MIN_SPEARMAN:
		*field = SF_SPEARMAN;
		return s->spearman;
	case PL_MIN_KENDALL:
		*field = SF_KENDALL;
		return s->kendall_tau_b;
	case PL_SLOPE_RANGE:
		*field = SF_FIT;
		return s->fit.slope;
	case PL_MAX_NRMSE:
		*field = SF_NRMSE;
		return s->nrmse;
	case PL_MAX_SOL_VIOLATIONS:
		return (double)s->sol_violations;
	case PL_MAX_BLIND_KNOBS:	/* from the rule's sweeps (check_one) */
	case PL_MAX_VERDICT_FLIPS:	/* from its verdicts (check_one) */
	case PL_MAX_ABS_ERR_INCREASE:	/* from the baseline (increase) */
	case PL_COUNT:
		break;
	}
	return NAN;
}

/* *_increase: the paired change on the common points when the baseline
 * release could be loaded, else the recorded MAPE of the baseline. */
static int increase(struct gate_check *c, const struct gate_rule_result *rr,
		    const struct gate_prior *prior)
{
	c->significant = 1;
	if (!prior || !prior->have_base) {
		c->value = NAN;
		c->na = 1;
		c->failed = 0;
		c->why = prior && prior->why_none ? prior->why_none :
			 "no earlier release passed this policy";
		return 1;
	}
	if (c->lim == PL_MAX_ABS_ERR_INCREASE || (prior->base_prev &&
						  !rr->have_paired)) {
		/* per pair: the baseline's errors are needed (and the
		 * previous version has no recorded MAPE to fall back on) */
		if (!rr->have_base_set) {
			c->value = NAN;
			c->na = 1;
			c->failed = 0;
			c->why = "the baseline release's results are gone: no "
				 "error of its pairs to compare with";
			return 1;
		}
		if (c->lim == PL_MAX_ABS_ERR_INCREASE) {
			c->value = rr->max_increase;
			if (isnan(c->value))
				c->why = "no points in common with the baseline "
					 "release";
			return 0;
		}
	}
	if (rr->have_paired) {
		c->paired = 1;
		c->value = rr->paired.delta;
		if (isnan(c->value))
			c->why = "no points in common with the baseline release";
	} else {
		c->value -= prior->base_mape;
	}
	return 0;
}

/* About how many more workloads would decide an unknown increase: the
 * interval's halfwidth shrinks as 1/sqrt(workloads), so n (hw / |delta -
 * limit|)^2 workloads would put its end on the limit (an estimate). */
static long more_needed(const struct stats_change *p, double limit)
{
	double hw = p->ci_hi - p->delta, gap = fabs(p->delta - limit);
	double need;

	if (p->n_workloads < STATS_CI_MIN_WORKLOADS)
		return STATS_CI_MIN_WORKLOADS - (long)p->n_workloads;
	if (!(hw > 0) || !(gap > EPS))
		return -1;
	need = ceil((double)p->n_workloads * (hw / gap) * (hw / gap));
	if (need > 1e9)
		return -1;
	return need > (double)p->n_workloads ?
	       (long)need - (long)p->n_workloads : 1;
}

static void judge_increase(struct gate_check *c,
			   const struct gate_rule_result *rr, double alpha)
{
	const struct stats_change *p = &rr->paired;
	double within;

	c->p_raw = stats_change_p_above(p, c->limit);
	c->p_adj = rr->have_adj ? rr->p_adj : c->p_raw;
	within = p->se == 0 ? (p->delta <= c->limit + EPS ? 0 : 1) :
		 1 - c->p_raw;
	c->significant = !isnan(c->p_adj) && c->p_adj < alpha;
	c->failed = c->significant;
	if (c->failed || (!isnan(within) && within < alpha))
		return;
	c->unknown = 1;
	c->more_workloads = more_needed(p, c->limit);
	if (rr->rule->unknown_as == PU_FAIL)
		c->failed = 1;
}

static void check_one(struct gate_check *c, const struct gate_rule_result *rr,
		      const struct stats_summary *s,
		      const struct gate_prior *prior)
{
	const struct policy_rule *r = rr->rule;
	int field;

	c->limit = r->lim[c->lim];
	c->limit_hi = c->lim == PL_SLOPE_RANGE ? r->slope_hi : NAN;
	c->value = measure(s, c->lim, &field);
	c->why = NULL;
	c->na = c->paired = c->unknown = 0;
	c->more_workloads = 0;
	c->p_raw = c->p_adj = NAN;	/* also when n/a (no test) */
	c->significant = 1;
	if ((c->lim == PL_MAX_MAPE_INCREASE ||
	     c->lim == PL_MAX_ABS_ERR_INCREASE) && increase(c, rr, prior))
		return;
	if (c->lim == PL_MAX_BLIND_KNOBS) {
		/* blind and wrong-direction sweeps both count: either way
		 * a decision taken by moving the knob in the model goes
		 * wrong (docs/gate.md); no sweep fails, saying so */
		c->value = rr->have_sens ? (double)(rr->nblind + rr->nwrong) :
			   NAN;
		if (!rr->have_sens)
			c->why = "no sweep among the rule's pairs: a sweep is "
				 "one op and metric over >= 3 positive values "
				 "of one workload parameter, the rest of the "
				 "key fixed";
	}
	if (c->lim == PL_MAX_VERDICT_FLIPS) {
		/* confident flips only; the near-limit keys decide between
		 * pass and unknown below */
		c->value = rr->have_slo ? (double)(rr->slo.cell[SLO_MODEL_MEETS]
			   + rr->slo.cell[SLO_MODEL_MISSES]) : NAN;
		if (!rr->have_slo)
			c->why = rr->slo_why ? rr->slo_why : "no pair of the "
				 "rule's has a metric the policy's slo limits";
	}
	/* no roofline value bounds the points: no count of violations
	 * means anything (n/a, which fails: never a pass) */
	if (c->lim == PL_MAX_SOL_VIOLATIONS && rr->nbounded == 0 &&
	    rr->nselected > 0) {
		c->value = NAN;
		c->na = 1;
		c->why = "no roofline value bounds these pairs: import a "
			 "roofline of their ops, or drop the rule";
	}
	if (isnan(c->value) && !c->why)
		c->why = s->n == 0 ? "no pairs" : field >= 0 &&
			 s->why[field] ? s->why[field] : "undefined";
	/* bias over a time and a rate: the rule must name its metric
	 * (issue 34: the signs cancel; the rule fails, saying so) */
	if (c->why == STATS_WHY_DIRECTION)
		c->why = "metrics of opposite better direction: bias is per "
			 "metric only; give the rule a metric";
	/* a value equal to its limit passes, also after rounding */
	if (c->lim == PL_SLOPE_RANGE)
		c->failed = !(c->value >= c->limit - EPS &&
			      c->value <= c->limit_hi + EPS);
	else if (policy_limit_is_min(c->lim))
		c->failed = !(c->value >= c->limit - EPS);
	else
		c->failed = !(c->value <= c->limit + EPS);
	/* past the limit, or within it, beyond noise? The release-change
	 * test (significance asked, the paired points loaded): fail when
	 * the increase is above the limit beyond noise (p, after the
	 * policy's error control, below the significance), pass when it is
	 * below it beyond noise (the interval's upper end within it),
	 * unknown otherwise. Without the paired points the limit alone
	 * decides. */
	c->p_raw = c->p_adj = NAN;
	c->unknown = 0;
	c->more_workloads = 0;
	if (c->lim == PL_MAX_MAPE_INCREASE && c->paired &&
	    !isnan(r->significance) && !isnan(c->value))
		judge_increase(c, rr, r->significance);
	/* within the limit, unless the near-limit keys turn out flips:
	 * no verdict is earned (docs/gate.md) */
	if (c->lim == PL_MAX_VERDICT_FLIPS && !c->failed && rr->have_slo &&
	    c->value + (double)rr->slo.cell[SLO_NEAR] > c->limit + EPS) {
		c->unknown = 1;
		if (r->unknown_as == PU_FAIL)
			c->failed = 1;
	}
}
static void fmt_value(struct strbuf *sb, enum policy_limit l, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "n/a");
	else if (l == PL_MAX_MAPE_INCREASE || l == PL_MAX_ABS_ERR_INCREASE)
		strbuf_addf(sb, "%+.4g pp", v * 100);
	else if (policy_limit_is_fraction(l))
		strbuf_addf(sb, "%.4g%%", v * 100);
	else if (l == PL_MIN_PAIRS || l == PL_MAX_SOL_VIOLATIONS ||
		 l == PL_MAX_BLIND_KNOBS || l == PL_MAX_VERDICT_FLIPS)
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addf(sb, "%.3f", v);
}

/* Set by gate_judge for gate_check_text: the rule whose check it is. */
static const struct gate_rule_result *text_rule;

static void add_paired(struct strbuf *sb, const struct gate_check *c)
{
	const struct stats_change *p;
	double alpha;

	if (!text_rule)
		return;
	p = &text_rule->paired;
	alpha = text_rule->rule->significance;
	if (c->unknown)
		strbuf_addf(sb, ": unknown%s", text_rule->rule->unknown_as ==
			    PU_FAIL ? " (counted as fail)" :
			    text_rule->rule->unknown_as == PU_PASS ?
			    " (counted as pass)" : "");
	strbuf_addstr(sb, " (");
	if (!isnan(c->p_raw)) {
		strbuf_addf(sb, "p=%.3g", c->p_raw);
		if (text_rule->have_adj)
			strbuf_addf(sb, ", adjusted %.3g", c->p_adj);
		strbuf_addf(sb, " %s %g, ", c->p_adj < alpha ? "<" : ">=",
			    alpha);
	}
	if (isfinite(p->ci_lo))
		strbuf_addf(sb, "%.0f%% CI [%+.3g, %+.3g] pp, ",
			    p->level * 100, p->ci_lo * 100, p->ci_hi * 100);
	else if (p->why)
		strbuf_addf(sb, "no interval: %s, ", p->why);
	strbuf_addf(sb, "%zu common points, %zu workload%s", p->n,
		    p->n_workloads, p->n_workloads == 1 ? "" : "s");
	if (p->two_way)
		strbuf_addf(sb, " x %zu ops", p->n_ops);
	strbuf_addch(sb, ')');
	if (c->unknown && c->more_workloads > 0)
		strbuf_addf(sb, "; about %ld more workload%s would decide it "
			    "(an estimate from the interval's width)",
			    c->more_workloads, c->more_workloads == 1 ? "" :
			    "s");
	else if (c->unknown)
		strbuf_addstr(sb, "; the estimate sits on the limit: more "
			      "workloads may not decide it");
}

void gate_check_text_of(const struct gate_rule_result *rr,
			const struct gate_check *c, struct strbuf *sb)
{
	text_rule = rr;
	gate_check_text(c, sb);
	text_rule = NULL;
}

void gate_check_text(const struct gate_check *c, struct strbuf *sb)
{
	enum policy_limit l = c->lim;
	struct strbuf v = STRBUF_INIT, lim = STRBUF_INIT;

	strbuf_addf(sb, "%s ", l == PL_SLOPE_RANGE ? "slope" :
		    policy_limit_name(l));
	if (l == PL_SLOPE_RANGE)
		strbuf_addf(&lim, "[%.3g, %.3g]", c->limit, c->limit_hi);
	else
		fmt_value(&lim, l, c->limit);
	if (c->na || isnan(c->value)) {
		strbuf_addf(sb, "n/a (%s), limit %s", c->why ? c->why : "",
			    lim.buf);
		goto done;
	}
	fmt_value(&v, l, c->value);
	if (c->failed && !strcmp(v.buf, lim.buf)) {
		/* "12% > 12%" says nothing: show the digits that differ */
		strbuf_reset(&v);
		strbuf_addf(&v, policy_limit_is_fraction(l) ? "%.8g%%" :
			    "%.8g", policy_limit_is_fraction(l) ? c->value *
			    100 : c->value);
	}
	strbuf_addstr(sb, v.buf);
	if (l == PL_SLOPE_RANGE)
		strbuf_addstr(sb, c->failed ? " outside " : " within ");
	else if (policy_limit_is_min(l))
		strbuf_addstr(sb, c->failed ? " < " : " >= ");
	else	/* past the limit but not significant: still ">" */
		strbuf_addstr(sb, c->value > c->limit + EPS ? " > " : " <= ");
	strbuf_addstr(sb, lim.buf);
	if (l == PL_MAX_ABS_ERR_INCREASE && text_rule)
		strbuf_addf(sb, " (%ld of %ld pairs in common with %s above "
			    "it)", text_rule->nincrease_above,
			    text_rule->ncommon_base,
			    text_rule->prior.base_version ?
			    text_rule->prior.base_version : "?");
	else if (l == PL_MAX_VERDICT_FLIPS && text_rule &&
		 text_rule->slo.cell[SLO_NEAR])
		strbuf_addf(sb, " (and %ld near the limit, within the "
			    "reference's spread: %s%s)",
			    text_rule->slo.cell[SLO_NEAR], c->unknown ?
			    "with them it could be over: unknown" :
			    c->failed ? "not counted" :
			    "within it even if they all flip",
			    !c->unknown ? "" : text_rule->rule->unknown_as ==
			    PU_FAIL ? ", counted as fail" :
			    text_rule->rule->unknown_as == PU_PASS ?
			    ", counted as pass" : "");
	else if (c->paired)
		add_paired(sb, c);
	else if (l == PL_MAX_MAPE_INCREASE && text_rule &&
		 text_rule->prior.have_base)
		strbuf_addf(sb, " (against the MAPE recorded for %s: its "
			    "results are gone, no interval or p-value)",
			    text_rule->prior.base_version ?
			    text_rule->prior.base_version : "?");
done:
	strbuf_release(&v);
	strbuf_release(&lim);
}

static void set_status(struct gate_rule_result *rr,
		       const struct gate_prior *prior, struct strbuf *msg)
{
	const struct policy_rule *r = rr->rule;

	if (!rr->failed) {
		rr->streak = 0;
		rr->status = !rr->unknown ? GATE_PASS :
			     r->severity == POLICY_FAIL ? GATE_UNKNOWN :
			     GATE_WARN;
		return;
	}
	rr->streak = (prior ? prior->streak : 0) + 1;
	if (rr->coverage_failed || rr->streak >= r->consecutive) {
		rr->status = r->severity == POLICY_FAIL ? GATE_FAIL : GATE_WARN;
		if (r->consecutive > 1 && !rr->coverage_failed)
			strbuf_addf(msg, " (failed %d evaluations in a row)",
				    rr->streak);
	} else {
		rr->status = GATE_WARN;
		strbuf_addf(msg, " (failure %d of %d in a row before it "
			    "fails)", rr->streak, r->consecutive);
	}
}

/* A rule whose every limit (min_pairs aside) is n/a without failing (no
 * baseline release for an increase, its results gone) evaluated nothing:
 * never a pass (rule 2). Unknown, or what the policy's "unknown" counts
 * it as; the message starts "nothing evaluated" (db_gate_hist: such an
 * unknown does not keep the release from being a later baseline). A
 * rule whose every point is waived passes its limits as n/a (documented:
 * the waivers are the decision). */
static void nothing_evaluated(struct gate_rule_result *rr,
			      const struct stats_summary *s,
			      const struct gate_prior *prior,
			      struct strbuf *msg)
{
	const struct policy_rule *r = rr->rule;
	int n = 0;

	if (rr->failed || rr->unknown || (s->n == 0 && rr->nwaived > 0))
		return;
	for (int i = 0; i < rr->nchecks; i++) {
		if (rr->checks[i].lim == PL_MIN_PAIRS)
			continue;
		if (!rr->checks[i].na)
			return;
		n++;
	}
	if (!n)
		return;
	strbuf_addf(msg, "nothing evaluated%s: ", prior && prior->have_base ?
		    "" : ", no baseline release");
	for (int i = 0, k = 0; i < rr->nchecks; i++) {
		struct gate_check *c = &rr->checks[i];

		if (c->lim == PL_MIN_PAIRS)
			continue;
		c->unknown = 1;
		c->failed = r->unknown_as == PU_FAIL;
		strbuf_addstr(msg, k++ ? "; " : "");
		gate_check_text_of(rr, c, msg);
	}
	strbuf_addstr(msg, r->unknown_as == PU_FAIL ? " (counted as fail)" :
		      r->unknown_as == PU_PASS ? " (counted as pass)" : "");
	rr->failed = r->unknown_as == PU_FAIL;
	rr->unknown = r->unknown_as == PU_UNKNOWN;
}

void gate_judge(struct gate_rule_result *rr, const struct stats_summary *s,
		const struct gate_prior *prior)
{
	const struct policy_rule *r = rr->rule;
	struct strbuf msg = STRBUF_INIT;

	rr->nchecks = 0;
	rr->failed = rr->coverage_failed = rr->unknown = 0;
	for (int l = 0; l < PL_COUNT; l++) {
		struct gate_check *c;

		if (!(r->has & (1u << l)))
			continue;
		c = &rr->checks[rr->nchecks++];
		c->lim = (enum policy_limit)l;
		check_one(c, rr, s, prior);
		if (l == PL_MIN_PAIRS) {
			/* coverage counts matched pairs, waived ones too
			 * (a verdict_only rule: its keys) */
			c->value = rr->verdict_only ? (double)(rr->slo.keys +
				   rr->nvwaived) : c->value +
				   (double)rr->nwaived;
			c->failed = !(c->value >= c->limit - EPS);
		} else if (s->n == 0 && rr->nwaived > 0) {
			c->failed = 0;
			c->na = 1;
			c->why = "every point waived";
		}
		if (c->unknown && !c->failed && r->unknown_as == PU_UNKNOWN) {
			rr->unknown = 1;
			if (msg.len)
				strbuf_addstr(&msg, "; ");
			gate_check_text_of(rr, c, &msg);
		}
		if (!c->failed)
			continue;
		rr->failed = 1;
		rr->coverage_failed |= l == PL_MIN_PAIRS;
		if (msg.len)
			strbuf_addstr(&msg, "; ");
		gate_check_text_of(rr, c, &msg);
	}
	nothing_evaluated(rr, s, prior, &msg);
	set_status(rr, prior, &msg);
	free(rr->message);
	rr->message = msg.len ? strbuf_detach(&msg) : NULL;
	strbuf_release(&msg);
}

long gate_rule_n(const struct gate_rule_result *r)
{
	return r->verdict_only ? r->slo.keys : r->sum.n;
}

void gate_verdict(struct gate_result *g)
{
	g->npass = g->nwarn = g->nfail = g->nunknown = 0;
	for (size_t i = 0; i < g->nrules; i++) {
		switch (g->rules[i].status) {
		case GATE_PASS:
			g->npass++;
			break;
		case GATE_WARN:
			g->nwarn++;
			break;
		case GATE_FAIL:
			g->nfail++;
			break;
		case GATE_UNKNOWN:
			g->nunknown++;
			break;
		}
	}
	g->verdict = g->nfail ? GATE_FAIL : g->nunknown ? GATE_UNKNOWN :
		     g->nwarn ? GATE_WARN : GATE_PASS;
}

int gate_waived(const struct corr_point *p, const char *today)
{
	return p->ann && annot_waived(p->ann, today);
}

int gate_point_waived(const struct gate_result *g, size_t i)
{
	return g->wv && i < g->set->n && g->wv[i].state == WAIVER_OK;
}

void gate_result_free(struct gate_result *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nrules; i++) {
		free(g->rules[i].message);
		free(g->rules[i].offenders);
		free(g->rules[i].waived);
		free(g->rules[i].unwaived);
		for (size_t j = 0; j < g->rules[i].nflagged_kept; j++) {
			free(g->rules[i].sweeps[j].knob);
			free(g->rules[i].sweeps[j].op);
			free(g->rules[i].sweeps[j].metric);
			free(g->rules[i].sweeps[j].fixed);
		}
		free(g->rules[i].sweeps);
		free(g->rules[i].vkeys);
		free(g->rules[i].base_err);
		free(g->rules[i].movers);
		free(g->rules[i].calib_why);
		gate_prior_release(&g->rules[i].prior);
	}
	free(g->rules);
	free(g->wv);
	corr_slo_release(&g->slo);
	free(g->slo_why);
	free(g);
}

/* Holm: sorted ascending, adj(i) = max over j <= i of min(1, (n - j)
 * p(j)); BH: adj(i) = min over j >= i of min(1, n p(j) / (j + 1)). */
static const double *adj_p;

static int cmp_idx(const void *a, const void *b)
{
	double x = adj_p[*(const size_t *)a], y = adj_p[*(const size_t *)b];

	return (x > y) - (x < y);
}

void gate_adjust(const double *p, size_t n, enum policy_error_control ec,
		 double *adj)
{
	size_t *o = xcalloc(n ? n : 1, sizeof(*o));
	double run;

	for (size_t i = 0; i < n; i++)
		o[i] = i;
	adj_p = p;
	qsort(o, n, sizeof(*o), cmp_idx);
	adj_p = NULL;
	if (ec == PEC_NONE) {
		for (size_t i = 0; i < n; i++)
			adj[i] = p[i];
	} else if (ec == PEC_HOLM) {
		run = 0;
		for (size_t j = 0; j < n; j++) {
			run = fmax(run, fmin(1, (double)(n - j) * p[o[j]]));
			adj[o[j]] = run;
		}
	} else {
		run = 1;
		for (size_t j = n; j-- > 0;) {
			run = fmin(run, fmin(1, (double)n * p[o[j]] /
					     (double)(j + 1)));
			adj[o[j]] = run;
		}
	}
	free(o);
}
