/*
 * mlperf-summary: MLPerf Inference LoadGen mlperf_log_summary.txt, every
 * scenario: "key : value" lines (spacing before the colon varies) under
 * three banners. Throughput, latency (ns: min/mean/max and every
 * percentile), LLM first-token and time-per-output-token latencies and
 * token throughput become results of op e2e; the scenario becomes the
 * workload parameter "scenario"; "Result is : INVALID" imports with a
 * warning and the invalid flag. A file cut before LoadGen's closing
 * "... encountered ..." line is refused. The fingerprint: the scenario's
 * load with target_qps (mlperf_fp).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/lines.h"
#include "importers/mlperf.h"
#include "base/error.h"
#include "base/util.h"

enum section { S_NONE, S_SUMMARY, S_STATS, S_PARAMS, S_TAIL };

static const struct {
	const char *label, *metric, *unit;
} values[] = {
	{ "samples per second", "sample_throughput", "samples/s" },
	{ "completed samples per second", "completed_sample_throughput",
	  "samples/s" },
	{ "scheduled samples per second", "scheduled_sample_throughput",
	  "samples/s" },
	{ "tokens per second", "output_throughput", "tokens/s" },
	{ "completed tokens per second", "output_throughput", "tokens/s" },
	{ "qps w/ loadgen overhead", "qps_with_loadgen_overhead", "samples/s" },
	{ "qps w/o loadgen overhead", "qps_without_loadgen_overhead",
	  "samples/s" },
	{ "tps w/ loadgen overhead", "tps_with_loadgen_overhead", "tokens/s" },
};

/* "<stat> <what> (ns)" latency statistics. */
static const struct {
	const char *what, *metric;
} lat[] = {
	{ "latency (ns)", "latency" },
	{ "first token latency (ns)", "ttft" },
	{ "time per output token (ns)", "tpot" },
	{ "time to output token (ns)", "tpot" },
	{ "query latency (ns)", "query_latency" },
	{ "per query latency (ns)", "query_latency" },
};

static const char *const flags_meta[] = { "performance constraints satisfied",
	"min duration satisfied", "min queries satisfied",
	"early stopping satisfied", NULL };

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	return strstr(head, "MLPerf Results Summary") ? 98 : 0;
}

struct ctx {
	const char *path;
	struct imp_sink *sink;
	enum section sec;
	struct mlperf m;
	int scenario, result, closed;
	char scen[24];		/* the Scenario line's text */
	const char *es_base;	/* in an "Early Stopping Result:" block */
	int es_count;		/* estimates read in the block */
};

static const char *lat_metric(const char *what)
{
	for (size_t i = 0; i < sizeof(lat) / sizeof(*lat); i++)
		if (!strcmp(lat[i].what, what))
			return lat[i].metric;
	return NULL;
}

/* The metric of "<what> (ns)"; NULL for a line that is not one. A known
 * latency in another unit ("latency (furlongs)", "latency (us)") is
 * refused (*rc < 0): LoadGen writes ns only, so skipping it would drop a
 * result silently and reading it as ns would scale it. */
static const char *lat_in_ns(struct ctx *x, long line, const char *label,
			     const char *what, int *rc)
{
	const char *metric = lat_metric(what), *open = strrchr(what, '(');
	const char *u = strrchr(label, '(');
	char name[128], unit[32];
	size_t n = strlen(what), k;

	*rc = 0;
	if (metric || !open || open == what || what[n - 1] != ')')
		return metric;
	k = (size_t)(open - what);
	snprintf(name, sizeof(name), "%.*s(ns)", (int)k, what);
	/* the unit as the file spells it (what is lowered) */
	snprintf(unit, sizeof(unit), "%.*s", u ? (int)strcspn(u + 1, ")") : 0,
		 u ? u + 1 : "");
	if (lat_metric(name))
		*rc = pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown unit "
			"'%s' (LoadGen writes latencies in ns; convert the "
			"values to ns and write '(ns)')", x->path, line, label,
			unit);
	return NULL;
}

static int number(struct ctx *x, long line, const char *label,
		  const char *text, double *v)
{
	if (util_parse_double(text, v) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is not a "
				    "number", x->path, line, label, text);
	return 0;
}

/* "90.00 percentile latency (ns)", "90th percentile ..." */
static int percentile(struct ctx *x, long line, const char *label,
		      const char *low, const char *text, int *done)
{
	char pct[16];
	const char *p = low, *metric;
	size_t n = 0;
	double v;
	int rc;

	while ((isdigit((unsigned char)*p) || *p == '.') && n + 1 < sizeof(pct))
		pct[n++] = *p++;
	pct[n] = '\0';
	if (!n)
		return 0;
	if (!strncmp(p, "th", 2))
		p += 2;
	if (strncmp(p, " percentile ", 12))
		return 0;
	if (!(metric = lat_in_ns(x, line, label, p + 12, &rc)))
		return rc;
	*done = 1;
	if ((rc = number(x, line, label, text, &v)) < 0)
		return rc;
	if (mlperf_percentile(&x->m, metric, pct, "ns", v, line) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: bad percentile '%s'",
				    x->path, line, pct);
	return 0;
}

static int stat_line(struct ctx *x, long line, const char *label,
		     const char *low, const char *text, int *done)
{
	static const char *const stats[] = { "min", "max", "mean", NULL };
	const char *metric;
	double v;
	int rc;

	for (int i = 0; stats[i]; i++) {
		size_t k = strlen(stats[i]);

		if (strncmp(low, stats[i], k) || low[k] != ' ')
			continue;
		if (!(metric = lat_in_ns(x, line, label, low + k + 1, &rc))) {
			if (rc < 0)
				return rc;
			continue;
		}
		*done = 1;
		if ((rc = number(x, line, label, text, &v)) < 0)
			return rc;
		mlperf_stat(&x->m, metric, stats[i], "ns", v, line);
		return 0;
	}
	return 0;
}

/* Run facts: "performance constraints satisfied" -> meta key. */
static int meta_line(struct ctx *x, const char *low, const char *text)
{
	char key[96];
	size_t j = 0;

	for (const char *p = low; *p && j + 1 < sizeof(key); p++) {
		if (isalnum((unsigned char)*p) || *p == '_')
			key[j++] = *p;
		else if (j && key[j - 1] != '_')
			key[j++] = '_';
	}
	while (j && key[j - 1] == '_')
		j--;
	key[j] = '\0';
	return x->sink->meta(x->sink, key, text);
}

static int validity(struct ctx *x, long line, const char *text)
{
	x->result = 1;
	if (!strcmp(text, "VALID"))
		return 0;
	if (strcmp(text, "INVALID"))
		return pc_error_set(PC_EINVALID, "%s:%ld: 'Result is': '%s' is "
			"neither VALID nor INVALID", x->path, line, text);
	x->m.invalid = 1;
	x->sink->warn(x->sink, "%s:%ld: LoadGen says the result is INVALID: "
		      "imported with the invalid flag", x->path, line);
	return 0;
}

static int kv_line(struct ctx *x, long line, const char *label,
		   const char *text)
{
	char low[128];
	size_t i;
	double v;
	int rc, done = 0;

	for (i = 0; label[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)label[i]);
	low[i] = '\0';
	if (x->sec == S_PARAMS && !strcmp(low, "target_qps"))
		util_parse_double(text, &x->m.target_qps);
	if (x->sec == S_PARAMS)
		return meta_line(x, low, text);
	if (!strcmp(low, "scenario")) {
		x->scenario = 1;
		snprintf(x->scen, sizeof(x->scen), "%s", text);
		snprintf(x->m.scenario, sizeof(x->m.scenario), "%s", text);
		return x->sink->meta(x->sink, "param.scenario", text);
	}
	if (!strcmp(low, "sut name"))
		return x->sink->meta(x->sink, "sut_name", text);
	if (!strcmp(low, "mode"))
		return x->sink->meta(x->sink, "mode", text);
	if (!strcmp(low, "result is"))
		return validity(x, line, text);
	for (i = 0; flags_meta[i]; i++)
		if (!strcmp(low, flags_meta[i]))
			return meta_line(x, low, text);
	for (i = 0; i < sizeof(values) / sizeof(*values); i++)
		if (!strcmp(low, values[i].label)) {
			if ((rc = number(x, line, label, text, &v)) < 0)
				return rc;
			mlperf_value(&x->m, values[i].metric, values[i].unit, v,
				     line);
			return 0;
		}
	if ((rc = percentile(x, line, label, low, text, &done)) < 0 || done)
		return rc;
	return stat_line(x, line, label, low, text, &done);
}

/* The early-stopping block (LoadGen >= 2.0, results.cc EarlyStopping):
 *   [TTFT |TPOT ]Early Stopping Result:
 *    * Early stopping 90th percentile estimate: 2131000
 *    * Early stopping 99th percentile estimate: 2455000
 * SingleStream's first estimate (its target percentile) is LoadGen's
 * early_stopping_latency_ss, the official result; the 99th (and
 * MultiStream's one estimate) is early_stopping_latency_ms. Returns 1 for
 * a line of the block (es_count < 0 after an error), else 0. */
static int early_stopping(struct ctx *x, long line, const char *label)
{
	static const char *const heads[][2] = {
		{ "Early Stopping Result:", "latency" },
		{ "TTFT Early Stopping Result:", "ttft" },
		{ "TPOT Early Stopping Result:", "tpot" },
	};
	const char *p = lines_after(label, "* Early stopping "), *end;
	char metric[48], pct[8];
	size_t n = 0;
	double v;

	for (size_t i = 0; i < sizeof(heads) / sizeof(*heads); i++)
		if (!strcmp(label, heads[i][0])) {
			x->es_base = heads[i][1];
			x->es_count = 0;
			return 1;
		}
	if (!x->es_base || !p)
		return 0;
	while (isdigit((unsigned char)p[n]) && n + 1 < sizeof(pct)) {
		pct[n] = p[n];
		n++;
	}
	pct[n] = '\0';
	if (!n || !(p = lines_after(p + n, "th percentile estimate:")) ||
	    lines_number(p, &v, &end, 0) < 0 || *end || v < 0) {
		x->es_count = -1;
		pc_error_set(PC_EINVALID, "%s:%ld: '%s': expected 'Early "
			     "stopping NNth percentile estimate: <ns>'",
			     x->path, line, label);
		return 1;
	}
	if (!strcmp(x->scen, "SingleStream"))
		snprintf(metric, sizeof(metric), "early_stopping_%s_%s",
			 x->es_base, x->es_count ? "ms" : "ss");
	else if (!strcmp(x->scen, "MultiStream"))
		snprintf(metric, sizeof(metric), "early_stopping_%s_ms",
			 x->es_base);
	else
		snprintf(metric, sizeof(metric), "early_stopping_%s_p%s",
			 x->es_base, pct);
	x->es_count++;
	mlperf_value(&x->m, metric, "ns", v, line);
	return 1;
}

static int text_line(void *arg, long line, char *buf)
{
	struct ctx *x = arg;
	char *colon, *label = util_trim(buf);

	if (!strcmp(label, "MLPerf Results Summary"))
		x->sec = S_SUMMARY;
	else if (!strcmp(label, "Additional Stats"))
		x->sec = S_STATS;
	else if (!strcmp(label, "Test Parameters Used"))
		x->sec = S_PARAMS;
	if (x->sec == S_PARAMS && strstr(label, "encountered"))
		x->sec = S_TAIL;	/* the warnings/errors block */
	if (*label)	/* the last non-blank line must close the log */
		x->closed = x->sec == S_TAIL &&
			    (!strncmp(label, "No errors encountered", 21) ||
			     strstr(label, "ERRORS encountered") != NULL);
	if (x->sec == S_SUMMARY && early_stopping(x, line, label) != 0)
		return x->es_count < 0 ? PC_EINVALID : 0;
	colon = strchr(label, ':');
	if (!colon || *label == '*' || x->sec == S_NONE || x->sec == S_TAIL)
		return 0;
	*colon = '\0';
	return kv_line(x, line, util_trim(label), util_trim(colon + 1));
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	long line = 0;
	int rc;

	memset(&x, 0, sizeof(x));
	x.path = in->path;
	x.sink = sink;
	mlperf_init(&x.m);
	line = rc = lines_each(in, text_line, &x);
	if (rc > 0)
		rc = 0;
	if (rc == 0 && (!x.scenario || !x.result))
		rc = pc_error_set(PC_EINVALID, "%s: not an MLPerf summary (no "
			"'%s' line)", in->path, x.scenario ? "Result is" :
			"Scenario");
	else if (rc == 0 && !x.closed)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: the summary ends before "
			"LoadGen's closing 'errors encountered' line (file "
			"cut?)", in->path, line);
	if (rc == 0)
		rc = mlperf_fp(&x.m, sink);
	if (rc == 0)
		rc = mlperf_emit(&x.m, sink, in->path);
	mlperf_release(&x.m);
	return rc < 0 ? rc : 0;
}

const struct importer imp_mlperf_summary = {
	.name = "mlperf-summary",
	.kind = "silicon",
	.desc = "MLPerf Inference LoadGen mlperf_log_summary.txt (every "
		"scenario, LLM token latencies, VALID/INVALID)",
	.probe = probe,
	.import = import,
};
