#ifndef PC_SRC_POLICY_H
#define PC_SRC_POLICY_H
/*
 * Gate policies: a JSON file naming the model and reference sources and a
 * list of rules (selector + limits + severity), parsed strictly: unknown
 * keys, wrong types and impossible limits are PC_EINVALID with a message
 * "FILE:LINE: PATH: problem" (PATH like rules[2].max_mape). The format is
 * documented in docs/gate.md. A struct policy owns every string in it.
 */
#include <stddef.h>

#include "src/corr/corr_slo.h"
#include "src/gate/waiver.h"

enum policy_limit {
	PL_MIN_PAIRS,		/* coverage; always checked (default 1) */
	PL_MAX_MAPE,
	PL_MAX_ABS_ERR,		/* every single point */
	PL_MAX_P95_ABS_ERR,
	PL_MAX_BIAS,		/* |bias| */
	PL_MIN_PEARSON,
	PL_MIN_SPEARMAN,
	PL_MIN_KENDALL,
	PL_SLOPE_RANGE,		/* lim = low end, slope_hi = high end */
	PL_MAX_NRMSE,
	PL_MAX_SOL_VIOLATIONS,
	PL_MAX_MAPE_INCREASE,	/* vs the last passing earlier release */
	PL_MAX_ABS_ERR_INCREASE,	/* per pair: |error| growth since the
					   baseline release (issue 35) */
	PL_MAX_BLIND_KNOBS,	/* sweeps flagged blind or wrong direction
				   (corr_sens.h) */
	PL_MAX_VERDICT_FLIPS,	/* keys whose verdict against the policy's
				   slo flips (corr_slo.h) */
	PL_COUNT
};

enum policy_severity { POLICY_FAIL, POLICY_WARN };

/* How the gate controls its errors over the rules that have a p-value
 * (docs/gate.md, "Error control"): Holm (the family-wise rate, the
 * default), Benjamini-Hochberg (the false-discovery rate) or none. */
enum policy_error_control { PEC_HOLM, PEC_BH, PEC_NONE };

/* What an `unknown` rule (its interval straddles its limit) counts as:
 * unknown (the default: exit 3), fail or pass. */
enum policy_unknown { PU_UNKNOWN, PU_FAIL, PU_PASS };

struct policy_rule {
	char *name;
	char *description;		/* or NULL */
	char *metric;			/* exact; NULL = any */
	char *op_glob, *op_class_glob, *workload_glob;	/* NULL = any */
	char **param_names, **param_values;	/* canonical names */
	size_t nparams;
	enum policy_severity severity;
	int consecutive;		/* >= 1 */
	unsigned has;			/* 1 << enum policy_limit */
	double lim[PL_COUNT];
	double slope_hi;
	double significance;		/* *_increase: fail only when p is
					   below it; NaN = not asked */
	int line;			/* line of the rule in the file */
	enum policy_unknown unknown_as;	/* the policy's "unknown" */
};

struct policy {
	char *name;
	char *description;		/* or NULL */
	char *model, *ref;		/* "SRC[@VERSION]" or NULL */
	double max_ref_cv;		/* default 0.30 */
	char **allow_mismatch;		/* "allow_mismatch": fingerprint
					   fields, NULL-terminated, or NULL
					   (issue 37) */
	enum policy_error_control error_control;	/* "error_control" */
	enum policy_unknown unknown_as;	/* "unknown" */
	struct waiver_rules waivers;	/* waiver_tolerance, waivers.* */
	struct corr_slo slo;		/* "slo": limits (n 0: none) */
	struct policy_rule *rules;
	size_t nrules;
	char hash[65];			/* sha256 of the file's bytes */
	char *file;			/* the path it was read from */
};

/* Parse len bytes of policy JSON; file names the source in messages.
 * Returns 0 or PC_EINVALID with the message set; caller frees *out. */
int policy_parse(struct policy **out, const char *text, size_t len,
		 const char *file);

/* Read and parse the file at path (PC_EIO when unreadable). */
int policy_load(struct policy **out, const char *path);

void policy_free(struct policy *p);

/* "holm" "bh" "none"; "unknown" "fail" "pass". */
const char *policy_error_control_name(enum policy_error_control e);
const char *policy_unknown_name(enum policy_unknown u);

/* "max_mape" ... by limit; "min_pairs" for PL_MIN_PAIRS. */
const char *policy_limit_name(enum policy_limit l);

/* 1 when the limit's values are errors (fractions shown as percent). */
int policy_limit_is_fraction(enum policy_limit l);

/* 1 when a value passes when it is at least the limit (min_*). */
int policy_limit_is_min(enum policy_limit l);

/* The largest min_pairs a rule of p sets explicitly (0: none, or p NULL):
 * a summary over fewer pairs is marked "few pairs" (report, TUI). */
long policy_min_pairs(const struct policy *p);

#endif
