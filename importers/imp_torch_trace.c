/*
 * torch-trace: a torch.profiler / Kineto Chrome trace JSON
 * ({header..., "traceEvents": [...]}, CUDA or ROCm). GPU duration events
 * ("ph": "X") are aggregated per name like nsys-gpu-trace: metric time,
 * value = mean of "dur" (microseconds, integer or fractional), n, median,
 * min, max, stddev. Kernels (cat "kernel", old "Kernel") and memory
 * copies and sets (gpu_memcpy/gpu_memset, old Memcpy/Memset) are all
 * kept, each name its own op; CPU-side events (cpu_op/Operator,
 * cuda_runtime/Runtime, annotations, Trace) are counted, not stored. The
 * device name (deviceProperties or the 2022 computeProperties) becomes
 * the platform when every device has the same name. The trace is read
 * through the streaming reader (base/jsonstream.h), one event at a
 * time: memory does not grow with the file (a 1 GB trace imports in
 * tens of MB: docs/benchmarks.md), but for one double per GPU event.
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "importers/hwutil.h"
#include "importers/importer.h"
#include "base/error.h"
#include "base/jsonstream.h"
#include "base/jsonutil.h"

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p != '{')
		return 0;
	/* many devices' properties can push traceEvents past the head */
	if (!strstr(head, "\"traceEvents\""))
		return strstr(head, "\"schemaVersion\"") &&
		       (strstr(head, "\"deviceProperties\"") ||
			strstr(head, "\"computeProperties\"")) ? 85 : 0;
	return strstr(head, "\"schemaVersion\"") ||
	       strstr(head, "\"deviceProperties\"") ||
	       strstr(head, "\"computeProperties\"") ||
	       strstr(head, "\"ph\"") ? 90 : 0;
}

/* GPU categories, compared case-insensitively. */
static const char *const gpu_cats[] = { "kernel", "gpu_memcpy", "gpu_memset",
					"memcpy", "memset", NULL };

struct ctx {
	struct imp_input *in;
	struct imp_sink *sink;
	struct jsonstream *js;
	struct hwutil_agg agg;
	cJSON *props;		/* deviceProperties, else computeProperties */
	int props_dev;
	long other, gpu, devices[64];
	int ndev, events;
};

static int is_gpu(const char *cat)
{
	for (int i = 0; gpu_cats[i]; i++)
		if (!strcasecmp(gpu_cats[i], cat))
			return 1;
	return 0;
}

static int platform(struct ctx *x)
{
	const cJSON *props = x->props, *d;
	const char *name = NULL;

	cJSON_ArrayForEach(d, props) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(d, "name");

		if (!cJSON_IsString(n))
			continue;
		if (name && strcmp(name, n->valuestring))
			return 0;	/* mixed devices: no one platform */
		name = n->valuestring;
	}
	return name ? x->sink->meta(x->sink, "platform", name) : 0;
}

static int event(struct ctx *x, const cJSON *e, long idx, long line)
{
	const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
	const cJSON *cat = cJSON_GetObjectItemCaseSensitive(e, "cat");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
	const cJSON *dur = cJSON_GetObjectItemCaseSensitive(e, "dur");
	const cJSON *args, *dev;

	if (!cJSON_IsObject(e) || !cJSON_IsString(ph) ||
	    strcmp(ph->valuestring, "X"))
		return 0;
	if (!cJSON_IsString(cat) || !is_gpu(cat->valuestring)) {
		x->other++;
		return 0;
	}
	if (!cJSON_IsString(name) || !*name->valuestring) {
		return pc_error_set(PC_EINVALID, "%s:%ld: traceEvents[%ld]: a "
				    "%s event without a name", x->in->path,
				    line, idx, cat->valuestring);
	}
	if (!cJSON_IsNumber(dur) || !isfinite(dur->valuedouble) ||
	    dur->valuedouble < 0) {
		return pc_error_set(PC_EINVALID, "%s:%ld: traceEvents[%ld] "
				    "('%s'): 'dur' is %s", x->in->path, line,
				    idx, name->valuestring, !dur ? "missing" :
				    "not a duration in microseconds");
	}
	args = cJSON_GetObjectItemCaseSensitive(e, "args");
	dev = cJSON_GetObjectItemCaseSensitive(args, "device");
	if (cJSON_IsNumber(dev)) {
		int d, seen = 0;

		d = (int)dev->valuedouble;
		for (int i = 0; i < x->ndev; i++)
			seen |= x->devices[i] == d;
		if (!seen && x->ndev < 64)
			x->devices[x->ndev++] = d;
	}
	x->gpu++;
	return hwutil_agg_add(&x->agg, name->valuestring, "time", "us",
			      dur->valuedouble, idx + 1);
}

/* The members an event is built with; a CPU-side event's args (cat
 * comes first in Kineto's traces) are skipped unbuilt. */
static int keep_member(const char *key, const struct jsonstream_tok *v,
		       const cJSON *sofar, void *ctx)
{
	const cJSON *cat;

	(void)v;
	(void)ctx;
	if (!strcmp(key, "args")) {
		cat = cJSON_GetObjectItemCaseSensitive(sofar, "cat");
		return !cJSON_IsString(cat) || is_gpu(cat->valuestring);
	}
	return !strcmp(key, "ph") || !strcmp(key, "cat") ||
	       !strcmp(key, "name") || !strcmp(key, "dur");
}

/* The elements of traceEvents (or of a bare array), one at a time. */
static int events(struct ctx *x)
{
	struct jsonstream_tok t;
	cJSON *e;
	long idx = 0;
	int rc;

	for (;;) {
		if ((rc = jsonstream_next(x->js, &t)) < 0)
			return rc;
		if (t.type == JS_ARRAY_END)
			return 0;
		if (t.type != JS_OBJECT) {	/* not an event: ignored */
			if ((rc = jsonstream_skip(x->js, &t)) < 0)
				return rc;
			idx++;
			continue;
		}
		if ((rc = jsonstream_tree(x->js, &t, &e, JSONUTIL_DOC_MAX,
					  keep_member, x)) < 0)
			return rc;
		rc = event(x, e, idx++, t.line);
		cJSON_Delete(e);
		if (rc < 0)
			return rc;
	}
}

/* The top-level object: traceEvents streamed, the device properties
 * built, anything else skipped. */
static int members(struct ctx *x, long line)
{
	struct jsonstream_tok k, v;
	int rc, dev;

	for (;;) {
		if ((rc = jsonstream_next(x->js, &k)) < 0)
			return rc;
		if (k.type == JS_OBJECT_END)
			break;
		dev = !strcmp(k.str, "deviceProperties");
		if (!strcmp(k.str, "traceEvents")) {
			if ((rc = jsonstream_next(x->js, &v)) < 0)
				return rc;
			if (x->events++)
				return pc_error_set(PC_EINVALID, "%s:%ld: a "
					"second \"traceEvents\" member",
					x->in->path, k.line);
			if (v.type != JS_ARRAY)
				return pc_error_set(PC_EINVALID, "%s:%ld: no "
					"\"traceEvents\" array (a %s there)",
					x->in->path, v.line, v.type ==
					JS_OBJECT ? "object" : "scalar");
			if ((rc = events(x)) < 0)
				return rc;
			continue;
		} else if ((dev || !strcmp(k.str, "computeProperties")) &&
			   (!x->props || (dev && !x->props_dev))) {
			if ((rc = jsonstream_next(x->js, &v)) < 0)
				return rc;
			cJSON_Delete(x->props);
			x->props = NULL;
			if ((rc = jsonstream_tree(x->js, &v, &x->props,
						  JSONUTIL_DOC_MAX, NULL,
						  NULL)) < 0)
				return rc;
			x->props_dev = dev;
			continue;
		} else if ((rc = jsonstream_next(x->js, &v)) < 0) {
			return rc;
		}
		if ((rc = jsonstream_skip(x->js, &v)) < 0)
			return rc;
	}
	if (!x->events)
		return pc_error_set(PC_EINVALID, "%s:%ld: no \"traceEvents\" "
				    "array", x->in->path, line);
	return platform(x);
}

static int read_trace(struct ctx *x)
{
	struct jsonstream_tok t;
	int rc;

	if ((rc = jsonstream_next(x->js, &t)) < 0)
		return rc;
	if (t.type == JS_EOF)
		return pc_error_set(PC_EINVALID, "%s: no JSON document",
				    x->in->path);
	if (t.type == JS_OBJECT)
		rc = members(x, t.line);
	else if (t.type == JS_ARRAY)
		rc = events(x);
	else
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no \"traceEvents\" "
				  "array", x->in->path, t.line);
	if (rc < 0)
		return rc;
	/* the end of the file: text after the trace is an error */
	if ((rc = jsonstream_next(x->js, &t)) < 0)
		return rc;
	return 1;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	char buf[32];
	int rc;

	memset(&x, 0, sizeof(x));
	x.in = in;
	x.sink = sink;
	hwutil_agg_init(&x.agg);
	x.js = jsonstream_new(in->fp, in->path, JSONSTREAM_PYTHON);
	rc = read_trace(&x);
	if (rc > 0 && !x.gpu)
		rc = pc_error_set(PC_EINVALID, "%s: no GPU events (kernel, "
				  "memcpy, memset) in the trace (%ld CPU-side "
				  "events): was it profiled with "
				  "ProfilerActivity.CUDA?", in->path, x.other);
	if (rc > 0) {
		snprintf(buf, sizeof(buf), "%ld", x.other);
		rc = sink->meta(sink, "cpu_events_skipped", buf);
		if (rc == 0 && x.ndev > 1) {
			sink->warn(sink, "%s: kernels of %d devices aggregated "
				   "together per name", in->path, x.ndev);
			snprintf(buf, sizeof(buf), "%d", x.ndev);
			rc = sink->meta(sink, "devices", buf);
		}
		if (rc == 0)
			rc = hwutil_agg_emit(&x.agg, sink);
	}
	hwutil_agg_release(&x.agg);
	cJSON_Delete(x.props);
	jsonstream_free(x.js);
	return rc < 0 ? rc : 0;
}

const struct importer imp_torch_trace = {
	.name = "torch-trace",
	.kind = "silicon",
	.desc = "PyTorch profiler / Kineto Chrome trace JSON (CUDA, ROCm), "
		"GPU events aggregated per name (mean dur, n, min, max, stddev)",
	.probe = probe,
	.import = import,
};
