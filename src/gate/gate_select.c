/* A rule's selector against points (see gate.h: gate_selects,
 * gate_select_map), out of gate.c. */
#include "src/gate/gate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "db/wkey.h"
#include "src/corr/correlate.h"

static int params_match(const struct policy_rule *r, const char *workload)
{
	struct wkey k;
	int ok = 1;

	if (!r->nparams)
		return 1;
	wkey_init(&k);
	if (!workload || wkey_parse(&k, workload) < 0)
		ok = 0;
	for (size_t i = 0; ok && i < r->nparams; i++) {
		const char *v = wkey_get(&k, r->param_names[i]);

		ok = v && !strcmp(v, r->param_values[i]);
	}
	wkey_release(&k);
	return ok;
}

/* The parts of the selector: the op's (its glob and its class's) and
 * the workload's (its glob and the parameters). */
static int op_selects(const struct policy_rule *r, const struct corr_point *p)
{
	if (r->op_glob && (!p->op || !util_glob(r->op_glob, p->op)))
		return 0;
	return !r->op_class_glob || (p->op_class &&
				     util_glob(r->op_class_glob, p->op_class));
}

static int wl_selects(const struct policy_rule *r, const struct corr_point *p)
{
	if (r->workload_glob && (!p->workload ||
				 !util_glob(r->workload_glob, p->workload)))
		return 0;
	return params_match(r, p->workload);
}

int gate_selects(const struct policy_rule *r, const struct corr_point *p)
{
	if (r->metric && (!p->metric || strcmp(r->metric, p->metric)))
		return 0;
	return op_selects(r, p) && wl_selects(r, p);
}

/* A memo of one part of the selector by the point's op or workload id
 * (a set's points of one id share its names): 0 not known yet, 1 no,
 * 2 yes; NULL (no memo) when the part is trivial or an id is out of
 * [0, 2^26). */
#define MEMO_MAX_ID ((int64_t)1 << 26)
static unsigned char *memo_new(const struct corr_set *set, int op)
{
	int64_t max = -1;

	for (size_t i = 0; i < set->n; i++) {
		int64_t id = op ? set->points[i].op_id :
				  set->points[i].workload_id;

		if (id < 0 || id >= MEMO_MAX_ID)
			return NULL;
		if (id > max)
			max = id;
	}
	return xcalloc((size_t)max + 2, 1);
}

static int memo_part(unsigned char *memo, int64_t id,
		     int (*part)(const struct policy_rule *,
				 const struct corr_point *),
		     const struct policy_rule *r, const struct corr_point *p)
{
	if (!memo)
		return part(r, p);
	if (!memo[id])
		memo[id] = (unsigned char)(1 + part(r, p));
	return memo[id] == 2;
}

unsigned char *gate_select_map(const struct policy_rule *r,
			       const struct corr_set *set)
{
	unsigned char *m = xmalloc(set->n + 1);
	unsigned char *om = r->op_glob || r->op_class_glob ?
			    memo_new(set, 1) : NULL;
	unsigned char *wm = r->workload_glob || r->nparams ?
			    memo_new(set, 0) : NULL;

	for (size_t i = 0; i < set->n; i++) {
		const struct corr_point *p = &set->points[i];

		m[i] = (!r->metric || (p->metric &&
				       !strcmp(r->metric, p->metric))) &&
		       memo_part(om, p->op_id, op_selects, r, p) &&
		       memo_part(wm, p->workload_id, wl_selects, r, p);
	}
	free(om);
	free(wm);
	return m;
}
