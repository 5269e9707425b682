/*
 * genz: a GenZ-LLM-Analyzer operator table written with pandas to_csv()
 * (leading index column, units in the headers: msec, MFLOP, MB = 2^20
 * bytes, Tflops). Repeat/EndRepeat marker rows bracket one layer; their
 * Dimension is the layer count. Per-operator rows are kept as one
 * layer's values; a derived e2e time sums the model. The clock comes
 * from Cycles / Latency. See docs/importers-models.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "importers/importer.h"
#include "base/error.h"
#include "base/util.h"

/* numeric columns -> metric and unit (absent columns are skipped) */
static const struct {
	const char *col, *metric, *unit;
} cols[] = {
	{ "Latency (msec)", "time", "ms" },
	{ "Cycles", "cycles", "cycles" },
	{ "Num ops (MFLOP)", "flops", "MFLOP" },
	{ "Total Data (MB)", "bytes", "MiB" },
	{ "Throughput (Tflops)", "attained_flop_rate", "Tflops" },
	{ "Op Intensity", "arithmetic_intensity", "" },
	{ "Compute time (msec)", "compute_time", "ms" },
	{ "Memory time (msec)", "memory_time", "ms" },
	{ "Communication time (msec)", "communication_time", "ms" },
	{ "Compute Utilization", "compute_utilization", "fraction" },
	{ "Memory Utilization", "memory_utilization", "fraction" },
};

#define N_NUM (sizeof(cols) / sizeof(cols[0]))

struct state {
	struct imp_sink *sink;
	int col[N_NUM];
	int c_name, c_type, c_dim, c_bound;
	size_t ncols;
	int in_repeat, clock_done;
	double repeat, outside, inside;	/* e2e time parts, in ms */
	long last_line;
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (strstr(head, "Latency (msec)") && strstr(head, "Num ops (MFLOP)"))
		return 92;
	return 0;
}

/* A column of cols in another unit ("Latency (usec)") is refused: not
 * found by its name it would be dropped silently. */
static int other_unit(const struct csv *c, const char *col)
{
	const char *open = strchr(col, '(');
	size_t k = open ? (size_t)(open - col) + 1 : 0;

	for (size_t f = 0; k && f < c->nfields; f++)
		if (!strncmp(c->fields[f], col, k))
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"unknown unit (GenZ writes '%s'; convert the "
				"column and name it so)", c->path, c->line,
				c->fields[f], col);
	return 0;
}

static int header(struct state *st, struct csv *c)
{
	int rc;

	for (size_t i = 0; i < N_NUM; i++)
		if ((st->col[i] = csv_col(c, cols[i].col)) < 0 &&
		    (rc = other_unit(c, cols[i].col)) < 0)
			return rc;
	st->c_name = csv_col(c, "Layer Name");
	st->c_type = csv_col(c, "Op Type");
	st->c_dim = csv_col(c, "Dimension");
	st->c_bound = csv_col(c, "Bound");
	if (st->col[0] < 0 || (st->c_name < 0 && st->c_type < 0))
		return pc_error_set(PC_EINVALID, "%s:%ld: missing column '%s'",
				    c->path, c->line, st->col[0] < 0 ?
				    "Latency (msec)" : "Layer Name");
	st->ncols = c->nfields;
	return 0;
}

static int emit(struct state *st, long line, const char *raw, const char *op,
		const char *metric, double v, const char *unit, unsigned fl)
{
	struct imp_record r;

	imp_record_init(&r);
	r.raw_name = raw;
	r.op = op;
	r.metric = metric;
	r.value = v;
	r.unit = unit;
	r.flags = fl;
	r.line = line;
	return st->sink->emit(st->sink, &r);
}

/* Cycles / latency is the clock GenZ simulated at. */
static int clock_from(struct state *st, double ms, double cycles)
{
	char buf[32];

	if (st->clock_done || !(ms > 0) || !(cycles > 0))
		return 0;
	st->clock_done = 1;
	snprintf(buf, sizeof(buf), "%.0f", cycles / (ms * 1e-3));
	return st->sink->meta(st->sink, "clock_hz", buf);
}

static int marker(struct state *st, struct csv *c, const char *type)
{
	double n;

	if (!strcmp(type, "EndRepeat")) {
		st->outside += st->inside * st->repeat;
		st->inside = 0;
		st->in_repeat = 0;
		return 0;
	}
	if (st->c_dim < 0 || csv_number(c->fields[st->c_dim], &n) < 0 ||
	    !(n >= 1))
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Dimension': "
				    "the Repeat count is not a positive number",
				    c->path, c->line);
	st->repeat = n;
	st->in_repeat = 1;
	return st->sink->meta(st->sink, "layers", util_trim(c->fields[st->c_dim]));
}

static int row(struct state *st, struct csv *c)
{
	const char *name, *type, *bound;
	double v[N_NUM];
	int rc;

	if (c->nfields != st->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, st->ncols,
				    c->nfields);
	type = st->c_type >= 0 ? util_trim(c->fields[st->c_type]) : "";
	name = st->c_name >= 0 ? util_trim(c->fields[st->c_name]) : type;
	if (!strcmp(type, "Repeat") || !strcmp(type, "EndRepeat"))
		return marker(st, c, type);
	if (!*name)
		return pc_error_set(PC_EINVALID, "%s:%ld: no layer name",
				    c->path, c->line);
	for (size_t i = 0; i < N_NUM; i++) {
		const char *s = st->col[i] >= 0 ? c->fields[st->col[i]] : "";

		if (csv_number(s, &v[i]) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"'%s' is not a number", c->path, c->line,
				cols[i].col, s);
		if (isnan(v[i]))
			continue;
		if ((rc = emit(st, c->line, name, NULL, cols[i].metric, v[i],
			       cols[i].unit, 0)) < 0)
			return rc;
	}
	if (isnan(v[0]))
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Latency "
				    "(msec)' is empty", c->path, c->line);
	*(st->in_repeat ? &st->inside : &st->outside) += v[0];
	st->last_line = c->line;
	if ((rc = clock_from(st, v[0], v[1])) < 0)
		return rc;
	bound = st->c_bound >= 0 ? util_trim(c->fields[st->c_bound]) : "";
	if (!*bound)
		return 0;
	if (strcmp(bound, "Compute") && strcmp(bound, "Memory") &&
	    strcmp(bound, "Collective"))
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Bound': '%s' "
			"is not Compute, Memory or Collective", c->path,
			c->line, bound);
	return emit(st, c->line, name, NULL, "limiter",
		    !strcmp(bound, "Compute") ? 1 : !strcmp(bound, "Memory") ?
		    0 : 2, "", 0);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct state st;
	struct csv c;
	int rc, hdr = 0, rows = 0;

	memset(&st, 0, sizeof(st));
	st.sink = sink;
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c))
			continue;
		if (!hdr) {
			if ((rc = header(&st, &c)) < 0)
				break;
			hdr = 1;
		} else if ((rc = row(&st, &c)) < 0) {
			break;
		} else {
			rows++;
		}
	}
	if (rc == 0 && st.in_repeat)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: Repeat without "
				  "EndRepeat", in->path, c.line);
	if (rc == 0 && !hdr)
		rc = pc_error_set(PC_EINVALID, "%s: no header", in->path);
	if (rc == 0 && rows)
		rc = emit(&st, st.last_line, NULL, "e2e", "time", st.outside,
			  "ms", IMP_DERIVED);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_genz = {
	.name = "genz",
	.kind = "roofline",
	.desc = "GenZ operator table as CSV (Latency (msec), Num ops (MFLOP)"
		", Bound ...)",
	.probe = probe,
	.import = import,
};
