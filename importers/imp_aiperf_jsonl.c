/*
 * aiperf-jsonl: NVIDIA AIPerf per-request profile_export.jsonl (issue 37
 * item 4). One MetricRecordInfo per line: {"metadata": {session_num,
 * request_start_ns, request_end_ns, benchmark_phase, was_cancelled ...},
 * "metrics": {tag: {"value": v, "unit": u}}, "error": null | {code, type,
 * message}}. Read one line at a time through the streaming reader; the
 * profiling records give each metric's distribution: metric <m> (mean,
 * sample stddev, min, max, n) and <m>_p50/_p90/_p99 (linear
 * interpolation, numpy's default), completed and failed counts, and the
 * fingerprint's length means and spreads. Warmup records are excluded
 * (fp.warmup_excluded). Array metrics (inter_chunk_latency) are skipped.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "importers/dist.h"
#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/error.h"
#include "base/util.h"

static const struct jl_metric {
	const char *tag, *metric, *dim;
} metrics[] = {
	{ "time_to_first_token", "ttft", "time" },
	{ "time_to_second_token", "ttst", "time" },
	{ "inter_token_latency", "itl", "time" },
	{ "request_latency", "e2el", "time" },
	{ "output_sequence_length", "output_sequence_length", "count" },
	{ "input_sequence_length", "input_sequence_length", "count" },
	{ "output_token_throughput_per_user", "output_throughput_per_user",
	  "rate" },
};
#define NMETRICS (sizeof(metrics) / sizeof(*metrics))

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (strncmp(head, "{\"metadata\"", 11))
		return 0;
	return strstr(head, "\"session_num\"") &&
	       strstr(head, "\"benchmark_phase\"") &&
	       strstr(head, "\"metrics\"") ? 95 : 0;
}

struct series {
	struct dist d;
	char unit[32];
};

struct ctx {
	struct imp_sink *sink;
	const char *path;
	struct series s[NMETRICS];
	long completed, failed, warmup, docs;
	double t0, t1;	/* first start, last end, ns */
};

static int bad(struct ctx *x, long line, const char *field, const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': %s", x->path, line,
			    field, what);
}

static int add(struct ctx *x, size_t i, const cJSON *mv, long line)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(mv, "value");
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(mv, "unit");
	struct series *s = &x->s[i];

	if (cJSON_IsArray(v))
		return 0;
	if (!cJSON_IsNumber(v) || !cJSON_IsString(u))
		return bad(x, line, metrics[i].tag, "expected {\"value\": a "
			   "number, \"unit\": a text}");
	if (!s->d.n) {
		if (!stk_unit(u->valuestring, metrics[i].dim, NULL))
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown "
				"unit '%s'", x->path, line, metrics[i].tag,
				u->valuestring);
		snprintf(s->unit, sizeof(s->unit), "%s", u->valuestring);
	} else if (strcmp(s->unit, u->valuestring)) {
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unit '%s', but "
			"'%s' on line %ld", x->path, line, metrics[i].tag,
			u->valuestring, s->unit, s->d.line);
	}
	dist_add(&s->d, v->valuedouble, line);
	return 0;
}

static int doc_fn(cJSON *doc, long line, void *ctx)
{
	struct ctx *x = ctx;
	const cJSON *md, *m, *err, *ph, *t;

	x->docs++;
	if (!cJSON_IsObject(doc))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected a JSON object "
				    "(an AIPerf record)", x->path, line);
	md = cJSON_GetObjectItemCaseSensitive(doc, "metadata");
	m = cJSON_GetObjectItemCaseSensitive(doc, "metrics");
	err = cJSON_GetObjectItemCaseSensitive(doc, "error");
	if (!cJSON_IsObject(md))
		return bad(x, line, "metadata", "missing (not an AIPerf "
			   "MetricRecordInfo)");
	ph = cJSON_GetObjectItemCaseSensitive(md, "benchmark_phase");
	if (!cJSON_IsString(ph))
		return bad(x, line, "metadata.benchmark_phase", "missing");
	if (!strcmp(ph->valuestring, "warmup")) {
		x->warmup++;
		return 0;
	}
	if (strcmp(ph->valuestring, "profiling"))
		return pc_error_set(PC_EINVALID, "%s:%ld: "
			"'metadata.benchmark_phase': '%s' is neither profiling "
			"nor warmup", x->path, line, ph->valuestring);
	t = cJSON_GetObjectItemCaseSensitive(md, "request_start_ns");
	if (!cJSON_IsNumber(t))
		return bad(x, line, "metadata.request_start_ns", "missing");
	if (x->completed + x->failed == 0 || t->valuedouble < x->t0)
		x->t0 = t->valuedouble;
	t = cJSON_GetObjectItemCaseSensitive(md, "request_end_ns");
	if (!cJSON_IsNumber(t))
		return bad(x, line, "metadata.request_end_ns", "missing");
	if (x->completed + x->failed == 0 || t->valuedouble > x->t1)
		x->t1 = t->valuedouble;
	if (err && !cJSON_IsNull(err)) {
		x->failed++;
		return 0;	/* error_isl ... are no distribution */
	}
	if (!cJSON_IsObject(m))
		return bad(x, line, "metrics", "missing in a record without "
			   "an error");
	x->completed++;
	for (size_t i = 0; i < NMETRICS; i++) {
		const cJSON *mv = cJSON_GetObjectItemCaseSensitive(m,
							metrics[i].tag);
		int rc;

		if (mv && (rc = add(x, i, mv, line)) < 0)
			return rc;
	}
	return 0;
}

static int emit(struct ctx *x, struct fpstate *fp)
{
	struct stk_out o = { .sink = x->sink };
	int rc;

	for (size_t i = 0; i < NMETRICS; i++) {
		struct series *s = &x->s[i];
		struct stk_stat st;

		if (dist_stat(&s->d, &st))
			continue;
		o.line = s->d.line;
		if ((rc = stk_stat_emit(&o, metrics[i].metric,
					stk_unit(s->unit, metrics[i].dim, NULL),
					&st)) < 0)
			return rc;
		if (!strcmp(metrics[i].tag, "input_sequence_length")) {
			fpstate_num(fp, "input_len", st.mean);
			fpstate_num(fp, "input_len_sd", st.std);
			fpstate_num(fp, "input_tokens", st.mean * st.n);
		} else if (!strcmp(metrics[i].tag, "output_sequence_length")) {
			fpstate_num(fp, "output_len", st.mean);
			fpstate_num(fp, "output_len_sd", st.std);
			fpstate_num(fp, "output_tokens", st.mean * st.n);
		}
	}
	o.line = 1;
	if ((rc = stk_scalar(&o, NULL, "completed", (double)x->completed,
			     "")) < 0 ||
	    (rc = stk_scalar(&o, NULL, "failed", (double)x->failed, "")) < 0)
		return rc;
	if (x->t1 > x->t0)
		fpstate_num(fp, "achieved_request_rate",
			    (double)(x->completed + x->failed) /
			    ((x->t1 - x->t0) * 1e-9));
	fpstate_note(fp, "warmup_excluded", "true");
	fpstate_note(fp, "tool", "aiperf");
	return 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	struct fpstate fp;
	int rc;

	memset(&x, 0, sizeof(x));
	memset(&fp, 0, sizeof(fp));
	x.sink = sink;
	x.path = in->path;
	rc = hwutil_json_docs(in->fp, in->path, doc_fn, &x);
	if (rc >= 0 && !x.completed)
		rc = pc_error_set(PC_EINVALID, "%s: no completed profiling "
				  "record (%ld failed, %ld warmup)", in->path,
				  x.failed, x.warmup);
	if (rc >= 0 && (rc = emit(&x, &fp)) >= 0)
		rc = fpstate_flush(&fp, sink);
	if (rc >= 0 && x.warmup)
		sink->warn(sink, "%s: %ld warmup records excluded", in->path,
			   x.warmup);
	fpstate_release(&fp);
	for (size_t i = 0; i < NMETRICS; i++)
		dist_release(&x.s[i].d);
	return rc < 0 ? rc : 0;
}

const struct importer imp_aiperf_jsonl = {
	.name = "aiperf-jsonl",
	.kind = "silicon",
	.desc = "NVIDIA AIPerf per-request profile_export.jsonl (streamed; "
		"distributions mean/std/p50/p90/p99, failures, fingerprint "
		"length spreads; warmup excluded)",
	.probe = probe,
	.import = import,
};
