/* Gate outputs of max_blind_knobs: the flagged sweeps (gate_out_sens.h). */
#include "src/gate/gate_out_sens.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_sens.h"
#include "src/gate/gate.h"

static void add_safe(struct strbuf *sb, const char *s)
{
	char *p = util_safe_dup(s ? s : "");

	strbuf_addstr(sb, p);
	free(p);
}

/* The flagged sweeps of a rule with max_blind_knobs (pass or not):
 * "    blind           bs attn time m/decode/seq=512: elasticity ...". */
void gate_out_sweeps(struct strbuf *sb, const struct gate_rule_result *r)
{
	size_t nf = r->nblind + r->nwrong;

	if (!r->nflagged_kept)
		return;
	strbuf_addstr(sb, "  flagged sweeps of '");
	add_safe(sb, r->rule->name);
	strbuf_addf(sb, "' (%zu blind, %zu wrong direction, of %zu "
		    "sweeps):\n", r->nblind, r->nwrong, r->nsweeps);
	for (size_t i = 0; i < r->nflagged_kept; i++) {
		const struct gate_sweep *w = &r->sweeps[i];

		strbuf_addf(sb, "    %-15s ", corr_sens_flag_name(w->flag));
		add_safe(sb, w->knob);
		strbuf_addch(sb, ' ');
		add_safe(sb, w->op);
		strbuf_addch(sb, ' ');
		add_safe(sb, w->metric);
		strbuf_addch(sb, ' ');
		add_safe(sb, w->fixed);
		strbuf_addf(sb, ": elasticity model %+.3f, reference %+.3f "
			    "over %zu points\n", w->e_model, w->e_ref, w->n);
	}
	if (nf > r->nflagged_kept)
		strbuf_addf(sb, "    ... and %zu more (--top)\n",
			    nf - r->nflagged_kept);
}

/* max_blind_knobs: the sweeps' counts and the flagged ones listed (null
 * when the rule's points hold no sweep). */
void gate_out_sweeps_json(struct cJSON *o, const struct gate_rule_result *r,
			  gate_add_str_fn add_str)
{
	cJSON *x, *arr;

	if (!(r->rule->has & (1u << PL_MAX_BLIND_KNOBS)))
		return;
	if (!r->have_sens) {
		cJSON_AddNullToObject(o, "sensitivity");
		return;
	}
	x = cJSON_AddObjectToObject(o, "sensitivity");
	cJSON_AddNumberToObject(x, "sweeps", (double)r->nsweeps);
	cJSON_AddNumberToObject(x, "blind", (double)r->nblind);
	cJSON_AddNumberToObject(x, "wrong_direction", (double)r->nwrong);
	arr = cJSON_AddArrayToObject(x, "flagged");
	for (size_t i = 0; i < r->nflagged_kept; i++) {
		const struct gate_sweep *w = &r->sweeps[i];
		cJSON *e = cJSON_CreateObject();

		add_str(e, "knob", w->knob);
		add_str(e, "op", w->op);
		add_str(e, "metric", w->metric);
		add_str(e, "fixed", w->fixed);
		cJSON_AddStringToObject(e, "flag", corr_sens_flag_name(w->flag));
		cJSON_AddNumberToObject(e, "points", (double)w->n);
		cJSON_AddNumberToObject(e, "e_model", w->e_model);
		cJSON_AddNumberToObject(e, "e_ref", w->e_ref);
		cJSON_AddNumberToObject(e, "tau", w->tau);
		cJSON_AddItemToArray(arr, e);
	}
}
