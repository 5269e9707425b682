/*
 * mlperf-detail: MLPerf LoadGen mlperf_log_detail.txt, one ":::MLLOG
 * {json}" record per line. result_* keys become the same metrics as the
 * summary's (latency, ttft, tpot in ns with percentiles, throughputs);
 * effective_scenario is the workload parameter "scenario";
 * result_validity INVALID imports with a warning and the invalid flag.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/lines.h"
#include "base/jsonutil.h"
#include "importers/mlperf.h"
#include "base/error.h"
#include "base/util.h"

static const struct {
	const char *key, *metric, *unit;
} values[] = {
	{ "result_samples_per_second", "sample_throughput", "samples/s" },
	{ "result_completed_samples_per_sec", "completed_sample_throughput",
	  "samples/s" },
	{ "result_scheduled_samples_per_sec", "scheduled_sample_throughput",
	  "samples/s" },
	{ "result_qps_with_loadgen_overhead", "qps_with_loadgen_overhead",
	  "samples/s" },
	{ "result_qps_without_loadgen_overhead", "qps_without_loadgen_overhead",
	  "samples/s" },
	{ "result_completed_tokens_per_second", "output_throughput",
	  "tokens/s" },
	{ "result_tokens_per_second", "output_throughput", "tokens/s" },
	{ "result_token_throughput", "output_throughput", "tokens/s" },
	{ "result_token_throughput_with_loadgen_overhead",
	  "output_throughput_with_loadgen_overhead", "tokens/s" },
	{ "result_query_count", "queries", "" },
	{ "result_overlatency_query_count", "overlatency_queries", "" },
};

/* key prefix + stat: result_min_latency_ns -> latency min. */
static const struct {
	const char *key, *metric, *stat;
} stats[] = {
	{ "result_min_latency_ns", "latency", "min" },
	{ "result_max_latency_ns", "latency", "max" },
	{ "result_mean_latency_ns", "latency", "mean" },
	{ "result_min_query_latency_ns", "query_latency", "min" },
	{ "result_max_query_latency_ns", "query_latency", "max" },
	{ "result_mean_query_latency_ns", "query_latency", "mean" },
	{ "result_first_token_min_latency_ns", "ttft", "min" },
	{ "result_first_token_max_latency_ns", "ttft", "max" },
	{ "result_first_token_mean_latency_ns", "ttft", "mean" },
	{ "result_time_to_output_token_min", "tpot", "min" },
	{ "result_time_to_output_token_max", "tpot", "max" },
	{ "result_time_to_output_token_mean", "tpot", "mean" },
};

/* result_<PP.PP>_percentile_<suffix> */
static const struct {
	const char *prefix, *suffix, *metric;
} pcts[] = {
	{ "result_", "_percentile_latency_ns", "latency" },
	{ "result_", "_percentile_per_query_latency_ns", "query_latency" },
	{ "result_first_token_", "_percentile_latency_ns", "ttft" },
	{ "result_time_per_output_token_", "_percentile_ns", "tpot" },
};

static const char *const run_meta[] = { "loadgen_version", "sut_name",
	"effective_test_mode", "test_datetime", "result_perf_constraints_met",
	"result_min_duration_met", "result_min_queries_met",
	"early_stopping_met", "result_invalid_reason", "num_errors", NULL };

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	return !strncmp(head, ":::MLLOG", 8) || strstr(head, "\n:::MLLOG") ?
	       99 : 0;
}

struct ctx {
	const char *path;
	struct imp_sink *sink;
	struct mlperf m;
	int scenario;
};

static int percentile_key(struct ctx *x, const char *key, double v, long line)
{
	for (size_t i = 0; i < sizeof(pcts) / sizeof(*pcts); i++) {
		size_t pl = strlen(pcts[i].prefix), sl = strlen(pcts[i].suffix);
		size_t kl = strlen(key);
		char pct[16];

		if (kl <= pl + sl || strncmp(key, pcts[i].prefix, pl) ||
		    strcmp(key + kl - sl, pcts[i].suffix) ||
		    kl - pl - sl >= sizeof(pct))
			continue;
		memcpy(pct, key + pl, kl - pl - sl);
		pct[kl - pl - sl] = '\0';
		if (mlperf_percentile(&x->m, pcts[i].metric, pct, "ns", v,
				      line) == 0)
			return 1;
	}
	return 0;
}

/* 1 when key is a latency key LoadGen writes in ns. */
static int ns_key(const char *key)
{
	size_t kl = strlen(key);

	for (size_t i = 0; i < sizeof(stats) / sizeof(*stats); i++)
		if (!strcmp(stats[i].key, key))
			return 1;
	for (size_t i = 0; i < sizeof(pcts) / sizeof(*pcts); i++) {
		size_t pl = strlen(pcts[i].prefix), sl = strlen(pcts[i].suffix);

		if (kl > pl + sl && !strncmp(key, pcts[i].prefix, pl) &&
		    !strcmp(key + kl - sl, pcts[i].suffix))
			return 1;
	}
	return 0;
}

/* A latency key in another unit ("result_mean_latency_us") is refused:
 * skipped as unknown it would drop the result silently. */
static int other_unit(struct ctx *x, const char *key, long line)
{
	const char *u = strrchr(key, '_');
	char ns[160];

	if (!u || !strcmp(u, "_ns") || (size_t)(u - key) + 4 > sizeof(ns))
		return 0;
	snprintf(ns, sizeof(ns), "%.*s_ns", (int)(u - key), key);
	if (!ns_key(ns))
		return 0;
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown unit '%s' "
			    "(LoadGen writes latencies in ns: '%s'; convert "
			    "the value to ns and name the key so)", x->path,
			    line, key, u + 1, ns);
}

static int result_key(struct ctx *x, const char *key, const cJSON *val,
		      long line)
{
	double v;
	size_t i;
	int numeric = 0;

	for (i = 0; i < sizeof(values) / sizeof(*values) && !numeric; i++)
		numeric = !strcmp(values[i].key, key);
	for (i = 0; i < sizeof(stats) / sizeof(*stats) && !numeric; i++)
		numeric = !strcmp(stats[i].key, key);
	if (!numeric && other_unit(x, key, line) < 0)
		return PC_EINVALID;
	if (!numeric && !strstr(key, "_percentile_"))
		return 0;
	if (!cJSON_IsNumber(val))
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': the value is not "
				    "a number", x->path, line, key);
	v = val->valuedouble;
	for (i = 0; i < sizeof(values) / sizeof(*values); i++)
		if (!strcmp(values[i].key, key)) {
			mlperf_value(&x->m, values[i].metric, values[i].unit, v,
				     line);
			return 0;
		}
	for (i = 0; i < sizeof(stats) / sizeof(*stats); i++)
		if (!strcmp(stats[i].key, key)) {
			mlperf_stat(&x->m, stats[i].metric, stats[i].stat, "ns",
				    v, line);
			return 0;
		}
	percentile_key(x, key, v, line);
	return 0;
}

static int record(struct ctx *x, const cJSON *doc, long line)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(doc, "key");
	const cJSON *val = cJSON_GetObjectItemCaseSensitive(doc, "value");
	const char *key, *s;

	if (!cJSON_IsString(k) || !val)
		return pc_error_set(PC_EINVALID, "%s:%ld: MLLOG record without "
				    "'key' and 'value'", x->path, line);
	key = k->valuestring;
	s = jsonutil_scalar(val);
	if (!strcmp(key, "effective_scenario") && s) {
		x->scenario = 1;
		snprintf(x->m.scenario, sizeof(x->m.scenario), "%s", s);
		return x->sink->meta(x->sink, "param.scenario", s);
	}
	/* the load the fingerprint states (mlperf_fp) */
	if (!strcmp(key, "effective_target_qps") && cJSON_IsNumber(val))
		x->m.target_qps = val->valuedouble;
	if (!strcmp(key, "loadgen_version") && s)
		snprintf(x->m.version, sizeof(x->m.version), "%s", s);
	if (!strcmp(key, "result_validity") && s) {
		if (!strcmp(s, "INVALID")) {
			x->m.invalid = 1;
			x->sink->warn(x->sink, "%s:%ld: LoadGen says the result "
				      "is INVALID: imported with the invalid "
				      "flag", x->path, line);
		}
		x->m.validity_seen = 1;
		return 0;
	}
	for (int i = 0; run_meta[i]; i++)
		if (!strcmp(run_meta[i], key) && s)
			return x->sink->meta(x->sink, key, s);
	/* the official SingleStream / MultiStream results since LoadGen
	 * 2.0 (0: not computed, too few queries) */
	if (!strcmp(key, "early_stopping_latency_ss") ||
	    !strcmp(key, "early_stopping_latency_ms")) {
		if (!cJSON_IsNumber(val) || val->valuedouble < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': the "
				"value is not a latency in ns", x->path, line,
				key);
		if (val->valuedouble > 0)
			mlperf_value(&x->m, key, "ns", val->valuedouble, line);
		return 0;
	}
	if (!strncmp(key, "result_", 7))
		return result_key(x, key, val, line);
	return 0;
}

static int text_line(void *arg, long line, char *buf)
{
	struct ctx *x = arg;
	const char *p = buf;
	cJSON *doc = NULL;
	int rc;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return 0;
	if (strncmp(p, ":::MLLOG", 8))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected ':::MLLOG "
				    "{json}'", x->path, line);
	if ((rc = jsonutil_parse_text(&doc, p + 8, x->path, line)) < 0)
		return rc;
	rc = cJSON_IsObject(doc) ? record(x, doc, line) :
	     pc_error_set(PC_EINVALID, "%s:%ld: MLLOG record is not a JSON "
			  "object", x->path, line);
	cJSON_Delete(doc);
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.path = in->path;
	x.sink = sink;
	mlperf_init(&x.m);
	rc = lines_each(in, text_line, &x);
	if (rc > 0)
		rc = 0;
	if (rc == 0 && !x.m.validity_seen)
		rc = pc_error_set(PC_EINVALID, "%s: no result_validity record "
				  "(not a complete MLPerf detail log?)",
				  in->path);
	if (rc == 0)
		rc = mlperf_fp(&x.m, sink);
	if (rc == 0)
		rc = mlperf_emit(&x.m, sink, in->path);
	mlperf_release(&x.m);
	return rc < 0 ? rc : 0;
}

const struct importer imp_mlperf_detail = {
	.name = "mlperf-detail",
	.kind = "silicon",
	.desc = "MLPerf LoadGen mlperf_log_detail.txt (:::MLLOG records)",
	.probe = probe,
	.import = import,
};
