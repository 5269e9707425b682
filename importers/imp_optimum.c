/*
 * optimum-benchmark: huggingface/optimum-benchmark benchmark_report.json
 * ({section: {memory, latency, throughput, energy, efficiency}}) and
 * benchmark.json ({config, report}). Each section (load_model, prefill,
 * decode, per_token, forward ...) is an op: latency (s; mean with n =
 * count, median = p50, min and max of the values, stddev, and
 * latency_pNN), sample_throughput (samples/s) or token_throughput, energy (kWh -> J;
 * energy_cpu, energy_ram, energy_gpu), efficiency (tokens/kWh ->
 * tokens_per_joule, samples/kWh -> samples_per_joule) and memory
 * (decimal MB -> memory_max_global_vram ...). The config gives the
 * workload: backend.model, batch (bs), input_len (sequence_length),
 * output_len (max_new_tokens); the tool version is the run version.
 * The workload fingerprint (issue 37): input_len the input shape's
 * sequence_length (every input has it), output_len max_new_tokens when
 * min_new_tokens forces it (else only a cap), precision the backend's
 * torch_dtype or dtype (not "auto"), warmup_excluded when warmup_runs >
 * 0, tool optimum-benchmark and its version.
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
#include "base/units.h"

static const char *const subs[] = { "memory", "latency", "throughput",
				    "energy", "efficiency", NULL };

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p != '{')
		return 0;
	if (strstr(head, "optimum_benchmark") || strstr(head,
							"\"optimum_benchmark_version\""))
		return 93;
	return strstr(head, "\"latency\"") && strstr(head, "\"throughput\"") &&
	       strstr(head, "\"efficiency\"") && strstr(head, "\"memory\"") ?
	       90 : 0;
}

struct ctx {
	struct imp_input *in;
	struct imp_sink *sink;
	int done;
};

static int bad(struct ctx *x, const char *sec, const char *key,
	       const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s.%s': %s", x->in->path,
			    stk_key_line(x->in->fp, sec), sec, key, what);
}

/* obj.key as a number: 0, 1 when absent or null, <0. */
static int num(struct ctx *x, const char *sec, const cJSON *obj,
	       const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v || cJSON_IsNull(v))
		return 1;
	if (!cJSON_IsNumber(v))
		return bad(x, sec, key, "not a number");
	*out = v->valuedouble;
	return 0;
}

/* The unit of a sub-object, checked against dimension dim. */
static int unit_of(struct ctx *x, const char *sec, const cJSON *obj,
		   const char *dim, const struct unit **out)
{
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(obj, "unit");
	char msg[96];

	if (!cJSON_IsString(u))
		return bad(x, sec, obj->string, "no \"unit\"");
	*out = units_lookup(u->valuestring);
	if (*out && !strcmp((*out)->dim, dim))
		return 0;
	snprintf(msg, sizeof(msg), "unknown unit '%s'", u->valuestring);
	return bad(x, sec, obj->string, msg);
}

static int latency(struct ctx *x, struct stk_out *o, const char *sec,
		   const cJSON *l)
{
	static const char *const st_keys[] = { "mean", "p50", "p90", "p95",
					       "p99", "stdev", "count", NULL };
	const struct unit *u;
	const cJSON *vals = cJSON_GetObjectItemCaseSensitive(l, "values"), *v;
	struct stk_stat st;
	double d = 0;
	int rc;

	if ((rc = unit_of(x, sec, l, "time", &u)) < 0)
		return rc;
	stk_stat_init(&st);
	for (int i = 0; st_keys[i]; i++) {
		if ((rc = num(x, sec, l, st_keys[i], &d)) < 0)
			return rc;
		if (rc == 0)
			stk_stat_set(&st, st_keys[i], d);
	}
	cJSON_ArrayForEach(v, vals) {
		if (!cJSON_IsNumber(v))
			return bad(x, sec, "latency.values", "not a number");
		if (isnan(st.min) || v->valuedouble < st.min)
			st.min = v->valuedouble;
		if (isnan(st.max) || v->valuedouble > st.max)
			st.max = v->valuedouble;
	}
	return stk_stat_emit(o, "latency", u->name, &st);
}

static int section(struct ctx *x, const cJSON *s)
{
	struct stk_out o = { .sink = x->sink, .line = 1, .op = s->string };
	const struct unit *u;
	const cJSON *sub;
	double d = 0;
	int rc;

	o.line = stk_key_line(x->in->fp, s->string);
	if ((sub = cJSON_GetObjectItemCaseSensitive(s, "latency")) &&
	    !cJSON_IsNull(sub) && (rc = latency(x, &o, s->string, sub)) < 0)
		return rc;
	if ((sub = cJSON_GetObjectItemCaseSensitive(s, "throughput")) &&
	    !cJSON_IsNull(sub)) {
		if ((rc = unit_of(x, s->string, sub, "rate", &u)) < 0 ||
		    (rc = num(x, s->string, sub, "value", &d)) < 0)
			return rc;
		/* the metric says what is counted: samples or tokens */
		if (rc == 0 && (rc = stk_scalar(&o, s->string,
				!strcmp(u->si, "samples/s") ?
				"sample_throughput" : "token_throughput", d,
				u->name)) < 0)
			return rc;
	}
	if ((sub = cJSON_GetObjectItemCaseSensitive(s, "energy")) &&
	    !cJSON_IsNull(sub)) {
		static const char *const parts[] = { "total", "cpu", "ram",
						     "gpu" };
		static const char *const names[] = { "energy", "energy_cpu",
			"energy_ram", "energy_gpu" };

		if ((rc = unit_of(x, s->string, sub, "energy", &u)) < 0)
			return rc;
		for (int i = 0; i < 4; i++) {
			if ((rc = num(x, s->string, sub, parts[i], &d)) < 0)
				return rc;
			if (rc == 0 && (rc = stk_scalar(&o, s->string,
					names[i], d, u->name)) < 0)
				return rc;
		}
	}
	if ((sub = cJSON_GetObjectItemCaseSensitive(s, "efficiency")) &&
	    !cJSON_IsNull(sub)) {
		const cJSON *ue = cJSON_GetObjectItemCaseSensitive(sub, "unit");
		const char *m = NULL;

		if (cJSON_IsString(ue) && !strcmp(ue->valuestring,
						  "tokens/kWh"))
			m = "tokens_per_joule";
		else if (cJSON_IsString(ue) && !strcmp(ue->valuestring,
						       "samples/kWh"))
			m = "samples_per_joule";
		if (!m)
			return bad(x, s->string, "efficiency", "unknown unit "
				   "(expected tokens/kWh or samples/kWh)");
		if ((rc = num(x, s->string, sub, "value", &d)) < 0)
			return rc;
		/* per kWh -> per J: 1 kWh = 3.6e6 J */
		if (rc == 0 && (rc = stk_scalar(&o, s->string, m, d / 3.6e6,
				!strcmp(m, "tokens_per_joule") ? "tokens/J" :
				"")) < 0)
			return rc;
	}
	if ((sub = cJSON_GetObjectItemCaseSensitive(s, "memory")) &&
	    !cJSON_IsNull(sub)) {
		const cJSON *kv;

		if ((rc = unit_of(x, s->string, sub, "bytes", &u)) < 0)
			return rc;
		cJSON_ArrayForEach(kv, sub) {
			char m[64];

			if (!strcmp(kv->string, "unit") || cJSON_IsNull(kv))
				continue;
			if ((rc = num(x, s->string, sub, kv->string, &d)) < 0)
				return rc;
			snprintf(m, sizeof(m), "memory_%s", kv->string);
			if ((rc = stk_scalar(&o, s->string, m, d,
					     u->name)) < 0)
				return rc;
		}
	}
	return o.emitted;
}

static const cJSON *at(const cJSON *o, const char *a, const char *b,
		       const char *c)
{
	o = cJSON_GetObjectItemCaseSensitive(o, a);
	if (b)
		o = cJSON_GetObjectItemCaseSensitive(o, b);
	if (c)
		o = cJSON_GetObjectItemCaseSensitive(o, c);
	return o;
}

static int identity(struct ctx *x, const cJSON *cfg)
{
	const cJSON *v;
	const struct {
		const cJSON *v;
		const char *key;
	} f[] = {
		{ at(cfg, "backend", "model", NULL), "default.name" },
		{ at(cfg, "environment", "optimum_benchmark_version", NULL),
		  "version" },
		{ at(cfg, "backend", "name", NULL), "backend" },
		{ at(cfg, "backend", "version", NULL), "backend_version" },
		{ at(cfg, "scenario", "name", NULL), "scenario" },
		{ at(cfg, "scenario", "input_shapes", "batch_size"),
		  "param.bs" },
		{ at(cfg, "scenario", "input_shapes", "sequence_length"),
		  "param.input_len" },
		{ at(cfg, "scenario", "generate_kwargs", "max_new_tokens"),
		  "param.output_len" },
	};
	int rc;

	for (size_t i = 0; i < sizeof(f) / sizeof(*f); i++) {
		const char *s;

		v = f[i].v;
		if (!v || !(s = jsonutil_scalar(v)) || cJSON_IsBool(v))
			continue;
		if ((rc = x->sink->meta(x->sink, f[i].key, s)) < 0)
			return rc;
	}
	return 0;
}

static int note_fp(struct ctx *x, const cJSON *cfg)
{
	const cJSON *mx = at(cfg, "scenario", "generate_kwargs",
			     "max_new_tokens");
	const cJSON *mn = at(cfg, "scenario", "generate_kwargs",
			     "min_new_tokens");
	const cJSON *dt = at(cfg, "backend", "torch_dtype", NULL);
	const cJSON *w = at(cfg, "scenario", "warmup_runs", NULL);
	struct fpstate f = { 0 };

	fpstate_jnum(&f, "input_len", at(cfg, "scenario", "input_shapes",
					 "sequence_length"));
	if (cJSON_IsNumber(mx) && cJSON_IsNumber(mn) &&
	    mx->valuedouble == mn->valuedouble)
		fpstate_jnum(&f, "output_len", mx);
	if (!cJSON_IsString(dt))
		dt = at(cfg, "backend", "dtype", NULL);
	if (cJSON_IsString(dt) && strcmp(dt->valuestring, "auto"))
		fpstate_note(&f, "precision", dt->valuestring);
	if (cJSON_IsNumber(w) && w->valuedouble > 0)
		fpstate_note(&f, "warmup_excluded", "true");
	fpstate_note(&f, "tool", "optimum-benchmark");
	fpstate_json(&f, "tool_version", at(cfg, "environment",
					    "optimum_benchmark_version", NULL));
	return fpstate_flush(&f, x->sink);
}

static int doc_fn(cJSON *doc, long line, void *ctx)
{
	struct ctx *x = ctx;
	const cJSON *rep = doc, *cfg, *s;
	long n = 0;
	int rc;

	if (x->done++)
		return pc_error_set(PC_EINVALID, "%s:%ld: a second JSON "
				    "document", x->in->path, line);
	cfg = cJSON_GetObjectItemCaseSensitive(doc, "config");
	if (cJSON_IsObject(cfg)) {
		rep = cJSON_GetObjectItemCaseSensitive(doc, "report");
		if ((rc = identity(x, cfg)) < 0 || (rc = note_fp(x, cfg)) < 0)
			return rc;
	}
	if (!cJSON_IsObject(rep))
		return pc_error_set(PC_EINVALID, "%s:%ld: no report object",
				    x->in->path, line);
	cJSON_ArrayForEach(s, rep) {
		int sub = 0;

		if (cJSON_IsNull(s))
			continue;
		for (int i = 0; subs[i]; i++)
			sub += cJSON_GetObjectItemCaseSensitive(s, subs[i]) !=
			       NULL;
		if (!cJSON_IsObject(s) || !sub)
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s' is not a "
				"report section (memory, latency, throughput, "
				"energy, efficiency)", x->in->path,
				stk_key_line(x->in->fp, s->string), s->string);
		if ((rc = section(x, s)) < 0)
			return rc;
		n += rc;
	}
	return n ? 0 : pc_error_set(PC_EINVALID, "%s:%ld: no measurements in "
				    "the report", x->in->path, line);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x = { .in = in, .sink = sink };
	int rc = hwutil_json_docs(in->fp, in->path, doc_fn, &x);

	return rc < 0 ? rc : 0;
}

const struct importer imp_optimum = {
	.name = "optimum-benchmark",
	.kind = "silicon",
	.desc = "optimum-benchmark benchmark_report.json / benchmark.json "
		"(latency, throughput, energy kWh -> J, efficiency, memory)",
	.probe = probe,
	.import = import,
};
