#ifndef PC_SRC_CORRELATE_H
#define PC_SRC_CORRELATE_H
/*
 * The one correlation core: resolve a model side and a reference side
 * (SRC[@VERSION]), pair their results on (workload, op, metric), convert
 * cycles to time through the runs' clocks, flag noise and speed-of-light
 * violations, attach current annotations, and summarise with stats_*.
 * compare, trend, diff, explain, gate, report and the TUI all use this;
 * none of them computes an error of its own.
 *
 * Ownership: a corr_set owns its points and every string they point to.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "base/fingerprint.h"
#include "src/stats/stats.h"

struct db;
struct annot;

struct corr_query {
	const char *model;		/* "SRC" or "SRC@VERSION" */
	const char *ref;		/* "SRC" or "SRC@VERSION" */
	const char *metric;		/* NULL = every metric */
	const char *op_glob;		/* NULL = every op */
	const char *workload_glob;	/* NULL = every workload */
	const char *const *where;	/* "param.NAME=VALUE", NULL-terminated */
	int pool;			/* combine runs of a version */
	double max_ref_cv;		/* noisy-reference limit; default 0.30 */
	int64_t only[2];		/* workload id, op id: read only that
					   key's results (an index seek, for
					   a detail view); 0 = every key */
	const char *const *workload_globs;	/* NULL-terminated: any
					   may match; "!GLOB" must not */
	const char *model_platform;	/* only the side's runs on it; */
	const char *ref_platform;	/* NULL: every run (docs) */
	int slim;		/* only summaries and groups are asked of
				   the set: slim points (corr_set.slim),
				   no corr_set.points */
	int no_params;		/* no param.NAME group key or parameter
				   list will be asked of the set: the
				   workload parameters are not loaded
				   (a --where still loads them); asking
				   for one then is PC_EINVALID */
	const char *const *allow_mismatch;	/* fingerprint fields whose
					   mismatch is meant (issue 37),
					   NULL-terminated, or NULL */
	const char *roofline;	/* the speed-of-light bound, SRC[@V] of
				   kind roofline; NULL: a roofline side,
				   else every roofline source
				   (src/corr/corr_roof.h) */
	int no_roofline;	/* no speed-of-light check (a source
				   paired with itself: the matrix) */
};

#define CORR_QUERY_INIT { NULL, NULL, NULL, NULL, NULL, NULL, 0, 0.30, \
			  { 0, 0 }, NULL, NULL, NULL, 0, 0, NULL, NULL, 0 }

enum corr_flags {
	CORR_WITHIN_NOISE = 1 << 0,	/* |model - ref| <= ref stddev */
	CORR_SOL_VIOLATION = 1 << 1,	/* a value beats the roofline of its
					   key (either side: the two below) */
	CORR_NOISY_REF = 1 << 2,	/* ref CV > max_ref_cv: excluded */
	CORR_WAIVED = 1 << 3,		/* current annotation accepted, unexpired */
	CORR_INVALID = 1 << 4,		/* a side is flagged invalid: excluded */
	CORR_UNVERIFIED = 1 << 5,	/* a checked fingerprint field only one
					   side's run states: kept, said */
	CORR_SOL_MODEL = 1 << 6,	/* the model's value beats the roofline */
	CORR_SOL_REF = 1 << 7,		/* the reference's value beats it */
	CORR_SOL_BOUND = 1 << 8,	/* a roofline value bounds the key
					   (full points only: not in a slim
					   point's 8 bits, nor the index) */
	CORR_CALIBRATION = 1 << 9,	/* the model was calibrated on it
					   (corr_calib_apply; full points
					   only) */
};

/* A resolved side. */
struct corr_side {
	char *source;
	char *kind;		/* roofline perfsim rtl emulation silicon */
	char *version;		/* the version used (latest when not given) */
	int64_t *runs;		/* run ids that contributed */
	size_t nruns;
};

struct corr_point {
	const char *workload;	/* canonical key */
	const char *op;
	const char *op_class;
	const char *metric;	/* the reference's metric ("time" for cycles
				   paired with time) */
	int64_t workload_id, op_id, metric_id;
	double model, ref;	/* SI, after clock conversion */
	double err;		/* (model - ref) / ref; NaN when ref == 0 */
	double model_sd, ref_sd;	/* NaN when unknown */
	double ref_n, ref_min, ref_max;	/* NaN when unknown */
	int64_t model_run, ref_run;
	unsigned flags;		/* enum corr_flags */
	const struct annot *ann;	/* current annotation, or NULL */
};

/* A slim point (corr_query.slim): what the summaries and groups read,
 * 32 bytes instead of corr_point's 152. The names and ids are the
 * set's dictionary entries at these indices (corr_point_ids); a set
 * whose dictionaries pass these widths (2^32 workloads, 65,536 ops,
 * 256 metrics) gets full points instead (corr_load). */
struct corr_slim {
	double model, ref;	/* as in corr_point */
	double ref_se;		/* corr_ref_se of the point */
	uint32_t w;		/* workload dictionary index */
	uint16_t o;		/* op dictionary index */
	uint8_t m;		/* metric dictionary index */
	uint8_t flags;		/* enum corr_flags */
};

/* The standard error of a reference value that is the mean of n
 * repetitions with stddev sd: sd / sqrt(n); sd when n is unknown (one
 * measurement). What the weighted fit and Deming weigh by (issue 34:
 * the variance of the mean, not of one repetition). */
static inline double corr_ref_se(double sd, double n)
{
	return n >= 1 && n < INFINITY ? sd / sqrt(n) : sd;
}

struct corr_store;
struct stats_paired_opts;
struct stats_ci_draws;

struct corr_set {
	struct corr_side model, ref;
	struct corr_point *points;	/* sorted by |err| descending;
					   NULL when slim */
	struct corr_slim *slim;		/* the same order, when the query
					   asked for slim points (else NULL) */
	size_t n;
	long excluded_noisy, sol_violations, invalid;
	/* issue 37, the workload fingerprints (src/corr/corr_fp.h): pairs
	 * refused because their runs' fingerprints differ in a checked
	 * field (never in points), the run pairs behind them, the first
	 * reason (field, both values, runs, the cure) and its field; pairs
	 * kept CORR_UNVERIFIED */
	long not_comparable, not_comparable_runs, unverified;
	char *not_comparable_why;
	char not_comparable_field[32];
	/* pairs kept only because corr_query.allow_mismatch allowed the
	 * fields their runs differ in, and per field (fp_fields order; a
	 * pair differing in two allowed fields counts in both) */
	long admitted_pairs, admitted[FP_NFIELDS];
	long superseded;	/* pairs where a side held the key in several
				   runs and the latest won (not --pool) */
	char *roofline;		/* the speed-of-light bound: "SRC@V" (or
				   several, ", "), NULL when no roofline
				   source bounds the pairing */
	long sol_keys;		/* pairs whose key the roofline holds */
	struct corr_store *store;	/* private: names, params, annotations */
	/* Set by the caller: every summary of this set (corr_summary,
	 * corr_summary_idx, corr_by_metric_all, groups) also gets the workload
	 * bootstrap intervals of src/stats_ci.h with these options; NULL
	 * (the default) computes none. */
	const struct stats_paired_opts *ci;
	/* Private: the bootstrap's resample counts, shared by the summaries
	 * of this set with as many workloads (src/stats_ci.h); NULL: each
	 * summary draws its own (same intervals). */
	struct stats_ci_draws *ci_draws;
	/* Set by the caller for a table that prints only some statistics:
	 * a summary of one metric computes only the error statistics
	 * (CORR_LEAN_ERR: stats_compute_mixed) or those, the correlations
	 * and the fit (CORR_LEAN_CORR: stats_compute_lean); the others
	 * hold NaN. Those computed are stats_compute's bit for bit. 0
	 * (the default): every one. */
	int lean;
	/* Private (corr_set_view): a compact copy of the full points that
	 * the summaries read instead (a keep selection reads the points);
	 * NULL: none. */
	struct corr_slim *view;
};

enum { CORR_LEAN_ERR = 1, CORR_LEAN_CORR = 2 };

/* A set of full points that many summaries will read (a report: the
 * overall one, per metric, per metric and op class, per op): they read
 * a 32-byte copy of each point instead of the 152-byte point (issue 21:
 * the gathering was memory-bound), the same values in the same order,
 * hence the same bits. corr_set_view_drop frees it (corr_set_free
 * does too). A slim set, or one whose dictionaries miss an id, gets
 * none (the summaries read the points as before). */
void corr_set_view(struct corr_set *s);
void corr_set_view_drop(struct corr_set *s);

/* Pair and load. Nothing matched is PC_ENOTFOUND with a message that says
 * what exists on each side (metrics, ops, workloads counts), tagged
 * PC_CAUSE_FILTERS when q has filters. An unknown source or version is
 * PC_ENOTFOUND; cycles vs time without a clock is PC_EINVALID naming the
 * run; a malformed where entry is PC_EINVALID. */
int corr_load(struct corr_set **out, struct db *db, const struct corr_query *q);
/* The index of the first where entry that is not [param.]NAME=VALUE, or
 * -1 when all are well formed. */
long corr_where_bad(const char *const *where);
void corr_set_free(struct corr_set *s);
/* Free what a side holds (the struct itself is the caller's). */
void corr_side_release(struct corr_side *side);

/* The workload, op and metric ids of point i of s (either layout). */
void corr_point_ids(const struct corr_set *s, size_t i, int64_t *wid,
		    int64_t *oid, int64_t *mid);

/* Statistics over the points of s selected by keep (NULL = all; a slim
 * set takes no keep: PC_EINVALID), leaving
 * out noisy, invalid, zero-reference and (when skip_waived) waived
 * points; fills excluded_noisy, excluded_zero_ref, sol_violations,
 * optimistic, pessimistic and efficiency. Over several metrics only the
 * dimensionless statistics are defined ("several metrics"). */
int corr_summary(struct stats_summary *out, const struct corr_set *s,
		 int (*keep)(const struct corr_point *p, void *arg), void *arg,
		 int skip_waived);

/* The same over the points s->points[idx[0..n)] (a group), no copy. */
int corr_summary_idx(struct stats_summary *out, const struct corr_set *s,
		     const size_t *idx, size_t n, int skip_waived);

/* Rows of a set: its points bucketed by key[i] < nrows (nrows or more:
 * in no row), each row's points in set order (so a row's summary adds
 * in the order corr_summary_idx over the same points does: the same
 * bits). With slim points or a view (corr_set_view) the rows hold a copy
 * of their points, made in one sequential pass (issue 21: the summaries
 * of many rows gathered each row's points from all over the set); else
 * their indices. corr_rows_summary is row k's summary. */
struct corr_rows {
	struct corr_slim *v;	/* row by row, or NULL */
	size_t *idx;		/* row by row, when v is NULL */
	size_t *start;		/* row k: [start[k], start[k + 1]) */
	size_t nrows;
};
void corr_rows_build(struct corr_rows *out, const struct corr_set *s,
		     const uint32_t *key, size_t nrows);
int corr_rows_summary(struct stats_summary *out, const struct corr_set *s,
		      const struct corr_rows *rows, size_t k, int skip_waived);
void corr_rows_release(struct corr_rows *rows);

/* One complete summary per metric of the set, sorted by metric name
 * (the set owns the names); all is corr_summary(all, s, NULL, NULL,
 * skip_waived) of the same set: when every point has one metric, its one
 * block is a copy of *all (the same points in the same order: the same
 * summary bit for bit) instead of a second computation. Caller frees the
 * array. docs/statistics.md: "One summary never pools metrics". */
struct corr_metric_sum {
	const char *metric;
	struct stats_summary sum;
};
int corr_by_metric_all(struct corr_metric_sum **out, size_t *n,
		       const struct corr_set *s,
		       const struct stats_summary *all, int skip_waived);

/* Group keys: "op", "op_class", "metric", "workload" or "param.NAME".
 * Fills key (caller's buffer) with the point's value of that key. */
int corr_group_key(const struct corr_set *s, const struct corr_point *p,
		   const char *by, char *key, size_t len);
/* The same for point i of s (either layout). */
int corr_group_key_at(const struct corr_set *s, size_t i, const char *by,
		      char *key, size_t len);

/* A group key or feature "param.NAME" (aliases folded) that no workload
 * of s's points has is PC_EINVALID naming the parameters they have;
 * other keys and an empty set are fine. */
int corr_check_key(const struct corr_set *s, const char *by);

/* Distinct parameter names of the workloads of s's points, sorted;
 * caller frees each and the array. */
void corr_param_names(const struct corr_set *s, char ***out, size_t *n);

/* Load the workload parameters of a set loaded with no_params (nothing
 * when they are loaded), for a section that needs them only sometimes
 * (the report's sensitivity). */
int corr_params_load(struct corr_set *s, struct db *db);

/* The SI unit values of a metric are stored in ("s", "W"; "" when
 * unknown); borrowed from s. */
const char *corr_metric_unit(const struct corr_set *s, const char *metric);

/* Parse "SRC@VERSION" into caller-freed parts (version NULL if absent). */
void corr_parse_side(const char *spec, char **source, char **version);

/* Versions of a source in release order (first import time); caller
 * frees each and the array. */
int corr_versions(struct db *db, const char *source, char ***out, size_t *n);

#endif
