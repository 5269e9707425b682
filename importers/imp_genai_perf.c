/*
 * genai-perf: Triton genai-perf's profile_export_genai_perf.csv (two
 * tables, CRLF; ns in 0.0.2dev, ms with thousands separators in quoted
 * values later), its profile_export_genai_perf.json (every metric with
 * its own "unit"; input_config flat or nested; telemetry_stats), and the
 * `genai-perf analyze` sweep CSV (one workload per sweep point). Metric
 * names are the vLLM/SGLang ones: ttft, itl, e2el (request latency),
 * request_throughput, output_throughput ...; statistics as stacks.h.
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "importers/aiperf.h"
#include "importers/fpstate.h"
#include "importers/genai_perf.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/csv.h"
#include "base/error.h"
#include "base/jsonutil.h"
#include "base/util.h"

/* genai-perf metric names (CSV labels lowercased, JSON keys) -> metric,
 * dimension and the unit of a CSV "(per sec)". */
static const struct gp_metric {
	const char *csv, *json, *metric, *dim, *per_sec;
} metrics[] = {
	{ "time to first token", "time_to_first_token", "ttft", "time", 0 },
	{ "time to second token", "time_to_second_token", "ttst", "time", 0 },
	{ "inter token latency", "inter_token_latency", "itl", "time", 0 },
	{ "request latency", "request_latency", "e2el", "time", 0 },
	{ "output sequence length", "output_sequence_length",
	  "output_sequence_length", "count", 0 },
	{ "num output token", NULL, "output_sequence_length", "count", 0 },
	{ "input sequence length", "input_sequence_length",
	  "input_sequence_length", "count", 0 },
	{ "num input token", NULL, "input_sequence_length", "count", 0 },
	{ "output token throughput per request",
	  "output_token_throughput_per_request", "output_throughput_per_user",
	  "rate", "tokens/s" },
	{ "output token throughput per user",
	  "output_token_throughput_per_user", "output_throughput_per_user",
	  "rate", "tokens/s" },
	{ "output token throughput", "output_token_throughput",
	  "output_throughput", "rate", "tokens/s" },
	{ "request throughput", "request_throughput", "request_throughput",
	  "rate", "req/s" },
	{ "request goodput", "request_goodput", "request_goodput", "rate",
	  "req/s" },
	{ "request count", "request_count", "completed", "count", 0 },
	/* AIPerf (genai-perf's successor) adds these to the same layout */
	{ "benchmark duration", "benchmark_duration", "duration", "time", 0 },
	{ "total output tokens", "total_output_tokens", "output_tokens",
	  "count", 0 },
	{ "error request count", "error_request_count", "failed", "count", 0 },
	{ "goodput", "goodput", "request_goodput", "rate", "req/s" },
};
#define NMETRICS (sizeof(metrics) / sizeof(*metrics))

static const struct gp_metric *by_csv(const char *name)
{
	char low[128];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	for (i = 0; i < NMETRICS; i++)
		if (!strcmp(metrics[i].csv, low))
			return &metrics[i];
	return NULL;
}

/* ---- profile_export_genai_perf.csv ---- */

static int probe_csv(const char *head, size_t len, const char *filename)
{
	static const char *const t1[] = { "Metric,avg,min,max", NULL };
	static const char *const t2[] = { "Metric,Value", NULL };

	(void)len;
	(void)filename;
	if (!hwutil_line_has(head, t1) && !hwutil_line_has(head, t2))
		return 0;
	return strstr(head, "Request Latency") ||
	       strstr(head, "Time To First Token") ||
	       strstr(head, "Request Throughput") ? 91 : 0;
}

/* "…/<model>-<service>-<endpoint>-concurrency<N>/file": N, else NULL. */
static const char *dir_concurrency(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/'), *p;
	size_t k = 0;

	if (!slash)
		return NULL;
	for (p = slash; p > path && p[-1] != '/'; p--)
		;
	p = strstr(p, "-concurrency");
	if (!p || p > slash)
		return NULL;
	for (p += 12; p < slash && isdigit((unsigned char)*p) && k + 1 < n;
	     p++)
		buf[k++] = *p;
	buf[k] = '\0';
	return k && p == slash ? buf : NULL;
}

struct cctx {
	struct imp_sink *sink;
	struct stk_out o;
	char **stat;		/* table 1 statistic names */
	size_t nstat;
	int table;		/* 0 none, 1 statistics, 2 values */
	long rows;
	struct fpstate fp;	/* the workload fingerprint (issue 37) */
};

/* The lengths measured (avg, std when the table has it) and the
 * achieved request rate, as the run's fingerprint. */
static void csv_fp(struct cctx *x, const struct gp_metric *m,
		   const struct stk_stat *st, double v)
{
	int in = !strcmp(m->metric, "input_sequence_length");

	if (x->table == 1 && (in || !strcmp(m->metric,
					    "output_sequence_length"))) {
		fpstate_num(&x->fp, in ? "input_len" : "output_len", st->mean);
		fpstate_num(&x->fp, in ? "input_len_sd" : "output_len_sd",
			    st->std);
	} else if (x->table == 2 && !strcmp(m->metric, "request_throughput")) {
		fpstate_num(&x->fp, "achieved_request_rate", v);
	}
}

static int csv_row(struct csv *c, struct cctx *x)
{
	const struct gp_metric *m;
	char name[128], unit[32];
	const char *u;
	struct stk_stat st;
	double v;

	/* a row shorter than its table is a cut file, whatever its name
	 * (cut inside the name, 'Output Token Through' was skipped as an
	 * unknown metric and the rest imported) */
	if (x->table != 2 && c->nfields < x->nstat + 1)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu (a cut file?)", c->path, c->line,
				    x->nstat + 1, c->nfields);
	hwutil_split_unit(c->fields[0], name, sizeof(name), unit,
			  sizeof(unit));
	if (!(m = by_csv(name))) {
		if (x->table == 2 && c->nfields < 2)
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': no "
					    "value (a cut file?)", c->path,
					    c->line, c->fields[0]);
		x->sink->warn(x->sink, "%s:%ld: metric '%s' skipped (not known "
			      "to perfcorr)", c->path, c->line, c->fields[0]);
		return 0;
	}
	if (!(u = stk_unit(unit, m->dim, m->per_sec)))
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown unit "
				    "'%s'", c->path, c->line, c->fields[0],
				    unit);
	x->o.line = c->line;
	x->rows++;
	if (x->table == 2) {
		if (c->nfields < 2 || stk_number(c->fields[1], &v) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is "
				"not a number", c->path, c->line, c->fields[0],
				c->nfields < 2 ? "" : c->fields[1]);
		csv_fp(x, m, NULL, v);
		return stk_scalar(&x->o, NULL, m->metric, v, u);
	}
	if (c->nfields != x->nstat + 1)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, x->nstat + 1,
				    c->nfields);
	stk_stat_init(&st);
	for (size_t i = 0; i < x->nstat; i++) {
		if (stk_number(c->fields[i + 1], &v) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s' column "
				"'%s': '%s' is not a number", c->path, c->line,
				c->fields[0], x->stat[i], c->fields[i + 1]);
		if (stk_stat_set(&st, x->stat[i], v))
			return pc_error_set(PC_EINVALID, "%s:%ld: unknown "
				"statistic column '%s'", c->path, c->line,
				x->stat[i]);
	}
	csv_fp(x, m, &st, NAN);
	return stk_stat_emit(&x->o, m->metric, u, &st);
}

static int import_csv(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct cctx x;
	struct imp_param p;
	char conc[24];
	int rc;

	memset(&x, 0, sizeof(x));
	x.sink = sink;
	x.o.sink = sink;
	if ((p.value = dir_concurrency(in->path, conc, sizeof(conc)))) {
		p.name = "concurrency";
		x.o.params = &p;
		x.o.nparams = 1;
		fpstate_note(&x.fp, "concurrency", p.value);
	}
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c)) {
			x.table = 0;
			continue;
		}
		if (!strcmp(c.fields[0], "Metric")) {
			x.table = c.nfields == 2 &&
				  !strcmp(c.fields[1], "Value") ? 2 : 1;
			for (size_t i = 0; i < x.nstat; i++)
				free(x.stat[i]);
			free(x.stat);
			x.stat = NULL;
			x.nstat = 0;
			if (x.table == 1) {
				x.nstat = c.nfields - 1;
				x.stat = xcalloc(x.nstat, sizeof(*x.stat));
				for (size_t i = 0; i < x.nstat; i++)
					x.stat[i] = xstrdup(c.fields[i + 1]);
			}
			continue;
		}
		if (!x.table) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: a row outside "
					  "a table (no 'Metric,...' header "
					  "above it)", c.path, c.line);
			break;
		}
		if ((rc = csv_row(&c, &x)) < 0)
			break;
	}
	if (rc == 0 && !x.rows)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no metric rows",
				  in->path, c.line);
	fpstate_note(&x.fp, "tool", "genai-perf");
	if (rc >= 0)
		rc = fpstate_flush(&x.fp, sink);
	fpstate_release(&x.fp);
	for (size_t i = 0; i < x.nstat; i++)
		free(x.stat[i]);
	free(x.stat);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_genai_perf_csv = {
	.name = "genai-perf-csv",
	.kind = "silicon",
	.desc = "genai-perf profile_export_genai_perf.csv (ns or ms, both "
		"tables; concurrency from the artifact directory name)",
	.probe = probe_csv,
	.import = import_csv,
};

/* ---- profile_export_genai_perf.json ---- */

static int probe_json(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p != '{' || !strstr(head, "\"unit\""))
		return 0;
	return strstr(head, "\"request_throughput\"") &&
	       (strstr(head, "\"request_latency\"") ||
		strstr(head, "\"time_to_first_token\"")) ? 92 : 0;
}

struct jctx {
	struct imp_sink *sink;
	struct imp_input *in;
	const char *tool;	/* the fingerprint's tool */
	int done;
	struct fpstate *fp;	/* AIPerf's export: its schema and identity */
};

static int bad(struct jctx *x, const char *key, const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': %s", x->in->path,
			    stk_key_line(x->in->fp, key), key, what);
}

/* One statistics object {unit, avg, pNN, min, max, std} into st. */
static int stat_obj(struct jctx *x, const char *key, const cJSON *obj,
		    struct stk_stat *st)
{
	const cJSON *kv;

	stk_stat_init(st);
	cJSON_ArrayForEach(kv, obj) {
		if (!strcmp(kv->string, "unit"))
			continue;
		if (cJSON_IsNull(kv))
			continue;
		if (!cJSON_IsNumber(kv))
			return bad(x, key, "a statistic is not a number");
		stk_stat_set(st, kv->string, kv->valuedouble);
	}
	return 0;
}

static int json_doc(cJSON *doc, long line, void *ctx)
{
	struct jctx *x = ctx;
	struct stk_out o = { .sink = x->sink, .line = line };
	int rc;

	if (x->done++)
		return pc_error_set(PC_EINVALID, "%s:%ld: a second JSON "
				    "document", x->in->path, line);
	if (!cJSON_IsObject(doc))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected a JSON "
				    "object", x->in->path, line);
	if (x->fp &&
	    ((rc = aiperf_schema(doc, x->in, "AIPerf's JSON export")) < 0 ||
	     (rc = aiperf_identity(x->sink, doc, x->fp)) < 0))
		return rc;
	if ((rc = genai_perf_identity(x->sink, doc, x->in)) < 0)
		return rc;
	if (x->fp) {
		aiperf_fingerprint(doc, x->fp);
		if (cJSON_GetObjectItemCaseSensitive(doc, "telemetry_data"))
			x->sink->warn(x->sink, "%s: telemetry_data skipped: it "
				      "states no sampling period, so its power "
				      "cannot be checked against the sensor's "
				      "resolution", x->in->path);
	}
	for (size_t i = 0; i < NMETRICS; i++) {
		const cJSON *m, *u;
		const char *unit;
		struct stk_stat st;

		if (!metrics[i].json ||
		    !(m = cJSON_GetObjectItemCaseSensitive(doc,
							   metrics[i].json)))
			continue;
		u = cJSON_GetObjectItemCaseSensitive(m, "unit");
		if (!cJSON_IsObject(m) || !cJSON_IsString(u))
			return bad(x, metrics[i].json, "expected an object with "
				   "a \"unit\"");
		if (!(unit = stk_unit(u->valuestring, metrics[i].dim, NULL)))
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown "
				"unit '%s'", x->in->path,
				stk_key_line(x->in->fp, metrics[i].json),
				metrics[i].json, u->valuestring);
		if ((rc = stat_obj(x, metrics[i].json, m, &st)) < 0)
			return rc;
		if (!strcmp(metrics[i].dim, "rate") ||
		    !strcmp(metrics[i].metric, "completed") ||
		    !strcmp(metrics[i].metric, "duration") ||
		    !strcmp(metrics[i].metric, "output_tokens") ||
		    !strcmp(metrics[i].metric, "failed"))
			rc = stk_scalar(&o, NULL, metrics[i].metric, st.mean,
					unit);
		else
			rc = stk_stat_emit(&o, metrics[i].metric, unit, &st);
		if (rc < 0)
			return rc;
	}
	if ((rc = genai_perf_telemetry(x->sink, doc, x->in, &o)) < 0 ||
	    (rc = genai_perf_fp(x->sink, doc, x->tool)) < 0)
		return rc;
	return o.emitted ? 0 : pc_error_set(PC_EINVALID, "%s:%ld: no genai-perf "
					    "metrics", x->in->path, line);
}

static int import_json(struct imp_input *in, struct imp_sink *sink)
{
	struct jctx x = { .sink = sink, .in = in, .tool = "genai-perf" };
	int rc = hwutil_json_docs(in->fp, in->path, json_doc, &x);

	return rc < 0 ? rc : 0;
}

static int import_aiperf(struct imp_input *in, struct imp_sink *sink)
{
	struct fpstate fp;
	struct jctx x = { .sink = sink, .in = in, .tool = "aiperf",
			  .fp = &fp };
	int rc;

	memset(&fp, 0, sizeof(fp));
	rc = hwutil_json_docs(in->fp, in->path, json_doc, &x);
	if (rc >= 0)
		rc = fpstate_flush(&fp, sink);
	fpstate_release(&fp);
	return rc < 0 ? rc : 0;
}

/* AIPerf writes genai-perf's JSON layout by design (its JsonExportData
 * "mimics the structure of the GenAI-Perf JSON output"), with its own
 * input_config (endpoint, input.prompt, loadgen) and a few more
 * metrics: the same reader, its own name so provenance says which tool. */
static int probe_aiperf(const char *head, size_t len, const char *filename)
{
	int gp = probe_json(head, len, filename);

	if (!gp)
		return 0;
	return (filename && strstr(filename, "profile_export_aiperf")) ||
	       strstr(head, "\"benchmark_duration\"") ||
	       strstr(head, "\"loadgen\"") ? 95 : 0;
}

const struct importer imp_aiperf_json = {
	.name = "aiperf-json",
	.kind = "silicon",
	.desc = "NVIDIA AIPerf profile_export_aiperf.json (genai-perf's "
		"layout: units per metric, input_config endpoint/input/loadgen "
		"identity, benchmark_duration, total_output_tokens)",
	.probe = probe_aiperf,
	.import = import_aiperf,
};

const struct importer imp_genai_perf_json = {
	.name = "genai-perf-json",
	.kind = "silicon",
	.desc = "genai-perf profile_export_genai_perf.json (units per metric, "
		"input_config identity, GPU telemetry power and energy)",
	.probe = probe_json,
	.import = import_json,
};

/* ---- analyze_export_genai_perf.csv (genai-perf analyze) ---- */

static int probe_analyze(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (!strncmp(head, "\xef\xbb\xbf", 3))
		head += 3;
	return !strncmp(head, "Config Name,", 12) &&
	       strstr(head, "Concurrency") ? 92 : 0;
}

/* GPU table metrics (lowercased, without the statistic). */
static const struct {
	const char *name, *metric;
} gpu_metrics[] = {
	{ "gpu power usage", "power" }, { "gpu utilization", "utilization" },
	{ "gpu memory used", "memory_used" },
	{ "gpu power limit", "power_limit" },
	{ "gpu total memory", "memory_total" },
};

#define MAXCFG 256

struct actx {
	struct imp_sink *sink;
	int table;			/* 1 sweep, 2 GPU */
	int pcol[3];			/* Concurrency, ISL, Num Prompts */
	int gpucol;
	struct {
		char *name;
		struct stk_params p;
	} cfg[MAXCFG];
	size_t ncfg;
	char **hdr;
	size_t nhdr;
	long rows;
	struct fpstate fp;	/* what every sweep point agrees on */
};

/* "p99 Time To First Token (ms)" -> stat "p99", name, unit. */
static void split_stat(const char *h, char *stat, size_t slen, char *name,
		       size_t nlen, char *unit, size_t ulen)
{
	const char *sp = strchr(h, ' ');
	size_t n = sp ? (size_t)(sp - h) : 0;
	size_t i;

	if (n >= slen)
		n = 0;
	/* a statistic is avg, avg., min, max, std or pNN */
	if (n && strncasecmp(h, "avg", 3) && strncasecmp(h, "min ", 4) &&
	    strncasecmp(h, "max ", 4) && strncasecmp(h, "std ", 4) &&
	    !(h[0] == 'p' && isdigit((unsigned char)h[1])))
		n = 0;
	memcpy(stat, h, n);
	stat[n] = '\0';
	for (i = 0; stat[i]; i++)
		stat[i] = (char)tolower((unsigned char)stat[i]);
	if (i && stat[i - 1] == '.')
		stat[i - 1] = '\0';	/* "Avg." */
	hwutil_split_unit(n ? h + n + 1 : h, name, nlen, unit, ulen);
}

static int analyze_row(struct csv *c, struct actx *x)
{
	struct stk_out o = { .sink = x->sink, .line = c->line };
	struct stk_params *p = NULL;
	int rc;

	if (c->nfields != x->nhdr)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, x->nhdr,
				    c->nfields);
	for (size_t i = 0; i < x->ncfg; i++)
		if (!strcmp(x->cfg[i].name, c->fields[0]))
			p = &x->cfg[i].p;
	if (x->table == 1) {
		static const char *const pn[] = { "concurrency", "input_len",
						  "num_prompts" };

		if (p || x->ncfg == MAXCFG)
			return pc_error_set(PC_EINVALID, "%s:%ld: config '%s' "
				"twice (or more than %d)", c->path, c->line,
				c->fields[0], MAXCFG);
		x->cfg[x->ncfg].name = xstrdup(c->fields[0]);
		p = &x->cfg[x->ncfg++].p;
		for (int k = 0; k < 3; k++)
			if (x->pcol[k] >= 0)
				stk_params_add(p, pn[k],
					       c->fields[x->pcol[k]]);
		for (int k = 0; k < 2; k++)	/* concurrency, ISL */
			if (x->pcol[k] >= 0)
				fpstate_note(&x->fp, pn[k],
					     c->fields[x->pcol[k]]);
	} else if (!p) {
		return pc_error_set(PC_EINVALID, "%s:%ld: config '%s' is not in "
				    "the sweep table above", c->path, c->line,
				    c->fields[0]);
	} else {
		o.op = c->fields[x->gpucol];
	}
	o.params = p->p;
	o.nparams = p->n;
	for (size_t i = 1; i < x->nhdr; i++) {
		char stat[16], name[96], unit[32], low[96], m[128];
		const char *metric = NULL, *u;
		double v;
		size_t k;

		if ((int)i == x->pcol[0] || (int)i == x->pcol[1] ||
		    (int)i == x->pcol[2] || (int)i == x->gpucol)
			continue;
		split_stat(x->hdr[i], stat, sizeof(stat), name, sizeof(name),
			   unit, sizeof(unit));
		for (k = 0; name[k] && k + 1 < sizeof(low); k++)
			low[k] = (char)tolower((unsigned char)name[k]);
		low[k] = '\0';
		if (x->table == 1) {
			const struct gp_metric *gm = by_csv(name);

			if (gm && (u = stk_unit(unit, gm->dim, gm->per_sec)))
				metric = gm->metric;
			else if (gm)
				return pc_error_set(PC_EINVALID, "%s:%ld: column "
					"'%s': unknown unit '%s'", c->path,
					c->line, x->hdr[i], unit);
		} else {
			for (k = 0; k < sizeof(gpu_metrics) /
			     sizeof(*gpu_metrics); k++)
				if (!strcmp(gpu_metrics[k].name, low))
					metric = gpu_metrics[k].metric;
			u = unit;
		}
		if (!metric)
			continue;	/* energy percentiles, unknown columns */
		if (stk_number(c->fields[i], &v) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"'%s' is not a number", c->path, c->line,
				x->hdr[i], c->fields[i]);
		if (!strcmp(stat, "avg") || !strcmp(stat, "mean") || !*stat)
			snprintf(m, sizeof(m), "%s", metric);
		else
			snprintf(m, sizeof(m), "%s_%s", metric, stat);
		if ((rc = stk_scalar(&o, o.op, m, v, u)) < 0)
			return rc;
	}
	x->rows++;
	return 0;
}

static int analyze_header(struct csv *c, struct actx *x)
{
	static const char *const pc[] = { "Concurrency", "ISL",
					  "Num Prompts" };

	for (size_t i = 0; i < x->nhdr; i++)
		free(x->hdr[i]);
	free(x->hdr);
	x->nhdr = c->nfields;
	x->hdr = xcalloc(x->nhdr, sizeof(*x->hdr));
	for (size_t i = 0; i < x->nhdr; i++)
		x->hdr[i] = xstrdup(c->fields[i]);
	x->table = csv_col(c, "GPU") >= 0 ? 2 : 1;
	x->gpucol = csv_col(c, "GPU");
	for (int k = 0; k < 3; k++)
		x->pcol[k] = x->table == 1 ? csv_col(c, pc[k]) : -1;
	if (x->table == 1 && x->pcol[0] < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: missing column "
				    "'Concurrency'", c->path, c->line);
	for (size_t i = 0; i < x->nhdr; i++)
		if (strstr(x->hdr[i], "Energy Consumption"))
			x->sink->warn(x->sink, "%s:%ld: '%s' skipped: a "
				"percentile of a cumulative counter is not the "
				"run's energy", c->path, c->line, x->hdr[i]);
	return 0;
}

static int import_analyze(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct actx x;
	int rc, want_header = 1;

	memset(&x, 0, sizeof(x));
	x.sink = sink;
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c)) {
			want_header = 1;
			continue;
		}
		if (want_header) {
			want_header = 0;
			if (strcmp(c.fields[0], "Config Name")) {
				rc = pc_error_set(PC_EINVALID, "%s:%ld: expected "
					"a 'Config Name,...' header", c.path,
					c.line);
				break;
			}
			if ((rc = analyze_header(&c, &x)) < 0)
				break;
			continue;
		}
		if ((rc = analyze_row(&c, &x)) < 0)
			break;
	}
	if (rc == 0 && !x.rows)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no sweep rows",
				  in->path, c.line);
	fpstate_note(&x.fp, "tool", "genai-perf");
	if (rc >= 0)
		rc = fpstate_flush(&x.fp, sink);
	fpstate_release(&x.fp);
	for (size_t i = 0; i < x.ncfg; i++) {
		free(x.cfg[i].name);
		stk_params_release(&x.cfg[i].p);
	}
	for (size_t i = 0; i < x.nhdr; i++)
		free(x.hdr[i]);
	free(x.hdr);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_genai_perf_analyze = {
	.name = "genai-perf-analyze",
	.kind = "silicon",
	.desc = "genai-perf analyze sweep CSV (a workload per sweep point: "
		"concurrency, ISL, prompts; GPU table per GPU)",
	.probe = probe_analyze,
	.import = import_analyze,
};
