#ifndef PC_SRC_CLI_SEL_H
#define PC_SRC_CLI_SEL_H
/*
 * The pair-selection options every correlation command shares (compare,
 * trend, diff, explain): one struct, one option-table fragment, one
 * translation to a corr_query, so the filters mean the same everywhere.
 */
#include "src/cmd/cli.h"
#include "src/corr/correlate.h"
#include "src/out/out.h"

struct cli_sel {
	const char *model, *ref;	/* SRC[@V] (commands word the help) */
	const char *metric, *op;
	struct cli_list workload;	/* GLOB or !GLOB, repeatable */
	struct cli_list where;		/* param.NAME=VALUE */
	struct cli_list allow_mismatch;	/* fingerprint fields (issue 37) */
	int pool;
	double max_ref_cv;
	const char *platform, *model_platform, *ref_platform;
	const char *roofline;		/* SRC[@V]: the speed-of-light bound */
};

/* The filter options, to splice into a command's cli_opt table after its
 * --model and --ref entries. */
#define CLI_SEL_FILTER_OPTS(s) \
	{ CLI_STR, "metric", 0, &(s).metric, "NAME", "only this metric (the " \
	  "reference's: time also pairs model cycles)" }, \
	{ CLI_STR, "op", 0, &(s).op, "GLOB", "only ops matching GLOB" }, \
	{ CLI_LIST, "workload", 'w', &(s).workload, "GLOB", "only workloads " \
	  "matching GLOB (repeatable: any may match; !GLOB: none of those)" }, \
	{ CLI_LIST, "where", 0, &(s).where, "param.N=V", "only workloads " \
	  "with this parameter value (aliases as at import; param.N= : " \
	  "workloads without N)" }, \
	{ CLI_STR, "platform", 0, &(s).platform, "P", "only runs on platform " \
	  "P, on both sides" }, \
	{ CLI_STR, "model-platform", 0, &(s).model_platform, "P", "only the " \
	  "model's runs on platform P" }, \
	{ CLI_STR, "ref-platform", 0, &(s).ref_platform, "P", "only the " \
	  "reference's runs on platform P" }, \
	{ CLI_FLAG, "pool", 0, &(s).pool, NULL, "combine every run of a " \
	  "version (mean, stddev across runs) instead of the latest run" }, \
	{ CLI_DOUBLE, "max-ref-cv", 0, &(s).max_ref_cv, "F", "exclude " \
	  "references whose stddev/value exceeds F (default 0.30)" }, \
	CLI_SEL_ALLOW_OPT(s)

/* --allow-mismatch FIELD (issue 37), also for commands without the
 * other filters. */
#define CLI_SEL_ALLOW_OPT(s) \
	{ CLI_LIST, "allow-mismatch", 0, &(s).allow_mismatch, "FIELD", \
	  "pair runs whose workload fingerprints differ in FIELD (e.g. " \
	  "input_len; repeatable; docs/statistics.md)" }

/* The speed-of-light bound (issue 35), after the filter options. */
#define CLI_SEL_ROOF_OPT(s) \
	{ CLI_STR, "roofline", 0, &(s).roofline, "SRC[@V]", "the roofline " \
	  "that bounds both sides (default: a roofline side, else every " \
	  "roofline source; needed when several hold a key)" }

/* Defaults (max_ref_cv 0.30), before parsing. */
void cli_sel_init(struct cli_sel *s);
/* A usage error message for bad values, or NULL when they are fine. */
const char *cli_sel_check(const struct cli_sel *s);
/* Fill q's filters from s (model and ref too). */
void cli_sel_query(const struct cli_sel *s, struct corr_query *q);
void cli_sel_release(struct cli_sel *s);

/* The tail every read-only command shares: open the database read-only,
 * run(db, fmt, ctx), print its error, close, and check stdout was
 * written. Returns the exit code. */
int cli_sel_run(const char *cmd, int (*run)(struct db *db,
		enum out_format fmt, void *ctx), enum out_format fmt,
		void *ctx);

/* The whole body of such a command after its defaults are set: parse
 * argv against cmd, check the selection, then the command's own options
 * (check may be NULL; it returns a usage message or NULL), take *format
 * (csv refused when no_csv), and cli_sel_run. ctx (the command's options
 * struct, which holds sel and format) goes to check and run. Returns the
 * exit code; the caller releases its options. */
int cli_sel_main(const struct cli_cmd *cmd, int argc, char **argv,
		 const struct cli_sel *sel, const char *const *format,
		 int no_csv, const char *(*check)(const void *ctx),
		 int (*run)(struct db *db, enum out_format fmt, void *ctx),
		 void *ctx);

#endif
