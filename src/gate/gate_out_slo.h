#ifndef PC_SRC_GATE_OUT_SLO_H
#define PC_SRC_GATE_OUT_SLO_H
/*
 * The verdicts of a rule with max_verdict_flips (issue 38 item 1) in the
 * gate's text (and JUnit body) and JSON: its confusion counts, the keys
 * whose verdict flips and those near the limit. gate_out.c calls these.
 */
#include "src/gate/gate_out_sens.h"

struct strbuf;
struct gate_result;
struct gate_rule_result;

/* "  verdicts of 'R' against the slo (N keys: ...):" and one line per
 * kept flip and near key; nothing for a rule without the limit or
 * without a judged key. */
void gate_out_verdicts(struct strbuf *sb, const struct gate_result *g,
		       const struct gate_rule_result *r);

/* "verdicts": {keys, both_meet, ..., flipped: [...], near: [...]} on o,
 * null when none of the rule's pairs has a limited metric; nothing for a
 * rule without max_verdict_flips. */
void gate_out_verdicts_json(struct cJSON *o,
			    const struct gate_rule_result *r,
			    gate_add_str_fn add_str);

#endif
