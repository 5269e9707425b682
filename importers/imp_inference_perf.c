/*
 * inference-perf: kubernetes-sigs/inference-perf's request lifecycle
 * reports (issue 37 item 4): summary_lifecycle_metrics.json,
 * stage_<N>_lifecycle_metrics.json and the adapter_<A>_... variants, all
 * one summarize_requests() object {benchmark_time_seconds, load_summary,
 * successes, failures}. Two writer generations: 2026-08 (prompt_tokens
 * with totals, the server-counted output_tokens, goodput_metrics,
 * failures.by_label) and 2025 (prompt_len, no benchmark_time_seconds).
 * Latency blocks {mean, min, max, median, p0.1 .. p99.9} in seconds; the
 * stage's requested rate and concurrency become the workload and the
 * fingerprint (docs/importers.md).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/error.h"
#include "base/jsonutil.h"
#include "base/util.h"

/* successes.latency.<key> -> metric (seconds) */
static const struct ip_block {
	const char *key, *metric;
} latency[] = {
	{ "request_latency", "e2el" },
	{ "time_to_first_token", "ttft" },
	{ "time_per_output_token", "tpot" },
	{ "inter_token_latency", "itl" },
	{ "normalized_time_per_output_token", "ntpot" },
};

/* successes.throughput.<key> -> metric */
static const struct ip_rate {
	const char *key, *metric, *unit;
} rates[] = {
	{ "requests_per_sec", "request_throughput", "req/s" },
	{ "input_tokens_per_sec", "input_throughput", "tokens/s" },
	{ "output_tokens_per_sec", "output_throughput", "tokens/s" },
	{ "total_tokens_per_sec", "total_throughput", "tokens/s" },
};

#define N(a) (sizeof(a) / sizeof(*(a)))
#define GET(o, k) cJSON_GetObjectItemCaseSensitive(o, k)

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p != '{' || !strstr(head, "\"load_summary\""))
		return 0;
	return strstr(head, "\"successes\"") ||
	       strstr(head, "\"schedule_delay\"") ? 90 : 0;
}

struct ctx {
	struct imp_input *in;
	struct imp_sink *sink;
	struct stk_out o;
	struct stk_params par;
	struct fpstate fp;
	int docs;
};

static int bad(struct ctx *x, const char *key, const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': %s", x->in->path,
			    stk_key_line(x->in->fp, key), key, what);
}

/* A number member that must be there: errors name obj_name.key at the
 * line of obj_name (each parent key appears once in the file). */
static int need_num(struct ctx *x, const cJSON *obj, const char *obj_name,
		    const char *key, double *out)
{
	const cJSON *v = GET(obj, key);
	char field[96];

	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return 0;
	}
	snprintf(field, sizeof(field), "%s.%s", obj_name, key);
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': %s", x->in->path,
			    stk_key_line(x->in->fp, obj_name), field,
			    v ? "not a number" : "missing");
}

/* One summarize() block: null (no values) or {mean, min, max, median,
 * pNN}; median also as <m>_p50 so every importer has p50. */
static int block(struct ctx *x, const cJSON *obj, const char *key,
		 const char *metric, const char *unit, struct stk_stat *out)
{
	const cJSON *b = GET(obj, key), *kv;
	struct stk_stat st;

	stk_stat_init(&st);
	if (!b || cJSON_IsNull(b)) {
		if (out)
			*out = st;
		return 0;
	}
	if (!cJSON_IsObject(b))
		return bad(x, key, "expected an object of statistics or null");
	cJSON_ArrayForEach(kv, b) {
		if (!cJSON_IsNumber(kv)) {
			if (!strcmp(kv->string, "total") || cJSON_IsNull(kv))
				continue;
			return bad(x, key, "a statistic is not a number");
		}
		if (!strcmp(kv->string, "median"))
			stk_stat_set(&st, "p50", kv->valuedouble);
		stk_stat_set(&st, kv->string, kv->valuedouble);
	}
	if (out)
		*out = st;
	return metric ? stk_stat_emit(&x->o, metric, unit, &st) : 0;
}

/* The load: parameters of the workload and the fingerprint. A
 * concurrent stage writes its num_requests as requested_rate (main.py
 * enqueues them all within one second): that is no rate, the rate
 * requested is "all at once", inf, as vllm bench serve says. */
static int load(struct ctx *x, const cJSON *ls)
{
	const cJSON *rr = GET(ls, "requested_rate"), *c = GET(ls, "concurrency");
	char buf[40];

	if (rr && !cJSON_IsNumber(rr))
		return bad(x, "requested_rate", "not a number");
	if (c && !cJSON_IsNumber(c))
		return bad(x, "concurrency", "not a number");
	if (cJSON_IsNumber(c)) {
		snprintf(buf, sizeof(buf), "%.10g", c->valuedouble);
		stk_params_add(&x->par, "max_concurrency", buf);
		stk_params_add(&x->par, "request_rate", "inf");
		fpstate_json(&x->fp, "concurrency", c);
		fpstate_note(&x->fp, "request_rate", "inf");
	} else if (cJSON_IsNumber(rr)) {
		snprintf(buf, sizeof(buf), "%.10g", rr->valuedouble);
		stk_params_add(&x->par, "request_rate", buf);
		fpstate_json(&x->fp, "request_rate", rr);
	}
	fpstate_json(&x->fp, "achieved_request_rate", GET(ls, "achieved_rate"));
	return 0;
}

/* "adapter_<A>_lifecycle_metrics" or "adapter_<A>_stage_<N>_...": A. */
static void adapter(struct ctx *x, const char *path)
{
	const char *b = strrchr(path, '/'), *e;
	char name[128];

	b = b ? b + 1 : path;
	if (strncmp(b, "adapter_", 8))
		return;
	b += 8;
	if (!(e = strstr(b, "_lifecycle_metrics")))
		return;
	for (const char *s = b; (s = strstr(s, "_stage_")) && s < e; s++)
		e = s;
	if (e > b && (size_t)(e - b) < sizeof(name)) {
		memcpy(name, b, (size_t)(e - b));
		name[e - b] = '\0';
		stk_params_add(&x->par, "lora_adapter", name);
	}
}

static int successes(struct ctx *x, const cJSON *s, double *count)
{
	const cJSON *lat = GET(s, "latency"), *thr = GET(s, "throughput");
	const cJSON *pt = GET(s, "prompt_tokens"), *ot = GET(s, "output_tokens");
	struct stk_stat in, out;
	int rc, legacy = pt == NULL;

	if ((rc = need_num(x, s, "successes", "count", count)) < 0)
		return rc;
	if (!cJSON_IsObject(lat))
		return bad(x, "latency", "missing in 'successes' (not a "
			   "lifecycle report)");
	for (size_t i = 0; i < N(latency); i++)
		if ((rc = block(x, lat, latency[i].key, latency[i].metric,
				"s", NULL)) < 0)
			return rc;
	for (size_t i = 0; cJSON_IsObject(thr) && i < N(rates); i++) {
		double v;

		if (!GET(thr, rates[i].key))
			continue;
		if ((rc = need_num(x, thr, "throughput", rates[i].key, &v)) < 0 ||
		    (rc = stk_scalar(&x->o, NULL, rates[i].metric, v,
				     rates[i].unit)) < 0)
			return rc;
	}
	if ((rc = block(x, s, legacy ? "prompt_len" : "prompt_tokens",
			"input_sequence_length", "", &in)) < 0 ||
	    (rc = block(x, s, "output_len", "output_sequence_length", "",
			&out)) < 0)
		return rc;
	fpstate_num(&x->fp, "input_len", in.mean);
	fpstate_num(&x->fp, "output_len", out.mean);
	if (legacy) {	/* 2025: both counted by the client's tokenizer */
		fpstate_num(&x->fp, "input_tokens", in.mean * *count);
		fpstate_num(&x->fp, "output_tokens", out.mean * *count);
		fpstate_note(&x->fp, "token_counter", "client");
	} else {
		const cJSON *t = GET(pt, "total");

		if (!cJSON_IsNumber(t))
			return bad(x, "prompt_tokens", "no number 'total'");
		if ((rc = stk_scalar(&x->o, NULL, "input_tokens", t->valuedouble,
				     "")) < 0)
			return rc;
		fpstate_json(&x->fp, "input_tokens", t);
		fpstate_num(&x->fp, "output_tokens", out.mean * *count);
	}
	if (cJSON_IsObject(ot) && cJSON_IsNumber(GET(ot, "total")) &&
	    (rc = stk_scalar(&x->o, NULL, "output_tokens",
			     GET(ot, "total")->valuedouble, "")) < 0)
		return rc;
	if (cJSON_IsObject(GET(s, "goodput_metrics"))) {
		const cJSON *g = GET(s, "goodput_metrics");
		double v;

		if ((rc = need_num(x, g, "goodput_metrics", "request_goodput",
				   &v)) < 0 ||
		    (rc = stk_scalar(&x->o, NULL, "request_goodput", v,
				     "req/s")) < 0 ||
		    (rc = need_num(x, g, "goodput_metrics", "token_goodput",
				   &v)) < 0 ||
		    (rc = stk_scalar(&x->o, NULL, "token_goodput", v,
				     "tokens/s")) < 0)
			return rc;
	}
	return 0;
}

static int doc_fn(cJSON *doc, long line, void *ctx)
{
	struct ctx *x = ctx;
	const cJSON *ls = GET(doc, "load_summary"), *s = GET(doc, "successes");
	const cJSON *f = GET(doc, "failures"), *bt;
	double ok, failed;
	int rc;

	if (x->docs++)
		return pc_error_set(PC_EINVALID, "%s:%ld: a second JSON "
				    "document", x->in->path, line);
	if (!cJSON_IsObject(doc) || !cJSON_IsObject(ls) ||
	    !cJSON_IsObject(s) || !cJSON_IsObject(f))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected an "
			"inference-perf report {load_summary, successes, "
			"failures}", x->in->path, line);
	if (!GET(s, "latency") && GET(s, "rate"))
		return bad(x, "successes", "an inference-perf Prometheus report "
			   "(summary_prometheus_metrics.json: the server's "
			   "metrics), not a request lifecycle report: not read");
	adapter(x, x->in->path);
	if ((rc = load(x, ls)) < 0)
		return rc;
	x->o.params = x->par.p;
	x->o.nparams = x->par.n;
	x->o.line = line;
	if ((rc = successes(x, s, &ok)) < 0 ||
	    (rc = need_num(x, f, "failures", "count", &failed)) < 0 ||
	    (rc = stk_scalar(&x->o, NULL, "completed", ok, "")) < 0 ||
	    (rc = stk_scalar(&x->o, NULL, "failed", failed, "")) < 0)
		return rc;
	bt = GET(doc, "benchmark_time_seconds");
	if (bt && !cJSON_IsNumber(bt))
		return bad(x, "benchmark_time_seconds", "not a number");
	if (cJSON_IsNumber(bt) &&
	    (rc = stk_scalar(&x->o, NULL, "duration", bt->valuedouble,
			     "s")) < 0)
		return rc;
	fpstate_note(&x->fp, "tool", "inference-perf");
	return 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.in = in;
	x.sink = sink;
	x.o.sink = sink;
	rc = hwutil_json_docs(in->fp, in->path, doc_fn, &x);
	if (rc >= 0)
		rc = fpstate_flush(&x.fp, sink);
	fpstate_release(&x.fp);
	stk_params_release(&x.par);
	return rc < 0 ? rc : 0;
}

const struct importer imp_inference_perf = {
	.name = "inference-perf",
	.kind = "silicon",
	.desc = "kubernetes-sigs/inference-perf lifecycle report "
		"(summary/stage_N/adapter_*_lifecycle_metrics.json, 2025 and "
		"2026 layouts; requested vs achieved load, goodput)",
	.probe = probe,
	.import = import,
};
