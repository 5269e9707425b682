/*
 * sglang: SGLang `python -m sglang.bench_serving --output-file` JSON
 * lines, one object per benchmark run. Key names differ from vLLM's
 * (e2e_latency -> e2el, total_throughput); serving.c maps both to the
 * same metrics. request_rate (Python writes a bare Infinity) and
 * max_concurrency, and input/output lengths of the random dataset,
 * become workload parameters; server_info.model_path names the workload
 * when the command line does not.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "base/jsonutil.h"
#include "importers/serving.h"
#include "base/error.h"
#include "base/util.h"

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p != '{' || strstr(head, "\"model_id\"") ||
	    !strstr(head, "\"backend\""))
		return 0;
	return strstr(head, "\"server_info\"") ||
	       strstr(head, "_e2e_latency_ms\"") ||
	       strstr(head, "\"total_throughput\"") ? 91 : 0;
}

struct ctx {
	struct imp_sink *sink;
	const char *path;
	int first;
	char *pv[8];
	struct imp_param p[8];
	size_t np;
	char *model;		/* of the first line */
	struct fpstate fp;	/* the workload fingerprint (issue 37) */
};

static void add_param(struct ctx *x, const char *name, const cJSON *v)
{
	const char *s = jsonutil_scalar(v);

	if (!s || x->np == 8)
		return;
	x->pv[x->np] = xstrdup(s);
	x->p[x->np].name = name;
	x->p[x->np].value = x->pv[x->np];
	x->np++;
}

static int run_facts(struct ctx *x, const cJSON *doc)
{
	static const char *const keys[] = { "backend", "dataset_name", "tag",
					    NULL };
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(doc, "server_info");
	const cJSON *model = cJSON_GetObjectItemCaseSensitive(info,
							      "model_path");
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(info, "version");
	int rc = 0;

	for (int i = 0; keys[i] && !rc; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, keys[i]);

		if (cJSON_IsString(v))
			rc = x->sink->meta(x->sink, keys[i], v->valuestring);
	}
	if (!rc && cJSON_IsString(ver))
		rc = x->sink->meta(x->sink, "sglang_version", ver->valuestring);
	if (!rc && cJSON_IsString(model))
		rc = x->sink->meta(x->sink, "default.name", model->valuestring);
	return rc;
}

static int identity(struct ctx *x, const cJSON *doc)
{
	const cJSON *ds = cJSON_GetObjectItemCaseSensitive(doc, "dataset_name");
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(doc, "server_info");
	const cJSON *model = cJSON_GetObjectItemCaseSensitive(info,
							      "model_path");
	const cJSON *v;
	int rc;

	if (x->first && (rc = run_facts(x, doc)) < 0)
		return rc;
	if (x->first && cJSON_IsString(model))
		x->model = xstrdup(model->valuestring);
	else if (cJSON_IsString(model) &&
		 (!x->model || strcmp(x->model, model->valuestring)))
		add_param(x, "name", model);	/* another model: conflicts */
	if ((v = cJSON_GetObjectItemCaseSensitive(doc, "request_rate")) &&
	    !cJSON_IsNull(v))
		add_param(x, "request_rate", v);
	if ((v = cJSON_GetObjectItemCaseSensitive(doc, "max_concurrency")) &&
	    !cJSON_IsNull(v))
		add_param(x, "max_concurrency", v);
	if (cJSON_IsString(ds) && !strcmp(ds->valuestring, "random")) {
		if ((v = cJSON_GetObjectItemCaseSensitive(doc,
				"random_input_len")) && cJSON_IsNumber(v))
			add_param(x, "input_len", v);
		if ((v = cJSON_GetObjectItemCaseSensitive(doc,
				"random_output_len")) && cJSON_IsNumber(v))
			add_param(x, "output_len", v);
	}
	return 0;
}

/* A server_info text member, unless "auto" (the server chose: not a
 * stated setting). */
static void note_info(struct ctx *x, const cJSON *info, const char *key,
		      const char *field)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(info, key);

	if (cJSON_IsString(v) && !strcmp(v->valuestring, "auto"))
		return;
	fpstate_json(&x->fp, field, v);
}

/* What the line says of the workload actually run (docs/importers.md):
 * the means per completed request, the totals, the requested and
 * achieved load, the server's parallelism, dtype and KV-cache dtype. */
static void note_fp(struct ctx *x, const cJSON *doc)
{
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(doc,
							     "server_info");
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
#undef M
	note_info(x, info, "tp_size", "tp");
	note_info(x, info, "pp_size", "pp");
	note_info(x, info, "dp_size", "dp");
	note_info(x, info, "dtype", "precision");
	note_info(x, info, "kv_cache_dtype", "kv_cache");
	note_info(x, info, "version", "tool_version");
	fpstate_note(&x->fp, "tool", "sglang-bench-serving");
}

static int doc_fn(cJSON *doc, long line, void *ctx)
{
	struct ctx *x = ctx;
	struct serving s;
	int rc;

	if (!cJSON_IsObject(doc))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected a JSON object "
				    "(a benchmark result)", x->path, line);
	if ((rc = identity(x, doc)) < 0)
		goto done;
	note_fp(x, doc);
	serving_init(&s, x->sink, line, x->p, x->np);
	if ((rc = serving_doc(&s, doc, x->path)) < 0)
		goto done;
	if (!s.emitted)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no benchmark results "
			"(duration, throughput or latency keys) in this "
			"line", x->path, line);
done:
	x->first = 0;
	for (size_t i = 0; i < x->np; i++)
		free(x->pv[i]);
	x->np = 0;
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
	rc = hwutil_json_docs_keep(in->fp, in->path, serving_keep, doc_fn,
				   &x);
	if (rc >= 0)
		rc = fpstate_flush(&x.fp, sink);
	fpstate_release(&x.fp);
	free(x.model);
	return rc < 0 ? rc : 0;
}

const struct importer imp_sglang = {
	.name = "sglang",
	.kind = "silicon",
	.desc = "SGLang bench_serving --output-file JSON lines",
	.probe = probe,
	.import = import,
};
