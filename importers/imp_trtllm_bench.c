/*
 * trtllm-bench: the `trtllm-bench throughput|latency` console report
 * (0.16 engine flow: TAB separated, banner titles with a trailing space;
 * 1.x PyTorch flow: REQUEST DETAILS and the latency breakdown; streaming
 * runs add [TTFT] / [TPOT] / [GTPS] breakdowns) found by its banners in
 * a whole log, and its --report_json. Metric names are the vLLM/SGLang
 * ones (serving.h): ttft, tpot, e2el (mean with min, max, median = P50 on
 * the record, and <m>_pNN), request_throughput, output_throughput,
 * total_throughput, duration, completed. The model names the workload;
 * TP/PP and the average input/output lengths become the parameters tp,
 * pp, input_len, output_len (SGLang's names). The workload fingerprint
 * (issue 37): the average input/output lengths measured, TP/PP, the
 * precision (the quantization when there is one, else the dtype), the
 * KV-cache dtype, tool trtllm-bench and the TensorRT-LLM version.
 * Authority: TensorRT-LLM tensorrt_llm/bench/dataclasses/reporting.py
 * (Apache-2.0).
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/lines.h"
#include "importers/stacks.h"
#include "base/error.h"
#include "base/jsonutil.h"
#include "base/units.h"
#include "base/util.h"

/* Labels (lowercase, without the unit) -> metric; dim "time" values are
 * latencies (ms in every version), "rate" throughputs. */
static const struct {
	const char *label, *metric, *dim;
} labels[] = {
	{ "number of requests", "completed", "count" },
	{ "number of concurrent requests", "avg_concurrent_requests", "count" },
	{ "request throughput", "request_throughput", "rate" },
	{ "token throughput", "output_throughput", "rate" },	/* 0.16 */
	{ "total output throughput", "output_throughput", "rate" },
	{ "total token throughput", "total_throughput", "rate" },
	{ "total latency", "duration", "time" },
	{ "per user output throughput [w/ ctx]", "output_throughput_per_user",
	  "rate" },
	{ "per gpu output throughput", "output_throughput_per_gpu", "rate" },
	{ "per user output speed", "output_speed_per_user", "rate" },
	{ "average request latency", "e2el", "time" },
	{ "average time-to-first-token [ttft]", "ttft", "time" },
	{ "average time-per-output-token [tpot]", "tpot", "time" },
};

/* Breakdown prefixes -> metric. */
static const struct {
	const char *tag, *metric, *unit;
} blocks[] = {
	{ "[latency]", "e2el", "ms" }, { "[ttft]", "ttft", "ms" },
	{ "[tpot]", "tpot", "ms" }, { "[gtps]", "gen_throughput_per_user",
				      "tokens/s" },
};

#define NSTAT 4		/* e2el ttft tpot gtps */
#define MAXSCALAR 16

struct report {
	struct stk_stat st[NSTAT];
	const char *st_unit[NSTAT];
	struct {
		const char *metric;
		char unit[16];
		double v;
	} sc[MAXSCALAR];
	size_t nsc;
	long line;		/* of PERFORMANCE OVERVIEW */
};

static int stat_index(const char *metric)
{
	for (int i = 0; i < NSTAT; i++)
		if (!strcmp(blocks[i].metric, metric))
			return i;
	return -1;
}

static void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < NSTAT; i++) {
		stk_stat_init(&r->st[i]);
		r->st_unit[i] = blocks[i].unit;
	}
}

/* Store a labelled value: a mean of a statistic block or a scalar. */
static void report_put(struct report *r, const char *metric,
		       const char *unit, double v)
{
	int i = stat_index(metric);

	if (i >= 0) {
		stk_stat_set(&r->st[i], "mean", v);
		return;
	}
	for (size_t k = 0; k < r->nsc; k++)
		if (!strcmp(r->sc[k].metric, metric))
			return;		/* the first value wins */
	if (r->nsc == MAXSCALAR)
		return;
	r->sc[r->nsc].metric = metric;
	snprintf(r->sc[r->nsc].unit, sizeof(r->sc[0].unit), "%s", unit);
	r->sc[r->nsc++].v = v;
}

static int report_emit(struct report *r, struct imp_sink *sink)
{
	struct stk_out o = { .sink = sink, .line = r->line };
	int rc;

	for (size_t k = 0; k < r->nsc; k++)
		if ((rc = stk_scalar(&o, NULL, r->sc[k].metric, r->sc[k].v,
				     r->sc[k].unit)) < 0)
			return rc;
	for (int i = 0; i < NSTAT; i++)
		if ((rc = stk_stat_emit(&o, blocks[i].metric, r->st_unit[i],
					&r->st[i])) < 0)
			return rc;
	return o.emitted ? 0 : pc_error_set(PC_EINVALID, "%s: no results in "
					      "the report", "trtllm-bench");
}

/* ---- the console report ---- */

static int probe_text(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (strstr(head, "\n= PERFORMANCE OVERVIEW") ||
	    strstr(head, "\n= PYTORCH BACKEND") ||
	    (strstr(head, "\n= ENGINE DETAILS") &&
	     strstr(head, "\n= WORLD + RUNTIME INFORMATION")))
		return 88;
	/* 0.16 logs: hundreds of log lines before the report, beyond the
	 * head; a TensorRT-LLM log without one is refused by import */
	if (strstr(head, "[TensorRT-LLM][INFO]") ||
	    strstr(head, "[TRT-LLM] [I]"))
		return 70;
	return 0;
}

enum { SEC_NONE, SEC_ENGINE, SEC_WORLD, SEC_REQUEST, SEC_PERF, SEC_OTHER };

/* What the report says of the run: identity, parameters, fingerprint. */
struct ident {
	char model[256], version[64], tp[32], pp[32], isl[32], osl[32];
	char in_len[32], out_len[32];	/* measured averages */
	char dtype[32], quant[32], kv_dtype[32];
};

struct tctx {
	struct imp_sink *sink;
	const char *path;
	struct report r;
	int sec, pending_title, nperf;
	long rule_line;
	struct ident id;
};

static int is_rule(const char *s, char ch)
{
	size_t n = 0;

	for (; *s == ch; s++)
		n++;
	while (*s == ' ' || *s == '\t')
		s++;
	return n >= 20 && !*s;
}

/* Split "Label (unit):<blank>value": label trimmed into lab (lowercase,
 * without the unit), unit, and the value text; 0 when not such a line. */
static int split_label(char *s, char *lab, size_t llen, char *unit,
		       size_t ulen, char **value)
{
	char *c, name[160];
	size_t i;

	for (c = s; (c = strchr(c, ':')); c++)
		if (c[1] == ' ' || c[1] == '\t' || c[1] == '\0')
			break;
	if (!c)
		return 0;
	*c = '\0';
	*value = util_trim(c + 1);
	hwutil_split_unit(s, name, sizeof(name), unit, ulen);
	for (i = 0; name[i] && i + 1 < llen; i++)
		lab[i] = (char)tolower((unsigned char)name[i]);
	lab[i] = '\0';
	return 1;
}

static const char *unit_of(const char *u, const char *dim)
{
	const struct unit *x;

	if (!strcmp(u, "tokens/sec") || !strcmp(u, "tps/user") ||
	    !strcmp(u, "tps/gpu"))
		return "tokens/s";
	if (!strcmp(u, "req/sec"))
		return "req/s";
	if (!*u && !strcmp(dim, "count"))
		return "requests";
	x = units_lookup(u);
	if (!x || strcmp(x->dim, dim))
		return NULL;
	return x->name;
}

static int text_value(struct tctx *x, long line, const char *lab,
		      const char *unit, const char *val)
{
	double v;

	for (size_t i = 0; i < sizeof(labels) / sizeof(*labels); i++) {
		const char *u;

		if (strcmp(labels[i].label, lab))
			continue;
		if (!(u = unit_of(unit, labels[i].dim)))
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown "
				"unit '%s' (expected %s)", x->path, line, lab,
				unit, !strcmp(labels[i].dim, "time") ? "ms" :
				"tokens/sec or req/sec");
		if (stk_number(val, &v) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is "
					    "not a number", x->path, line, lab,
					    val);
		report_put(&x->r, labels[i].metric, u, v);
		return 0;
	}
	return 0;
}

static int breakdown(struct tctx *x, long line, const char *lab,
		     const char *val)
{
	for (size_t i = 0; i < sizeof(blocks) / sizeof(*blocks); i++) {
		size_t n = strlen(blocks[i].tag);
		char key[16];
		double v;

		if (strncmp(lab, blocks[i].tag, n))
			continue;
		snprintf(key, sizeof(key), "%s", util_trim((char *)lab + n));
		if (stk_number(val, &v) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is "
					    "not a number", x->path, line, lab,
					    val);
		if (stk_stat_set(&x->r.st[i], key, v))
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown "
					    "statistic '%s'", x->path, line,
					    blocks[i].tag, key);
		return 0;
	}
	return 0;
}

static void copy(char *dst, size_t n, const char *v)
{
	if (!*dst && strcmp(v, "None") && strcmp(v, "N/A"))
		snprintf(dst, n, "%s", v);
}

static int text_line(void *ctx, long line, char *s)
{
	struct tctx *x = ctx;
	char lab[160], unit[32], *val, *t = util_trim(s);

	if (is_rule(t, '=')) {
		x->pending_title = !x->pending_title;
		x->rule_line = line;
		return 0;
	}
	if (x->pending_title && t[0] == '=' && t[1] == ' ') {
		t = util_trim(t + 2);
		x->sec = !strcmp(t, "ENGINE DETAILS") ||
			 !strcmp(t, "PYTORCH BACKEND") ? SEC_ENGINE :
			 !strcmp(t, "WORLD + RUNTIME INFORMATION") ? SEC_WORLD :
			 !strcmp(t, "REQUEST DETAILS") ? SEC_REQUEST :
			 !strcmp(t, "PERFORMANCE OVERVIEW") ? SEC_PERF :
			 SEC_OTHER;
		if (x->sec == SEC_PERF && ++x->nperf > 1)
			return pc_error_set(PC_EINVALID, "%s:%ld: a second "
				"PERFORMANCE OVERVIEW: one report per file "
				"(split the log)", x->path, line);
		if (x->sec == SEC_PERF)
			x->r.line = line;
		return 0;
	}
	if (x->pending_title) {
		/* a rule not followed by a title closes the report */
		x->pending_title = 0;
		x->sec = SEC_NONE;
	}
	if (x->sec == SEC_NONE || x->sec == SEC_OTHER || t[0] == '-' ||
	    !split_label(t, lab, sizeof(lab), unit, sizeof(unit), &val))
		return 0;
	if (x->sec == SEC_ENGINE) {
		if (!strcmp(lab, "model"))
			copy(x->id.model, sizeof(x->id.model), val);
		else if (strstr(lab, "version"))
			copy(x->id.version, sizeof(x->id.version), val);
		else if (!strcmp(lab, "dtype"))
			copy(x->id.dtype, sizeof(x->id.dtype), val);
		else if (!strcmp(lab, "quantization"))
			copy(x->id.quant, sizeof(x->id.quant), val);
		else if (!strcmp(lab, "kv cache dtype"))
			copy(x->id.kv_dtype, sizeof(x->id.kv_dtype), val);
		return 0;
	}
	if (x->sec == SEC_WORLD) {
		if (!strcmp(lab, "tp size"))
			copy(x->id.tp, sizeof(x->id.tp), val);
		else if (!strcmp(lab, "pp size"))
			copy(x->id.pp, sizeof(x->id.pp), val);
		return 0;
	}
	if (!strcmp(lab, "average input length")) {
		copy(x->id.isl, sizeof(x->id.isl), val);
		copy(x->id.in_len, sizeof(x->id.in_len), val);
	} else if (!strcmp(lab, "average output length")) {
		copy(x->id.osl, sizeof(x->id.osl), val);
		copy(x->id.out_len, sizeof(x->id.out_len), val);
	}
	if (lab[0] == '[')
		return breakdown(x, line, lab, val);
	return text_value(x, line, lab, unit, val);
}

/* The run's fingerprint from what the report says. */
static int finish_fp(struct imp_sink *sink, const struct ident *id)
{
	struct fpstate f = { 0 };
	double v;

	if (stk_number(id->in_len, &v) == 0)
		fpstate_num(&f, "input_len", v);
	if (stk_number(id->out_len, &v) == 0)
		fpstate_num(&f, "output_len", v);
	fpstate_note(&f, "tp", id->tp);
	fpstate_note(&f, "pp", id->pp);
	fpstate_note(&f, "precision", *id->quant ? id->quant : id->dtype);
	fpstate_note(&f, "kv_cache", id->kv_dtype);
	fpstate_note(&f, "tool", "trtllm-bench");
	fpstate_note(&f, "tool_version", id->version);
	return fpstate_flush(&f, sink);
}

/* Run identity, then the results. */
static int finish(struct imp_sink *sink, struct report *r, const char *path,
		  const struct ident *id)
{
	const char *pn[] = { "param.tp", "param.pp", "param.input_len",
			     "param.output_len" };
	const char *pv[] = { id->tp, id->pp, id->isl, id->osl };
	int rc;

	if (*id->model && (rc = sink->meta(sink, "default.name",
					   id->model)) < 0)
		return rc;
	if (*id->version && (rc = sink->meta(sink, "version",
					     id->version)) < 0)
		return rc;
	for (int i = 0; i < 4; i++)
		if (*pv[i] && (rc = sink->meta(sink, pn[i], pv[i])) < 0)
			return rc;
	if ((rc = finish_fp(sink, id)) < 0)
		return rc;
	if ((rc = report_emit(r, sink)) < 0)
		pc_error_set(PC_EINVALID, "%s: no results in the report",
			     path);
	return rc;
}

static int import_text(struct imp_input *in, struct imp_sink *sink)
{
	struct tctx x;
	long rc;

	memset(&x, 0, sizeof(x));
	x.sink = sink;
	x.path = in->path;
	report_init(&x.r);
	if ((rc = lines_each_whole(in, text_line, &x)) < 0)
		return (int)rc;
	if (!x.nperf)
		return pc_error_set(PC_EINVALID, "%s:%ld: no '= PERFORMANCE "
				    "OVERVIEW' block: a cut or not a "
				    "trtllm-bench report", in->path, rc);
	return finish(sink, &x.r, in->path, &x.id);
}

const struct importer imp_trtllm_bench = {
	.name = "trtllm-bench",
	.kind = "silicon",
	.desc = "TensorRT-LLM trtllm-bench console report (0.16 engine and "
		"1.x PyTorch flows, streaming TTFT/TPOT blocks) in a log",
	.probe = probe_text,
	.import = import_text,
};

/* ---- --report_json ---- */

static int probe_json(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p != '{' || !strstr(head, "\"engine\""))
		return 0;
	return strstr(head, "\"world_info\"") ||
	       strstr(head, "\"request_info\"") ? 93 : 0;
}

struct jctx {
	struct imp_sink *sink;
	const char *path;
	FILE *fp;
	long line;
	int done;
	struct report r;
};

/* obj.key as a number into *v: 0, 1 when absent/null/"None", <0. */
static int jnum(struct jctx *x, const cJSON *obj, const char *key,
		double *v)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!j || cJSON_IsNull(j) ||
	    (cJSON_IsString(j) && !strcmp(j->valuestring, "None")))
		return 1;
	if (!cJSON_IsNumber(j))
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s.%s' is not a "
				    "number", x->path, stk_key_line(x->fp, key),
				    obj->string ? obj->string : "", key);
	*v = j->valuedouble;
	return 0;
}

static void jstr(char *dst, size_t n, const cJSON *obj, const char *key)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	const char *v = cJSON_IsNumber(j) || cJSON_IsString(j) ?
			jsonutil_scalar(j) : NULL;

	if (v && strcmp(v, "None"))
		snprintf(dst, n, "%s", v);
}

static const struct {
	const char *obj, *key, *metric, *unit;
} jscalars[] = {
	{ "performance", "total_latency_ms", "duration", "ms" },
	{ "performance", "request_throughput_req_s", "request_throughput",
	  "req/s" },
	{ "performance", "system_output_throughput_tok_s", "output_throughput",
	  "tokens/s" },
	{ "performance", "system_total_throughput_tok_s", "total_throughput",
	  "tokens/s" },
	{ "performance", "output_throughput_per_user_tok_s",
	  "output_throughput_per_user", "tokens/s" },
	{ "performance", "output_throughput_per_gpu_tok_s",
	  "output_throughput_per_gpu", "tokens/s" },
	{ "performance", "avg_request_latency_ms", "e2el", "ms" },
	{ "request_info", "num_requests", "completed", "requests" },
	{ "request_info", "avg_num_concurrent_requests",
	  "avg_concurrent_requests", "requests" },
	{ "streaming_metrics", "token_output_speed_tok_s",
	  "output_speed_per_user", "tokens/s" },
	{ "streaming_metrics", "avg_ttft_ms", "ttft", "ms" },
	{ "streaming_metrics", "avg_tpot_ms", "tpot", "ms" },
};

static const struct {
	const char *obj, *key, *metric;
} jpct[] = {
	{ "performance", "request_latency_percentiles_ms", "e2el" },
	{ "streaming_metrics", "ttft_percentiles", "ttft" },
	{ "streaming_metrics", "tpot_percentiles", "tpot" },
	{ "streaming_metrics", "gen_tps_percentiles",
	  "gen_throughput_per_user" },
};

/* A result key missing while the same key with another unit is there
 * ("avg_ttft_us" for "avg_ttft_ms") is refused: skipped as unknown it
 * would drop the result silently. */
static int other_unit(const struct jctx *x, const cJSON *o, const char *key)
{
	const char *u = strrchr(key, '_');
	size_t stem = u ? (size_t)(u - key) + 1 : 0;
	const cJSON *kv;

	if (!stem || cJSON_GetObjectItemCaseSensitive(o, key))
		return 0;
	cJSON_ArrayForEach(kv, o)
		if (kv->string && strlen(kv->string) > stem &&
		    !strncmp(kv->string, key, stem) &&
		    !strchr(kv->string + stem, '_'))
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown "
				"unit '%s' (trtllm-bench writes '%s'; convert "
				"the value and name the key so)", x->path,
				x->line, kv->string, kv->string + stem, key);
	return 0;
}

static int json_doc(cJSON *doc, long line, void *ctx)
{
	struct jctx *x = ctx;
	struct ident id;
	const cJSON *eng, *world, *req, *ds, *kv;
	int rc;

	x->line = line;
	if (x->done)
		return pc_error_set(PC_EINVALID, "%s:%ld: a second JSON "
				    "document: one report per file", x->path,
				    line);
	if (!cJSON_IsObject(doc) ||
	    !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc,
							     "performance")))
		return pc_error_set(PC_EINVALID, "%s:%ld: no 'performance' "
				    "object: not a trtllm-bench report",
				    x->path, line);
	x->r.line = line;
	eng = cJSON_GetObjectItemCaseSensitive(doc, "engine");
	world = cJSON_GetObjectItemCaseSensitive(doc, "world_info");
	req = cJSON_GetObjectItemCaseSensitive(doc, "request_info");
	ds = cJSON_GetObjectItemCaseSensitive(doc, "dataset");
	memset(&id, 0, sizeof(id));
	jstr(id.model, sizeof(id.model), eng, "model");
	jstr(id.version, sizeof(id.version), eng, "version");
	jstr(id.dtype, sizeof(id.dtype), eng, "dtype");
	jstr(id.quant, sizeof(id.quant), eng, "quantization");
	jstr(id.kv_dtype, sizeof(id.kv_dtype), eng, "kv_cache_dtype");
	jstr(id.tp, sizeof(id.tp), world, "tp_size");
	jstr(id.pp, sizeof(id.pp), world, "pp_size");
	/* the dataset's lengths (ints) before the measured averages; the
	 * fingerprint the measured ones first */
	jstr(id.isl, sizeof(id.isl), ds, "avg_isl");
	jstr(id.osl, sizeof(id.osl), ds, "avg_osl");
	jstr(id.in_len, sizeof(id.in_len), req, "avg_input_length");
	jstr(id.out_len, sizeof(id.out_len), req, "avg_output_length");
	if (!*id.isl)
		memcpy(id.isl, id.in_len, sizeof(id.isl));
	if (!*id.osl)
		memcpy(id.osl, id.out_len, sizeof(id.osl));
	if (!*id.in_len)
		memcpy(id.in_len, id.isl, sizeof(id.in_len));
	if (!*id.out_len)
		memcpy(id.out_len, id.osl, sizeof(id.out_len));
	for (size_t i = 0; i < sizeof(jscalars) / sizeof(*jscalars); i++) {
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc,
							jscalars[i].obj);
		double v;

		if (!o)
			continue;
		if ((rc = other_unit(x, o, jscalars[i].key)) < 0)
			return rc;
		if ((rc = jnum(x, o, jscalars[i].key, &v)) < 0)
			return rc;
		if (rc == 0)
			report_put(&x->r, jscalars[i].metric, jscalars[i].unit,
				   v);
	}
	for (size_t i = 0; i < sizeof(jpct) / sizeof(*jpct); i++) {
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(doc, jpct[i].obj),
			jpct[i].key);
		int k = stat_index(jpct[i].metric);

		cJSON_ArrayForEach(kv, o) {
			double v;

			if ((rc = jnum(x, o, kv->string, &v)) < 0)
				return rc;
			if (rc == 0)
				stk_stat_set(&x->r.st[k], kv->string, v);
		}
	}
	x->done = 1;
	return finish(x->sink, &x->r, x->path, &id);
}

static int import_json(struct imp_input *in, struct imp_sink *sink)
{
	struct jctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.sink = sink;
	x.path = in->path;
	x.fp = in->fp;
	report_init(&x.r);
	rc = hwutil_json_docs(in->fp, in->path, json_doc, &x);
	return rc < 0 ? rc : 0;
}

const struct importer imp_trtllm_bench_json = {
	.name = "trtllm-bench-json",
	.kind = "silicon",
	.desc = "TensorRT-LLM trtllm-bench --report_json (performance, "
		"streaming_metrics, percentiles; engine/world_info identity)",
	.probe = probe_json,
	.import = import_json,
};
