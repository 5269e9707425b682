#ifndef PC_SRC_REPORT_MODEL_H
#define PC_SRC_REPORT_MODEL_H
/*
 * The report model (struct report, built by report.c) and the small
 * helpers every section reads and formats it with: discrepancy, status,
 * unit, number formats, markdown escaping. The bottom of src/report/:
 * the sections (report_tables.c, report_prev.c, report_matrix.c,
 * report_gate.c, report_fig.c) include this, never report.h, so report.c
 * may call them without a circle (issue 33).
 */
#include <stddef.h>
#include <stdint.h>

#include "db/review.h"
#include "src/stats/stats.h"

struct corr_cpd;
struct corr_set;
struct corr_point;
struct runinfo;
struct matrix;
struct strbuf;
struct corrgroup;
struct diff;
struct policy;
struct report_sens;
struct report_slo;
struct tiers;
struct corr_calib;

/* Rows of "closest to the limit" under the discrepancies. */
#define REPORT_NEAR_MAX 5

struct report_opts {
	const char *model, *ref;	/* "SRC[@VERSION]" */
	size_t top;			/* discrepancies listed; 0 = 20 */
	double limit;			/* |error| above which a pair is a
					   discrepancy; 0 = 0.10 */
	double max_ref_cv;		/* 0 = the core's default 0.30 */
	int since_last_review;		/* compare with the last review */
	int trend;			/* MAPE per model version */
	const char *policy;		/* gate policy file, or NULL */
	int points_only;		/* csv: no statistics, trend or gate */
	int matrix;			/* who disagrees with whom (md, html) */
	const char *roofline;		/* the speed-of-light bound, SRC[@V];
					   NULL: the core's default */
	const char *slo;		/* --slo limits (corr_slo.h), or
					   NULL */
	const char *const *allow_mismatch;	/* fingerprint fields whose
					   mismatch is meant (issue 37);
					   NULL: the policy's, if any */
	int lean;			/* REPORT_LEAN_*: the summaries
					   compute only what the format
					   prints; 0 (csv, json) every
					   statistic and interval */
};

/* opts.lean. md and html print the accuracy rows' CORROUT_V_REPORT
 * statistics (plus the metric rows' limits of agreement and optimism in
 * the figures) and the per-op rows' CORROUT_V_OPS, and an accuracy
 * row's interval only when it has "few pairs" under a policy: only
 * those are computed. md prints the overall summary's intervals ("All
 * statistics"), html none of them. */
#define REPORT_LEAN_MD 1
#define REPORT_LEAN_HTML 2

/* Statistics of one metric (op_class NULL = every op class). */
struct report_group {
	const char *metric, *op_class;	/* borrowed from the set */
	const char *unit;		/* borrowed from the report */
	struct stats_summary s;
};

/* A discrepancy of the last review that is gone, or a new one. */
struct report_change {
	const char *workload, *op, *metric;	/* borrowed */
	double err_then;		/* NaN for a new one */
	long point;			/* index into set->points, -1 = none */
	const char *reason;		/* static text, resolved only */
};

struct report {
	struct report_opts opts;
	struct corr_set *set;
	char generated_at[32];
	struct stats_summary all;	/* every metric together */
	char **metrics, **units;	/* distinct metrics (set order) */
	size_t nmetrics;
	char **classes;			/* op classes, most points first */
	size_t nclasses;
	uint32_t *pmetric, *pclass;	/* per point: its metric in
					   metrics[], its op class in
					   classes[] */
	struct report_group *groups;	/* per metric: all, then classes */
	size_t ngroups;
	struct runinfo *runs;		/* model runs, then reference runs */
	size_t nmodel_runs, nruns;
	char **versions;		/* model versions in release order */
	size_t nversions;
	double *trend;			/* MAPE [version * nmetrics + metric] */
	struct corr_cpd *cpd;		/* the trend's change points (NULL:
					   no trend) */
	size_t *top, ntop;		/* the discrepancies, worst |error|
					   first, at most opts.top */
	size_t *open, nopen;		/* the open discrepancies (no
					   annotation, or open or
					   investigating: report_is_open),
					   worst first, at most opts.top */
	long nopen_all;			/* every open discrepancy */
	size_t *settled, nsettled;	/* the other discrepancies
					   (explained, accepted, fixed,
					   won't fix), at most opts.top */
	size_t *near, nnear;		/* closest to the limit: not
					   discrepancies, not excluded,
					   largest |error| first, at most
					   REPORT_NEAR_MAX */
	size_t *noted, nnoted;		/* the other annotated pairs that
					   are not discrepancies (all) */
	size_t *sol, nsol;		/* speed-of-light violations */
	size_t *noisy, nnoisy;		/* excluded: noisy reference */
	long ndiscrepancies;		/* |error| > limit, not excluded */
	unsigned char *is_new;		/* per point, with since_last_review */
	int have_review;		/* a last review exists */
	struct review last;
	struct review_item *last_items;	/* its items (changes borrow) */
	size_t nlast_items;
	struct report_change *news, *resolved;
	size_t nnew, nresolved;
	long nstill;			/* listed last time and still off */
	struct policy *policy;		/* opts.policy loaded, or NULL */
	long min_pairs;			/* its min_pairs (0: none) */
	char *gate_text;		/* verdict summary, or NULL */
	int gate_verdict;		/* enum gate_status: 0 pass, 1 warn,
					   2 fail, 3 unknown; -1 none */
	struct corrgroup *opg;		/* per (metric, op), or NULL */
	size_t *op_order;		/* its groups by metric (r->metrics
					   order), MAPE largest first */
	long *op_disc;			/* discrepancies per group */
	const char **op_class;		/* op class per group (borrowed) */
	struct diff *prev;		/* against the previous model
					   version, or NULL (none) */
	struct matrix *matrix;		/* every source, or NULL */
	char *matrix_note;		/* why there is none, or NULL */
	struct report_sens *sens;	/* flagged knob sweeps, or NULL
					   (report_sens.h) */
	struct report_slo *slo;		/* verdicts against limits and
					   tails, or NULL (report_slo.h) */
	struct tiers *tiers;		/* accuracy against cost per tier,
					   or NULL (report_tiers.h) */
	struct corr_calib *calib;	/* calibration and held out, or
					   NULL (report_calib.h) */
	const char *const *allow;	/* the fingerprint fields allowed to
					   differ in every pairing: opts'
					   or the policy's (borrowed) */
};

/* 1 when p counts as a discrepancy at limit. */
int report_is_discrepancy(const struct corr_point *p, double limit);

/* 1 when p's annotation leaves it open: none, open or investigating
 * (the status breakdown's "open" of "N open of M discrepancies"). */
int report_is_open(const struct corr_point *p);

/* Label of p's current annotation status (annot_state: "open" when
 * none). */
const char *report_status(const struct corr_point *p);

/* The sentence under "Speed-of-light violations": which roofline
 * bounds how many pairs, and what a violation is (issue 35). */
struct strbuf;
void report_sol_text(struct strbuf *sb, const struct report *r);

/* The fingerprint check's outcome (issue 37) as sentences: refused,
 * unverified, allowed mismatches with the pairs they admitted; 0 and
 * nothing appended when there is nothing to say. */
int report_fp_text(struct strbuf *sb, const struct report *r);

/* The metric's unit (from the report's metric list), "" if unknown. */
const char *report_unit(const struct report *r, const char *metric);

/* Shared number formats: "12.34%", "0.9871" (4 decimals), "n/a" for
 * an undefined value. */
void report_fmt_pct(char *buf, size_t len, double v);
/* A signed error, the one format of md and html (issue 35 QA):
 * "+19.65%", "-3.91%", "0.00%", "n/a". */
void report_fmt_err(char *buf, size_t len, double v);
void report_fmt_num(char *buf, size_t len, double v);

/* Append the name s (a workload key, op, metric, source, pattern) to an
 * HTML cell, escaped: a line may end after a '/' (a <wbr/>) or at a
 * space, never at a '-' inside a name (each word holding one is a
 * nowrap span: "h100-" / "lab" read as two names; issue 35 QA). */
void report_html_name(struct strbuf *sb, const char *s);

/* Append s to a markdown table cell: control characters made visible
 * (util_safe_dup) and markdown/HTML punctuation backslash-escaped. */
void report_md_escape(struct strbuf *sb, const char *s);

#endif
