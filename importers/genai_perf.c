/* genai-perf JSON identity and telemetry (see genai_perf.h). */
#include "importers/genai_perf.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/fpstate.h"
#include "base/error.h"
#include "base/jsonutil.h"
#include "base/units.h"

/* doc.a.b.c (NULL-terminated path) or NULL. */
static const cJSON *at(const cJSON *doc, const char *const *path)
{
	for (; doc && *path; path++)
		doc = cJSON_GetObjectItemCaseSensitive(doc, *path);
	return doc;
}

static const char *first_string(const cJSON *v)
{
	if (cJSON_IsArray(v))
		v = cJSON_GetArrayItem(v, 0);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int genai_perf_identity(struct imp_sink *sink, const cJSON *doc,
			struct imp_input *in)
{
	static const char *const flat_c[] = { "concurrency", NULL };
	static const char *const nest_c[] = { "perf_analyzer", "stimulus",
					      "concurrency", NULL };
	static const char *const flat_i[] = { "synthetic_input_tokens_mean",
					      NULL };
	static const char *const nest_i[] = { "input", "synthetic_tokens",
					      "mean", NULL };
	static const char *const flat_o[] = { "output_tokens_mean", NULL };
	static const char *const nest_o[] = { "input", "output_tokens", "mean",
					      NULL };
	/* AIPerf: loadgen.concurrency, input.prompt.{input,output}_tokens */
	static const char *const ai_c[] = { "loadgen", "concurrency", NULL };
	static const char *const ai_i[] = { "input", "prompt", "input_tokens",
					    "mean", NULL };
	static const char *const ai_o[] = { "input", "prompt", "output_tokens",
					    "mean", NULL };
	static const char *const *const flat[] = { flat_c, flat_i, flat_o };
	static const char *const *const nest[] = { nest_c, nest_i, nest_o };
	static const char *const *const aip[] = { ai_c, ai_i, ai_o };
	static const char *const ai_model[] = { "endpoint", "model_names",
						NULL };
	static const char *const names[] = { "param.concurrency",
		"param.input_len", "param.output_len" };
	const cJSON *ic = cJSON_GetObjectItemCaseSensitive(doc,
							   "input_config");
	const char *model;
	int rc;

	(void)in;
	if (!cJSON_IsObject(ic))
		return 0;
	model = first_string(cJSON_GetObjectItemCaseSensitive(ic, "model"));
	if (!model)
		model = first_string(cJSON_GetObjectItemCaseSensitive(ic,
							"model_names"));
	if (!model)
		model = first_string(at(ic, ai_model));
	if (model && (rc = sink->meta(sink, "default.name", model)) < 0)
		return rc;
	for (int i = 0; i < 3; i++) {
		const cJSON *v = at(ic, flat[i]);

		if (!cJSON_IsNumber(v))
			v = at(ic, nest[i]);
		if (!cJSON_IsNumber(v))
			v = at(ic, aip[i]);
		/* genai-perf writes -1 for "not set" */
		if (cJSON_IsNumber(v) && v->valuedouble >= 0 &&
		    (rc = sink->meta(sink, names[i], jsonutil_scalar(v))) < 0)
			return rc;
	}
	return 0;
}

/* stat of doc's metric object (avg, std ...) or NULL */
static const cJSON *stat_of(const cJSON *doc, const char *metric,
			    const char *stat)
{
	const char *const path[] = { metric, stat, NULL };

	return at(doc, path);
}

/* The first of three paths (NULL ends early) that is a number >= 0. */
static const cJSON *one_of(const cJSON *ic, const char *const *a,
			   const char *const *b, const char *const *c)
{
	const char *const *const p[] = { a, b, c };

	for (int i = 0; i < 3 && p[i]; i++) {
		const cJSON *v = at(ic, p[i]);

		if (cJSON_IsNumber(v) && v->valuedouble >= 0)
			return v;
	}
	return NULL;
}

int genai_perf_fp(struct imp_sink *sink, const cJSON *doc, const char *tool)
{
	static const char *const c1[] = { "concurrency", NULL };
	static const char *const c2[] = { "perf_analyzer", "stimulus",
					  "concurrency", NULL };
	static const char *const c3[] = { "loadgen", "concurrency", NULL };
	static const char *const r1[] = { "request_rate", NULL };
	static const char *const r2[] = { "perf_analyzer", "stimulus",
					  "request_rate", NULL };
	static const char *const r3[] = { "loadgen", "request_rate", NULL };
	static const char *const e1[] = { "extra_inputs", "ignore_eos", NULL };
	static const char *const e2[] = { "input", "extra", "ignore_eos",
					  NULL };
	static const char *const w3[] = { "loadgen", "warmup_request_count",
					  NULL };
	const cJSON *ic = cJSON_GetObjectItemCaseSensitive(doc,
							   "input_config");
	struct fpstate f = { 0 };
	const cJSON *v;

	fpstate_json(&f, "input_len", stat_of(doc, "input_sequence_length",
					      "avg"));
	fpstate_json(&f, "input_len_sd", stat_of(doc, "input_sequence_length",
						 "std"));
	fpstate_json(&f, "output_len", stat_of(doc, "output_sequence_length",
					       "avg"));
	fpstate_json(&f, "output_len_sd", stat_of(doc,
						  "output_sequence_length",
						  "std"));
	fpstate_json(&f, "output_tokens", stat_of(doc, "total_output_tokens",
						  "avg"));
	fpstate_json(&f, "achieved_request_rate", stat_of(doc,
				"request_throughput", "avg"));
	if (cJSON_IsObject(ic)) {
		fpstate_json(&f, "concurrency", one_of(ic, c1, c2, c3));
		fpstate_json(&f, "request_rate", one_of(ic, r1, r2, r3));
		v = at(ic, e1);
		if (!cJSON_IsBool(v))
			v = at(ic, e2);
		if (cJSON_IsBool(v))
			fpstate_json(&f, "ignore_eos", v);
		v = at(ic, w3);
		if (cJSON_IsNumber(v) && v->valuedouble > 0)
			fpstate_note(&f, "warmup_excluded", "true");
	}
	fpstate_note(&f, "tool", tool);
	return fpstate_flush(&f, sink);
}

static const struct {
	const char *key, *metric, *dim;
	int sum;		/* node value: sum over GPUs, else mean */
} tele[] = {
	{ "gpu_power_usage", "power", "power", 1 },
	{ "energy_consumption", "energy", "energy", 1 },
	{ "gpu_utilization", "utilization", "ratio", 0 },
	{ "gpu_memory_used", "memory_used", "bytes", 1 },
};

/* Two layouts of a telemetry metric: per GPU {"0": {avg, p99 ...}} or
 * per statistic {"avg": {"gpu0": x}, "p99": {...}} (genai-perf's own
 * telemetry export). The second is turned into the first (a new tree;
 * NULL when m already is per GPU). */
static cJSON *transpose(const cJSON *m)
{
	const cJSON *avg = cJSON_GetObjectItemCaseSensitive(m, "avg"), *g,
		    *st;
	cJSON *tr;

	if (!cJSON_IsObject(avg))
		return NULL;
	tr = cJSON_CreateObject();
	cJSON_ArrayForEach(g, avg) {
		cJSON *one = cJSON_AddObjectToObject(tr, g->string);

		cJSON_ArrayForEach(st, m) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(st,
								g->string);

			if (cJSON_IsObject(st) && cJSON_IsNumber(v))
				cJSON_AddNumberToObject(one, st->string,
							v->valuedouble);
		}
	}
	return tr;
}

static int tele_metric(struct imp_sink *sink, const cJSON *m, int t,
		       struct imp_input *in, struct stk_out *o)
{
	cJSON *tr;
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(m, "unit"), *g;
	const struct unit *unit;
	double node = 0;
	int ngpu = 0, rc;
	char op[32];

	if (!cJSON_IsString(u) || (!(unit = units_lookup(u->valuestring)) &&
				   (strcmp(u->valuestring, "MJ") || t != 1)) ||
	    (unit && strcmp(unit->dim, tele[t].dim)))
		return pc_error_set(PC_EINVALID, "%s:%ld: 'telemetry_stats.%s':"
			" unknown unit '%s'", in->path,
			stk_key_line(in->fp, tele[t].key), tele[t].key,
			cJSON_IsString(u) ? u->valuestring : "(none)");
	if ((tr = transpose(m)))
		m = tr;
	cJSON_ArrayForEach(g, m)
		ngpu += cJSON_IsObject(g);
	cJSON_ArrayForEach(g, m) {
		struct stk_stat st;
		const cJSON *kv;

		if (!cJSON_IsObject(g))
			continue;
		stk_stat_init(&st);
		cJSON_ArrayForEach(kv, g)
			if (cJSON_IsNumber(kv))
				stk_stat_set(&st, kv->string, kv->valuedouble);
		snprintf(op, sizeof(op), "%s%s", strncmp(g->string, "gpu", 3) ?
			 "gpu" : "", g->string);
		o->op = ngpu > 1 ? op : NULL;
		if (unit == NULL || t == 1) {
			/* a cumulative counter: the run's energy is its span */
			double e = st.max - st.min;

			if (isnan(e)) {
				sink->warn(sink, "%s: energy_consumption of GPU "
					   "%s has no min/max: no energy",
					   in->path, g->string);
				continue;
			}
			e *= unit ? unit->factor : 1e6;
			rc = stk_scalar(o, o->op, "energy", e, "J");
			node += e;
		} else {
			rc = stk_stat_emit(o, tele[t].metric, unit->name, &st);
			node += st.mean * unit->factor;
		}
		o->op = NULL;
		if (rc < 0)
			goto done;
	}
	rc = 0;
	if (ngpu > 1)
		rc = stk_scalar(o, NULL, tele[t].metric, tele[t].sum ? node :
				node / ngpu, units_si_for_dim(tele[t].dim));
done:
	cJSON_Delete(tr);
	return rc;
}

int genai_perf_telemetry(struct imp_sink *sink, const cJSON *doc,
			 struct imp_input *in, struct stk_out *o)
{
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(doc,
							   "telemetry_stats");
	int rc;

	if (!cJSON_IsObject(ts))
		return 0;
	for (size_t t = 0; t < sizeof(tele) / sizeof(*tele); t++) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(ts,
								  tele[t].key);

		if (cJSON_IsObject(m) &&
		    (rc = tele_metric(sink, m, (int)t, in, o)) < 0)
			return rc;
	}
	return 0;
}
