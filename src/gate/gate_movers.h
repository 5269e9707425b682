#ifndef PC_SRC_GATE_MOVERS_H
#define PC_SRC_GATE_MOVERS_H
/*
 * A rule's points against the baseline release (issue 35 item 7): the
 * change of each common pair's |error|, for the movers every rule lists
 * and for max_abs_err_increase. gate_eval.c calls it; no printing.
 */
#include <stddef.h>

struct corr_set;
struct gate_result;
struct gate_rule_result;

/* Fill rr's base_err, ncommon_base, max_increase, nincrease_above and
 * movers (at most top, the pairs whose |error| changed, largest
 * |change| first; ties by the key) from base, the baseline release paired
 * with the same reference. The points are those the rule judges now
 * (selected: map, not noisy, not invalid, error defined, not waived) that
 * base also has (selected: bmap, usable); map and bmap are the rule's
 * gate_select_map of g->set and of base. */
void gate_movers(struct gate_rule_result *rr, const struct gate_result *g,
		 const struct corr_set *base, const unsigned char *map,
		 const unsigned char *bmap, size_t top);

/* The increase of point i's |error| since the baseline (NaN when it is
 * not in common). */
double gate_increase_at(const struct gate_rule_result *rr, size_t i,
			const struct gate_result *g);

#endif
