#ifndef PC_SRC_GATE_H
#define PC_SRC_GATE_H
/*
 * Gate evaluation: a policy's rules judged against the correlation core's
 * points and statistics, with waivers (accepted, unexpired annotations),
 * `consecutive` and `max_mape_increase` from the evaluation history.
 * No printing: outputs are in gate_out.h, recording in db/gate.h.
 * A gate_result borrows its policy and corr_set (both must outlive it)
 * and owns everything else.
 */
#include <stddef.h>

#include "src/corr/corr_sens.h"
#include "src/corr/corr_slo.h"
#include "src/gate/policy.h"
#include "src/stats/stats.h"
#include "src/stats/stats_change.h"
#include "src/gate/waiver.h"

struct corr_set;
struct corr_side;
struct db;
struct corr_point;
struct db_gate_hist;
struct strbuf;

/* UNKNOWN: a rule whose interval straddles its limit (docs/gate.md,
 * "Unknown"); a verdict of fail > unknown > warn > pass. */
enum gate_status { GATE_PASS, GATE_WARN, GATE_FAIL, GATE_UNKNOWN };

/* One limit of one rule, measured. */
struct gate_check {
	enum policy_limit lim;
	double value;		/* NaN when undefined or not applicable */
	double limit, limit_hi;	/* limit_hi only for slope_range */
	int failed;		/* the limit was exceeded (or undefined) */
	int na;			/* not applicable: no baseline release */
	const char *why;	/* reason for NaN / n/a; static text */
	int paired;		/* *_increase from the paired change on the
				   common points (rr->paired) */
	int significant;	/* p below the rule's significance, or no
				   significance asked */
	/* max_mape_increase with significance: the release-change test */
	double p_raw;		/* P(increase <= limit), NaN: no test */
	double p_adj;		/* after the policy's error control */
	int unknown;		/* neither above nor within the limit
				   beyond noise */
	long more_workloads;	/* unknown: about how many more would
				   decide it (-1: cannot tell) */
};

/* What the history says about one rule (see gate_prior). */
struct gate_prior {
	int streak;		/* earlier evaluations in a row that failed */
	int have_base;
	double base_mape;	/* MAPE at the baseline release (NaN when
				   base_prev: no evaluation recorded it) */
	char *base_version;	/* owned */
	int base_prev;		/* the baseline is the previous version in
				   the release order: no evaluation of this
				   policy passed for an earlier release, and
				   that version neither failed nor was
				   unknown in it (issue 35) */
	const char *why_none;	/* !have_base: why (static text) */
};

/* A pair whose |error| changed since the baseline release. */
struct gate_mover {
	size_t i;		/* index into set->points */
	double before;		/* the baseline release's error at the key */
	double change;		/* |error now| - |before| */
};

/* One flagged sweep of a rule's points (max_blind_knobs). */
struct gate_sweep {
	char *knob, *op, *metric, *fixed;	/* owned */
	enum corr_sens_flag flag;
	size_t n;			/* points along the knob */
	double e_model, e_ref, tau;
};

struct gate_rule_result {
	const struct policy_rule *rule;
	struct stats_summary sum;
	long nselected;		/* points the selector matched */
	long nwaived, nnoisy, ninvalid;
	struct gate_check checks[PL_COUNT];
	int nchecks;
	int failed;		/* some limit exceeded this evaluation */
	int coverage_failed;
	int streak;		/* failed evaluations in a row, this one
				   included (0 when it passed) */
	enum gate_status status;
	char *message;		/* the failed checks, one line */
	struct gate_prior prior;	/* owned copy */
	size_t *offenders, noffenders;	/* indexes into set->points */
	size_t *waived, nwaived_pts;	/* indexes into set->points */
	size_t *unwaived, nunwaived;	/* accepted, but no waiver (exceeded,
					   other version, ...): see g->wv */
	/* release to release (when the baseline release could be loaded):
	 * the paired change of |error| on the points common to both, and
	 * the coverage change */
	int have_paired;
	struct stats_change paired;	/* at level 1 - 2 significance (its
					   ends: one-sided tests), else 0.95 */
	int have_adj;		/* p_adj below holds the adjusted p */
	double p_adj;
	int unknown;		/* a check is unknown (counted as such) */
	long common, only_new, only_old;
	/* max_blind_knobs: the sweeps along the rule's points (selected,
	 * not waived; corr_sens_build_keep). have_sens 0: no sweep. */
	int have_sens;
	size_t nsweeps, nblind, nwrong;
	struct gate_sweep *sweeps;	/* the flagged ones, worst (largest
					   |e_model - e_ref|) first, at most
					   top */
	size_t nflagged_kept;
	long nbounded;		/* selected points a roofline bounds: 0
				   and max_sol_violations cannot apply */
	/* max_verdict_flips: the verdicts of the rule's points (selected,
	 * not waived) against the policy's slo (corr_slo_judge). have_slo
	 * 0: none of them has a limited metric, or slo_why (borrowed from
	 * the gate_result: the slo cannot judge these pairs) */
	int have_slo;
	const char *slo_why;
	struct corr_slo_counts slo;
	struct corr_slo_key *vkeys;	/* the flips (worst first), then the
					   near-limit keys: at most top each
					   (keys borrow the set's points) */
	size_t nvflips, nvnear;		/* of each, kept */
	int verdict_only;	/* max_verdict_flips is the rule's only limit
				   (min_pairs aside) and the slo resolved:
				   the rule counts its keys (slo.keys), not
				   its pairs: its n, its min_pairs (waived
				   keys of a limited metric too) and its
				   movers (the flipped keys) */
	long nvwaived;		/* verdict_only: waived points of a limited
				   metric */
	/* since the baseline release, when it could be loaded (any rule;
	 * gate_movers.h): the points the rule judges now (selected,
	 * usable, not waived) that the baseline also has usable */
	int have_base_set;
	double *base_err;	/* per point of set: the baseline's error at
				   the key, NaN when not in common */
	long ncommon_base;	/* points with a base_err */
	double max_increase;	/* largest |error| - |base_err| (NaN: none
				   in common): max_abs_err_increase */
	long nincrease_above;	/* those above max_abs_err_increase */
	struct gate_mover *movers;	/* the pairs that moved, largest
					   |change| first, at most top */
	size_t nmovers;
	long nmoved;		/* pairs in common whose error changed */
	/* calibration marks (issue 38 item 4; gate_calib_check): the
	 * rule's usable points the model was calibrated on, those held out;
	 * calib_only: it passed on all and fails, or has no point, held out
	 * (then WARN, calib_why says what the held-out points gave) */
	long ncalib, nheld;
	int calib_only;
	char *calib_why;
};

struct gate_result {
	const struct policy *policy;
	const struct corr_set *set;
	struct gate_rule_result *rules;
	size_t nrules;
	enum gate_status verdict;
	long npass, nwarn, nfail, nunknown;
	size_t ntests;		/* rules with a p-value (error control) */
	char today[11];
	struct waiver_verdict *wv;	/* per point of set */
	struct corr_slo slo;		/* the policy's slo resolved against
					   set (a rule has max_verdict_flips) */
	char *slo_why;			/* why it could not be, or NULL */
};

/* What an evaluation reads besides the points (gate_inputs_load). */
struct gate_inputs {
	struct gate_prior *priors;	/* one per rule, or NULL */
	char **versions;		/* model source, release order */
	size_t nversions;
	struct corr_set **base;		/* per rule: the baseline release
					   against the same reference, or
					   NULL (shared between rules) */
	size_t nrules;
};

/* "pass" "warn" "fail" "unknown" and "PASS" "WARN" "FAIL" "UNKNOWN". */
const char *gate_status_name(enum gate_status s);
const char *gate_status_label(enum gate_status s);

/* Judge one rule from its statistics and history: fills checks, failed,
 * coverage_failed, streak, status and message of rr (rr->rule set by the
 * caller). A failure counts only after rule->consecutive failed
 * evaluations in a row (earlier ones: WARN); coverage fails at once. */
void gate_judge(struct gate_rule_result *rr, const struct stats_summary *s,
		const struct gate_prior *prior);

/* Append "max_mape 18.3% > 15%" (or "<=", "n/a (why)") for c to sb. */
void gate_check_text(const struct gate_check *c, struct strbuf *sb);

/* The same, with the paired interval and p-value of rr's *_increase. */
void gate_check_text_of(const struct gate_rule_result *rr,
			const struct gate_check *c, struct strbuf *sb);

/* Adjusted p-values adj[0..n) of p[0..n) (none NaN): Holm's step-down
 * (family-wise), Benjamini-Hochberg's step-up (false discovery) or a
 * copy. */
void gate_adjust(const double *p, size_t n, enum policy_error_control ec,
		 double *adj);

/* The error control over the rules of g (judged once): their raw
 * p-values adjusted with g->policy->error_control, each such rule
 * judged again with its adjusted p. Sets g->ntests. */
void gate_control(struct gate_result *g);

/* What the rule counted: its keys judged against the slo for a
 * verdict_only rule, else its pairs (sum.n); the "n=" of its line. */
long gate_rule_n(const struct gate_rule_result *r);

/* Verdict and counts from the rules' statuses. */
void gate_verdict(struct gate_result *g);

/* 1 when the rule's selector matches the point. */
int gate_selects(const struct policy_rule *r, const struct corr_point *p);

/* gate_selects of every point of set, once: a new array of set->n
 * bytes (the evaluation reads a rule's selection five times a point). */
unsigned char *gate_select_map(const struct policy_rule *r,
			       const struct corr_set *set);

/* 1 when p's current annotation is `accepted` and not expired on today
 * ("YYYY-MM-DD"; the expiry day itself is still waived). Status and
 * expiry only: the gate itself judges waivers with waiver_judge. */
int gate_waived(const struct corr_point *p, const char *today);

/* 1 when point i of g's set is waived (waiver_judge said WAIVER_OK). */
int gate_point_waived(const struct gate_result *g, size_t i);

/* The prior of a rule from its history rows (newest first): the streak
 * of failed earlier evaluations, ignoring re-evaluations of identical
 * inputs (inputs = "model_runs|ref_runs"), and the baseline: the newest
 * passing (pass or warn) evaluation of a model version released before
 * version (versions: release order); without one, the previous version
 * in the release order (base_prev) unless an evaluation of it failed or
 * was unknown; else why_none says why there is none (gate_prior.c).
 * Fills *out (caller releases). */
void gate_prior_compute(struct gate_prior *out, const struct db_gate_hist *h,
			size_t n, const char *inputs, const char *version,
			char *const *versions, size_t nversions);
void gate_prior_release(struct gate_prior *p);

/* The runs of a side as a JSON array "[3,4]"; caller frees. */
char *gate_runs_json(const struct corr_side *s);

/* One prior per rule of p (pr: p->nrules, zeroed) from the evaluations
 * recorded in db for set's model and reference sources; release each
 * with gate_prior_release. Reads only. */
int gate_priors_load(struct db *db, const struct policy *p,
		     const struct corr_set *set, struct gate_prior *pr);

/* Everything gate_evaluate reads from db: the priors, the model's
 * release order and each rule's baseline release paired with set's
 * reference version (a baseline that cannot be loaded any more is NULL:
 * the increase then falls back to the recorded MAPE). Reads only.
 * Release with gate_inputs_release. */
int gate_inputs_load(struct gate_inputs *in, struct db *db,
		     const struct policy *p, const struct corr_set *set);
void gate_inputs_release(struct gate_inputs *in);

/* Evaluate every rule of p over set. in (may be NULL: no history, no
 * release order) comes from gate_inputs_load; today is "YYYY-MM-DD"
 * (NULL = now); top bounds the offending points kept per rule. Caller
 * frees. */
int gate_evaluate(struct gate_result **out, const struct policy *p,
		  const struct corr_set *set, const struct gate_inputs *in,
		  const char *today, size_t top);
void gate_result_free(struct gate_result *g);

/* Calibration honesty (src/gate/gate_calib.c): set (full points, the
 * CORR_CALIBRATION flags applied: corr_calib_apply) is g's. Every rule
 * that passes and selects calibration points is judged again on its
 * held-out points alone (the limits of a release's history do not
 * apply); one that fails there, or has none there, passes only on
 * calibration points: WARN with calib_why, the verdict recomputed. */
int gate_calib_check(struct gate_result *g);

#endif
