/*
 * trtllm-legacy-csv: TensorRT-LLM's legacy `gptManagerBenchmark
 * --output_csv`: one header and one data row, the unit inside each
 * column name ("total_latency(ms)"). Columns are read by name, so the
 * avg_acceptance_rate column of newer versions (which shifts the rest)
 * does not matter; columns it does not know (a script's util_*, mem_*)
 * are skipped with a warning. The file carries no run identity: give
 * the workload with --workload/--param. Metric names are the vLLM ones.
 * The workload fingerprint (issue 37): seq_throughput as the request
 * rate achieved, tool gptManagerBenchmark (no lengths, no load asked
 * for: give them with --meta fp.FIELD=VALUE).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/stacks.h"
#include "base/csv.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/units.h"

/* column name (without unit) -> metric and statistic; stat NULL is a
 * scalar; dim is the dimension its unit must have. */
static const struct {
	const char *col, *metric, *stat, *dim;
} cols[] = {
	{ "num_samples", "completed", NULL, "count" },
	{ "num_error_samples", "failed", NULL, "count" },
	{ "total_latency", "duration", NULL, "time" },
	{ "seq_throughput", "request_throughput", NULL, "rate" },
	{ "token_throughput", "output_throughput", NULL, "rate" },
	{ "avg_acceptance_rate", "accept_length", NULL, "count" },
	{ "avg_sequence_latency", "e2el", "mean", "time" },
	{ "max_sequence_latency", "e2el", "max", "time" },
	{ "min_sequence_latency", "e2el", "min", "time" },
	{ "p99_sequence_latency", "e2el", "p99", "time" },
	{ "p90_sequence_latency", "e2el", "p90", "time" },
	{ "p50_sequence_latency", "e2el", "p50", "time" },
	{ "avg_time_to_first_token", "ttft", "mean", "time" },
	{ "max_time_to_first_token", "ttft", "max", "time" },
	{ "min_time_to_first_token", "ttft", "min", "time" },
	{ "p99_time_to_first_token", "ttft", "p99", "time" },
	{ "p90_time_to_first_token", "ttft", "p90", "time" },
	{ "p50_time_to_first_token", "ttft", "p50", "time" },
	{ "avg_inter_token_latency", "itl", "mean", "time" },
	{ "max_inter_token_latency", "itl", "max", "time" },
	{ "min_inter_token_latency", "itl", "min", "time" },
	{ "p99_inter_token_latency", "itl", "p99", "time" },
	{ "p90_inter_token_latency", "itl", "p90", "time" },
	{ "p50_inter_token_latency", "itl", "p50", "time" },
};
#define NCOLS (sizeof(cols) / sizeof(*cols))

static const char *const stats[] = { "e2el", "ttft", "itl" };

static int probe(const char *head, size_t len, const char *filename)
{
	static const char *const hdr[] = { "num_samples", "seq_throughput(",
					   "token_throughput(", NULL };

	(void)len;
	(void)filename;
	return hwutil_line_has(head, hdr) ? 92 : 0;
}

/* The SI-convertible unit of a header unit; NULL when unknown. */
static const char *unit_of(const char *u, const char *dim)
{
	const struct unit *x;

	if (!strcmp(dim, "count"))
		return !*u || !strcmp(u, "tokens/decoding steps") ? "" : NULL;
	if (!strcmp(u, "seq/sec"))
		return "req/s";
	if (!strcmp(u, "token/sec"))
		return "tokens/s";
	x = units_lookup(u);
	return x && !strcmp(x->dim, dim) ? x->name : NULL;
}

struct col {
	int idx;
	const char *unit;
};

static int header(struct csv *c, struct col *map, struct imp_sink *sink)
{
	struct strbuf skipped = STRBUF_INIT;

	for (size_t k = 0; k < NCOLS; k++)
		map[k].idx = -1;
	for (size_t i = 0; i < c->nfields; i++) {
		char name[64], unit[32];
		size_t k;

		hwutil_split_unit(c->fields[i], name, sizeof(name), unit,
				  sizeof(unit));
		for (k = 0; k < NCOLS && strcmp(cols[k].col, name); k++)
			;
		if (k == NCOLS) {
			strbuf_addf(&skipped, "%s%s", skipped.len ? ", " : "",
				    name);
			continue;
		}
		if (!(map[k].unit = unit_of(unit, cols[k].dim))) {
			strbuf_release(&skipped);
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"unknown unit '%s'", c->path, c->line,
				c->fields[i], unit);
		}
		map[k].idx = (int)i;
	}
	if (skipped.len)
		sink->warn(sink, "%s:%ld: columns not from gptManagerBenchmark "
			   "skipped: %s", c->path, c->line, skipped.buf);
	strbuf_release(&skipped);
	for (size_t k = 0; k < 5; k++)
		if (map[k].idx < 0 && k != 1)
			return pc_error_set(PC_EINVALID, "%s:%ld: missing column "
				"'%s'", c->path, c->line, cols[k].col);
	return 0;
}

static int row(struct csv *c, const struct col *map, struct imp_sink *sink)
{
	struct stk_out o = { .sink = sink, .line = c->line };
	struct stk_stat st[3];
	struct fpstate fp = { 0 };
	double rate = NAN;	/* seq_throughput: the fingerprint's */
	int rc;

	for (int s = 0; s < 3; s++)
		stk_stat_init(&st[s]);
	for (size_t k = 0; k < NCOLS; k++) {
		const char *f;
		double v;

		if (map[k].idx < 0)
			continue;
		if ((size_t)map[k].idx >= c->nfields)
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s' "
				"is missing from the row", c->path, c->line,
				cols[k].col);
		f = c->fields[map[k].idx];
		if (stk_number(f, &v) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"'%s' is not a number", c->path, c->line,
				cols[k].col, f);
		if (!cols[k].stat) {
			if (!strcmp(cols[k].metric, "request_throughput"))
				rate = v;
			if ((rc = stk_scalar(&o, NULL, cols[k].metric, v,
					     map[k].unit)) < 0)
				return rc;
			continue;
		}
		for (int s = 0; s < 3; s++)
			if (!strcmp(stats[s], cols[k].metric))
				stk_stat_set(&st[s], cols[k].stat, v);
	}
	for (int s = 0; s < 3; s++)
		if ((rc = stk_stat_emit(&o, stats[s], "ms", &st[s])) < 0)
			return rc;
	fpstate_num(&fp, "achieved_request_rate", rate);
	fpstate_note(&fp, "tool", "gptManagerBenchmark");
	return fpstate_flush(&fp, sink);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct col map[NCOLS];
	int rc, have_header = 0;
	long rows = 0;

	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c))
			continue;
		if (!have_header) {
			if ((rc = header(&c, map, sink)) < 0)
				break;
			have_header = 1;
			continue;
		}
		if (rows++) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: a second data "
					  "row (the report has one)", c.path,
					  c.line);
			break;
		}
		if ((rc = row(&c, map, sink)) < 0)
			break;
	}
	if (rc == 0 && !rows)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: no data row", in->path,
				  c.line);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_trtllm_csv = {
	.name = "trtllm-legacy-csv",
	.kind = "silicon",
	.desc = "TensorRT-LLM gptManagerBenchmark --output_csv (columns by "
		"name, unit in the name)",
	.probe = probe,
	.import = import,
};
