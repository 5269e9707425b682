#ifndef PC_SRC_REPORT_GATE_H
#define PC_SRC_REPORT_GATE_H
/*
 * The gate verdict shown in a report (`report --policy FILE`): evaluates
 * the policy over the report's corr_set without recording anything.
 * Kept apart from report.c so the gate is the only thing it depends on.
 */
struct db;
struct report;

/* Load r->opts.policy into r->policy and r->min_pairs (once; before the
 * summaries, whose "few pairs" rows print an interval). An error like
 * report_gate's. */
int report_gate_load(struct report *r);
void report_gate_free(struct report *r);

/* Fill r->gate_text and r->gate_verdict from r->opts.policy. A policy
 * that cannot be read or parsed is an error (PC_EINVALID, PC_EIO). */
int report_gate(struct report *r, struct db *db);

#endif
