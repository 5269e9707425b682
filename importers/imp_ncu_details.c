/*
 * ncu-details: Nsight Compute `ncu --csv` default (details) page, one row
 * per launch x section x metric. Both layouts: the current 20 columns
 * (Block/Grid Size, Device, CC, rule columns; metric rows are ragged)
 * and the old 12 columns with `Kernel Time` (a timestamp, ignored).
 * Columns are found by name; rule rows (no metric name) are skipped.
 * Metrics are collected per launch (ID) and aggregated per kernel name:
 * time (Duration), cycles (Elapsed Cycles), sm_frequency, ... (ncu.h).
 * The --print-summary per-kernel layout (Invocations, Minimum, Maximum,
 * Average) is read too: one record per kernel and metric.
 */
#include <string.h>

#include "base/csv.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/ncu.h"
#include "base/error.h"
#include "base/util.h"

enum { C_ID, C_KERNEL, C_MNAME, C_MUNIT, C_MVALUE, C_INV, C_MIN, C_MAX,
       C_AVG, N_COLS };

/* --print-summary per-kernel has Invocations/Minimum/Maximum/Average
 * instead of ID and Metric Value. */
static const struct hwutil_col col_init[N_COLS] = {
	{ "ID", 1, -1, "" }, { "Kernel Name", 1, -1, "" },
	{ "Metric Name", 1, -1, "" }, { "Metric Unit", 1, -1, "" },
	{ "Metric Value", 1, -1, "" }, { "Invocations", 0, -1, "" },
	{ "Minimum", 0, -1, "" }, { "Maximum", 0, -1, "" },
	{ "Average", 0, -1, "" },
};

static int probe(const char *head, size_t len, const char *filename)
{
	static const char *const hdr[] = { "\"ID\"", "Kernel Name",
		"Metric Name", "Metric Value", NULL };
	static const char *const sum[] = { "Kernel Name", "Invocations",
		"Metric Name", "Average", NULL };

	(void)len;
	(void)filename;
	return hwutil_line_has(head, hdr) || hwutil_line_has(head, sum) ?
	       96 : 0;
}

struct ctx {
	struct hwutil_col col[N_COLS];
	size_t need;		/* fields a metric row must have */
	int summary;		/* the per-kernel summary layout */
	struct ncu ncu;
	long rows;
};

static int header(struct csv *c, struct ctx *x)
{
	const char *miss;

	x->summary = x->col[C_MVALUE].idx < 0 && x->col[C_AVG].idx >= 0 &&
		     x->col[C_INV].idx >= 0;
	if (x->summary) {
		x->col[C_ID].required = x->col[C_MVALUE].required = 0;
		x->col[C_MIN].required = x->col[C_MAX].required = 1;
	}
	miss = hwutil_cols_missing(x->col, N_COLS);
	if (miss)
		return pc_error_set(PC_EINVALID, "%s:%ld: missing column '%s'",
				    c->path, c->line, miss);
	for (int i = 0; i < N_COLS; i++)
		if (x->col[i].idx >= 0 && x->col[i].required &&
		    (size_t)x->col[i].idx + 1 > x->need)
			x->need = (size_t)x->col[i].idx + 1;
	return 0;
}

static int summary_row(struct csv *c, struct ctx *x, struct imp_sink *sink)
{
	const char *kernel = util_trim(c->fields[x->col[C_KERNEL].idx]);
	const char *label = util_trim(c->fields[x->col[C_MNAME].idx]);
	const char *stat[4];

	if (!*kernel)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Kernel Name' "
				    "is empty", c->path, c->line);
	if (!*label)
		return 0;
	for (int i = 0; i < 4; i++)
		stat[i] = c->fields[x->col[C_INV + i].idx];
	return ncu_summary_row(&x->ncu, sink, c->path, c->line, kernel, label,
			       util_trim(c->fields[x->col[C_MUNIT].idx]), stat);
}

static int row(struct csv *c, struct ctx *x, struct imp_sink *sink)
{
	const char *id, *kernel, *label;
	long lid;

	if (c->nfields < x->need)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected at least %zu "
				    "fields, found %zu", c->path, c->line,
				    x->need, c->nfields);
	x->rows++;
	if (x->summary)
		return summary_row(c, x, sink);
	id = util_trim(c->fields[x->col[C_ID].idx]);
	if (util_parse_long(id, &lid) < 0 || lid < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'ID': '%s' is "
				    "not a launch number", c->path, c->line, id);
	kernel = util_trim(c->fields[x->col[C_KERNEL].idx]);
	if (!*kernel)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Kernel Name' "
				    "is empty", c->path, c->line);
	label = util_trim(c->fields[x->col[C_MNAME].idx]);
	if (!*label)
		return 0;	/* a rule row */
	return ncu_add(&x->ncu, c->path, c->line, id, kernel, label,
		       util_trim(c->fields[x->col[C_MUNIT].idx]),
		       c->fields[x->col[C_MVALUE].idx]);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct ctx x;
	int rc, have_header = 0;

	memset(&x, 0, sizeof(x));
	memcpy(x.col, col_init, sizeof(col_init));
	ncu_init(&x.ncu);
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c) || !strncmp(c.fields[0], "==", 2))
			continue;	/* ==PROF== / ==WARNING== lines */
		if (!have_header) {
			if (hwutil_cols_match(&c, x.col, N_COLS) < 3 ||
			    x.col[C_MNAME].idx < 0)
				continue;
			if ((rc = header(&c, &x)) < 0)
				break;
			have_header = 1;
			continue;
		}
		if ((rc = row(&c, &x, sink)) < 0)
			break;
	}
	if (rc == 0 && !have_header)
		rc = pc_error_set(PC_EINVALID, "%s: no ncu details header (ID, "
			"Kernel Name, Metric Name, Metric Value) found",
			in->path);
	else if (rc == 0 && !x.ncu.agg.n && !x.summary)
		rc = pc_error_set(PC_EINVALID, "%s: no metric rows", in->path);
	else if (rc == 0 && !x.ncu.have_time)
		sink->warn(sink, "%s: no Duration metric (section 'GPU Speed Of "
			   "Light Throughput'): no kernel time", in->path);
	if (rc == 0)
		rc = hwutil_agg_emit(&x.ncu.agg, sink);
	ncu_release(&x.ncu);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_ncu_details = {
	.name = "ncu-details",
	.kind = "silicon",
	.desc = "Nsight Compute --csv details page (20- and 12-column "
		"layouts), per-kernel time, cycles and other metrics",
	.probe = probe,
	.import = import,
};
