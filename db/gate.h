#ifndef PC_DB_GATE_H
#define PC_DB_GATE_H
/*
 * Gate evaluations: recording one evaluation (gate_evals + one
 * gate_rule_evals row per rule) and reading the history back, for
 * `gate --history`, `consecutive` and `max_mape_increase`. Every struct
 * returned owns its strings; free with the matching *_free.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

struct db_gate_eval {
	int64_t id;
	char *policy_name, *policy_hash;
	char *model_source, *model_version, *ref_source, *ref_version;
	char *model_runs, *ref_runs;	/* JSON arrays of run ids */
	char *verdict;			/* pass warn fail unknown (schema
					   8; before, unknown was warn) */
	char *evaluated_at, *evaluated_by;
	char *details;			/* JSON: the full result, or NULL */
	long npass, nwarn, nfail, nunknown;	/* rule counts (read side) */
};

struct db_gate_rule_eval {
	char *rule, *status;		/* pass warn fail unknown */
	int failed;			/* a limit was exceeded */
	double value, lim;		/* the first failed (else first) check */
	double mape;			/* the rule's MAPE (NaN when none) */
	long npairs, nwaived, nnoisy;
	char *message;			/* or NULL */
};

/* One earlier evaluation as seen by one rule (newest first). */
struct db_gate_hist {
	int64_t eval_id;
	char *model_version, *inputs;	/* inputs: "model_runs|ref_runs" */
	char *verdict;
	int have_rule;			/* the rule existed then */
	int failed;
	double mape;
	int unknown;			/* a rule said unknown (the verdict
					   is unknown, or was recorded as
					   warn before schema 8), other than
					   because it evaluated nothing (its
					   message "nothing evaluated...":
					   no baseline release) */
};

/* Record e and its n rules in one transaction; evaluated_at/by default
 * to now and $USER when NULL. *id_out (may be NULL) gets the id. */
int db_gate_record(struct db *db, const struct db_gate_eval *e,
		   const struct db_gate_rule_eval *r, size_t n,
		   int64_t *id_out);

/* Evaluations, newest first; policy_name NULL = every policy. */
int db_gate_evals(struct db *db, const char *policy_name,
		  struct db_gate_eval **out, size_t *n);
void db_gate_evals_free(struct db_gate_eval *e, size_t n);

/* The rules of one evaluation, in recorded order. */
int db_gate_rule_evals(struct db *db, int64_t eval_id,
		       struct db_gate_rule_eval **out, size_t *n);
void db_gate_rule_evals_free(struct db_gate_rule_eval *r, size_t n);

/* The history one rule sees: every evaluation of the policy for the same
 * model and reference sources, newest first. */
int db_gate_hist(struct db *db, const char *policy_name,
		 const char *model_source, const char *ref_source,
		 const char *rule, struct db_gate_hist **out, size_t *n);
void db_gate_hist_free(struct db_gate_hist *h, size_t n);

#endif
