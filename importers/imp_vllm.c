/*
 * vllm: vLLM serving benchmark results, the legacy
 * benchmarks/benchmark_serving.py --save-result JSON ("request_goodput:"
 * with its colon) and `vllm bench serve` JSON; one document per file or
 * one per line (--append-result). model_id names the workload when the
 * command line does not; num_prompts, request_rate, max_concurrency and
 * the --metadata KEY=VALUE strings become workload parameters. A `vllm
 * bench sweep serve` run file (run=N.json: the result plus run_number and
 * the sweep's serve/bench overrides) keys each combination by its
 * overrides; its summary.json (a list of runs) is refused. With
 * --save-detailed, input_lens/output_lens give the length spreads of the
 * fingerprint.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "base/jsonutil.h"
#include "importers/serving.h"
#include "base/error.h"
#include "base/util.h"

/* Keys that are not --metadata strings. */
static const char *const known[] = { "date", "endpoint_type", "backend",
	"label", "model_id", "tokenizer_id", "num_prompts", "request_rate",
	"burstiness", "max_concurrency", "ramp_up_strategy",
	"ramp_up_start_rps", "ramp_up_end_rps", NULL };

static const char *const run_meta[] = { "date", "backend", "endpoint_type",
	"label", "tokenizer_id", "burstiness", "ramp_up_strategy", NULL };

static const char *const params[] = { "num_prompts", "request_rate",
	"max_concurrency", NULL };

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p == '[' && strstr(head, "\"model_id\"") &&
	    strstr(head, "\"run_number\""))
		return 92;	/* a sweep's summary.json: refused by name */
	if (*p != '{' || !strstr(head, "\"model_id\""))
		return 0;
	return strstr(head, "\"num_prompts\"") ||
	       strstr(head, "\"request_throughput\"") ||
	       strstr(head, "_ttft_ms\"") ? 92 : 0;
}

struct ctx {
	struct imp_sink *sink;
	const char *path;
	int first;
	struct imp_param p[64];
	size_t np;
	char *model;		/* of the first document */
	struct fpstate fp;	/* the workload fingerprint (issue 37) */
};

static int in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

static void add_param(struct ctx *x, const char *name, const char *value)
{
	if (x->np == sizeof(x->p) / sizeof(*x->p))
		return;
	x->p[x->np].name = xstrdup(name);
	x->p[x->np++].value = xstrdup(value);
}

static void free_params(struct ctx *x)
{
	for (size_t i = 0; i < x->np; i++) {
		free((char *)x->p[i].name);
		free((char *)x->p[i].value);
	}
	x->np = 0;
}

/* Run facts and the workload of one document. */
/* A --metadata string, or (sweep run files) an override of the sweep:
 * "max-num-seqs" and "max_num_seqs" are one parameter; an override of a
 * setting the result states already (request_rate ...) is that one. */
static void sweep_param(struct ctx *x, const cJSON *kv, const char *v,
			int sweep)
{
	char name[128];

	snprintf(name, sizeof(name), "%s", kv->string);
	for (char *c = name; sweep && *c; c++)
		if (*c == '-')
			*c = '_';
	if (sweep && (!strcmp(name, "run_number") ||
		      !strcmp(name, "_benchmark_name") ||
		      in_list(params, name) || in_list(known, name)))
		return;
	add_param(x, name, v);
}

static int identity(struct ctx *x, const cJSON *doc, long line)
{
	const cJSON *kv, *model;
	int rc, sweep;

	sweep = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(doc,
								"run_number"));
	if (sweep && x->first &&
	    ((rc = x->sink->meta(x->sink, "sweep_run", jsonutil_scalar(
		cJSON_GetObjectItemCaseSensitive(doc, "run_number")))) < 0 ||
	     (cJSON_IsString(kv = cJSON_GetObjectItemCaseSensitive(doc,
						"_benchmark_name")) &&
	      (rc = x->sink->meta(x->sink, "sweep_name",
				  kv->valuestring)) < 0)))
		return rc;
	model = cJSON_GetObjectItemCaseSensitive(doc, "model_id");
	if (cJSON_IsString(model)) {
		if (x->first) {
			rc = x->sink->meta(x->sink, "default.name",
					   model->valuestring);
			if (rc < 0)
				return rc;
			x->model = xstrdup(model->valuestring);
		} else if (!x->model || strcmp(x->model, model->valuestring)) {
			add_param(x, "name", model->valuestring);
		}
	}
	cJSON_ArrayForEach(kv, doc) {
		const char *v = jsonutil_scalar(kv);

		if (sweep && cJSON_IsObject(kv) && x->first)
			x->sink->warn(x->sink, "%s: sweep override '%s' (an "
				      "object) is not part of the workload key",
				      x->path, kv->string);
		if (!v)
			continue;
		if (x->first && in_list(run_meta, kv->string) &&
		    (rc = x->sink->meta(x->sink, kv->string, v)) < 0)
			return rc;
		if (in_list(params, kv->string))
			add_param(x, kv->string, v);
		else if (!in_list(known, kv->string) &&
			 !serving_is_result(kv->string) &&
			 (cJSON_IsString(kv) || sweep))
			sweep_param(x, kv, v, sweep);
	}
	(void)line;
	return 0;
}

/* What the document says of the workload actually run: the means per
 * completed request (vLLM counts the tokens of completed requests), the
 * totals, the requested and achieved load (docs/importers.md). */
static void note_fp(struct ctx *x, const cJSON *doc)
{
#define M(k) cJSON_GetObjectItemCaseSensitive(doc, k)
	fpstate_mean(&x->fp, "input_len", M("total_input_tokens"),
		     M("completed"));
	fpstate_mean(&x->fp, "output_len", M("total_output_tokens"),
		     M("completed"));
	fpstate_json(&x->fp, "input_tokens", M("total_input_tokens"));
	fpstate_json(&x->fp, "output_tokens", M("total_output_tokens"));
	fpstate_json(&x->fp, "request_rate", M("request_rate"));
	fpstate_json(&x->fp, "concurrency", M("max_concurrency"));
	fpstate_json(&x->fp, "achieved_request_rate",
		     M("request_throughput"));
	fpstate_note(&x->fp, "tool", "vllm-bench-serve");
#undef M
}

/* --save-detailed: the per-request lengths of the completed requests
 * (errors[i] empty; a failed request has output length 0) give the
 * fingerprint's spreads. */
static int spreads(struct ctx *x, const cJSON *doc, long line)
{
	static const char *const key[] = { "input_lens", "output_lens" };
	static const char *const field[] = { "input_len_sd", "output_len_sd" };
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(doc, "errors");

	for (int k = 0; k < 2; k++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(doc, key[k]);
		const cJSON *e = err ? err->child : NULL, *v;
		double n = 0, mean = 0, m2 = 0, d;

		if (!a)
			continue;
		if (!cJSON_IsArray(a) || (err && (!cJSON_IsArray(err) ||
			cJSON_GetArraySize(err) != cJSON_GetArraySize(a))))
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': expected a "
				"list of numbers, one per request as 'errors'",
				x->path, line, key[k]);
		cJSON_ArrayForEach(v, a) {
			int ok = !e || (cJSON_IsString(e) && !*e->valuestring);

			if (!cJSON_IsNumber(v))
				return pc_error_set(PC_EINVALID, "%s:%ld: '%s': "
					"a length is not a number", x->path,
					line, key[k]);
			e = e ? e->next : NULL;
			if (!ok)
				continue;
			d = v->valuedouble - mean;	/* Welford */
			n++;
			mean += d / n;
			m2 += d * (v->valuedouble - mean);
		}
		if (n >= 2)
			fpstate_num(&x->fp, field[k], sqrt(m2 / (n - 1)));
	}
	return 0;
}

/* Keep the per-request lengths (and errors, to tell the completed ones);
 * other per-request arrays are skipped unbuilt (serving_keep). */
static int keep(const char *key, const struct jsonstream_tok *value,
		const cJSON *sofar, void *ctx)
{
	return !strcmp(key, "input_lens") || !strcmp(key, "output_lens") ||
	       !strcmp(key, "errors") || serving_keep(key, value, sofar, ctx);
}

static int doc_fn(cJSON *doc, long line, void *ctx)
{
	struct ctx *x = ctx;
	struct serving s;
	int rc;

	if (cJSON_IsArray(doc) && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(
			cJSON_GetArrayItem(doc, 0), "run_number")))
		return pc_error_set(PC_EINVALID, "%s:%ld: a vllm bench sweep "
			"summary.json (the %d runs of one parameter combination): "
			"import its run=N.json files, one run each", x->path,
			line, cJSON_GetArraySize(doc));
	if (!cJSON_IsObject(doc))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected a JSON object "
				    "(a benchmark result)", x->path, line);
	if ((rc = identity(x, doc, line)) < 0)
		goto done;
	note_fp(x, doc);
	if ((rc = spreads(x, doc, line)) < 0)
		goto done;
	serving_init(&s, x->sink, line, x->p, x->np);
	if ((rc = serving_doc(&s, doc, x->path)) < 0)
		goto done;
	if (!s.emitted)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no benchmark results "
			"(duration, throughput or latency keys) in this "
			"document", x->path, line);
done:
	x->first = 0;
	free_params(x);
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.sink = sink;
	x.path = in->path;
	x.first = 1;
	rc = hwutil_json_docs_keep(in->fp, in->path, keep, doc_fn,
				   &x);
	if (rc >= 0)
		rc = fpstate_flush(&x.fp, sink);
	fpstate_release(&x.fp);
	free_params(&x);
	free(x.model);
	return rc < 0 ? rc : 0;
}

const struct importer imp_vllm = {
	.name = "vllm",
	.kind = "silicon",
	.desc = "vLLM serving benchmark JSON (benchmark_serving.py and vllm "
		"bench serve; --append-result JSON lines)",
	.probe = probe,
	.import = import,
};
