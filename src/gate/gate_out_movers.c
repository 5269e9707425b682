/* What moved since the baseline release, in the gate's text, JUnit and
 * JSON (issue 35 item 7; see gate_out_int.h). */
#include "src/gate/gate_out_int.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/correlate.h"
#include "src/gate/gate.h"

static void add_safe(struct strbuf *sb, const char *s)
{
	char *p = util_safe_dup(s ? s : "");

	strbuf_addstr(sb, p);
	free(p);
}

const char *gate_out_base_from(const struct gate_rule_result *r)
{
	return r->prior.base_prev ? "previous-version" : "evaluation";
}

/* ", the previous version in the database (...)" or the reason there is
 * none. */
static void base_text(struct strbuf *sb, const struct gate_result *g,
		      const struct gate_rule_result *r)
{
	if (!r->prior.have_base) {
		strbuf_addstr(sb, "none (");
		strbuf_addstr(sb, r->prior.why_none ? r->prior.why_none :
			      "no earlier release passed this policy");
		strbuf_addch(sb, ')');
		return;
	}
	add_safe(sb, g->set->model.source);
	strbuf_addch(sb, '@');
	add_safe(sb, r->prior.base_version);
	if (r->prior.base_prev)
		strbuf_addstr(sb, ", the previous version in the database "
			      "(no evaluation of this policy passed for an "
			      "earlier release)");
	else
		strbuf_addstr(sb, ", the last earlier release that passed "
			      "this policy");
	if (!r->have_base_set)
		strbuf_addstr(sb, "; its results are gone: no movers");
}

static int same_base(const struct gate_rule_result *a,
		     const struct gate_rule_result *b)
{
	if (a->prior.have_base != b->prior.have_base)
		return 0;
	if (!a->prior.have_base)
		return a->prior.why_none == b->prior.why_none;
	return a->prior.base_prev == b->prior.base_prev &&
	       a->have_base_set == b->have_base_set &&
	       !strcmp(a->prior.base_version, b->prior.base_version);
}

void gate_out_baseline(struct strbuf *sb, const struct gate_result *g)
{
	unsigned char *done = xcalloc(g->nrules + 1, 1);
	size_t groups = 0;

	for (size_t i = 0; i < g->nrules; i++)
		for (size_t j = 0; j <= i; j++)
			if (same_base(&g->rules[i], &g->rules[j])) {
				groups += i == j;
				break;
			}
	for (size_t i = 0; i < g->nrules; i++) {
		int k = 0;

		if (done[i])
			continue;
		strbuf_addstr(sb, "baseline: ");
		base_text(sb, g, &g->rules[i]);
		for (size_t j = i; j < g->nrules; j++) {
			if (!same_base(&g->rules[i], &g->rules[j]))
				continue;
			done[j] = 1;
			if (groups < 2)
				continue;
			strbuf_addstr(sb, k++ ? ", '" : "; rules '");
			add_safe(sb, g->rules[j].rule->name);
			strbuf_addch(sb, '\'');
		}
		strbuf_addch(sb, '\n');
	}
	free(done);
}

/* A verdict rule's flipped keys (its movers are those). */
static long flips(const struct gate_rule_result *r)
{
	return r->slo.cell[SLO_MODEL_MEETS] + r->slo.cell[SLO_MODEL_MISSES];
}

void gate_out_movers(struct strbuf *sb, const struct gate_result *g,
		     const struct gate_rule_result *r)
{
	if (!r->have_base_set)
		return;
	if (!r->nmoved) {
		strbuf_addstr(sb, "  nothing moved since ");
		add_safe(sb, r->prior.base_version);
		strbuf_addstr(sb, " in '");
		add_safe(sb, r->rule->name);
		if (r->verdict_only)
			strbuf_addf(sb, "' (of its %ld flipped key%s, %ld in "
				    "common)\n", flips(r), flips(r) == 1 ? "" :
				    "s", r->ncommon_base);
		else
			strbuf_addf(sb, "' (%ld pair%s in common)\n",
				    r->ncommon_base, r->ncommon_base == 1 ?
				    "" : "s");
		return;
	}
	strbuf_addstr(sb, "  moved since ");
	add_safe(sb, r->prior.base_version);
	strbuf_addstr(sb, " in '");
	add_safe(sb, r->rule->name);
	if (r->verdict_only)
		strbuf_addf(sb, "' (its flipped keys: %ld of %ld in common, "
			    "largest change of |error| first):\n", r->nmoved,
			    r->ncommon_base);
	else
		strbuf_addf(sb, "' (%ld of %ld common pair%s, largest change "
			    "of |error| first):\n", r->nmoved,
			    r->ncommon_base, r->ncommon_base == 1 ? "" : "s");
	for (size_t i = 0; i < r->nmovers; i++) {
		const struct gate_mover *m = &r->movers[i];
		const struct corr_point *p = &g->set->points[m->i];

		strbuf_addstr(sb, "    ");
		add_safe(sb, p->workload);
		strbuf_addch(sb, ' ');
		add_safe(sb, p->op);
		strbuf_addch(sb, ' ');
		add_safe(sb, p->metric);
		strbuf_addf(sb, ": err %+.1f%% -> %+.1f%% (|err| %+.1f pp)\n",
			    m->before * 100, p->err * 100, m->change * 100);
	}
}

void gate_out_movers_json(cJSON *o, const struct gate_result *g,
			  const struct gate_rule_result *r,
			  gate_json_str_fn add_str)
{
	cJSON *x, *arr;

	add_str(o, "baseline_none", r->prior.have_base ? NULL :
		r->prior.why_none);
	if (!r->have_base_set) {
		cJSON_AddNullToObject(o, "movers");
		return;
	}
	x = cJSON_AddObjectToObject(o, "movers");
	add_str(x, "baseline", r->prior.base_version);
	cJSON_AddStringToObject(x, "from", gate_out_base_from(r));
	/* "pairs": the rule's pairs; "flipped_keys": a verdict rule's */
	cJSON_AddStringToObject(x, "among", r->verdict_only ? "flipped_keys" :
				"pairs");
	cJSON_AddNumberToObject(x, "common", (double)r->ncommon_base);
	cJSON_AddNumberToObject(x, "moved", (double)r->nmoved);
	if (isnan(r->max_increase))
		cJSON_AddNullToObject(x, "max_abs_err_increase");
	else
		cJSON_AddNumberToObject(x, "max_abs_err_increase",
					r->max_increase);
	arr = cJSON_AddArrayToObject(x, "points");
	for (size_t i = 0; i < r->nmovers; i++) {
		const struct gate_mover *m = &r->movers[i];
		const struct corr_point *p = &g->set->points[m->i];
		cJSON *e = cJSON_CreateObject();

		add_str(e, "workload", p->workload);
		add_str(e, "op", p->op);
		add_str(e, "metric", p->metric);
		cJSON_AddNumberToObject(e, "err_before", m->before);
		cJSON_AddNumberToObject(e, "err_after", p->err);
		cJSON_AddNumberToObject(e, "abs_err_change", m->change);
		cJSON_AddNumberToObject(e, "model", p->model);
		cJSON_AddNumberToObject(e, "ref", p->ref);
		cJSON_AddItemToArray(arr, e);
	}
}
