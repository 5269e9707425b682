#ifndef PC_SRC_GATE_OUT_INT_H
#define PC_SRC_GATE_OUT_INT_H
/*
 * Shared between the gate's writers (gate_out.c, gate_out_junit.c,
 * gate_out_movers.c): pieces of the text report that JUnit repeats in a
 * testcase's body. Not for use outside src/gate/.
 */
struct cJSON;
struct strbuf;
struct gate_result;
struct gate_rule_result;

/* "PASS  name  n=24  max_mape 3.1% <= 8%; ..." and the coverage line of
 * an increase; names padded to width; colour when color. */
void gate_out_rule_line(struct strbuf *sb, const struct gate_rule_result *r,
			int width, int color);

/* "  worst points of 'R':" and one line per offending point. */
void gate_out_offenders(struct strbuf *sb, const struct gate_result *g,
			const struct gate_rule_result *r);

/* "baseline: archsim@2.4.0, the previous version in the database (...)":
 * one line per distinct baseline of the rules (naming the rules when
 * they differ). */
void gate_out_baseline(struct strbuf *sb, const struct gate_result *g);

/* "  moved since 2.4.0 in 'R' (24 pairs in common, ...):" and one line
 * per mover ("    W op metric: err -2.3% -> -17.1% (|err| +14.8 pp)"),
 * or one line saying nothing moved; nothing without a baseline. */
void gate_out_movers(struct strbuf *sb, const struct gate_result *g,
		     const struct gate_rule_result *r);

/* JSON strings through the caller's writer (invalid UTF-8 replaced). */
typedef void (*gate_json_str_fn)(struct cJSON *o, const char *k,
				 const char *v);

/* "movers": {baseline, from, common, points: [...]} on o, null without
 * a baseline release loaded; "baseline_none": why there is none (or
 * null). */
void gate_out_movers_json(struct cJSON *o, const struct gate_result *g,
			  const struct gate_rule_result *r,
			  gate_json_str_fn add_str);

/* "evaluation" (a recorded evaluation that passed) or "previous-version"
 * (the previous version in the database). */
const char *gate_out_base_from(const struct gate_rule_result *r);

#endif
