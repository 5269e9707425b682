/* Gate outputs of max_verdict_flips (gate_out_slo.h). */
#include "src/gate/gate_out_slo.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "base/strbuf.h"
#include "base/units.h"
#include "base/util.h"
#include "src/corr/corr_slo.h"
#include "src/corr/correlate.h"
#include "src/gate/gate.h"

static void add_safe(struct strbuf *sb, const char *s)
{
	char *p = util_safe_dup(s ? s : "");

	strbuf_addstr(sb, p);
	free(p);
}

static void key_line(struct strbuf *sb, const struct gate_result *g,
		     const struct corr_slo_key *k, const char *what)
{
	const struct corr_point *p = k->p;
	const char *u = corr_metric_unit(g->set, p->metric);
	char mv[48], rv[48];

	units_fmt(mv, sizeof(mv), p->model, u, 0);
	units_fmt(rv, sizeof(rv), p->ref, u, 0);
	strbuf_addf(sb, "    %-30s ", what);
	add_safe(sb, p->workload);
	strbuf_addch(sb, ' ');
	add_safe(sb, p->op);
	strbuf_addch(sb, ' ');
	add_safe(sb, p->metric);
	strbuf_addf(sb, ": model %s (%+.1f%% of the limit), reference %s "
		    "(%+.1f%%)\n", mv, 100 * k->model_margin, rv,
		    100 * k->ref_margin);
}

void gate_out_verdicts(struct strbuf *sb, const struct gate_result *g,
		       const struct gate_rule_result *r)
{
	const struct corr_slo_counts *c = &r->slo;
	long flips = c->cell[SLO_MODEL_MEETS] + c->cell[SLO_MODEL_MISSES];

	if (!(r->rule->has & (1u << PL_MAX_VERDICT_FLIPS)) || !r->have_slo)
		return;
	strbuf_addstr(sb, "  verdicts of '");
	add_safe(sb, r->rule->name);
	strbuf_addf(sb, "' against the slo (%ld keys: %ld both meet, %ld both "
		    "miss, %ld flips, %ld near the limit):\n", c->keys,
		    c->cell[SLO_BOTH_MEET], c->cell[SLO_BOTH_MISS], flips,
		    c->cell[SLO_NEAR]);
	for (size_t i = 0; i < r->nvflips; i++)
		key_line(sb, g, &r->vkeys[i],
			 corr_slo_cell_name(r->vkeys[i].cell));
	if ((size_t)flips > r->nvflips)
		strbuf_addf(sb, "    ... and %zu more flips (--top)\n",
			    (size_t)flips - r->nvflips);
	for (size_t i = 0; i < r->nvnear; i++)
		key_line(sb, g, &r->vkeys[r->nvflips + i], r->vkeys[r->nvflips +
			 i].model_meets ? "near the limit, model meets" :
			 "near the limit, model misses");
	if ((size_t)c->cell[SLO_NEAR] > r->nvnear)
		strbuf_addf(sb, "    ... and %zu more near the limit (--top)\n",
			    (size_t)c->cell[SLO_NEAR] - r->nvnear);
}

static cJSON *key_json(const struct corr_slo_key *k, gate_add_str_fn add_str)
{
	cJSON *e = cJSON_CreateObject();

	add_str(e, "workload", k->p->workload);
	add_str(e, "op", k->p->op);
	add_str(e, "metric", k->p->metric);
	cJSON_AddNumberToObject(e, "model", k->p->model);
	cJSON_AddNumberToObject(e, "ref", k->p->ref);
	cJSON_AddNumberToObject(e, "model_margin", k->model_margin);
	cJSON_AddNumberToObject(e, "ref_margin", k->ref_margin);
	cJSON_AddStringToObject(e, "verdict", corr_slo_cell_name(k->cell));
	return e;
}

void gate_out_verdicts_json(struct cJSON *o,
			    const struct gate_rule_result *r,
			    gate_add_str_fn add_str)
{
	static const char *const names[SLO_NCELLS] = {
		"both_meet", "both_miss", "model_meets_ref_misses",
		"model_misses_ref_meets", "near_limit",
	};
	cJSON *x, *arr;

	if (!(r->rule->has & (1u << PL_MAX_VERDICT_FLIPS)))
		return;
	if (!r->have_slo) {
		cJSON_AddNullToObject(o, "verdicts");
		return;
	}
	x = cJSON_AddObjectToObject(o, "verdicts");
	cJSON_AddNumberToObject(x, "keys", (double)r->slo.keys);
	for (int i = 0; i < SLO_NCELLS; i++)
		cJSON_AddNumberToObject(x, names[i], (double)r->slo.cell[i]);
	cJSON_AddNumberToObject(x, "no_spread", (double)r->slo.no_spread);
	arr = cJSON_AddArrayToObject(x, "flipped");
	for (size_t i = 0; i < r->nvflips; i++)
		cJSON_AddItemToArray(arr, key_json(&r->vkeys[i], add_str));
	arr = cJSON_AddArrayToObject(x, "near");
	for (size_t i = 0; i < r->nvnear; i++)
		cJSON_AddItemToArray(arr, key_json(&r->vkeys[r->nvflips + i],
						   add_str));
}
