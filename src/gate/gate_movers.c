/* A rule's points against the baseline release (see gate_movers.h). */
#include "src/gate/gate_movers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/correlate.h"
#include "src/gate/gate.h"

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

double gate_increase_at(const struct gate_rule_result *rr, size_t i,
			const struct gate_result *g)
{
	if (!rr->have_base_set || i >= g->set->n || isnan(rr->base_err[i]))
		return NAN;
	return fabs(g->set->points[i].err) - fabs(rr->base_err[i]);
}

static const struct corr_set *cmp_set;

/* Largest |change| first; then the larger change of the signed error;
 * then the key, so that the order never depends on the sort. */
static int cmp_mover(const void *a, const void *b)
{
	const struct gate_mover *x = a, *y = b;
	const struct corr_point *p = &cmp_set->points[x->i];
	const struct corr_point *q = &cmp_set->points[y->i];
	double dx = fabs(x->change), dy = fabs(y->change);
	double sx = fabs(p->err - x->before), sy = fabs(q->err - y->before);
	int c;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if (sx != sy)
		return sx > sy ? -1 : 1;
	if ((c = strcmp(p->workload ? p->workload : "", q->workload ?
			q->workload : "")) ||
	    (c = strcmp(p->op ? p->op : "", q->op ? q->op : "")))
		return c;
	return strcmp(p->metric ? p->metric : "", q->metric ? q->metric : "");
}

/* Mover m into best, the first *n (at most top) in cmp_mover's order:
 * the first top of a stable sort of every mover, without the sort. */
static void keep_best(struct gate_mover *best, size_t *n, size_t top,
		      struct gate_mover m)
{
	size_t k = *n;

	if (k == top && (!top || cmp_mover(&m, &best[top - 1]) >= 0))
		return;
	if (k < top)
		(*n)++;
	else
		k--;
	for (; k > 0 && cmp_mover(&m, &best[k - 1]) < 0; k--)
		best[k] = best[k - 1];
	best[k] = m;
}

void gate_movers(struct gate_rule_result *rr, const struct gate_result *g,
		 const struct corr_set *base, const unsigned char *map,
		 const unsigned char *bmap, size_t top)
{
	const struct corr_set *set = g->set;
	const struct policy_rule *r = rr->rule;
	double lim = r->lim[PL_MAX_ABS_ERR_INCREASE];
	struct gate_mover *best = xcalloc(top + 1, sizeof(*best));
	struct strbuf sb = STRBUF_INIT;
	struct hmap ix;
	size_t n = 0, nbest = 0;

	hmap_init(&ix);
	cmp_set = set;
	for (size_t j = 0; j < base->n; j++) {
		if (!bmap[j] || !usable(&base->points[j]))
			continue;
		key_of(&sb, &base->points[j]);
		hmap_put(&ix, strbuf_str(&sb), (int64_t)j);
	}
	free(rr->base_err);
	rr->base_err = xcalloc(set->n + 1, sizeof(double));
	rr->have_base_set = 1;
	rr->ncommon_base = rr->nincrease_above = 0;
	rr->max_increase = NAN;
	for (size_t i = 0; i < set->n; i++) {
		const struct corr_point *p = &set->points[i];
		int64_t j;
		double d;

		rr->base_err[i] = NAN;
		if (!map[i] || !usable(p) || gate_point_waived(g, i))
			continue;
		key_of(&sb, p);
		if (!hmap_get(&ix, strbuf_str(&sb), &j))
			continue;
		rr->base_err[i] = base->points[j].err;
		rr->ncommon_base++;
		d = fabs(p->err) - fabs(base->points[j].err);
		if (isnan(rr->max_increase) || d > rr->max_increase)
			rr->max_increase = d;
		if ((r->has & (1u << PL_MAX_ABS_ERR_INCREASE)) &&
		    d > lim + 1e-12)
			rr->nincrease_above++;
		/* a pair whose |error| did not change did not move */
		if (fabs(d) > 1e-12 || fabs(p->err - base->points[j].err) >
		    1e-12) {
			n++;
			keep_best(best, &nbest, top, (struct gate_mover){
					  i, base->points[j].err, d });
		}
	}
	cmp_set = NULL;
	free(rr->movers);
	rr->nmoved = (long)n;
	rr->nmovers = nbest;
	rr->movers = best;
	hmap_release(&ix);
	strbuf_release(&sb);
}
