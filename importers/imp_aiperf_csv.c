/*
 * aiperf-csv: NVIDIA AIPerf profile_export_aiperf.csv (issue 37 item 4).
 * AIPerf's MetricsCsvExporter writes genai-perf's "legacy, two-section"
 * layout in display units: a request table "Metric,avg,min,max,p1,p5,
 * p10,p25,p50,p75,p90,p95,p99,std" (AIPerf's STAT_KEYS, in that order:
 * genai-perf's own header runs p99..p25), a blank line, a system table
 * "Metric,Value"; since 2026 two blank lines and a GPU telemetry table
 * "Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,..." (skipped with a
 * warning: no sensor resolution is stated, issue 37 item 3). Metric
 * names are the header with the unit in parentheses, none for counts and
 * requests ("Request Count"). Metrics as genai-perf's so the two pair;
 * the request table's input/output sequence length avg and std state
 * the workload fingerprint (docs/importers.md).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/csv.h"
#include "base/error.h"
#include "base/util.h"

/* AIPerf metric headers (aiperf/metrics/types/ files `header`, lowered). */
static const struct ap_metric {
	const char *header, *metric, *dim;
	int scalar;		/* one value: the avg, no statistics */
} metrics[] = {
	{ "time to first token", "ttft", "time", 0 },
	{ "time to second token", "ttst", "time", 0 },
	{ "inter token latency", "itl", "time", 0 },
	{ "request latency", "e2el", "time", 0 },
	{ "output sequence length", "output_sequence_length", "count", 0 },
	{ "input sequence length", "input_sequence_length", "count", 0 },
	{ "output token throughput per user", "output_throughput_per_user",
	  "rate", 0 },
	{ "output token throughput", "output_throughput", "rate", 1 },
	{ "request throughput", "request_throughput", "rate", 1 },
	{ "request count", "completed", "count", 1 },
	{ "benchmark duration", "duration", "time", 1 },
	{ "total output tokens", "output_tokens", "count", 1 },
	{ "total input sequence length", "input_tokens", "count", 1 },
	{ "error request count", "failed", "count", 1 },
	{ "goodput", "request_goodput", "rate", 1 },
};
#define NMETRICS (sizeof(metrics) / sizeof(*metrics))

static const char AP_HDR[] = "Metric,avg,min,max,p1,p5,p10,p25,p50,p75,"
			     "p90,p95,p99,std";

static const struct ap_metric *by_header(const char *name)
{
	char low[128];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	for (i = 0; i < NMETRICS; i++)
		if (!strcmp(metrics[i].header, low))
			return &metrics[i];
	return NULL;
}

static int probe(const char *head, size_t len, const char *filename)
{
	static const char *const hdr[] = { AP_HDR, NULL };

	(void)len;
	(void)filename;
	if (!strncmp(head, "\xef\xbb\xbf", 3))
		head += 3;
	if (!hwutil_line_has(head, hdr))
		return 0;
	/* above genai-perf-csv's 91: its reader stops at the GPU table */
	return strstr(head, "Request Latency") ||
	       strstr(head, "Time to First Token") ? 95 : 0;
}

struct ctx {
	struct imp_sink *sink;
	struct stk_out o;
	struct fpstate fp;
	int table;		/* 0 none, 1 statistics, 2 values, 3 GPU */
	long rows, gpu_rows;
	size_t gpu_fields;	/* the GPU table header's */
};

static void note_fp(struct ctx *x, const struct ap_metric *m,
		    const struct stk_stat *st, double v)
{
	if (!strcmp(m->metric, "input_sequence_length")) {
		fpstate_num(&x->fp, "input_len", st->mean);
		fpstate_num(&x->fp, "input_len_sd", st->std);
	} else if (!strcmp(m->metric, "output_sequence_length")) {
		fpstate_num(&x->fp, "output_len", st->mean);
		fpstate_num(&x->fp, "output_len_sd", st->std);
	} else if (!strcmp(m->metric, "output_tokens")) {
		fpstate_num(&x->fp, "output_tokens", v);
	} else if (!strcmp(m->metric, "input_tokens")) {
		fpstate_num(&x->fp, "input_tokens", v);
	} else if (!strcmp(m->metric, "request_throughput")) {
		fpstate_num(&x->fp, "achieved_request_rate", v);
	}
}

static int short_row(const struct csv *c, size_t want)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': expected %zu fields, "
			    "found %zu (a cut file?)", c->path, c->line,
			    c->fields[0], want, c->nfields);
}

static int row(struct csv *c, struct ctx *x)
{
	static const char *const stat[] = { "avg", "min", "max", "p1", "p5",
		"p10", "p25", "p50", "p75", "p90", "p95", "p99", "std" };
	const struct ap_metric *m;
	char name[128], unit[32];
	const char *u;
	struct stk_stat st;
	double v = NAN;
	size_t want = x->table == 2 ? 2 : 14;

	/* a row shorter than its table is a cut file, whatever its name
	 * (cut inside the name, it was skipped as an unknown metric and
	 * the rest stored: genai-perf-csv's f3b67a2) */
	if (c->nfields < want)
		return short_row(c, want);
	hwutil_split_unit(c->fields[0], name, sizeof(name), unit,
			  sizeof(unit));
	if (!(m = by_header(name))) {
		x->sink->warn(x->sink, "%s:%ld: metric '%s' skipped (not known "
			      "to perfcorr)", c->path, c->line, c->fields[0]);
		return 0;
	}
	if (!(u = stk_unit(unit, m->dim, NULL)))
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown unit "
				    "'%s'", c->path, c->line, c->fields[0],
				    unit);
	if (c->nfields != want)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': expected %zu "
				    "fields, found %zu", c->path, c->line,
				    c->fields[0], want, c->nfields);
	x->o.line = c->line;
	x->rows++;
	stk_stat_init(&st);
	for (size_t i = 1; i < want; i++) {
		double d;

		if (!*c->fields[i])
			continue;	/* None: "" */
		if (stk_number(c->fields[i], &d) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s' column "
				"'%s': '%s' is not a number", c->path, c->line,
				c->fields[0], x->table == 2 ? "Value" :
				stat[i - 1], c->fields[i]);
		if (x->table == 2)
			v = d;
		else
			stk_stat_set(&st, stat[i - 1], d);
	}
	if (x->table == 1 && m->scalar)
		v = st.mean;
	note_fp(x, m, &st, x->table == 2 || m->scalar ? v : st.mean);
	if (x->table == 2 || m->scalar) {
		if (isnan(v))
			return pc_error_set(PC_EINVALID, "%s:%ld: '%s': no value",
					    c->path, c->line, c->fields[0]);
		return stk_scalar(&x->o, NULL, m->metric, v, u);
	}
	if (!stk_stat_any(&st))
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': no statistic",
				    c->path, c->line, c->fields[0]);
	return stk_stat_emit(&x->o, m->metric, u, &st);
}

static int header(struct csv *c, struct ctx *x)
{
	if (!strcmp(c->fields[0], "Endpoint") && csv_col(c, "GPU_Index") >= 0) {
		x->gpu_fields = c->nfields;
		return x->table = 3;
	}
	if (strcmp(c->fields[0], "Metric"))
		return pc_error_set(PC_EINVALID, "%s:%ld: a row outside a table "
				    "(no 'Metric,...' header above it)",
				    c->path, c->line);
	if (c->nfields == 2 && !strcmp(c->fields[1], "Value"))
		return x->table = 2;
	if (c->nfields == 14) {
		char h[sizeof(AP_HDR) + 16] = "";
		size_t n = 0;

		for (size_t i = 0; i < c->nfields && n < sizeof(h); i++)
			n += (size_t)snprintf(h + n, sizeof(h) - n, "%s%s",
					      i ? "," : "", c->fields[i]);
		if (!strcmp(h, AP_HDR))
			return x->table = 1;
	}
	return pc_error_set(PC_EINVALID, "%s:%ld: header: expected '%s' or "
			    "'Metric,Value' (AIPerf's statistics columns)",
			    c->path, c->line, AP_HDR);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct ctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.sink = sink;
	x.o.sink = sink;
	csv_init(&c, in->fp, in->path);
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c)) {
			x.table = 0;
			continue;
		}
		/* AIPerf ends every row with a line end: a last row without
		 * one was cut, maybe inside a number ("91.2" read "91.") */
		if (c.unended) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: the last row has "
					  "no line end (a cut file? if the file "
					  "is whole, end it with a newline)",
					  in->path, c.line);
			break;
		}
		if (!x.table) {
			if ((rc = header(&c, &x)) < 0)
				break;
			continue;
		}
		if (x.table == 3) {
			/* skipped, but a cut row is still a cut file */
			if (c.nfields < x.gpu_fields) {
				rc = short_row(&c, x.gpu_fields);
				break;
			}
			x.gpu_rows++;
			continue;
		}
		if ((rc = row(&c, &x)) < 0)
			break;
	}
	if (rc == 0 && !x.rows)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no metric rows",
				  in->path, c.line);
	if (rc == 0 && x.gpu_rows)
		sink->warn(sink, "%s: %ld GPU telemetry rows skipped (the CSV "
			   "states no sampling period; import DCGM's or "
			   "nvidia-smi's log for power)", in->path, x.gpu_rows);
	if (rc == 0) {
		fpstate_note(&x.fp, "tool", "aiperf");
		rc = fpstate_flush(&x.fp, sink);
	}
	fpstate_release(&x.fp);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_aiperf_csv = {
	.name = "aiperf-csv",
	.kind = "silicon",
	.desc = "NVIDIA AIPerf profile_export_aiperf.csv (request statistics "
		"p1..p99, system values; fingerprint from the sequence "
		"lengths)",
	.probe = probe,
	.import = import,
};
