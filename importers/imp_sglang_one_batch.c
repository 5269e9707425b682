/*
 * sglang-one-batch: SGLang `python -m sglang.bench_one_batch
 * --result-filename` JSON lines (issue 37 item 4): one static batch per
 * line, run in-process without a server: {run_name, batch_size,
 * input_len, output_len, prefill_latency, prefill_throughput,
 * median_decode_latency, median_decode_throughput, total_latency,
 * overall_throughput}, seconds and tokens/s. The batch shape is the
 * workload (bs, input_len, output_len, and run_name unless "default");
 * the latencies are the batch's: prefill -> ttft, the median decode step
 * -> tpot (a median: no mean is stated), the whole batch -> e2el.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/error.h"
#include "base/jsonutil.h"

#define GET(o, k) cJSON_GetObjectItemCaseSensitive(o, k)

static const struct {
	const char *key, *metric, *unit;
	int median;		/* the value is a median */
} keys[] = {
	{ "prefill_latency", "ttft", "s", 0 },
	{ "median_decode_latency", "tpot", "s", 1 },
	{ "total_latency", "e2el", "s", 0 },
	{ "prefill_throughput", "prefill_throughput", "tokens/s", 0 },
	{ "median_decode_throughput", "decode_throughput", "tokens/s", 1 },
	{ "overall_throughput", "total_throughput", "tokens/s", 0 },
};

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	/* above llm-analysis's 93, which looks for "prefill_latency" too */
	return !strncmp(p, "{\"run_name\"", 11) &&
	       strstr(head, "\"batch_size\"") &&
	       strstr(head, "\"prefill_latency\"") ? 96 : 0;
}

struct ctx {
	const char *path;
	struct imp_sink *sink;
	struct fpstate fp;
	long lines;
};

static int bad(struct ctx *x, long line, const char *key, const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': %s", x->path, line,
			    key, what);
}

static int line_fn(cJSON *doc, long line, void *ctx)
{
	static const char *const shape[] = { "batch_size", "input_len",
					     "output_len" };
	static const char *const param[] = { "bs", "input_len", "output_len" };
	struct ctx *x = ctx;
	struct stk_params par;
	struct stk_out o = { .sink = x->sink, .line = line };
	const cJSON *rn = GET(doc, "run_name");
	int rc = 0;

	memset(&par, 0, sizeof(par));
	if (!cJSON_IsObject(doc))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected a JSON object "
				    "(a bench_one_batch result)", x->path, line);
	for (int i = 0; i < 3; i++) {
		const cJSON *v = GET(doc, shape[i]);

		if (!cJSON_IsNumber(v) || v->valuedouble < 1 ||
		    v->valuedouble != floor(v->valuedouble)) {
			rc = bad(x, line, shape[i], v ? "not a whole number" :
				 "missing");
			goto done;
		}
		stk_params_add(&par, param[i], jsonutil_scalar(v));
	}
	if (cJSON_IsString(rn) && strcmp(rn->valuestring, "default"))
		stk_params_add(&par, "run", rn->valuestring);
	o.params = par.p;
	o.nparams = par.n;
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		const cJSON *v = GET(doc, keys[i].key);
		struct stk_stat st;

		if (!v || cJSON_IsNull(v))
			continue;
		if (!cJSON_IsNumber(v)) {
			rc = bad(x, line, keys[i].key, "not a number");
			goto done;
		}
		stk_stat_init(&st);
		if (keys[i].median)
			st.median = v->valuedouble;
		else
			st.mean = v->valuedouble;
		if ((rc = stk_stat_emit(&o, keys[i].metric, keys[i].unit,
					&st)) < 0)
			goto done;
	}
	if (!o.emitted) {
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no latency or throughput "
				  "in this line", x->path, line);
		goto done;
	}
	/* a static batch: every prompt of the given lengths, all at once */
	fpstate_json(&x->fp, "input_len", GET(doc, "input_len"));
	fpstate_num(&x->fp, "input_len_sd", 0);
	fpstate_json(&x->fp, "output_len", GET(doc, "output_len"));
	fpstate_num(&x->fp, "output_len_sd", 0);
	fpstate_json(&x->fp, "concurrency", GET(doc, "batch_size"));
	fpstate_note(&x->fp, "request_rate", "inf");
	fpstate_note(&x->fp, "ignore_eos", "true");
	fpstate_note(&x->fp, "warmup_excluded", "true");
	fpstate_note(&x->fp, "tool", "sglang-bench-one-batch");
	x->lines++;
done:
	stk_params_release(&par);
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.path = in->path;
	x.sink = sink;
	rc = hwutil_json_docs(in->fp, in->path, line_fn, &x);
	if (rc >= 0)
		rc = fpstate_flush(&x.fp, sink);
	fpstate_release(&x.fp);
	return rc < 0 ? rc : 0;
}

const struct importer imp_sglang_one_batch = {
	.name = "sglang-one-batch",
	.kind = "silicon",
	.desc = "SGLang bench_one_batch --result-filename JSON lines (one "
		"static batch per line: prefill, median decode step, total)",
	.probe = probe,
	.import = import,
};
