#ifndef PC_SRC_GATE_OUT_SENS_H
#define PC_SRC_GATE_OUT_SENS_H
/*
 * The flagged sweeps of a rule with max_blind_knobs (issue 38 item 3) in
 * the gate's text (and JUnit body) and JSON; gate_out.c calls these.
 */
struct cJSON;
struct strbuf;
struct gate_rule_result;

/* JSON strings go through the caller's writer (invalid UTF-8 replaced). */
typedef void (*gate_add_str_fn)(struct cJSON *o, const char *k,
				const char *v);

/* "  flagged sweeps of 'R' (B blind, W wrong direction, of N sweeps):"
 * and one line per kept sweep; nothing when none is flagged. */
void gate_out_sweeps(struct strbuf *sb, const struct gate_rule_result *r);

/* "sensitivity": {sweeps, blind, wrong_direction, flagged: [...]} on o,
 * null when the rule's points hold no sweep; nothing for a rule without
 * max_blind_knobs (its JSON stays as it was). */
void gate_out_sweeps_json(struct cJSON *o, const struct gate_rule_result *r,
			  gate_add_str_fn add_str);

#endif
