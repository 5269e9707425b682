/*
 * ncu-raw: Nsight Compute `ncu --page raw --csv`, one row per launch and
 * one column per metric; the second row holds the units (blank under
 * the identity columns). Numbers may carry thousands separators.
 * device__attribute_display_name becomes the run's platform; other
 * device__attribute_* columns are configuration, not measurements.
 */
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/ncu.h"
#include "base/error.h"
#include "base/util.h"

static const char *const identity[] = { "ID", "Process ID", "Process Name",
	"Host Name", "Kernel Name", "Kernel Time", "Context", "Stream",
	"Block Size", "Grid Size", "Device", "CC", NULL };

static int probe(const char *head, size_t len, const char *filename)
{
	static const char *const hdr[] = { "\"ID\"", "Kernel Name", "__",
					   NULL };
	static const char *const details[] = { "Metric Name", NULL };

	(void)len;
	(void)filename;
	if (hwutil_line_has(head, details))
		return 0;
	return hwutil_line_has(head, hdr) ? 97 : 0;
}

struct ctx {
	int id, kernel, display;
	size_t ncols;
	char **units;		/* per column, from the units row */
	char *skip;		/* per column: 1 = not a metric */
	int state;		/* 0 header, 1 units, 2 data */
	int platform_set;
	struct ncu ncu;
};

static int is_identity(const char *name)
{
	for (int i = 0; identity[i]; i++)
		if (!strcmp(identity[i], name))
			return 1;
	return strchr(name, ':') != NULL;	/* NVTX columns */
}

static int header(struct csv *c, struct ctx *x)
{
	x->id = csv_col(c, "ID");
	x->kernel = csv_col(c, "Kernel Name");
	x->display = csv_col(c, "device__attribute_display_name");
	if (x->id < 0 || x->kernel < 0)
		return 0;
	x->ncols = c->nfields;
	x->units = xcalloc(c->nfields, sizeof(*x->units));
	x->skip = xcalloc(c->nfields, 1);
	for (size_t i = 0; i < c->nfields; i++) {
		const char *n = util_trim(c->fields[i]);

		x->skip[i] = is_identity(n) || !*n ||
			     !strncmp(n, "device__attribute_", 18);
		x->units[i] = xstrdup(n);	/* the name until the units row */
	}
	x->state = 1;
	return 0;
}

static int row(struct csv *c, struct ctx *x, struct imp_sink *sink)
{
	const char *id, *kernel;
	long lid;
	int rc;

	if (c->nfields != x->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, x->ncols,
				    c->nfields);
	id = util_trim(c->fields[x->id]);
	if (util_parse_long(id, &lid) < 0 || lid < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'ID': '%s' is "
				    "not a launch number", c->path, c->line, id);
	kernel = util_trim(c->fields[x->kernel]);
	if (!*kernel)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'Kernel Name' "
				    "is empty", c->path, c->line);
	if (!x->platform_set && x->display >= 0) {
		x->platform_set = 1;
		if (*util_trim(c->fields[x->display]) &&
		    (rc = sink->meta(sink, "platform",
				     c->fields[x->display])) < 0)
			return rc;
	}
	for (size_t i = 0; i < c->nfields; i++) {
		char *name, *unit;

		if (x->skip[i])
			continue;
		name = x->units[i];
		unit = name + strlen(name) + 1;
		if ((rc = ncu_add(&x->ncu, c->path, c->line, id, kernel, name,
				  unit, c->fields[i])) < 0)
			return rc;
	}
	return 0;
}

/* Keep "name\0unit" per column. */
static int units_row(struct csv *c, struct ctx *x)
{
	if (c->nfields != x->ncols || *util_trim(c->fields[x->id]))
		return pc_error_set(PC_EINVALID, "%s:%ld: expected the units "
				    "row (blank ID) after the header", c->path,
				    c->line);
	for (size_t i = 0; i < c->nfields; i++) {
		size_t nl = strlen(x->units[i]);
		const char *u = util_trim(c->fields[i]);
		char *n = xmalloc(nl + strlen(u) + 2);

		memcpy(n, x->units[i], nl + 1);
		memcpy(n + nl + 1, u, strlen(u) + 1);
		free(x->units[i]);
		x->units[i] = n;
	}
	x->state = 2;
	return 0;
}

static void ctx_release(struct ctx *x)
{
	for (size_t i = 0; x->units && i < x->ncols; i++)
		free(x->units[i]);
	free(x->units);
	free(x->skip);
	ncu_release(&x->ncu);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct ctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	ncu_init(&x.ncu);
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c) || !strncmp(c.fields[0], "==", 2))
			continue;
		if (x.state == 0)
			rc = header(&c, &x);
		else if (x.state == 1)
			rc = units_row(&c, &x);
		else
			rc = row(&c, &x, sink);
		if (rc < 0)
			break;
	}
	if (rc == 0 && x.state < 2)
		rc = pc_error_set(PC_EINVALID, "%s: no ncu raw header (ID, "
				  "Kernel Name, metrics) and units row found",
				  in->path);
	else if (rc == 0 && !x.ncu.agg.n)
		rc = pc_error_set(PC_EINVALID, "%s: no launches", in->path);
	else if (rc == 0 && !x.ncu.have_time)
		sink->warn(sink, "%s: no gpu__time_duration.sum column: no "
			   "kernel time", in->path);
	if (rc == 0)
		rc = hwutil_agg_emit(&x.ncu.agg, sink);
	ctx_release(&x);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_ncu_raw = {
	.name = "ncu-raw",
	.kind = "silicon",
	.desc = "Nsight Compute --page raw --csv (units row), per-kernel "
		"gpu__time_duration.sum, cycles, dram bytes ...",
	.probe = probe,
	.import = import,
};
