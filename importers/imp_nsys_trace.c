/*
 * nsys-gpu-trace: Nsight Systems per-instance GPU trace, `nsys stats
 * --report cuda_gpu_trace` (gputrace in older releases, as used by
 * Accel-Sim). Rows are aggregated per kernel name into metric time:
 * value = mean launch time, n = instances, median, min, max, stddev -
 * the same meaning as nsys-kern-sum. Memory copies and memsets
 * ("[CUDA memcpy ...]") are not kernels: they are counted, not stored.
 */
#include <math.h>
#include <string.h>

#include "base/units.h"
#include "base/csv.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "base/error.h"
#include "base/util.h"

enum { C_START, C_DUR, C_CORR, C_DEVICE, C_NAME, N_COLS };

static const struct hwutil_col col_init[N_COLS] = {
	{ "Start", 1, -1, "" }, { "Duration", 1, -1, "" },
	{ "CorrId", 0, -1, "" }, { "Device", 0, -1, "" },
	{ "Name", 1, -1, "" },
};

static int probe(const char *head, size_t len, const char *filename)
{
	static const char *const hdr[] = { "Start", "Duration", "CorrId",
					   "Name", NULL };

	(void)len;
	(void)filename;
	return hwutil_line_has(head, hdr) ? 94 : 0;
}

struct ctx {
	struct hwutil_col col[N_COLS];
	const char *unit;
	size_t ncols;
	long memops;
	struct hwutil_agg agg;
};

static int header(struct csv *c, struct ctx *x)
{
	const struct unit *u;
	const char *miss = hwutil_cols_missing(x->col, N_COLS);

	if (miss)
		return pc_error_set(PC_EINVALID, "%s:%ld: missing column '%s'",
				    c->path, c->line, miss);
	u = units_lookup(*x->col[C_DUR].unit ? x->col[C_DUR].unit : "ns");
	if (!u || strcmp(u->dim, "time"))
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Duration': "
			"unknown time unit '%s'", c->path, c->line,
			x->col[C_DUR].unit);
	x->unit = u->name;
	x->ncols = c->nfields;
	return 0;
}

static int row(struct csv *c, struct ctx *x)
{
	const char *name;
	double start, dur;
	int rc;

	if (c->nfields != x->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, x->ncols,
				    c->nfields);
	name = util_trim(c->fields[x->col[C_NAME].idx]);
	if (!*name)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Name' is "
				    "empty", c->path, c->line);
	if ((rc = hwutil_num(c, &x->col[C_START], &start, 1)) < 0 ||
	    (rc = hwutil_num(c, &x->col[C_DUR], &dur, 1)) < 0)
		return rc;
	if (dur < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Duration': "
				    "negative", c->path, c->line);
	if (!strncmp(name, "[CUDA ", 6)) {
		x->memops++;
		return 0;
	}
	return hwutil_agg_add(&x->agg, name, "time", x->unit, dur, c->line);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct ctx x;
	int rc, have_header = 0;
	long rows = 0;

	memset(&x, 0, sizeof(x));
	memcpy(x.col, col_init, sizeof(col_init));
	hwutil_agg_init(&x.agg);
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c)) {
			if (rows)
				break;
			continue;
		}
		if (!have_header) {
			if (hwutil_cols_match(&c, x.col, N_COLS) < 2 ||
			    x.col[C_NAME].idx < 0)
				continue;
			if ((rc = header(&c, &x)) < 0)
				break;
			have_header = 1;
			continue;
		}
		if ((rc = row(&c, &x)) < 0)
			break;
		rows++;
	}
	if (rc > 0)
		rc = 0;	/* stopped at the blank line after the table */
	if (rc == 0 && !have_header)
		rc = pc_error_set(PC_EINVALID, "%s: no GPU trace header (Start, "
				  "Duration, Name) found", in->path);
	else if (rc == 0)
		rc = hwutil_trace_finish(&x.agg, sink, x.memops, in->path);
	hwutil_agg_release(&x.agg);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_nsys_trace = {
	.name = "nsys-gpu-trace",
	.kind = "silicon",
	.desc = "Nsight Systems cuda_gpu_trace / gputrace CSV, aggregated per "
		"kernel (mean launch time, n, median, min, max, stddev)",
	.probe = probe,
	.import = import,
};
