#ifndef PC_IMPORTERS_SERVING_H
#define PC_IMPORTERS_SERVING_H
/*
 * LLM serving benchmark results (vLLM, SGLang) -> records: one table of
 * key names to metrics shared by the JSON importers and the vLLM stdout
 * block. Latency statistics of one metric (mean/median/std) become one
 * record (value = mean); each pNN becomes metric "<m>_pNN".
 */
#include <stddef.h>

#include "importers/importer.h"

struct cJSON;

#define SERVING_MAX_LAT 16

struct serving {
	struct imp_sink *sink;
	long line;
	const struct imp_param *params;
	size_t nparams;
	struct {
		char metric[32];
		double mean, median, std;
	} lat[SERVING_MAX_LAT];
	size_t nlat;
	long emitted;
};

void serving_init(struct serving *s, struct imp_sink *sink, long line,
		  const struct imp_param *params, size_t nparams);

/* One latency statistic: stat is "mean", "median", "std" or "pNN";
 * metric a canonical name (ttft, tpot, itl, e2el); value in ms. */
int serving_latency(struct serving *s, const char *metric, const char *stat,
		    double value_ms);

/* A scalar result by its canonical metric and unit. NaN is skipped. */
int serving_scalar(struct serving *s, const char *metric, double value,
		   const char *unit);

/* Emit the collected latency records. */
int serving_flush(struct serving *s);

/* Every result key of a vLLM/SGLang JSON document: scalars, latency
 * statistics; other keys are ignored. Errors name path:line and key. */
int serving_doc(struct serving *s, const struct cJSON *doc,
		const char *path);

/* 1 when key is a result key serving_doc() reads. */
int serving_is_result(const char *key);

/* The keep filter of hwutil_json_docs_keep for vLLM and SGLang results:
 * a top-level array (the per-request ttfts, itls, input_lens,
 * generated_texts ... of --save-detailed / --output-details) is dropped
 * unbuilt unless it is a result key, which serving_doc refuses as not a
 * number; everything else is kept. */
struct jsonstream_tok;
int serving_keep(const char *key, const struct jsonstream_tok *value,
		 const struct cJSON *sofar, void *ctx);

/* A JSON member as a number: 0 and *out, 1 when absent/null/missing,
 * <0 naming path:line and key for another type. */
int serving_number(const struct cJSON *doc, const char *key, double *out,
		   const char *path, long line);

#endif
