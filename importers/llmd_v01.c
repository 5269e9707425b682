/*
 * The llm-d Benchmark Report v0.1 (llmd.h): scenario {model, host
 * {accelerator[], type[]}, platform {engine[]}, load {name, args}},
 * metrics {time, requests, latency, throughput (numbers), service,
 * resources}. Written by native_to_br0_1.py; the harness in load.name
 * says what time.duration and requests.total mean.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/llmd.h"
#include "base/error.h"

#define GET LLMD_GET

static const struct {
	const char *key, *metric;
} latency[] = {
	{ "time_to_first_token", "ttft" },
	{ "time_per_output_token", "tpot" },
	{ "inter_token_latency", "itl" },
	{ "request_latency", "e2el" },
	{ "normalized_time_per_output_token", "ntpot" },
};

static const struct {
	const char *key, *metric, *unit;
} throughput[] = {
	{ "input_tokens_per_sec", "input_throughput", "tokens/s" },
	{ "output_tokens_per_sec", "output_throughput", "tokens/s" },
	{ "total_tokens_per_sec", "total_throughput", "tokens/s" },
	{ "requests_per_sec", "request_throughput", "req/s" },
};

#define N(a) (sizeof(a) / sizeof(*(a)))

/* scenario: the model, the hosts' accelerators and parallelism, the load
 * generator and (vllm-benchmark) its arguments. */
static int scenario(struct llmd *x, const cJSON *sc)
{
	const cJSON *m = GET(GET(sc, "model"), "name");
	const cJSON *q = GET(GET(sc, "model"), "quantization");
	const cJSON *ld = GET(sc, "load"), *name = GET(ld, "name"), *a;
	const char *acc = NULL;
	int accs = 0, rc;

	if (!cJSON_IsObject(sc))
		return llmd_bad(x, "scenario", "scenario", "missing (required "
				"by the schema)");
	/* outside a harness pod native_to_br0_1.py writes "unknown" */
	if (cJSON_IsString(m) && strcmp(m->valuestring, "unknown") &&
	    (rc = x->sink->meta(x->sink, "default.name", m->valuestring)) < 0)
		return rc;
	if (cJSON_IsString(q))
		fpstate_note(&x->fp, "precision", q->valuestring);
	cJSON_ArrayForEach(a, GET(GET(sc, "host"), "accelerator")) {
		const cJSON *am = GET(a, "model"), *par = GET(a, "parallelism");

		if (cJSON_IsString(am)) {
			accs += !acc || strcmp(acc, am->valuestring);
			acc = acc ? acc : am->valuestring;
		}
		fpstate_json(&x->fp, "tp", GET(par, "tp"));
		fpstate_json(&x->fp, "pp", GET(par, "pp"));
		fpstate_json(&x->fp, "dp", GET(par, "dp"));
	}
	if (accs == 1 && (rc = x->sink->meta(x->sink, "platform", acc)) < 0)
		return rc;
	if (cJSON_IsString(name)) {
		x->tool = name->valuestring;
		fpstate_note(&x->fp, "tool", name->valuestring);
		if ((rc = x->sink->meta(x->sink, "load_tool",
					name->valuestring)) < 0)
			return rc;
	}
	if (x->tool && !strcmp(x->tool, "vllm-benchmark")) {
		const cJSON *args = GET(ld, "args"), *np = GET(args, "num_prompts");
		const cJSON *rr = GET(args, "request_rate");
		cJSON *inf = NULL;

		if (cJSON_IsNumber(np)) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%.0f", np->valuedouble);
			stk_params_add(&x->par, "num_prompts", buf);
		}
		/* vLLM writes request_rate "inf" as a text */
		if (cJSON_IsString(rr) && !strcmp(rr->valuestring, "inf"))
			rr = inf = cJSON_CreateNumber(INFINITY);
		llmd_load(x, rr, GET(args, "max_concurrency"));
		cJSON_Delete(inf);
	}
	return 0;
}

int llmd_v01(struct llmd *x, const cJSON *doc)
{
	const cJSON *m = GET(doc, "metrics"), *req, *lat, *thr;
	struct stk_stat in, out;
	double failures, v;
	int rc;

	if ((rc = scenario(x, GET(doc, "scenario"))) < 0)
		return rc;
	if (!cJSON_IsObject(m))
		return llmd_bad(x, "metrics", "metrics", "missing (required by "
				"the schema)");
	x->o.params = x->par.p;
	x->o.nparams = x->par.n;
	req = GET(m, "requests");
	if (!cJSON_IsObject(req))
		return llmd_bad(x, "metrics", "metrics.requests", "missing "
				"(required by the schema)");
	if ((rc = llmd_requests(x, req, "metrics.requests", &failures)) < 0)
		return rc;
	if ((rc = llmd_stat(x, req, "input_length", "requests.input_length",
			    "input_sequence_length", "count", 1, &in)) < 0 ||
	    (rc = llmd_stat(x, req, "output_length", "requests.output_length",
			    "output_sequence_length", "count", 1, &out)) < 0)
		return rc;
	fpstate_num(&x->fp, "input_len", in.mean);
	fpstate_num(&x->fp, "input_len_sd", in.std);
	fpstate_num(&x->fp, "output_len", out.mean);
	fpstate_num(&x->fp, "output_len_sd", out.std);
	lat = GET(m, "latency");
	for (size_t i = 0; i < N(latency); i++) {
		char path[96];

		snprintf(path, sizeof(path), "latency.%s", latency[i].key);
		if ((rc = llmd_stat(x, lat, latency[i].key, path,
				    latency[i].metric, "time", 1, NULL)) < 0)
			return rc;
	}
	thr = GET(m, "throughput");
	for (size_t i = 0; i < N(throughput); i++) {
		if ((rc = llmd_num(x, thr, throughput[i].key, "throughput",
				   &v)) < 0)
			return rc;
		if (rc == 0 &&
		    (rc = stk_scalar(&x->o, NULL, throughput[i].metric, v,
				     throughput[i].unit)) < 0)
			return rc;
		if (rc == 0 && !strcmp(throughput[i].key, "requests_per_sec"))
			fpstate_num(&x->fp, "achieved_request_rate", v);
	}
	/* inference-perf's converter writes load_summary.send_duration (the
	 * spread of the send times) as time.duration: not the run's */
	if ((rc = llmd_num(x, GET(m, "time"), "duration", "metrics.time",
			   &v)) < 0)
		return rc;
	if (rc == 0 &&
	    (rc = stk_scalar(&x->o, NULL, x->tool && !strcmp(x->tool,
			     "inference-perf") ? "send_duration" : "duration",
			     v, "s")) < 0)
		return rc;
	if (GET(m, "service") || GET(m, "resources"))
		x->sink->warn(x->sink, "%s: metrics.service and "
			      "metrics.resources are not read", x->in->path);
	return 0;
}
