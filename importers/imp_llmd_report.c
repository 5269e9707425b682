/*
 * llmd-report: the llm-d Benchmark Report (llm-d-benchmark's standard
 * report that each harness writes next to its native results: inference-
 * perf, vllm-benchmark, guidellm, aiperf, inferencemax ...; issue 37 item
 * 4). YAML as the harness writes it (benchmark_report_v0.2,_*.yaml) or
 * JSON; version 0.2 and 0.2.1 here (run, scenario.stack/load,
 * results.request_performance.aggregate), 0.1 in llmd_v01.c. The stack's
 * inference engines name the model, the platform and the parallelism,
 * the load its generator, rate and concurrency (docs/importers.md).
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/llmd.h"
#include "importers/yamlsub.h"
#include "base/error.h"
#include "base/jsonutil.h"

static const struct {
	const char *key, *metric, *dim;
} latency[] = {
	{ "time_to_first_token", "ttft", "time" },
	{ "time_per_output_token", "tpot", "time" },
	{ "inter_token_latency", "itl", "time" },
	{ "request_latency", "e2el", "time" },
	{ "normalized_time_per_output_token", "ntpot", "time" },
}, throughput[] = {
	{ "input_token_rate", "input_throughput", "tokens" },
	{ "output_token_rate", "output_throughput", "tokens" },
	{ "total_token_rate", "total_throughput", "tokens" },
	{ "request_rate", "request_throughput", "requests" },
};

#define N(a) (sizeof(a) / sizeof(*(a)))
#define GET LLMD_GET

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);
	const char *base = filename ? strrchr(filename, '/') : NULL;

	(void)len;
	base = base ? base + 1 : filename;
	if (*p == '{')	/* export_json: version first */
		return strstr(head, "\"version\"") &&
		       (strstr(head, "\"results\"") ||
			strstr(head, "\"scenario\"")) &&
		       (strstr(head, "\"request_performance\"") ||
			strstr(head, "\"stack\"") ||
			strstr(head, "\"time_to_first_token\"")) ? 90 : 0;
	/* yaml.dump sorts the keys: results (0.2) or metrics (0.1) first */
	if (!strncmp(p, "results:\n", 9) &&
	    strstr(head, "\n  request_performance:"))
		return 90;
	if (!strncmp(p, "metrics:\n", 9) && strstr(head, "\n  latency:") &&
	    strstr(head, "time_to_first_token:"))
		return 90;
	return base && !strncmp(base, "benchmark_report", 16) &&
	       isalpha((unsigned char)*p) ? 60 : 0;
}

/* The inference engines of the stack: model, platform, parallelism. */
static int stack(struct llmd *x, const cJSON *st)
{
	const cJSON *c;
	const char *model = NULL, *acc = NULL;
	int models = 0, accs = 0, rc;

	if (st && !cJSON_IsArray(st))
		return llmd_bad(x, "stack", "scenario.stack", "not a list");
	cJSON_ArrayForEach(c, st) {
		const cJSON *s = GET(c, "standardized"), *k = GET(s, "kind");
		const cJSON *m = GET(GET(s, "model"), "name");
		const cJSON *a = GET(s, "accelerator"), *par;

		if (!cJSON_IsString(k) || strcmp(k->valuestring,
						 "inference_engine"))
			continue;
		if (cJSON_IsString(m)) {
			models += !model || strcmp(model, m->valuestring);
			model = model ? model : m->valuestring;
		}
		if (cJSON_IsString(GET(a, "model"))) {
			accs += !acc || strcmp(acc, GET(a, "model")->valuestring);
			acc = acc ? acc : GET(a, "model")->valuestring;
		}
		par = GET(a, "parallelism");
		fpstate_json(&x->fp, "tp", GET(par, "tp"));
		fpstate_json(&x->fp, "pp", GET(par, "pp"));
		fpstate_json(&x->fp, "dp", GET(par, "dp"));
	}
	if (models == 1 &&
	    (rc = x->sink->meta(x->sink, "default.name", model)) < 0)
		return rc;
	if (models > 1)
		x->sink->warn(x->sink, "%s: the stack serves several models: "
			      "none names the workload", x->in->path);
	if (accs == 1 && (rc = x->sink->meta(x->sink, "platform", acc)) < 0)
		return rc;
	return 0;
}

static int scenario(struct llmd *x, const cJSON *sc, const cJSON *req)
{
	const cJSON *ld = GET(GET(sc, "load"), "standardized");
	const cJSON *tool = GET(ld, "tool"), *tv = GET(ld, "tool_version");
	int rc;

	if ((rc = stack(x, GET(sc, "stack"))) < 0)
		return rc;
	if (cJSON_IsString(tool)) {
		x->tool = tool->valuestring;
		fpstate_note(&x->fp, "tool", tool->valuestring);
		if ((rc = x->sink->meta(x->sink, "load_tool",
					tool->valuestring)) < 0)
			return rc;
	}
	if (cJSON_IsString(tv))
		fpstate_note(&x->fp, "tool_version", tv->valuestring);
	llmd_load(x, GET(ld, "rate_qps"), GET(ld, "concurrency"));
	/* vllm bench serve's workload key has num_prompts: the converters
	 * of vllm-benchmark and inferencemax write it as requests.total */
	if (x->tool && (!strcmp(x->tool, "vllm-benchmark") ||
			!strcmp(x->tool, "inferencemax")) &&
	    cJSON_IsNumber(GET(req, "total"))) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%.0f", GET(req, "total")->valuedouble);
		stk_params_add(&x->par, "num_prompts", buf);
	}
	return 0;
}

static int aggregate(struct llmd *x, const cJSON *agg)
{
	const cJSON *req = GET(agg, "requests"), *lat = GET(agg, "latency");
	const cJSON *thr = GET(agg, "throughput");
	struct stk_stat in, out, rr;
	double failures = 0;
	int rc;

	if (req && (rc = llmd_requests(x, req, "results.request_performance."
				       "aggregate.requests", &failures)) < 0)
		return rc;
	if (x->tool && !strcmp(x->tool, "vllm-benchmark") && failures > 0 &&
	    GET(req, "input_length")) {
		/* import_vllm_benchmark(): total_input_tokens (completed
		 * requests only) / num_prompts: no mean of anything */
		x->sink->warn(x->sink, "%s: 'requests.input_length' of a "
			"vllm-benchmark report with failures divides the "
			"completed requests' tokens by every prompt: not "
			"stored", x->in->path);
		stk_stat_init(&in);
	} else if ((rc = llmd_stat(x, req, "input_length",
				   "requests.input_length",
				   "input_sequence_length", "count", 1,
				   &in)) < 0) {
		return rc;
	}
	if ((rc = llmd_stat(x, req, "output_length", "requests.output_length",
			    "output_sequence_length", "count", 1, &out)) < 0)
		return rc;
	fpstate_num(&x->fp, "input_len", in.mean);
	fpstate_num(&x->fp, "input_len_sd", in.std);
	fpstate_num(&x->fp, "output_len", out.mean);
	fpstate_num(&x->fp, "output_len_sd", out.std);
	for (size_t i = 0; i < N(latency); i++) {
		char path[96];

		snprintf(path, sizeof(path), "latency.%s", latency[i].key);
		if ((rc = llmd_stat(x, lat, latency[i].key, path,
				    latency[i].metric, latency[i].dim, 1,
				    NULL)) < 0)
			return rc;
	}
	for (size_t i = 0; i < N(throughput); i++) {
		char path[96];

		snprintf(path, sizeof(path), "throughput.%s",
			 throughput[i].key);
		if ((rc = llmd_stat(x, thr, throughput[i].key, path,
				    throughput[i].metric, throughput[i].dim,
				    1, &rr)) < 0)
			return rc;
		if (!strcmp(throughput[i].key, "request_rate"))
			fpstate_num(&x->fp, "achieved_request_rate", rr.mean);
	}
	return 0;
}

static int v02(struct llmd *x, const cJSON *doc)
{
	const cJSON *res = GET(doc, "results"), *rp, *agg;
	int rc;

	if (!cJSON_IsObject(res))
		return llmd_bad(x, "results", "results", "missing (required by "
				"the schema)");
	rp = GET(res, "request_performance");
	agg = GET(rp, "aggregate");
	if (!cJSON_IsObject(agg))
		return llmd_bad(x, "results", "results.request_performance."
				"aggregate", "missing: no request performance "
				"to import");
	if ((rc = scenario(x, GET(doc, "scenario"),
			   GET(agg, "requests"))) < 0)
		return rc;
	x->o.params = x->par.p;
	x->o.nparams = x->par.n;
	if ((rc = aggregate(x, agg)) < 0)
		return rc;
	if (GET(res, "session_performance") || GET(res, "observability") ||
	    GET(rp, "time_series"))
		x->sink->warn(x->sink, "%s: session performance, observability "
			      "and time series are not read", x->in->path);
	if (cJSON_IsString(GET(GET(doc, "run"), "uid")))
		return x->sink->meta(x->sink, "report_uid",
				     GET(GET(doc, "run"), "uid")->valuestring);
	return 0;
}

static int doc_fn(cJSON *doc, long line, void *ctx)
{
	struct llmd *x = ctx;
	const cJSON *v = GET(doc, "version");
	int rc;

	if (x->docs++)
		return pc_error_set(PC_EINVALID, "%s:%ld: a second JSON "
				    "document (one report per file)",
				    x->in->path, line);
	if (!cJSON_IsObject(doc))
		return pc_error_set(PC_EINVALID, "%s:1: expected a benchmark "
				    "report (a mapping)", x->in->path);
	if (!v)
		return llmd_bad(x, "version", "version", "missing (a cut file? "
				"yaml.dump writes it last)");
	if (!cJSON_IsString(v))
		return llmd_bad(x, "version", "version", "not a text");
	x->o.line = 1;
	if (!strcmp(v->valuestring, "0.1"))
		rc = llmd_v01(x, doc);
	else if (!strcmp(v->valuestring, "0.2") ||
		 !strcmp(v->valuestring, "0.2.1"))
		rc = v02(x, doc);
	else
		return llmd_bad(x, "version", "version", "not a version this "
				"reader knows (0.1, 0.2, 0.2.1)");
	if (rc >= 0 && !x->o.emitted)
		rc = llmd_bad(x, "version", "results", "no results");
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct llmd x;
	cJSON *doc = NULL;
	char c = 0;
	int rc;

	memset(&x, 0, sizeof(x));
	x.in = in;
	x.sink = sink;
	x.o.sink = sink;
	/* JSON when the first character past a BOM and blanks is '{' */
	for (int k; (k = getc(in->fp)) != EOF;) {
		if (k == 0xef || k == 0xbb || k == 0xbf || k == ' ' ||
		    k == '\t' || k == '\r' || k == '\n')
			continue;
		c = (char)k;
		break;
	}
	rewind(in->fp);
	x.yaml = c != '{';
	if (!x.yaml) {
		rc = hwutil_json_docs(in->fp, in->path, doc_fn, &x);
	} else if ((rc = yamlsub_parse(&doc, in->fp, in->path)) >= 0) {
		rc = doc_fn(doc, 1, &x);
		cJSON_Delete(doc);
	}
	if (rc >= 0)
		rc = fpstate_flush(&x.fp, sink);
	fpstate_release(&x.fp);
	stk_params_release(&x.par);
	return rc < 0 ? rc : 0;
}

const struct importer imp_llmd_report = {
	.name = "llmd-report",
	.kind = "silicon",
	.desc = "llm-d Benchmark Report v0.1, v0.2, v0.2.1 (YAML as "
		"llm-d-benchmark writes it, or JSON; any harness)",
	.probe = probe,
	.import = import,
};
