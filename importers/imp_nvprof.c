/*
 * nvprof-gpu-trace: legacy `nvprof --print-gpu-trace --csv [-u us]`
 * (still the hardware input of Accel-Sim). "==PID==" lines are skipped;
 * the row after the header holds each column's unit (it follows -u).
 * Kernel rows are aggregated per name like nsys-gpu-trace; memory
 * copies/sets ("[CUDA memcpy HtoD]") are counted, not stored. The GPU
 * name (Device without its " (N)" suffix) becomes the run's platform.
 */
#include <string.h>

#include "base/units.h"
#include "base/csv.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "base/error.h"
#include "base/util.h"

enum { C_START, C_DUR, C_DEVICE, C_NAME, N_COLS };

static const struct hwutil_col col_init[N_COLS] = {
	{ "Start", 1, -1, "" }, { "Duration", 1, -1, "" },
	{ "Device", 0, -1, "" }, { "Name", 1, -1, "" },
};

static int probe(const char *head, size_t len, const char *filename)
{
	static const char *const hdr[] = { "\"Start\",\"Duration\"", "\"Name\"",
					   NULL };

	(void)len;
	(void)filename;
	return hwutil_line_has(head, hdr) ? 93 : 0;
}

struct ctx {
	struct hwutil_col col[N_COLS];
	char unit[16];
	size_t ncols;
	long memops;
	int state;		/* 0 header, 1 units row, 2 data */
	int platform_set;
	struct hwutil_agg agg;
};

static int units_row(struct csv *c, struct ctx *x)
{
	const char *u;
	const struct unit *un;

	if (c->nfields != x->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected the units row "
			"(%zu fields), found %zu fields", c->path, c->line,
			x->ncols, c->nfields);
	u = util_trim(c->fields[x->col[C_DUR].idx]);
	un = units_lookup(u);
	if (!*u || !un || strcmp(un->dim, "time"))
		return pc_error_set(PC_EINVALID, "%s:%ld: units row: 'Duration' "
			"unit '%s' is not a time unit", c->path, c->line, u);
	snprintf(x->unit, sizeof(x->unit), "%s", un->name);
	return 0;
}

static int set_platform(struct ctx *x, struct imp_sink *sink, char *dev)
{
	size_t n = strlen(dev);

	x->platform_set = 1;
	if (n > 4 && dev[n - 1] == ')') {	/* strip " (N)" */
		char *open = strrchr(dev, '(');

		if (open && open > dev && open[-1] == ' ')
			open[-1] = '\0';
	}
	return *dev ? sink->meta(sink, "platform", dev) : 0;
}

static int row(struct csv *c, struct ctx *x, struct imp_sink *sink)
{
	const char *name;
	double dur;
	int rc;

	if (c->nfields != x->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, x->ncols,
				    c->nfields);
	name = util_trim(c->fields[x->col[C_NAME].idx]);
	if (!*name)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Name' is "
				    "empty", c->path, c->line);
	if ((rc = hwutil_num(c, &x->col[C_DUR], &dur, 1)) < 0)
		return rc;
	if (dur < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Duration': "
				    "negative", c->path, c->line);
	if (!x->platform_set && x->col[C_DEVICE].idx >= 0 &&
	    (rc = set_platform(x, sink,
			       util_trim(c->fields[x->col[C_DEVICE].idx]))) < 0)
		return rc;
	if (name[0] == '[') {
		x->memops++;
		return 0;
	}
	return hwutil_agg_add(&x->agg, name, "time", x->unit, dur, c->line);
}

static int line(struct csv *c, struct ctx *x, struct imp_sink *sink)
{
	const char *miss;

	if (c->nfields && !strncmp(c->fields[0], "==", 2))
		return 0;	/* ==PID== banner lines */
	if (x->state == 0) {
		if (hwutil_cols_match(c, x->col, N_COLS) < 2 ||
		    x->col[C_NAME].idx < 0)
			return 0;
		if ((miss = hwutil_cols_missing(x->col, N_COLS)))
			return pc_error_set(PC_EINVALID, "%s:%ld: missing column "
					    "'%s'", c->path, c->line, miss);
		x->ncols = c->nfields;
		x->state = 1;
		return 0;
	}
	if (x->state == 1) {
		x->state = 2;
		return units_row(c, x);
	}
	return row(c, x, sink);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct ctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	memcpy(x.col, col_init, sizeof(col_init));
	hwutil_agg_init(&x.agg);
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0)
		if (!csv_blank(&c) && (rc = line(&c, &x, sink)) < 0)
			break;
	if (rc == 0 && x.state < 2)
		rc = pc_error_set(PC_EINVALID, "%s: no nvprof GPU trace header "
			"and units row found", in->path);
	else if (rc == 0)
		rc = hwutil_trace_finish(&x.agg, sink, x.memops, in->path);
	hwutil_agg_release(&x.agg);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_nvprof = {
	.name = "nvprof-gpu-trace",
	.kind = "silicon",
	.desc = "nvprof --print-gpu-trace --csv (units row), aggregated per "
		"kernel like nsys-gpu-trace",
	.probe = probe,
	.import = import,
};
