#ifndef PC_DB_PAIRS_H
#define PC_DB_PAIRS_H
/*
 * The pairing SQL: resolve SRC[@VERSION] to its runs, and read the
 * results of those runs in key order (workload, op, metric) by walking
 * each run's range of the results table (clustered on run_id,
 * workload_id, op_id, metric_id) and merging, reduced to one result per key (latest run wins, or pooled).
 * Also the id -> name dictionaries the correlation core interns.
 * Callers own what they get and free it with the matching *_free.
 */
#include <stddef.h>
#include <stdint.h>

struct db;

/* A resolved side: source, version and its runs (ascending id). */
struct db_side {
	int64_t source_id;
	char *source, *kind, *version;
	int64_t *runs;
	double *clock_hz;	/* per run; NaN when absent */
	char **files;		/* per run: file name */
	char **platforms;	/* per run: platform, NULL when none */
	size_t nruns;
};

/* Resolve source[@version]: version NULL = latest (the version whose
 * first import is most recent). Unknown source or version is
 * PC_ENOTFOUND with a message listing what exists. */
int db_pairs_side(struct db *db, const char *source, const char *version,
		  struct db_side *out);
void db_side_release(struct db_side *s);

/* Keep only the runs of s on platform (PC_ENOTFOUND listing the side's
 * platforms when none is). */
int db_side_restrict(struct db_side *s, const char *platform);
/* Distinct platforms of s's runs (NULL for runs without one counts as
 * one), borrowed, in run order; caller frees the array. */
size_t db_side_platforms(const struct db_side *s, const char ***out);

/* One result per (workload, op, metric), compact. */
struct db_result {
	int64_t run_id, workload_id, op_id, metric_id;
	double value, n, stddev, min, max;	/* NaN when unknown */
	unsigned flags;				/* results.flags */
	unsigned nruns;		/* runs of the side holding this key: > 1
				   and not pooled = older runs superseded */
};

/* Results of a side's runs in (workload_id, op_id, metric_id) order;
 * only (may be NULL) with both ids > 0 restricts them to that workload
 * and op (an index seek instead of a walk of every result).
 * Several runs holding a key: the latest run (highest id) wins, or with
 * pool the values combine: value = mean over runs, n = runs, stddev =
 * sample stddev across runs, min/max across runs, flags OR-ed. Cycles
 * of runs with different clocks pool as times (each run's cycles over
 * its own clock), expressed in cycles of the latest run's clock (whose
 * run_id the result carries, so one conversion gives the mean time);
 * cycles of runs with and without a clock do not pool (PC_EINVALID
 * naming the runs). A key held by runs on different platforms is
 * refused (PC_EINVALID naming the platforms, cause PC_CAUSE_PLATFORM):
 * neither the latest nor a mean of them is a result. */
int db_pairs_results(struct db *db, const struct db_side *side, int pool,
		     const int64_t only[2], struct db_result **out, size_t *n);

/* The same results as a stream (nothing held but one row per run):
 * filter (may be NULL) keeps only the listed metric and op ids (an
 * empty list keeps all), applied in the SQL. db_pairs_next gives 1 and
 * the next row in *row (valid until the next call), 0 at the end, <0 on
 * error (the errors of db_pairs_results, met at that key). */
struct db_pairs_filter {
	const int64_t *metrics;
	size_t nmetrics;
	const int64_t *ops;
	size_t nops;
	/* the workload dictionary's size (0: unknown): an op selection
	 * whose (workload, op, metric) seeks are few against a run's
	 * results is read by seeks instead of a walk of the run (SQLite) */
	size_t nworkloads;
};
struct db_pairs_cur;
int db_pairs_open(struct db_pairs_cur **out, struct db *db,
		  const struct db_side *side, int pool, const int64_t only[2],
		  const struct db_pairs_filter *filter);
int db_pairs_next(struct db_pairs_cur *c, const struct db_result **row);
void db_pairs_close(struct db_pairs_cur *c);

/* Dictionaries, sorted by id. extra: workloads.name, ops.class,
 * metrics.unit; higher: metrics.better = 'higher'. */
enum db_dict { DB_DICT_WORKLOADS, DB_DICT_OPS, DB_DICT_METRICS };
struct db_name {
	int64_t id;
	char *name, *extra;
	int higher;
};
int db_pairs_names(struct db *db, enum db_dict what, struct db_name **out,
		   size_t *n);
void db_names_free(struct db_name *v, size_t n);

/* Workload parameters, sorted by (workload_id, name). */
struct db_param {
	int64_t workload_id;
	char *name, *value;
};
int db_pairs_params(struct db *db, struct db_param **out, size_t *n);
void db_params_free(struct db_param *v, size_t n);

/* The ids of a workload key, op and metric name; PC_ENOTFOUND (no
 * message) when one is unknown. */
int db_pairs_ids(struct db *db, const char *workload, const char *op,
		 const char *metric, int64_t ids[3]);

/* Versions of a source in release order (first import, then id). */
int db_pairs_versions(struct db *db, const char *source, char ***out,
		      size_t *n);

#endif
