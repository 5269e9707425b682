/*
 * aiperf-server-metrics: NVIDIA AIPerf's server_metrics_export.json
 * (issue 37 item 4), schema 1.x: the inference server's Prometheus
 * metrics AIPerf scraped during the run (every ~333 ms), reduced per
 * series: gauges {avg, min, max, std, p1..p99}, counters {total, rate},
 * histograms {count, sum, avg, pNN_estimate, buckets}. Stored under op
 * "server" (one series) or "server{label=value,...}" (the labels that
 * tell a metric's series apart), the metric the Prometheus name with ':'
 * as '_'. The workload is the run's, from input_config, so the server's
 * view lands beside the client's (aiperf-json, op e2e).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/aiperf.h"
#include "importers/genai_perf.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/error.h"
#include "base/jsonutil.h"
#include "base/strbuf.h"

#define GET(o, k) cJSON_GetObjectItemCaseSensitive(o, k)

/* AIPerf's inferred unit -> units.h, and the unit of a counter's rate
 * (NULL: none stored). Percent and ratio are kept as written: AIPerf
 * infers them from the name, and vLLM's kv_cache_usage_perc is a 0..1
 * fraction despite its "_perc". */
static const struct {
	const char *aiperf, *unit, *rate;
} units[] = {
	{ "seconds", "s", "" }, { "milliseconds", "ms", NULL },
	{ "nanoseconds", "ns", NULL }, { "bytes", "B", "B/s" },
	{ "kilobytes", "KB", NULL }, { "megabytes", "MB", NULL },
	{ "gigabytes", "GB", NULL }, { "count", "", NULL },
	{ "tokens", "", "tokens/s" }, { "requests", "", "req/s" },
	{ "errors", "", NULL }, { "blocks", "", NULL },
	{ "ratio", "", NULL }, { "percent", "", NULL },
};

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);
	const char *sum = strstr(head, "\"summary\""), *unit;

	(void)len;
	(void)filename;
	if (*p != '{' || !sum || !strstr(head, "\"endpoints_configured\""))
		return 0;
	/* the profile export's telemetry_data has a summary too, after its
	 * metrics (each with a "unit"); here the summary comes first */
	unit = strstr(head, "\"unit\"");
	return !unit || sum < unit ? 95 : 0;
}

struct ctx {
	struct imp_input *in;
	struct imp_sink *sink;
	struct stk_out o;
	long skipped;
	int docs;
};

static int bad(struct ctx *x, const char *key, const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': %s", x->in->path,
			    stk_key_line(x->in->fp, key), key, what);
}

/* The op of one series: "server", or "server{k=v,...}" with the labels
 * (and the endpoint) that differ between the metric's series. */
static void series_op(const cJSON *series, const cJSON *s, struct strbuf *op)
{
	const cJSON *l = GET(s, "labels"), *kv, *o;
	const cJSON *ep = GET(s, "endpoint_url");
	int n = 0, eps = 0;

	strbuf_addstr(op, "server");
	cJSON_ArrayForEach(o, series) {
		const cJSON *e = GET(o, "endpoint_url");

		eps += cJSON_IsString(e) && cJSON_IsString(ep) &&
		       strcmp(e->valuestring, ep->valuestring);
	}
	if (eps && cJSON_IsString(ep)) {
		const char *h = strstr(ep->valuestring, "://");

		h = h ? h + 3 : ep->valuestring;
		strbuf_addf(op, "{endpoint=%.*s", (int)strcspn(h, "/"), h);
		n++;
	}
	cJSON_ArrayForEach(kv, l) {
		int differs = 0;

		if (!cJSON_IsString(kv))
			continue;
		cJSON_ArrayForEach(o, series) {
			const cJSON *v = GET(GET(o, "labels"), kv->string);

			differs |= !cJSON_IsString(v) ||
				   strcmp(v->valuestring, kv->valuestring);
		}
		if (differs)
			strbuf_addf(op, "%s%s=%s", n++ ? "," : "{", kv->string,
				    kv->valuestring);
	}
	if (n)
		strbuf_addch(op, '}');
}

static int num(const cJSON *st, const char *k, double *v)
{
	const cJSON *j = GET(st, k);

	if (!cJSON_IsNumber(j))
		return 0;
	*v = j->valuedouble;
	return 1;
}

static int one_series(struct ctx *x, const char *type, const char *metric,
		      int u, const cJSON *st)
{
	struct stk_stat s;
	char m[192];
	double v;
	const cJSON *kv;
	int rc = 0;

	stk_stat_init(&s);
	if (!strcmp(type, "counter")) {
		if (num(st, "total", &v) &&
		    (rc = stk_scalar(&x->o, x->o.op, metric, v,
				     units[u].unit)) < 0)
			return rc;
		snprintf(m, sizeof(m), "%s_rate", metric);
		if (units[u].rate && num(st, "rate", &v))
			rc = stk_scalar(&x->o, x->o.op, m, v, units[u].rate);
		return rc;
	}
	if (!strcmp(type, "histogram")) {
		if (num(st, "count", &v)) {
			snprintf(m, sizeof(m), "%s_count", metric);
			if ((rc = stk_scalar(&x->o, x->o.op, m, v, "")) < 0)
				return rc;
			s.n = v;
		}
		if (!num(st, "avg", &s.mean))	/* no observations */
			return 0;
		cJSON_ArrayForEach(kv, st) {
			size_t n = strlen(kv->string);

			if (n > 9 && !strcmp(kv->string + n - 9, "_estimate") &&
			    cJSON_IsNumber(kv)) {
				char p[16];

				snprintf(p, sizeof(p), "%.*s", (int)(n - 9),
					 kv->string);
				stk_stat_set(&s, p, kv->valuedouble);
			}
		}
	} else {	/* gauge, unknown */
		cJSON_ArrayForEach(kv, st)
			if (cJSON_IsNumber(kv))
				stk_stat_set(&s, kv->string, kv->valuedouble);
	}
	return stk_stat_emit(&x->o, metric, units[u].unit, &s);
}

static int metric(struct ctx *x, const cJSON *m)
{
	const cJSON *type = GET(m, "type"), *unit = GET(m, "unit");
	const cJSON *series = GET(m, "series"), *s;
	char name[160];
	int u = -1, rc;

	if (!cJSON_IsString(type) || !cJSON_IsArray(series))
		return bad(x, m->string, "expected {type, series} (AIPerf's "
			   "ServerMetricData)");
	if (strcmp(type->valuestring, "gauge") &&
	    strcmp(type->valuestring, "counter") &&
	    strcmp(type->valuestring, "histogram") &&
	    strcmp(type->valuestring, "unknown"))
		return bad(x, m->string, "a type other than gauge, counter, "
			   "histogram, unknown");
	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (!strcmp(units[i].aiperf, cJSON_IsString(unit) ?
			    unit->valuestring : "count"))
			u = (int)i;	/* none inferred: a count */
	if (unit && !cJSON_IsNull(unit) && !cJSON_IsString(unit))
		u = -1;
	if (u < 0) {
		x->skipped++;
		x->sink->warn(x->sink, "%s: '%s' skipped: unit '%s' has no SI "
			      "meaning perfcorr can check", x->in->path,
			      m->string, cJSON_IsString(unit) ?
			      unit->valuestring : "?");
		return 0;
	}
	snprintf(name, sizeof(name), "%s", m->string);
	for (char *c = name; *c; c++)
		if (*c == ':')
			*c = '_';
	cJSON_ArrayForEach(s, series) {
		struct strbuf op = STRBUF_INIT;
		const cJSON *st = GET(s, "stats");

		if (!cJSON_IsObject(st)) {
			strbuf_release(&op);
			return bad(x, m->string, "a series without its 'stats'");
		}
		series_op(series, s, &op);
		x->o.op = op.buf;
		x->o.line = stk_key_line(x->in->fp, m->string);
		rc = one_series(x, type->valuestring, name, u, st);
		x->o.op = NULL;
		strbuf_release(&op);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The scrape intervals: the resolution of every gauge here. */
static int endpoints(struct ctx *x, const cJSON *info)
{
	const cJSON *e;
	int rc;

	cJSON_ArrayForEach(e, info) {
		const char *h = strstr(e->string, "://");
		double v;
		char key[160], val[40];

		if (!num(e, "median_update_interval_ms", &v) &&
		    !num(e, "avg_update_interval_ms", &v))
			continue;
		h = h ? h + 3 : e->string;
		snprintf(key, sizeof(key), "server_metrics_interval_ms.%.*s",
			 (int)strcspn(h, "/"), h);
		snprintf(val, sizeof(val), "%.6g", v);
		if ((rc = x->sink->meta(x->sink, key, val)) < 0)
			return rc;
	}
	return 0;
}

static int doc_fn(cJSON *doc, long line, void *ctx)
{
	struct ctx *x = ctx;
	const cJSON *m = GET(doc, "metrics"), *one;
	struct fpstate fp;
	int rc;

	if (x->docs++)
		return pc_error_set(PC_EINVALID, "%s:%ld: a second JSON "
				    "document", x->in->path, line);
	if (!cJSON_IsObject(doc) || !cJSON_IsObject(GET(doc, "summary")))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected AIPerf's "
			"server metrics export {summary, metrics}",
			x->in->path, line);
	if (!GET(doc, "schema_version"))
		return bad(x, "summary", "no 'schema_version': an export "
			   "before AIPerf's schema 1.0 (endpoint first): not "
			   "read");
	memset(&fp, 0, sizeof(fp));
	fpstate_note(&fp, "tool", "aiperf");
	if ((rc = aiperf_schema(doc, x->in, "AIPerf's server metrics")) < 0 ||
	    (rc = aiperf_identity(x->sink, doc, &fp)) < 0 ||
	    (rc = genai_perf_identity(x->sink, doc, x->in)) < 0 ||
	    (rc = endpoints(x, GET(GET(doc, "summary"),
				   "endpoint_info"))) < 0 ||
	    (rc = fpstate_flush(&fp, x->sink)) < 0) {
		fpstate_release(&fp);
		return rc;
	}
	if (!cJSON_IsObject(m))
		return bad(x, "summary", "no 'metrics'");
	cJSON_ArrayForEach(one, m)
		if ((rc = metric(x, one)) < 0)
			return rc;
	if (!x->o.emitted)
		return bad(x, "metrics", "no metric with a value");
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
	return rc < 0 ? rc : 0;
}

const struct importer imp_aiperf_server = {
	.name = "aiperf-server-metrics",
	.kind = "silicon",
	.desc = "NVIDIA AIPerf server_metrics_export.json (schema 1.x: the "
		"server's Prometheus gauges, counters, histograms per series, "
		"op server)",
	.probe = probe,
	.import = import,
};
