/*
 * inference-perf-requests: inference-perf's per_request_lifecycle_
 * metrics.json (issue 37 item 4), one JSON array of {start_time,
 * end_time, request, response, info, error}, read one element at a time
 * through the streaming reader (request and response texts skipped
 * unbuilt). The distributions inference-perf's summarize_requests()
 * reports are recomputed from the records the same way: e2el = end -
 * start, ntpot = e2el / output tokens (0 without), and for a streamed
 * request (more than one token timestamp) ttft, tpot and the pooled
 * inter-token gaps (itl); each as metric <m> (mean, sample stddev, min,
 * max, n) and <m>_p50/_p90/_p99 (dist.h), with the length spreads of
 * the fingerprint. Two layouts of `info`: 2026 (request_metrics.text.
 * input_tokens, response_metrics.{output_tokens, output_token_times};
 * TPOT over the output tokens) and 2025 (flat input_tokens,
 * output_tokens, output_token_times; TPOT over the timestamps).
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
#include "base/jsonstream.h"
#include "base/jsonutil.h"

enum { E2EL, TTFT, TPOT, ITL, NTPOT, ISL, OSL, NDIST };

static const struct {
	const char *metric, *unit;
} dists[NDIST] = {
	{ "e2el", "s" }, { "ttft", "s" }, { "tpot", "s" }, { "itl", "s" },
	{ "ntpot", "s" }, { "input_sequence_length", "" },
	{ "output_sequence_length", "" },
};

#define GET(o, k) cJSON_GetObjectItemCaseSensitive(o, k)

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p != '[')
		return 0;
	/* a record opens with start_time, end_time, request (the prompt:
	 * it may fill the head, so info and error are not looked for) */
	return strstr(head, "\"start_time\"") && strstr(head, "\"end_time\"") &&
	       strstr(head, "\"request\"") ? 90 : 0;
}

struct ctx {
	const char *path;
	struct dist d[NDIST];
	long ok, failed;
	int layout;		/* 0 unknown, 1 2025 flat, 2 2026 nested */
	long layout_line;
	double first_start, last_start, in_sum, out_sum;
};

static int bad(struct ctx *x, long line, const char *field, const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': %s", x->path, line,
			    field, what);
}

static int keep(const char *key, const struct jsonstream_tok *v,
		const struct cJSON *sofar, void *ctx)
{
	(void)v;
	(void)sofar;
	(void)ctx;
	return strcmp(key, "request") && strcmp(key, "response");
}

/* The number at obj.key, required. */
static int num(struct ctx *x, long line, const cJSON *obj, const char *key,
	       const char *field, double *out)
{
	const cJSON *v = GET(obj, key);

	if (!cJSON_IsNumber(v))
		return bad(x, line, field, v ? "not a number" : "missing");
	*out = v->valuedouble;
	return 0;
}

/* This record's input and output tokens and token timestamps, by layout. */
static int tokens(struct ctx *x, const cJSON *info, long line, double *isl,
		  double *osl, const cJSON **times)
{
	const cJSON *rm = GET(info, "request_metrics");
	int layout = rm ? 2 : 1, rc;

	if (!x->layout) {
		x->layout = layout;
		x->layout_line = line;
	} else if (x->layout != layout) {
		return pc_error_set(PC_EINVALID, "%s:%ld: 'info': the %s layout, "
			"but the %s one on line %ld (two writers in one file)",
			x->path, line, layout == 2 ? "2026" : "2025",
			x->layout == 2 ? "2026" : "2025", x->layout_line);
	}
	*osl = 0;
	*times = NULL;
	if (layout == 1) {
		if ((rc = num(x, line, info, "input_tokens", "info.input_tokens",
			      isl)) < 0 ||
		    (rc = num(x, line, info, "output_tokens",
			      "info.output_tokens", osl)) < 0)
			return rc;
		*times = GET(info, "output_token_times");
	} else {
		const cJSON *resp = GET(info, "response_metrics");

		if ((rc = num(x, line, GET(rm, "text"), "input_tokens",
			      "info.request_metrics.text.input_tokens",
			      isl)) < 0)
			return rc;
		if (cJSON_IsObject(resp)) {
			if ((rc = num(x, line, resp, "output_tokens",
				      "info.response_metrics.output_tokens",
				      osl)) < 0)
				return rc;
			*times = GET(resp, "output_token_times");
		}
	}
	if (*times && !cJSON_IsArray(*times))
		return bad(x, line, "output_token_times", "not an array");
	return 0;
}

/* A streamed request: ttft, tpot and its inter-token gaps. */
static int stream(struct ctx *x, const cJSON *times, double start,
		  double osl, long line)
{
	const cJSON *t;
	double first = 0, prev = 0;
	int n = cJSON_GetArraySize(times), k = 0;

	if (n <= 1)
		return 0;
	cJSON_ArrayForEach(t, times) {
		if (!cJSON_IsNumber(t))
			return bad(x, line, "output_token_times", "a timestamp "
				   "is not a number");
		if (k++ == 0)
			first = t->valuedouble;
		else
			dist_add(&x->d[ITL], t->valuedouble - prev, line);
		prev = t->valuedouble;
	}
	dist_add(&x->d[TTFT], first - start, line);
	if (x->layout == 1)
		dist_add(&x->d[TPOT], (prev - first) / (n - 1), line);
	else if (osl > 1)
		dist_add(&x->d[TPOT], (prev - first) / (osl - 1), line);
	return 0;
}

static int item(cJSON *r, long line, void *ctx)
{
	struct ctx *x = ctx;
	const cJSON *info, *err, *times;
	double start = 0, end = 0, isl = 0, osl = 0;
	int rc;

	if (!cJSON_IsObject(r))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected a JSON object "
				    "(an inference-perf request record)",
				    x->path, line);
	if ((rc = num(x, line, r, "start_time", "start_time", &start)) < 0 ||
	    (rc = num(x, line, r, "end_time", "end_time", &end)) < 0)
		return rc;
	if (end < start)
		return bad(x, line, "end_time", "before start_time");
	if (x->ok + x->failed == 0 || start < x->first_start)
		x->first_start = start;
	if (x->ok + x->failed == 0 || start > x->last_start)
		x->last_start = start;
	err = GET(r, "error");
	if (err && !cJSON_IsNull(err)) {
		if (!cJSON_IsObject(err))
			return bad(x, line, "error", "neither null nor an "
				   "object");
		x->failed++;
		return 0;
	}
	info = GET(r, "info");
	if (!cJSON_IsObject(info))
		return bad(x, line, "info", "missing in a record without an "
			   "error");
	if ((rc = tokens(x, info, line, &isl, &osl, &times)) < 0)
		return rc;
	x->ok++;
	x->in_sum += isl;
	x->out_sum += osl;
	dist_add(&x->d[E2EL], end - start, line);
	dist_add(&x->d[NTPOT], osl > 0 ? (end - start) / osl : 0, line);
	dist_add(&x->d[ISL], isl, line);
	dist_add(&x->d[OSL], osl, line);
	return times ? stream(x, times, start, osl, line) : 0;
}

static int emit(struct ctx *x, struct imp_sink *sink, struct fpstate *fp)
{
	struct stk_out o = { .sink = sink, .line = 1 };
	int rc;

	for (int i = 0; i < NDIST; i++) {
		struct stk_stat st;

		if (dist_stat(&x->d[i], &st))
			continue;
		o.line = x->d[i].line;
		if ((rc = stk_stat_emit(&o, dists[i].metric, dists[i].unit,
					&st)) < 0)
			return rc;
		if (i == ISL) {
			fpstate_num(fp, "input_len", st.mean);
			fpstate_num(fp, "input_len_sd", st.std);
		} else if (i == OSL) {
			fpstate_num(fp, "output_len", st.mean);
			fpstate_num(fp, "output_len_sd", st.std);
		}
	}
	o.line = 1;
	if ((rc = stk_scalar(&o, NULL, "completed", (double)x->ok, "")) < 0 ||
	    (rc = stk_scalar(&o, NULL, "failed", (double)x->failed, "")) < 0)
		return rc;
	fpstate_num(fp, "input_tokens", x->in_sum);
	fpstate_num(fp, "output_tokens", x->out_sum);
	if (x->last_start > x->first_start)	/* load_summary.achieved_rate */
		fpstate_num(fp, "achieved_request_rate",
			    (double)(x->ok + x->failed) /
			    (x->last_start - x->first_start));
	if (x->layout == 1)	/* 2025: the client's tokenizer counted both */
		fpstate_note(fp, "token_counter", "client");
	fpstate_note(fp, "tool", "inference-perf");
	return 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	struct fpstate fp;
	int rc;

	memset(&x, 0, sizeof(x));
	memset(&fp, 0, sizeof(fp));
	x.path = in->path;
	rc = hwutil_json_items(in->fp, in->path, "inference-perf per-request "
			       "records", keep, item, &x);
	if (rc >= 0 && !x.ok)
		rc = pc_error_set(PC_EINVALID, "%s: no successful request "
				  "(%ld failed)", in->path, x.failed);
	if (rc >= 0 && (rc = emit(&x, sink, &fp)) >= 0)
		rc = fpstate_flush(&fp, sink);
	fpstate_release(&fp);
	for (int i = 0; i < NDIST; i++)
		dist_release(&x.d[i]);
	return rc < 0 ? rc : 0;
}

const struct importer imp_inference_perf_req = {
	.name = "inference-perf-requests",
	.kind = "silicon",
	.desc = "kubernetes-sigs/inference-perf per_request_lifecycle_"
		"metrics.json (streamed; distributions mean/std/p50/p90/p99, "
		"failures, fingerprint length spreads)",
	.probe = probe,
	.import = import,
};
