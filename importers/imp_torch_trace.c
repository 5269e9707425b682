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
 * the platform when every device has the same name.
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/error.h"
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
	struct hwutil_agg agg;
	long other, gpu, devices[64];
	int ndev, done;
};

static int is_gpu(const char *cat)
{
	for (int i = 0; gpu_cats[i]; i++)
		if (!strcasecmp(gpu_cats[i], cat))
			return 1;
	return 0;
}

static int platform(struct ctx *x, const cJSON *doc)
{
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(doc,
						"deviceProperties"), *d;
	const char *name = NULL;

	if (!props)
		props = cJSON_GetObjectItemCaseSensitive(doc,
							 "computeProperties");
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

static int event(struct ctx *x, const cJSON *e, long idx)
{
	const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
	const cJSON *cat = cJSON_GetObjectItemCaseSensitive(e, "cat");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
	const cJSON *dur = cJSON_GetObjectItemCaseSensitive(e, "dur");
	const cJSON *args, *dev;
	long line;

	if (!cJSON_IsObject(e) || !cJSON_IsString(ph) ||
	    strcmp(ph->valuestring, "X"))
		return 0;
	if (!cJSON_IsString(cat) || !is_gpu(cat->valuestring)) {
		x->other++;
		return 0;
	}
	/* the line only for a message: finding it rereads the file */
	if (!cJSON_IsString(name) || !*name->valuestring) {
		line = stk_nth_key_line(x->in->fp, "ph", idx);
		return pc_error_set(PC_EINVALID, "%s:%ld: traceEvents[%ld]: a "
				    "%s event without a name", x->in->path,
				    line, idx, cat->valuestring);
	}
	if (!cJSON_IsNumber(dur) || !isfinite(dur->valuedouble) ||
	    dur->valuedouble < 0) {
		line = stk_nth_key_line(x->in->fp, "ph", idx);
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

static int doc_fn(cJSON *doc, long line, void *ctx)
{
	struct ctx *x = ctx;
	const cJSON *ev = doc, *e;
	long idx = 0;
	int rc;

	if (x->done++)
		return pc_error_set(PC_EINVALID, "%s:%ld: a second JSON "
				    "document", x->in->path, line);
	if (cJSON_IsObject(doc)) {
		if ((rc = platform(x, doc)) < 0)
			return rc;
		ev = cJSON_GetObjectItemCaseSensitive(doc, "traceEvents");
	}
	if (!cJSON_IsArray(ev))
		return pc_error_set(PC_EINVALID, "%s:%ld: no \"traceEvents\" "
				    "array", x->in->path, line);
	cJSON_ArrayForEach(e, ev) {
		if ((rc = event(x, e, idx++)) < 0)
			return rc;
	}
	return 0;
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
	rc = hwutil_json_docs(in->fp, in->path, doc_fn, &x);
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
