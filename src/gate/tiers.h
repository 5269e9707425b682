#ifndef PC_SRC_GATE_TIERS_H
#define PC_SRC_GATE_TIERS_H
/*
 * Accuracy against cost per tier (issue 38 item 5; docs/statistics.md,
 * "Accuracy against cost per tier"): every source of a kind below the
 * reference's on the ladder roofline < perfsim < rtl < emulation <
 * silicon, each at its latest version (or as named), paired with the
 * reference; per workload class (a group key, op_class by default) its
 * error, its cost per workload (runs.cost over the run's workloads) and,
 * under a policy, whether it meets the policy's limits (the gate's rules
 * evaluated on the class's points); and per class the cheapest tier
 * that meets them, "unknown" where a cheaper tier has too few points to
 * decide. A roofline tier is a bound, not a prediction: its cells say
 * the fraction of speed of light the reference reaches and the pairs
 * that beat it (corr_roof_fraction, the core's SoL flags), never an
 * error against a limit, and it is never the cheapest. Ownership: a struct tiers owns everything in it, the sets
 * included; the policy is borrowed.
 */
#include <stddef.h>

#include "src/stats/stats.h"

struct db;
struct policy;
struct corr_set;
struct strbuf;

/* Fewer usable points than this in a class: no verdict (unknown). */
#define TIERS_MIN_POINTS 3

enum tiers_status {
	TIERS_NOLIMIT,		/* no policy, or no rule selects the points */
	TIERS_MEETS,
	TIERS_FAILS,
	TIERS_UNKNOWN,		/* too few points, or a check undecided */
	TIERS_BOUND,		/* a roofline: a bound, not a prediction;
				   graded as one, never the cheapest */
};

struct tiers_opts {
	const char *ref;		/* SRC[@V] (required) */
	const char *const *sources;	/* SRC[@V], NULL-terminated; NULL:
					   every source ranked below ref */
	const char *class_by;		/* group key; NULL: "op_class" */
	const char *metric;		/* NULL: every metric */
	const struct policy *policy;	/* NULL: no limits */
	long min_points;		/* 0: TIERS_MIN_POINTS */
	const char *const *allow_mismatch;	/* NULL: the policy's */
};

struct tiers_cost {
	double per_workload;	/* mean over the workloads of its run's
				   cost / the run's workload count; NaN:
				   unknown (see the counts) */
	const char *unit;	/* "s", "core-h", "emu-h", "gpu-h"; static */
	long runs, uncosted;	/* runs behind the points, those without */
	int mixed;		/* the runs' costs are in different units */
};

struct tiers_cell {
	long npoints;		/* the class's pairs (0: none; not shown) */
	struct stats_summary sum;	/* as compare (noisy, invalid left
					   out) */
	struct tiers_cost cost;
	enum tiers_status status;
	char *why;		/* failed or undecided checks, warnings */
	/* a roofline tier (status TIERS_BOUND) is graded as a bound, as
	 * compare, matrix and the TUI grade one: */
	double sol;		/* the fraction of speed of light the
				   reference reaches: the geometric mean of
				   corr_roof_fraction over the pairs in
				   sum (NaN: none) */
	long over;		/* pairs whose reference beats the bound
				   (sum.sol_violations) */
};

struct tiers_tier {
	char *source, *version, *kind;
	int rank;		/* 0 roofline .. 4 silicon */
	struct corr_set *set;	/* NULL: nothing paired (why) */
	char *why;
	struct tiers_cost cost;	/* over every class */
};

struct tiers_class {
	char *name;
	struct tiers_cell *cells;	/* one per tier */
	struct tiers_cost ref_cost;
	/* the cheapest tier meeting the limits: status MEETS (cheapest
	 * it), UNKNOWN (a cheaper tier is undecided; cheapest the first
	 * that meets, or -1), FAILS (none meets: the reference itself),
	 * NOLIMIT (no policy or no rule selects the class) */
	enum tiers_status cheap;
	long cheapest;
	char *cheap_why;
	int by_cost;		/* ordered by measured cost (else the
				   ladder) */
};

struct tiers {
	char *ref_source, *ref_version, *ref_kind;
	char *class_by;
	long min_points;
	int has_policy;
	struct tiers_tier *tiers;	/* ladder order, then name */
	size_t ntiers;
	struct tiers_class *classes;	/* by name */
	size_t nclasses;
};

/* Build the table (reads db). No tier below the reference is
 * PC_ENOTFOUND saying what exists; a class_by no point has is
 * PC_EINVALID. Release with tiers_release. */
int tiers_build(struct tiers *out, struct db *db, const struct tiers_opts *o);
void tiers_release(struct tiers *t);

/* The table as one JSON object (src/gate/tiers_out.c); policy names
 * the policy (NULL: none). */
void tiers_json(struct strbuf *sb, const struct tiers *t, const char *policy);

/* Grade cell (the pairs of sub, a roofline tier's class; sum filled) as
 * a bound: status TIERS_BOUND, sol, over and the why naming source.
 * src/gate/tiers_bound.c */
void tiers_grade_bound(struct tiers_cell *cell, const struct corr_set *sub,
		       const char *source);

/* A bound's two columns where a prediction has MAPE and bias: "52.5%
 * SoL" (the fraction of speed of light; "- SoL" when none) and "3 over"
 * (the pairs that beat it). src/gate/tiers_bound.c */
void tiers_bound_text(const struct tiers_cell *x, char *sol, size_t sl,
		      char *over, size_t ol);

/* "meets" "fails" "unknown" "bound" "-" (no limit). */
const char *tiers_status_name(enum tiers_status s);
/* The rank of a source kind on the ladder (0 roofline .. 4 silicon; 5
 * unknown). */
int tiers_rank(const char *kind);

#endif
