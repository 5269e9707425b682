/*
 * llm-analysis: cli99/llm-analysis "<prefix>-summary.json" (infer mode).
 * Raw SI values: seconds, bytes, FLOPs. Phase latencies and their
 * attn/mlp/layernorm/tp_comm/embedding parts become time results on the
 * phase's workload; whole-request latencies become ttft/tpot/e2el on
 * the run's workload. The model's assumed workload fingerprint (issue
 * 37): seq_len and num_tokens_to_generate as input/output_len, tp_size,
 * pp_size, tool llm-analysis. See docs/importers-models.md.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/importer.h"
#include "base/jsonutil.h"
#include "base/error.h"

/* key suffix (after "prefill_" / "decode_") -> op for time results */
static const struct {
	const char *key, *op;
} parts[] = {
	{ "latency", "e2e" },
	{ "latency_fwd_attn", "attn" },
	{ "latency_fwd_mlp", "mlp" },
	{ "latency_fwd_layernorm", "norm" },
	{ "latency_fwd_tp_comm", "allreduce" },
	{ "latency_fwd_input_embedding", "embedding" },
	{ "latency_fwd_output_embedding_loss", "lm_head" },
};

/* keys on the phase's workload with another metric (op e2e) */
static const struct {
	const char *key, *metric, *unit;
} phase_keys[] = {
	{ "num_flops_fwd_total", "flops", "FLOP" },
	{ "activation_memory_per_gpu", "activation_memory", "B" },
	{ "tokens_per_sec", "throughput", "tokens/s" },
};

/* keys on the run's workload (op e2e) */
static const struct {
	const char *key, *metric, *unit;
} run_keys[] = {
	{ "prefill_latency", "ttft", "s" },
	{ "decode_latency", "tpot", "s" },
	{ "total_latency", "e2el", "s" },
	{ "total_tokens_per_sec", "throughput", "tokens/s" },
	{ "weight_memory_per_gpu", "weight_memory", "B" },
	{ "kv_cache_memory_per_gpu", "kv_cache_memory", "B" },
	{ "kv_cache_latency", "kv_cache_time", "s" },
	{ "flops_efficiency", "flops_efficiency", "fraction" },
	{ "hbm_memory_efficiency", "hbm_efficiency", "fraction" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (*head != '{' && !strstr(head, "{"))
		return 0;
	if (strstr(head, "\"prefill_latency") ||
	    strstr(head, "\"prefill_num_flops_fwd_total\""))
		return 93;
	return 0;
}

static int put(struct imp_sink *sink, const cJSON *doc, const char *path,
	       const char *key, const char *phase, const char *op,
	       const char *metric, const char *unit)
{
	struct imp_param prm = { "phase", phase };
	struct imp_record r;
	double v;
	int rc = jsonutil_number(doc, key, &v, path);

	if (rc)
		return rc < 0 ? rc : 0;
	if (v < 0)
		return pc_error_set(PC_EINVALID, "%s: key '%s': negative value "
				    "%g", path, key, v);
	imp_record_init(&r);
	r.params = phase ? &prm : NULL;
	r.nparams = phase ? 1 : 0;
	r.op = op;
	r.metric = metric;
	r.value = v;
	r.unit = unit;
	return sink->emit(sink, &r);
}

/* batch, sequence length and parallelism describe the workload */
static int workload(struct imp_sink *sink, const cJSON *doc, const char *path)
{
	static const struct {
		const char *key, *param;
		double skip;	/* the default that is left out */
	} p[] = {
		{ "batch_size_per_gpu", "bs", NAN }, { "seq_len", "seq", NAN },
		{ "tp_size", "tp", 1 }, { "pp_size", "pp", 1 },
	};
	char name[32], val[32];
	double v;
	int rc;

	for (size_t i = 0; i < N(p); i++) {
		if ((rc = jsonutil_number(doc, p[i].key, &v, path)) < 0)
			return rc;
		if (rc || v == p[i].skip)
			continue;
		snprintf(name, sizeof(name), "param.%s", p[i].param);
		snprintf(val, sizeof(val), "%.17g", v);
		if ((rc = sink->meta(sink, name, val)) < 0)
			return rc;
	}
	if (jsonutil_number(doc, "num_tokens_to_generate", &v, path) == 0) {
		snprintf(val, sizeof(val), "%.17g", v);
		return sink->meta(sink, "num_tokens_to_generate", val);
	}
	return 0;
}

/* What the model assumed of the workload, as a fingerprint. */
static int note_fp(struct imp_sink *sink, const cJSON *doc)
{
	static const char *const map[][2] = { { "seq_len", "input_len" },
		{ "num_tokens_to_generate", "output_len" },
		{ "tp_size", "tp" }, { "pp_size", "pp" } };
	struct fpstate f = { 0 };

	for (size_t i = 0; i < N(map); i++)
		fpstate_jnum(&f, map[i][1],
			     cJSON_GetObjectItemCaseSensitive(doc, map[i][0]));
	fpstate_note(&f, "tool", "llm-analysis");
	return fpstate_flush(&f, sink);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	static const char *const phases[] = { "prefill", "decode" };
	cJSON *doc = NULL;
	char key[96];
	int rc;

	if ((rc = jsonutil_parse_file(&doc, in->fp, in->path,
				      JSONUTIL_DOC_MAX)) < 0)
		return rc;
	if (!cJSON_IsObject(doc) ||
	    !cJSON_GetObjectItemCaseSensitive(doc, "prefill_latency")) {
		cJSON_Delete(doc);
		return pc_error_set(PC_EINVALID, "%s: not an llm-analysis "
				    "summary: no 'prefill_latency' key",
				    in->path);
	}
	if (!(rc = workload(sink, doc, in->path)))
		rc = note_fp(sink, doc);
	for (int ph = 0; ph < 2 && !rc; ph++) {
		for (size_t i = 0; i < N(parts) && !rc; i++) {
			snprintf(key, sizeof(key), "%s_%s", phases[ph],
				 parts[i].key);
			rc = put(sink, doc, in->path, key, phases[ph],
				 parts[i].op, "time", "s");
		}
		for (size_t i = 0; i < N(phase_keys) && !rc; i++) {
			snprintf(key, sizeof(key), "%s_%s", phases[ph],
				 phase_keys[i].key);
			rc = put(sink, doc, in->path, key, phases[ph], "e2e",
				 phase_keys[i].metric, phase_keys[i].unit);
		}
	}
	for (size_t i = 0; i < N(run_keys) && !rc; i++)
		rc = put(sink, doc, in->path, run_keys[i].key, NULL, "e2e",
			 run_keys[i].metric, run_keys[i].unit);
	cJSON_Delete(doc);
	return rc < 0 ? rc : 0;
}

const struct importer imp_llm_analysis = {
	.name = "llm-analysis",
	.kind = "roofline",
	.desc = "llm-analysis *-summary.json (latencies, FLOPs, memory)",
	.probe = probe,
	.import = import,
};
