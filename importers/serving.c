/* LLM serving benchmark metrics (see serving.h). */
#include "importers/serving.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/csv.h"
#include "base/error.h"
#include "base/jsonstream.h"
#include "base/util.h"

static const struct {
	const char *key, *metric, *unit;
} scalars[] = {
	{ "duration", "duration", "s" },
	{ "completed", "completed", "requests" },
	{ "failed", "failed", "requests" },
	{ "total_input_tokens", "input_tokens", "tokens" },
	{ "total_output_tokens", "output_tokens", "tokens" },
	{ "request_throughput", "request_throughput", "req/s" },
	{ "request_goodput", "request_goodput", "req/s" },
	{ "request_goodput:", "request_goodput", "req/s" },
	{ "input_throughput", "input_throughput", "tokens/s" },
	{ "output_throughput", "output_throughput", "tokens/s" },
	{ "total_token_throughput", "total_throughput", "tokens/s" },
	{ "total_throughput", "total_throughput", "tokens/s" },
	{ "max_output_tokens_per_s", "peak_output_throughput", "tokens/s" },
	{ "max_concurrent_requests", "peak_concurrent_requests", "requests" },
	{ "concurrency", "concurrency", "" },
	{ "accept_length", "accept_length", "" },
};

/* Tool spellings of latency metrics -> canonical metric names. */
static const struct {
	const char *tool, *metric;
} lat_names[] = {
	{ "ttft", "ttft" }, { "tpot", "tpot" }, { "itl", "itl" },
	{ "e2el", "e2el" }, { "e2e_latency", "e2el" },
};

void serving_init(struct serving *s, struct imp_sink *sink, long line,
		  const struct imp_param *params, size_t nparams)
{
	memset(s, 0, sizeof(*s));
	s->sink = sink;
	s->line = line;
	s->params = params;
	s->nparams = nparams;
}

static int emit(struct serving *s, const char *metric, double value,
		const char *unit, double median, double std)
{
	struct imp_record r;

	imp_record_init(&r);
	r.line = s->line;
	r.op = "e2e";
	r.metric = metric;
	r.value = value;
	r.unit = unit;
	r.params = s->params;
	r.nparams = s->nparams;
	if (!isnan(median) || !isnan(std)) {
		r.mean = value;
		r.median = median;
		r.stddev = std;
	}
	s->emitted++;
	return s->sink->emit(s->sink, &r);
}

int serving_scalar(struct serving *s, const char *metric, double value,
		   const char *unit)
{
	if (isnan(value))
		return 0;
	return emit(s, metric, value, unit, NAN, NAN);
}

int serving_latency(struct serving *s, const char *metric, const char *stat,
		    double value_ms)
{
	size_t i;

	if (isnan(value_ms))
		return 0;
	if (stat[0] == 'p') {
		char m[64];

		snprintf(m, sizeof(m), "%s_%s", metric, stat);
		return emit(s, m, value_ms, "ms", NAN, NAN);
	}
	for (i = 0; i < s->nlat; i++)
		if (!strcmp(s->lat[i].metric, metric))
			break;
	if (i == s->nlat) {
		if (i == SERVING_MAX_LAT)
			return 0;
		snprintf(s->lat[i].metric, sizeof(s->lat[i].metric), "%s",
			 metric);
		s->lat[i].mean = s->lat[i].median = s->lat[i].std = NAN;
		s->nlat++;
	}
	if (!strcmp(stat, "mean"))
		s->lat[i].mean = value_ms;
	else if (!strcmp(stat, "median"))
		s->lat[i].median = value_ms;
	else
		s->lat[i].std = value_ms;
	return 0;
}

int serving_flush(struct serving *s)
{
	int rc;

	for (size_t i = 0; i < s->nlat; i++) {
		double v = s->lat[i].mean;

		if (isnan(v))
			v = s->lat[i].median;
		if (isnan(v))
			continue;
		if ((rc = emit(s, s->lat[i].metric, v, "ms", s->lat[i].median,
			       s->lat[i].std)) < 0)
			return rc;
	}
	s->nlat = 0;
	return 0;
}

int serving_number(const cJSON *doc, const char *key, double *out,
		   const char *path, long line)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, key);

	if (!v || cJSON_IsNull(v))
		return 1;
	if (cJSON_IsString(v) && csv_is_missing(v->valuestring))
		return 1;
	if (!cJSON_IsNumber(v))
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s' is not a number",
				    path, line, key);
	*out = v->valuedouble;
	return 0;
}

/* "p99.9_ttft_ms" -> stat "p99.9", metric "ttft"; 0 when not latency,
 * -1 for a latency key in another unit ("mean_ttft_us", with the unit
 * in unit): the tools write ms only, and skipped as not a result key it
 * would drop the result silently. */
static int split_latency(const char *key, char *stat, size_t slen,
			 const char **metric, const char **unit)
{
	const char *us = strchr(key, '_'), *tail, *last = strrchr(key, '_');
	size_t klen = strlen(key), n;
	int other = 0;

	*unit = "ms";
	if (!us || klen < 4 || last == us)
		return 0;
	if (strcmp(last, "_ms")) {
		other = 1;	/* the same key but in ms is a latency? */
		*unit = last + 1;
		klen = (size_t)(last - key) + 3;
	}
	n = (size_t)(us - key);
	if (n >= slen)
		return 0;
	memcpy(stat, key, n);
	stat[n] = '\0';
	if (strcmp(stat, "mean") && strcmp(stat, "median") &&
	    strcmp(stat, "std")) {
		double d;

		if (stat[0] != 'p' || util_parse_double(stat + 1, &d) < 0)
			return 0;
	}
	tail = us + 1;
	n = klen - 3 - (size_t)(tail - key);
	for (size_t i = 0; i < sizeof(lat_names) / sizeof(*lat_names); i++)
		if (strlen(lat_names[i].tool) == n &&
		    !strncmp(lat_names[i].tool, tail, n)) {
			*metric = lat_names[i].metric;
			return other ? -1 : 1;
		}
	return 0;
}

int serving_is_result(const char *key)
{
	char stat[16];
	const char *metric, *unit;

	for (size_t i = 0; i < sizeof(scalars) / sizeof(*scalars); i++)
		if (!strcmp(scalars[i].key, key))
			return 1;
	return split_latency(key, stat, sizeof(stat), &metric, &unit) != 0;
}

int serving_doc(struct serving *s, const cJSON *doc, const char *path)
{
	const cJSON *kv;
	int rc;

	cJSON_ArrayForEach(kv, doc) {
		const char *key = kv->string, *metric, *unit;
		char stat[16];
		double v = 0;
		int lat;

		for (size_t i = 0; i < sizeof(scalars) / sizeof(*scalars); i++) {
			if (strcmp(scalars[i].key, key))
				continue;
			if ((rc = serving_number(doc, key, &v, path,
						 s->line)) < 0)
				return rc;
			if (rc == 0 && (rc = serving_scalar(s,
					scalars[i].metric, v,
					scalars[i].unit)) < 0)
				return rc;
		}
		if (!(lat = split_latency(key, stat, sizeof(stat), &metric,
					  &unit)))
			continue;
		if (lat < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown "
				"unit '%s' (the benchmark writes latencies in "
				"ms: '%.*s_ms'; convert the value to ms and "
				"name the key so)", path, s->line, key, unit,
				(int)(strlen(key) - strlen(unit) - 1), key);
		if ((rc = serving_number(doc, key, &v, path, s->line)) < 0)
			return rc;
		if (rc == 0 && (rc = serving_latency(s, metric, stat, v)) < 0)
			return rc;
	}
	return serving_flush(s);
}

int serving_keep(const char *key, const struct jsonstream_tok *value,
		 const cJSON *sofar, void *ctx)
{
	(void)sofar;
	(void)ctx;
	return value->type != JS_ARRAY || serving_is_result(key);
}
