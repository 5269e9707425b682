/*
 * nsys-kern-sum: Nsight Systems `nsys stats --report cuda_gpu_kern_sum
 * --format csv` (and the older gpukernsum report). Columns are found by
 * name after any preamble: Total Time, Instances, Avg|Average, Med,
 * Min|Minimum, Max|Maximum, StdDev, GridXYZ, BlockXYZ, Name; the time
 * unit comes from the "(ns)" suffix (--timeunit), ns when absent.
 * One record per row: metric time, value = Avg (per launch), n =
 * Instances, median/min/max/stddev from the row (docs/importers.md).
 */
#include <math.h>
#include <string.h>

#include "base/units.h"
#include "base/csv.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

enum { C_TOTAL, C_INST, C_AVG, C_MED, C_MIN, C_MAX, C_SD, C_GRID, C_BLOCK,
       C_NAME, N_COLS };

static const struct hwutil_col col_init[N_COLS] = {
	{ "Total Time", 1, -1, "" }, { "Instances", 1, -1, "" },
	{ "Avg|Average", 1, -1, "" }, { "Med|Median", 0, -1, "" },
	{ "Min|Minimum", 0, -1, "" }, { "Max|Maximum", 0, -1, "" },
	{ "StdDev", 0, -1, "" }, { "GridXYZ", 0, -1, "" },
	{ "BlockXYZ", 0, -1, "" }, { "Name", 1, -1, "" },
};

static int probe(const char *head, size_t len, const char *filename)
{
	static const char *const cur[] = { "Total Time", "Instances", "Avg",
					   "Name", NULL };
	static const char *const old[] = { "Total Time", "Instances",
					   "Average", "Name", NULL };

	(void)len;
	(void)filename;
	return hwutil_line_has(head, cur) || hwutil_line_has(head, old) ?
	       95 : 0;
}

struct ctx {
	struct hwutil_col col[N_COLS];
	double factor[N_COLS];	/* column unit -> Avg unit */
	const char *unit;	/* the Avg column's unit */
	size_t ncols;
	struct hmap seen;	/* name + grid + block -> line */
};

static int setup_units(struct csv *c, struct ctx *x)
{
	static const int timecols[] = { C_TOTAL, C_AVG, C_MED, C_MIN, C_MAX,
					C_SD };
	const struct unit *avg;

	for (size_t i = 0; i < N_COLS; i++)
		x->factor[i] = 1;
	avg = units_lookup(*x->col[C_AVG].unit ? x->col[C_AVG].unit : "ns");
	if (!avg || strcmp(avg->dim, "time"))
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Avg': unknown "
			"time unit '%s'", c->path, c->line,
			x->col[C_AVG].unit);
	x->unit = avg->name;
	for (size_t i = 0; i < sizeof(timecols) / sizeof(*timecols); i++) {
		struct hwutil_col *col = &x->col[timecols[i]];
		const struct unit *u;

		if (col->idx < 0)
			continue;
		u = units_lookup(*col->unit ? col->unit : "ns");
		if (!u || strcmp(u->dim, "time"))
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"unknown time unit '%s'", c->path, c->line,
				col->names, col->unit);
		x->factor[timecols[i]] = u->factor / avg->factor;
	}
	return 0;
}

static const char *field(const struct csv *c, const struct ctx *x, int i)
{
	return x->col[i].idx >= 0 ? c->fields[x->col[i].idx] : "";
}

static int check_dup(struct csv *c, struct ctx *x, const char *name)
{
	struct strbuf key = STRBUF_INIT;
	int64_t first;
	int rc = 0;

	strbuf_addf(&key, "%s\x1f%s\x1f%s", name, field(c, x, C_GRID),
		    field(c, x, C_BLOCK));
	if (hmap_get(&x->seen, key.buf, &first))
		rc = pc_error_set(PC_EINVALID, "%s:%ld: duplicate row for "
			"kernel '%s' (first at line %lld)", c->path, c->line,
			name, (long long)first);
	else
		hmap_put(&x->seen, key.buf, c->line);
	strbuf_release(&key);
	return rc;
}

static int row(struct csv *c, struct ctx *x, struct imp_sink *sink)
{
	struct imp_record r;
	double *dst[N_COLS] = { 0 };
	const char *name;
	int rc;

	if (c->nfields != x->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, x->ncols,
				    c->nfields);
	imp_record_init(&r);
	r.line = c->line;
	name = util_trim(c->fields[x->col[C_NAME].idx]);
	if (!*name)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Name' is "
				    "empty", c->path, c->line);
	dst[C_TOTAL] = &r.total;
	dst[C_INST] = &r.n;
	dst[C_AVG] = &r.value;
	dst[C_MED] = &r.median;
	dst[C_MIN] = &r.min;
	dst[C_MAX] = &r.max;
	dst[C_SD] = &r.stddev;
	for (int i = C_TOTAL; i <= C_SD; i++) {
		if ((rc = hwutil_num(c, &x->col[i], dst[i],
				     x->col[i].required)) < 0)
			return rc;
		*dst[i] *= x->factor[i];
	}
	if (!(r.n >= 1) || r.n != floor(r.n))
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Instances': "
			"'%s' is not a positive count", c->path, c->line,
			c->fields[x->col[C_INST].idx]);
	if ((rc = check_dup(c, x, name)) < 0)
		return rc;
	r.mean = r.value;
	r.raw_name = name;
	r.metric = "time";
	r.unit = x->unit;
	return sink->emit(sink, &r);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct ctx x;
	int rc, header = 0, rows = 0;
	char bad[512] = "";

	memset(&x, 0, sizeof(x));
	memcpy(x.col, col_init, sizeof(col_init));
	hmap_init(&x.seen);
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c)) {
			if (rows)
				break;	/* the table ends at a blank line */
			continue;
		}
		if (!header && c.nfields == 1)
			continue;	/* preamble text */
		if (!header) {
			const char *miss;

			if (hwutil_cols_match(&c, x.col, N_COLS) < 2 ||
			    x.col[C_NAME].idx < 0)
				continue;
			if ((miss = hwutil_cols_missing(x.col, N_COLS))) {
				/* another report (cuda_api_sum) may come first */
				if (!*bad)
					snprintf(bad, sizeof(bad), "%s:%ld: missing "
						 "column '%s'", c.path, c.line,
						 miss);
				continue;
			}
			if ((rc = setup_units(&c, &x)) < 0)
				break;
			x.ncols = c.nfields;
			header = 1;
			continue;
		}
		if ((rc = row(&c, &x, sink)) < 0)
			break;
		rows++;
	}
	if (rc > 0)
		rc = 0;	/* stopped at the blank line after the table */
	if (rc == 0 && !header && *bad)
		rc = pc_error_set(PC_EINVALID, "%s", bad);
	else if (rc == 0 && !header)
		rc = pc_error_set(PC_EINVALID, "%s: no kernel summary header "
			"(Total Time, Instances, Avg, Name) found", in->path);
	else if (rc == 0 && !rows)
		rc = pc_error_set(PC_EINVALID, "%s: the kernel summary has no "
				  "rows", in->path);
	hmap_release(&x.seen);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_nsys_kern_sum = {
	.name = "nsys-kern-sum",
	.kind = "silicon",
	.desc = "Nsight Systems cuda_gpu_kern_sum / gpukernsum CSV (per-kernel "
		"time: Avg per launch, n = Instances)",
	.probe = probe,
	.import = import,
};
