#ifndef PC_IMPORTERS_LLMD_H
#define PC_IMPORTERS_LLMD_H
/*
 * The llm-d Benchmark Report (llm-d-benchmark's standard report of every
 * harness, issue 37 item 4), shared by its two layouts: v0.1 (scenario,
 * metrics; llmd_v01.c) and v0.2/0.2.1 (run, scenario.stack/load, results;
 * imp_llmd_report.c). A report is YAML (PyYAML's yaml.dump, importers/
 * yamlsub.h) or JSON; its Statistics blocks {units, mean, stddev, min,
 * p0p1 .. p99p9, max} become one record per metric with the percentiles
 * as <m>_pNN (p0p1 -> p0.1, p99p9 -> p99.9). The harness that wrote the
 * report decides what some numbers mean (docs/importers.md): the state
 * here carries it.
 */
#include <cjson/cJSON.h>

#include "importers/fpstate.h"
#include "importers/importer.h"
#include "importers/stacks.h"

struct llmd {
	struct imp_input *in;
	struct imp_sink *sink;
	struct stk_out o;
	struct stk_params par;
	struct fpstate fp;
	int yaml, docs;
	const char *tool;	/* the load generator (borrowed, may be NULL) */
};

#define LLMD_GET(o, k) cJSON_GetObjectItemCaseSensitive(o, k)

/* An error "file:line: 'path': what" at the line of key (its first
 * occurrence as a YAML or JSON key). */
int llmd_bad(struct llmd *x, const char *key, const char *path,
	     const char *what);

/* The Statistics block at obj.key (absent or null: nothing) as metric in
 * dimension dim: "time" (ms, s, ms/token, s/token: per token is a time),
 * "count", "tokens" (tokens/s), "requests" (queries/s). path names it in
 * errors; a unit of another dimension or a non-number is an error. The
 * block read goes to *out when out is not NULL (emitted or not: emit 0
 * only reads). */
int llmd_stat(struct llmd *x, const cJSON *obj, const char *key,
	      const char *path, const char *metric, const char *dim,
	      int emit, struct stk_stat *out);

/* A number at obj.key: 0 and *out; 1 when absent or null; an error
 * naming path when of another type. */
int llmd_num(struct llmd *x, const cJSON *obj, const char *key,
	     const char *path, double *out);

/* requests {total, failures, incomplete} -> completed, failed,
 * incomplete, by the harness's meaning of them (AIPerf: total is the
 * completed requests, failures the number of distinct errors). */
int llmd_requests(struct llmd *x, const cJSON *req, const char *path,
		  double *failures);

/* The load requested: rate (req/s, inf allowed) and concurrency as
 * parameters request_rate, max_concurrency and the fingerprint;
 * inference-perf's concurrency stages write their request count as the
 * rate (a rate of "all at once": inf). Either may be NULL. */
void llmd_load(struct llmd *x, const cJSON *rate, const cJSON *conc);

/* The v0.1 layout (llmd_v01.c). */
int llmd_v01(struct llmd *x, const cJSON *doc);

#endif
