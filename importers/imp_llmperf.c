/*
 * llmperf: ray-project/llmperf token_benchmark_ray.py *_summary.json (and
 * the leaderboard's renamed copies): results_<metric>_<unit>_<stat> keys
 * with stat quantiles_pNN, mean, min, max, stddev. Metric names are the
 * vLLM ones: ttft, itl, e2el (s), output_throughput_per_user (tokens/s
 * per request), output_throughput, completed, failed, error_rate and
 * request_throughput (completed requests per minute / 60). Numbers
 * written as strings ("550") are numbers; other strings are errors.
 * The model names the workload; mean_input_tokens, mean_output_tokens
 * and num_concurrent_requests become input_len, output_len, concurrency.
 * The workload fingerprint (issue 37): the per-request lengths measured
 * (results_number_{input,output}_tokens mean and stddev), else the
 * requested ones (mean_/stddev_{input,output}_tokens); the concurrency;
 * the completed requests per minute / 60 as the achieved rate; tool
 * llmperf and its version field.
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/error.h"
#include "base/jsonutil.h"

static const struct {
	const char *prefix, *metric, *unit;
} blocks[] = {
	{ "results_inter_token_latency_s_", "itl", "s" },
	{ "results_ttft_s_", "ttft", "s" },
	{ "results_end_to_end_latency_s_", "e2el", "s" },
	{ "results_request_output_throughput_token_per_s_",
	  "output_throughput_per_user", "tokens/s" },
	{ "results_number_input_tokens_", "input_sequence_length", "" },
	{ "results_number_output_tokens_", "output_sequence_length", "" },
};
#define NBLOCKS (sizeof(blocks) / sizeof(*blocks))

static const struct {
	const char *key, *metric, *unit;
	double scale;
} scalars[] = {
	{ "results_mean_output_throughput_token_per_s", "output_throughput",
	  "tokens/s", 1 },
	{ "results_num_completed_requests", "completed", "requests", 1 },
	{ "results_num_requests_started", "started", "requests", 1 },
	{ "results_number_errors", "failed", "requests", 1 },
	{ "results_error_rate", "error_rate", "fraction", 1 },
	{ "results_num_completed_requests_per_min", "request_throughput",
	  "req/s", 1.0 / 60 },
};

static const struct {
	const char *key, *param;
} params[] = {
	{ "mean_input_tokens", "param.input_len" },
	{ "mean_output_tokens", "param.output_len" },
	{ "num_concurrent_requests", "param.concurrency" },
};

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p != '{' || !strstr(head, "\"results_"))
		return 0;
	return strstr(head, "\"num_concurrent_requests\"") ||
	       strstr(head, "\"mean_input_tokens\"") ? 93 : 0;
}

struct ctx {
	struct imp_input *in;
	struct imp_sink *sink;
	int done;
};

/* A number or a string holding one: 0, 1 when null, <0 naming key. */
/* "results_ttft_ms_mean" for "results_ttft_s_...": a latency in
 * another unit is refused (skipped as unknown it would be dropped
 * silently); llmperf writes seconds. */
static int other_unit(const struct ctx *x, long line, const char *prefix,
		      const char *key)
{
	size_t n = strlen(prefix);
	const char *u;

	if (n < 3 || strcmp(prefix + n - 3, "_s_") ||
	    strncmp(key, prefix, n - 2) || !strncmp(key, prefix, n) ||
	    !(u = strchr(key + n - 2, '_')))
		return 0;
	return pc_error_set(PC_EINVALID, "%s:%ld: key '%s': unknown unit '%.*s' "
			    "(llmperf writes '%s...' in seconds; convert the "
			    "values and name the keys so)", x->in->path, line, key,
			    (int)(u - (key + n - 2)), key + n - 2, prefix);
}

static int num(struct ctx *x, const cJSON *v, double *out)
{
	if (cJSON_IsNull(v))
		return 1;
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return 0;
	}
	if (cJSON_IsString(v) && stk_number(v->valuestring, out) == 0)
		return 0;
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': %s%s%s is not a "
			    "number", x->in->path,
			    stk_key_line(x->in->fp, v->string), v->string,
			    cJSON_IsString(v) ? "'" : "",
			    cJSON_IsString(v) ? v->valuestring : "the value",
			    cJSON_IsString(v) ? "'" : "");
}

/* One length of the fingerprint: the measured block, else the file's
 * requested mean and stddev. */
static void fp_len(struct fpstate *f, const char *field,
		   const struct stk_stat *st, const cJSON *doc,
		   const char *mean, const char *sd)
{
	char sdf[32];

	snprintf(sdf, sizeof(sdf), "%s_sd", field);
	if (!isnan(st->mean)) {
		fpstate_num(f, field, st->mean);
		fpstate_num(f, sdf, st->std);
		return;
	}
	fpstate_jnum(f, field, cJSON_GetObjectItemCaseSensitive(doc, mean));
	fpstate_jnum(f, sdf, cJSON_GetObjectItemCaseSensitive(doc, sd));
}

static int note_fp(struct ctx *x, const cJSON *doc, const struct stk_stat *st)
{
	struct fpstate f = { 0 };
	const cJSON *v;
	double d;

	/* blocks[4] and [5]: results_number_{input,output}_tokens_ */
	fp_len(&f, "input_len", &st[4], doc, "mean_input_tokens",
	       "stddev_input_tokens");
	fp_len(&f, "output_len", &st[5], doc, "mean_output_tokens",
	       "stddev_output_tokens");
	fpstate_jnum(&f, "concurrency",
		     cJSON_GetObjectItemCaseSensitive(doc,
						      "num_concurrent_requests"));
	v = cJSON_GetObjectItemCaseSensitive(doc,
				"results_num_completed_requests_per_min");
	if (cJSON_IsNumber(v) || (cJSON_IsString(v) &&
				  stk_number(v->valuestring, &d) == 0))
		fpstate_num(&f, "achieved_request_rate",
			    (cJSON_IsNumber(v) ? v->valuedouble : d) / 60);
	fpstate_note(&f, "tool", "llmperf");
	v = cJSON_GetObjectItemCaseSensitive(doc, "version");
	if (cJSON_IsString(v))
		fpstate_note(&f, "tool_version", v->valuestring);
	return fpstate_flush(&f, x->sink);
}

static int doc_fn(cJSON *doc, long line, void *ctx)
{
	struct ctx *x = ctx;
	struct stk_out o = { .sink = x->sink, .line = line };
	struct stk_stat st[NBLOCKS];
	const cJSON *kv, *v;
	double d;
	int rc;

	if (x->done++)
		return pc_error_set(PC_EINVALID, "%s:%ld: a second JSON "
				    "document", x->in->path, line);
	if (!cJSON_IsObject(doc))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected a JSON "
				    "object", x->in->path, line);
	v = cJSON_GetObjectItemCaseSensitive(doc, "model");
	if (cJSON_IsString(v) &&
	    (rc = x->sink->meta(x->sink, "default.name", v->valuestring)) < 0)
		return rc;
	v = cJSON_GetObjectItemCaseSensitive(doc, "version");
	if (cJSON_IsString(v) && (rc = x->sink->meta(x->sink,
				"llmperf_version", v->valuestring)) < 0)
		return rc;
	for (size_t i = 0; i < sizeof(params) / sizeof(*params); i++) {
		v = cJSON_GetObjectItemCaseSensitive(doc, params[i].key);
		if (!v)
			continue;
		if ((rc = num(x, v, &d)) < 0)
			return rc;
		if (rc == 0 && (rc = x->sink->meta(x->sink, params[i].param,
						jsonutil_scalar(v))) < 0)
			return rc;
	}
	for (size_t b = 0; b < NBLOCKS; b++)
		stk_stat_init(&st[b]);
	cJSON_ArrayForEach(kv, doc) {
		for (size_t b = 0; b < NBLOCKS; b++) {
			size_t n = strlen(blocks[b].prefix);

			if ((rc = other_unit(x, line, blocks[b].prefix,
					     kv->string)) < 0)
				return rc;
			if (strncmp(kv->string, blocks[b].prefix, n))
				continue;
			if ((rc = num(x, kv, &d)) < 0)
				return rc;
			if (rc == 0 && stk_stat_set(&st[b], kv->string + n, d))
				x->sink->warn(x->sink, "%s: key '%s' skipped "
					      "(unknown statistic)",
					      x->in->path, kv->string);
		}
		for (size_t i = 0; i < sizeof(scalars) / sizeof(*scalars);
		     i++) {
			if (strcmp(kv->string, scalars[i].key))
				continue;
			if ((rc = num(x, kv, &d)) < 0)
				return rc;
			if (rc == 0 && (rc = stk_scalar(&o, NULL,
					scalars[i].metric, d * scalars[i].scale,
					scalars[i].unit)) < 0)
				return rc;
		}
	}
	for (size_t b = 0; b < NBLOCKS; b++)
		if ((rc = stk_stat_emit(&o, blocks[b].metric, blocks[b].unit,
					&st[b])) < 0)
			return rc;
	if ((rc = note_fp(x, doc, st)) < 0)
		return rc;
	return o.emitted ? 0 : pc_error_set(PC_EINVALID, "%s:%ld: no results_* "
					    "keys", x->in->path, line);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x = { .in = in, .sink = sink };
	int rc = hwutil_json_docs(in->fp, in->path, doc_fn, &x);

	return rc < 0 ? rc : 0;
}

const struct importer imp_llmperf = {
	.name = "llmperf",
	.kind = "silicon",
	.desc = "llmperf token_benchmark_ray *_summary.json (results_<metric>"
		"_<stat> keys, quantiles, error rate)",
	.probe = probe,
	.import = import,
};
